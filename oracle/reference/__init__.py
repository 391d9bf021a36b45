"""The reference engine (see :mod:`oracle.reference.engine`).

One writer: the game state (the :class:`~oracle.reference.state.GameState` and everything reachable from it,
the resolution stack's frames and their notes included) is written only by :mod:`oracle.reference.table`, plus
:mod:`oracle.reference.snapshot` while it builds a state from a snapshot. Every other module reads the state and
asks the table for changes (``tests/test_reference_single_writer.py`` holds the package to this).
"""

from oracle.reference.engine import ReferenceEngine, create

__all__ = ["ReferenceEngine", "create"]
