"""Play one game between agents and record it.

`play_game` never lets an agent's failure escape: an agent that raises or answers an
illegal action loses that game (it is scored as the only loser) and the error is kept in
the record.  Agents see the game only through `Agent.step`, which hands them resampled
views.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

from koloda.games.kit.outcomes import returns_for_winners, winners
from koloda import solvers
from koloda.tournament.chance import DeckOrder
from koloda.tournament.seeds import derive_seed


@dataclass
class GameRecord:
    seed: int
    seats: list[str]                 # agent spec per seat
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    move_seconds: list[float] = field(default_factory=list)   # thinking time per seat
    moves: list[int] = field(default_factory=list)  # decisions with a choice, per seat
    error: dict | None = None        # {"seat", "agent", "message"} when an agent failed

    def mean_move_seconds(self, seat: int) -> float:
        return self.move_seconds[seat] / self.moves[seat] if self.moves[seat] else 0.0


def seat_agents(game, specs, seed: int, names=None) -> list:
    """The agent for each seat, built from its spec and seeded from the game's seed and the
    seat (and the seat's display name, when given), so every game replays alone."""
    return [solvers.load_agent(game, spec, seed=derive_seed(
                seed, seat, *([names[seat]] if names else [])))
            for seat, spec in enumerate(specs)]


def play_game(game, agents, seed: int, specs=None) -> GameRecord:
    """Play `game` with `agents[seat]` in each seat; chance outcomes from `seed`."""
    n = game.num_players()
    specs = specs or [getattr(a, "spec", type(a).__name__) for a in agents]
    record = GameRecord(seed=seed, seats=list(specs), move_seconds=[0.0] * n, moves=[0] * n)
    chance = DeckOrder(game, seed)
    state = game.new_initial_state()
    for agent in agents:
        agent.restart()
    while not state.is_terminal():
        if state.is_chance_node():
            action = chance(state)
        else:
            seat = state.current_player()
            choices = len(state.legal_actions(seat))
            start = time.perf_counter()
            try:
                action = agents[seat].step(state)
                if action not in state.legal_actions(seat):
                    raise ValueError(f"illegal action {action}")
            except Exception as err:  # an agent's bug must not stop a tournament
                record.error = {"seat": seat, "agent": specs[seat],
                                "message": f"{type(err).__name__}: {err}",
                                "traceback": traceback.format_exc(limit=4)}
                record.returns = returns_for_winners(n, set(range(n)) - {seat})
                record.winners = winners(record.returns)
                return record
            if choices > 1:  # forced moves take no thought; they would dilute the mean
                record.move_seconds[seat] += time.perf_counter() - start
                record.moves[seat] += 1
        for agent in agents:
            agent.inform_action(state, state.current_player(), action)
        state.apply_action(action)
        record.actions.append(action)
    record.returns = list(state.returns())
    record.winners = winners(record.returns)
    return record
