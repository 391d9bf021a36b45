"""The wire protocol: engines in any language, run as child processes (``--impl 'cmd:...'``), in JSON lines or JSON-RPC.

``docs/wire.md`` is the specification. :mod:`oracle.engines.wire.methods` is the one table of methods both sides
use, :mod:`oracle.engines.wire.framing` the two envelopes (1.x JSON lines, 2.0 JSON-RPC 2.0);
:mod:`oracle.engines.wire.client` talks to an engine process, :mod:`oracle.engines.wire.server` serves a Python
engine.
"""
