"""Action strings of Durak (`attack 7s`, `throw Qs`, `beat 9s`, `take`, `pass`; chance
`deal 7s`, `trump 7s`, `draw 7s`) to and from action ids."""

from __future__ import annotations

from koloda.games.durak.engine import DEAL, DRAW, TRUMP
from koloda.games.errors import ActionError, CardError, MalformedActionError
from koloda.games.kit.notation import action_words, check_chance, check_decision

CARD_VERBS = ("attack", "throw", "beat")
CHANCE_VERBS = {DEAL: "deal", TRUMP: "trump", DRAW: "draw"}
FORMS = "attack <card>, throw <card>, beat <card>, take, pass (chance: deal/trump/draw <card>)"


def decision_to_string(rules, action: int) -> str:
    if action == rules.take_action:
        return "take"
    if action == rules.pass_action:
        return "pass"
    if 0 <= action < rules.take_action:
        verb, card = divmod(action, rules.num_cards)
        return f"{CARD_VERBS[verb]} {rules.deck.names[card]}"
    raise ActionError(f"{action} is not a durak action id (0..{rules.num_actions - 1})")


def chance_to_string(core, card: int) -> str:
    rules, phase = core.rules, core.phase
    if not 0 <= card < rules.num_cards:
        raise ActionError(f"{card} is not a card id of this deck (0..{rules.num_cards - 1})")
    return f"{CHANCE_VERBS.get(phase, 'deal')} {rules.deck.names[card]}"


def parse(core, text: str) -> int:
    """The action id `text` names in the position `core`.

    MalformedActionError if it cannot be read; IllegalActionError if it is a decision at a
    chance node or the wrong chance verb.  Whether the card may be played is checked by the
    caller, which knows the state.
    """
    rules, phase = core.rules, core.phase
    words = action_words(text, "durak", FORMS)
    verb = words[0].lower()
    if len(words) == 1 and verb in ("take", "pass"):
        check_decision(text, CHANCE_VERBS.get(phase))
        return rules.take_action if verb == "take" else rules.pass_action
    is_card_verb = verb in CARD_VERBS or verb in CHANCE_VERBS.values()
    if len(words) == 1 and is_card_verb:
        raise MalformedActionError(f"{text!r} needs a card: {verb} <card>, for example "
                                   f"{verb} {rules.deck.names[-1]}")
    if len(words) == 2 and is_card_verb:
        try:
            card = rules.deck.parse(words[1])
        except CardError as err:
            raise MalformedActionError(f"bad card in action {text!r}: {err}") from None
        if verb in CARD_VERBS:
            # `attack c` and the chance outcome `c` share an id: never let one pass as the other.
            check_decision(text, CHANCE_VERBS.get(phase))
            return CARD_VERBS.index(verb) * rules.num_cards + card
        check_chance(text, verb, CHANCE_VERBS.get(phase))
        return card
    raise MalformedActionError(f"{text!r} is not a durak action; durak actions are {FORMS}")

