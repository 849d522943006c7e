"""An agent plugin that fails to import: it needs a module nobody has."""

import koloda_no_such_module  # noqa: F401

from koloda.solvers import Agent, register


@register("broken", "never registered: the import above fails first")
class Broken(Agent):
    def choose(self, view, player: int) -> int:
        return view.legal_actions(player)[0]
