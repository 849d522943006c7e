"""Errors koloda raises at its users: each names what is wrong and what would be right."""


class KolodaError(Exception):
    """Base class of every error koloda raises on bad input."""


class GameParameterError(KolodaError, ValueError):
    """A game parameter is unknown, of the wrong type or out of range."""


class ActionError(KolodaError, ValueError):
    """An action string is malformed, or names an action that is not legal here."""


class CardError(KolodaError, ValueError):
    """A card string does not name a card of the deck in use."""
