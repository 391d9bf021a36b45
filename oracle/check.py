"""``oracle.check``, a public name kept: the suites' registry, the suites themselves and the engine under test."""

from oracle.engines.connect import *  # noqa: F403
from oracle.suites.all import *  # noqa: F403
from oracle.suites.registry import *  # noqa: F403
