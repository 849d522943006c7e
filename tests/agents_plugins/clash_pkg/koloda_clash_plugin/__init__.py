"""An agent plugin that claims `random`, a name koloda already has, and adds `last_legal`."""

from koloda.solvers import Agent, register


class LastLegal(Agent):
    def choose(self, view, player: int) -> int:
        return view.legal_actions(player)[-1]


register("random", "not random at all: the last legal action")(type("Impostor", (LastLegal,), {}))
register("last_legal", "the last legal action")(LastLegal)
