"""Failing checks grouped by cause: a signature that does not depend on which check found the deviation."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from oracle.core.causes import (
    CAUSE_KEY,
    CauseFacts,
    Verdict,
    accepted_illegal,
    changed_then_rejected,
    differs_after,
    rejected_legal,
)
from oracle.core.json_types import JSON
from oracle.core.results import DECLARED_UNSUPPORTED, CheckResult, Outcome

_METHOD = re.compile(r"^([a-z_]+): ")
_FAULTS = (Outcome.ERROR, Outcome.TIMEOUT, Outcome.INCOMPLETE)


def _from_divergence(divergence: JSON) -> CauseFacts | None:
    """The facts of a fuzzer divergence (``vale_invariants.trace.Divergence.to_json``)."""
    kind = divergence.get("kind")
    action = divergence.get("action") if isinstance(divergence.get("action"), dict) else None
    rejection = divergence.get("rejection") if isinstance(divergence.get("rejection"), dict) else {}
    code = str((rejection or {}).get("code", ""))
    if kind == "legal":
        extra, missing = divergence.get("extra") or [], divergence.get("missing") or []
        if extra and isinstance(extra[0], dict):
            return accepted_illegal(extra[0], code)
        if missing and isinstance(missing[0], dict):
            return rejected_legal(missing[0], "")
        return None
    if kind in ("rejected", "probe") and action is not None:
        return accepted_illegal(action, code)
    if kind == "accepted" and action is not None:
        return rejected_legal(action, code)
    if kind == "changed" and action is not None:
        engine = divergence.get("engine_rejection")
        return changed_then_rejected(action, rejection or {}, engine if isinstance(engine, dict) else {},
                                     str(divergence.get("field", "")))
    if kind in ("state", "decision"):
        field = str(divergence.get("field", ""))
        return differs_after(action, field if kind == "state" else f"decision.{field}".rstrip("."))
    return None


def _from_z3(details: JSON) -> CauseFacts | None:
    """The facts of a Z3 counterexample: the actions it lists that the model does not, or the reverse."""
    extra, missing = details.get("extra") or [], details.get("missing") or []
    reject = details.get("reject") if isinstance(details.get("reject"), dict) else {}
    if extra and isinstance(extra[0], dict):
        return accepted_illegal(extra[0], str((reject or {}).get("code", "")))
    if missing and isinstance(missing[0], dict):
        return rejected_legal(missing[0], "")
    return None


def cause_of(result: CheckResult) -> CauseFacts:
    """The facts a failing result carries, or the best the oracle can say from its outcome."""
    details = result.details
    contradicted = details.get(DECLARED_UNSUPPORTED)
    if isinstance(contradicted, str) and contradicted:
        return CauseFacts(Verdict.CONTRADICTS, "capability", field=contradicted)
    facts = CauseFacts.from_json(details.get(CAUSE_KEY))
    if facts is None and isinstance(details.get("divergence"), dict):
        facts = _from_divergence(details["divergence"])
    if facts is None and result.suite == "z3":
        facts = _from_z3(details)
    if facts is not None:
        return facts
    if result.outcome in _FAULTS:
        method = _METHOD.match(result.message)
        return CauseFacts(Verdict.FAULT, result.outcome.value, field=method.group(1) if method else "the run")
    return CauseFacts(Verdict.OTHER, result.suite, field=", ".join(result.rules) or result.outcome.value)


@dataclass(frozen=True)
class Cause:
    """The failing checks that share one signature, and the smallest scenario that shows it."""

    facts: CauseFacts
    members: tuple[CheckResult, ...]

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r for m in self.members for r in m.rules))

    @property
    def smallest(self) -> CheckResult:
        """The member easiest to replay: a scenario before a game, then the fewest steps."""
        return min(self.members, key=lambda r: (r.suite != "scenarios", r.step or 0, r.id))

    @property
    def smallest_text(self) -> str:
        best = self.smallest
        saved = best.details.get("scenario")
        if isinstance(saved, str) and saved:
            return f"{best.id} (scenario: {saved})"
        return f"{best.id}: {best.reproduce}" if best.reproduce else best.id

    def to_json(self) -> JSON:
        best = self.smallest
        out: JSON = {"signature": self.facts.signature, "title": self.facts.title, "kind": self.facts.verdict.value,
                     "facts": self.facts.to_json(), "count": len(self.members),
                     "checks": [m.id for m in self.members], "rules": list(self.rules),
                     "smallest": self.smallest_text}
        text = best.details.get("scenario_text")
        if isinstance(text, str) and text:
            out["smallest_scenario"] = text
        return out


def group_causes(failures: Iterable[CheckResult]) -> list[Cause]:
    """Failing results grouped by signature: accept/reject mismatches first, code-only differences last, and
    within each the causes with most checks first."""
    groups: dict[str, tuple[CauseFacts, list[CheckResult]]] = {}
    for result in failures:
        facts = cause_of(result)
        groups.setdefault(facts.signature, (facts, []))[1].append(result)
    causes = [Cause(facts, tuple(members)) for facts, members in groups.values()]
    return sorted(causes, key=lambda c: (c.facts.rank, -len(c.members), c.facts.signature))


def causes_headline(causes: Sequence[Cause]) -> str:
    """``3 causes, 31 failing checks``."""
    checks = sum(len(c.members) for c in causes)
    return (f"{len(causes)} cause{'s' if len(causes) != 1 else ''}, "
            f"{checks} failing check{'s' if checks != 1 else ''}")


def notes_of(result: CheckResult) -> list[str]:
    """The notes a check carries (an engine's rule id that differs from the reference's, DEC notes)."""
    notes = result.details.get("notes")
    return [str(n) for n in notes] if isinstance(notes, list) else []
