"""Card data: loaded from ``oracle/data/cards.json`` and validated on load (rules CARD-1, CARD-2).

A broken data file fails with :class:`CardDataError`, naming the file and the entry.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from oracle.core.data_files import CARDS_FILE as DATA_FILE
from oracle.core.model import EffectType, Family

BASE_FAMILY_COUNTS: Mapping[Family, int] = {
    Family.FIRE: 15,
    Family.WATER: 15,
    Family.EARTH: 15,
    Family.WIND: 15,
    Family.DRAGON: 10,
}
EXPANSION_FAMILY_COUNTS: Mapping[Family, int] = {
    Family.FIRE: 6,
    Family.WATER: 6,
    Family.EARTH: 6,
    Family.WIND: 6,
    Family.DRAGON: 4,
}
SETS = ("base", "artifacts")


class CardDataError(ValueError):
    """The card data file is malformed; the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class CardEffectText:
    type: EffectType
    text: str


@dataclass(frozen=True, slots=True)
class Card:
    """One creature card as printed: it has no point value; every point comes from an effect."""

    id: str
    name: str
    set: str
    family: Family
    cost: int
    effect_types: frozenset[EffectType]
    effects: tuple[CardEffectText, ...]

    def has(self, effect_type: EffectType) -> bool:
        return effect_type in self.effect_types

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "set": self.set,
            "family": self.family.value,
            "cost": self.cost,
            "effect_types": sorted(t.value for t in self.effect_types),
            "effects": [{"type": e.type.value, "text": e.text} for e in self.effects],
        }


@dataclass(frozen=True, slots=True)
class ArtifactTile:
    id: str
    name: str
    tier: str
    players: str
    ability_type: str
    text: str


@dataclass(frozen=True)
class CardCatalogue:
    """All cards by id, in data-file order."""

    cards: Mapping[str, Card]
    tiles: Mapping[str, ArtifactTile]
    sell_values: Mapping[Family, Mapping[str, int]]

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def base(self) -> list[Card]:
        return [c for c in self.cards.values() if c.set == "base"]

    def in_sets(self, sets: Iterable[str]) -> list[Card]:
        wanted = set(sets)
        return [c for c in self.cards.values() if c.set in wanted]

    def by_name(self, name: str) -> Card | None:
        folded = name.strip().casefold()
        for card in self.cards.values():
            if card.name.casefold() == folded or card.id == name.strip():
                return card
        return None


def _require(entry: Mapping[str, object], key: str, kind: type, where: str) -> object:
    if key not in entry:
        raise CardDataError(f"{where}: missing field {key!r}")
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CardDataError(f"{where}: field {key!r} must be {kind.__name__}, got {value!r}")
    return value


def _parse_card(entry: object, index: int, source: str) -> Card:
    where = f"{source}: cards[{index}]"
    if not isinstance(entry, dict):
        raise CardDataError(f"{where}: must be an object")
    card_id = str(_require(entry, "id", str, where))
    where = f"{source}: card {card_id!r} (cards[{index}])"
    name = str(_require(entry, "name", str, where))
    card_set = str(_require(entry, "set", str, where))
    if card_set not in SETS:
        raise CardDataError(f"{where}: unknown set {card_set!r} (known: {', '.join(SETS)})")
    family_name = _require(entry, "family", str, where)
    try:
        family = Family(family_name)
    except ValueError:
        known = ", ".join(f.value for f in Family)
        raise CardDataError(f"{where}: unknown family {family_name!r} (known: {known})") from None
    cost = _require(entry, "cost", int, where)
    assert isinstance(cost, int)
    if cost < 0:
        raise CardDataError(f"{where}: cost must be >= 0, got {cost}")
    raw_types = _require(entry, "effect_types", list, where)
    assert isinstance(raw_types, list)
    types: set[EffectType] = set()
    for raw in raw_types:
        try:
            types.add(EffectType(raw))
        except ValueError:
            known = ", ".join(t.value for t in EffectType)
            raise CardDataError(f"{where}: unknown effect type {raw!r} (known: {known})") from None
    raw_effects = _require(entry, "effects", list, where)
    assert isinstance(raw_effects, list)
    effects: list[CardEffectText] = []
    for j, raw_effect in enumerate(raw_effects):
        if not isinstance(raw_effect, dict):
            raise CardDataError(f"{where}: effects[{j}] must be an object")
        try:
            effect_type = EffectType(raw_effect.get("type"))
        except ValueError:
            raise CardDataError(f"{where}: effects[{j}] has unknown type {raw_effect.get('type')!r}") from None
        text = raw_effect.get("text")
        if not isinstance(text, str) or not text:
            raise CardDataError(f"{where}: effects[{j}] needs a text")
        effects.append(CardEffectText(effect_type, text))
    if {e.type for e in effects} != types:
        raise CardDataError(f"{where}: effect_types {sorted(raw_types)} do not match the effects listed")
    return Card(card_id, name, card_set, family, cost, frozenset(types), tuple(effects))


def _check_counts(cards: list[Card], card_set: str, expected: Mapping[Family, int], source: str) -> None:
    for family, count in expected.items():
        actual = sum(1 for c in cards if c.set == card_set and c.family is family)
        if actual != count:
            raise CardDataError(
                f"{source}: the {card_set} set must have {count} {family.value} cards, found {actual}"
            )


def parse_catalogue(data: object, source: str) -> CardCatalogue:
    """Validate a card data document and build the catalogue."""
    if not isinstance(data, dict):
        raise CardDataError(f"{source}: the top level must be an object")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        raise CardDataError(f"{source}: 'cards' must be a list")
    cards = [_parse_card(entry, i, source) for i, entry in enumerate(raw_cards)]
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        if card.id in seen:
            raise CardDataError(f"{source}: card id {card.id!r} appears twice (cards[{seen[card.id]}] and cards[{i}])")
        seen[card.id] = i
    _check_counts(cards, "base", BASE_FAMILY_COUNTS, source)
    _check_counts(cards, "artifacts", EXPANSION_FAMILY_COUNTS, source)
    raw_sell = data.get("sell_values")
    if not isinstance(raw_sell, dict) or set(raw_sell) != {f.value for f in Family}:
        raise CardDataError(f"{source}: 'sell_values' must give stones for each of the five families")
    sell_values = {Family(k): dict(v) for k, v in raw_sell.items()}
    tiles: dict[str, ArtifactTile] = {}
    for i, raw_tile in enumerate(data.get("artifact_tiles", [])):
        where = f"{source}: artifact_tiles[{i}]"
        if not isinstance(raw_tile, dict):
            raise CardDataError(f"{where}: must be an object")
        tile = ArtifactTile(
            id=str(_require(raw_tile, "id", str, where)),
            name=str(_require(raw_tile, "name", str, where)),
            tier=str(_require(raw_tile, "tier", str, where)),
            players=str(_require(raw_tile, "players", str, where)),
            ability_type=str(_require(raw_tile, "ability_type", str, where)),
            text=str(_require(raw_tile, "text", str, where)),
        )
        tiles[tile.id] = tile
    return CardCatalogue({c.id: c for c in cards}, tiles, sell_values)


def load_catalogue(path: Path) -> CardCatalogue:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardDataError(f"{path}: cannot read the card data file ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    return parse_catalogue(data, str(path))


@cache
def catalogue() -> CardCatalogue:
    """The project's card catalogue (loaded once)."""
    return load_catalogue(DATA_FILE)


def card(card_id: str) -> Card:
    return catalogue().cards[card_id]
