"""Conformance through the models: an engine's legal actions compared with the exact sets the models allow.

For every case of a bounded domain (a stone collection, the stone values in force, a cost or a limit) the
check builds a position with :func:`oracle.scenarios.given.complete_snapshot`, loads it into the engine (capability
``load``), and compares the engine's legal actions of one kind with the set the Z3 model enumerates.
Where a case has a follow-up (pay, then look at the stones left; keep, then look again), the engine
applies it and the exported state is compared with the model's (capability ``export``).

The checks are table-driven (the table in ``conform_rows``, its types in ``conform_types``, the rows in
``conform_payments``, ``conform_limit`` and ``conform_artifacts``; this module runs them): each :class:`Row` of
:data:`ROWS` names its domain, builds a case from a
key, says which legal actions it compares and how to explain a difference with a rule id. A case may
first play a *prelude* of actions from the loaded position (use the Incense Burner and choose to buy an
area; use the Book of Thoth; summon Duduri; sell with Duduri King) to reach the decision it compares.
The Artifacts rows (``requires``: the handshake's ``expansion`` and ``artifacts``, or ``expansion`` alone
for the Duduri cards) are reported unsupported by engines that do not declare them.

Every difference becomes a :class:`~oracle.core.results.CheckResult` of suite ``z3`` and, when asked, a
scenario file that pins it (``docs/scenarios.md``).
"""

from __future__ import annotations

import dataclasses
import random
import shlex
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from oracle.core.causes import CAUSE_KEY, CauseFacts, accepted_illegal, rejected_legal
from oracle.core.faults import EngineFault, PositionRefused
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.core.undrivable import UNDRIVABLE, undrivable_message, undrivable_reason
from oracle.engines.harness import Handshake, Subject, check_verdict
from oracle.scenarios.blame import StepKind, Trace, TraceStep, blamed
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.writer import scenario_id, write_scenario
from oracle.suites.z3.conform_actions import action_key, describe
from oracle.suites.z3.conform_actions import canonical as _canonical
from oracle.suites.z3.conform_actions import payment_of as _payment_of
from oracle.suites.z3.conform_actions import stones_of as _stones_of
from oracle.suites.z3.conform_artifacts import SALE_CARDS
from oracle.suites.z3.conform_artifacts import SUMMON_ROWS as _SUMMON_ROWS
from oracle.suites.z3.conform_payments import COST_CARDS, FILLER, HESTIA, SUMMON_CARDS
from oracle.suites.z3.conform_rows import ROWS, case_by_id, row_named
from oracle.suites.z3.conform_types import PLAYER, SUITE, Case, Divergence, Follow, Row
from oracle.suites.z3.conform_verdicts import allowed_actions

__all__ = [
    "COST_CARDS",
    "FILLER",
    "HESTIA",
    "PLAYER",
    "ROWS",
    "SALE_CARDS",
    "SUITE",
    "SUMMON_CARDS",
    "Case",
    "ConformOptions",
    "Follow",
    "case_by_id",
    "check_case",
    "row_named",
    "run_conformance",
    "select_keys",
]


# ----------------------------------------------------------------------------- running


@dataclass(frozen=True)
class ConformOptions:
    full: bool = False
    """Every case of every domain, instead of a deterministic sample of each."""
    seed: int = 1
    budget: float = 60.0
    """Seconds for the whole run; cases left when it runs out are reported as not checked."""
    save_failures: Path | None = None
    max_reports: int = 3
    """Divergences reported per row and rule id (the total is always given)."""
    rows: tuple[str, ...] = ()
    case: str | None = None
    """Check this one case id only (the ``reproduce`` command of a failure)."""
    impl: str = ""
    sample_scale: float = 1.0
    list_every_case: bool = False
    """Compare the engine's full listing at every case (a run whose engine lists cheaply: legal-set share 0.5), not
    only at the first case of each row (:mod:`oracle.suites.z3.conform_verdicts`)."""


def select_keys(row: Row, options: ConformOptions) -> tuple[list[str], int]:
    """The keys to check (in domain order, smallest cases first) and the domain size."""
    keys = row.domain()
    if options.full or len(keys) <= row.sample * options.sample_scale:
        return keys, len(keys)
    n = max(1, int(row.sample * options.sample_scale))
    rng = random.Random(f"z3-conformance/{row.name}/{options.seed}")
    chosen = sorted(rng.sample(range(len(keys)), n))
    return [keys[i] for i in chosen], len(keys)


def _matches(expected: JSON, actual: JSON | None) -> bool:
    return actual is not None and all(actual.get(k) == v for k, v in expected.items())


def _decision_text(decision: JSON | None) -> str:
    if decision is None:
        return "no decision (game over)"
    text = f"{decision.get('kind')} of player {decision.get('player')}"
    if decision.get("kind") == "keep_stones":
        text += f", limit {decision.get('limit')}"
    if decision.get("kind") == "pay":
        text += f", cost {decision.get('cost')}"
    if decision.get("kind") == "upgrade_stones":
        text += f", eligible {decision.get('eligible')}, min {decision.get('min')}, max {decision.get('max')}"
    return text


def _prelude_steps(case: Case) -> list[JSON]:
    return [{"do": action} for action in case.prelude]


class Undrivable(Exception):
    """The case reaches a decision the adapter marks ``undrivable`` (docs/protocol.md): it cannot be checked."""

    def __init__(self, pending: JSON) -> None:
        super().__init__(undrivable_message(pending))
        self.pending = pending


def _drivable(pending: JSON | None) -> JSON | None:
    if undrivable_reason(pending):
        assert pending is not None
        raise Undrivable(pending)
    return pending


def _play_prelude(subject: Subject, row: Row, case: Case) -> Divergence | None:
    """Apply the case's prelude from the loaded position; a divergence if the engine refuses an action of it."""
    for index, action in enumerate(case.prelude):
        before = _drivable(subject.decision())
        result = subject.apply(action)
        if result["accepted"]:
            continue
        rejection = result.get("rejection") or {}
        steps = [*_prelude_steps(case)[:index], {"do": action}]
        return Divergence(case, row.decision_rules, Outcome.WRONGLY_REJECTED,
                          f"the engine refuses {describe([action])} ({rejection.get('code')},"
                          f" {rejection.get('rule')}: {rejection.get('message')}) when asked"
                          f" {_decision_text(before)}; the model allows it",
                          "accepted", f"rejected: {rejection.get('code')} ({rejection.get('rule')})", tuple(steps))
    return None


def check_case(subject: Subject, row: Row, case: Case, follow: bool = True, listed: bool = True) -> Divergence | None:
    """Compare the engine with the model on one case; the first difference found, or None. The engine's legal
    actions are its listing when ``listed``, else its ``try_actions`` verdicts on the case's candidates where it has
    the capability (:mod:`oracle.suites.z3.conform_verdicts`)."""
    snapshot = complete_snapshot(case.given)
    subject.load_position(snapshot)
    refused = _play_prelude(subject, row, case)
    if refused is not None:
        return refused
    pending = _drivable(subject.decision())
    if not _matches(case.decision, pending):
        rules = row.decision_rules
        if case.decision.get("kind") == "keep_stones" or (pending or {}).get("kind") == "keep_stones":
            rules = ("LIMIT-1",)
        steps: list[JSON] = [*_prelude_steps(case), {
            "decision": case.decision, "note": f"the model expects {_decision_text(case.decision)}"}]
        if case.expected:
            steps[-1]["legal"] = list(case.expected)
        wanted, got = _decision_text(case.decision), _decision_text(pending)
        return Divergence(case, rules, Outcome.FAIL, f"the engine asks {got}; the model expects {wanted}",
                          wanted, got, tuple(steps))
    assert pending is not None
    actual = allowed_actions(subject, row, case, pending, snapshot, listed)
    expected_keys = {action_key(a): a for a in case.expected}
    actual_keys = {action_key(a): a for a in actual}
    missing = [a for k, a in expected_keys.items() if k not in actual_keys]
    extra = [a for k, a in actual_keys.items() if k not in expected_keys]
    if missing or extra:
        diagnosis = row.diagnose(case, missing, extra)
        outcome = Outcome.ILLEGAL_ACCEPTED if extra else Outcome.WRONGLY_REJECTED
        step: JSON = {"note": f"z3 model: exactly {len(case.expected)} legal; {diagnosis.message}"}
        if case.expected:
            step["legal"] = list(case.expected)
        pinned = [c for c in (_canonical(a) for a in extra) if c is not None]
        if pinned:
            step["not_legal"] = pinned
        steps = [*_prelude_steps(case), step]
        if pinned and diagnosis.reject is not None:
            code, rule = diagnosis.reject
            steps.append({"do": pinned[0], "reject": {"code": code, "rule": rule}})
        facts: JSON = {"missing": missing, "extra": extra}
        if diagnosis.reject is not None:
            facts["reject"] = {"code": diagnosis.reject[0], "rule": diagnosis.reject[1]}
        return Divergence(case, diagnosis.rules, outcome, diagnosis.message, describe(case.expected),
                          describe(actual), tuple(steps), facts)
    if follow:
        at_position = True
        for f in case.follow:
            found, at_position = _check_follow(subject, row, case, snapshot, f, at_position)
            if found is not None:
                return found
    return None


def _check_follow(subject: Subject, row: Row, case: Case, snapshot: JSON, f: Follow,
                  at_position: bool) -> tuple[Divergence | None, bool]:
    """The follow-up's divergence, if any, and whether the engine is still at the case's decision afterwards. A
    follow-up the model rejects is judged by ``try_actions`` where the engine has it (its verdict is what ``apply``
    does, PROTO-2, confirmed on a copy of the engine when it differs from the model), else applied; the engine's
    state is loaded again only when an ``apply`` may have changed it."""
    judged = f.reject is not None and subject.handshake.can("try_actions")
    if not at_position:
        subject.load_position(snapshot)
        refused = _play_prelude(subject, row, case)
        if refused is not None:
            return refused, False
    if not judged:
        return _follow_divergence(subject, case, f, subject.apply(f.action)), False
    verdict = subject.try_actions([f.action])[0]
    found = _follow_divergence(subject, case, f, verdict)
    if found is not None:
        check_verdict(f.action, verdict, subject.clone().apply(f.action))
    return found, True


def _follow_divergence(subject: Subject, case: Case, f: Follow, result: JSON) -> Divergence | None:
    rejection = result.get("rejection") or {}
    prelude = tuple(_prelude_steps(case))
    if f.reject is not None:
        code, rule = f.reject
        step: JSON = {"do": f.action, "reject": {"code": code, "rule": rule}}
        if result["accepted"]:
            return Divergence(case, (rule,), Outcome.ILLEGAL_ACCEPTED,
                              f"accepts {describe([f.action])}; the model rejects it ({rule}, {code})",
                              f"rejected: {code} ({rule})", "accepted", (*prelude, step))
        if rejection.get("code") != code:
            return Divergence(case, (rule,), Outcome.FAIL,
                              f"rejects {describe([f.action])} citing {rejection.get('rule')!r}"
                              f" ({rejection.get('code')}); the model's reason is {rule} ({code})",
                              f"rejected: {code} ({rule})",
                              f"rejected: {rejection.get('code')} ({rejection.get('rule')})", (*prelude, step))
        return None
    step = {"do": f.action}
    expected_player: JSON = dict(f.player_after)
    if f.stones_after is not None:
        expected_player["stones"] = f.stones_after.to_json()
    if expected_player:
        step["expect"] = {"players": [expected_player]}
    if f.decision_kind is not None:
        step["decision"] = {"kind": f.decision_kind, "player": PLAYER}
    if not result["accepted"]:
        return Divergence(case, f.rules, Outcome.WRONGLY_REJECTED,
                          f"the engine lists {describe([f.action])} as legal, then refuses it: {rejection}",
                          "accepted", f"rejected: {rejection}", (*prelude, step))
    if not subject.handshake.can("export"):
        return None
    exported = subject.export()["players"][PLAYER]
    after = _stones_of(exported.get("stones"))
    pending = subject.decision()
    problems = []
    rules: tuple[str, ...] = ()
    if f.stones_after is not None and after != f.stones_after:
        paid = _payment_of(f.action)
        rules = f.rules
        if after is not None and after.contains(f.stones_after) and f.rules == ("PAY-2",) and paid is not None:
            problems.append(f"gives change: holds [{after}] after paying [{paid}], not [{f.stones_after}]"
                            f" ({after - f.stones_after} given back)")
        else:
            problems.append(f"holds [{after}] afterwards, not [{f.stones_after}]")
            if f.rules == ("PAY-2",) and case.row in _SUMMON_ROWS:
                rules = ("PAY-2", "SUM-2")
    wrong = {k: exported.get(k) for k, v in f.player_after.items() if exported.get(k) != v}
    if wrong:
        problems.append(", ".join(f"{k} is {v!r}, not {f.player_after[k]!r}" for k, v in wrong.items()))
        rules = (*rules, *(f.player_rules or f.rules))
    if f.decision_kind is not None and (pending or {}).get("kind") != f.decision_kind:
        problems.append(f"then asks {_decision_text(pending)}, not {f.decision_kind}")
        rules = (*rules, *f.rules)
    if not problems:
        return None
    fields = "".join(f", {k} {v!r}" for k, v in f.player_after.items())
    found = "".join(f", {k} {exported.get(k)!r}" for k in f.player_after)
    return Divergence(case, tuple(dict.fromkeys(rules)), Outcome.FAIL,
                      f"after {describe([f.action])}: " + "; ".join(problems),
                      f"holds [{f.stones_after}]{fields}" + (f", then {f.decision_kind}" if f.decision_kind else ""),
                      f"holds [{after}]{found}, then {_decision_text(pending)}", (*prelude, step))


def _reproduce(options: ConformOptions, case: Case) -> str:
    impl = f" --impl {shlex.quote(options.impl)}" if options.impl else ""
    return f"oracle z3 conform{impl} --case {case.id}"


def _scenario(divergence: Divergence, engine: str, requires: tuple[str, ...] = ()) -> JSON:
    case = divergence.case
    rules = list(dict.fromkeys(divergence.rules))
    doc: JSON = {
        "id": scenario_id(f"z3-{case.id}-{'-'.join(rules)}"),
        "title": f"{case.title}: {divergence.message}"[:300],
        "rules": rules,
        "cards": list(dict.fromkeys(case.cards)),
        "source": f"z3 conformance counterexample ({case.id}) found on {engine}",
        "given": case.given,
        "steps": list(divergence.steps),
    }
    if requires:
        doc["requires"] = list(requires)
    return doc


def _result(divergence: Divergence, options: ConformOptions, row: Row, engine: str, total: int) -> CheckResult:
    case = divergence.case
    details: JSON = {"state": case.facts, "case": case.id, **divergence.details}
    reproduce = _reproduce(options, case)
    if options.save_failures is not None:
        path = write_scenario(options.save_failures, _scenario(divergence, engine, row.requires), "z3")
        details["scenario"] = str(path)
        reproduce += f"  (scenario: {path})"
    message = divergence.message
    if total > 1:
        message += f" [{total} divergent cases in {row.name}]"
    return CheckResult(SUITE, f"z3/{case.id}", f"{row.title}: {case.title}", divergence.outcome,
                       rules=divergence.rules, cards=case.cards, expected=divergence.expected,
                       actual=divergence.actual, message=message, reproduce=reproduce, details=details)


def _rows(options: ConformOptions) -> Iterator[Row]:
    if options.case is not None:
        yield row_named(options.case.partition("/")[0])
        return
    for row in ROWS:
        if not options.rows or row.name in options.rows:
            yield row


def check_id(row: Row, rule: str) -> str:
    """The stable id of one property of a row: ``z3/summon-payment/PAY-3`` (the counterexamples go in details)."""
    return f"{SUITE}/{row.name}/{rule}"


def row_checks(row: Row) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """``(id, title, rules)`` of every check a row reports: one per rule it models, whatever the engine does."""
    return tuple((check_id(row, rule), f"{row.title} agree with the Z3 model ({rule})", (rule,))
                 for rule in row.rules)


def _property_of(row: Row, rules: tuple[str, ...]) -> str:
    """The row property a divergence counts against: its first rule the row models."""
    for rule in rules:
        if rule in row.rules:
            return rule
    return row.decision_rules[0] if row.decision_rules and row.decision_rules[0] in row.rules else row.rules[0]


def run_conformance(new_subject: Callable[[], Subject], options: ConformOptions) -> list[CheckResult]:
    """Check every row (or one case) against the engine ``new_subject()`` creates; each row has ``budget`` s."""
    results: list[CheckResult] = []
    for row in _rows(options):
        results.extend(run_row(new_subject, row, options))
    return results


def row_unsupported(row: Row, handshake: Handshake) -> str:
    """Why the engine cannot run this row, from its handshake ('' when it can): the expansion features the row needs,
    then ``load`` (every case is a position loaded into the engine)."""
    missing_features = [f for f in row.requires if not getattr(handshake, f, False)]
    if missing_features:
        return f"the engine does not declare {', '.join(missing_features)}"
    if not handshake.can("load"):
        return "model conformance loads positions, and the engine does not declare the 'load' capability"
    return ""


def run_row(new_subject: Callable[[], Subject], row: Row, options: ConformOptions) -> list[CheckResult]:
    """One result per property of the row (:func:`row_checks`): pass, fail with counterexamples, the engine's
    fault, or ``incomplete`` with the count checked when the row's budget ran out first. The first case checked
    (every case with ``list_every_case``) compares the engine's full listing, the others its ``try_actions``
    verdicts where it has them."""
    started = time.perf_counter()
    checks = row_checks(row)

    def every(outcome: Outcome, message: str, **details: object) -> list[CheckResult]:
        return [CheckResult(SUITE, cid, title, outcome, rules=rules, message=message, details=dict(details))
                for cid, title, rules in checks]

    try:
        subject = new_subject()
    except EngineFault as fault:
        return every(fault.outcome, str(fault), **fault.details)
    engine = f"{subject.handshake.engine} {subject.handshake.version}".strip()
    reason = row_unsupported(row, subject.handshake)
    if reason:
        return every(Outcome.UNSUPPORTED, reason)
    if options.case is not None:
        keys, domain = [options.case.partition("/")[2]], len(row.domain())
    else:
        keys, domain = select_keys(row, options)
    deadline = started + options.budget
    found: dict[str, list[Divergence]] = {rule: [] for rule in row.rules}
    faults: list[tuple[Case, EngineFault]] = []
    undrivable: list[Undrivable] = []
    refused: list[PositionRefused] = []
    checked = 0
    listing_compared = False
    out_of_time = False
    for key in keys:
        if time.perf_counter() > deadline:
            out_of_time = True
            break
        case = row.build(key)
        try:
            divergence = check_case(subject, row, case, listed=options.list_every_case or not listing_compared)
        except PositionRefused as refusal:
            refused.append(refusal)
            continue
        except EngineFault as fault:
            faults.append((case, fault))
            if len(faults) >= options.max_reports:
                break
            try:
                subject = new_subject()
            except EngineFault:
                break
            continue
        except Undrivable as stop:
            undrivable.append(stop)
            continue
        checked += 1
        listing_compared = True
        if divergence is not None:
            found[_property_of(row, divergence.rules)].append(divergence)
    seconds = time.perf_counter() - started
    summary: JSON = {"cases_checked": checked, "cases_selected": len(keys), "domain": domain, "full": options.full,
                     "seconds": round(seconds, 3), "out_of_budget": out_of_time, "faults": len(faults),
                     "undrivable_cases": len(undrivable)}
    results = []
    for cid, title, rules in checks:
        divergences = found[rules[0]]
        if divergences:
            results.append(_failure(cid, title, rules, divergences, options, row, engine, summary, new_subject))
        elif faults:
            faulty_case, first_fault = faults[0]
            results.append(CheckResult(
                SUITE, cid, title, first_fault.outcome, rules=rules, message=f"{first_fault} (case {faulty_case.id}; "
                f"{len(faults)} case(s) ended by an engine fault, {checked} checked)",
                reproduce=_reproduce(options, faulty_case), duration=seconds,
                details={**summary, "state": faulty_case.facts, "case": faulty_case.id, **first_fault.details}))
        elif refused:
            some = f"{len(refused)} of {len(refused) + checked} case(s): " if checked else ""
            results.append(CheckResult(SUITE, cid, title, Outcome.UNSUPPORTED, rules=rules, duration=seconds,
                                       message=f"{some}{refused[0].message}",
                                       details={**summary, "refused_cases": len(refused), **refused[0].details}))
        elif undrivable:
            pending = undrivable[0].pending
            results.append(CheckResult(
                SUITE, cid, title, Outcome.UNSUPPORTED, rules=rules, duration=seconds,
                message=f"{len(undrivable)} of {len(undrivable) + checked} case(s) reach a decision the adapter "
                        f"cannot drive ({checked} agree with the model): {undrivable[0]}",
                details={**summary, UNDRIVABLE: undrivable_reason(pending), "kind": pending.get("kind")}))
        elif out_of_time:
            results.append(CheckResult(
                SUITE, cid, title, Outcome.INCOMPLETE, rules=rules, duration=seconds, details=summary,
                message=f"only {checked} of {len(keys)} selected cases checked before the row's budget of "
                        f"{options.budget:g} s ran out (raise it with --z3-budget)"))
        elif not checked:
            results.append(CheckResult(
                SUITE, cid, title, Outcome.INCOMPLETE, rules=rules, duration=seconds, details=summary,
                message=f"0 cases checked ({len(keys)} selected of {domain}): the row exercised nothing"))
        else:
            results.append(CheckResult(SUITE, cid, title, Outcome.PASS, rules=rules, duration=seconds,
                                       message=f"{checked} of {domain} cases agree with the model",
                                       details=summary))
    return results


def case_trace(divergence: Divergence) -> Trace:
    """The case as the first-divergence replay takes it (issue 24: for a Z3 row the case itself is the step): its
    position loaded, then its steps (the prelude's actions, the legal and illegal actions it pins, its follow-up)."""
    steps: list[TraceStep] = []
    for number, step in enumerate(divergence.steps, 1):
        listed = [*step.get("legal", []), *step.get("not_legal", [])]
        steps += [TraceStep(StepKind.LISTED, a, number) for a in listed if isinstance(a, dict)]
        if isinstance(step.get("do"), dict):
            steps.append(TraceStep(StepKind.APPLY, step["do"], number))
    return Trace(tuple(steps), snapshot=complete_snapshot(divergence.case.given))


def _own_facts(divergence: Divergence) -> CauseFacts | None:
    """What the case says by itself: the first action the engine lists and the model does not, or the reverse."""
    extra, missing = divergence.details.get("extra") or [], divergence.details.get("missing") or []
    reject = divergence.details.get("reject") if isinstance(divergence.details.get("reject"), dict) else {}
    rule = divergence.rules[0] if divergence.rules else ""
    if extra and isinstance(extra[0], dict):
        return dataclasses.replace(accepted_illegal(extra[0], str((reject or {}).get("code", ""))), rule=rule)
    if missing and isinstance(missing[0], dict):
        return dataclasses.replace(rejected_legal(missing[0], ""), rule=rule)
    return None


def _failure(cid: str, title: str, rules: tuple[str, ...], divergences: list[Divergence], options: ConformOptions,
             row: Row, engine: str, summary: JSON, fresh: Callable[[], Subject]) -> CheckResult:
    """A failing property: the first counterexample shown, up to ``max_reports`` of them in the details, with the
    facts of the first one's first divergence from the reference."""
    shown = [_result(d, options, row, engine, len(divergences)) for d in divergences[: options.max_reports]]
    first = shown[0]
    facts = blamed(fresh, case_trace(divergences[0]), _own_facts(divergences[0]), 0.0)
    cause: JSON = {CAUSE_KEY: facts.to_json()} if facts is not None else {}
    details: JSON = {**summary, **first.details, **cause, "divergent_cases": len(divergences),
                     "rules_broken": list(first.rules),
                     "counterexamples": [{"case": r.details.get("case"), "message": r.message,
                                          "expected": r.expected, "actual": r.actual, "reproduce": r.reproduce}
                                         for r in shown]}
    worst = next((d.outcome for d in divergences if d.outcome is not Outcome.FAIL), Outcome.FAIL)
    return CheckResult(SUITE, cid, title, worst, rules=tuple(dict.fromkeys((*rules, *first.rules))),
                       cards=first.cards, expected=first.expected,
                       actual=first.actual, message=first.message, reproduce=first.reproduce,
                       duration=float(summary["seconds"]), details=details)
