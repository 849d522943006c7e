"""Agents that fail as careless plugins do; the module prints as it imports."""

import os
import sys
import time

import numpy as np

from koloda.solvers import Agent, Param, register

print("the hostile plugin says hello on stdout")
os.write(1, b"and writes to descriptor 1 as well\n")


@register("flaky", "raises in its constructor for odd seeds")
class Flaky(Agent):
    def __init__(self, game, seed: int = 0):
        if seed % 2:
            raise RuntimeError(f"no agent for seed {seed}")
        super().__init__(game, seed)

    def choose(self, view, player: int) -> int:
        return view.legal_actions(player)[0]


@register("argmax", "the last legal action, as numpy's argmax gives it: a numpy.int64")
class Argmax(Agent):
    def choose(self, view, player: int) -> int:
        legal = view.legal_actions(player)
        return np.array(legal)[np.argmax(legal)]


@register("floaty", "the first legal action as a float")
class Floaty(Agent):
    def choose(self, view, player: int) -> int:
        return float(view.legal_actions(player)[0])


@register("quits", "calls sys.exit() in its move")
class Quits(Agent):
    def choose(self, view, player: int) -> int:
        sys.exit("the plugin has had enough")


@register("interrupts", "raises KeyboardInterrupt in its move")
class Interrupts(Agent):
    def choose(self, view, player: int) -> int:
        raise KeyboardInterrupt


@register("unbounded", "sleeps `pause` milliseconds a move, a parameter with no upper bound",
          params=(Param("pause", int, 0, "milliseconds to sleep a move", low=0),))
class Unbounded(Agent):
    def __init__(self, game, seed: int = 0, pause: int = 0):
        super().__init__(game, seed)
        self.pause = pause

    def choose(self, view, player: int) -> int:
        time.sleep(self.pause / 1000)
        return view.legal_actions(player)[0]


@register("stubborn", "sleeps `n` milliseconds a move, or a second when `mode` is slow: "
          "parameters named as koloda's that set no work, or text",
          params=(Param("n", int, 0, "milliseconds to sleep a move", low=0),
                  Param("mode", str, "fast", "slow: a second a move")))
class Stubborn(Agent):
    def __init__(self, game, seed: int = 0, n: int = 0, mode: str = "fast"):
        super().__init__(game, seed)
        self.pause = 1000 if mode == "slow" else n

    def choose(self, view, player: int) -> int:
        time.sleep(self.pause / 1000)
        return view.legal_actions(player)[0]
