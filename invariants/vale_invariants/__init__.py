"""Invariants."""
