"""Writes docs/decisions.md, the decision reference, from the reference engine's effect definitions and the option
vocabulary (oracle/data/options.toml): for every card and tile that asks anything, who decides, the decision
kind, the option names, min/max, whether order matters and the rule ids.

    python tools/decisions_doc.py          # rewrite docs/decisions.md
    python tools/decisions_doc.py --check  # exit 1 if docs/decisions.md is not what this would write
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from oracle.core.cards import catalogue
from oracle.core.model import Family
from oracle.core.options import OptionSet, option_sets
from oracle.core.protocol import ANSWERS, DecisionKind
from oracle.reference.effects import load_handlers, registry
from oracle.reference.effects.loki import ChooseFamilyForLook, look_prompt
from oracle.reference.effects.registry import Effect, Stage
from oracle.reference.effects.steps import (
    Automatic,
    ChooseCards,
    ChooseOptions,
    ChoosePlayer,
    PayPrice,
    SummonFromHand,
    UpgradeStones,
    chosen_player,
)

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "decisions.md"
ANY_NUMBER = 99
"""A stage's ``most`` from which it means 'any number' (Taweret)."""

KIND_RULES: dict[DecisionKind, tuple[str, ...]] = {
    DecisionKind.CHOOSE_CARDS: ("DEC-2",),
    DecisionKind.CHOOSE_OPTIONS: ("DEC-2",),
    DecisionKind.CHOOSE_PLAYER: ("DEC-2",),
    DecisionKind.UPGRADE_STONES: ("STONE-2",),
    DecisionKind.PAY: ("RUL-9",),
}

GAME_DECISIONS: tuple[tuple[DecisionKind, str, str, str, tuple[str, ...]], ...] = (
    (DecisionKind.HUNT_PICK, "each player in hunting order", "one unmarked card of the display",
     "no", ("HUNT-2", "HUNT-3")),
    (DecisionKind.ACTION, "the player whose Action turn it is", "any number of actions, then `end_turn`", "no",
     ("ACT-1",)),
    (DecisionKind.KEEP_STONES, "a player over the holding limit", "exactly `limit` stones of those held", "no",
     ("LIMIT-1", "LIMIT-2")),
    (DecisionKind.NEXT_ACTIVE, "the player whose Resolution turn it is", "one of `cards` (unused Active effects)",
     "no", ("EFF-5",)),
    (DecisionKind.SHUFFLE, "chance (`player` is null)", "every card of the discard pile once", "yes", ("DECK-1",)),
    (DecisionKind.ARTIFACT_PICK, "each player in tile order", "one of `tiles`", "no", ("ART-3",)),
)


class UndescribedStage(ValueError):
    """A stage asks a decision this generator cannot read: teach it (or give its bounds in options.toml)."""


@dataclass(frozen=True)
class Row:
    source: str
    name: str
    effect: str
    kind: DecisionKind
    decider: str
    answers: str
    bounds: str
    ordered: bool
    rules: tuple[str, ...]
    prompt: str
    asker: str
    """The card or tile the decision names as its ``source`` (Loki, for the family it has for a look: ART-11)."""


def _name(source: str) -> str:
    cards = catalogue()
    if source in cards.cards:
        return cards.cards[source].name
    return cards.tiles[source].name if source in cards.tiles else source


def _options(source: str) -> OptionSet:
    listed = option_sets().get(source)
    if listed is None:
        raise UndescribedStage(f"{source} asks a choose_options decision but oracle/data/options.toml does not list "
                               "its options")
    return listed


def _option_names(listed: OptionSet) -> str:
    if listed.families:
        return "a family: " + ", ".join(f"`{f.value}`" for f in Family)
    return ", ".join(f"`{o.name}`" for o in listed.options)


def _between(least: int, most: int, what: str) -> str:
    if most >= ANY_NUMBER:
        return f"any number of {what}s" + (f" ({least} or more)" if least else "")
    if least == most:
        return f"{least} {what}" + ("s (fewer if fewer are on offer)" if least > 1 else "")
    return f"{least} to {most} {what}s (at most as many as on offer)"


def _decider(stage: ChooseCards) -> str:
    if stage.chooser is None:
        return "owner"
    if stage.chooser is chosen_player:
        return "the player chosen before"
    raise UndescribedStage(f"{stage.prompt}: unknown chooser {stage.chooser!r}")


def _wildcard() -> str:
    """The card whose owner chooses its family for each look (Loki, ART-11)."""
    load_handlers()
    return next(card for card, effect in sorted(registry.PERMANENT.items()) if effect.any_family_on_own_turn)


def _describe(source: str, stage: Stage) -> tuple[DecisionKind, str, str, str]:
    """The kind, who decides, what may be answered and how many, for one stage that asks a decision."""
    if isinstance(stage, ChooseFamilyForLook):
        return (DecisionKind.CHOOSE_OPTIONS, f"owner, for their {_name(_wildcard())} (their own turn only)",
                _option_names(_options(_wildcard())), "1 option")
    if isinstance(stage, ChooseOptions):
        listed = _options(source)
        return (DecisionKind.CHOOSE_OPTIONS, "owner", _option_names(listed),
                _between(stage.least, stage.most, "option"))
    if isinstance(stage, ChooseCards):
        return DecisionKind.CHOOSE_CARDS, _decider(stage), "cards of `cards`", _between(stage.least, stage.most, "card")
    if isinstance(stage, SummonFromHand):
        return DecisionKind.CHOOSE_CARDS, "owner", "a card of the hand that fits, summoned free", "1 card"
    if isinstance(stage, ChoosePlayer):
        return DecisionKind.CHOOSE_PLAYER, "owner", "a player of `players`", "1 player"
    if isinstance(stage, UpgradeStones):
        return (DecisionKind.UPGRADE_STONES, "owner", "stones of `eligible`, each one step up",
                _between(stage.least, stage.most, "stone"))
    if isinstance(stage, PayPrice):
        return DecisionKind.PAY, "owner", "a payment under the payment rules", f"worth {stage.cost}"
    bounded = option_sets().get(source)
    if bounded is not None and bounded.bounds:
        return DecisionKind.CHOOSE_OPTIONS, "owner", _option_names(bounded), bounded.bounds
    raise UndescribedStage(f"{source}: cannot describe the stage {type(stage).__name__}")


def _asks(stage: Stage) -> bool:
    """Every stage but the automatic ones (which never ask) may ask a decision."""
    return not isinstance(stage, Automatic)


def _effects() -> Iterator[tuple[str, str, Effect, str]]:
    for label, table in (("Instant", registry.INSTANT), ("Active", registry.ACTIVE),
                         ("Permanent trigger", registry.TRIGGERED)):
        for source in sorted(table):
            yield source, label, table[source], table[source].rule
    for source in sorted(registry.TILES):
        tile = registry.TILES[source]
        if tile.effect is not None:
            yield source, f"tile ({tile.ability.value})", tile.effect, tile.rule


def _ordered(stage: Stage) -> bool:
    """EFF-8: a choice of several cards marked ``in_order`` is ``ordered`` under the project's ruling."""
    return isinstance(stage, ChooseCards) and stage.in_order is not None and stage.most > 1


def rows() -> list[Row]:
    """Every decision an effect can ask, in card and tile order."""
    load_handlers()
    out: list[Row] = []
    for source, label, effect, rule in _effects():
        for stage in effect.stages:
            if not _asks(stage):
                continue
            kind, decider, answers, bounds = _describe(source, stage)
            look = isinstance(stage, ChooseFamilyForLook)
            rules = tuple(dict.fromkeys(r for r in (rule, "ART-11" if look else "", *KIND_RULES.get(kind, ())) if r))
            prompt = look_prompt(_name(_wildcard()), _name(source)) if look else str(getattr(stage, "prompt", ""))
            out.append(Row(source, _name(source), label, kind, decider, answers, bounds,
                           _ordered(stage), rules, prompt, _wildcard() if look else source))
    return out


def option_sources() -> set[str]:
    """The cards and tiles whose effects ask a choose_options decision."""
    return {r.asker for r in rows() if r.kind is DecisionKind.CHOOSE_OPTIONS}


def render() -> str:
    loki = _name(_wildcard())
    lines = [
        "# Decisions: who decides what",
        "",
        "Generated by `python tools/decisions_doc.py` from the reference engine's effect definitions and the option",
        "vocabulary `oracle/data/options.toml`; `tests/test_decisions_doc.py` fails when it is out of date. The",
        "protocol (`docs/protocol.md`) says how a decision is shown and answered; this page says which ones exist.",
        "",
        "## The game's own decisions",
        "",
        "| kind | who decides | answer | answered by | order matters | rules |",
        "|---|---|---|---|---|---|",
    ]
    for kind, who, answer, ordered, rules in GAME_DECISIONS:
        answered = ", ".join(f"`{a.value}`" for a in sorted(ANSWERS[kind], key=lambda a: a.value))
        lines.append(f"| `{kind.value}` | {who} | {answer} | {answered} | {ordered} | {', '.join(rules)} |")
    lines += [
        "",
        "## Decisions asked by cards and tiles",
        "",
        "\"owner\" is the player whose card or tile it is. A choice with nothing on offer is not asked (EFF-2).",
        "Options are offered only when they can be carried out; the option list of a decision is always a subset",
        "of the names below, in this order.",
        "",
        f"{loki}'s family (ART-11): an effect that looks at the families of its owner's area asks, once for that look",
        f"and only while {loki} is in force in that area on its owner's turn, which family {loki} has; the decision's",
        f"`source` is {loki} (`{_wildcard()}`), its `looking` the card or tile that looks. A check whether such a card",
        "exists (SUM-4) asks nothing.",
        "",
        "| card / tile | effect | kind | who decides | answer | how many | order matters | rules | prompt |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows():
        lines.append(f"| {row.name} (`{row.source}`) | {row.effect} | `{row.kind.value}` | {row.decider} | "
                     f"{row.answers} | {row.bounds} | {'yes' if row.ordered else 'no'} | {', '.join(row.rules)} | "
                     f"{row.prompt or '(no fixed prompt)'} |")
    lines += ["", "## Options", ""]
    for source, listed in sorted(option_sets().items()):
        lines.append(f"**{_name(source)}** (`{source}`)" + (f", {listed.bounds}" if listed.bounds else ""))
        lines.append("")
        if listed.families:
            lines.append(f"- the family names: {_option_names(listed)[len('a family: '):]}")
        lines.extend(f"- `{o.name}`: {o.text}" for o in listed.options)
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET}: out of date; run python tools/decisions_doc.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
