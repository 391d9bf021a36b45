"""The reference engine (see :mod:`oracle.reference.engine`)."""

from oracle.reference.engine import ReferenceEngine, create

__all__ = ["ReferenceEngine", "create"]
