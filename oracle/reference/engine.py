"""The reference engine: the complete rules, behind the engine protocol."""

from __future__ import annotations

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.protocol import ApplyResult, Rejection, reference_handshake
from oracle.core.versions import __version__
from oracle.reference import actions, flow
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects import load_handlers
from oracle.reference.moves import Move
from oracle.reference.rulings import Account
from oracle.reference.snapshot import ENGINE_NAME, SnapshotError, export_state, load_state, parse_setup, tiles_for
from oracle.reference.state import GameState, Phase, PlayerState
from oracle.reference.table import Table

SETUP_RULES = (("SETUP-2", "players[*].score"), ("SETUP-3", "players"), ("SETUP-1", ""))
"""What each set-up rule decides in a new game's position (the starting scores, the players' empty hands, areas and
stones, the rest), for the account of ``new_game`` (:mod:`oracle.reference.rulings`)."""


class SetupError(ValueError):
    """``new_game`` was given a set-up it cannot play; the message names the field."""


class ReferenceEngine:
    """The rules as the project reads them; every other engine is compared against this one."""

    table_class: type[Table] = Table
    """The table every game of this engine is played on. A subclass of :class:`Table` that overrides the method
    computing a rule (``holding_limit``, ``summon_cost``, ``stone_values`` …) tries another reading of that rule; its
    copies keep the subclass (docs/protocol.md, "Trying another reading of a rule")."""

    def __init__(self, declared: dict[str, str] | None = None) -> None:
        """``declared``: rule variants this engine declares and plays where a set-up or snapshot names none."""
        load_handlers()
        self.declared = dict(declared or {})
        self.table: Table | None = None
        self.spec: DecisionSpec | None = None
        self._decision_json: tuple[DecisionSpec, JSON] | None = None
        """The pending decision as JSON, remembered for the spec it was made from (one entry: a new spec
        replaces it)."""
        self._events: list[JSON] = []
        """The events of the last step (for :attr:`account`)."""
        self._listed: Listed | None = None
        """What the last ``legal_actions`` listed, until the next step (an action applied as listed is not judged
        again)."""

    def handshake(self) -> JSON:
        shake = reference_handshake(ENGINE_NAME, __version__)
        shake["variants"] = {**shake["variants"], **self.declared}
        return shake

    # ------------------------------------------------------------------ lifecycle

    def new_game(self, setup: JSON) -> list[JSON]:
        """SETUP-1..3: seat the players, give starting points 1..4 from the first player, lay the deck."""
        try:
            parsed = parse_setup(setup, self.declared)
        except SnapshotError as exc:  # pragma: no cover - a malformed setup
            raise SetupError(str(exc)) from None
        first = setup.get("first_player", 0)
        if not isinstance(first, int) or not 0 <= first < parsed.players:
            raise SetupError(  # pragma: no cover - a malformed setup
                f"setup.first_player: must be a player index below {parsed.players}, got {first!r}")
        sets = ["base", "artifacts"] if parsed.expansion else ["base"]
        expected = sorted(c.id for c in catalogue().in_sets(sets))
        deck = setup.get("deck")
        if deck is None:
            deck = expected  # pragma: no cover - the setup suite's games deal the default; each scenario lays its own
        if not isinstance(deck, list) or sorted(deck) != expected:
            raise SetupError(  # pragma: no cover - a malformed setup
                f"setup.deck: must list each of the {len(expected)} cards exactly once")
        starting_points = {(first + rank) % parsed.players: rank + 1 for rank in range(parsed.players)}
        state = GameState(
            setup=parsed, first_player=first, draw_pile=list(deck),
            players=[PlayerState(score=starting_points[seat]) for seat in range(parsed.players)],
            tiles=tiles_for(parsed) if parsed.artifacts else [],
        )
        self.table = self.table_class(state)
        self._listed = None
        self.table.rulings.start("SETUP-1")
        for rule, field in SETUP_RULES:
            self.table.ruled_quietly(rule, None, field)
        self.table.emit("game_started", players=parsed.players, first_player=first)
        self.table.emit("phase_started", phase=Phase.HUNTING.value, round=1)
        self.spec = flow.settle(self.table)
        return self._take_events()

    def load(self, snapshot: JSON) -> None:
        state = load_state(snapshot, self.declared)
        self.table = self.table_class(state)
        self._listed = None
        self.table.rulings.start("PROTO-1")
        self.spec = flow.settle(self.table)
        self._events = self.table.take_events()

    def export(self) -> JSON:
        table = self._require_game()
        return export_state(table.state, self.decision())

    # ------------------------------------------------------------------ decisions

    def decision(self) -> JSON | None:
        if self.spec is None:
            return None
        if self._decision_json is None or self._decision_json[0] is not self.spec:
            self._decision_json = (self.spec, self.spec.to_json())
        return dict(self._decision_json[1])

    def legal_actions(self) -> list[JSON]:
        moves = actions.legal_moves(self._require_game(), self.spec)
        listed = [move.to_json() for move in moves]
        self._listed = Listed(self.spec, listed, moves)
        return listed

    # No scenario asks for the batch verdict (the lock-step and random play do): tests/test_try_actions.py.
    def try_actions(self, candidates: list[JSON]) -> list[JSON]:  # pragma: no cover - asked by games, not scenarios
        """Each action's verdict as :meth:`apply` would give it now, the state unchanged (capability ``try_actions``,
        PROTO-2): the one check per action that lists and rejects, with the listing's memo of the position."""
        table = self._require_game()
        with table.listing():
            return [verdict_of(actions.parse(table, self.spec, action)) for action in candidates]

    def apply(self, action: JSON) -> JSON:
        table = self._require_game()
        listed, self._listed = self._listed, None
        move = (listed and listed.move_of(action, self.spec)) or actions.parse(table, self.spec, action)
        if isinstance(move, Rejection):
            return ApplyResult(False, [], move).to_json()
        assert self.spec is not None
        actions.apply(table, self.spec, move)
        self.spec = flow.settle(table)
        return ApplyResult(True, self._take_events()).to_json()

    # ------------------------------------------------------------------ helpers

    # Tests, fixtures and invariants read the state in process, the protocol never: tests/test_reference_plumbing.py.
    @property
    def state(self) -> GameState:  # pragma: no cover - in-process accessor, not protocol
        return self._require_game().state

    def _require_game(self) -> Table:
        # A caller that never started a game: tests/test_reference_plumbing.py.
        if self.table is None:  # pragma: no cover - no game loaded: a caller's error
            raise RuntimeError("no game: call new_game() or load() first")
        return self.table

    def _take_events(self) -> list[JSON]:
        self._events = self._require_game().take_events()
        return self._events

    # The first-divergence replay and the comparison of events read it in process, the protocol never
    # (oracle/scenarios/blame.py, oracle/engines/events.py).
    @property
    def account(self) -> Account:  # pragma: no cover - read beside an engine under test, not by scenarios
        """The last step's account, rule by rule: the rule behind each of its events, the rules it applied without
        an event, and the rule under which the pending decision is asked (:mod:`oracle.reference.rulings`)."""
        table = self._require_game()
        return table.taken.account(self._events)


class Listed:
    """The moves a listing judged legal, each with the action it was listed as: while the pending decision has not
    changed, an action passed back exactly as listed answers it legally without being parsed and judged again."""

    __slots__ = ("pairs", "spec")

    def __init__(self, spec: DecisionSpec | None, actions: list[JSON], moves: list[Move]) -> None:
        self.spec = spec
        self.pairs = tuple(zip(actions, moves, strict=True))
        """Kept apart from the list handed out, which its caller may change (a subclass adding to it)."""

    def move_of(self, action: JSON, spec: DecisionSpec | None) -> Move | None:
        """The listed move ``action`` is, if it is one of the listed actions itself (not a copy) and still equal to
        its move, for the decision ``spec`` that was listed; else None (the action is then parsed and judged)."""
        for listed, move in self.pairs:
            if listed is action and spec is self.spec and action == move.to_json():
                # An action applied as listed: random games, tests/test_reference_plumbing.py.
                return move  # pragma: no cover - games pass back listed actions, the scenarios write their own
        return None


def verdict_of(judged: object) -> JSON:  # pragma: no cover - asked by games, not scenarios
    """A ``try_actions`` verdict: accepted, or the rejection ``judged`` is."""
    if isinstance(judged, Rejection):
        return {"accepted": False, "rejection": judged.to_json()}
    return {"accepted": True}


def create() -> ReferenceEngine:
    """The factory ``oracle check --impl`` uses by default."""
    return ReferenceEngine()
