"""Shards end to end (issue 28): three ``oracle check --shard K/3`` processes, one of which is dealt nothing (it exits
0 and says so), merged by ``oracle report merge`` into the verdict and exit code ``oracle check`` gives; a
malformed ``--shard`` is bad input; ``oracle fuzz --corpus`` and the merge's ``--corpus`` keep one counterexample per
cause."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.exits import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from oracle.reports.json_report import REPORT_FORMAT

SCENARIOS = ("PAY-1-cost-4-paid-three-ways", "PAY-3-red-and-blue-for-cost-1")
"""Two scenarios that the SHA-256 of their ids deals to shards 3 and 1 of 3: shard 2 is dealt nothing."""
BUNDLED = Path(__file__).resolve().parent.parent / "scenarios" / "payment"
runner = CliRunner()


def test_three_shard_processes_merge_into_the_run_oracle_check_gives(tmp_path: Path) -> None:
    (tmp_path / "scenarios").mkdir()
    for scenario in SCENARIOS:
        shutil.copyfile(BUNDLED / f"{scenario}.toml", tmp_path / "scenarios" / f"{scenario}.toml")
    args = ["--impl", "vale_fixtures.superfluous_payment", "--suite", "scenarios", "--budget-scale", "1", "-j", "1",
            "--scenarios", str(tmp_path / "scenarios")]
    shards = [subprocess.Popen([sys.executable, "-P", "-m", "oracle.cli", "check", *args, "--shard", f"{k}/3",
                                "--report-json", str(tmp_path / f"shard-{k}.json")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for k in (1, 2, 3)]
    outputs = [shard.communicate(timeout=300)[0] for shard in shards]
    assert [EXIT_FAILED, EXIT_OK, EXIT_FAILED] == [shard.returncode for shard in shards], outputs
    assert "shard 2/3 was dealt none of the checks: nothing to run (exit 0" in outputs[1]
    merged = runner.invoke(app, ["report", "merge", *(str(tmp_path / f"shard-{k}.json") for k in (1, 2, 3)),
                                 "-o", str(tmp_path / "merged.json"), "--junit-xml", str(tmp_path / "junit.xml"),
                                 "--markdown", str(tmp_path / "summary.md")])
    report = json.loads((tmp_path / "merged.json").read_text(encoding="utf-8"))
    assert EXIT_FAILED == merged.exit_code, merged.output
    assert list(SCENARIOS) == [r["id"] for r in report["results"]]
    assert ("FAILED", 1, None) == (report["totals"]["verdict"], report["totals"]["exit_code"],
                                   report["run"]["options"]["shard"])
    assert ["PAY-3"] == [c["facts"]["rule"] for c in report["causes"]]
    assert "PAY-3-red-and-blue-for-cost-1" in (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert "FAILED" in (tmp_path / "summary.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("shard", ["0/3", "4/3", "x"])
def test_a_malformed_shard_is_bad_input(shard: str) -> None:
    for command in ("check", "fuzz"):
        result = runner.invoke(app, [command, "--shard", shard])
        assert (EXIT_BAD_INPUT, f"error: --shard {shard!r}: expected K/N") == \
            (result.exit_code, result.output.strip()[: len(f"error: --shard {shard!r}: expected K/N")])


def test_a_report_that_is_not_a_shard_is_refused_naming_the_file_and_field(tmp_path: Path) -> None:
    report = tmp_path / "whole.json"
    report.write_text(json.dumps({"format": REPORT_FORMAT}), encoding="utf-8")
    result = runner.invoke(app, ["report", "merge", str(report)])
    assert EXIT_BAD_INPUT == result.exit_code
    assert f"error: {report}: " in result.output and "run" in result.output


# ---------------------------------------------------------------------------------------------- corpora


def test_the_merge_joins_the_shards_corpora_one_counterexample_per_cause(tmp_path: Path) -> None:
    for shard, files in (("shard-1", {"PAY-3-accepts-summon-0000aaaa.toml": "a" * 40,
                                      "LIMIT-1-INV-LIMIT-1111bbbb.trace.json": "{}"}),
                         ("shard-2", {"PAY-3-accepts-summon-2222cccc.toml": "b" * 10,
                                      "LIMIT-1-INV-LIMIT-3333dddd.toml": "c" * 99})):
        for name, text in files.items():
            (tmp_path / "in" / shard).mkdir(parents=True, exist_ok=True)
            (tmp_path / "in" / shard / name).write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["report", "merge", "--corpus", str(tmp_path / "corpus"),
                                 "--corpus-from", str(tmp_path / "in")])
    assert EXIT_OK == result.exit_code, result.output
    assert ["LIMIT-1-INV-LIMIT-3333dddd.toml", "PAY-3-accepts-summon-2222cccc.toml"] == \
        sorted(p.name for p in (tmp_path / "corpus").iterdir())


def shard_corpus(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "PAY-3-accepts-summon-0000aaaa.toml").write_text("a" * 40, encoding="utf-8")
    return folder


def join(tmp_path: Path) -> tuple[int, str]:
    done = runner.invoke(app, ["report", "merge", "--corpus", str(tmp_path / "corpus"),
                               "--corpus-from", str(tmp_path / "in")])
    return done.exit_code, done.stderr


def test_a_symbolic_link_in_a_shards_corpus_is_refused_located_and_nothing_is_joined(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("not a counterexample\n", encoding="utf-8")
    shard = shard_corpus(tmp_path / "in" / "shard-1")
    (shard / "LIMIT-1-INV-LIMIT-1111bbbb.toml").symlink_to(secret)
    code, errors = join(tmp_path)
    assert (EXIT_BAD_INPUT, []) == (code, sorted((tmp_path / "corpus").glob("*")))
    assert f"error: {shard / 'LIMIT-1-INV-LIMIT-1111bbbb.toml'}: is a symbolic link; refused" in errors


def test_a_folder_link_in_a_shards_corpus_is_refused_and_not_entered(tmp_path: Path) -> None:
    outside = shard_corpus(tmp_path / "outside")
    shard_corpus(tmp_path / "in" / "shard-1")
    (tmp_path / "in" / "shard-2").symlink_to(outside, target_is_directory=True)
    code, errors = join(tmp_path)
    assert (EXIT_BAD_INPUT, []) == (code, sorted((tmp_path / "corpus").glob("*")))
    assert f"error: {tmp_path / 'in' / 'shard-2'}: is a symbolic link; refused" in errors


def test_a_symbolic_link_in_the_target_corpus_is_refused_and_never_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n" * 20, encoding="utf-8")
    shard_corpus(tmp_path / "in" / "shard-1")
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "PAY-3-accepts-summon-0000aaaa.toml").symlink_to(victim)
    code, errors = join(tmp_path)
    assert (EXIT_BAD_INPUT, "mine\n" * 20) == (code, victim.read_text(encoding="utf-8"))
    assert f"error: {tmp_path / 'corpus' / 'PAY-3-accepts-summon-0000aaaa.toml'}: is a symbolic link" in errors


def test_a_file_the_target_corpus_shares_by_a_hard_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    shared = tmp_path / "shared.txt"
    shared.write_text("b" * 90, encoding="utf-8")
    (tmp_path / "corpus").mkdir()
    os.link(shared, tmp_path / "corpus" / "PAY-3-accepts-summon-0000aaaa.toml")
    shard_corpus(tmp_path / "in" / "shard-1")
    code, _ = join(tmp_path)
    kept = tmp_path / "corpus" / "PAY-3-accepts-summon-0000aaaa.toml"
    assert (EXIT_OK, "b" * 90, "a" * 40) == (code, shared.read_text(encoding="utf-8"), kept.read_text(encoding="utf-8"))
