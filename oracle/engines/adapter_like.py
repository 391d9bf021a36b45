"""An engine made to behave like a real adapter, for benchmarks: without ``legal_actions``, or paying for it.

Real engines cannot list their legal actions: their adapters either leave the capability out (and the oracle
builds the candidates and tries each on a copy, :meth:`oracle.engines.harness.Subject.probe_legal_actions`) or
list them by trying every candidate themselves, which adapters measured at 20 to 150 ms a call (issue 25).
``oracle serve --legal-by-trial`` and ``--legal-cost MS`` serve the reference the same two ways, so the oracle's
speed on such engines can be measured without them (``ci/bench_wire.py``, ``docs/performance.md``); both keep the
reference's ``try_actions`` (the batch verdict a real adapter gets from the Node kit), which ``--no-try-actions``
leaves out too.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from oracle.core.json_types import JSON
from oracle.engines.forwarding import Forwarding

LEGAL_ACTIONS = "legal_actions"
TRY_ACTIONS = "try_actions"


@dataclass(frozen=True, slots=True)
class AdapterLike:
    """How the served engine lists its legal actions: not at all (``by_trial``: the capability is left out of
    its handshake and the method answers unsupported), or after a fixed wait of ``cost_ms`` per call; and whether
    it judges actions in batches (``try_actions``, unless ``no_try``)."""

    by_trial: bool = False
    cost_ms: float = 0.0
    no_try: bool = False

    def problem(self) -> str | None:
        """Why these settings cannot be served, or None."""
        if not math.isfinite(self.cost_ms) or self.cost_ms < 0:
            return f"--legal-cost must be a number of milliseconds from 0, not {self.cost_ms:g}"
        if self.by_trial and self.cost_ms:
            return "--legal-cost prices a legal_actions call, which --legal-by-trial never answers: give one of them"
        return None

    @property
    def changes_anything(self) -> bool:
        return self.by_trial or self.cost_ms > 0 or self.no_try

    @property
    def left_out(self) -> frozenset[str]:
        """The capabilities the served handshake leaves out."""
        return frozenset(name for name, out in ((LEGAL_ACTIONS, self.by_trial), (TRY_ACTIONS, self.no_try)) if out)


class AdapterLikeEngine(Forwarding):
    """``engine`` with every method passed through, except the handshake, ``legal_actions`` and ``try_actions`` as
    ``like`` says."""

    def __init__(self, engine: Any, like: AdapterLike) -> None:
        super().__init__(engine)
        self.like = like

    def handshake(self) -> JSON:
        shake: JSON = dict(self.engine.handshake())
        left_out = self.like.left_out
        shake["capabilities"] = [c for c in shake.get("capabilities", []) if c not in left_out]
        return shake

    def legal_actions(self) -> list[JSON]:
        if self.like.by_trial:
            raise NotImplementedError("served with --legal-by-trial: the oracle tries candidate actions instead")
        time.sleep(self.like.cost_ms / 1000)
        listed: list[JSON] = self.engine.legal_actions()
        return listed

    def try_actions(self, actions: list[JSON]) -> list[JSON]:
        if self.like.no_try:
            raise NotImplementedError("served with --no-try-actions: the oracle applies actions on copies instead")
        verdicts: list[JSON] = self.engine.try_actions(actions)
        return verdicts


def adapter_like(factory: Callable[[], Any], like: AdapterLike) -> Callable[[], Any]:
    """A factory of ``factory``'s engines behaving as ``like`` says (``factory`` itself when nothing changes)."""
    if not like.changes_anything:
        return factory

    def create() -> AdapterLikeEngine:
        return AdapterLikeEngine(factory(), like)

    return create
