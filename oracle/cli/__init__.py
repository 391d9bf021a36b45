"""The command line: every ``oracle`` sub-command and the pytest plugin, the top floor (``docs/architecture.md``)."""

import sys


def main() -> None:
    """The ``oracle`` command. Its first lines catch SIGINT and SIGTERM (:mod:`oracle.run.signals`), so that a
    signal while the command line is still importing is kept for ``oracle check``, which writes its reports marked
    incomplete; every other command lets the signals go before it imports anything. Then each command loads only
    what it uses: ``oracle --version`` prints its line without the command line (:mod:`oracle.cli.version`),
    ``oracle serve`` loads its own module only (the oracle starts an engine process with it for every worker of a
    ``cmd:`` run), and the others load ``oracle.cli.app``."""
    from oracle.run.signals import START, Stage, stage_reached

    START.open()
    try:
        stage_reached(Stage.CAUGHT)
        if sys.argv[1:2] != ["check"]:
            START.release()
        if sys.argv[1:] == ["--version"]:
            from oracle.cli.version import version_line

            print(version_line())
            return
        if sys.argv[1:2] == ["serve"]:
            from oracle.cli.serve import serve_alone

            serve_alone()
            return
        from oracle.cli.app import main as run

        stage_reached(Stage.IMPORTED)
        run()
    finally:
        START.release()
