"""Executable scenarios (``docs/scenarios.md``): a position, scripted decisions, and what must happen.

* :mod:`oracle.scenarios.loader` reads and validates scenario files (TOML, the JSON Schema in
  ``oracle/schemas/scenario.schema.json``, then rule ids, card names, positions and unique ids), each
  error naming the file and line (:mod:`oracle.scenarios.locate` finds the lines);
* :mod:`oracle.scenarios.runner` runs one scenario against an engine and classifies the outcome;
* :mod:`oracle.scenarios.match` is the partial matching of snapshots, decisions and events;
* :mod:`oracle.run.expectations` applies ``--expectations`` files of known failures;
* :mod:`oracle.suites.scenarios` registers the ``scenarios`` suite of ``oracle check``;
* :mod:`oracle.cli.scenarios` and :mod:`oracle.scenarios.describe` are ``oracle scenarios lint`` and ``show``.
"""
