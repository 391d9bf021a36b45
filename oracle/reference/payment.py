"""Stone values and payment legality, shared by the engine, the Z3 models and the checks.

Rules PAY-1 (cover the cost), PAY-2 (no change), PAY-3 (no superfluous stone), PAY-4 (values in force
at the moment of paying), PAY-5 (only stones held); the values in force are combined by Table.stone_values (RUL-16).
"""

from __future__ import annotations

from dataclasses import dataclass

from oracle.core.model import COLORS, Color, Stones
from oracle.core.protocol import Rejection, RejectionCode


@dataclass(frozen=True, slots=True)
class StoneValues:
    """What each colour is worth to one player right now."""

    red: int = 1
    blue: int = 3
    purple: int = 6

    def of(self, color: Color) -> int:
        return int(getattr(self, color.value))

    def worth(self, stones: Stones) -> int:
        return stones.red * self.red + stones.blue * self.blue + stones.purple * self.purple


PRINTED_VALUES = StoneValues()


def payment_violation(held: Stones, paid: Stones, values: StoneValues, cost: int) -> RejectionCode | None:
    """The first payment rule ``paid`` breaks (PAY-5, PAY-1, PAY-3), or None; cheap enough for enumeration."""
    if paid.red > held.red or paid.blue > held.blue or paid.purple > held.purple:
        return RejectionCode.STONES_NOT_HELD
    total = paid.red * values.red + paid.blue * values.blue + paid.purple * values.purple
    if total < cost:
        return RejectionCode.PAYMENT_SHORT
    if (
        (paid.red and total - values.red >= cost)
        or (paid.blue and total - values.blue >= cost)
        or (paid.purple and total - values.purple >= cost)
    ):
        return RejectionCode.PAYMENT_SUPERFLUOUS_STONE
    return None


def check_payment(held: Stones, paid: Stones, values: StoneValues, cost: int) -> Rejection | None:
    """Return why paying ``paid`` for ``cost`` is illegal, or None if it is legal."""
    code = payment_violation(held, paid, values, cost)
    if code is None:
        return None
    total = values.worth(paid)
    if code is RejectionCode.STONES_NOT_HELD:
        return Rejection(code, "PAY-5", f"pays {paid} but holds only {held}")
    if code is RejectionCode.PAYMENT_SHORT:
        return Rejection(code, "PAY-1", f"pays {paid} worth {total}, short of the cost {cost}")
    spare = next(c for c in COLORS if paid.count(c) and total - values.of(c) >= cost)
    return Rejection(
        code, "PAY-3", f"pays {paid} worth {total} for a cost of {cost}: a {spare.value} stone is superfluous"
    )


class PaymentMemo:
    """The legal payments already worked out, keyed by (held, values, cost, the payment rule in force), the stones
    and values by their counts (a tuple of numbers hashes and compares without calling Python code).

    The answer depends on the arguments and on the payment rule alone, so an entry never goes stale; the rule is
    part of the key so that an engine patching ``payment_violation`` (a fixture) gets answers of its own. The
    memo lives as long as the process and holds at most ``limit`` entries: when full it is cleared, here only.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.found: dict[tuple[object, ...], tuple[Stones, ...]] = {}

    def payments(self, held: Stones, values: StoneValues, cost: int) -> tuple[Stones, ...]:
        key = (held.red, held.blue, held.purple, values.red, values.blue, values.purple, cost, payment_violation)
        found = self.found.get(key)
        if found is None:
            # Cleared only after 20,000 different questions, a cache detail: tests/test_reference_plumbing.py.
            if len(self.found) >= self.limit:  # pragma: no cover - memo eviction, no rule decides it
                self.found.clear()
            found = tuple(p for p in held.sub_collections() if payment_violation(held, p, values, cost) is None)
            self.found[key] = found
        return found


_PAYMENTS = PaymentMemo(limit=20_000)


def legal_payments(held: Stones, values: StoneValues, cost: int) -> tuple[Stones, ...]:
    """Every legal payment of ``cost`` from ``held``, as colour counts (PAY-1..PAY-5)."""
    return _PAYMENTS.payments(held, values, cost)
