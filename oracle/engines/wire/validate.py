"""``--validate-protocol``: every message an engine sends, checked against the wire JSON Schemas.

Off by default (it is slow); :func:`enable_protocol_validation` turns it on for this process and the
worker processes it starts (through the environment variable ``VALE_ORACLE_VALIDATE_PROTOCOL``).
A violation is a protocol fault naming the message, the field and the schema rule that failed.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Any

from oracle.core.validation import SCHEMA_DIR
from oracle.engines.wire.settings import VALIDATE

BASE = "https://vale-oracle.dev/schemas/"


def enable_protocol_validation() -> None:
    os.environ[VALIDATE] = "1"


@cache
def _registry() -> Any:
    from referencing import Registry, Resource

    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents.get("$id", BASE + path.name), Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def _validator(ref: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator({"$ref": BASE + ref}, registry=_registry())


def violations(ref: str, instance: object) -> list[str]:
    """Every way ``instance`` breaks the schema at ``ref`` (relative to the schemas' base), as
    ``field: message (rule)`` lines, the deepest field first."""
    errors = sorted(_validator(ref).iter_errors(instance), key=lambda e: (-len(e.absolute_path), str(e.path)))
    out = []
    for error in errors:
        error = _deepest(error)
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
        rule = "/".join(str(p) for p in error.absolute_schema_path)
        out.append(f"{field or '(root)'}: {error.message} (schema rule {error.validator!r} at {rule})")
    return out


def _deepest(error: Any) -> Any:
    """For oneOf/anyOf, the alternative's error that got furthest into the message (the likely intent)."""
    while error.context:
        error = max(error.context, key=lambda e: (len(e.absolute_path), -len(e.absolute_schema_path)))
    return error


def response_violation(method: str, message: object, envelope: str = "wire-response.schema.json") -> str | None:
    """The first way an answer breaks the protocol (its envelope, ``envelope``: either framing by default, and its
    result), as one line naming the message, or None."""
    found = violations(envelope, message)
    if not found and isinstance(message, dict) and "result" in message:
        found = [_under("result", line)
                 for line in violations(f"wire-results.schema.json#/$defs/{method}", message["result"])]
    if not found:
        return None
    answered = message.get("id") if isinstance(message, dict) else None
    return f"protocol violation in the answer to {method} (id {answered}): {found[0]}"


def _under(parent: str, line: str) -> str:
    if line.startswith("(root)"):
        return parent + line[len("(root)"):]
    return parent + ("" if line.startswith("[") else ".") + line
