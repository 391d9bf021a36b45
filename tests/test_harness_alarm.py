"""The alarm that interrupts a hung engine call: held once in a worker, else installed for each call and the host's
handler put back, and a hung call interrupted either way, even after a host replaced the held handler."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from types import FrameType

import pytest

from oracle.core.faults import EngineFault
from oracle.engines.harness import Subject, hold_alarm_handler
from vale_fixtures.hangs import create as hanging_engine

CALL_SECONDS = 0.05
SETUP = {"players": 2, "seed": 1}


def host_handler(signum: int, frame: FrameType | None) -> None:
    raise AssertionError("the engine's alarm reached the host's handler")


@pytest.fixture
def host_alarm() -> Iterator[None]:
    before = signal.signal(signal.SIGALRM, host_handler)
    yield
    signal.signal(signal.SIGALRM, before)


def hung_decision_fault() -> EngineFault:
    subject = Subject(hanging_engine, "hangs", timeout=CALL_SECONDS)
    subject.new_game(SETUP)
    with pytest.raises(EngineFault) as raised:
        subject.decision()
    return raised.value


def test_a_hung_call_times_out_and_the_hosts_handler_is_put_back(host_alarm: None) -> None:
    fault = hung_decision_fault()
    assert ("timeout", host_handler) == (fault.kind, signal.getsignal(signal.SIGALRM))


def test_a_hung_call_times_out_with_the_handler_held(host_alarm: None) -> None:
    hold_alarm_handler()
    held = signal.getsignal(signal.SIGALRM)
    fault = hung_decision_fault()
    assert ("timeout", held) == (fault.kind, signal.getsignal(signal.SIGALRM))


def test_a_held_handler_replaced_by_the_host_is_installed_again_for_the_call(host_alarm: None) -> None:
    hold_alarm_handler()
    signal.signal(signal.SIGALRM, host_handler)
    fault = hung_decision_fault()
    assert ("timeout", host_handler) == (fault.kind, signal.getsignal(signal.SIGALRM))
