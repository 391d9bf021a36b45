"""Lock-step comparison with the reference engine, and which rule a divergence points at.

The canonical snapshot is compared without ``private`` (engine-specific) and ``pending`` (its prompt is
free text; decisions are compared by :func:`decision_shape`). Legal-action sets are compared as sets of
:func:`~vale_invariants.actions.action_key`.

Rule attribution: a listed action the reference rejects cites the reference's rejection rule; a legal
action the engine does not list cites the engine's own rejection rule (or the rule of the action type);
a state or decision difference cites the rule of the field and of the card effects involved (the
summoned card's Instant effect, a summon trigger reacting to its own card's summon (EFF-3), ...).
"""

from __future__ import annotations

from oracle.core.diff import first_difference as _first_difference
from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import answer_is_ordered
from oracle.reference import ReferenceEngine
from oracle.reference import actions as reference_actions
from oracle.reference.effects.loki import ChooseFamilyForLook, wildcard
from oracle.reference.effects.registry import ACTIVE, INSTANT, PERMANENT, TILES, Effect
from vale_invariants.actions import Key, action_key, keys_of

HIDDEN_KEYS = ("private", "pending")
DECISION_FIELDS = ("cards", "players", "options", "min", "max", "limit")
ORDERED = "ordered"
"""Compared as :func:`oracle.core.protocol.answer_is_ordered` reads it: absent is false (EFF-8)."""

TYPE_RULES: dict[str, tuple[str, ...]] = {
    "pick": ("HUNT-4", "HUNT-1"),
    "sell": ("SELL-1", "SELL-2"),
    "tame": ("TAME-1", "SELL-2"),
    "summon": ("SUM-2", "SUM-1"),
    "remove": ("REM-1",),
    "end_turn": ("ACT-2", "ACT-1"),
    "keep_stones": ("LIMIT-2",),
    "resolve_active": ("EFF-5",),
    "choose_player": ("DEC-2",),
    "choose_cards": ("DEC-2",),
    "choose_options": ("DEC-2",),
    "shuffle": ("DECK-1",),
    "take_artifact": ("ART-3",),
    "use_artifact": ("ART-5",),
    "pay": ("RUL-9", "PAY-1"),
    "upgrade_stones": ("STONE-2",),
}
DECISION_RULES: dict[str, tuple[str, ...]] = {
    "keep_stones": ("LIMIT-1", "LIMIT-2"),
    "shuffle": ("DECK-1",),
    "next_active": ("EFF-5",),
    "hunt_pick": ("HUNT-2", "HUNT-3"),
    "artifact_pick": ("ART-3",),
    "pay": ("RUL-9",),
    "upgrade_stones": ("STONE-2",),
}
# The rule deciding whether an effect's option is offered (option names are protocol vocabulary, docs/protocol.md).
OPTION_RULES: dict[str, str] = {
    "buy_area": "ART-8",
    "pay_red": "RUL-7",
    "decline": "RUL-7",
    "retrieve": "ART-7",
    "retrieve_all": "ART-7",
    "shelter_top": "ART-7",
    "shelter_top_2": "ART-7",
    "discard_for_purple": "ART-7",
}
TRIGGERS = ("on_summon", "on_tame", "on_sell", "on_gain_stones", "on_lose_points", "on_draw", "on_other_discarded",
            "replaces_own_discard", "recover_when")


def canonical(snapshot: JSON) -> JSON:
    return {k: v for k, v in snapshot.items() if k not in HIDDEN_KEYS}


def decision_shape(pending: JSON | None) -> JSON | None:
    """What two engines must agree on in a pending decision (not the prompt)."""
    if pending is None:
        return None
    out: JSON = {"kind": pending.get("kind"), "player": pending.get("player"), ORDERED: answer_is_ordered(pending)}
    for key in DECISION_FIELDS:
        if key in pending:
            value = pending[key]
            out[key] = sorted(value, key=str) if isinstance(value, list) else value
    return out


def decision_difference(reference: JSON | None, engine: JSON | None) -> str | None:
    """The first field in which two decisions differ (fields only one of them gives are not compared)."""
    if reference == engine:
        return None
    a, b = decision_shape(reference), decision_shape(engine)
    if a is None or b is None:
        return None if a is None and b is None else "decision"
    for key in ("kind", "player", ORDERED, *DECISION_FIELDS):
        if key in a and key in b and a[key] != b[key]:
            return key
    return None


def legal_difference(reference: list[JSON], engine: list[JSON],
                     ordered: bool = False) -> tuple[list[JSON], list[JSON]]:
    """(legal for the reference but not listed by the engine, listed by the engine but not legal); the answers
    to an ``ordered`` decision are compared with their cards in order (EFF-8)."""
    if reference == engine:
        return [], []
    ref_keys, eng_keys = keys_of(reference, ordered), keys_of(engine, ordered)
    if ref_keys == eng_keys:
        return [], []

    def key(action: JSON) -> Key:
        return action_key(action, ordered)

    missing = sorted((a for a in reference if key(a) not in eng_keys), key=key)
    extra = sorted((a for a in engine if key(a) not in ref_keys), key=key)
    return missing, extra


def reference_rejection(reference: ReferenceEngine, action: JSON) -> JSON | None:
    """The reference's rejection of ``action`` in its current state, without applying it."""
    if reference.table is None:
        return None
    rejection = reference_actions.check(reference.table, reference.spec, action)
    return None if rejection is None else rejection.to_json()


# ---------------------------------------------------------------------------------------------- rules


def _dedupe(rules: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for rule in rules:
        if rule and rule not in out:
            out.append(rule)
    return tuple(out[:6])


def cost_rules(reference: ReferenceEngine | None, actions: list[JSON]) -> list[str]:
    """For payments the reference judges differently: the rules of the cost and stone-value changes in force
    for the paying player (SUM-3 reductions, ART-9 fixed costs, RUL-16 values)."""
    if reference is None or reference.table is None:
        return []
    rules: list[str] = []
    for action in actions:
        player = action.get("player")
        if action.get("type") not in ("summon", "remove", "pay") or not isinstance(player, int):
            continue
        if not 0 <= player < reference.table.state.n:
            continue
        for _, effect in reference.table.in_force(player):
            if effect.cost_change is not None or effect.fixed_cost is not None or effect.red_bonus \
                    or effect.blue_purple_bonus or effect.swap_blue_purple:
                rules.append(effect.rule)
    return rules


def trigger_rules(before: ReferenceEngine | None) -> list[str]:
    """Rules of the Permanent effects in force (any player's) that react to events."""
    if before is None or before.table is None:
        return []
    rules: list[str] = []
    for player in range(before.table.state.n):
        for _, effect in before.table.in_force(player):
            if any(getattr(effect, name, None) for name in TRIGGERS):
                rules.append(effect.rule)
    return rules


def _effect_rule(card_id: str, kind: str) -> str:
    registry = INSTANT if kind == "instant" else ACTIVE
    effect = registry.get(card_id)
    return effect.rule if effect is not None else ""


def _frame_effect(source: str, kind: str) -> Effect | None:
    if kind == "artifact":
        tile = TILES.get(source)
        return tile.effect if tile is not None else None
    return (INSTANT if kind == "instant" else ACTIVE).get(source)


def look_rules(reference: ReferenceEngine | None, player: object, effect: Effect | None) -> list[str]:
    """ART-11: the effect looks at the families of ``player``'s area while their Loki may be any family (its owner
    is asked which one for the look)."""
    if effect is None or reference is None or reference.table is None or not isinstance(player, int):
        return []
    if not 0 <= player < reference.table.state.n or not any(isinstance(s, ChooseFamilyForLook) for s in effect.stages):
        return []
    loki = wildcard(reference.table, player)
    return [PERMANENT[loki.id].rule] if loki is not None else []


def frame_rules(reference: ReferenceEngine | None) -> list[str]:
    """The rule of the effect the reference is in the middle of resolving, if any."""
    if reference is None or reference.table is None:
        return []
    for frame in reversed(reference.table.state.stack):
        if frame.kind == "effect":
            source = frame.source or frame.card
            effect = _frame_effect(source, frame.effect or "")
            return [_effect_rule(source, frame.effect or ""), *look_rules(reference, frame.player, effect)]
    return []


def summoned_rules(cards: list[str]) -> list[str]:
    """Rules of cards summoned during a step: a summon trigger must not react to its own summon (EFF-3),
    then the card's Instant effect."""
    rules: list[str] = []
    for card in cards:
        permanent = PERMANENT.get(card)
        if permanent is not None and permanent.on_summon is not None:
            rules.append("EFF-3")
        rules.append(_effect_rule(card, "instant"))
    return rules


def newly_summoned(before: JSON | None, after: JSON | None) -> list[str]:
    """Cards in some area after a step that were in no area before it."""
    if before is None or after is None:
        return []
    had = {c for p in before.get("players", []) for c in p.get("area", [])}
    return sorted({c for p in after.get("players", []) for c in p.get("area", [])} - had)


def action_rules(action: JSON | None, before: ReferenceEngine | None) -> list[str]:
    """Rules of the card effects an action sets off, most specific first."""
    if action is None:
        return []
    kind = str(action.get("type"))
    card = action.get("card")
    rules: list[str] = []
    if kind == "summon" and isinstance(card, str):
        permanent = PERMANENT.get(card)
        if permanent is not None and permanent.on_summon is not None:
            rules.append("EFF-3")
        rules.append(_effect_rule(card, "instant"))
        rules.extend(look_rules(before, action.get("player"), INSTANT.get(card)))
        if permanent is not None:
            rules.append(permanent.rule)
        player = action.get("player")
        if before is not None and before.table is not None and isinstance(player, int):
            for other, effect in before.table.in_force(player):
                if effect.on_summon is not None and other.id != card:
                    rules.append(effect.rule)
        rules.append("SUM-6")
    elif kind == "resolve_active" and isinstance(card, str):
        rules.append(_effect_rule(card, "active"))
        rules.extend(look_rules(before, action.get("player"), ACTIVE.get(card)))
    elif kind in ("choose_player", "choose_cards", "choose_options"):
        rules.extend(frame_rules(before))
    elif kind == "tame":
        rules.append("TAME-1")
        player = action.get("player")
        if before is not None and before.table is not None and isinstance(player, int):
            rules.extend(e.rule for _, e in before.table.in_force(player) if e.on_tame is not None)
    rules.extend(TYPE_RULES.get(kind, ()))
    return rules


def state_rules(field: str, action: JSON | None, before: ReferenceEngine | None, before_snapshot: JSON | None,
                reference_after: JSON | None, reference_before: JSON | None = None,
                engine_after: JSON | None = None) -> tuple[str, ...]:
    """The rules a snapshot difference after ``action`` points at, most likely first."""
    top = field.split(".")[0].split("[")[0].split(" ")[0]
    if action is None:
        return _start_rules(top, field, loaded=reference_before is not None)
    kind = str(action.get("type")) if action is not None else ""
    summoned = [c for c in newly_summoned(reference_before, reference_after) if c != (action or {}).get("card")]
    if top == "winners":
        return ("END-2",)
    if top in ("phase", "round"):
        return _dedupe(["ROUND-1", "END-1", *action_rules(action, before)])
    if top == "first_player":
        return ("ROUND-2",)
    if top in ("turn_player", "actives_used"):
        return _dedupe(["ACT-1" if kind == "end_turn" else "EFF-5", *action_rules(action, before)])
    if top == "players":
        sub = field.split(".")[1] if "." in field else ""
        if sub.startswith("stones"):
            if kind in ("summon", "remove") and _stone_neutral(action, before_snapshot, reference_after):
                if _looks_like_change(action, before, reference_after, engine_after):
                    return _dedupe(["PAY-2", *trigger_rules(before)])
                return _dedupe([*trigger_rules(before), *action_rules(action, before), "PAY-2"])
            if kind == "sell":
                return _dedupe(["SELL-1", *action_rules(action, before)])
            if kind == "keep_stones":
                return ("LIMIT-2",)
        if sub.startswith("markers"):
            return _dedupe([*TYPE_RULES.get(kind, ()), "HUNT-2"])
        if sub.startswith(("score", "stones")):
            return _dedupe([*summoned_rules(summoned), *action_rules(action, before), *trigger_rules(before),
                            "DEC-2"])
        return _dedupe([*action_rules(action, before), *summoned_rules(summoned), "DEC-2"])
    if top in ("display", "draw_pile", "discard_pile"):
        if kind == "shuffle":
            return ("DECK-1",)
        if kind in ("pick", "end_turn"):
            return ("HUNT-1", "DECK-1")
        return _dedupe([*action_rules(action, before), "EFF-7", "DECK-1"])
    return _dedupe([*action_rules(action, before), *summoned_rules(summoned), "DEC-2"])


def _start_rules(top: str, field: str, loaded: bool) -> tuple[str, ...]:
    """Differences before any action: the set-up (new game) or loading a position (PROTO-1)."""
    sub = field.split(".")[1] if "." in field else ""
    if top == "players":
        rules = ["SETUP-2"] if sub.startswith("score") else ["SETUP-3"]
    elif top in ("display", "draw_pile"):
        rules = ["HUNT-1", "SETUP-1"]
    else:
        rules = ["SETUP-1"]
    return _dedupe(["PROTO-1", *rules] if loaded else rules)


def _looks_like_change(action: JSON | None, before: ReferenceEngine | None, reference_after: JSON | None,
                       engine_after: JSON | None) -> bool:
    """Whether the engine's extra stones are worth exactly the overpayment (change given, PAY-2), rather than
    something an effect gave."""
    if action is None or before is None or before.table is None or reference_after is None or engine_after is None:
        return True
    player = action.get("player")
    if not isinstance(player, int):
        return True
    try:
        table = before.table
        paid = Stones.from_json(action.get("payment", {}))
        values = table.stone_values(player)
        if action.get("type") == "summon":
            cost = table.summon_cost(player, table.card(str(action.get("card"))))
        else:
            cost = table.state.round
        extra = (values.worth(Stones.from_json(engine_after["players"][player]["stones"]))
                 - values.worth(Stones.from_json(reference_after["players"][player]["stones"])))
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return True
    return extra == values.worth(paid) - cost


def _stone_neutral(action: JSON | None, before: JSON | None, reference_after: JSON | None) -> bool:
    """Whether, for the reference, the step changed the actor's stones by exactly the payment."""
    if action is None or before is None or reference_after is None:
        return False
    player = action.get("player")
    if not isinstance(player, int):
        return False
    try:
        paid = Stones.from_json(action.get("payment", {}))
        held = Stones.from_json(before["players"][player]["stones"])
        after = Stones.from_json(reference_after["players"][player]["stones"])
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return False
    return after == held - paid


def option_rules(options: set[str]) -> list[str]:
    return [OPTION_RULES[o] for o in sorted(options) if o in OPTION_RULES]


def decision_rules(reference: JSON | None, engine: JSON | None, action: JSON | None,
                   before: ReferenceEngine | None, after: ReferenceEngine | None) -> tuple[str, ...]:
    """The rules a pending-decision difference points at."""
    if reference is None or engine is None:
        return _dedupe(["END-1", "DEC-3"])
    kinds = {reference.get("kind"), engine.get("kind")}
    # Another kind asked: the rule of the kind the reference asks first (the options of another kind of decision
    # differ as a consequence); the same kind: the rules of what differs in it.
    asked = [k for k in (reference.get("kind"), engine.get("kind")) if isinstance(k, str)]
    rules: list[str] = [r for k in asked for r in DECISION_RULES.get(k, ())] if len(kinds) > 1 else []
    offered = {str(o) for o in reference.get("options", []) or []} ^ {str(o) for o in engine.get("options", []) or []}
    rules += option_rules(offered)
    if answer_is_ordered(reference) != answer_is_ordered(engine):
        rules.append("EFF-8")
    for kind in sorted(k for k in kinds if isinstance(k, str)):
        rules += DECISION_RULES.get(kind, ())
    if kinds & {"choose_player", "choose_cards", "choose_options", "pay", "upgrade_stones"}:
        rules += frame_rules(after)
    if "action" in kinds:
        rules += ["ACT-1"]
    rules += action_rules(action, before)
    return _dedupe([*rules, "DEC-2"])


def missing_rules(action: JSON, engine_rejection: JSON | None) -> tuple[str, ...]:
    rules: list[str] = []
    if engine_rejection is not None and isinstance(engine_rejection.get("rule"), str):
        rules.append(engine_rejection["rule"])
    rules.extend(TYPE_RULES.get(str(action.get("type")), ()))
    return _dedupe(rules)


def same_canonical(a: JSON, b: JSON) -> bool:
    """Whether two snapshots agree outside ``private`` and ``pending`` (fast: no copies)."""
    if a == b:
        return True
    for key, value in a.items():
        if key not in HIDDEN_KEYS and (key not in b or b[key] != value):
            return False
    return all(key in a or key in HIDDEN_KEYS for key in b)


def first_state_difference(reference: JSON, engine: JSON) -> str | None:
    """The path of the first canonical field that differs, or None."""
    if same_canonical(reference, engine):
        return None
    return _first_difference(canonical(reference), canonical(engine))
