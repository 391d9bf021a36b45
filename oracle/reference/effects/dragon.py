"""Dragon family effects (base game)."""
