"""The Z3 proofs: every named property holds over its bounded domain, and a broken model is caught with a
concrete counterexample (so the proofs are not vacuous)."""

from __future__ import annotations

from typing import Any

import pytest
import z3
from typer.testing import CliRunner

from oracle.cli.z3 import z3_app
from oracle.core.model import Stones
from oracle.core.rules import rules
from oracle.reference.payment import StoneValues, check_payment
from oracle.suites.z3 import models, proofs


@pytest.fixture(scope="module")
def results() -> list[proofs.ProofResult]:
    return proofs.prove_all()


def test_every_property_holds(results: list[proofs.ProofResult]) -> None:
    assert len(results) == len(proofs.PROPERTIES) >= 25
    assert [(r.name, r.status, r.counterexample) for r in results if not r.holds] == []


def test_properties_are_named_once_and_cite_known_rules() -> None:
    names = [p.name for p in proofs.PROPERTIES]
    assert len(names) == len(set(names))
    catalogue = rules()
    for prop in proofs.PROPERTIES:
        assert prop.rules and all(rule in catalogue for rule in prop.rules), prop.name
        assert prop.statement and prop.domain


def test_every_rule_family_of_the_issue_has_a_property() -> None:
    cited = {rule for p in proofs.PROPERTIES for rule in p.rules}
    assert {"PAY-1", "PAY-2", "PAY-3", "PAY-4", "PAY-5", "RUL-16", "LIMIT-1", "LIMIT-2", "RUL-8", "RUL-9",
            "SUM-3"} <= cited


def _failing(name: str) -> proofs.ProofResult:
    result = proofs.prove(proofs.property_named(name))
    assert result.status == "sat", f"{name} still holds on the broken model"
    assert not result.holds and result.verdict == "FAILS"
    return result


def test_accepting_superfluous_stones_breaks_the_payment_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "no_superfluous", lambda paid, values, cost: z3.BoolVal(True))
    result = _failing("overpay-below-smallest-paid-stone")
    cx = result.counterexample
    held = Stones(cx["held.red"], cx["held.blue"], cx["held.purple"])
    paid = Stones(cx["paid.red"], cx["paid.blue"], cx["paid.purple"])
    values = StoneValues(cx["value.red"], cx["value.blue"], cx["value.purple"])
    rejection = check_payment(held, paid, values, cx["cost"])
    assert rejection is not None and rejection.rule == "PAY-3"  # the counterexample is a real superfluous stone
    for name in ("cost-0-pays-nothing", "payments-form-an-antichain", "at-most-cost-stones"):
        _failing(name)


def test_a_limit_of_5_breaks_the_limit_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "limit_term", lambda hestia: 5 + z3.If(hestia, 2, 0))
    result = _failing("limit-is-4-or-6")
    assert result.counterexample["limit"] in (5, 7)


def test_upgrading_a_stone_twice_or_downgrading_breaks_the_upgrade_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    def twice(before: models.SymStones, reds: Any, blues: Any, allowed: Any) -> Any:
        return z3.And(reds >= 0, blues >= 0, reds <= before.red, blues <= before.blue + reds, reds + blues <= allowed)

    monkeypatch.setattr(models, "upgrade_legal", twice)
    cx = _failing("upgrade-never-twice").counterexample
    assert cx["after.purple"] - cx["before.purple"] > cx["before.blue"]
    monkeypatch.setattr(models, "upgrade_legal", lambda before, reds, blues, allowed: z3.And(
        reds <= before.red, blues <= before.blue, reds + blues <= allowed, blues >= -1, reds >= 0))
    _failing("upgrade-never-downgrades")


def test_costs_below_zero_or_unfixed_break_the_cost_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(models, "clamp0", lambda term: term)
        assert _failing("cost-never-negative").counterexample["cost"] < 0
    monkeypatch.setattr(models, "summon_cost_term",
                        lambda printed, reductions, fixed, fixed_at=1: models.clamp0(printed - z3.Sum(*reductions)))
    assert _failing("fixed-cost-ignores-reductions").counterexample["cost"] != 1


def test_a_proof_whose_domain_is_empty_is_reported_vacuous() -> None:
    def empty() -> proofs.Problem:
        p = proofs.Problem()
        x = z3.Int("x")
        p.add(x > 1, x < 0)
        p.negate(x == 5)
        return p

    result = proofs.prove(proofs.Property("empty", ("PAY-1",), "nothing", "nothing", empty))
    assert result.status == "vacuous" and not result.holds


def test_prove_command_prints_each_property_result_and_time() -> None:
    out = CliRunner().invoke(z3_app, ["prove", "--only", "keep-", "--only", "payment-exists"])
    assert out.exit_code == 0, out.output
    assert "holds    payment-exists-iff-covered" in out.output
    assert "keep-count-constant" in out.output and " s\n" in out.output
    assert "ALL HOLD: 5 properties" in out.output
    assert "payment states (held x cost x values) 10752" in out.output


def test_prove_command_prints_the_counterexample_of_a_failed_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "limit_term", lambda hestia: 5 + z3.If(hestia, 2, 0))
    out = CliRunner().invoke(z3_app, ["prove", "--only", "limit-is"])
    assert out.exit_code == 1
    assert "FAILS    limit-is-4-or-6" in out.output
    assert "counterexample:" in out.output and "limit = " in out.output
    assert "1 FAILED" in out.output


def test_prove_command_rejects_an_unknown_property() -> None:
    out = CliRunner().invoke(z3_app, ["prove", "--only", "no-such-property"])
    assert out.exit_code == 2
