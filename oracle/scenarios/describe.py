"""A scenario in words (``oracle scenarios show ID``)."""

from __future__ import annotations

from typing import Any

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.rules import rules
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.model import Scenario, Step
from oracle.scenarios.runner import describe_action

COLOURS = ("red", "blue", "purple")
CARD_KEYS = frozenset({"hand", "area", "markers", "display", "draw_pile", "discard_pile", "actives_used", "cards",
                       "order"})


def _name(card_id: object) -> str:
    card = catalogue().cards.get(str(card_id))
    return card.name if card is not None else str(card_id)


def value_text(key: str, value: Any) -> str:
    if key in CARD_KEYS and isinstance(value, list):
        return ", ".join(_name(c) for c in value) if value else "(none)"
    if isinstance(value, dict) and set(value) <= set(COLOURS):
        return ", ".join(f"{value[c]} {c}" for c in COLOURS if c in value) or "(nothing)"
    if key in ("card", "source", "looking"):
        return _name(value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) if value else "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k} {value_text(k, v)}" for k, v in value.items()) or "(nothing)"
    return str(value)


def partial_text(partial: JSON) -> list[str]:
    """``{"players": [{}, {"score": 3}], "round": 2}`` -> ``["round: 2", "P1 score: 3"]``."""
    out: list[str] = []
    for key, value in partial.items():
        if key == "players" and isinstance(value, list):
            for i, player in enumerate(value):
                out.extend(f"P{i} {k.replace('_', ' ')}: {value_text(k, v)}" for k, v in player.items())
        elif key == "draw_pile":
            out.append(f"draw pile (top first): {value_text(key, value)}")
        else:
            out.append(f"{key.replace('_', ' ')}: {value_text(key, value)}")
    return out


def decision_text(decision: JSON | str) -> str:
    if decision == "none":
        return "the game is over (no pending decision)"
    assert isinstance(decision, dict)
    who = decision.get("player", "?")
    head = f"the engine asks {decision.get('kind', 'a decision')}"
    if "player" in decision:
        head += " of " + ("chance" if who is None else f"P{who}")
    rest = [f"{k} {value_text(k, v)}" for k, v in decision.items() if k not in ("kind", "player")]
    return head + (f" ({'; '.join(rest)})" if rest else "")


def step_lines(step: Step) -> list[str]:
    if step.do is not None:
        head = describe_action(step.do)
        if step.reject is not None:
            rule = step.reject.get("rule")
            head += f"  ->  must be rejected: {step.reject['code']}" + (f" ({rule})" if rule else "")
        else:
            head += "  ->  accepted"
    else:
        head = "check the position"
    lines = [f"{step.number:>2}. {head}   [line {step.line}]"]
    if step.note:
        lines.append(f"      note: {step.note}")
    lines += [f"      before: legal: {describe_action(a)}" for a in step.legal]
    lines += [f"      before: not legal: {describe_action(a)}" for a in step.not_legal]
    if step.legal_exactly is not None:
        exactly = "; ".join(describe_action(a) for a in step.legal_exactly) or "nothing"
        lines.append(f"      before: legal, exactly: {exactly}")
    if step.expect is not None:
        lines += [f"      then: {text}" for text in partial_text(step.expect)]
    if step.decision is not None:
        lines.append(f"      then: {decision_text(step.decision)}")
    for event in step.events or []:
        rest = ", ".join(f"{k} {value_text(k, v)}" for k, v in event.items() if k != "type")
        lines.append(f"      event: {event['type']}" + (f" ({rest})" if rest else ""))
    return lines


def scenario_lines(scenario: Scenario) -> list[str]:
    catalogue_rules = rules()
    lines = [scenario.id, f"  {scenario.title}", f"  file: {scenario.file}", f"  source: {scenario.source}"]
    if scenario.requires:
        lines.append(f"  requires: {', '.join(scenario.requires)}")
    lines += ["", "Rules:"]
    for rule_id in scenario.rules:
        rule = catalogue_rules.get(rule_id)
        lines.append(f"  {rule_id} ({rule.group}): {rule.text}" if rule else f"  {rule_id}")
    if scenario.cards:
        lines += ["", "Cards:"]
        for card_id in scenario.cards:
            card = catalogue().cards[card_id]
            lines.append(f"  {card.name} ({card.id}), {card.family.value}, cost {card.cost}")
            lines += [f"    {e.type.value}: {e.text}" for e in card.effects]
    if scenario.new_game is not None:
        lines += ["", "New game:", *new_game_lines(scenario.new_game)]
    else:
        lines += given_lines(scenario)
    lines += ["", "Steps:"]
    for step in scenario.steps:
        lines += step_lines(step)
    if scenario.expect_end is not None:
        lines += ["", "At the end:"]
        lines += [f"  {text}" for text in partial_text(scenario.expect_end)]
    return lines


def new_game_lines(setup: JSON) -> list[str]:
    """``new_game``: the set-up, the first player and the deck's top cards (the rest in card-id order)."""
    options = {k: v for k, v in setup.items() if k not in ("players", "first_player", "deck")}
    top = list(setup.get("deck", []))[:8]
    lines = [f"  {setup['players']} players, first player P{setup.get('first_player', 0)}",
             f"  deck (top first): {value_text('draw_pile', top)}, …"]
    if options:
        lines.append(f"  setup: {value_text('setup', options)}")
    return lines


def given_lines(scenario: Scenario) -> list[str]:
    lines: list[str] = []
    completed = complete_snapshot(scenario.given)
    setup = completed["setup"]
    turn = completed["turn_player"]
    lines += [
        "",
        "Given:",
        f"  {setup['players']} players, round {completed['round']}, {completed['phase']} phase, "
        f"first player P{completed['first_player']}" + (f", P{turn}'s turn" if turn is not None else ""),
    ]
    given = dict(scenario.given)
    for key in ("round", "phase", "first_player", "turn_player"):
        given.pop(key, None)
    extra_setup = {k: v for k, v in given.pop("setup", {}).items() if k != "players"}
    if extra_setup:
        lines.append(f"  setup: {value_text('setup', extra_setup)}")
    lines += [f"  {text}" for text in partial_text(given)]
    lines.append("  (everything else as documented: no stones, empty hands and areas, the rest in the draw pile)")
    return lines
