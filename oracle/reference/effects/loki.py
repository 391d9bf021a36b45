"""ART-11, Loki's family (art-wind-05 Loki: "During your turn you may treat this card as belonging to any family").

The one home of the rule and its declared readings (the ART-11 variant of ``oracle/data/rules.toml``):

* ``one_per_look`` (the project's ruling): on its owner's turn, while its ∞ is in force (SUM-6), Loki's owner
  chooses for each look at the families of their area the one family Loki has for that look
  (:class:`ChooseFamilyForLook`, noted under ``LOOK_FAMILY``); a check that only asks whether such a card exists
  finds Loki unasked (:func:`may_be`). At any other time Loki is its printed Wind.
* ``every_family``: on its owner's turn Loki is every family at once and nobody is asked.

The table asks :func:`may_be` for its family queries; effects count through :func:`count_family` and
:func:`families_in_area` (via the effect context); the Imperial Seal asks through :func:`chose_the_wildcard` and
:func:`families_of`. Loki's own card (its ∞ flag and its ⌛) is registered with the Wind cards of ``art_wind.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oracle.core.model import Family
from oracle.core.protocol import DecisionKind
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects.registry import PERMANENT, Answer
from oracle.reference.notes import LOOK_FAMILY, Note

if TYPE_CHECKING:
    from collections.abc import Callable

    from oracle.core.cards import Card
    from oracle.reference.effects.context import EffectContext
    from oracle.reference.state import GameState
    from oracle.reference.table import Table

ART_11 = "ART-11"
EVERY_FAMILY = "every_family"


def loki_reading(state: GameState) -> str:
    """ART-11: how the game reads Loki, ``one_per_look`` (the project's ruling) or the ``every_family`` variant."""
    return state.setup.variant(ART_11)


def every_family(table: Table) -> bool:
    """ART-11's ``every_family`` variant: Loki is every family at once on its owner's turn, nobody is asked."""
    return loki_reading(table.state) == EVERY_FAMILY


def is_wild(table: Table, player: int, card: Card) -> bool:
    """ART-11: Loki may be any family during its owner's turn (its ∞ in force, SUM-6), and is Wind otherwise."""
    if table.state.turn_player != player:
        return False
    effect = PERMANENT.get(card.id)
    return effect is not None and effect.any_family_on_own_turn and card.id not in table.unfinished()


def may_be(table: Table, player: int, cards: list[Card], family: Family) -> list[Card]:
    """The player's ``cards`` that are of ``family`` or may be taken as it now: a check that only asks whether
    such a card exists finds Loki unasked on its owner's turn (ART-11)."""
    return [c for c in cards if c.family is family or is_wild(table, player, c)]


def wildcard(table: Table, player: int) -> Card | None:
    """ART-11: the card of the player's area whose family its owner chooses for each look now (Loki), if any."""
    return next((c for c in table.summoned(player) if is_wild(table, player, c)), None)


def families_of(table: Table, player: int, card: Card, chosen: Family | None) -> frozenset[Family]:
    """ART-11: the families a card of the player's area has for one look: its printed family; Loki's, on its
    owner's turn, the one ``chosen`` for this look (every family under the ``every_family`` variant)."""
    if not is_wild(table, player, card):
        return frozenset((card.family,))
    if every_family(table):
        return frozenset(Family)
    return frozenset((card.family if chosen is None else chosen,))


def count_family(table: Table, player: int, family: Family, chosen: Family | None) -> int:
    """How many of the player's summoned cards are ``family`` for one look (Loki taken as ``chosen``, ART-11)."""
    return sum(1 for c in table.summoned(player) if family in families_of(table, player, c, chosen))


def families_in_area(table: Table, player: int, chosen: Family | None) -> set[Family]:
    """The different families present for one look, Loki taken as ``chosen`` (ART-11); under the
    ``every_family`` variant Loki supplies one family that is otherwise missing."""
    cards = table.summoned(player)
    if not every_family(table):
        return {family for c in cards for family in families_of(table, player, c, chosen)}
    fixed = {c.family for c in cards if not is_wild(table, player, c)}
    wild = sum(1 for c in cards if is_wild(table, player, c))
    missing = [f for f in Family if f not in fixed]
    return fixed | set(missing[:wild])


def look_prompt(wildcard: str, looking: str) -> str:
    """The prompt of Loki's question, naming the card (or tile, or rule) that looks: ART-11."""
    return f"{wildcard}: which family for {looking}?"


class ChooseFamilyForLook:
    """ART-11: this effect looks at the families of its owner's area, and on its owner's turn Loki's owner chooses
    the one family Loki has for this look (asked even where one answer alone changes anything); the family is
    noted under ``LOOK_FAMILY`` for the counting stages after it.

    Asked only while Loki's ∞ is in force on its owner's turn (SUM-6), when ``when`` holds (the look reaches
    Loki), and not under the ``every_family`` variant. The decision's ``source`` is Loki, its ``looking`` the card
    or tile whose effect looks.
    """

    rule = "ART-11"
    """The rule under which the question is asked, whatever effect looks (:mod:`oracle.reference.rulings`)."""

    def __init__(self, when: Callable[[EffectContext], bool] | None = None) -> None:
        self.when = when

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        loki = wildcard(ctx.table, ctx.owner)
        if loki is None or every_family(ctx.table) or (self.when is not None and not self.when(ctx)):
            return None
        return DecisionSpec(
            DecisionKind.CHOOSE_OPTIONS, ctx.owner,
            look_prompt(loki.name, ctx.table.name_of(ctx.source_id)), source=loki.id,
            options=tuple(f.value for f in Family), looking=ctx.source_id,
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        if isinstance(answer, tuple) and answer:
            ctx.remember(LOOK_FAMILY, Family(answer[0]))
        return True


def chose_the_wildcard(note: Note[tuple[str, ...]]) -> Callable[[EffectContext], bool]:
    """The look reaches Loki only if the card chosen under ``note`` is Loki (the Imperial Seal looks at the family
    of the one card it discards: ART-11)."""

    def test(ctx: EffectContext) -> bool:
        loki = wildcard(ctx.table, ctx.owner)
        return loki is not None and ctx.chosen(note) == loki.id

    return test


def has_family(ctx: EffectContext, card_id: str, family: Family) -> bool:
    """The card of the owner's area is ``family`` for this effect's look (Loki as its owner chose: ART-11)."""
    return family in families_of(ctx.table, ctx.owner, ctx.card(card_id), ctx.note(LOOK_FAMILY))
