"""Engine faults: an engine that cannot be loaded, or that raised, hung or broke the protocol in a call."""

from __future__ import annotations

from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.engine_text import clean_text
from oracle.core.json_types import JSON
from oracle.core.results import DECLARED_UNSUPPORTED, POSITION_REFUSED, UNSUPPORTED_CALL, Outcome


class ImplError(Exception):
    """The engine named by ``--impl`` cannot be loaded; the message is one line for the user, passed through the
    engine-text gate (:mod:`oracle.core.engine_text`), since it may quote what the engine's import raised."""

    def __init__(self, message: str) -> None:
        super().__init__(clean_text(message))


class EngineFault(Exception):
    """The engine raised, hung, or returned something that is not protocol data.

    ``kind`` is ``error`` (raised), ``timeout``, ``unsupported`` (NotImplementedError), ``bad-output``
    (a protocol error, PROTO-2) or ``duplicate`` (an action listed twice as legal, PROTO-3). The message quotes
    the engine, so it passes the engine-text gate here (:mod:`oracle.core.engine_text`), whoever raises the fault.
    """

    def __init__(self, kind: str, method: str, message: str, rule: str = "") -> None:
        self.message = clean_text(message)
        super().__init__(f"{method}: {self.message}")
        self.kind = kind
        self.method = method
        self.rule = rule or {"bad-output": "PROTO-2", "duplicate": "PROTO-3"}.get(kind, "")

    @property
    def outcome(self) -> Outcome:
        """How a check that met this fault ends."""
        return _FAULT_OUTCOMES.get(self.kind, Outcome.ERROR)

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.rule,) if self.rule else ()

    @property
    def details(self) -> JSON:
        """What the result of a check this fault ended records besides its message: the call an engine refused."""
        return {UNSUPPORTED_CALL: self.method} if self.kind == "unsupported" else {}

    @property
    def contradiction(self) -> bool:
        """The engine contradicts a capability its handshake declares (PROTO-2): a failure of the protocol with a
        known cause, kept as such wherever the fault ends a check."""
        return False


class DeclaredButUnsupported(EngineFault):
    """The engine refused (``unsupported``) a call that a capability its handshake declares promises: a protocol
    error (PROTO-2), reported on every check it ends with the capability named, so they form one cause."""

    def __init__(self, capability: str, method: str) -> None:
        super().__init__("bad-output", method, f"the handshake declares the capability {capability!r}, yet {method} "
                                               "answered unsupported")
        self.capability = capability

    @property
    def details(self) -> JSON:
        return {DECLARED_UNSUPPORTED: self.capability}

    @property
    def contradiction(self) -> bool:
        return True


class RequestRefused(EngineFault):
    """The engine answered a call with the error ``bad_request``: it refused the request's parameters (a fault of
    kind ``error``, told apart where a refusal means something else, :class:`PositionRefused`)."""

    def __init__(self, method: str, message: str) -> None:
        super().__init__("error", method, f"refused the request: {message}")


REFUSED_POSITIONS = "load refused the position the oracle built (answered unsupported or refused the request)"


class PositionRefused(EngineFault):
    """The engine's ``load`` refused a position the oracle built, answering ``unsupported`` or ``bad_request``: the
    check that starts from it cannot run and is ``unsupported``, for one reason whatever the check (issue 36, item
    10), not a protocol error each. A position loaded and then played wrong is still a failure."""

    def __init__(self) -> None:
        super().__init__("unsupported", "load", REFUSED_POSITIONS)

    @property
    def details(self) -> JSON:
        return {UNSUPPORTED_CALL: self.method, POSITION_REFUSED: True}

    @staticmethod
    def refusal(fault: EngineFault) -> bool:
        """Whether ``fault``, met in ``load``, refuses the position rather than failing on it."""
        return fault.method == "load" and (fault.kind == "unsupported"
                                           or isinstance(fault, (RequestRefused, DeclaredButUnsupported)))


TRY_ACTIONS = "try_actions"


class TriedThenContradicted(EngineFault):
    """``apply`` did other than the verdict ``try_actions`` gave the same action at the same position (accepted
    against rejected, or another rejection code): a protocol error (PROTO-2), one cause whatever the action."""

    def __init__(self, action: str, tried: str, applied: str) -> None:
        super().__init__("bad-output", "apply", f"try_actions judged {action}: {tried}; apply then answered: "
                                                f"{applied}")
        self.facts = CauseFacts(Verdict.CONTRADICTS, TRY_ACTIONS, field=TRY_ACTIONS, rule="PROTO-2",
                                engine_does=f"try_actions judges {action}: {tried}; apply then answers: {applied}")

    @property
    def details(self) -> JSON:
        return {CAUSE_KEY: self.facts.to_json()}

    @property
    def contradiction(self) -> bool:
        return True


_FAULT_OUTCOMES = {"timeout": Outcome.TIMEOUT, "unsupported": Outcome.UNSUPPORTED, "duplicate": Outcome.FAIL}


def describe_fault(fault: EngineFault) -> str:
    what = {"bad-output": "protocol error", "duplicate": "protocol error"}.get(fault.kind, fault.kind)
    return f"engine {what} in {fault.method}(): {fault.message}"
