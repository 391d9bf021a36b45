"""The guard probes of a decision: a fixed battery of illegal answers built for every decision kind.

Each pending decision kind is probed at least once per game (not left to sampling) with an answer from a
player who is not deciding (DEC-1), actions of another kind (DEC-2), malformed stone counts (negative,
fractional, non-integer, huge, a colour left out), a card or option given twice, and answers not offered.
These are the only non-canonical actions the oracle sends; each is labelled with its :class:`GuardProbe`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from oracle.core.json_types import JSON
from oracle.core.protocol import ANSWERS, ActionType, DecisionKind

COLOURS = ("red", "blue", "purple")
STONE_KEYS = ("payment", "stones")
HUGE = 10**12
UNKNOWN_CARD = "no-such-card"
UNKNOWN_OPTION = "no-such-option"
UNKNOWN_TILE = "no-such-tile"


class GuardProbe(Enum):
    """What a guard probe gets wrong."""

    WRONG_PLAYER = "wrong player"
    OTHER_KIND = "action of another kind"
    NEGATIVE_STONES = "negative stone count"
    FRACTIONAL_STONES = "fractional stone count"
    NON_INTEGER_STONES = "non-integer stone count"
    HUGE_STONES = "huge stone count"
    MISSING_COLOUR = "stone colour left out"
    REPEATED_CHOICE = "card or option given twice"
    NOT_OFFERED = "answer not offered"


@dataclass(frozen=True)
class Probe:
    """One illegal answer to a pending decision, and what it gets wrong."""

    what: GuardProbe
    action: JSON


STONE_PROBES = frozenset({GuardProbe.NEGATIVE_STONES, GuardProbe.FRACTIONAL_STONES, GuardProbe.NON_INTEGER_STONES,
                          GuardProbe.HUGE_STONES, GuardProbe.MISSING_COLOUR})
PAYING_KINDS = frozenset({DecisionKind.ACTION, DecisionKind.KEEP_STONES, DecisionKind.PAY, DecisionKind.UPGRADE_STONES})
CHOOSING_KINDS = frozenset({DecisionKind.CHOOSE_CARDS, DecisionKind.CHOOSE_OPTIONS, DecisionKind.SHUFFLE})


def applicable(kind: DecisionKind) -> frozenset[GuardProbe]:
    """The guard probes a decision of ``kind`` can be sent: stone counts only where an answer carries stones,
    repeats only where it lists cards or options."""
    out = set(GuardProbe) - STONE_PROBES - {GuardProbe.REPEATED_CHOICE}
    if kind in PAYING_KINDS:
        out |= STONE_PROBES
    if kind in CHOOSING_KINDS:
        out.add(GuardProbe.REPEATED_CHOICE)
    return frozenset(out)


def guard_probes(kind: DecisionKind, pending: JSON, legal: list[JSON], snapshot: JSON | None,
                 players: int, deck: frozenset[str]) -> list[Probe]:
    """The battery of illegal answers for ``pending`` (a decision of ``kind``), built from its legal answers."""
    if not legal:
        return []
    player = pending.get("player")
    me = _player(snapshot, player)
    sample = legal[0]
    out: list[Probe] = [Probe(GuardProbe.WRONG_PLAYER, {**sample, "player": _other_player(player, players)})]
    out.extend(Probe(GuardProbe.OTHER_KIND, a) for a in _other_kinds(kind, player, me, sample, deck))
    paying = next((a for a in legal if any(_held(_as_me(a)).get(c) for c in COLOURS)),
                  next((a for a in legal if _stones_key(a)), None))
    if paying is not None:
        out.extend(_malformed_stones(paying))
    out.extend(Probe(GuardProbe.REPEATED_CHOICE, a) for a in _repeated(kind, sample, pending))
    out.extend(Probe(GuardProbe.NOT_OFFERED, a) for a in _not_offered(kind, sample, pending, snapshot, me, deck))
    return out


def _player(snapshot: JSON | None, player: object) -> JSON:
    if snapshot is None or not isinstance(player, int) or isinstance(player, bool):
        return {}
    seats = snapshot.get("players", [])
    return seats[player] if 0 <= player < len(seats) and isinstance(seats[player], dict) else {}


def _other_player(player: object, players: int) -> int:
    if not isinstance(player, int) or isinstance(player, bool):
        return 0
    return (player + 1) % max(players, 2)


def _held(me: JSON) -> JSON:
    stones = me.get("stones")
    return stones if isinstance(stones, dict) else {}


def _as_me(action: JSON) -> JSON:
    """The stones an answer carries, under the key a player's stones have in a snapshot."""
    key = _stones_key(action)
    return {"stones": action[key]} if key is not None else {}


def _stones_key(action: JSON) -> str | None:
    return next((k for k in STONE_KEYS if isinstance(action.get(k), dict)), None)


def _a_card(me: JSON, sample: JSON, deck: frozenset[str]) -> str:
    for zone in ("markers", "hand", "area"):
        cards = me.get(zone)
        if isinstance(cards, list) and cards and isinstance(cards[0], str):
            return cards[0]
    card = sample.get("card")
    if isinstance(card, str):
        return card
    return min(deck) if deck else UNKNOWN_CARD


def _other_kinds(kind: DecisionKind, player: object, me: JSON, sample: JSON, deck: frozenset[str]) -> list[JSON]:
    """DEC-2: actions that answer another kind of decision (ending the turn or selling while stones must be kept)."""
    answers = ANSWERS[kind]
    card = _a_card(me, sample, deck)
    held = _held(me)
    tried: list[JSON] = [
        {"type": ActionType.END_TURN.value, "player": player},
        {"type": ActionType.SELL.value, "player": player, "card": card},
        {"type": ActionType.KEEP_STONES.value, "player": player, "stones": {c: held.get(c, 0) for c in COLOURS}},
        {"type": ActionType.PICK.value, "player": player, "card": card},
    ]
    return [a for a in tried if ActionType(a["type"]) not in answers][:2]


def _malformed_stones(action: JSON) -> list[Probe]:
    key = _stones_key(action)
    assert key is not None
    stones: JSON = action[key]
    counts = {c: stones.get(c, 0) for c in COLOURS}
    colour = next((c for c in COLOURS if isinstance(counts[c], int) and counts[c] > 0), "red")
    count = counts[colour] if isinstance(counts[colour], int) else 0
    out = [
        Probe(GuardProbe.NEGATIVE_STONES, {**action, key: {**counts, colour: -1}}),
        Probe(GuardProbe.FRACTIONAL_STONES, {**action, key: {**counts, colour: count + 0.5}}),
        Probe(GuardProbe.NON_INTEGER_STONES, {**action, key: {**counts, colour: str(count)}}),
        Probe(GuardProbe.HUGE_STONES, {**action, key: {**counts, colour: HUGE}}),
    ]
    if count > 0:
        out.append(Probe(GuardProbe.MISSING_COLOUR, {**action, key: {c: n for c, n in counts.items() if c != colour}}))
    return out


def _repeated(kind: DecisionKind, sample: JSON, pending: JSON) -> list[JSON]:
    """A card or option given twice (and a shuffle listing a card twice)."""
    if kind is DecisionKind.CHOOSE_CARDS:
        offered = [c for c in pending.get("cards") or sample.get("cards") or [] if isinstance(c, str)]
        return [{**sample, "cards": [offered[0], offered[0]]}] if offered else []
    if kind is DecisionKind.CHOOSE_OPTIONS:
        offered = [o for o in pending.get("options") or sample.get("options") or [] if isinstance(o, str)]
        return [{**sample, "options": [offered[0], offered[0]]}] if offered else []
    if kind is DecisionKind.SHUFFLE:
        order = [c for c in sample.get("order") or [] if isinstance(c, str)]
        return [{**sample, "order": [*order[:-1], order[0]] if len(order) > 1 else order * 2}] if order else []
    return []


def _not_offered(kind: DecisionKind, sample: JSON, pending: JSON, snapshot: JSON | None, me: JSON,
                 deck: frozenset[str]) -> list[JSON]:
    """An answer of the right kind naming something the decision does not offer."""
    shown = set(snapshot.get("display", [])) if snapshot is not None else set()
    elsewhere = sorted(deck - shown - set(me.get("hand", [])) - set(me.get("area", [])) - set(me.get("markers", [])))
    stranger = elsewhere[0] if elsewhere else UNKNOWN_CARD
    if kind is DecisionKind.HUNT_PICK:
        return [{**sample, "card": stranger}]
    if kind is DecisionKind.ACTION:
        return [{"type": ActionType.SUMMON.value, "player": pending.get("player"), "card": stranger,
                 "payment": {c: 0 for c in COLOURS}}]
    if kind is DecisionKind.NEXT_ACTIVE:
        return [{**sample, "card": stranger}]
    if kind is DecisionKind.CHOOSE_PLAYER:
        offered = [p for p in pending.get("players", []) if isinstance(p, int)]
        return [{**sample, "target": max([*offered, 3]) + 1}]
    if kind is DecisionKind.CHOOSE_CARDS:
        return [{**sample, "cards": [stranger]}]
    if kind is DecisionKind.CHOOSE_OPTIONS:
        return [{**sample, "options": [UNKNOWN_OPTION]}]
    if kind is DecisionKind.SHUFFLE:
        order = [c for c in sample.get("order") or [] if isinstance(c, str)]
        return [{**sample, "order": [*order[:-1], stranger] if order else [stranger]}]
    if kind is DecisionKind.ARTIFACT_PICK:
        return [{**sample, "tile": UNKNOWN_TILE}]
    key = _stones_key(sample)
    if key is not None:
        held = _held(me)
        return [{**sample, key: {c: (held.get(c, 0) if c != "purple" else held.get(c, 0) + 1) for c in COLOURS}}]
    return []
