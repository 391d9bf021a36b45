"""One-off importer: copies card facts from the shared reference into oracle/data/cards.json.

Run by hand when the shared reference changes; the package never reads ../shared at run time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "reference" / "cards.json"
TARGET = ROOT / "oracle" / "data" / "cards.json"


def _card(entry: dict[str, object]) -> dict[str, object]:
    effects = entry["effects"]
    assert isinstance(effects, list)
    return {
        "id": entry["id"],
        "name": entry["name"],
        "set": "base" if entry["set"] == "base" else "artifacts",
        "family": entry["family"],
        "cost": entry["cost"],
        "effect_types": entry["effect_types"],
        "effects": [{"type": e["type"], "text": e["text"]} for e in effects],
    }


def _tile(entry: dict[str, object]) -> dict[str, object]:
    effects = entry["effects"]
    assert isinstance(effects, list)
    return {
        "id": entry["id"],
        "name": entry["name"],
        "tier": entry["tier"],
        "players": entry["players"] or "-",
        "ability_type": entry["ability_type"],
        "text": effects[0]["text"],
    }


def main() -> int:
    source = json.loads(SOURCE.read_text(encoding="utf-8"))
    data = {
        "version": 1,
        "stone_values": {"red": 1, "blue": 3, "purple": 6},
        "sell_values": {
            "fire": {"red": 3},
            "water": {"blue": 1},
            "earth": {"red": 4},
            "wind": {"red": 1, "blue": 1},
            "dragon": {"purple": 1},
        },
        "cards": [_card(c) for c in source["base"]] + [_card(c) for c in source["artifacts_expansion"]],
        "artifact_tiles": [_tile(t) for t in source["artifact_tiles"]],
    }
    TARGET.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
