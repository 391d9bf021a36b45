"""``oracle.pytest_plugin``, a public name kept: everything of :mod:`oracle.cli.pytest_plugin`."""

from oracle.cli.pytest_plugin import *  # noqa: F403
