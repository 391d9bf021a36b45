"""The browsable rulebook (``oracle rulebook -o DIR``): every rule with its sources, variants and the project's
reasoning, every card and tile, and every scenario in words beside the rules it pins, optionally with one engine's
results from a report. ``docs/rulebook.md`` describes it."""
