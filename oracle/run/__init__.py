"""Running engine code only in worker processes, so that no engine can take the oracle down with it.

The process the user started is the supervisor (:mod:`oracle.run.supervisor`): it plans the units of
work, hands each to a worker process (:mod:`oracle.run.worker`), and keeps every unit's deadline from
outside. A worker runs the checks and the engine together, in-process and at full speed, and talks to the
supervisor once per unit (plus progress signs for long units). A worker that dies, hangs past its unit's
deadline or stops showing signs of life costs only that unit: its checks end as ``error`` or ``timeout``
with what the engine printed last, a new worker is started, and the run goes on.

Signs of life are cheap: before every engine call the worker bumps a counter in a small shared file
(:mod:`oracle.run.activity`), which also tells the supervisor which method a hung engine is in.
"""
