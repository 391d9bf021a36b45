"""Reusable effect stages and the small tests and card lists they are built from; each states the rule it follows.

In order: stages that ask nothing, stages that ask a decision, conditions on earlier choices, candidate lists,
can-resolve tests (SUM-4), what is done with a choice, and the effects several cards share.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from oracle.core.cards import Card
from oracle.core.model import NO_STONES, EffectType, Family, Stones
from oracle.core.protocol import DecisionKind
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects.context import EffectContext, area_as_if_summoned, hand_as_if_summoned
from oracle.reference.effects.loki import ChooseFamilyForLook
from oracle.reference.effects.registry import Answer, Effect, Stage, instant_can_resolve
from oracle.reference.notes import (
    DISCARD,
    DRAWN,
    OPTIONS,
    RECOVER,
    SHELTERED,
    SUMMONED,
    TARGET,
    Note,
)
from oracle.reference.payment import legal_payments
from oracle.reference.state import EffectKind, Zone
from oracle.reference.table import Table

Condition = Callable[[EffectContext], bool]

# ---------------------------------------------------------------- stages that ask nothing


class Automatic(ABC):
    """A stage that asks nothing. With ``when`` given it acts only if that holds (EFF-2); ``act`` returns False to
    be run again (after a pushed frame, such as a reshuffle, has been dealt with)."""

    when: Condition | None = None

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        return None

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        if self.when is not None and not self.when(ctx):
            return True
        return self.act(ctx)

    @abstractmethod
    def act(self, ctx: EffectContext) -> bool:
        """The stage's work; False to be run again."""


class Do(Automatic):
    """A stage with no decision: run ``action`` once."""

    def __init__(self, action: Callable[[EffectContext], object]) -> None:
        self.action = action

    def act(self, ctx: EffectContext) -> bool:
        self.action(ctx)
        return True


def gain_points(n: int) -> Do:
    return Do(lambda ctx: ctx.table.gain_points(ctx.owner, n, ctx.source_id))


def gain_points_if(n: int, condition: Condition) -> Do:
    """'If the condition holds, gain ``n`` points.'"""

    def act(ctx: EffectContext) -> None:
        if condition(ctx):
            ctx.table.gain_points(ctx.owner, n, ctx.source_id)

    return Do(act)


def gain_points_per(n: int, count: Callable[[EffectContext], int]) -> Do:
    """'Gain ``n`` points per ...'."""
    return Do(lambda ctx: ctx.table.gain_points(ctx.owner, n * count(ctx), ctx.source_id))


def points_per_card_of(points: int, family: Family | None = None, group: int = 1) -> tuple[Stage, ...]:
    """'``points`` points per card of ``family`` in your area' (per ``group`` of them: Fireblast's pairs), the acting
    card included (SUM-5); with no ``family``, of the family named under ``OPTIONS`` (Kraken, Rukh). Loki's owner
    first chooses Loki's family for this look (ART-11)."""

    def count(ctx: EffectContext) -> int:
        families = (family,) if family is not None else tuple(Family(name) for name in ctx.note(OPTIONS))
        return sum(ctx.count_in_area(f) for f in families) // group

    return (ChooseFamilyForLook(), gain_points_per(points, count))


def gain_stones(stones: Stones) -> Do:
    return Do(lambda ctx: ctx.table.gain_stones(ctx.owner, stones, ctx.source_id))


def discard_stones_for_points(stones: Stones, points: int) -> Do:
    """EFF-2: discard ``stones``; only if they were really held and discarded, gain ``points``."""

    def act(ctx: EffectContext) -> None:
        if ctx.table.stones(ctx.owner).contains(stones):
            ctx.table.discard_stones(ctx.owner, stones, ctx.source_id)
            ctx.table.gain_points(ctx.owner, points, ctx.source_id)

    return Do(act)


def recover_self() -> Do:
    """EFF-6: 'Recover' with no target returns this card. It is in its owner's area: an Active effect starts from
    the area, and Boreas' points before its recover move no card."""
    return Do(lambda ctx: ctx.table.recover(ctx.owner, ctx.card_id, ctx.source_id))


class Draw(Automatic):
    """Draw one card; an empty draw pile is first refilled from the discard pile (DECK-1).

    With ``when`` given, the draw happens only if it holds (EFF-2). The card drawn is noted under ``DRAWN``.
    """

    def __init__(self, when: Condition | None = None) -> None:
        self.when = when

    def act(self, ctx: EffectContext) -> bool:
        if ctx.table.needs_shuffle():
            ctx.table.push_shuffle()
            return False
        ctx.remember(DRAWN, ctx.table.draw(ctx.owner, ctx.source_id))
        return True


class ShelterFromDrawPile(Automatic):
    """ART-7: shelter the top ``n`` cards of the draw pile, one at a time; an empty draw pile is first refilled
    from the discard pile (DECK-1). With no card left anywhere, fewer cards are sheltered. ``when`` makes
    the stage conditional (EFF-2); the number sheltered so far is noted under ``SHELTERED``."""

    def __init__(self, n: int, when: Condition | None = None) -> None:
        self.n = n
        self.when = when

    def act(self, ctx: EffectContext) -> bool:
        table = ctx.table
        done = ctx.note(SHELTERED)
        while done < self.n:
            if table.needs_shuffle():
                ctx.remember(SHELTERED, done)
                table.push_shuffle()
                return False
            if not table.state.draw_pile:
                break
            table.shelter(ctx.owner, table.state.draw_pile[0], Zone.DRAW_PILE, ctx.source_id)
            done += 1
        ctx.remember(SHELTERED, done)
        return True


# ---------------------------------------------------------------- stages that ask a decision


@dataclass(frozen=True, eq=False)
class _Choose(ABC):
    """Ask a player to choose between ``least`` and ``most`` of the items on offer now; note the choice under
    ``note``. With nothing on offer the stage notes an empty choice without asking (EFF-2: the part that needs
    it does not happen)."""

    note: Note[tuple[str, ...]]
    prompt: str
    offered: Callable[[EffectContext], list[str]]
    least: int = 1
    most: int = 1
    chooser: Callable[[EffectContext], int] | None = None

    @abstractmethod
    def _ask(self, ctx: EffectContext, player: int, items: list[str], least: int, most: int) -> DecisionSpec:
        """The decision offering ``items`` to ``player``."""

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        items = self.offered(ctx)
        if not items:
            return None
        player = ctx.owner if self.chooser is None else self.chooser(ctx)
        most = min(self.most, len(items))
        return self._ask(ctx, player, items, min(self.least, most), most)

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        ctx.remember(self.note, answer if isinstance(answer, tuple) else ())
        return True


@dataclass(frozen=True, eq=False)
class ChooseCards(_Choose):
    """Ask ``chooser`` (default: the owner) to choose among the cards ``offered`` lists. While ``in_order`` holds
    the order of the answer matters (EFF-8) and is kept; otherwise the chosen cards are noted sorted."""

    in_order: Condition | None = None

    def _ordered(self, ctx: EffectContext) -> bool:
        return self.in_order is not None and self.in_order(ctx)

    def _ask(self, ctx: EffectContext, player: int, items: list[str], least: int, most: int) -> DecisionSpec:
        return DecisionSpec(
            DecisionKind.CHOOSE_CARDS, player, self.prompt, source=ctx.source_id,
            cards=tuple(sorted(items)), min=least, max=most, ordered=most > 1 and self._ordered(ctx),
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        chosen = answer if isinstance(answer, tuple) else ()
        ctx.remember(self.note, chosen if self._ordered(ctx) else tuple(sorted(chosen)))
        return True


@dataclass(frozen=True, eq=False)
class ChooseOptions(_Choose):
    """Ask the owner to choose among the options ``offered`` lists, in their order."""

    def _ask(self, ctx: EffectContext, player: int, items: list[str], least: int, most: int) -> DecisionSpec:
        return DecisionSpec(
            DecisionKind.CHOOSE_OPTIONS, player, self.prompt, source=ctx.source_id,
            options=tuple(items), min=least, max=most,
        )


class ChoosePlayer:
    """Ask the owner to choose a player among ``candidates``; note the index under ``note``. There is always one:
    Goblin's opponents, and a player with a card of the family for the cards whose SUM-4 test asks for one."""

    def __init__(self, note: Note[int | None], prompt: str, candidates: Callable[[EffectContext], list[int]]) -> None:
        self.note = note
        self.prompt = prompt
        self.candidates = candidates

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        players = tuple(self.candidates(ctx))
        return DecisionSpec(DecisionKind.CHOOSE_PLAYER, ctx.owner, self.prompt, source=ctx.source_id, players=players)

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        ctx.remember(self.note, answer if isinstance(answer, int) else None)
        return True


class UpgradeStones:
    """STONE-2 / RUL-8: upgrade between ``least`` and ``most`` of the ``eligible`` stones one step each (red to
    blue, blue to purple): each stone at most once, purple never.

    The owner chooses which (an ``upgrade_stones`` decision, also when one colour is eligible). There is always
    a red or blue stone to choose, and it is held: Duduri and the Book of Thoth test for one first (SUM-4), and
    Duduri King's upgrade of a Wind sale's stones comes before any holding-limit choice could give one up (LIMIT-2).
    """

    def __init__(self, prompt: str, eligible: Callable[[EffectContext], Stones], least: int = 1, most: int = 1) -> None:
        self.prompt = prompt
        self.eligible = eligible
        self.least = least
        self.most = most

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        wanted = self.eligible(ctx)
        eligible = Stones(red=wanted.red, blue=wanted.blue)
        most = min(self.most, eligible.total)
        return DecisionSpec(
            DecisionKind.UPGRADE_STONES, ctx.owner, self.prompt, source=ctx.source_id,
            eligible=eligible, min=min(self.least, most), max=most,
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        assert isinstance(answer, Stones), f"an upgrade answers stones, not {answer!r}"
        ctx.table.upgrade_stones(ctx.owner, answer.red, answer.blue, ctx.source_id)
        return True


class PayPrice:
    """RUL-9: pay a price like a cost under the payment rules (PAY-1..PAY-5, the stone values in force, no cost
    change), then ``then`` happens. Asked only when ``when`` holds and a legal payment exists (EFF-2)."""

    def __init__(
        self, cost: int, prompt: str, then: Callable[[EffectContext], None], when: Condition | None = None,
    ) -> None:
        self.cost = cost
        self.prompt = prompt
        self.then = then
        self.when = when

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        if (self.when is not None and not self.when(ctx)) or not can_pay(ctx.table, ctx.owner, self.cost):
            return None
        return DecisionSpec(DecisionKind.PAY, ctx.owner, self.prompt, source=ctx.source_id, cost=self.cost)

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        if isinstance(answer, Stones):
            ctx.table.pay_stones(ctx.owner, answer, purpose=f"{ctx.source_id}: price {self.cost}")
            self.then(ctx)
        return True


class SummonFromHand:
    """RUL-2: summon a fitting card from the owner's hand without paying its cost.

    The summon needs a free area (SUM-1) and an Instant effect that can resolve (SUM-4). The chosen card
    goes through a full summon (SUM-6): triggers fire (a free summon pays no stones) and its Instant
    effect resolves before this effect continues. The card summoned is noted under ``SUMMONED``.

    There is always a card to summon into a free area: the SUM-4 test of each card with this stage (Dragon Egg,
    Young Forest Spirit, Horus) asks for one, on the position after paying and after the stages before it.
    """

    def __init__(self, prompt: str, fits: Callable[[Card], bool]) -> None:
        self.prompt = prompt
        self.fits = fits

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        cards = free_summon_candidates(ctx.table, ctx.owner, ctx.card_id, self.fits)
        return DecisionSpec(
            DecisionKind.CHOOSE_CARDS, ctx.owner, self.prompt, source=ctx.source_id, cards=tuple(sorted(cards))
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        assert isinstance(answer, tuple) and len(answer) == 1, f"a free summon answers one card, not {answer!r}"
        ctx.remember(SUMMONED, answer[0])
        ctx.table.place_summoned(ctx.owner, answer[0], Stones(), free=True)
        return True


# ---------------------------------------------------------------- conditions on earlier choices


def chose(note: Note[tuple[str, ...]], option: str | None = None) -> Condition:
    """``option`` is among the choices noted under ``note`` (with no option: something was chosen)."""

    def test(ctx: EffectContext) -> bool:
        chosen = ctx.note(note)
        return bool(chosen) if option is None else option in chosen

    return test


def chosen_player(ctx: EffectContext) -> int:
    """The player chosen under ``TARGET`` (the owner if none was chosen)."""
    target = ctx.note(TARGET)
    return ctx.owner if target is None else target


# ---------------------------------------------------------------- candidate lists


def hand_cards(ctx: EffectContext) -> list[str]:
    return ctx.hand()


def other_summoned(ctx: EffectContext) -> list[str]:
    """The owner's summoned cards other than the acting one."""
    return [c for c in ctx.table.state.players[ctx.owner].area if c != ctx.card_id]


def players_with_summoned(family: Family) -> Callable[[EffectContext], list[int]]:
    """Players (the owner included) with at least one summoned card of ``family``."""

    def candidates(ctx: EffectContext) -> list[int]:
        return [p for p in range(ctx.table.state.n) if ctx.table.summoned(p, family)]

    return candidates


def chosen_players_cards(family: Family, exclude_acting: bool = False) -> Callable[[EffectContext], list[str]]:
    """The chosen player's summoned ``family`` cards (Loki on its owner's turn may be chosen as one: ART-11)."""

    def candidates(ctx: EffectContext) -> list[str]:
        cards = ctx.table.summoned(chosen_player(ctx), family)
        return [c.id for c in cards if not (exclude_acting and c.id == ctx.card_id)]

    return candidates


def family_names(ctx: EffectContext) -> list[str]:
    """'Choose a family': every family may be named (Kraken, Rukh)."""
    return [f.value for f in Family]


def held_stones(ctx: EffectContext) -> Stones:
    return ctx.table.stones(ctx.owner)


def any_card(card: Card) -> bool:
    return True


def free_summon_candidates(table: Table, owner: int, acting: str, fits: Callable[[Card], bool]) -> list[str]:
    """Hand cards (``acting`` aside) that fit and whose Instant effect could resolve (SUM-4)."""
    return list(_free_summons(table, owner, acting, fits))


def free_summon_possible(table: Table, owner: int, acting: str, fits: Callable[[Card], bool]) -> bool:
    """SUM-4: some hand card (``acting`` aside) fits and its Instant effect could resolve; the search stops at the
    first one (a can-resolve test asks only whether there is one, and each answer may itself try free summons)."""
    return next(_free_summons(table, owner, acting, fits), None) is not None


def _free_summons(table: Table, owner: int, acting: str, fits: Callable[[Card], bool]) -> Iterator[str]:
    for card_id in hand_as_if_summoned(table, owner, acting):
        if fits(table.card(card_id)) and instant_can_resolve(table, owner, card_id):
            yield card_id


# ---------------------------------------------------------------- can-resolve tests (SUM-4)


def another_card_in_area(table: Table, owner: int, acting: str) -> bool:
    """SUM-4/SUM-5: the owner has a summoned card besides the acting one (counted as already placed)."""
    return any(c.id != acting for c in area_as_if_summoned(table, owner, acting))


def summoned_anywhere(family: Family) -> Callable[[Table, int, str], bool]:
    """SUM-4: some player has a summoned ``family`` card other than the acting card (Loki on its owner's turn
    qualifies unasked: ART-11)."""

    def can_resolve(table: Table, owner: int, acting: str) -> bool:
        return any(c.id != acting for p in range(table.state.n) for c in table.summoned(p, family))

    return can_resolve


def summoned_anywhere_counting_acting(family: Family) -> Callable[[Table, int, str], bool]:
    """SUM-4: some player has a summoned card of ``family``, the acting card counted in its owner's area (SUM-5)."""

    def can_resolve(table: Table, owner: int, acting: str) -> bool:
        if table.card(acting).family is family:
            return True
        return any(table.summoned(p, family) for p in range(table.state.n))

    return can_resolve


def holds_an_upgradable_stone(table: Table, owner: int, acting: str) -> bool:
    """SUM-4: a red or blue stone is held (a purple one cannot be upgraded: STONE-2)."""
    held = table.stones(owner)
    return held.red + held.blue >= 1


def another_card_in_hand(table: Table, owner: int, acting: str) -> bool:
    """SUM-4/SUM-5: a card other than the acting one is in the owner's hand."""
    return bool(hand_as_if_summoned(table, owner, acting))


def can_pay(table: Table, player: int, cost: int) -> bool:
    """Whether the player holds a legal payment of ``cost`` (PAY-1..PAY-5, the values in force)."""
    return bool(legal_payments(table.stones(player), table.stone_values(player), cost))


# ---------------------------------------------------------------- what is done with a choice


def discard_chosen_from_hand(ctx: EffectContext) -> int:
    """Discard the hand cards chosen under ``DISCARD``; returns how many were discarded."""
    chosen = ctx.note(DISCARD)
    for card_id in chosen:
        ctx.table.discard_from_hand(ctx.owner, card_id, ctx.source_id)
    return len(chosen)


def recover_chosen(ctx: EffectContext) -> str | None:
    """EFF-6: the summoned card chosen under ``RECOVER`` returns to the owner's hand; returns it, if one was."""
    card_id = ctx.chosen(RECOVER)
    if card_id is not None:
        ctx.table.recover(ctx.owner, card_id, ctx.source_id)
    return card_id


def gain_printed_cost_of(note: Note[tuple[str, ...]], move: Callable[[Table, int, str, str], None]) -> Do:
    """The card chosen under ``note`` is moved by ``move(table, owner, card, source)`` (discarded, recovered), then
    the owner gains its printed cost in points (the cost printed, whatever the move became: Ash, RUL-5)."""

    def act(ctx: EffectContext) -> None:
        card_id = ctx.the_chosen(note)
        move(ctx.table, ctx.owner, card_id, ctx.source_id)
        ctx.table.gain_points(ctx.owner, ctx.card(card_id).cost, ctx.source_id)

    return Do(act)


def recovers_itself(table: Table, owner: int, card_id: str) -> None:
    """RUL-4: a card whose Permanent condition for recovering itself is met returns to its owner's hand."""
    table.recover(owner, card_id, card_id)


def copy_effect(ctx: EffectContext, source_card: str, effect_type: EffectType) -> None:
    """RUL-12: resolve another card's effect as if printed on the acting card."""
    ctx.table.push_effect(ctx.owner, ctx.card_id, EffectKind(effect_type.value), source=source_card)


def resolve_active_of(ctx: EffectContext, card_id: str) -> None:
    """Resolve the Active effect of ``card_id`` (a card of the owner's area) now."""
    ctx.table.push_effect(ctx.owner, card_id, EffectKind.ACTIVE)


# ---------------------------------------------------------------- effects several cards share

RUL_1 = "RUL-1"
PER_STONE = "per_stone"


def times_triggered(table: Table, stones_paid: int) -> int:
    """RUL-1: Kappa and Gargoyle trigger once for a summon paying at least one stone of their colour; under the
    ``per_stone`` variant once for each such stone."""
    if table.state.setup.variant(RUL_1) == PER_STONE:
        return stones_paid
    return 1 if stones_paid >= 1 else 0


EFF_8 = "EFF-8"
SIMULTANEOUS = "simultaneous"


def discards_one_at_a_time(ctx: EffectContext) -> bool:
    """EFF-8: several cards discarded by one effect leave one at a time, in the deciding player's order; under
    the ``simultaneous`` variant they leave together and their order means nothing."""
    return ctx.table.state.setup.variant(EFF_8) != SIMULTANEOUS




@dataclass(frozen=True)
class Trade:
    """One option of a trade: give up stones and points, then receive stones and points."""

    give_stones: Stones = NO_STONES
    give_points: int = 0
    get_stones: Stones = NO_STONES
    get_points: int = 0


def choose_a_trade(prompt: str, trades: dict[str, Trade], rule: str) -> Effect:
    """Choose one trade and make it; only the trades the owner can pay for (the stones held, the points had) are
    offered (EFF-1, RUL-14), and with none of them nothing happens."""

    def offered(ctx: EffectContext) -> list[str]:
        held, have = ctx.table.stones(ctx.owner), ctx.table.score(ctx.owner)
        return [name for name, t in trades.items() if held.contains(t.give_stones) and have >= t.give_points]

    def trade(ctx: EffectContext) -> None:
        name = ctx.chosen(OPTIONS)
        if name is not None:
            chosen = trades[name]
            ctx.table.discard_stones(ctx.owner, chosen.give_stones, ctx.source_id)
            ctx.table.lose_points(ctx.owner, chosen.give_points, ctx.source_id)
            ctx.table.gain_stones(ctx.owner, chosen.get_stones, ctx.source_id)
            ctx.table.gain_points(ctx.owner, chosen.get_points, ctx.source_id)

    return Effect((ChooseOptions(OPTIONS, prompt, offered), Do(trade)), rule=rule)


def _chosen_player_discards(ctx: EffectContext) -> None:
    """The chosen player has a card of the family (that is why they could be chosen), so one was picked."""
    card_id = ctx.chosen(DISCARD)
    assert card_id is not None, "the chosen player had a card of the family to pick"
    ctx.table.discard_from_area(chosen_player(ctx), card_id, ctx.source_id)


def points_then_chosen_player_discards(name: str, points: int, family: Family) -> Effect:
    """Gain points; choose a player (yourself allowed) with a summoned ``family`` card; THAT player picks one
    of them to discard (EFF-7). With no such card anywhere the card cannot be summoned (SUM-4, the Ember ruling).
    """
    label = family.value.capitalize()
    return Effect((
        gain_points(points),
        ChoosePlayer(TARGET, f"{name}: choose a player with a summoned {label} card", players_with_summoned(family)),
        ChooseCards(DISCARD, f"{name}: discard one of your summoned {label} cards", chosen_players_cards(family),
                    chooser=chosen_player),
        Do(_chosen_player_discards),
    ), can_resolve=summoned_anywhere_counting_acting(family), rule="SUM-4")
