"""Artifacts expansion: Fire family effects (art-fire-*)."""
