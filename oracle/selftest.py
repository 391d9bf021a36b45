"""``oracle.selftest``, a public name kept: everything of :mod:`oracle.cli.selftest`."""

from oracle.cli.selftest import *  # noqa: F403
