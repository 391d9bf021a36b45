"""The reference's rule for a verdict another engine disagrees with (issue 24, blame by first divergence): why it
rejects an action (its rejection's rule), why it accepts one the engine refuses, which rule decides whether an item
of a decision is offered, and which rule ends the game.

Each answer is data: the rule of each rejection code (docs/protocol.md, the table of codes), the rule of each action
type (:data:`oracle.reference.actions.ENTRIES`), the rule of each option (``oracle/data/options.toml``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oracle.core.json_types import JSON
from oracle.core.options import option_rule
from oracle.core.protocol import ActionType, Rejection, RejectionCode
from oracle.core.rules import rules
from oracle.reference import actions, flow
from oracle.reference.effects.registry import instant_can_resolve
from oracle.reference.moves import Move, Pay, Remove, Summon
from oracle.reference.payment import PRINTED_VALUES
from oracle.reference.table import Table

if TYPE_CHECKING:
    from oracle.reference.engine import ReferenceEngine

GAME_END_RULE = flow.END_1
"""The rule that ends the game (a decision pending on one side only is blamed on it)."""

CODE_RULES: dict[RejectionCode, str] = {
    RejectionCode.MALFORMED_ACTION: "DEC-2",
    RejectionCode.GAME_OVER: "DEC-3",
    RejectionCode.NOT_YOUR_DECISION: "DEC-1",
    RejectionCode.WRONG_DECISION: "DEC-2",
    RejectionCode.UNKNOWN_CARD: "DEC-2",
    RejectionCode.CARD_NOT_IN_DISPLAY: "HUNT-1",
    RejectionCode.CARD_ALREADY_MARKED: "HUNT-4",
    RejectionCode.NO_MARKER_ON_CARD: "SELL-2",
    RejectionCode.CARD_NOT_IN_HAND: "SUM-2",
    RejectionCode.CARD_NOT_IN_AREA: "REM-1",
    RejectionCode.AREA_FULL: "SUM-1",
    RejectionCode.INSTANT_UNRESOLVABLE: "SUM-4",
    RejectionCode.STONES_NOT_HELD: "PAY-5",
    RejectionCode.PAYMENT_SHORT: "PAY-1",
    RejectionCode.PAYMENT_SUPERFLUOUS_STONE: "PAY-3",
    RejectionCode.MARKER_STILL_PLACED: "ACT-2",
    RejectionCode.KEEP_WRONG_COUNT: "LIMIT-2",
    RejectionCode.ACTIVE_NOT_AVAILABLE: "EFF-5",
    RejectionCode.INVALID_CHOICE: "DEC-2",
    RejectionCode.INVALID_SHUFFLE: "DECK-1",
    RejectionCode.ARTIFACT_NOT_AVAILABLE: "ART-3",
    RejectionCode.NO_USABLE_ARTIFACT: "ART-5",
    RejectionCode.UPGRADE_INVALID: "STONE-2",
}
"""The rule each rejection code enforces (docs/protocol.md, Applying actions)."""
DECIDING_CODES: dict[str, RejectionCode] = {
    rule: code for code, rule in CODE_RULES.items() if list(CODE_RULES.values()).count(rule) == 1
}
"""The code of a test that follows a rule no other code follows (SUM-1: AREA_FULL), for a refusal that a test of
another rule decided (an Instant effect that cannot resolve for want of a free area is refused for SUM-1)."""


@dataclass(frozen=True)
class Blame:
    """The reference's rule for a verdict, the code of the test that decided it, and the cards that test was about
    (the effect that fixed a cost, the card whose Instant effect cannot resolve)."""

    rule: str
    code: str
    cards: tuple[str, ...] = ()


PAYMENT_CODES = frozenset({RejectionCode.PAYMENT_SHORT, RejectionCode.PAYMENT_SUPERFLUOUS_STONE})
"""The codes judged against a cost and stone values: where an effect in force sets either, its rule decides."""
COST_DECIDES = frozenset({RejectionCode.PAYMENT_SHORT})
"""A payment refused as short falls short of the cost in force: an effect that fixed or changed the cost, or the
stone values, decides (a superfluous stone is one whatever set the cost, PAY-3)."""


def rejection_blame(reference: ReferenceEngine, action: JSON, rejection: JSON) -> Blame:
    """The rule behind the reference's rejection of ``action`` at its current position, and the code of the test that
    decided it: the rejection's own, made precise where another rule decides it:

    * a payment short of a cost (or worth) an effect in force sets: that effect's rule (ART-9, SUM-3, RUL-16);
    * a summon whose Instant effect cannot resolve once paid although it could before, paying more than the cost:
      PAY-2 (the stones paid beyond the cost are lost, so none is left);
    * any other refusal: the first test that failed on the way (a full area: SUM-1, AREA_FULL), else the
      rejection's own rule and code.
    """
    rule, wire = str(rejection.get("rule", "")), str(rejection.get("code", ""))
    try:
        code = RejectionCode(wire)
    except ValueError:
        return Blame(rule, wire)
    table, spec = reference.table, reference.spec
    move = _move(reference, action)
    if table is None or spec is None or move is None:
        return Blame(rule, wire)
    if code in COST_DECIDES:
        price = _price_rule(table, move)
        return Blame(price[0], wire, price[1]) if price[0] else Blame(rule, wire)
    if code is RejectionCode.INSTANT_UNRESOLVABLE and _lost_overpayment(table, move):
        return Blame("PAY-2", wire)
    return _decided(_reasons(table, lambda: actions.ENTRIES[move.type].check(table, spec, move)), Blame(rule, wire))


def verdict_past(reference: ReferenceEngine, action: JSON, rejection: JSON) -> JSON | None:
    """The reference's verdict on ``action`` past the test that refused it (``rejection``), where that test can be
    looked past (:data:`oracle.reference.actions.PASSABLE`): the rejection then (a JSON object), ``{}`` when the
    action would be legal; None when the test cannot be looked past. An engine whose own refusal equals this verdict
    skipped that test: the cause is the test's rule, as for an engine that accepts the action."""
    try:
        code = RejectionCode(rejection.get("code"))
    except ValueError:
        return None
    if code not in actions.PASSABLE or reference.table is None:
        return None
    found = actions.parse(reference.table, reference.spec, action, past=(code,))
    return found.to_json() if isinstance(found, Rejection) else {}


def _decided(reasons: list[tuple[str, str]], otherwise: Blame) -> Blame:
    """The first failed test's rule, code and card, else ``otherwise``."""
    if not reasons:
        return otherwise
    rule, card = reasons[0]
    code = DECIDING_CODES.get(rule)
    return Blame(rule, code.value if code is not None else otherwise.code, (card,) if card else ())


def _protocol_rule(rule: str) -> bool:
    """Whether ``rule`` is one of the protocol's (DEC-2: whose decision it is): an engine that refuses a legal action
    with such a code names no game rule, so the action's own rule is blamed."""
    found = rules().get(rule)
    return found is not None and found.group == "protocol"


def acceptance_blame(reference: ReferenceEngine, action: JSON, engine_code: str) -> Blame:
    """Why the reference accepts ``action`` the engine refuses with ``engine_code``: for a payment, the rule of an
    effect that sets the cost or the stone values in force; else the rule of that code (the reference finds nothing
    it forbids); else the rule of the action itself."""
    table = reference.table
    move = _move(reference, action)
    try:
        code: RejectionCode | None = RejectionCode(engine_code)
    except ValueError:
        code = None
    if code in PAYMENT_CODES and table is not None and move is not None:
        rule, cards = _price_rule(table, move)
        if rule:
            return Blame(rule, engine_code, cards)
    if code is not None and code in CODE_RULES and not _protocol_rule(CODE_RULES[code]):
        return Blame(CODE_RULES[code], engine_code)
    try:
        return Blame(actions.ENTRIES[ActionType(action.get("type"))].rule, engine_code)
    except (ValueError, KeyError):
        return Blame("DEC-2", engine_code)


def item_blame(reference: ReferenceEngine, decision: JSON, item: object, code: str) -> Blame | None:
    """The rule that decides whether ``item`` is offered in the reference's pending ``decision`` (``code``: the
    reference's refusal of the answer choosing it): the option's own (``oracle/data/options.toml``), else the first
    test that failed while the reference worked out the offer (a card whose Instant effect cannot resolve: SUM-4,
    INSTANT_UNRESOLVABLE); None when neither does (the decision's rule then)."""
    found = option_rule(str(decision.get("source", "")), str(item))
    if found:
        return Blame(found, code)
    table = reference.table
    if table is None:
        return None
    reasons = _reasons(table, lambda: flow.ask_again(table))
    return _decided(reasons, Blame("", code)) if reasons else None


# ---------------------------------------------------------------------------------------------- helpers


def _move(reference: ReferenceEngine, action: JSON) -> Move | None:
    """The action read as a move answering the pending decision (None when it does not read as one)."""
    table = reference.table
    if table is None or reference.spec is None:
        return None
    try:
        entry = actions.ENTRIES[ActionType(action.get("type"))]
    except (ValueError, KeyError):
        return None
    move = entry.parse(table, reference.spec, action)
    return None if isinstance(move, Rejection) else move


def _reasons(table: Table, judge: Callable[[], object]) -> list[tuple[str, str]]:
    """The rules of the tests that failed while ``judge`` ran (:attr:`Rulings.reasons`)."""
    table.rulings.reasons = []
    try:
        judge()
        return list(table.rulings.reasons)
    finally:
        table.rulings.reasons = None


def _payer(move: Move) -> int:
    assert move.player is not None, "a payment is made by a player (DEC-1 is checked first)"
    return move.player


def _price_rule(table: Table, move: Move) -> tuple[str, tuple[str, ...]]:
    """The rule of the effect in force that sets what a payment must cover, and its card: a fixed cost (ART-9), a
    cost change (SUM-3), changed stone values (RUL-16); ('', ()) when the printed cost and values stand."""
    if not isinstance(move, (Summon, Remove, Pay)):
        return "", ()
    player = _payer(move)
    in_force = table.in_force(player)
    if isinstance(move, Summon):
        card = table.card(move.card)
        fixing = [(c.id, e.rule) for c, e in in_force if e.fixed_cost is not None and e.fixed_cost(card) is not None]
        changing = [(c.id, e.rule) for c, e in in_force if e.cost_change is not None and e.cost_change(card)]
        for card_id, rule in fixing[:1] or changing[:1]:
            return rule, (card_id,)
    if table.stone_values(player) != PRINTED_VALUES:
        changes = [(c.id, e.rule) for c, e in in_force if e.red_bonus or e.blue_purple_bonus or e.swap_blue_purple]
        for card_id, rule in changes[:1]:
            return rule, (card_id,)
    return "", ()


def _lost_overpayment(table: Table, move: Move) -> bool:
    """A summon paying more than its cost whose Instant effect could resolve before paying (PAY-2 decides)."""
    if not isinstance(move, Summon):
        return False
    player = _payer(move)
    cost = table.summon_cost(player, table.card(move.card))
    return table.stone_values(player).worth(move.payment) > cost and instant_can_resolve(table, player, move.card)
