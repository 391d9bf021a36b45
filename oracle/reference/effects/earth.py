"""Earth family effects (base game)."""
