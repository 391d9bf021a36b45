"""The command line: every ``oracle`` sub-command and the pytest plugin, the top floor (``docs/architecture.md``)."""

import sys


def main() -> None:
    """The ``oracle`` command (``oracle.cli.app``), loaded only when it runs. ``oracle serve`` loads its own module
    only: the oracle starts an engine process with it for every worker of a ``cmd:`` run, and the other commands'
    imports would take most of its start-up."""
    if sys.argv[1:2] == ["serve"]:
        from oracle.cli.serve import serve_alone

        serve_alone()
        return
    from oracle.cli.app import main as run

    run()
