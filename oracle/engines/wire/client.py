"""The wire client: :class:`WireEngine` is an in-process Engine whose game runs in a child process.

It records every input since ``new_game``/``load`` so that a copy (``copy.deepcopy``, the harness's way
to probe an engine without ``load``) is the same inputs replayed into another pooled process, and so that
a process replaced after a fault can take the game up again (without the input the fault interrupted).
With the ``observe`` capability one reply brings the pending decision with the legal actions and the
snapshot the oracle is likely to ask for next; with pipelining that request leaves with the ``apply``
before it.
"""

from __future__ import annotations

import weakref
from typing import Any

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.engines.wire.channel import ChannelFault, Deadline
from oracle.engines.wire.connection import Connection, call_deadline
from oracle.engines.wire.pool import Lease, Pool, retire
from oracle.engines.wire.settings import WireSettings, current_settings

PREFETCHED = ("legal_actions", "snapshot")


class WireEngine:
    """One engine of the protocol, played by a pooled engine process."""

    def __init__(self, pool: Pool, settings: WireSettings | None = None) -> None:
        self._pool = pool
        self._settings = settings or current_settings()
        self._lease = Lease(None)
        weakref.finalize(self, pool.release, self._lease)
        self._history: list[tuple[str, JSON]] = []
        self._prefetch: int | None = None
        self._prefetch_method = ""
        self._seen: JSON = {}
        self._asked: set[str] = set()
        self._used: set[str] = set()
        self._listed: list[JSON] | None = None
        self._observe_refused = False
        self._connection("create")

    # ------------------------------------------------------------------ the Engine protocol

    def handshake(self) -> JSON:
        return dict(self._connection("handshake").handshake)

    def new_game(self, setup: JSON) -> list[JSON]:
        events: list[JSON] = self._change("new_game", {"setup": setup}, restart=True)
        return events

    def load(self, snapshot: JSON) -> None:
        self._change("load", {"snapshot": snapshot}, restart=True)

    def apply(self, action: JSON) -> JSON:
        result: JSON = self._change("apply", {"action": action}, restart=False)
        return result

    def try_actions(self, actions: list[JSON]) -> list[JSON]:
        """The engine's verdicts, in one request; the game does not change, so whatever was looked ahead stays."""
        connection = self._connection("try_actions")
        try:
            verdicts: list[JSON] = connection.call("try_actions", {"actions": actions}, call_deadline(self._settings))
        except ChannelFault as fault:
            raise self._fault(fault, "try_actions") from None
        return verdicts

    def decision(self) -> JSON | None:
        pending: JSON | None = self._look("decision", "decision")
        return pending

    def legal_actions(self) -> list[JSON]:
        actions: list[JSON] = self._look("legal_actions", "legal_actions")
        return actions

    def export(self) -> JSON:
        snapshot: JSON = self._look("export", "snapshot")
        return snapshot

    def __deepcopy__(self, memo: dict[int, Any]) -> WireEngine:
        """The same game in another pooled process, by replaying every input since ``new_game``/``load``."""
        twin = WireEngine(self._pool, self._settings)
        twin._replay(list(self._history), "deepcopy")
        return twin

    # ------------------------------------------------------------------ calls

    def _connection(self, method: str) -> Connection:
        connection = self._lease.connection
        if connection is not None and connection.usable():
            return connection
        if connection is not None:
            self._drop()
        try:
            self._lease.connection = self._pool.take(self._settings)
        except ChannelFault as fault:
            raise EngineFault(fault.kind, method, fault.message) from None
        if self._history:
            self._replay(list(self._history), method)
        return self._lease.connection

    def _drop(self) -> None:
        connection, self._lease.connection = self._lease.connection, None
        self._prefetch, self._seen = None, {}
        if connection is not None:
            retire(connection)

    def _fault(self, fault: ChannelFault, method: str) -> EngineFault:
        self._drop()
        return EngineFault(fault.kind, method, fault.message)

    def _change(self, method: str, params: JSON, restart: bool) -> Any:
        """A request that changes the game; with pipelining, the next ``observe``/``decision`` leaves with it,
        unless the action is one the engine did not list as legal (a probe, most likely refused and followed
        by another action: observing after it would be wasted work)."""
        connection = self._connection(method)
        probing = method == "apply" and self._listed is not None and params["action"] not in self._listed
        self._forget_seen(connection)
        self._history = [(method, params)] if restart else [*self._history, (method, params)]
        requests = [(method, params)]
        follow = self._look_request(connection) if self._settings.pipeline and not probing else None
        if follow is not None:
            requests.append(follow)
        deadline = call_deadline(self._settings)
        try:
            ids = connection.send(requests, deadline)
            if follow is not None:
                self._prefetch, self._prefetch_method = ids[1], follow[0]
            return connection.answer(ids[0], deadline)
        except ChannelFault as fault:
            self._history = [] if restart else self._history[:-1]
            raise self._fault(fault, method) from None

    def _look(self, method: str, part: str) -> Any:
        """A request that only reads the game: served from the last observation when it holds ``part``."""
        connection = self._connection(method)
        deadline = call_deadline(self._settings)
        try:
            if self._prefetch is not None:
                request_id, self._prefetch = self._prefetch, None
                self._take_observation(self._prefetch_method,
                                       self._observation(connection, self._prefetch_method, request_id, deadline,
                                                         method))
            if part not in self._seen and part == "decision":
                request = self._look_request(connection)
                if request is not None:
                    [request_id] = connection.send([request], deadline)
                    self._take_observation(request[0],
                                           self._observation(connection, request[0], request_id, deadline, method))
            if part in self._seen:
                if part != "decision":
                    self._used.add(part)
                answer = self._seen.pop(part)
            else:
                self._used.add(part)
                answer = connection.call(method, {}, deadline)
            if part == "legal_actions":
                self._listed = answer if isinstance(answer, list) else None
            return answer
        except ChannelFault as fault:
            raise self._fault(fault, method) from None

    def _observation(self, connection: Connection, request: str, request_id: int, deadline: Deadline,
                     method: str) -> Any:
        """The answer to a look-ahead request. An ``observe`` answered ``unsupported`` (a part the engine cannot
        give) is no observation: from then on each part is asked by its own method, so a refusal is charged to
        the method refused (a declared capability refused is a contradiction, PROTO-2), not to ``method``."""
        try:
            return connection.answer(request_id, deadline, method)
        except EngineFault as fault:
            if request != "observe" or fault.kind != "unsupported":
                raise
            self._observe_refused = True
            return None

    def _look_request(self, connection: Connection) -> tuple[str, JSON] | None:
        if self._observe_refused or not (self._settings.observe and connection.can_send("observe")):
            return ("decision", {}) if self._settings.pipeline else None
        wanted = {
            "legal_actions": self._pool.wants("legal_actions") and connection.can_send("legal_actions"),
            "snapshot": self._pool.wants("snapshot") and connection.can_send("export"),
        }
        self._asked = {part for part, asked in wanted.items() if asked}
        return "observe", wanted

    def _take_observation(self, method: str, result: Any) -> None:
        if method == "observe" and self._observe_refused and result is None:
            self._seen = {}
        elif method == "observe":
            if not isinstance(result, dict) or "decision" not in result:
                raise EngineFault("bad-output", "decision", "observe must answer an object with a 'decision'")
            self._seen = {part: result[part] for part in ("decision", *PREFETCHED) if part in result}
        else:
            self._seen = {"decision": result}

    def _forget_seen(self, connection: Connection) -> None:
        """Before the game changes: drop the observation, and learn which parts were used at this position, asked for
        or not (a part used seldom, as the legal actions under a sampled comparison, is then not asked for: a
        listing can be the engine's costliest call)."""
        if self._prefetch is not None:
            connection.forget(self._prefetch)
            self._prefetch = None
        for part in PREFETCHED:
            self._pool.learn(part, part in self._used)
        self._seen, self._asked, self._used, self._listed = {}, set(), set(), None

    def _replay(self, history: list[tuple[str, JSON]], method: str) -> None:
        """Send these inputs again (all in one write when pipelining); an input refused now is a fault."""
        connection = self._lease.connection
        assert connection is not None
        self._history = history
        try:
            if self._settings.pipeline:
                deadline = call_deadline(self._settings)
                ids = connection.send(history, deadline)
                for request_id in ids:
                    connection.answer(request_id, deadline)
            else:
                for request in history:
                    connection.call(*request, call_deadline(self._settings))
        except ChannelFault as fault:
            raise self._fault(fault, method) from None
