"""``oracle.cards``, a public name kept: everything of :mod:`oracle.core.cards`."""

from oracle.core.cards import *  # noqa: F403
