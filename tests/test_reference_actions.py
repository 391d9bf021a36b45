"""The reference's order of rejection for an action breaking several rules at once (issue 23, item 3).

An action's fields are read once into a typed move, yet a card and its payment keep the precedence the reference
always had (DEC-1, DEC-2, then the card's field, the card's own rule, the payment's field, the payment's rule):
a summon of a card not in the hand, or into a full area, and a removal of a card not in the area are refused for
the card even when their payment is malformed. The expected codes are those of the reference before the actions
were restructured (commit 8ba931f), run on the same positions.
"""

from __future__ import annotations

import pytest

from oracle.core.json_types import JSON
from oracle.core.protocol import ANSWERS
from oracle.reference import ReferenceEngine
from oracle.reference.actions import ENTRIES
from tests.helpers import cid, engine_at

MALFORMED_PAYMENTS: tuple[object, ...] = ("two", None, {"red": -1}, {"green": 1})
"""A payment that is not an object, missing, with a negative count, with an unknown colour."""


def _free_area() -> ReferenceEngine:
    """Round 3, player 0 holds the Hydra, has the Troll in the area and 3 red stones."""
    return engine_at(round=3, players=[{"hand": [cid("Hydra")], "area": [cid("Troll")], "stones": {"red": 3}}])


def _full_area() -> ReferenceEngine:
    """The same in round 1: the area (one card) is full."""
    return engine_at(round=1, players=[{"hand": [cid("Hydra")], "area": [cid("Troll")], "stones": {"red": 3}}])


def _action(kind: str, player: int, card: object, payment: object) -> JSON:
    action: JSON = {"type": kind, "player": player}
    if card is not None:
        action["card"] = cid(card) if isinstance(card, str) and card in ("Imp", "Hydra", "Troll") else card
    if payment is not None:
        action["payment"] = payment
    return action


CASES: list[tuple[str, str, int, object, tuple[str, str]]] = [
    ("free", "summon", 0, "Imp", ("CARD_NOT_IN_HAND", "SUM-2")),
    ("free", "summon", 0, "Troll", ("CARD_NOT_IN_HAND", "SUM-2")),
    ("full", "summon", 0, "Hydra", ("AREA_FULL", "SUM-1")),
    ("free", "summon", 0, "Hydra", ("MALFORMED_ACTION", "DEC-2")),
    ("free", "summon", 0, "nope", ("UNKNOWN_CARD", "DEC-2")),
    ("free", "summon", 0, 7, ("MALFORMED_ACTION", "DEC-2")),
    ("free", "summon", 0, None, ("MALFORMED_ACTION", "DEC-2")),
    ("free", "summon", 1, "Imp", ("NOT_YOUR_DECISION", "DEC-1")),
    ("free", "remove", 0, "Imp", ("CARD_NOT_IN_AREA", "REM-1")),
    ("free", "remove", 0, "Hydra", ("CARD_NOT_IN_AREA", "REM-1")),
    ("free", "remove", 0, "Troll", ("MALFORMED_ACTION", "DEC-2")),
    ("free", "remove", 0, "nope", ("UNKNOWN_CARD", "DEC-2")),
    ("free", "remove", 0, 7, ("MALFORMED_ACTION", "DEC-2")),
    ("free", "remove", 1, "Imp", ("NOT_YOUR_DECISION", "DEC-1")),
    ("free", "pick", 0, "Imp", ("WRONG_DECISION", "DEC-2")),
]
"""(position, action type, player, card, the code and rule expected whatever the malformed payment)."""


@pytest.mark.parametrize("payment", MALFORMED_PAYMENTS, ids=repr)
@pytest.mark.parametrize(("position", "kind", "player", "card", "expected"), CASES,
                         ids=[f"{c[0]}-{c[1]}-p{c[2]}-{c[3]}" for c in CASES])
def test_a_card_rule_is_reported_before_a_malformed_payment(
    position: str, kind: str, player: int, card: object, expected: tuple[str, str], payment: object
) -> None:
    engine = {"free": _free_area, "full": _full_area}[position]()
    result = engine.apply(_action(kind, player, card, payment))
    assert not result["accepted"]
    assert expected == (result["rejection"]["code"], result["rejection"]["rule"])


def test_a_well_formed_payment_is_judged_after_the_card() -> None:
    """The same positions with a payment well formed but short (PAY-1): the card's rules still come first."""
    assert ("AREA_FULL", "SUM-1") == _rejection(_full_area(), _action("summon", 0, "Hydra", {"red": 1}))
    assert ("PAYMENT_SHORT", "PAY-1") == _rejection(_free_area(), _action("summon", 0, "Hydra", {"red": 1}))
    assert ("PAYMENT_SHORT", "PAY-1") == _rejection(_free_area(), _action("remove", 0, "Troll", {"red": 1}))


def _rejection(engine: ReferenceEngine, action: JSON) -> tuple[str, str]:
    result = engine.apply(action)
    assert not result["accepted"]
    return result["rejection"]["code"], result["rejection"]["rule"]


def test_the_answers_of_one_decision_share_their_entries_candidates() -> None:
    """A decision lists the candidates of one of its answers' entries (LISTERS): they must be the same for all."""
    assert ANSWERS, "no decision kind"
    for answers in ANSWERS.values():
        assert 1 == len({ENTRIES[t].candidates for t in answers})
