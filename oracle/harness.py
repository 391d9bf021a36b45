"""``oracle.harness``, a public name kept: the guarded engine, its faults and the ``--impl`` forms."""

from oracle.core.faults import *  # noqa: F403
from oracle.engines.connect import *  # noqa: F403
from oracle.engines.harness import *  # noqa: F403
