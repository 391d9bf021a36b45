"""The catalogue of named properties of the stone rules, each proved by Z3 over a bounded domain.

The properties live by topic in ``proofs_payment``, ``proofs_limit``, ``proofs_upgrade`` and ``proofs_cost``;
how one is proved is in ``proving``, the domain variables in ``proof_domains``.

Domains (see ``docs/z3.md``): payments over every held collection of up to 6 stones, every paid
collection, every cost 0..15 and the 8 value assignments the base cards allow (Agni, Water Giant,
Hae-tae in any combination); the holding limit over every collection of up to limit + 3 stones with and
without Hestia; upgrades over every collection of up to 6 stones and each source (Book of Thoth 2,
Duduri 1, Duduri King 1 per sale) and every upgrade answer; costs over printed costs 0..15, Pegasus,
Hippogriff and Belphegor; the Incense Burner over the payment domain, 0..2 Additional Areas and the cost cards.
"""

from __future__ import annotations

from oracle.suites.z3.proof_domains import domain_sizes
from oracle.suites.z3.proofs_cost import COST_PROPERTIES
from oracle.suites.z3.proofs_limit import LIMIT_PROPERTIES
from oracle.suites.z3.proofs_payment import PAYMENT_PROPERTIES
from oracle.suites.z3.proofs_upgrade import UPGRADE_PROPERTIES
from oracle.suites.z3.proving import DEFAULT_TIMEOUT_MS, Problem, ProofResult, Property, prove

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "PROPERTIES",
    "Problem",
    "ProofResult",
    "Property",
    "domain_sizes",
    "property_named",
    "prove",
    "prove_all",
]

PROPERTIES: tuple[Property, ...] = (*PAYMENT_PROPERTIES, *LIMIT_PROPERTIES, *UPGRADE_PROPERTIES, *COST_PROPERTIES)


def property_named(name: str) -> Property:
    for prop in PROPERTIES:
        if prop.name == name:
            return prop
    raise KeyError(name)


def prove_all(names: tuple[str, ...] = (), timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[ProofResult]:
    chosen = [p for p in PROPERTIES if not names or any(n in p.name for n in names)]
    return [prove(p, timeout_ms) for p in chosen]
