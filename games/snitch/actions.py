"""Action strings of Snitch (`discard 7`, `set 77`, `set 72`, `set 7X`, `pick 7`,
`extend 7X`, `stop`, `pass`; chance `deal 7`, `draw 7`) to and from action ids."""

from __future__ import annotations

from koloda.games.errors import ActionError, CardError, MalformedActionError
from koloda.games.kit.notation import action_words, check_chance, check_decision
from koloda.games.snitch.engine import DEAL, DRAW

CHANCE_VERBS = {DEAL: "deal", DRAW: "draw"}
FORMS = ("discard <card>, set <rank><rank|2|X>, pick <card>, extend <rank><2|X>, stop, pass "
         "(chance: deal/draw <card>)")


def decision_to_string(rules, action: int) -> str:
    names = rules.deck.names
    if action == rules.stop_action:
        return "stop"
    if action == rules.pass_action:
        return "pass"
    if 0 <= action < rules.set_base:
        return f"discard {names[action]}"
    if rules.set_base <= action < rules.pick_base:
        rank, which = divmod(action - rules.set_base, 3)
        return f"set {names[rank]}{names[(rank, rules.two, rules.joker)[which]]}"
    if rules.pick_base <= action < rules.extend_base:
        return f"pick {names[action - rules.pick_base]}"
    if rules.extend_base <= action < rules.stop_action:
        rank, which = divmod(action - rules.extend_base, 2)
        return f"extend {names[rank]}{names[(rules.two, rules.joker)[which]]}"
    raise ActionError(f"{action} is not a snitch action id (0..{rules.num_actions - 1})")


def chance_to_string(core, card: int) -> str:
    rules = core.rules
    if not 0 <= card < rules.num_kinds:
        raise ActionError(f"{card} is not a card id of this deck (0..{rules.num_kinds - 1})")
    return f"{CHANCE_VERBS.get(core.phase, 'deal')} {rules.deck.names[card]}"


def parse(core, text: str) -> int:
    """The action id `text` names in the position `core`.

    MalformedActionError if it cannot be read (a set of two wilds is refused here: no
    set may hold them); IllegalActionError for a decision at a chance node or a chance
    outcome at a decision.  Legality beyond that is checked by the caller.
    """
    rules, phase = core.rules, core.phase
    words = action_words(text, "snitch", FORMS)
    verb, args = words[0].lower(), words[1:]
    if verb in ("stop", "pass") and not args:
        check_decision(text, CHANCE_VERBS.get(phase))
        return rules.stop_action if verb == "stop" else rules.pass_action
    if verb in ("discard", "pick") + tuple(CHANCE_VERBS.values()):
        card = _card(rules, text, verb, args)
        if verb in ("discard", "pick"):
            check_decision(text, CHANCE_VERBS.get(phase))
            return (rules.discard_base if verb == "discard" else rules.pick_base) + card
        check_chance(text, verb, CHANCE_VERBS.get(phase))
        return card
    if verb in ("set", "extend"):
        rank, other = _two_cards(rules, text, verb, args)
        check_decision(text, CHANCE_VERBS.get(phase))
        if verb == "set":
            which = 0 if other == rank else (1 if other == rules.two else 2)
            return rules.set_base + 3 * rank + which
        return rules.extend_base + 2 * rank + (0 if other == rules.two else 1)
    raise MalformedActionError(f"{text!r} is not a snitch action; snitch actions are {FORMS}")


def _card(rules, text: str, verb: str, args) -> int:
    if len(args) != 1:
        raise MalformedActionError(f"{text!r}: write {verb} <card>, for example {verb} 7")
    try:
        return rules.deck.parse(args[0])
    except CardError as err:
        raise MalformedActionError(f"bad card in action {text!r}: {err}") from None


def _two_cards(rules, text: str, verb: str, args) -> tuple[int, int]:
    """The natural rank and the second card of `set 7X` / `extend 72`."""
    token = args[0] if len(args) == 1 else ""
    token = token.upper().replace("10", "T")
    if len(token) != 2:
        raise MalformedActionError(f"{text!r}: write {verb} and two cards together, for "
                                   f"example {verb} 77, {verb} 72 or {verb} 7X")
    try:
        first, second = rules.deck.parse(token[0]), rules.deck.parse(token[1])
    except CardError as err:
        raise MalformedActionError(f"bad card in action {text!r}: {err}") from None
    if rules.is_wild(first) and rules.is_wild(second):
        raise MalformedActionError(f"{text!r}: a set holds one natural rank; two wilds "
                                   f"(2 or X) never make a set")
    if rules.is_wild(first):
        first, second = second, first
    if verb == "set" and second != first and not rules.is_wild(second):
        raise MalformedActionError(f"{text!r}: a set is two cards of one rank, or one rank "
                                   f"and a wild (2 or X)")
    if verb == "extend" and not rules.is_wild(second):
        raise MalformedActionError(f"{text!r}: an extension is a natural card and a wild "
                                   f"(2 or X), for example extend 7X")
    return first, second

