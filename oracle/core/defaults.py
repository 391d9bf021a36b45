"""The defaults several commands share: the engine checked unless told, the seconds it may take to start, and the
causes a fuzz run looks for. Plain values, so that a command's options (and its ``--help``) can name them without
importing the floors that use them."""

DEFAULT_IMPL = "oracle.reference"
"""``--impl``: the bundled reference engine."""
DEFAULT_START_TIMEOUT = 30.0
"""Seconds an engine may take to start (``create``, then ``handshake``) unless ``--start-timeout`` says otherwise."""
DEFAULT_MAX_CAUSES = 20
"""``--max-causes``: the failures (each of another cause: the ones found are set aside) a fuzz run looks for."""
