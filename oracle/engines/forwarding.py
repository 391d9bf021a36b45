"""An engine that forwards every call of the protocol to another engine: the base of the wrappers that change one
thing about an engine (``oracle serve``'s adapter-like engine, the fixtures that drop a capability)."""

from __future__ import annotations

from typing import Any

from oracle.core.json_types import JSON


class Forwarding:
    """Forwards every call of the protocol to ``engine``."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def handshake(self) -> JSON:
        shook: JSON = self.engine.handshake()
        return shook

    def new_game(self, setup: JSON) -> list[JSON]:
        events: list[JSON] = self.engine.new_game(setup)
        return events

    def decision(self) -> JSON | None:
        pending: JSON | None = self.engine.decision()
        return pending

    def legal_actions(self) -> list[JSON]:
        listed: list[JSON] = self.engine.legal_actions()
        return listed

    def apply(self, action: JSON) -> JSON:
        result: JSON = self.engine.apply(action)
        return result

    def try_actions(self, actions: list[JSON]) -> list[JSON]:
        verdicts: list[JSON] = self.engine.try_actions(actions)
        return verdicts

    def export(self) -> JSON:
        snapshot: JSON = self.engine.export()
        return snapshot

    def load(self, snapshot: JSON) -> None:
        self.engine.load(snapshot)
