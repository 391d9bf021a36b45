"""Reusable effect stages. Card handlers compose these; each states the rule it follows."""

from __future__ import annotations

from collections.abc import Callable

from oracle.cards import Card
from oracle.model import EffectType, Family, Stones
from oracle.protocol import DecisionKind
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects.context import EffectContext, hand_as_if_summoned
from oracle.reference.effects.registry import Answer, instant_can_resolve
from oracle.reference.state import Frame
from oracle.reference.table import Table


class Do:
    """A stage with no decision: run ``action`` once."""

    def __init__(self, action: Callable[[EffectContext], None]) -> None:
        self.action = action

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        return None

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        self.action(ctx)
        return True


def gain_points(n: int) -> Do:
    return Do(lambda ctx: ctx.table.gain_points(ctx.owner, n, ctx.source_id))


def gain_points_per(n: int, count: Callable[[EffectContext], int]) -> Do:
    return Do(lambda ctx: ctx.table.gain_points(ctx.owner, n * count(ctx), ctx.source_id))


def gain_stones(stones: Stones) -> Do:
    return Do(lambda ctx: ctx.table.gain_stones(ctx.owner, stones, ctx.source_id))


def recover_self() -> Do:
    """EFF-6: 'Recover' with no target returns this card (if still in its owner's area)."""

    def act(ctx: EffectContext) -> None:
        if ctx.card_id in ctx.table.state.players[ctx.owner].area:
            ctx.table.recover(ctx.owner, ctx.card_id, ctx.source_id)

    return Do(act)


class Draw:
    """Draw one card; an empty draw pile is first refilled from the discard pile (DECK-1).

    With ``if_memo`` set, the draw happens only when that memo flag is true (EFF-2).
    """

    def __init__(self, if_memo: str = "") -> None:
        self.if_memo = if_memo

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        return None

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        if self.if_memo and not ctx.memo.get(self.if_memo):
            return True
        if ctx.table.needs_shuffle():
            ctx.table.push_shuffle()
            return False
        drawn = ctx.table.draw(ctx.owner, ctx.source_id)
        ctx.memo["drawn"] = drawn
        return True


class ChooseCards:
    """Ask ``chooser`` (default: the owner) to choose cards; store them in ``memo[key]``.

    ``candidates`` lists the cards on offer. With no candidates the stage stores an empty choice
    without asking (EFF-2: the part that needs them does not happen).
    """

    def __init__(
        self,
        key: str,
        prompt: str,
        candidates: Callable[[EffectContext], list[str]],
        least: int = 1,
        most: int = 1,
        chooser: Callable[[EffectContext], int] | None = None,
    ) -> None:
        self.key = key
        self.prompt = prompt
        self.candidates = candidates
        self.least = least
        self.most = most
        self.chooser = chooser

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        cards = sorted(self.candidates(ctx))
        if not cards:
            return None
        player = ctx.owner if self.chooser is None else self.chooser(ctx)
        most = min(self.most, len(cards))
        least = min(self.least, most)
        return DecisionSpec(
            DecisionKind.CHOOSE_CARDS, player, self.prompt, source=ctx.source_id,
            cards=tuple(cards), min=least, max=most,
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        ctx.memo[self.key] = list(answer) if isinstance(answer, tuple) else []
        return True


class ChooseOptions:
    """Ask the owner to choose between ``least`` and ``most`` of the options available now."""

    def __init__(
        self, key: str, prompt: str, available: Callable[[EffectContext], list[str]], least: int = 1, most: int = 1
    ) -> None:
        self.key = key
        self.prompt = prompt
        self.available = available
        self.least = least
        self.most = most

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        options = self.available(ctx)
        if not options:
            return None
        most = min(self.most, len(options))
        return DecisionSpec(
            DecisionKind.CHOOSE_OPTIONS, ctx.owner, self.prompt, source=ctx.source_id,
            options=tuple(options), min=min(self.least, most), max=most,
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        ctx.memo[self.key] = list(answer) if isinstance(answer, tuple) else []
        return True


class ChoosePlayer:
    """Ask the owner to choose a player among ``candidates``; store the index in ``memo[key]``."""

    def __init__(self, key: str, prompt: str, candidates: Callable[[EffectContext], list[int]]) -> None:
        self.key = key
        self.prompt = prompt
        self.candidates = candidates

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        players = self.candidates(ctx)
        if not players:
            return None
        return DecisionSpec(
            DecisionKind.CHOOSE_PLAYER, ctx.owner, self.prompt, source=ctx.source_id, players=tuple(players)
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        ctx.memo[self.key] = answer if isinstance(answer, int) else None
        return True


def players_with_summoned(family: Family) -> Callable[[EffectContext], list[int]]:
    """Players (the owner included) with at least one summoned card of ``family``."""

    def candidates(ctx: EffectContext) -> list[int]:
        return [p for p in range(ctx.table.state.n) if ctx.table.summoned(p, family)]

    return candidates


def own_area_cards(predicate: Callable[[EffectContext, str], bool]) -> Callable[[EffectContext], list[str]]:
    def candidates(ctx: EffectContext) -> list[str]:
        return [c for c in ctx.table.state.players[ctx.owner].area if predicate(ctx, c)]

    return candidates


def hand_cards(ctx: EffectContext) -> list[str]:
    return list(ctx.hand())


def free_summon_candidates(
    table: Table, owner: int, acting: str, fits: Callable[[Card], bool], excluded: tuple[str, ...] = ()
) -> list[str]:
    """Hand cards (``acting`` and ``excluded`` aside) that fit and whose Instant effect could resolve (SUM-4)."""
    out = []
    for card_id in hand_as_if_summoned(table, owner, acting):
        if card_id in excluded:
            continue
        if fits(table.card(card_id)) and instant_can_resolve(table, owner, card_id):
            out.append(card_id)
    return out


class SummonFromHand:
    """RUL-2: summon a fitting card from the owner's hand without paying its cost.

    The summon needs a free area (SUM-1) and an Instant effect that can resolve (SUM-4). The chosen card
    goes through a full summon (SUM-6): triggers fire (a free summon pays no stones) and its Instant
    effect resolves before this effect continues. ``if_memo`` makes the summon conditional (EFF-2).
    """

    def __init__(self, prompt: str, fits: Callable[[Card], bool], if_memo: str = "") -> None:
        self.prompt = prompt
        self.fits = fits
        self.if_memo = if_memo

    def _candidates(self, ctx: EffectContext) -> list[str]:
        if self.if_memo and not ctx.memo.get(self.if_memo):
            return []
        if not ctx.table.area_free(ctx.owner):
            return []
        return free_summon_candidates(ctx.table, ctx.owner, ctx.card_id, self.fits)

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        cards = self._candidates(ctx)
        if not cards:
            return None
        return DecisionSpec(
            DecisionKind.CHOOSE_CARDS, ctx.owner, self.prompt, source=ctx.source_id, cards=tuple(sorted(cards))
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        if isinstance(answer, tuple) and answer:
            ctx.memo["summoned"] = answer[0]
            ctx.table.place_summoned(ctx.owner, answer[0], Stones(), free=True)
        return True


def copy_effect(ctx: EffectContext, source_card: str, effect_type: EffectType) -> None:
    """RUL-12: resolve another card's effect as if printed on the acting card."""
    ctx.table.push(
        Frame(kind="effect", player=ctx.owner, card=ctx.card_id, source=source_card, effect=effect_type.value)
    )


def resolve_active_of(ctx: EffectContext, card_id: str) -> None:
    """Resolve the Active effect of ``card_id`` (a card of the owner's area) now."""
    ctx.table.push(Frame(kind="effect", player=ctx.owner, card=card_id, effect=EffectType.ACTIVE.value))
