"""What ``--impl`` could have meant when it names a module or factory that is not there ("did you mean …?").

Only names are listed, nothing is imported: a missing top-level module is compared with the top-level modules on
``sys.path`` and in the working directory; a missing submodule with its (already imported) package's modules and,
when it is the last name given, with the package's public callables (``toy.engine.creat`` for
``toy.engine:create``); a missing factory with the module's public callables. Each suggestion is a whole ``--impl``
value.
"""

from __future__ import annotations

import os
import pkgutil
import sys
from types import ModuleType

from oracle.core.suggest import close_matches, suggestion


def near_modules(spec_module: str, missing: str, factory: str) -> str:
    """The ``did you mean`` text for ``--impl spec_module[:factory]`` whose module ``missing`` (the spec's module
    or one of its packages) cannot be imported; ``""`` when the missing module is another (the engine's own
    import) or nothing is near."""
    if spec_module != missing and not spec_module.startswith(missing + "."):
        return ""
    package, _, _ = missing.rpartition(".")
    rest = spec_module[len(missing):]
    tail = f":{factory}" if factory else ""
    if not package:
        names = [info.name for info in pkgutil.iter_modules([*sys.path, os.getcwd()])]
        return suggestion([f"{name}{rest}{tail}" for name in close_matches(missing, names)])
    parent = sys.modules.get(package)
    locations = list(getattr(parent, "__path__", None) or [])
    specs = {f"{package}.{info.name}": f"{package}.{info.name}{rest}{tail}" for info in pkgutil.iter_modules(locations)}
    if parent is not None and not rest and not factory:
        specs |= {f"{package}.{name}": f"{package}:{name}" for name in public_callables(parent)}
    return suggestion([specs[name] for name in close_matches(missing, specs)])


def near_factories(spec_module: str, module: ModuleType, factory: str) -> str:
    """The ``did you mean`` text for a ``factory`` that ``module`` does not have: its public callables near it."""
    return suggestion([f"{spec_module}:{name}" for name in close_matches(factory, public_callables(module))])


def public_callables(module: ModuleType) -> list[str]:
    """The names of a module's callables not starting with ``_``: what a factory could be."""
    return [name for name, value in vars(module).items() if not name.startswith("_") and callable(value)]
