"""Connecting to an engine under test: the ``--impl`` forms, each turned into a factory by one entry of a table.

* ``cmd:<command>``: the command runs as a wire-protocol engine (docs/wire.md, :mod:`oracle.engines.wire`);
  ``cmd+jsonrpc:<command>`` the same, spoken to in JSON-RPC 2.0 from the first request;
* ``package.module`` or ``package.module:factory``: the module is imported and its factory (``create`` by
  default) called in-process.

Every way a form can fail is a one-line :class:`~oracle.core.faults.ImplError`.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from oracle.core.defaults import DEFAULT_IMPL as DEFAULT_IMPL
from oracle.core.faults import ImplError
from oracle.core.impl_forms import IMPL_FORMS
from oracle.engines.harness import DEFAULT_START_TIMEOUT, Subject, raised_words
from oracle.engines.near_modules import near_factories, near_modules
from oracle.engines.wire.impl import wire_factory

DEFAULT_FACTORY = "create"
Factory = Callable[[], Any]


def import_factory(spec: str) -> Factory:
    """``package.module`` (factory ``create``) or ``package.module:factory`` -> a zero-argument factory."""
    module_name, _, factory_name = spec.partition(":")
    module_name = module_name.strip()
    factory_name = factory_name.strip() or DEFAULT_FACTORY
    if not module_name or not all(part.isidentifier() for part in module_name.split(".")):
        raise ImplError(f"--impl {spec!r}: expected 'package.module' or 'package.module:factory'")
    allow_from_working_directory(module_name)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        near = near_modules(module_name, exc.name or "", spec.partition(":")[2].strip())
        raise ImplError(f"--impl {spec!r}: cannot import module {exc.name!r} (is it installed or on PYTHONPATH?)"
                        f"{near}") from None
    except Exception as exc:
        raise ImplError(f"--impl {spec!r}: importing {module_name} {raised_words(exc)}") from None
    factory = getattr(module, factory_name, None)
    if factory is None:
        raise ImplError(f"--impl {spec!r}: module {module_name} has no factory {factory_name!r}"
                        f"{near_factories(module_name, module, factory_name)}")
    if not callable(factory):
        raise ImplError(f"--impl {spec!r}: {module_name}.{factory_name} is not callable")
    return factory  # type: ignore[no-any-return]


def allow_from_working_directory(module_name: str) -> None:
    """Append the working directory LAST to ``sys.path`` when the top package of ``module_name`` is found there.

    The oracle's Python processes run with the working directory off ``sys.path`` (``-P``), so no module
    there can shadow one the oracle or the engine imports; ``--impl myadapter`` from the adapter's own folder
    still loads, since the folder comes after the standard library and every installed package.
    """
    folder = os.getcwd()
    top = module_name.partition(".")[0]
    if {"", folder} & set(sys.path) or importlib.machinery.PathFinder.find_spec(top, [folder]) is None:
        return
    sys.path.append(folder)
    importlib.invalidate_caches()


CONNECT_BY_PREFIX: dict[str, Callable[[str], Factory]] = {
    "cmd:": wire_factory,
    "cmd+jsonrpc:": wire_factory,
    "": import_factory,
}
CONNECTORS: tuple[tuple[str, Callable[[str], Factory]], ...] = tuple(
    (form.prefix, CONNECT_BY_PREFIX[form.prefix]) for form in IMPL_FORMS)
"""Each ``--impl`` form of :data:`~oracle.core.impl_forms.IMPL_FORMS` by its prefix, in its order: the first that
matches connects; the empty prefix (a Python module) matches all."""


def resolve_impl(spec: str) -> Factory:
    """The engine factory an ``--impl`` string names (:data:`CONNECTORS`)."""
    return next(connect for prefix, connect in CONNECTORS if spec.startswith(prefix))(spec)


@dataclass
class EngineUnderTest:
    """The ``--impl`` string, its factory, the per-call timeout and the start-up deadline."""

    impl: str
    factory: Factory
    timeout: float
    start_timeout: float = DEFAULT_START_TIMEOUT

    def fresh(self) -> Subject:
        return Subject(self.factory, self.impl, self.timeout, self.start_timeout)

    @staticmethod
    def load(impl: str, timeout: float, start_timeout: float = DEFAULT_START_TIMEOUT) -> EngineUnderTest:
        return EngineUnderTest(impl, resolve_impl(impl), timeout, start_timeout)
