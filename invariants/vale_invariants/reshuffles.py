"""An engine's own reshuffles (capabilities ``internal_shuffle``, ``internal_reshuffle``) followed by the reference:
the order each took, read from the engine's snapshot, and whether it held exactly the discard pile (DECK-1)."""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from dataclasses import dataclass

from oracle.core.causes import CauseFacts, Verdict
from oracle.core.fair_shuffle import ReshuffleSeen
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind
from oracle.reference import ReferenceEngine
from oracle.reference.rulings import Ruled
from vale_invariants.lockstep import first_state_difference

MOST_ORDERS_TRIED = 720
"""Orders of the cards drawn right after a reshuffle tried at most (6 cards) before taking the first."""
DRAW_PILE = "draw_pile"


@dataclass(frozen=True)
class DeckFault:
    """A reshuffle that did not hold exactly the discard pile (DECK-1): the cards out of place, the reshuffle the
    oracle adopted, and what each engine did, in words."""

    cards: tuple[str, ...]
    shuffle: JSON
    reference_does: str
    engine_does: str

    def facts(self) -> CauseFacts:
        return CauseFacts(Verdict.DIFFERS, DecisionKind.SHUFFLE.value, field=DRAW_PILE, rule="DECK-1",
                          cards=self.cards, reference_does=self.reference_does, engine_does=self.engine_does)


@dataclass(frozen=True)
class Adopted:
    """The reshuffles the reference took from the engine in one step, and the fault of the last, if any."""

    seen: tuple[ReshuffleSeen, ...] = ()
    fault: DeckFault | None = None
    events: tuple[Ruled, ...] = ()
    """The reference's events of the reshuffles, each with its rule: the engine returns them with the step's."""


def shuffle_action(order: list[str]) -> JSON:
    return {"type": DecisionKind.SHUFFLE.value, "player": None, "order": order}


def adopt_reshuffles(reference: ReferenceEngine, after: JSON) -> Adopted:
    """DECK-1 with an engine that shuffles inside: answer each reshuffle the reference asks with the order the
    engine chose, read from its snapshot ``after``. The cards it still holds in its draw pile give the order below
    the top; the cards drawn since the reshuffle, in the order that brings the reference to the same state. When
    no order does, the engine's draw pile holding a card the discard pile did not, or its discard pile keeping a
    card of the reshuffle, is a fault of the reshuffle."""
    seen: list[ReshuffleSeen] = []
    events: list[Ruled] = []
    reshuffled: list[str] = []
    order: list[str] = []
    while (pending := reference.decision()) is not None and pending.get("kind") == DecisionKind.SHUFFLE.value:
        reshuffled = list(pending.get("cards") or reference.export().get("discard_pile", []))
        pile = [card for card in after.get("draw_pile", []) if card in reshuffled]
        drawn = sorted(set(reshuffled) - set(pile))
        order = _order(reference, drawn, pile, after)
        reference.apply(shuffle_action(order))
        events.extend(reference.account.events)
        seen.append(ReshuffleSeen(tuple(sorted(reshuffled)), frozenset(drawn), pile[-1] if pile else None))
    if not seen:
        return Adopted()
    expected = reference.export()
    if first_state_difference(expected, after) is None:
        return Adopted(tuple(seen), events=tuple(events))
    return Adopted(tuple(seen), _fault(reshuffled, order, expected, after), tuple(events))


def _order(reference: ReferenceEngine, drawn: list[str], pile: list[str], after: JSON) -> list[str]:
    """The order (drawn cards on top, then the engine's pile) that brings the reference to ``after``: the one read
    from where the engine's drawn cards went, else the first of the others tried that does; the first tried when
    none does."""
    placed = _placed(reference, drawn, pile, after)
    candidates = itertools.chain([placed] if placed else [],
                                 ([*top, *pile] for top in itertools.permutations(drawn)))
    first: list[str] | None = None
    for order in itertools.islice(candidates, MOST_ORDERS_TRIED):
        first = first or order
        if first_state_difference(_shuffled(reference, order).export(), after) is None:
            return order
    return first or pile


def _placed(reference: ReferenceEngine, drawn: list[str], pile: list[str], after: JSON) -> list[str] | None:
    """The drawn cards in the order their places in ``after`` give: a trial order shows where each position of
    the new draw pile goes (a hand, the display), and the engine's cards in each place fill that place's positions
    in the order they lie there (None when the places do not match)."""
    trial = [*drawn, *pile]
    went = _places(_shuffled(reference, trial).export(), set(drawn))
    lying: dict[str, list[str]] = {}
    for card, place in _places(after, set(drawn)).items():
        lying.setdefault(place, []).append(card)
    order = []
    for card in trial[:len(drawn)]:
        queue = lying.get(went.get(card, ""))
        if not queue:
            return None
        order.append(queue.pop(0))
    return [*order, *pile]


def _shuffled(reference: ReferenceEngine, order: list[str]) -> ReferenceEngine:
    twin = copy.deepcopy(reference)
    twin.apply(shuffle_action(order))
    return twin


def _places(snapshot: object, cards: set[str], where: str = "") -> dict[str, str]:
    """Where each of ``cards`` lies in a snapshot, in the order of its list: the path of the list (``display``,
    ``players[1].hand``); the first such list for a card listed twice (a marker names a display card)."""
    found: dict[str, str] = {}
    if isinstance(snapshot, dict):
        for key, value in snapshot.items():
            if key != "private":
                for card, place in _places(value, cards, f"{where}.{key}" if where else key).items():
                    found.setdefault(card, place)
    elif isinstance(snapshot, list):
        for index, value in enumerate(snapshot):
            if isinstance(value, str) and value in cards:
                found.setdefault(value, where)
            elif isinstance(value, dict | list):
                for card, place in _places(value, cards, f"{where}[{index}]").items():
                    found.setdefault(card, place)
    return found


def _fault(reshuffled: list[str], order: list[str], expected: JSON, after: JSON) -> DeckFault | None:
    """The cards the engine's reshuffle got wrong: in its draw pile though neither in the discard pile nor in the
    reference's draw pile, left in its discard pile though the reference's holds them no more, or lost (nowhere in
    its snapshot); None when the piles show nothing wrong: the states differ for another reason."""
    taken = Counter(reshuffled)
    foreign = _pile(after, "draw_pile") - (taken | _pile(expected, "draw_pile"))
    left = (_pile(after, "discard_pile") & taken) - _pile(expected, "discard_pile")
    lost = Counter(set(reshuffled) - set(_places(after, set(reshuffled))))
    words = [f"{text} {_listed(cards)}{tail}" for text, cards, tail in (
        ("its new draw pile also holds", foreign, ", not from the discard pile"),
        ("it leaves", left, " in the discard pile"),
        ("it loses", lost, ", in no pile, hand or area any more")) if cards]
    if not words:
        return None
    return DeckFault(tuple(sorted({*foreign, *left, *lost})), shuffle_action(order),
                     f"shuffles exactly the {len(reshuffled)} cards of the discard pile into a new draw pile (DECK-1)",
                     "; ".join(words))


def _pile(snapshot: JSON, name: str) -> Counter[str]:
    return Counter(str(card) for card in snapshot.get(name, []))


def _listed(cards: Counter[str]) -> str:
    return ", ".join(sorted(cards.elements()))
