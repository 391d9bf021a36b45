"""``python -m oracle.cli``: the ``oracle`` command."""

from oracle.cli import main

main()
