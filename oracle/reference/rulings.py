"""The reference's account of a step: the rule behind each event it emitted, the rules it applied without changing
anything visible, and the rule under which it asks the pending decision (issue 24, blame by first divergence).

The rules are set where the flow dispatches (an action's entry, a phase step, a frame, an effect, a trigger, a
Table method that follows one rule): :class:`Rulings` keeps the stack of rules in force, and every event takes the
innermost. Nothing here is sent to an engine: the account is read in process, by the first-divergence replay
(:mod:`oracle.engines.blame`).
"""

from __future__ import annotations

from dataclasses import dataclass

from oracle.core.causes import field_pattern
from oracle.core.json_types import JSON

PLAYER = "{player}"
"""Stands for the event's ``player`` in :data:`EVENT_FIELDS`."""
ZONE = "{zone}"
"""Stands for the event's ``zone`` (``area``, ``hand``, ``shelter``) in :data:`EVENT_FIELDS`."""

EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "stones_gained": ("players[{player}].stones",),
    "stones_paid": ("players[{player}].stones",),
    "stones_discarded": ("players[{player}].stones",),
    "stones_exchanged": ("players[{player}].stones",),
    "stones_upgraded": ("players[{player}].stones",),
    "points_gained": ("players[{player}].score",),
    "points_lost": ("players[{player}].score",),
    "card_sold": ("players[{player}].markers", "display", "discard_pile"),
    "card_tamed": ("players[{player}].markers", "display", "players[{player}].hand"),
    "card_summoned": ("players[{player}].hand", "players[{player}].area"),
    "marker_placed": ("players[{player}].markers",),
    "cards_revealed": ("display", "draw_pile"),
    "discard_pile_shuffled": ("draw_pile", "discard_pile"),
    "card_discarded": ("players[{player}].{zone}", "display", "discard_pile"),
    "card_recovered": ("players[{player}].area", "players[{player}].hand"),
    "card_drawn": ("draw_pile", "players[{player}].hand"),
    "card_to_draw_pile": ("players[{player}].area", "players[{player}].hand", "draw_pile"),
    "card_taken_from_discard_pile": ("discard_pile", "players[{player}].hand"),
    "card_sheltered": ("players[{player}].shelter", "players[{player}].hand", "display", "draw_pile"),
    "card_retrieved": ("players[{player}].shelter", "players[{player}].hand"),
    "cards_swapped": ("players",),
    "phase_started": ("phase", "turn_player", "actives_used"),
    "round_started": ("round", "first_player"),
    "turn_ended": ("turn_player", "actives_used"),
    "game_over": ("phase", "turn_player", "winners"),
    "artifact_taken": ("tiles", "square_markers", "players[{player}].artifact"),
    "artifact_returned": ("tiles", "square_markers", "players[{player}].artifact"),
    "area_bought": ("players[{player}].extra_areas",),
}
"""The snapshot fields each event type writes (a field path starts with one of them)."""


def fields_written(event: JSON) -> tuple[str, ...]:
    """The snapshot fields ``event`` writes, its player and zone filled in."""
    player, zone = str(event.get("player")), str(event.get("zone", "area"))
    return tuple(f.replace(PLAYER, player).replace(ZONE, zone) for f in EVENT_FIELDS.get(str(event.get("type")), ()))


def writes(event: JSON, path: str) -> bool:
    """Whether ``event`` writes the snapshot field at ``path`` (``players[1].stones.red``)."""
    return any(_within(path, field) for field in fields_written(event))


def _within(path: str, field: str) -> bool:
    return path == field or path.startswith((f"{field}.", f"{field}[", f"{field} "))


@dataclass(frozen=True, slots=True)
class Ruled:
    """An event of the step and the rule behind it."""

    rule: str
    event: JSON


@dataclass(frozen=True, slots=True)
class Quiet:
    """A rule the reference applied at this step without an event: a trigger site where nothing reacted, a card
    that leaves the area without being discarded, the starting scores of a new game. ``player``: whose position it
    looked at (None for any); ``field``: the fields it decided, as a pattern (``players[*].score``), '' for all."""

    rule: str
    player: int | None
    after: int
    """How many events of the step came before it."""
    field: str = ""

    def covers(self, path: str) -> bool:
        if self.field:
            return _within(field_pattern(path), self.field)
        return self.player is None or path.startswith(f"players[{self.player}]")


@dataclass(frozen=True)
class Account:
    """What the reference did at one step, rule by rule: its events, its quiet rulings and the pending decision's."""

    events: tuple[Ruled, ...] = ()
    quiet: tuple[Quiet, ...] = ()
    decision_rule: str = ""
    """The rule under which the pending decision is asked ('' with none pending)."""
    root: str = ""
    """The rule of the step itself (the action's own rule, or the set-up's)."""

    def writers(self, path: str) -> tuple[Ruled, ...]:
        """The events of the step that wrote the field at ``path``, in order."""
        return tuple(r for r in self.events if writes(r.event, path))

    def quiet_for(self, path: str) -> tuple[Quiet, ...]:
        """The quiet rulings that decided the field at ``path`` (or looked at the position of its player)."""
        return tuple(q for q in self.quiet if q.covers(path))


class Under:
    """``with rulings.under(rule):`` the events emitted inside are ruled by ``rule`` (the innermost rule wins; an
    empty rule leaves the one in force). It holds no state of its own, so one serves every block of its rule."""

    __slots__ = ("nesting", "rule")

    def __init__(self, nesting: list[str], rule: str) -> None:
        self.nesting = nesting
        self.rule = rule

    def __enter__(self) -> None:
        self.nesting.append(self.rule or self.nesting[-1])

    def __exit__(self, *exc: object) -> None:
        self.nesting.pop()


class Rulings:
    """The rules in force while the reference works, and what it records of a step until the step is taken."""

    __slots__ = ("asked_under", "event_rules", "nesting", "quiet", "reasons", "unders")

    def __init__(self, root: str = "") -> None:
        self.nesting: list[str] = [root]
        self.unders: dict[str, Under] = {}
        """The context of each rule, made once (the step's rules are few and come back at every step)."""
        self.event_rules: list[str] = []
        self.quiet: list[Quiet] = []
        self.asked_under = ""
        self.reasons: list[tuple[str, str]] | None = None
        """While a verdict is explained (:mod:`oracle.reference.explain`), the tests that failed on the way, in
        order, each as its rule and the card it was about ('' for none): a full area (SUM-1), a card whose Instant
        effect cannot resolve (SUM-4); None otherwise."""

    def under(self, rule: str) -> Under:
        found = self.unders.get(rule)
        if found is None:
            found = self.unders[rule] = Under(self.nesting, rule)
        return found

    def start(self, root: str) -> None:
        """A new step ruled by ``root`` begins (what an earlier step left untaken is dropped)."""
        self.nesting[:] = [root]
        self.event_rules = []
        self.quiet = []
        self.asked_under = ""

    def note(self, rule: str, player: int | None, events_before: int, field: str = "") -> None:
        self.quiet.append(Quiet(rule, player, events_before, field))

    def take(self) -> Taken:
        """What the step recorded, handed over once (the next step records afresh)."""
        taken = Taken(self.event_rules, self.quiet, self.asked_under, self.nesting[0])
        self.event_rules, self.quiet = [], []
        return taken


@dataclass(frozen=True, slots=True)
class Taken:
    """A step's record as the reference kept it, made into an :class:`Account` only when someone asks."""

    event_rules: list[str]
    quiet: list[Quiet]
    asked_under: str
    root: str

    def account(self, events: list[JSON]) -> Account:
        """The step's account (``events``: the step's events, in the order they were emitted)."""
        rules = self.event_rules
        ruled = tuple(Ruled(rules[i] if i < len(rules) else self.root, e) for i, e in enumerate(events))
        return Account(ruled, tuple(self.quiet), self.asked_under, self.root)
