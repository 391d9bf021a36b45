"""Card effect handlers, one module per family, registered by card id."""

from __future__ import annotations

import importlib

FAMILY_MODULES = (
    "fire", "water", "earth", "wind", "dragon",
    "art_fire", "art_water", "art_earth", "art_wind", "art_dragon", "tiles",
)
_loaded = False


def load_handlers() -> None:
    """Import every family module once so that its handlers register themselves."""
    global _loaded
    if _loaded:
        return
    for name in FAMILY_MODULES:
        importlib.import_module(f"oracle.reference.effects.{name}")
    _loaded = True
