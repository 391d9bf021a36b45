"""The memo of one listing: answers that cannot change while one position's legal actions are listed.

Nothing writes the state while actions are listed, so a query asked again then (the costs, the stone values, the
effects in force, SUM-4 tests) gives the same answer. ``with table.listing():`` puts a fresh :class:`ListingMemo`
on the table for one listing and takes it away afterwards; a copy of the table (``what_if``) starts without one
(its state differs). A query is remembered by decorating it with :func:`remembered_while_listing`.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Hashable
from typing import Concatenate, ParamSpec, Protocol, TypeVar, cast

P = ParamSpec("P")
V = TypeVar("V")


class Remembers(Protocol):
    """What holds the memo of the listing under way, if any (the table)."""

    remembered: ListingMemo | None


H = TypeVar("H", bound=Remembers)
_UNKNOWN = object()


class ListingMemo:
    """The answers of one listing, by query and the query's key."""

    __slots__ = ("answers", "holder")

    def __init__(self, holder: Remembers) -> None:
        self.holder = holder
        self.answers: defaultdict[object, dict[Hashable, object]] = defaultdict(dict)

    def __enter__(self) -> ListingMemo:
        self.holder.remembered = self
        return self

    def __exit__(self, *exc: object) -> None:
        self.holder.remembered = None


def remembered_while_listing(
    key: Callable[..., Hashable] | None = None,
) -> Callable[[Callable[Concatenate[H, P], V]], Callable[Concatenate[H, P], V]]:
    """A query of the table (its first argument) answered once per key while a listing is under way, and asked
    afresh at any other time. The key is ``key`` of the query's other arguments, by default those arguments; they
    are passed by position only (the memo sits on hot paths: no keyword packing)."""

    def decorate(query: Callable[Concatenate[H, P], V]) -> Callable[Concatenate[H, P], V]:
        ask = cast("Callable[..., V]", query)

        def answer(holder: H, *args: Hashable) -> V:
            listing = holder.remembered
            if listing is None:
                return ask(holder, *args)
            answers = listing.answers[query]
            asked = args if key is None else key(*args)
            found = answers.get(asked, _UNKNOWN)
            if found is _UNKNOWN:
                found = answers[asked] = ask(holder, *args)
            return cast("V", found)

        return cast("Callable[Concatenate[H, P], V]", functools.wraps(query)(answer))

    return decorate
