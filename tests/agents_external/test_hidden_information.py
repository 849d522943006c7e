"""An external agent never receives a card its seat did not see: in two deals that differ
only in cards the seat never sees, its program is sent exactly the same lines."""

import json
import random

import numpy as np
import pytest

from koloda import games
from koloda.games.kit.random_play import choose
from koloda.solvers.external import external_spec, load_external
from koloda.solvers.external.process import pool

from .conftest import bot

GAMES = ["durak", "durak(players=3)", "platinum_fish", "snitch(target_score=0)"]


def _played(game_string: str, seed: int, moves: int):
    """A game played at random for `moves` actions (or to its end)."""
    rng, state = random.Random(seed), games.load_game(game_string).new_initial_state()
    while not state.is_terminal() and len(state.history()) < moves:
        state.apply_action(choose(state, rng))
    return state


def _heard(tmp_path, name: str, state, seat: int) -> list[dict]:
    """Every line the program of `seat` reads when asked at each of its turns along
    `state`'s history, then told the end."""
    record = tmp_path / f"{name}.jsonl"
    game = state.get_game()
    agent = load_external(game, external_spec(bot("python", "record", str(record))), seed=7)
    agent.start_game(seat)
    replay = game.new_initial_state()
    for action in state.history():
        if replay.current_player() == seat:
            agent.step(replay)
        replay.apply_action(action)
    agent.game_over(replay, [0.0] * game.num_players())
    pool().close_all()                          # quit: the program has read every line
    return [json.loads(line) for line in record.read_text().splitlines()]


@pytest.mark.parametrize("game_string", GAMES)
def test_deals_the_seat_cannot_tell_apart_send_the_same_lines(tmp_path, game_string):
    state = _played(game_string, seed=3, moves=70)
    rng = np.random.RandomState(2)
    seat = next(p for p in range(state.num_players())
                if state.resample_from_infostate(p, lambda: 0.5).history() != state.history())
    other = next(world for world in (state.resample_from_infostate(
        seat, lambda: rng.random_sample()) for _ in range(50))
        if world.history() != state.history())          # hidden cards differ
    first = _heard(tmp_path, "first", state, seat)
    second = _heard(tmp_path, "second", other, seat)
    assert first == second
    kinds = [m["type"] for m in first]
    assert kinds[:2] == ["hello", "new_game"] and kinds[-2:] == ["game_over", "quit"]
    assert "go" in kinds
    told = [e["action"] for m in first if m["type"] in ("go", "game_over") for e in m["events"]]
    assert any(text.endswith(" ?") for text in told)     # what the seat did not see is masked
    assert len(told) == len(state.history())
