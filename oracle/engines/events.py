"""The events of an accepted move set against the reference's (docs/protocol.md, Events): what an engine that declares
``events`` promises, and the rule each difference is blamed on.

The promise: for every action it accepts, ``apply`` returns exactly the events the reference emits for it, as a
multiset (the order is free): each of the reference's events once, equal field by field and value by value (``1`` is
not ``1.0`` or ``true``), and no other. Every event's ``type`` is one of :data:`~oracle.core.protocol.EVENT_TYPES`.
An engine that does not declare ``events`` promises nothing of its events, and they are never compared.

A move's events differ from the reference's, in this order of precedence, when

1. an event has no ``type`` of the protocol (PROTO-2: not protocol data);
2. an event of the reference is missing: with an event of the same type left over on the engine's side, that event
   has a wrong value, else it is missing; either is blamed on the rule under which the reference emitted its event;
3. the engine emits an event the reference does not: blamed on the rule of the reference's step (the action's own
   rule), the reference having no event of its own to blame.

Both the first-divergence replay (:mod:`oracle.scenarios.blame`) and the fuzzer's lock-step
(:mod:`vale_invariants.game_lockstep`) compare through :func:`event_difference`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from oracle.core.diff import first_difference
from oracle.core.json_types import JSON
from oracle.core.protocol import EVENT_TYPES
from oracle.reference.rulings import Ruled

SHAPE_RULE = "PROTO-2"
"""The rule an event of no protocol type breaks: everything an engine returns is protocol data of the documented
shape."""
RESHUFFLED = "discard_pile_shuffled"
"""The event of a reshuffle (DECK-1)."""
SHOWN = 160
"""Characters of an event shown in words."""


class EventDifferenceKind(str, Enum):
    """How the engine's events of a move differ from the reference's."""

    UNKNOWN_TYPE = "unknown type"
    """An event whose ``type`` is not one of the protocol's (PROTO-2)."""
    MISSING = "missing"
    """An event of the reference the engine does not emit, nor any of its type."""
    WRONG_VALUE = "wrong value"
    """An event of the reference the engine emits with another value (an event of its type left over)."""
    EXTRA = "extra"
    """An event the engine emits and the reference does not."""


@dataclass(frozen=True)
class EventDifference:
    """The first difference between the events of one accepted move: its kind, the rule blamed, the engine's event
    and the reference's (None where there is none)."""

    kind: EventDifferenceKind
    rule: str
    engine: JSON | None = None
    reference: JSON | None = None

    @property
    def event_type(self) -> str:
        """The protocol type of the event at fault (``type`` for an event of none: never the engine's own word)."""
        if self.kind is EventDifferenceKind.UNKNOWN_TYPE:
            return "type"
        return str((self.reference or self.engine or {}).get("type"))

    @property
    def field(self) -> str:
        """The difference as a field of the move's outcome: ``events.points_gained``, ``events.type``."""
        return f"events.{self.event_type}"

    @property
    def reference_does(self) -> str:
        """What the reference emits, in words (to follow ``after <the move>``)."""
        if self.reference is None:
            return f"emits no such event ({SHAPE_RULE}: only events of the protocol's types)" \
                if self.kind is EventDifferenceKind.UNKNOWN_TYPE else f"emits no {self.event_type} event like it"
        return f"emits {_show(self.reference)}"

    @property
    def engine_does(self) -> str:
        """What the engine emits instead, in words."""
        if self.kind is EventDifferenceKind.MISSING:
            return f"emits no {self.event_type} event"
        shown = _show(self.engine or {})
        if self.kind is EventDifferenceKind.WRONG_VALUE:
            where = first_difference(self.reference, self.engine) or "its value"
            return f"emits {shown} (differs at {where})"
        if self.kind is EventDifferenceKind.UNKNOWN_TYPE:
            return f"emits {shown}, of no event type of the protocol"
        return f"also emits {shown}"


def event_difference(engine: Sequence[object], reference: Sequence[Ruled], root: str,
                     own_orders: bool = False) -> EventDifference | None:
    """The first difference between the events the engine returned for an accepted move and those the reference
    emitted for it (each with the rule it emitted it under), ``root`` the rule of the reference's step; None when
    they are the same multiset. ``own_orders``: the engine reshuffles by itself (DECK-1), so the order of a reshuffle
    is its own (the reference took it from the engine's state, which does not show the order of the cards drawn
    since): the lists an event holds (the cards of a reshuffle, of a reveal) are compared as sets of cards, not in
    order, and its reshuffles come first (DECK-1: the reshuffle it made is the step's cause, whatever led to it)."""
    if own_orders:
        engine = [_unordered(event) for event in engine]
        reference = [Ruled(ruled.rule, _unordered(ruled.event)) for ruled in reference]  # type: ignore[arg-type]
    wanted = [ruled.event for ruled in reference]
    mine = list(engine)
    if mine == wanted and repr(mine) == repr(wanted):
        return None  # the same events in the same order, of the same JSON types (``1`` equals ``true``, unlike it)
    for event in mine:
        if not isinstance(event, dict) or event.get("type") not in EVENT_TYPES:
            return EventDifference(EventDifferenceKind.UNKNOWN_TYPE, SHAPE_RULE,
                                   engine=event if isinstance(event, dict) else {"event": event})
    left = Counter(_key(event) for event in wanted)
    extra: list[JSON] = []
    for event in mine:
        assert isinstance(event, dict)
        key = _key(event)
        if left[key] > 0:
            left[key] -= 1
        else:
            extra.append(event)
    for ruled in sorted(reference, key=lambda r: r.event.get("type") != RESHUFFLED) if own_orders else reference:
        key = _key(ruled.event)
        if left[key] <= 0:
            continue
        left[key] -= 1
        kin = next((event for event in extra if event.get("type") == ruled.event.get("type")), None)
        if kin is not None:
            return EventDifference(EventDifferenceKind.WRONG_VALUE, ruled.rule, engine=kin, reference=ruled.event)
        return EventDifference(EventDifferenceKind.MISSING, ruled.rule, reference=ruled.event)
    if extra:
        return EventDifference(EventDifferenceKind.EXTRA, root, engine=extra[0])
    return None


def _unordered(event: object) -> object:
    """The event with every list it holds sorted (the cards of a reshuffle, of a reveal); anything else as it is."""
    if not isinstance(event, dict):
        return event
    return {key: sorted(value, key=_key) if isinstance(value, list) else value for key, value in event.items()}


def _key(value: object) -> str:
    """The value as canonical JSON: equal for equal events whatever their keys' order, ``1`` apart from ``true``."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
    except (TypeError, ValueError):
        return repr(value)


def _show(event: JSON) -> str:
    text = _key(event)
    return text if len(text) <= SHOWN else f"{text[: SHOWN - 1]}…"
