"""``JSON``: a decoded JSON object, as every layer passes snapshots, actions, decisions and report fields."""

from typing import Any

JSON = dict[str, Any]
"""A JSON object decoded by :mod:`json` (or built to be encoded): string keys, any JSON value."""
