"""``oracle.harness``, a public name kept: everything of :mod:`oracle.engines.harness`."""

from oracle.engines.harness import *  # noqa: F403
