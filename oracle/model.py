"""``oracle.model``, a public name kept: everything of :mod:`oracle.core.model`."""

from oracle.core.model import *  # noqa: F403
