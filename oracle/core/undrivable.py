"""Decisions an adapter cannot drive: the ``undrivable`` marker of a pending decision (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

UNDRIVABLE = "undrivable"
"""The field of a pending decision that says the adapter cannot answer it, and why."""


def undrivable_reason(pending: dict[str, Any] | None) -> str:
    """Why the adapter cannot answer ``pending`` ('' when it can, or nothing is pending)."""
    if pending is None:
        return ""
    reason = pending.get(UNDRIVABLE)
    return " ".join(reason.split()) if isinstance(reason, str) else ""


def undrivable_message(pending: dict[str, Any]) -> str:
    """``the adapter cannot drive the choose_options decision of P0 (base-water-12): a modal dialog``."""
    who = "chance" if pending.get("player") is None else f"P{pending.get('player')}"
    source = f" ({pending['source']})" if isinstance(pending.get("source"), str) else ""
    return f"the adapter cannot drive the {pending.get('kind')} decision of {who}{source}: {undrivable_reason(pending)}"
