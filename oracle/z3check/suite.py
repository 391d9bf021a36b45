"""The ``z3`` suite of ``oracle check``: the engine's payments, costs and holding-limit choices, and with the
Artifacts expansion the Incense Burner's price and the stone upgrades (Book of Thoth, Duduri, Duduri King),
compared with the exact sets the Z3 models allow (:mod:`oracle.z3check.conformance`).

Options read from :class:`~oracle.check.CheckOptions`: ``seed`` (which deterministic sample of each
domain is checked), ``rules`` (only the rows checking one of these rule ids), and in ``extra``:

* ``z3_full`` (bool): every case of every domain instead of a sample (``oracle z3 conform --full``);
* ``z3_budget`` (seconds, default 20): wall-clock budget of the whole suite;
* ``z3_sample_scale`` (float, default 1): multiplies the sample size of each row;
* ``save_failures`` (a directory): each divergence is also written there as a scenario file, under ``z3/``.
"""

from __future__ import annotations

from pathlib import Path

from oracle.check import CheckOptions, EngineUnderTest, suite
from oracle.results import CheckResult
from oracle.z3check.conformance import ROWS, SUITE, ConformOptions, run_conformance

DEFAULT_BUDGET = 20.0


def conform_options(eut: EngineUnderTest, options: CheckOptions) -> ConformOptions:
    extra = options.extra
    save = extra.get("save_failures")
    rows: tuple[str, ...] = ()
    if options.rules:
        rows = tuple(r.name for r in ROWS if set(r.rules) & set(options.rules))
    return ConformOptions(
        full=bool(extra.get("z3_full", False)),
        seed=options.seed,
        budget=float(extra.get("z3_budget", DEFAULT_BUDGET)),
        save_failures=Path(str(save)) if save else None,
        rows=rows,
        impl=eut.impl,
        sample_scale=float(extra.get("z3_sample_scale", 1.0)),
    )


@suite(SUITE)
def z3_suite(eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
    """Model conformance of payments (PAY-*, REM-1), summoning costs (SUM-3), the holding limit (LIMIT-*), the
    Incense Burner's price (RUL-9) and stone upgrades (RUL-8, STONE-2)."""
    conform = conform_options(eut, options)
    if options.rules and not conform.rows:
        return []
    return run_conformance(eut.fresh, conform)
