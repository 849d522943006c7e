"""Errors koloda raises at its users: each names what is wrong and what would be right."""


class KolodaError(Exception):
    """Base class of every error koloda raises on bad input."""


class GameParameterError(KolodaError, ValueError):
    """A game string is malformed, or a parameter is unknown, of the wrong type or out of range."""


class ActionError(KolodaError, ValueError):
    """An action string or id that this state does not accept (either kind below)."""


class MalformedActionError(ActionError):
    """The action string cannot be read: a typo, a missing or unknown card, an unknown verb."""


class IllegalActionError(ActionError):
    """The action is well formed but the rules do not allow it here (or it is not the
    player's turn, or the game is over)."""


class ArgumentError(KolodaError, ValueError):
    """A call got an argument it cannot use: a seat outside the game, a random source whose
    numbers are not in [0, 1), a game or spec that is not of the expected kind."""


class CardError(KolodaError, ValueError):
    """A card string does not name a card of the deck in use."""
