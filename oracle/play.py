"""``oracle.play``, a public name kept: everything of :mod:`oracle.engines.play`."""

from oracle.engines.play import *  # noqa: F403
