"""Action strings of Platinum Fish (`take discard`, `draw`, `roll`, `choose Q`, `ask 7`;
chance `hand 5`, `deal 7`, `turn 7`, `stock 7`, `dice 3 4`) to and from action ids."""

from __future__ import annotations

from koloda.games.errors import ActionError, CardError, MalformedActionError
from koloda.games.kit.notation import action_words, check_chance, check_decision
from koloda.games.platinum_fish.engine import DEAL, DICE_ROLL, DRAW, HAND, TURN
from koloda.games.platinum_fish.rules import DICE

CHANCE_VERBS = {HAND: "hand", DEAL: "deal", TURN: "turn", DRAW: "stock", DICE_ROLL: "dice"}
FORMS = ("take discard, draw, roll, choose <rank>, ask <rank> "
         "(chance: hand <3..6>, deal/turn/stock <rank>, dice <a> <b>)")


def decision_to_string(rules, action: int) -> str:
    if action == rules.take_action:
        return "take discard"
    if action == rules.draw_action:
        return "draw"
    if action == rules.roll_action:
        return "roll"
    names = rules.deck.names
    if rules.choose_base <= action < rules.ask_base:
        return f"choose {names[action - rules.choose_base]}"
    if rules.ask_base <= action < rules.num_actions:
        return f"ask {names[action - rules.ask_base]}"
    raise ActionError(f"{action} is not a platinum_fish action id (0..{rules.num_actions - 1})")


def chance_to_string(core, outcome: int) -> str:
    rules, phase = core.rules, core.phase
    verb = CHANCE_VERBS.get(phase, "deal")
    if phase == HAND:
        if outcome not in rules.hand_sizes:
            raise ActionError(f"{outcome} is not a hand size "
                              f"({rules.min_hand}..{rules.max_hand})")
        return f"hand {outcome}"
    if phase == DICE_ROLL:
        if not 0 <= outcome < len(DICE):
            raise ActionError(f"{outcome} is not a throw of the dice (0..{len(DICE) - 1})")
        low, high = DICE[outcome]
        return f"dice {low} {high}"
    if not 0 <= outcome < rules.num_ranks:
        raise ActionError(f"{outcome} is not a rank id of this deck (0..{rules.num_ranks - 1})")
    return f"{verb} {rules.deck.names[outcome]}"


def parse(core, text: str) -> int:
    """The action id `text` names in the position `core`.

    MalformedActionError if it cannot be read; IllegalActionError for a decision at a chance
    node, a chance outcome at a decision, or the wrong chance verb.  Legality beyond that is
    checked by the caller, which knows the state.
    """
    rules, phase = core.rules, core.phase
    words = [word.lower() for word in action_words(text, "platinum_fish", FORMS)]
    verb, args = words[0], words[1:]
    if verb in ("draw", "roll") and not args or words == ["take", "discard"]:
        check_decision(text, CHANCE_VERBS.get(phase))
        return {"draw": rules.draw_action, "roll": rules.roll_action,
                "take": rules.take_action}[verb]
    if verb in ("choose", "ask"):
        rank = _one_rank(rules, text, verb, args)
        check_decision(text, CHANCE_VERBS.get(phase))
        return (rules.choose_base if verb == "choose" else rules.ask_base) + rank
    if verb in CHANCE_VERBS.values():
        outcome = _chance_outcome(rules, text, verb, args)
        check_chance(text, verb, CHANCE_VERBS.get(phase))
        return outcome
    raise MalformedActionError(f"{text!r} is not a platinum_fish action; "
                               f"platinum_fish actions are {FORMS}")


def _one_rank(rules, text: str, verb: str, args) -> int:
    if len(args) != 1:
        raise MalformedActionError(f"{text!r}: write {verb} <rank>, for example {verb} 7")
    try:
        return rules.deck.parse(args[0])
    except CardError as err:
        raise MalformedActionError(f"bad rank in action {text!r}: {err}") from None


def _chance_outcome(rules, text: str, verb: str, args) -> int:
    if verb == "hand":
        if len(args) == 1 and args[0].isascii() and args[0].isdigit() \
                and int(args[0]) in rules.hand_sizes:
            return int(args[0])
        raise MalformedActionError(f"{text!r}: write hand <size>, a size from "
                                   f"{rules.min_hand} to {rules.max_hand}")
    if verb == "dice":
        faces = [int(a) for a in args if a.isascii() and a.isdigit()]
        if len(args) != 2 or len(faces) != 2 or not all(1 <= f <= 6 for f in faces):
            raise MalformedActionError(f"{text!r}: write dice <a> <b>, two faces 1..6")
        return DICE.index(tuple(sorted(faces)))
    return _one_rank(rules, text, verb, args)

