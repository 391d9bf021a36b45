"""The JSON Schemas shipped with the package (``oracle/schemas/*.schema.json``)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"


@cache
def schema(name: str) -> dict[str, Any]:
    """Load ``<name>.schema.json`` (snapshot, action, apply-result, handshake, scenario, report)."""
    data: dict[str, Any] = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    return data


def validation_errors(name: str, instance: object) -> list[str]:
    """Every way ``instance`` breaks schema ``name``, as 'path: message' lines (empty when valid)."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema(name))
    out = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path)):
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
        out.append(f"{path or '(root)'}: {error.message}")
    return out
