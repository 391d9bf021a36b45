"""How the wire client behaves, read from the environment so worker processes inherit it.

* ``VALE_ORACLE_VALIDATE_PROTOCOL=1``: validate every message an engine sends against its JSON Schema
  (``--validate-protocol``; off by default because it is slow).
* ``VALE_ORACLE_WIRE_PIPELINE=0``: never send a request before the previous answer has arrived.
* ``VALE_ORACLE_WIRE_OBSERVE=0``: never use an engine's ``observe`` capability.
* ``VALE_ORACLE_WIRE_TIMEOUT``: seconds allowed per call when no harness deadline is running (default 5).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

VALIDATE = "VALE_ORACLE_VALIDATE_PROTOCOL"
PIPELINE = "VALE_ORACLE_WIRE_PIPELINE"
OBSERVE = "VALE_ORACLE_WIRE_OBSERVE"
TIMEOUT = "VALE_ORACLE_WIRE_TIMEOUT"


@dataclass(frozen=True, slots=True)
class WireSettings:
    validate: bool
    pipeline: bool
    observe: bool
    timeout: float


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value not in ("0", "false", "no", "off")


def current_settings() -> WireSettings:
    try:
        timeout = float(os.environ.get(TIMEOUT, "") or 5.0)
    except ValueError:
        timeout = 5.0
    return WireSettings(validate=_flag(VALIDATE, False), pipeline=_flag(PIPELINE, True),
                        observe=_flag(OBSERVE, True), timeout=timeout if timeout > 0 else 5.0)
