"""Where the rules data lives: the cards, the rules catalogue and the option vocabulary under ``oracle/data``.

Only the paths, so that the suite digest (``oracle --version``) can name the files without loading them.
"""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
CARDS_FILE = DATA_DIR / "cards.json"
RULES_FILE = DATA_DIR / "rules.toml"
OPTIONS_FILE = DATA_DIR / "options.toml"
