"""Artifacts expansion: Dragon family effects (art-dragon-*)."""
