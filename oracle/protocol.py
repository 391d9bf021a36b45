"""``oracle.protocol``, a public name kept: everything of :mod:`oracle.core.protocol`."""

from oracle.core.protocol import *  # noqa: F403
