"""Failing checks grouped by cause: a key that does not depend on which check found the deviation (verdict, the
reference's code or the field, and the blamed rule), the kinds, cards and steps listed inside each cause."""

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
from oracle.reports.cause_words import cause_title, names
from oracle.reports.charges import Charge, charge

_METHOD = re.compile(r"^([a-z_]+): ")
_FAULTS = (Outcome.ERROR, Outcome.TIMEOUT)
CONTRADICTION_RULE = "PROTO-2"
"""The rule a declared capability answered ``unsupported`` breaks."""


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
    if kind in ("state", "decision", "events"):
        field = str(divergence.get("field", ""))
        return differs_after(action, field if kind != "decision" else f"decision.{field}".rstrip("."))
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
    """The facts a failing result carries, or the best the oracle can say from its outcome. A refused capability
    the handshake declares is PROTO-2 by definition, so its blame is known."""
    details = result.details
    contradicted = details.get(DECLARED_UNSUPPORTED)
    if isinstance(contradicted, str) and contradicted:
        return CauseFacts(Verdict.CONTRADICTS, "capability", field=contradicted, rule=CONTRADICTION_RULE)
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


def blame_of(result: CheckResult) -> str:
    """The rule a check that ran and did not pass is blamed on ('' when it passed, did not run, or the blame is not
    known)."""
    if result.outcome is Outcome.PASS or not result.outcome.ran:
        return ""
    return cause_of(result).rule


def charge_of(result: CheckResult) -> Charge:
    """The rules one result counts against and those it did not reach (:func:`oracle.reports.charges.charge`)."""
    return charge(result.outcome, result.rules, blame_of(result))


@dataclass(frozen=True)
class Facets:
    """What varies among the members of one cause without being part of its key: the action or decision kinds, the
    cards and tiles, the steps of the first divergence, the engine's rejection codes and its own messages."""

    kinds: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    steps: tuple[int, ...] = ()
    engine_codes: tuple[str, ...] = ()
    engine_messages: tuple[str, ...] = ()

    @staticmethod
    def of(facts: Sequence[CauseFacts]) -> Facets:
        def seen(values: Iterable[str]) -> tuple[str, ...]:
            return tuple(dict.fromkeys(v for v in values if v))

        return Facets(seen(f.kind for f in facts), seen(c for f in facts for c in f.cards),
                      tuple(sorted({f.step for f in facts if f.step is not None})),
                      seen(f.engine_code for f in facts), seen(f.engine_message for f in facts))

    @property
    def text(self) -> str:
        """``kinds: pay, action · cards: Hestia, Ember · steps: 3, 5 · engine codes: PAYMENT_SHORT``; '' when
        nothing is known."""
        parts = (("kinds", ", ".join(self.kinds)), ("cards", names(self.cards)),
                 ("steps", ", ".join(map(str, self.steps))), ("engine codes", ", ".join(self.engine_codes)))
        return " · ".join(f"{label}: {value}" for label, value in parts if value)

    def to_json(self) -> JSON:
        return {"kinds": list(self.kinds), "cards": list(self.cards), "steps": list(self.steps),
                "engine_codes": list(self.engine_codes), "engine_messages": list(self.engine_messages)}


@dataclass(frozen=True)
class Cause:
    """The failing checks that share one key (``facts.signature``), and the smallest scenario that shows it;
    ``facts`` are those of the smallest member."""

    facts: CauseFacts
    members: tuple[CheckResult, ...]

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules the cause counts against: its blamed rule, or (blame not known) every rule its members cite."""
        return tuple(dict.fromkeys(r for m in self.members for r in charge_of(m).charged))

    @property
    def facets(self) -> Facets:
        return Facets.of([cause_of(m) for m in self.members])

    @property
    def title(self) -> str:
        return cause_title(self.facts)

    @property
    def blame_text(self) -> str:
        """``rule PAY-3`` for a blamed cause, ``rules PAY-3, PAY-1 (blame not known)`` for one that is not, '' for
        one whose members cite no rule."""
        if self.facts.rule:
            return f"rule {self.facts.rule}"
        return f"rules {', '.join(self.rules)} (blame not known)" if self.rules else ""

    @property
    def engine_message(self) -> str:
        """The engine's own words at the divergence: the smallest member's, else the first member's that has any."""
        return self.facts.engine_message or next(iter(self.facets.engine_messages), "")

    @property
    def smallest(self) -> CheckResult:
        """The member easiest to replay: a scenario before a game, then the fewest steps."""
        return smallest(self.members)

    @property
    def smallest_text(self) -> str:
        best = self.smallest
        saved = best.details.get("scenario")
        if isinstance(saved, str) and saved:
            return f"{best.id} (scenario: {saved})"
        return f"{best.id}: {best.reproduce}" if best.reproduce else best.id

    def to_json(self) -> JSON:
        best = self.smallest
        out: JSON = {"signature": self.facts.signature, "title": self.title, "kind": self.facts.verdict.value,
                     "facts": self.facts.to_json(), "facets": self.facets.to_json(), "count": len(self.members),
                     "checks": [m.id for m in self.members], "rules": list(self.rules),
                     "engine_message": self.engine_message, "smallest": self.smallest_text}
        text = best.details.get("scenario_text")
        if isinstance(text, str) and text:
            out["smallest_scenario"] = text
        return out


MEMBERS_SHOWN = 8
"""How many members of a cause the console lists (the reports list them all)."""


def cause_lines(cause: Cause) -> list[str]:
    """What the console prints under a cause's title: its facets, the engine's own words, its members (the first
    :data:`MEMBERS_SHOWN`) and the smallest reproduction."""
    members = [m.id for m in cause.members]
    more = f" and {len(members) - MEMBERS_SHOWN} more" if len(members) > MEMBERS_SHOWN else ""
    return [*([cause.facets.text] if cause.facets.text else []),
            *([f"the engine says: {cause.engine_message}"] if cause.engine_message else []),
            f"{', '.join(members[:MEMBERS_SHOWN])}{more}", f"smallest: {cause.smallest_text}"]


def smallest(members: Iterable[CheckResult]) -> CheckResult:
    """The check easiest to replay: a scenario before a game, then the fewest steps, then by id."""
    return min(members, key=lambda r: (r.suite != "scenarios", r.step or 0, r.id))


def group_causes(failures: Iterable[CheckResult]) -> list[Cause]:
    """Failing results grouped by exactly their key (``CauseFacts.signature``): accept/reject mismatches first,
    code-only differences last, and within each the causes with most checks first. A check's further failures
    (``further_failures``) join the causes they show, a check a member of each of its causes once. An incomplete
    result (a budget ran out, or it exercised nothing) is never a cause, whatever it is handed in with: it found no
    deviation."""
    groups: dict[str, list[tuple[CheckResult, CauseFacts]]] = {}
    for result in (f for failing in failures for f in failing.failures()):
        if result.outcome is Outcome.INCOMPLETE:
            continue
        facts = cause_of(result)
        group = groups.setdefault(facts.signature, [])
        if all((m.suite, m.id) != (result.suite, result.id) for m, _ in group):
            group.append((result, facts))
    causes = []
    for members in groups.values():
        best = smallest(m for m, _ in members)
        facts = next(f for m, f in members if m is best)
        causes.append(Cause(facts, tuple(m for m, _ in members)))
    return sorted(causes, key=lambda c: (c.facts.rank, -len(c.members), c.facts.signature))


def causes_headline(causes: Sequence[Cause]) -> str:
    """``3 causes, 31 failing checks``."""
    checks = len({(m.suite, m.id) for c in causes for m in c.members})
    return (f"{len(causes)} cause{'s' if len(causes) != 1 else ''}, "
            f"{checks} failing check{'s' if checks != 1 else ''}")


def notes_of(result: CheckResult) -> list[str]:
    """The notes a check carries (an engine's rule id that differs from the reference's, DEC notes)."""
    notes = result.details.get("notes")
    return [str(n) for n in notes] if isinstance(notes, list) else []
