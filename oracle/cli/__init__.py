"""The command line: every ``oracle`` sub-command and the pytest plugin, the top floor (``docs/architecture.md``)."""


def main() -> None:
    """The ``oracle`` command (``oracle.cli.app``), loaded only when it runs."""
    from oracle.cli.app import main as run

    run()
