"""The versions a run reports: the oracle's, the engine protocol's, the scenario suite's and Python's."""

import sys

__version__ = "0.1.0"
PROTOCOL_VERSION = "1.1"
SUITE_VERSION = "0.2.0"


def python_version() -> str:
    """The running interpreter's version, as ``3.11.7``."""
    return sys.version.split()[0]
