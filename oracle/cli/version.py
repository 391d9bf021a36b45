"""The line ``oracle --version`` prints: the oracle's, the protocol's and the suite's versions and the suite digest.

The entry point prints it before the rest of the command line is imported, so this module imports only the
versions and the digest.
"""

from oracle.core import versions
from oracle.scenarios.suite_digest import suite_digest


def version_line() -> str:
    """``vale-oracle 0.1.0 (protocol 1.1, suite 0.2.0, digest 9d271074b365)``."""
    return (f"vale-oracle {versions.__version__} (protocol {versions.PROTOCOL_VERSION}, "
            f"suite {versions.SUITE_VERSION}, digest {suite_digest()})")
