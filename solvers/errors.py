"""Errors of agent construction and play."""

from koloda.games.errors import KolodaError


class AgentSpecError(KolodaError, ValueError):
    """An agent spec does not parse, names an unknown agent, or has a bad parameter."""


class AgentError(KolodaError, RuntimeError):
    """An agent failed while choosing a move."""
