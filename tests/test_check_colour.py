"""The colour of oracle check's console: the opening word of a headline and the verdict in their colours on a
terminal; nothing changed when NO_COLOR is set or the stream is not a terminal (`oracle check | cat`: tested in
tests/test_check_exit_codes.py)."""

from __future__ import annotations

import io
import re
import sys

import pytest

from oracle.cli.colour import LINE_STYLES, OUTCOME_STYLES, check_echo, styled
from oracle.core.results import Outcome

FAIL_LINE = "FAIL             PAY-3-red-and-blue-for-cost-1: [bold]engine text[/bold] stays as it is"
VERDICT_LINE = "FAILED: 9 checks, 9 ran, 0 unsupported, 0 not applicable (8 pass, 1 fail)"
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def printed(monkeypatch: pytest.MonkeyPatch, stream: io.StringIO, *lines: str) -> str:
    monkeypatch.setattr(sys, "stdout", stream)
    echo = check_echo()
    for line in lines:
        echo(line)
    return stream.getvalue()


def test_every_outcome_has_a_style() -> None:
    assert set(Outcome) == set(OUTCOME_STYLES)


def test_only_the_opening_word_is_styled() -> None:
    text = styled(FAIL_LINE)
    assert (FAIL_LINE, [(0, 4, "bold red")]) == (text.plain, [(s.start, s.end, str(s.style)) for s in text.spans])
    assert [] == styled("  1. a cause: 2 check(s)").spans


@pytest.mark.parametrize(("line", "word"), [(VERDICT_LINE, "FAILED"), ("NOTHING CHECKED: 6 checks", "NOTHING CHECKED"),
                                            ("NOTE             x: y", "NOTE"), ("INCOMPLETE: 3 checks", "INCOMPLETE")])
def test_the_verdict_and_the_notes_are_styled(line: str, word: str) -> None:
    assert [(0, len(word))] == [(s.start, s.end) for s in styled(line).spans]
    assert any(line.startswith(opening) for opening in LINE_STYLES)


def test_a_terminal_gets_colour_and_the_text_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    shown = printed(monkeypatch, Terminal(), FAIL_LINE, VERDICT_LINE)
    assert f"{FAIL_LINE}\n{VERDICT_LINE}\n" == COLOUR.sub("", shown)
    assert "\x1b[1;31mFAIL\x1b[0m" in shown


def test_no_color_leaves_the_text_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert f"{FAIL_LINE}\n" == printed(monkeypatch, Terminal(), FAIL_LINE)


def test_a_pipe_gets_the_text_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert f"{FAIL_LINE}\n" == printed(monkeypatch, io.StringIO(), FAIL_LINE)
