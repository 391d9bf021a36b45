"""Where the bundled scenario suite lives, and how reports name it.

Only the paths, so that the suite digest (``oracle --version``) can find the files without the scenario loader.
"""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
"""The ``oracle`` package's folder."""

PREAMBLES_FILE = "preambles.json"
"""A folder's preambles: how an engine without ``load`` reaches each position of the folder's scenarios."""

BUNDLED_NAME = "scenarios"
"""How reports name the bundled suite's directory, installed from a wheel or editable: ``scenarios/<path>``."""


def default_dir() -> Path:
    """The bundled suite: ``oracle/_suite`` in an installed wheel, else the clone's top-level ``scenarios/``
    (an editable install or a checkout, where the package sits beside it)."""
    bundled = PACKAGE / "_suite"
    return bundled if bundled.is_dir() else PACKAGE.parent / "scenarios"
