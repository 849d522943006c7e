"""`first_legal`: the first legal action (the last, with `last=true`); an agent kind that
another package adds to koloda through the `koloda.agents` entry point."""

from koloda.solvers import Agent, Param, register


@register("first_legal", "the first legal action, or the last one",
          params=(Param("last", bool, False, "play the last legal action instead"),))
class FirstLegal(Agent):
    def __init__(self, game, seed: int = 0, last: bool = False):
        super().__init__(game, seed)
        self.last = last

    def choose(self, view, player: int) -> int:
        legal = view.legal_actions(player)
        return legal[-1] if self.last else legal[0]
