"""The invariants the fuzzer checks: each has a name, the rule ids it enforces, and one sentence.

A failure names the invariant and the rule id that was broken (one of the invariant's rules, or the
rule the reference engine cites when it rejects what the engine under test accepted).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Invariant:
    """One checked property. ``needs`` lists the engine capabilities it cannot do without."""

    name: str
    rules: tuple[str, ...]
    text: str
    needs: tuple[str, ...] = ()


_ALL = (
    Invariant("INV-SETUP", ("SETUP-1", "SETUP-2", "SETUP-3", "HUNT-1"),
              "a new game starts in round 1, Hunting phase, with scores 1..n from the first player, no stones, "
              "empty hands and areas, and the display revealed from the top of the given deck", ("export",)),
    Invariant("INV-LIMIT", ("LIMIT-1", "LIMIT-2"),
              "no player holds more stones than their holding limit except while a keep-stones decision is pending",
              ("export",)),
    Invariant("INV-AREA", ("SUM-1", "ART-8"),
              "no player has more summoned cards than areas (the round number, plus at most 2 Additional Areas)",
              ("export",)),
    Invariant("INV-CONSERVATION", ("SETUP-1",),
              "every card of the deck is in exactly one zone (draw pile, display, a hand, an area, a shelter, the "
              "discard pile)",
              ("export",)),
    Invariant("INV-SCORE-FLOOR", ("SCORE-1",), "no score ever goes below 0", ("export",)),
    Invariant("INV-PAYMENT", ("PAY-1", "PAY-2", "PAY-3", "PAY-5"),
              "an accepted summon or remove pays stones held, worth at least the cost, with no superfluous stone, "
              "and no change comes back", ("export",)),
    Invariant("INV-PROGRESS", ("ROUND-1", "ROUND-2", "END-1", "END-2"),
              "phases follow Hunting, Action, Resolution; the first player passes to the left each round; the game "
              "ends exactly at the end of a round with 60+ points or of round 10, with the right winners",
              ("export",)),
    Invariant("INV-TURN-ORDER", ("HUNT-2", "HUNT-3", "ACT-1", "EFF-5"),
              "hunting picks go clockwise then counter-clockwise; Action and Resolution turns go clockwise from the "
              "first player", ("export",)),
    Invariant("INV-LEGAL-APPLIES", ("DEC-2", "DEC-1"),
              "a pending decision has legal actions, each answers it, and the chosen one is accepted"),
    Invariant("INV-ILLEGAL-REJECTED", ("DEC-4", "DEC-2"),
              "sampled illegal actions (unlisted candidates, corrupted payments, wrong player or type) are rejected "
              "with a known code and leave the state unchanged"),
    Invariant("INV-DECISION-GUARDS", ("DEC-1", "DEC-2", "DEC-4"),
              "the first decision of each kind in a game rejects, with a known code and no change to the state or the "
              "pending decision, an answer from another player, actions of another kind, malformed stone counts, a "
              "card or option given twice and answers not offered"),
    Invariant("INV-ROUNDTRIP", ("PROTO-1",),
              "at every step, loading the exported snapshot into a fresh engine exports the same snapshot",
              ("export", "load")),
    Invariant("INV-SNAPSHOT-STABLE", ("PROTO-1",),
              "a snapshot returned by export() is data: it does not change when the engine plays on", ("export",)),
    Invariant("INV-DETERMINISM", ("SETUP-1", "DECK-1"),
              "replaying the same set-up and actions in a fresh engine gives the same states"),
)

INVARIANTS: dict[str, Invariant] = {inv.name: inv for inv in _ALL}

LOCKSTEP = Invariant(
    "LOCKSTEP", (),
    "in lock-step with the reference engine, the decisions, the legal-action sets and the canonical snapshots agree "
    "after every step",
)
ENGINE_FAULT = Invariant("ENGINE-FAULT", (), "the engine answers every protocol call without raising or hanging")
REFERENCE_FAULT = Invariant("REFERENCE-FAULT", (), "the reference engine answers every call (a reference bug)")

ALL_NAMES: tuple[str, ...] = tuple(INVARIANTS)


def describe(name: str) -> Invariant:
    if name in INVARIANTS:
        return INVARIANTS[name]
    for special in (LOCKSTEP, ENGINE_FAULT, REFERENCE_FAULT):
        if special.name == name:
            return special
    raise KeyError(name)
