"""``oracle.check``, a public name kept: everything of :mod:`oracle.suites.registry`."""

from oracle.suites.registry import *  # noqa: F403
