"""Artifacts expansion: Water family effects (art-water-*)."""
