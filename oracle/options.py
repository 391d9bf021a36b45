"""``oracle.options``, a public name kept: everything of :mod:`oracle.core.options`."""

from oracle.core.options import *  # noqa: F403
