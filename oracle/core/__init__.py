"""The vocabulary every other floor speaks; it imports nothing from them.

A short glossary:

* **card**, **tile**: the game's data (:mod:`oracle.core.cards`); **rule id**: a rule of the catalogue
  (:mod:`oracle.core.rules`), with its **variants**, the declared readings of an open question;
* **snapshot**: the canonical JSON of a game state; **decision**: what is pending and who answers it;
  **action**: an answer; **rejection**: a typed refusal, a code and a rule id (:mod:`oracle.core.protocol`);
* **engine**: anything behind :class:`oracle.core.protocol.Engine`, the reference or an engine under test; the
  engine under test is named by ``--impl`` (an ``EngineUnderTest``: the name, its factory and its time limits,
  :mod:`oracle.engines.connect`), and each engine it makes is called only through a guarded ``Subject``
  (:mod:`oracle.engines.harness`);
* **check**: one thing the oracle verifies, with its **outcome** (:mod:`oracle.core.results`); a failing
  check's **cause facts** say what kind of deviation it saw (:mod:`oracle.core.causes`);
* **fault**: an engine that crashed, hung or broke the protocol (:mod:`oracle.core.faults`);
* **exit code**: what every command returns (:mod:`oracle.core.exits`); ``JSON``: a decoded JSON object
  (:mod:`oracle.core.json_types`).
"""
