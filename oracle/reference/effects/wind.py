"""Wind family effects (base game)."""
