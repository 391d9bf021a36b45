"""Vale Oracle: a rules-verification and test-oracle toolkit for The Vale of Eternity.

The package is built in floors that import only downward (``docs/architecture.md``): ``oracle.core`` (the
vocabulary), ``oracle.reference`` (the reference engine), ``oracle.engines`` (loading and guarding an engine under
test), ``oracle.scenarios`` (the scenario format), ``vale_invariants``, ``oracle.suites``, ``oracle.run``,
``oracle.reports`` and ``oracle.cli``. The modules left at this level only keep old public names working.
Importing the package imports nothing else (the pytest plugin relies on it).
"""

_VERSIONS = frozenset({"__version__", "PROTOCOL_VERSION", "SUITE_VERSION"})


def __getattr__(name: str) -> str:
    """``oracle.__version__``, ``PROTOCOL_VERSION`` and ``SUITE_VERSION`` (:mod:`oracle.core.versions`)."""
    if name in _VERSIONS:
        from oracle.core import versions

        return str(getattr(versions, name))
    raise AttributeError(f"module 'oracle' has no attribute {name!r}")
