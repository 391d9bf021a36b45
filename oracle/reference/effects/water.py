"""Water family effects (base game)."""
