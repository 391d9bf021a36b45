"""The conformance suites of ``oracle check``: what each plans and how it checks an engine
(:mod:`oracle.suites.registry` lists them)."""
