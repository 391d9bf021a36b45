"""The invariant checks: pure functions of canonical snapshots (and, where the rules need card data,
the reference engine's reading of the engine's own snapshot).

Each check returns None or a :class:`Finding` naming the invariant and the rule id broken.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from oracle.core.causes import Verdict
from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.results import Outcome
from oracle.reference import ReferenceEngine
from oracle.reference.effects import load_handlers
from oracle.reference.effects.registry import TRIGGERED
from oracle.reference.payment import check_payment
from vale_invariants.trace import Signature

PHASE_INDEX = {"hunting": 0, "action": 1, "resolution": 2}
GAME_OVER = "game_over"
BASE_LIMIT = 4
MAX_EXTRA_AREAS = 2


@dataclass(frozen=True)
class Finding:
    invariant: str
    rule: str
    message: str
    expected: str = ""
    actual: str = ""
    outcome: Outcome = Outcome.FAIL
    extra_rules: tuple[str, ...] = ()
    signature: Signature | None = None
    """The known cause this finding is, when it is more than its invariant and rule (an illegal action accepted)."""

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.rule, *[r for r in self.extra_rules if r != self.rule]) if self.rule else self.extra_rules

    @property
    def known_as(self) -> Signature:
        return self.signature or Signature(Verdict.OTHER, self.invariant, self.rule)


class ReferenceView:
    """The reference engine loaded with an engine's snapshot, built on first use (None if it cannot load)."""

    def __init__(self, snapshot: JSON | None) -> None:
        self.snapshot = snapshot
        self._engine: ReferenceEngine | None = None
        self._tried = False

    @property
    def engine(self) -> ReferenceEngine | None:
        if not self._tried:
            self._tried = True
            if self.snapshot is not None:
                engine = ReferenceEngine()
                try:
                    engine.load(self.snapshot)
                except Exception:
                    return None
                self._engine = engine
        return self._engine


def _stones(data: Any) -> Stones | None:
    try:
        return Stones.from_json(data)
    except (ValueError, TypeError, AttributeError):
        return None


def _total(data: Any) -> int:
    if not isinstance(data, dict):
        return 0
    return sum(v for v in data.values() if isinstance(v, int))


def _seats(first: int, n: int) -> list[int]:
    return [(first + i) % n for i in range(n)]


# ---------------------------------------------------------------------------------------------- start


def check_setup(snapshot: JSON, setup: JSON) -> Finding | None:
    """INV-SETUP: the state right after ``new_game``."""
    n = setup["players"]
    first = setup["first_player"]
    deck = list(setup["deck"])
    if snapshot.get("round") != 1 or snapshot.get("phase") != "hunting":
        return Finding("INV-SETUP", "SETUP-1", "a new game must start in round 1, Hunting phase",
                       "round 1, hunting", f"round {snapshot.get('round')}, {snapshot.get('phase')}")
    if snapshot.get("first_player") != first:
        return Finding("INV-SETUP", "SETUP-1", "the first player is the one given in the set-up",
                       str(first), str(snapshot.get("first_player")))
    players = snapshot.get("players", [])
    if len(players) != n:
        return Finding("INV-SETUP", "SETUP-3", f"{n} players were seated", str(n), str(len(players)))
    for rank, seat in enumerate(_seats(first, n), start=1):
        if players[seat].get("score") != rank:
            return Finding("INV-SETUP", "SETUP-2", f"player {seat} (number {rank} from the first player) "
                           f"starts with {rank} point(s)", str(rank), str(players[seat].get("score")))
    for i, player in enumerate(players):
        if _total(player.get("stones")) or any(player.get(k) for k in ("hand", "area", "markers", "shelter",
                                                                         "extra_areas", "artifact")):
            return Finding("INV-SETUP", "SETUP-3", f"player {i} starts with no stones, an empty hand and area",
                           "nothing", f"{player}")
    display = list(snapshot.get("display", []))
    if len(display) not in (0, 2 * n) or sorted(display) != sorted(deck[: len(display)]) or list(
        snapshot.get("draw_pile", [])
    ) != deck[len(display):]:
        return Finding("INV-SETUP", "HUNT-1", "the display is revealed from the top of the given deck",
                       f"display {sorted(deck[: 2 * n])}", f"display {sorted(display)}")
    return None


# ---------------------------------------------------------------------------------------------- states


def check_limit(snapshot: JSON, pending: JSON | None, view: ReferenceView) -> Finding | None:
    """INV-LIMIT: over the holding limit only while a keep-stones decision is pending for such a player, or,
    before it, the question of a Permanent effect triggered by the gain (Duduri King's upgrade on a Wind sale:
    LIMIT-2)."""
    players = snapshot.get("players", [])
    over: list[tuple[int, int, int]] = []
    for i, player in enumerate(players):
        held = _total(player.get("stones"))
        if held <= BASE_LIMIT:
            continue
        engine = view.engine
        limit = engine.table.holding_limit(i) if engine is not None and engine.table is not None else BASE_LIMIT
        if engine is None and "base-fire-01" in player.get("area", []):
            limit += 2
        if held > limit:
            over.append((i, held, limit))
    keeping = pending is not None and pending.get("kind") == "keep_stones"
    if keeping and pending is not None:
        who = pending.get("player")
        mine = [o for o in over if o[0] == who]
        if not mine:
            return Finding("INV-LIMIT", "LIMIT-2", f"player {who} is asked to keep stones while within the limit",
                           "no keep-stones decision", f"{pending}")
        if pending.get("limit") is not None and pending.get("limit") != mine[0][2]:
            return Finding("INV-LIMIT", "LIMIT-2", f"player {who} must keep exactly their limit",
                           f"keep {mine[0][2]}", f"keep {pending.get('limit')}")
        return None
    if over and not _gain_trigger_asking(pending, over):
        i, held, limit = over[0]
        return Finding("INV-LIMIT", "LIMIT-1", f"player {i} holds {held} stones, over the limit of {limit}, and is "
                       "not asked which to keep", f"at most {limit} stones", f"{held} stones")
    return None


def _gain_trigger_asking(pending: JSON | None, over: list[tuple[int, int, int]]) -> bool:
    """LIMIT-2: the only player over the limit answers a Permanent trigger's question (a card with a staged
    trigger), which comes before their keep-stones decision."""
    load_handlers()
    return pending is not None and pending.get("source") in TRIGGERED and [pending.get("player")] == [
        o[0] for o in over]


def check_area(snapshot: JSON) -> Finding | None:
    """INV-AREA: at most as many summoned cards as the round number plus bought Additional Areas (at most 2)."""
    round_number = snapshot.get("round", 0)
    for i, player in enumerate(snapshot.get("players", [])):
        extra = player.get("extra_areas", 0)
        if not isinstance(extra, int) or not 0 <= extra <= MAX_EXTRA_AREAS:
            return Finding("INV-AREA", "ART-8", f"player {i} has {extra} Additional Areas",
                           f"at most {MAX_EXTRA_AREAS}", str(extra))
        capacity = round_number + extra
        area = player.get("area", [])
        if len(area) > capacity:
            where = f"round {round_number}" + (f" with {extra} Additional Area(s)" if extra else "")
            return Finding("INV-AREA", "SUM-1", f"player {i} has {len(area)} summoned cards in {where}",
                           f"at most {capacity}", str(len(area)))
    return None


def zones(snapshot: JSON) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {
        "draw_pile": list(snapshot.get("draw_pile", [])),
        "display": list(snapshot.get("display", [])),
        "discard_pile": list(snapshot.get("discard_pile", [])),
    }
    for i, player in enumerate(snapshot.get("players", [])):
        out[f"players[{i}].hand"] = list(player.get("hand", []))
        out[f"players[{i}].area"] = list(player.get("area", []))
        if "shelter" in player:
            out[f"players[{i}].shelter"] = list(player.get("shelter", []))
    return out


def check_conservation(snapshot: JSON, deck: frozenset[str]) -> Finding | None:
    """INV-CONSERVATION: every card in exactly one zone, none added or lost."""
    cards: list[str] = []
    for zone in zones(snapshot).values():
        cards.extend(zone)
    if len(cards) == len(deck) and set(cards) == deck:
        return None
    where: dict[str, list[str]] = {}
    for name, zone in zones(snapshot).items():
        for card in zone:
            where.setdefault(card, []).append(name)
    doubled = sorted(c for c, z in where.items() if len(z) > 1)
    missing = sorted(deck - set(where))
    extra = sorted(set(where) - deck)
    if doubled:
        detail = f"{doubled[0]} is in {', '.join(where[doubled[0]])}"
    elif missing:
        detail = f"{len(missing)} card(s) in no zone, e.g. {missing[0]}"
    else:
        detail = f"{len(extra)} card(s) not in the deck, e.g. {extra[0]}"
    return Finding("INV-CONSERVATION", "SETUP-1", f"cards are not conserved: {detail}",
                   f"{len(deck)} cards, each once", f"{len(cards)} cards, {len(set(cards))} distinct")


def check_score_floor(snapshot: JSON) -> Finding | None:
    """INV-SCORE-FLOOR."""
    for i, player in enumerate(snapshot.get("players", [])):
        score = player.get("score", 0)
        if isinstance(score, int) and score < 0:
            return Finding("INV-SCORE-FLOOR", "SCORE-1", f"player {i} has a negative score", ">= 0", str(score))
    return None


# ---------------------------------------------------------------------------------------------- transitions


def _end_reached(snapshot: JSON, round_number: int) -> bool:
    """END-1 at the end of round ``round_number``, with the scores of ``snapshot``."""
    setup = snapshot.get("setup", {})
    scores = [p.get("score", 0) for p in snapshot.get("players", [])]
    end_score = setup.get("end_score", 80 if setup.get("artifacts") else 60)
    return bool(max(scores, default=0) >= end_score or round_number >= setup.get("rounds", 10))


def _winners(snapshot: JSON) -> list[int]:
    players = snapshot.get("players", [])
    marks = [(p.get("score", 0), len(p.get("area", []))) for p in players]
    best = max(marks, default=(0, 0))
    return [i for i, m in enumerate(marks) if m == best]


def check_progress(prev: JSON, cur: JSON, pending: JSON | None) -> Finding | None:
    """INV-PROGRESS: ROUND-1 phase order, ROUND-2 first player, END-1 end of game, END-2 winners."""
    p_phase, c_phase = prev.get("phase"), cur.get("phase")
    p_round, c_round = prev.get("round", 0), cur.get("round", 0)
    n = len(cur.get("players", [])) or 1
    if (pending is None) != (c_phase == GAME_OVER):
        return Finding("INV-PROGRESS", "END-1", "a decision is pending exactly until the game is over",
                       "no decision" if c_phase == GAME_OVER else "a decision",
                       f"phase {c_phase}, decision {pending}", extra_rules=("DEC-3",))
    if c_phase == GAME_OVER:
        if p_phase == GAME_OVER:
            return None
        if p_phase not in ("action", "resolution") or c_round != p_round:
            return Finding("INV-PROGRESS", "END-1", "the game ends only at the end of a round",
                           "end after a Resolution phase", f"ended from round {p_round} {p_phase}")
        if not _end_reached(cur, c_round):
            return Finding("INV-PROGRESS", "END-1", f"the game ended after round {c_round} with top score "
                           f"{max(p.get('score', 0) for p in cur['players'])}: too early",
                           "60+ points or round 10", f"round {c_round}")
        winners = sorted(int(w) for w in cur.get("winners", []))
        if winners != _winners(cur):
            return Finding("INV-PROGRESS", "END-2", "the winners have the most points, then the most summoned "
                           "cards", str(_winners(cur)), str(winners))
        return None
    if c_phase not in PHASE_INDEX or p_phase not in PHASE_INDEX:
        return Finding("INV-PROGRESS", "ROUND-1", f"unknown phase {c_phase!r}", "hunting, action or resolution",
                       str(c_phase))
    if cur.get("winners"):
        return Finding("INV-PROGRESS", "END-2", "there are no winners before the game is over", "[]",
                       str(cur.get("winners")))
    jump = (c_round - p_round) * 3 + PHASE_INDEX[c_phase] - PHASE_INDEX[p_phase]
    skipped_action = c_round == p_round and p_phase == "hunting" and c_phase == "resolution"
    skipped_hunt = c_round == p_round + 1 and p_phase == "resolution" and c_phase == "action" and cur.get("display")
    if c_round not in (p_round, p_round + 1) or not 0 <= jump <= 2 or skipped_action or skipped_hunt:
        return Finding("INV-PROGRESS", "ROUND-1", "each round goes Hunting, Action, Resolution, in that order",
                       f"from round {p_round} {p_phase}", f"round {c_round} {c_phase}")
    if c_round == p_round + 1:
        if _end_reached(cur, p_round):
            return Finding("INV-PROGRESS", "END-1", f"round {p_round} ended with the end condition met but the "
                           "game went on", "game over", f"round {c_round} started")
        expected_first = (prev.get("first_player", 0) + 1) % n
        if cur.get("first_player") != expected_first:
            return Finding("INV-PROGRESS", "ROUND-2", "the first player passes to the left at a new round",
                           str(expected_first), str(cur.get("first_player")))
    elif cur.get("first_player") != prev.get("first_player"):
        return Finding("INV-PROGRESS", "ROUND-2", "the first player changes only between rounds",
                       str(prev.get("first_player")), str(cur.get("first_player")))
    return None


def check_turn_order(prev: JSON | None, cur: JSON, pending: JSON | None) -> Finding | None:
    """INV-TURN-ORDER: who is asked to pick, act or resolve."""
    if pending is None:
        return None
    n = len(cur.get("players", []))
    if n == 0:
        return None
    seats = _seats(cur.get("first_player", 0), n)
    kind = pending.get("kind")
    who = pending.get("player")
    if kind == "hunt_pick":
        placed = sum(len(p.get("markers", [])) for p in cur["players"])
        order = seats + seats[::-1]
        if placed >= len(order):
            return Finding("INV-TURN-ORDER", "HUNT-3", f"a pick is asked after all {len(order)} markers are placed",
                           "no further pick", f"pick by player {who}")
        if who != order[placed]:
            return Finding("INV-TURN-ORDER", "HUNT-2" if placed < n else "HUNT-3",
                           f"marker {placed + 1} is placed by player {order[placed]}", str(order[placed]), str(who))
        return None
    if kind in ("action", "next_active"):
        phase = "action" if kind == "action" else "resolution"
        rule = "ACT-1" if kind == "action" else "EFF-5"
        if cur.get("phase") != phase or who != cur.get("turn_player"):
            return Finding("INV-TURN-ORDER", rule, f"a {kind} decision belongs to the {phase} turn's player",
                           f"player {cur.get('turn_player')} in {phase}", f"player {who} in {cur.get('phase')}")
        if prev is None or who not in seats:
            return None
        same_phase = prev.get("phase") == phase and prev.get("round") == cur.get("round")
        position = seats.index(who)
        if not same_phase:
            if phase == "action" and position != 0:
                return Finding("INV-TURN-ORDER", "ACT-1", "the Action phase starts with the first player",
                               str(seats[0]), str(who))
            return None
        before = prev.get("turn_player")
        if before not in seats:
            return None
        step = position - seats.index(before)
        if step < 0 or (phase == "action" and step > 1):
            return Finding("INV-TURN-ORDER", rule, f"{phase} turns go clockwise from the first player",
                           f"player {before} or the next", f"player {who}")
    return None


# ---------------------------------------------------------------------------------------------- payments


def check_payment_step(before: JSON, action: JSON, after: JSON, view: ReferenceView) -> Finding | None:
    """INV-PAYMENT for an accepted summon or remove: legal payment, and exactly the paid stones leave."""
    player = action.get("player")
    if not isinstance(player, int) or not 0 <= player < len(before.get("players", [])):
        return None
    paid = _stones(action.get("payment"))
    held = _stones(before["players"][player].get("stones"))
    if paid is None or held is None:
        return Finding("INV-PAYMENT", "PAY-5", "the engine accepted a payment that is not a stone collection",
                       "a rejection", f"accepted {action.get('payment')}")
    engine = view.engine
    if engine is None or engine.table is None:
        return None
    table = engine.table
    card_id = action.get("card")
    if action.get("type") == "summon":
        if card_id not in table.cards.cards:
            return None
        cost = table.summon_cost(player, table.card(str(card_id)))
    else:
        cost = table.state.round
    values = table.stone_values(player)
    rejection = check_payment(held, paid, values, cost)
    if rejection is not None:
        return Finding("INV-PAYMENT", rejection.rule, f"the engine accepted an illegal payment: {rejection.message}",
                       f"a rejection {rejection.code.value}", "accepted")
    result = engine.apply(action)
    if not result.get("accepted"):
        return None
    reference_after = _stones(engine.export()["players"][player]["stones"])
    engine_after = _stones(after["players"][player].get("stones"))
    if reference_after is None or engine_after is None or reference_after != held - paid:
        return None
    if engine_after == reference_after:
        return None
    gained = [c for c in ("red", "blue", "purple") if getattr(engine_after, c) > getattr(reference_after, c)]
    if gained:
        return Finding("INV-PAYMENT", "PAY-2", f"change was given: after paying {paid} from {held} the player "
                       f"holds {engine_after}", str(reference_after), str(engine_after))
    return Finding("INV-PAYMENT", "PAY-2", f"more than the payment was taken: after paying {paid} from {held} the "
                   f"player holds {engine_after}", str(reference_after), str(engine_after))


def multiset_difference(a: list[str], b: list[str]) -> list[str]:
    return sorted((Counter(a) - Counter(b)).elements())
