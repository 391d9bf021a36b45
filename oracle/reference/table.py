"""The table: the one writer of the game state; every change goes through here and emits an event.

Queries that depend on the cards in force (stone values, holding limit, costs, area capacity) live here too,
next to the state they read, with the memo that remembers them while legal actions are listed.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from oracle.core.cards import Card, catalogue
from oracle.core.json_types import JSON
from oracle.core.model import Family, Stones
from oracle.reference.effects import loki
from oracle.reference.effects.registry import PERMANENT, RECOVER_WHEN, TILES, Permanent, SummonInfo
from oracle.reference.notes import PAID, Note
from oracle.reference.payment import PRINTED_VALUES, StoneValues
from oracle.reference.rulings import Rulings, Taken, Under
from oracle.reference.state import EffectKind, Frame, FrameKind, GameState, Phase, Zone

T = TypeVar("T")

BASE_HOLDING_LIMIT = 4
TRIGGER_RULE = "EFF-4"
"""The rule of a Permanent trigger whose handler follows no rule of its own beyond the card text."""


GAME_SETS = {False: frozenset({"base"}), True: frozenset({"base", "artifacts"})}
"""The card sets of a game without and with the expansion."""


class ListingMemo:
    """Answers that cannot change while one position's legal actions are listed (nothing writes the state then).

    Key and lifetime: ``can_resolve`` (SUM-4) by (owner, card, acting card), ``costs`` by (player, card id),
    ``values`` and ``in_force`` by player. ``with table.listing():`` puts a fresh memo on the table for one
    listing and takes it away afterwards; a copy of the table (``what_if``) starts without one (its state differs).
    """

    __slots__ = ("can_resolve", "costs", "in_force", "table", "values")

    def __init__(self, table: Table) -> None:
        self.table = table
        self.can_resolve: dict[tuple[int, str, str], bool] = {}
        self.costs: dict[tuple[int, str], int] = {}
        self.values: dict[int, StoneValues] = {}
        self.in_force: dict[int, tuple[tuple[Card, Permanent], ...]] = {}

    def __enter__(self) -> ListingMemo:
        self.table.remembered = self
        return self

    def __exit__(self, *exc: object) -> None:
        self.table.remembered = None


class Table:
    """Wraps a :class:`GameState`; the only code that writes it (besides the snapshot reader), recording events."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[JSON] = []
        self.cards = catalogue()
        self.remembered: ListingMemo | None = None
        self.rulings = Rulings()
        self.taken = Taken([], [], "", "")
        """The rules of the step whose events were taken last (:meth:`take_events`)."""
        self.scores_changed = True
        """A score changed since END-1's ``immediately`` variant was last checked (a new table: not checked yet)."""
        sets = GAME_SETS[state.setup.expansion]
        self.recovering = frozenset(c for c in RECOVER_WHEN if self.cards.cards[c].set in sets)
        """The cards of this game that can recover themselves (RUL-4): none without the expansion."""

    def _twin(self, events: list[JSON]) -> Table:
        """A copy of this table with ``events``, of the same class: a subclass trying another reading of a rule
        stays that reading in every copy (the harness's, and :meth:`what_if`'s)."""
        twin = type(self).__new__(type(self))
        twin.state = self.state.clone()
        twin.events = events
        twin.cards = self.cards
        twin.remembered = None
        twin.rulings = Rulings()
        twin.rulings.reasons = self.rulings.reasons
        twin.taken = self.taken
        twin.scores_changed = self.scores_changed
        twin.recovering = self.recovering
        return twin

    # The harness copies an engine in the random-game suites, never in a scenario: tests/test_reference_plumbing.py.
    def __deepcopy__(self, memo: dict[int, object]) -> Table:  # pragma: no cover - harness copies, random-game suites
        """Copies share the immutable card catalogue; only the state and events are copied."""
        return self._twin(copy.deepcopy(self.events, memo))

    def what_if(self) -> Table:
        """A throwaway copy for 'what would happen if' questions; changes to it never reach this table."""
        return self._twin([])

    def listing(self) -> ListingMemo:
        """Remember costs, stone values and SUM-4 answers while the legal actions of this position are listed."""
        return ListingMemo(self)

    def take_events(self) -> list[JSON]:
        """The events since the last call, oldest first; the rules behind them are kept in :attr:`taken`."""
        events, self.events = self.events, []
        self.taken = self.rulings.take()
        return events

    def under(self, rule: str) -> Under:
        """``with table.under(rule):`` what happens inside follows ``rule`` (docs: :mod:`oracle.reference.rulings`)."""
        return self.rulings.under(rule)

    def ruled_out(self, rule: str, card: str = "") -> bool:
        """A test following ``rule`` (about ``card``) failed: False, for ``return test or table.ruled_out(rule)``;
        remembered while a verdict is being explained (:mod:`oracle.reference.explain`)."""
        reasons = self.rulings.reasons
        if reasons is not None:  # pragma: no branch - a verdict explained for the blame only
            reasons.append((rule, card))  # pragma: no cover - a verdict explained for the blame only
        return False

    def ruled_quietly(self, rule: str, player: int | None, field: str = "") -> None:
        """``rule`` decided something at this point of the step without an event (a trigger site where nothing
        reacted, a card leaving the area without being discarded; ``field``: the fields it decided, as a pattern)."""
        self.rulings.note(rule, player, len(self.events), field)

    # ----------------------------------------------------------------- queries

    def card(self, card_id: str) -> Card:
        return self.cards.cards[card_id]

    def in_force(self, player: int) -> tuple[tuple[Card, Permanent], ...]:
        """The Permanent effects in force for a player: cards in the area whose summon has finished."""
        if self.remembered is None:
            return self._in_force(player)
        found = self.remembered.in_force.get(player)
        if found is None:
            found = self.remembered.in_force[player] = self._in_force(player)
        return found

    def _in_force(self, player: int) -> tuple[tuple[Card, Permanent], ...]:
        out: list[tuple[Card, Permanent]] = []
        unfinished: set[str] | None = None
        for card_id in self.state.players[player].area:
            effect = PERMANENT.get(card_id)
            if effect is None:
                continue
            if unfinished is None:
                unfinished = self.unfinished()
            if card_id not in unfinished:
                out.append((self.card(card_id), effect))
        return tuple(out)

    def stone_values(self, player: int) -> StoneValues:
        """PAY-4 / RUL-16: the stone values in force for this player now."""
        if self.remembered is None:
            return self._stone_values(player)
        values = self.remembered.values.get(player)
        if values is None:
            values = self.remembered.values[player] = self._stone_values(player)
        return values

    def _stone_values(self, player: int) -> StoneValues:
        in_force = self.in_force(player)
        if not in_force:
            return PRINTED_VALUES
        red, blue, purple = 1, 3, 6
        swap = False
        for _, effect in in_force:
            red += effect.red_bonus
            blue += effect.blue_purple_bonus
            purple += effect.blue_purple_bonus
            swap = swap or effect.swap_blue_purple
        if swap:
            blue, purple = purple, blue
        return StoneValues(red, blue, purple)

    def holding_limit(self, player: int) -> int:
        """LIMIT-1: 4 stones, raised by Hestia."""
        return BASE_HOLDING_LIMIT + sum(effect.limit_bonus for _, effect in self.in_force(player))

    def summon_cost(self, player: int, card: Card) -> int:
        """SUM-3: the printed cost changed by the effects in force, never below 0; a fixed cost wins (ART-9)."""
        if self.remembered is None:
            return self._summon_cost(player, card)
        key = (player, card.id)
        cost = self.remembered.costs.get(key)
        if cost is None:
            cost = self.remembered.costs[key] = self._summon_cost(player, card)
        return cost

    def _summon_cost(self, player: int, card: Card) -> int:
        in_force = self.in_force(player)
        if not in_force:
            return card.cost
        for _, effect in in_force:
            if effect.fixed_cost is not None:
                fixed = effect.fixed_cost(card)
                if fixed is not None:
                    return fixed
        cost = card.cost
        for _, effect in in_force:
            if effect.cost_change is not None:
                cost += effect.cost_change(card)
        return max(0, cost)

    def area_capacity(self, player: int) -> int:
        """SUM-1: as many areas as the round number, plus bought Additional Areas (ART-8)."""
        return self.state.round + self.state.players[player].extra_areas

    def area_free(self, player: int) -> bool:
        """SUM-1: fewer summoned cards than areas."""
        return len(self.state.players[player].area) < self.area_capacity(player) or self.ruled_out("SUM-1")

    def summoned(self, player: int, family: Family | None = None) -> list[Card]:
        """The player's summoned cards; with ``family``, those that are of it or may be taken as it now (Loki,
        ART-11: :func:`oracle.reference.effects.loki.may_be`)."""
        cards = [self.card(c) for c in self.state.players[player].area]
        if family is None:
            return cards
        return loki.may_be(self, player, cards, family)

    def name_of(self, source: str) -> str:
        """The printed name of a card or tile (a rule id stays as it is)."""
        if source in self.cards.cards:
            return self.cards.cards[source].name
        return self.cards.tiles[source].name if source in self.cards.tiles else source

    def unfinished(self) -> set[str]:
        """The cards whose summon is still in progress (SUM-6: their Permanent effect is not in force yet)."""
        return {f.card for f in self.state.stack if f.kind is FrameKind.SUMMON}

    def stones(self, player: int) -> Stones:
        return self.state.players[player].stones

    def score(self, player: int) -> int:
        return self.state.players[player].score

    def hand(self, player: int) -> list[str]:
        return self.state.players[player].hand

    def over_limit(self) -> int | None:
        """The first player holding more stones than their limit and not yet choosing, if any."""
        for index, player in enumerate(self.state.players):
            stones = player.stones
            held = stones.red + stones.blue + stones.purple
            if (
                held > BASE_HOLDING_LIMIT
                and held > self.holding_limit(index)
                and not any(f.kind is FrameKind.KEEP and f.player == index for f in self.state.stack)
            ):
                return index
        return None

    def needs_shuffle(self) -> bool:
        return not self.state.draw_pile and bool(self.state.discard_pile)

    # ----------------------------------------------------------------- events

    def emit(self, event_type: str, **fields: Any) -> None:
        self.events.append({"type": event_type, **fields})
        rulings = self.rulings
        rulings.event_rules.append(rulings.nesting[-1])

    # ----------------------------------------------------------------- points

    def gain_points(self, player: int, n: int, source: str = "") -> None:
        if n <= 0:
            return
        self.state.players[player].score += n
        self.scores_changed = True
        self.emit("points_gained", player=player, points=n, source=source)

    def lose_points(self, player: int, n: int, source: str = "") -> int:
        """SCORE-1: a score never drops below 0. Returns the points actually lost."""
        lost = min(n, self.state.players[player].score)
        if lost > 0:
            self.state.players[player].score -= lost
            self.scores_changed = True
            self.emit("points_lost", player=player, points=lost, source=source)
            for card, effect in self.in_force(player):
                if effect.on_lose_points is not None:
                    with self.under(effect.rule or TRIGGER_RULE):
                        effect.on_lose_points(self, player, card.id, lost)
        return lost

    # ----------------------------------------------------------------- stones

    def gain_stones(self, player: int, stones: Stones, source: str = "") -> None:
        if stones.total == 0:
            return
        self.state.players[player].stones = self.state.players[player].stones + stones
        self.emit("stones_gained", player=player, stones=stones.to_json(), source=source)
        for card, effect in self.in_force(player):
            if effect.on_gain_stones is not None:
                with self.under(effect.rule or TRIGGER_RULE):
                    effect.on_gain_stones(self, player, card.id, stones)

    def pay_stones(self, player: int, stones: Stones, purpose: str) -> None:
        """PAY-2: the stones paid are gone, with no change given."""
        if stones.total == 0:
            return
        self.state.players[player].stones = self.state.players[player].stones - stones
        with self.under("PAY-2"):
            self.emit("stones_paid", player=player, stones=stones.to_json(), purpose=purpose)

    def discard_stones(self, player: int, stones: Stones, source: str = "") -> None:
        if stones.total == 0:
            return
        self.state.players[player].stones = self.state.players[player].stones - stones
        self.emit("stones_discarded", player=player, stones=stones.to_json(), source=source)

    def keep_stones(self, player: int, kept: Stones) -> None:
        """LIMIT-2: the player keeps ``kept`` and discards the rest."""
        held = self.state.players[player].stones
        with self.under("LIMIT-2"):
            self.discard_stones(player, held - kept, source="holding limit")

    def exchange_all_stones(self, player: int, stones: Stones, source: str) -> None:
        before = self.state.players[player].stones
        self.state.players[player].stones = stones
        self.emit("stones_exchanged", player=player, before=before.to_json(), after=stones.to_json(), source=source)

    # ----------------------------------------------------------------- cards

    def reveal(self, n: int) -> int:
        """HUNT-1: move up to ``n`` cards from the top of the draw pile to the display."""
        taken = self.state.draw_pile[:n]
        del self.state.draw_pile[: len(taken)]
        self.state.display.extend(taken)
        if taken:
            with self.under("HUNT-1"):
                self.emit("cards_revealed", cards=list(taken))
        return len(taken)

    def shuffle_discard_into_draw(self, order: list[str]) -> None:
        """DECK-1: the discard pile becomes the draw pile, in the given order (top first)."""
        self.state.draw_pile = list(order)
        self.state.discard_pile = []
        with self.under("DECK-1"):
            self.emit("discard_pile_shuffled", order=list(order))

    def place_marker(self, player: int, card_id: str) -> None:
        self.state.players[player].markers.append(card_id)
        self.emit("marker_placed", player=player, card=card_id)

    def _take_from_display(self, player: int, card_id: str) -> None:
        self.state.players[player].markers.remove(card_id)
        self.state.display.remove(card_id)

    def sell(self, player: int, card_id: str) -> None:
        """SELL-1: discard the display card and take the stones of its family."""
        self._take_from_display(player, card_id)
        self.state.discard_pile.append(card_id)
        card = self.card(card_id)
        stones = Stones.from_json(self.cards.sell_values[card.family])
        self.emit("card_sold", player=player, card=card_id)
        self.gain_stones(player, stones, source="sale")
        tile = self.state.players[player].artifact
        if tile is not None and tile in TILES and TILES[tile].on_sell is not None:
            with self.under(TILES[tile].rule or "ART-4"):
                TILES[tile].on_sell(self, player, tile, card, stones)  # type: ignore[misc]
        for trigger, effect in self.in_force(player):
            if effect.on_sell is not None:
                with self.under(effect.rule or TRIGGER_RULE):
                    effect.on_sell(self, player, trigger.id, card, stones)

    def tame(self, player: int, card_id: str) -> None:
        """TAME-1: put the display card into the hand; tame triggers (Triton) fire."""
        self._take_from_display(player, card_id)
        self.state.players[player].hand.append(card_id)
        self.emit("card_tamed", player=player, card=card_id)
        card = self.card(card_id)
        for trigger, effect in self.in_force(player):
            if effect.on_tame is not None:
                with self.under(effect.rule or TRIGGER_RULE):
                    effect.on_tame(self, player, trigger.id, card)

    def place_summoned(self, player: int, card_id: str, paid: Stones, free: bool) -> None:
        """SUM-2/SUM-6: the card leaves the hand for the area; the summon frame takes it from there."""
        self.state.players[player].hand.remove(card_id)
        self.state.players[player].area.append(card_id)
        self.emit("card_summoned", player=player, card=card_id, paid=paid.to_json(), free=free)
        self.state.stack.append(Frame(FrameKind.SUMMON, player, card_id, memo={PAID: paid}))

    def fire_summon_triggers(self, player: int, card_id: str, paid: Stones) -> None:
        """EFF-3: the other cards' summon triggers react; the summoned card's own effect does not."""
        info = SummonInfo(player, self.card(card_id), paid)
        with self.under("EFF-3"):
            self.ruled_quietly("EFF-3", player)
            for trigger_card, effect in self.in_force(player):
                if effect.on_summon is not None and trigger_card.id != card_id:
                    with self.under(effect.rule or TRIGGER_RULE):
                        effect.on_summon(self, player, trigger_card.id, info)

    def discard_from_area(self, player: int, card_id: str, source: str) -> None:
        """EFF-7: a summoned card goes to the discard pile, unless its own effect replaces that (Ash, RUL-5);
        the owner's other cards that react to a discard (Totem Pole, ART-10) then trigger."""
        if self._leave_area_discarded(player, card_id, source):
            self._react_to_discard(player, card_id)

    def discard_together_from_area(self, player: int, card_ids: tuple[str, ...], source: str) -> None:
        """EFF-8's ``simultaneous`` variant: the cards leave the area together, then the owner's cards still
        in the area react to each discard; none of the cards discarded sees the others'."""
        left = [card_id for card_id in card_ids if self._leave_area_discarded(player, card_id, source)]
        for card_id in left:
            self._react_to_discard(player, card_id)

    def _leave_area_discarded(self, player: int, card_id: str, source: str) -> bool:
        """The card goes to the discard pile (True), or its own effect replaces the discard (Ash, RUL-5)."""
        own = PERMANENT.get(card_id)
        if own is not None and own.replaces_own_discard is not None and card_id not in self.unfinished():
            with self.under(own.rule or TRIGGER_RULE):
                own.replaces_own_discard(self, player, card_id)
            return False
        self.state.players[player].area.remove(card_id)
        self.state.discard_pile.append(card_id)
        self.emit("card_discarded", player=player, card=card_id, zone="area", source=source)
        return True

    def _react_to_discard(self, player: int, card_id: str) -> None:
        for card, effect in self.in_force(player):
            if effect.on_other_discarded is not None and card.id != card_id:
                with self.under(effect.rule or TRIGGER_RULE):
                    effect.on_other_discarded(self, player, card.id, card_id)

    def discard_from_hand(self, player: int, card_id: str, source: str) -> None:
        self.state.players[player].hand.remove(card_id)
        self.state.discard_pile.append(card_id)
        self.emit("card_discarded", player=player, card=card_id, zone="hand", source=source)

    def recover(self, player: int, card_id: str, source: str) -> None:
        """EFF-6: a summoned card returns to its owner's hand (every caller names a card of the area)."""
        self.state.players[player].area.remove(card_id)
        self.state.players[player].hand.append(card_id)
        self.emit("card_recovered", player=player, card=card_id, source=source)

    def draw(self, player: int, source: str) -> str | None:
        """Draw the top card of the draw pile (the caller handles DECK-1 reshuffles first)."""
        if not self.state.draw_pile:
            self.emit("draw_failed", player=player, source=source)
            return None
        card_id = self.state.draw_pile.pop(0)
        self.state.players[player].hand.append(card_id)
        self.emit("card_drawn", player=player, card=card_id, source=source)
        for card, effect in self.in_force(player):
            if effect.on_draw is not None:
                with self.under(effect.rule or TRIGGER_RULE):
                    effect.on_draw(self, player, card.id)
        return card_id

    def put_on_draw_pile(self, player: int, card_id: str, source: str) -> None:
        """Tengu: a card leaves the area for the top of the draw pile (not a discard, EFF-7, ART-10: nothing that
        reacts to a discard sees it)."""
        self.state.players[player].area.remove(card_id)
        self.state.draw_pile.insert(0, card_id)
        with self.under("ART-10"):
            self.emit("card_to_draw_pile", player=player, card=card_id, source=source)
            self.ruled_quietly("ART-10", player)

    def put_hand_card_on_draw_pile(self, player: int, card_id: str, source: str) -> None:
        """Nurikabe: a card leaves the hand for the top of the draw pile."""
        self.state.players[player].hand.remove(card_id)
        self.state.draw_pile.insert(0, card_id)
        self.emit("card_to_draw_pile", player=player, card=card_id, zone="hand", source=source)

    def take_from_discard_pile(self, player: int, card_id: str, source: str) -> None:
        self.state.discard_pile.remove(card_id)
        self.state.players[player].hand.append(card_id)
        self.emit("card_taken_from_discard_pile", player=player, card=card_id, source=source)

    def recover_triggered(self) -> bool:
        """RUL-4: a card whose Permanent condition for recovering itself holds (Fireblast) recovers now."""
        if not self.recovering:
            return False
        for player, seat in enumerate(self.state.players):
            if self.recovering.isdisjoint(seat.area):
                continue
            for card, effect in self.in_force(player):
                if effect.recover_when is not None and effect.recover_when(self, player):
                    with self.under(effect.rule or TRIGGER_RULE):
                        self.recover(player, card.id, card.id)
                    return True
        return False

    # ----------------------------------------------------------------- the Artifacts expansion

    def take_tile(self, player: int, tile_id: str) -> None:
        """ART-3: take a tile from the display; another player's square marker on it goes back to them, and the
        taker's one square marker leaves the tile it lay on and goes with the new tile."""
        self.state.tiles.remove(tile_id)
        self.state.square_markers.pop(tile_id, None)
        for marked, owner in list(self.state.square_markers.items()):
            if owner == player:
                del self.state.square_markers[marked]
        self.state.players[player].artifact = tile_id
        self.emit("artifact_taken", player=player, tile=tile_id)

    def return_tile(self, player: int) -> None:
        """ART-5/ART-6: the player's tile goes back to the display with their square marker on it (going back is
        ART-6's: the holder no longer holds it)."""
        tile_id = self.state.players[player].artifact
        if tile_id is None:
            return
        self.state.players[player].artifact = None
        self.state.tiles.append(tile_id)
        self.state.square_markers[tile_id] = player
        with self.under("ART-6"):
            self.emit("artifact_returned", player=player, tile=tile_id)

    def buy_area(self, player: int, source: str) -> None:
        """ART-8: an Additional Area tile, +1 then +2, at most two per player."""
        self.state.players[player].extra_areas += 1
        self.emit("area_bought", player=player, extra_areas=self.state.players[player].extra_areas, source=source)

    def shelter(self, player: int, card_id: str, zone: Zone, source: str) -> None:
        """ART-7: a card goes face up to the player's shelter, from the display, the hand or the draw pile."""
        origins = {Zone.DISPLAY: self.state.display, Zone.HAND: self.state.players[player].hand,
                   Zone.DRAW_PILE: self.state.draw_pile}
        origins[zone].remove(card_id)
        self.state.players[player].shelter.append(card_id)
        self.emit("card_sheltered", player=player, card=card_id, zone=zone.value, source=source)

    def retrieve(self, player: int, card_id: str, source: str) -> None:
        """ART-7: a card of the player's own shelter goes to their hand."""
        self.state.players[player].shelter.remove(card_id)
        self.state.players[player].hand.append(card_id)
        self.emit("card_retrieved", player=player, card=card_id, source=source)

    def discard_from_shelter(self, player: int, card_id: str, source: str) -> None:
        self.state.players[player].shelter.remove(card_id)
        self.state.discard_pile.append(card_id)
        self.emit("card_discarded", player=player, card=card_id, zone="shelter", source=source)

    def upgrade_stones(self, player: int, red: int, blue: int, source: str) -> None:
        """RUL-8: ``red`` red stones become blue and ``blue`` blue stones become purple (one step each)."""
        held = self.state.players[player].stones
        self.state.players[player].stones = Stones(held.red - red, held.blue - blue + red, held.purple + blue)
        self.emit("stones_upgraded", player=player, red=red, blue=blue, source=source)

    def swap_summoned(self, owner: int, dragon: str, other: int, their_card: str, source: str) -> None:
        """RUL-3: the chosen card comes to the owner's area and the dragon goes to its player's area."""
        if other == owner:
            self.emit("cards_swapped", player=owner, other=other, card=their_card, dragon=dragon, source=source)
            return
        self.state.players[other].area.remove(their_card)
        self.state.players[owner].area.remove(dragon)
        self.state.players[owner].area.append(their_card)
        self.state.players[other].area.append(dragon)
        self.emit("cards_swapped", player=owner, other=other, card=their_card, dragon=dragon, source=source)

    def discard_from_display(self, card_id: str, source: str) -> None:  # pragma: no cover - see flow.next_turn
        self.state.display.remove(card_id)
        self.state.discard_pile.append(card_id)
        self.emit("card_discarded", player=None, card=card_id, zone="display", source=source)

    # ----------------------------------------------------------------- turns and phases

    def mark_display_dealt(self) -> None:
        """HUNT-1: the display is dealt for this round (the Hunting phase goes on to the picks)."""
        self.state.revealed = True

    def start_phase(self, phase: Phase) -> None:
        """ROUND-1: the Action and Resolution phases start with the first player's turn."""
        state = self.state
        state.phase = phase
        state.turn_player = state.first_player if phase in (Phase.ACTION, Phase.RESOLUTION) else None
        state.actives_used = []
        with self.under("ROUND-1"):
            self.emit("phase_started", phase=phase.value, round=state.round)

    def pass_turn(self, player: int) -> None:
        """ACT-1 / EFF-5: ``player`` takes the next turn, with no Active effect used yet."""
        self.state.turn_player = player
        self.state.actives_used = []

    def use_active(self, card_id: str) -> None:
        """EFF-5: the card's Active effect is spent for this Resolution turn."""
        self.state.actives_used.append(card_id)

    def start_next_round(self) -> None:
        """ROUND-2: the first player marker passes to the left and a new round starts with a new display."""
        state = self.state
        state.round += 1
        state.first_player = (state.first_player + 1) % state.n
        state.revealed = False
        with self.under("ROUND-2"):
            self.emit("round_started", round=state.round, first_player=state.first_player)

    def end_game(self, winners: list[int]) -> None:
        """END-1: the game is over; ``winners`` share the victory (END-2). Whatever was still resolving is
        dropped (the game can end mid-effect under END-1's ``immediately`` variant)."""
        state = self.state
        state.stack.clear()
        state.phase = Phase.GAME_OVER
        state.turn_player = None
        state.winners = list(winners)
        self.emit("game_over", round=state.round, winners=list(winners), scores=[p.score for p in state.players])

    # ----------------------------------------------------------------- the resolution stack

    def push(self, frame: Frame) -> None:
        self.state.stack.append(frame)

    def push_effect(self, player: int, card_id: str, effect: EffectKind, source: str = "",
                    memo: dict[Note[Any], Any] | None = None) -> None:
        """An effect starts resolving on a frame of its own (``source`` differs from the card for a copy, RUL-12)."""
        self.state.stack.append(Frame(FrameKind.EFFECT, player, card_id, source, effect, memo=memo or {}))

    def push_shuffle(self) -> None:
        """DECK-1: chance (no player) must shuffle the discard pile into a new draw pile."""
        self.state.stack.append(Frame(FrameKind.SHUFFLE, player=-1))

    def pop_frame(self) -> Frame:
        """The top frame's work is done."""
        return self.state.stack.pop()

    def next_stage(self, frame: Frame) -> None:
        frame.stage += 1

    def note(self, frame: Frame, note: Note[T], value: T) -> None:
        """A stage leaves ``value`` under ``note`` on its frame for the stages after it."""
        frame.memo[note] = value
