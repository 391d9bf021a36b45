"""The guard probes of a decision: a fixed battery of illegal answers built for every decision kind.

Each pending decision kind is probed at least once per game (not left to sampling) with an answer from a
player who is not deciding (DEC-1), actions of another kind (DEC-2), malformed stone counts (negative,
fractional, non-integer, huge, a colour left out), a card or option given twice, and answers not offered.
These are the only non-canonical actions the oracle sends; each is labelled with its :class:`GuardProbe`.

The stone probes tempt a lax engine: each is built from a legal answer so that only its malformation makes it
illegal. A negative count is balanced by a surplus of held stones elsewhere, and a fractional count by another
fraction, so that the answer measures what the legal one does (a payment's worth at the stone values in force, a
kept or upgraded set's number of stones); a huge count is the legal count plus 2**32, which a 32-bit engine reads
as the legal count. Where no legal answer allows a balanced probe (a payment of a single red stone has no
fractional balance), the probe falls back to one count changed alone (``n - 1``, ``n + 0.5``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from oracle.core.json_types import JSON
from oracle.core.model import COLORS, PRINTED_VALUE
from oracle.core.protocol import ANSWERS, ActionType, DecisionKind

COLOURS = ("red", "blue", "purple")
STONE_KEYS = ("payment", "stones")
WRAP = 2**32
"""Added to a legal count for the huge probe: more than any player holds, and the legal count again in 32 bits."""
PRINTED_VALUES: Mapping[str, int] = {c.value: PRINTED_VALUE[c] for c in COLORS}
COUNTED = frozenset({ActionType.KEEP_STONES.value, ActionType.UPGRADE_STONES.value})
"""Answers measured by their number of stones (LIMIT-2, STONE-2); payments are measured by their worth (PAY-1)."""
MOST_NEGATIVE = 6
"""The most negative count a balanced probe tries (six red stones balance one purple)."""
HALF_STEPS = (Fraction(1, 2), Fraction(3, 2), Fraction(5, 2))
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
    """One illegal answer to a pending decision, what it gets wrong, and the legal answer it was built from (a
    stone probe measures what ``base`` does: only its malformation is wrong)."""

    what: GuardProbe
    action: JSON
    base: JSON | None = None


@dataclass(frozen=True)
class Measure:
    """How an answer's stones are judged: a weight per colour (a payment: the stone values in force; a kept or
    upgraded set: one per stone), the most of each colour it may name (held, or eligible), and the colours it
    may not change (an upgrade's purple)."""

    weights: Mapping[str, int]
    most: Mapping[str, int]
    fixed: frozenset[str] = frozenset()

    def of(self, counts: Mapping[str, Fraction | int]) -> Fraction:
        return sum((Fraction(counts[c]) * self.weights[c] for c in COLOURS), Fraction(0))

    def free(self) -> tuple[str, ...]:
        return tuple(c for c in COLOURS if c not in self.fixed)

    def fits(self, counts: Mapping[str, Fraction | int]) -> bool:
        """Every count but the negative ones within what may be named (a negative count is the malformation)."""
        return all(counts[c] < 0 or counts[c] <= self.most[c] for c in COLOURS)


def stone_values(values: object) -> dict[str, int]:
    """The stone values of an object with ``red``, ``blue``, ``purple`` (the reference's ``StoneValues``); the printed
    values (STONE-1) when there is none."""
    if values is None:
        return dict(PRINTED_VALUES)
    return {c: int(getattr(values, c, PRINTED_VALUES[c])) for c in COLOURS}


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
                 players: int, deck: frozenset[str], values: Mapping[str, int] | None = None) -> list[Probe]:
    """The battery of illegal answers for ``pending`` (a decision of ``kind``), built from its legal answers;
    ``values`` are the deciding player's stone values in force (RUL-16; the printed ones when not given)."""
    if not legal:
        return []
    player = pending.get("player")
    me = _player(snapshot, player)
    sample = legal[0]
    out: list[Probe] = [Probe(GuardProbe.WRONG_PLAYER, {**sample, "player": _other_player(player, players)})]
    out.extend(Probe(GuardProbe.OTHER_KIND, a) for a in _other_kinds(kind, player, me, sample, deck))
    out.extend(malformed_stones(legal, pending, _held(me) if me else None, values or PRINTED_VALUES))
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


def measure(action: JSON, pending: JSON, held: Mapping[str, object] | None,
            values: Mapping[str, int]) -> Measure:
    """How ``action``'s stones are judged (see :class:`Measure`); without the holdings, its own counts are the most
    it may name."""
    key = _stones_key(action)
    counts = action[key] if key is not None else {}
    own = {c: _whole(counts.get(c, 0)) for c in COLOURS}
    if action.get("type") == ActionType.UPGRADE_STONES.value:
        eligible = pending.get("eligible")
        most = {c: _whole(eligible.get(c, own[c])) if isinstance(eligible, dict) else own[c] for c in COLOURS}
        return Measure(dict.fromkeys(COLOURS, 1), {**most, "purple": 0}, frozenset({"purple"}))
    most = {c: _whole(held.get(c, 0)) for c in COLOURS} if held else own
    weights = dict.fromkeys(COLOURS, 1) if action.get("type") in COUNTED else dict(values)
    return Measure(weights, most)


def malformed_stones(legal: list[JSON], pending: JSON, held: Mapping[str, object] | None,
                     values: Mapping[str, int]) -> list[Probe]:
    """One probe of each stone malformation, each from the first legal answer that lets it measure what that answer
    does (see the module's docstring); none when no legal answer names stones."""
    answers = [a for a in legal if _stones_key(a) is not None]
    if not answers:
        return []
    paying = next((a for a in answers if any(_whole(_held(_as_me(a)).get(c, 0)) for c in COLOURS)), answers[0])
    built = {GuardProbe.NEGATIVE_STONES: _negative, GuardProbe.FRACTIONAL_STONES: _fractional}
    out: list[Probe] = []
    for what, build in built.items():
        found = next(((a, counts) for a in answers
                      if (counts := build(a, measure(a, pending, held, values))) is not None), None)
        base, counts = found if found is not None else (paying, _unbalanced(what, paying))
        out.append(Probe(what, _with_counts(base, counts), base))
    key = _stones_key(paying)
    assert key is not None
    counts = {c: paying[key].get(c, 0) for c in COLOURS}
    colour = next((c for c in COLOURS if isinstance(counts[c], int) and counts[c] > 0), "red")
    count = counts[colour] if isinstance(counts[colour], int) else 0
    out.append(Probe(GuardProbe.NON_INTEGER_STONES, {**paying, key: {**counts, colour: str(count)}}, paying))
    out.append(Probe(GuardProbe.HUGE_STONES, {**paying, key: {**counts, colour: count + WRAP}}, paying))
    if count > 0:
        out.append(Probe(GuardProbe.MISSING_COLOUR, {**paying, key: {c: n for c, n in counts.items() if c != colour}},
                         paying))
    return out


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _counts(action: JSON) -> dict[str, int]:
    key = _stones_key(action)
    stones = action[key] if key is not None else {}
    return {c: _whole(stones.get(c, 0)) for c in COLOURS}


def _with_counts(action: JSON, counts: Mapping[str, object]) -> JSON:
    key = _stones_key(action)
    assert key is not None
    return {**action, key: {c: _number(counts[c]) for c in COLOURS}}


def _number(value: object) -> object:
    """A count as JSON writes it: a whole number as an int, a half as a float."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _closest(candidates: Iterator[dict[str, Fraction]], legal: Mapping[str, int]) -> dict[str, Fraction] | None:
    """The candidate that changes the legal counts least (the first such, in the order tried)."""
    return min(candidates, key=lambda counts: sum(abs(counts[c] - legal[c]) for c in COLOURS), default=None)


def _negative(action: JSON, measure: Measure) -> dict[str, Fraction] | None:
    """One colour's count below zero, the others held, measuring what ``action`` does."""
    legal = _counts(action)
    target = measure.of(legal)
    free = measure.free()

    def candidates() -> Iterator[dict[str, Fraction]]:
        for negative, low in itertools.product(free, range(-1, -MOST_NEGATIVE - 1, -1)):
            others = [c for c in free if c != negative]
            for first in range(measure.most[others[0]] + 1) if others else (0,):
                counts = {**{c: Fraction(legal[c]) for c in COLOURS}, negative: Fraction(low)}
                if others:
                    counts[others[0]] = Fraction(first)
                if len(others) > 1:
                    rest = target - measure.of({**counts, others[1]: 0})
                    counts[others[1]] = rest / measure.weights[others[1]]
                if measure.of(counts) == target and all(counts[c].denominator == 1 for c in COLOURS) \
                        and all(counts[c] >= 0 for c in others) and measure.fits(counts):
                    yield counts

    return _closest(candidates(), legal)


def _fractional(action: JSON, measure: Measure) -> dict[str, Fraction] | None:
    """One colour's count a half more or less, another's changed to make up for it (halves too, none below zero,
    each held), measuring what ``action`` does."""
    legal = _counts(action)
    free = measure.free()

    def candidates() -> Iterator[dict[str, Fraction]]:
        for first, second in itertools.permutations(free, 2):
            for step, sign in itertools.product(HALF_STEPS, (1, -1)):
                change = sign * step
                if not measure.weights[second]:
                    continue
                made_up = -change * measure.weights[first] / measure.weights[second]
                counts = {**{c: Fraction(legal[c]) for c in COLOURS}, first: legal[first] + change,
                          second: legal[second] + made_up}
                if (2 * made_up).denominator == 1 and all(counts[c] >= 0 for c in COLOURS) and measure.fits(counts):
                    yield counts

    return _closest(candidates(), legal)


def _unbalanced(what: GuardProbe, action: JSON) -> dict[str, Fraction]:
    """The fallback where no balance exists: the paying colour's count one less than zero (``-1``) or a half more."""
    legal = _counts(action)
    colour = next((c for c in COLOURS if legal[c] > 0), "red")
    changed = Fraction(-1) if what is GuardProbe.NEGATIVE_STONES else legal[colour] + Fraction(1, 2)
    return {**{c: Fraction(legal[c]) for c in COLOURS}, colour: changed}


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
