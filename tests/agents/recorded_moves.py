"""The moves every search agent plays at fixed positions from fixed seeds, recorded.

`python -m tests.agents.recorded_moves` writes `recorded_moves.json` beside this file;
tests/agents/test_recorded_moves.py plays the same specs again and compares, move for
move and visit for visit.  A change meant to leave search as it was (a redesign, a
faster kernel) must leave the file as it is; a change meant to alter play records it
again, and the diff shows what moved.  The same file holds a digest of each game's move
generation along seeded random games.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from koloda import games, solvers
from koloda.games.kit.random_play import choose, midgame_states

FILE = Path(__file__).with_name("recorded_moves.json")

GAMES = ["durak", "platinum_fish", "snitch(target_score=300)", "parket"]

#: Specs every game plays; where a game has no learned model, no heuristic playout or no
#: compiled prior, the agent falls back as it documents, and that is recorded too.
SPECS = [
    "random", "heuristic", "level(n=3)",
    "ismcts(sims=120)", "ismcts(sims=120,tree=python)",
    "pimc(sims=120,worlds=4)", "pimc(sims=120,worlds=4,tree=python)",
    "ismcts(sims=80,rollout=heuristic)", "pimc(sims=60,worlds=3,rollout=heuristic)",
    "ismcts(sims=60,rollout=learned)", "ismcts(sims=60,rollout=learned,depth=2)",
    "ismcts(sims=60,rollout=learned,tree=python)",
    "ismcts(sims=80,prior=0.5)", "ismcts(sims=80,prior=0.5,tree=python)",
    "ismcts(sims=60,prior=0.5,rollout=learned,uct_c=0.1)",
    "ismcts(sims=80,infer=16)", "ismcts(sims=80,infer=16,tree=python)",
    "ismcts(sims=80,temperature=1.0)", "ismcts(sims=80,horizon=game)",
]
IMPERFECT_INFORMATION_SPECS = ["ismcts_openspiel(sims=30)"]
PERFECT_INFORMATION_SPECS = ["mcts(sims=120)", "mcts(sims=120,tree=python)",
                             "mcts(sims=60,rollout=heuristic)", "mcts_openspiel(sims=40)",
                             "solver(sims=40,reach=8)"]


def positions(game):
    """The first decision of a seeded deal and three midgame decisions."""
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(choose(state, rng))
    return [state] + midgame_states(game, 3, seed=11, min_history=8)


def specs_of(game) -> list[str]:
    perfect = game.get_type().information == \
        game.get_type().information.PERFECT_INFORMATION
    return SPECS + (PERFECT_INFORMATION_SPECS if perfect else IMPERFECT_INFORMATION_SPECS)


def played(game, spec: str, state) -> dict:
    """One agent's move at `state` from seed 1, with its root visits where it searched."""
    agent = solvers.load_agent(game, spec, seed=1)
    action = agent.step(state.clone())
    move = {"action": int(action)}
    visits = getattr(agent, "last_visits", None)
    if visits:
        move["visits"] = sorted([int(a), int(v)] for a, v in visits.items())
    return move


def move_generation_digest(game, seed: int, count: int = 3) -> str:
    """A digest of every decision's legal actions and every chance node's outcomes along
    `count` seeded random games."""
    digest = hashlib.sha256()
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                digest.update(repr(state.chance_outcomes()).encode())
            else:
                digest.update(repr(state.legal_actions()).encode())
            state.apply_action(choose(state, rng))
        digest.update(repr(state.returns()).encode())
    return digest.hexdigest()


def record() -> dict:
    out = {}
    for game_string in GAMES:
        game = games.load_game(game_string)
        states = positions(game)
        out[game_string] = {
            "move_generation": move_generation_digest(game, seed=3),
            "moves": {spec: [played(game, spec, state) for state in states]
                      for spec in specs_of(game)},
        }
    return out


if __name__ == "__main__":
    FILE.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {FILE}")
