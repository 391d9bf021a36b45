"""Artifacts expansion: Wind family effects (art-wind-*)."""
