"""``oracle.results``, a public name kept: everything of :mod:`oracle.core.results`."""

from oracle.core.results import *  # noqa: F403
