"""Engines under test: loading one from an ``--impl`` form (:mod:`oracle.engines.connect`), guarding every call
(:mod:`oracle.engines.harness`), the wire transport for engines in any language (:mod:`oracle.engines.wire`),
candidate actions for engines that cannot list them, and seeded play."""
