"""The card and rule catalogues as JSON documents for other languages (``cards.schema.json``, ``rules.schema.json``),
stamped with the oracle's version so that a copy made for an engine can tell which oracle it came from."""

from __future__ import annotations

import json
from collections.abc import Iterable

from oracle.core import versions
from oracle.core.cards import Card, catalogue
from oracle.core.json_types import JSON
from oracle.core.model import PRINTED_VALUE
from oracle.core.rules import Rule, rules, variants

CARDS_FORMAT = "vale-oracle/cards/1"
RULES_FORMAT = "vale-oracle/rules/1"


def _stamp(document_format: str) -> JSON:
    return {"format": document_format, "oracle_version": versions.__version__,
            "suite_version": versions.SUITE_VERSION, "protocol": versions.PROTOCOL_VERSION}


def cards_document(cards: Iterable[Card]) -> JSON:
    """The cards given (in catalogue order), with the stone values, each family's sell value and the Artifacts
    tiles: everything an engine reads from the card data (CARD-1, CARD-2)."""
    data = catalogue()
    return {
        **_stamp(CARDS_FORMAT),
        "stone_values": {color.value: value for color, value in PRINTED_VALUE.items()},
        "sell_values": {family.value: dict(stones) for family, stones in data.sell_values.items()},
        "cards": [card.to_json() for card in cards],
        "artifact_tiles": [{"id": t.id, "name": t.name, "tier": t.tier, "players": t.players,
                            "ability_type": t.ability_type, "text": t.text} for t in data.tiles.values()],
    }


def rule_json(rule: Rule) -> JSON:
    """One catalogue entry, every field (empty ``checked_by`` and ``reason`` included, so the shape is fixed)."""
    return {"id": rule.id, "group": rule.group, "kind": rule.kind, "text": rule.text, "source": rule.source,
            "scope": rule.scope, "checked_by": rule.checked_by, "reason": rule.reason}


def rules_document(chosen: Iterable[Rule]) -> JSON:
    """The rules given (in catalogue order) and every rule variant, the project's reading first."""
    return {
        **_stamp(RULES_FORMAT),
        "rules": [rule_json(rule) for rule in chosen],
        "variants": [{"rule": v.rule, "values": list(v.values), "meanings": list(v.meanings), "source": v.source}
                     for v in variants().values()],
    }


def all_rules() -> list[Rule]:
    return list(rules().values())


def document_text(document: JSON) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
