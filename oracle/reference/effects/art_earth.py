"""Artifacts expansion: Earth family effects (art-earth-*)."""
