"""The JSON-lines wire protocol: engines in any language, run as child processes (``--impl 'cmd:...'``).

``docs/wire.md`` is the specification. :mod:`oracle.engines.wire.methods` is the one table of methods both sides
use; :mod:`oracle.engines.wire.client` talks to an engine process, :mod:`oracle.engines.wire.server` serves a
Python engine.
"""
