"""Artifacts expansion: the 11 artifact tiles, registered by tile id."""
