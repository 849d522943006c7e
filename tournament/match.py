"""Play one game between agents and record it.

`play_game` never lets an agent's failure escape: an agent that raises, answers an
illegal action or overruns its time loses that game (it is scored as the only loser) and
the error is kept in the record with its reason (solvers.agent.REASONS: an agent that
raises without naming one has `crashed`; one that raised while it was built or started
fails at its first move).  "Raises" means anything, SystemExit and an agent's own
KeyboardInterrupt too; only a person's Ctrl-C or SIGTERM stops the game
(solvers/interrupts.py).  A move is an int (numpy's too), never a float or a bool
(solvers.agent.legal_action).  Agents see the game only through
`Agent.step`, which hands them resampled views (an external agent: what its seat was
told).  Each agent hears its seat when the game starts (`start_game`) and the result
when it ends (`game_over`), however it ends.

A seat with a time control (`agent.time_control`, from its spec: tournament.seating) is
given its budget before each move and charged the move's time after it; a move past
the budget and the margin (solvers/clock.py) is a timeout.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

from koloda.games.kit.outcomes import returns_for_winners, winners
from koloda.solvers.agent import AgentFailure, legal_action
from koloda.solvers.interrupts import stops_the_program
from koloda.tournament.chance import DeckOrder
from koloda.tournament.seating import load_seat_agent
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
    # when an agent failed: {"seat", "agent", "reason", "message", "traceback"}
    error: dict | None = None

    def mean_move_seconds(self, seat: int) -> float:
        return self.move_seconds[seat] / self.moves[seat] if self.moves[seat] else 0.0


def seat_agents(game, specs, seed: int, names=None) -> list:
    """The agent for each seat, built from its spec (tournament.seating: koloda's agents,
    external programs, time controls) and seeded from the game's seed and the seat (and
    the seat's display name, when given), so every game replays alone.  A seat whose
    agent cannot be built (a plugin's constructor that raises for this seed) gets a
    `FailedSeat`, so the game is that seat's loss, `crashed`, and the run goes on."""
    agents = []
    for seat, spec in enumerate(specs):
        agent_seed = derive_seed(seed, seat, *([names[seat]] if names else []))
        try:
            agents.append(load_seat_agent(game, spec, seed=agent_seed))
        except BaseException as err:
            if stops_the_program(err):
                raise
            agents.append(FailedSeat(spec, err, "built"))
    return agents


class FailedSeat:
    """A seat whose agent raised before the game began, while it was built or told its
    seat: it fails at its first move, where every failure stops a game (so the record
    replays to the failing seat's turn), as `crashed`."""

    time_budget = None

    def __init__(self, spec: str, error: BaseException, stage: str):
        self.spec = spec
        self.message = f"the agent could not be {stage}: {type(error).__name__}: {error}"
        self.trace = traceback.format_exc(limit=4)

    def start_game(self, seat: int) -> None:
        pass

    def step(self, state):
        raise AgentFailure("crashed", self.message)


def play_game(game, agents, seed: int, specs=None, time_controls=None) -> GameRecord:
    """Play `game` with `agents[seat]` in each seat; chance outcomes from `seed`.

    `time_controls` (a solvers.clock.TimeControl or None per seat) default to the agents'
    own `time_control`."""
    n = game.num_players()
    agents = list(agents)        # a seat that fails to start is replaced here, not there
    specs = specs or [getattr(a, "spec", type(a).__name__) for a in agents]
    if time_controls is None:
        time_controls = [getattr(a, "time_control", None) for a in agents]
    clocks = [control.start() if control is not None else None for control in time_controls]
    record = GameRecord(seed=seed, seats=list(specs), move_seconds=[0.0] * n, moves=[0] * n)
    chance = DeckOrder(game, seed)
    state = game.new_initial_state()
    ended = False
    try:
        for seat, agent in enumerate(agents):
            try:
                start = getattr(agent, "start_game", None)
                start(seat) if start is not None else agent.restart()
            except BaseException as err:
                if stops_the_program(err):
                    raise
                agents[seat] = FailedSeat(specs[seat], err, "started")
        while not state.is_terminal():
            if state.is_chance_node():
                action = chance(state)
            else:
                seat = state.current_player()
                moved = _move(agents[seat], state, seat, clocks[seat], record, specs)
                if moved is None:
                    ended = True
                    return record
                action = moved
            state.apply_action(action)    # agents hear of it through their next view only
            record.actions.append(action)
        record.returns = list(state.returns())
        record.winners = winners(record.returns)
        ended = True
        return record
    finally:
        for agent in agents:
            try:
                over = getattr(agent, "game_over", None)
                if over is not None:
                    over(state, list(record.returns) if ended else None)
            except BaseException as err:   # the game is decided: an agent's bug there
                if stops_the_program(err):  # changes nothing, a person's Ctrl-C stops
                    raise


def _move(agent, state, seat: int, clock, record: GameRecord, specs) -> int | None:
    """The seat's move, timed and charged to its clock; None when the agent failed (the
    record then holds the error and the returns of its loss)."""
    legal = state.legal_actions(seat)
    agent.time_budget = clock.budget() if clock is not None else None
    start = time.perf_counter()
    try:
        answer = agent.step(state)
        elapsed = time.perf_counter() - start
        overran = clock.charge(elapsed * 1000.0) if clock is not None else None
        if overran:
            raise AgentFailure("timeout", overran)
        action = legal_action(answer, legal, specs[seat])
    except BaseException as err:  # an agent's bug must not stop a tournament
        if stops_the_program(err):                # a person's Ctrl-C, or SIGTERM, does
            raise
        _failed(record, seat, specs, err, getattr(agent, "trace", None))
        return None
    if len(legal) > 1:  # forced moves take no thought; they would dilute the mean
        record.move_seconds[seat] += elapsed
        record.moves[seat] += 1
    return action


def _failed(record: GameRecord, seat: int, specs, err: BaseException,
            trace: str | None = None) -> None:
    """Record `seat`'s failure and its loss: the only loser, every other seat a winner."""
    named = err if isinstance(err, AgentFailure) else None   # its reason says what failed
    record.error = {"seat": seat, "agent": specs[seat],
                    "reason": named.reason if named else "crashed",
                    "message": str(err) if named else f"{type(err).__name__}: {err}",
                    "traceback": trace or traceback.format_exc(limit=4)}
    n = len(record.move_seconds)
    record.returns = returns_for_winners(n, set(range(n)) - {seat})
    record.winners = winners(record.returns)
