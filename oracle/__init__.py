"""Vale Oracle: a rules-verification and test-oracle toolkit for The Vale of Eternity."""

__version__ = "0.1.0"
PROTOCOL_VERSION = "1.1"
SUITE_VERSION = "0.2.0"
