"""What a report says of the engine's speed, as the HTML site shows it (issue 25, item 5): the budget scale, the
legal-set share, the cost per call by method, the advice, and how many checks ``load`` would unlock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MethodCost:
    """One protocol method's calls in the run: how many, the middle one's milliseconds, all of them in seconds."""

    method: str
    calls: int
    median_ms: float
    total_s: float


@dataclass(frozen=True)
class Speed:
    """How the run followed the engine's speed; every part empty in a report written before it was recorded."""

    budget_scale: str
    legal_share: str
    methods: tuple[MethodCost, ...]
    advice: tuple[str, ...]
    load_would_unlock: int

    @property
    def shown(self) -> bool:
        return bool(self.budget_scale or self.legal_share or self.methods or self.advice or self.load_would_unlock)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _budget_scale(raw: Any) -> str:
    if not isinstance(raw, dict) or _number(raw.get("factor")) is None:
        return ""
    text = f"budget scale {raw['factor']:g} ({raw.get('source', '')}"
    engine_ms, reference_ms = _number(raw.get("engine_ms")), _number(raw.get("reference_ms"))
    if engine_ms is not None and reference_ms is not None:
        text += f": the engine's calls took {engine_ms:.3f} ms, the reference's {reference_ms:.3f} ms"
    return text + ")"


def _legal_share(share: Any, reason: Any) -> str:
    if _number(share) is None:
        return ""
    return f"legal-set share {share:g}" + (f" ({reason})" if isinstance(reason, str) and reason else "")


def _methods(raw: Any) -> tuple[MethodCost, ...]:
    rows = raw.get("methods") if isinstance(raw, dict) else None
    return tuple(MethodCost(row["method"], int(row["calls"]), float(row["median_ms"]), float(row["total_s"]))
                 for row in rows or () if isinstance(row, dict) and isinstance(row.get("method"), str)
                 and all(_number(row.get(k)) is not None for k in ("calls", "median_ms", "total_s")))


def speed_of(run: dict[str, Any], totals: Any) -> Speed:
    """The speed a report's ``run`` and ``totals`` record; anything missing or malformed is left out."""
    costs = run.get("engine_costs")
    advice = costs.get("advice") if isinstance(costs, dict) else None
    advice = advice if isinstance(advice, list) else []
    unlock = _number(totals.get("load_would_unlock")) if isinstance(totals, dict) else None
    return Speed(_budget_scale(run.get("budget_scale")), _legal_share(run.get("legal_share"),
                                                                       run.get("legal_share_reason")),
                 _methods(costs), tuple(a for a in advice if isinstance(a, str)),
                 int(unlock) if unlock is not None else 0)
