"""Single games between agents (shared deals, crash handling) and gauntlet matches: seat
rotation over shared decks, the deal-clustered score, even from the game, resuming."""

import json
import math

import pytest

from koloda import games, solvers
from koloda.games.kit.outcomes import returns_for_winners
from koloda.solvers.agent import Agent
from koloda.tournament.chance import DeckOrder
from koloda.tournament.config import config_from_dict
from koloda.tournament.match import play_game
from koloda.tournament.results import GameResult
from koloda.tournament.runner import Run, run_tournament
from koloda.tournament.schedule import build_schedule
from koloda.tournament.summary import match_row, summarize

SMALL = "durak(ranks=6,hand_size=4)"
SMALL_3 = "durak(players=3,ranks=6,hand_size=4)"


@pytest.fixture(scope="module")
def durak():
    return games.load_game("durak")


def _deal_of(game, actions):
    """The chance outcomes of a finished game, in order."""
    state = game.new_initial_state()
    dealt = []
    for action in actions:
        if state.is_chance_node():
            dealt.append(action)
        state.apply_action(action)
    return dealt


def _opening(game) -> int:
    """Chance outcomes before the first move: every hand and the trump."""
    state = game.new_initial_state()
    count = 0
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        count += 1
    return count


def test_same_seed_same_deck_whoever_sits_where(durak):
    heuristic = solvers.load_agent(durak, "heuristic")
    rand = solvers.load_agent(durak, "random", seed=3)
    first = play_game(durak, [heuristic, rand], seed=42)
    swapped = play_game(durak, [rand, heuristic], seed=42)
    deal_a, deal_b = _deal_of(durak, first.actions), _deal_of(durak, swapped.actions)
    opening = 2 * 6 + 1                      # the deal and the trump
    assert deal_a[:opening] == deal_b[:opening]
    # Later draws follow the same deck order, whoever draws them: both games draw a
    # prefix of one sequence (the trump card, drawn last, aside).
    trump = deal_a[opening - 1]
    rest_a = [c for c in deal_a[opening:] if c != trump]
    rest_b = [c for c in deal_b[opening:] if c != trump]
    shorter = min(len(rest_a), len(rest_b))
    assert rest_a[:shorter] == rest_b[:shorter]
    assert play_game(durak, [heuristic, rand], seed=43).actions != first.actions


def test_deck_order_is_a_uniform_shuffle(durak):
    """The first dealt card is uniform over the deck across seeds."""
    counts = [0] * 36
    for seed in range(3600):
        counts[DeckOrder(durak, seed)(durak.new_initial_state())] += 1
    assert min(counts) > 60 and max(counts) < 145


class _Crasher(Agent):
    def choose(self, view, player):
        raise RuntimeError("boom")


class _Illegal(Agent):
    def step(self, state):
        return -1


@pytest.mark.parametrize("bad", [_Crasher, _Illegal])
def test_a_failing_agent_loses_and_the_error_is_recorded(durak, bad):
    record = play_game(durak, [solvers.load_agent(durak, "heuristic"), bad(durak)], seed=1,
                       specs=["heuristic", "bad"])
    assert record.error is not None
    assert record.error["seat"] == 1 and record.error["agent"] == "bad"
    assert record.returns == [1.0, -1.0] and record.winners == [0]


# ---------------------------------------------------------------- gauntlet matches

def gauntlet(tmp_path, matches, games_list=(SMALL,), seed=5, **changes):
    data = {"name": "g", "schedule": "gauntlet", "games": list(games_list), "seed": seed,
            "output": str(tmp_path), "bootstrap": 20,
            "agents": {"heuristic": "heuristic", "random": "random",
                       "ismcts": "ismcts(sims=10)"},
            "match": matches}
    data.update(changes)
    return config_from_dict(data)


def test_each_deal_is_played_once_per_seat_of_the_agent():
    config = gauntlet("unused", [{"game": SMALL_3, "agent": "heuristic",
                                  "opponent": "random", "games": 12}],
                      games_list=[SMALL_3])
    tasks = build_schedule(config)
    assert len(tasks) == 12 and len({t.id for t in tasks}) == 12
    by_deal = {}
    for t in tasks:
        by_deal.setdefault(t.deal, []).append(t)
    assert sorted(by_deal) == [0, 1, 2, 3]
    for deal_tasks in by_deal.values():
        assert [t.seats.index("heuristic") for t in deal_tasks] == [0, 1, 2]
        assert all(t.seats.count("random") == 2 for t in deal_tasks)
        assert len({t.seed for t in deal_tasks}) == 1
    assert len({ts[0].seed for ts in by_deal.values()}) == 4       # every deal its cards


def test_two_players_swap_seats_and_a_match_has_at_least_two_deals():
    config = gauntlet("unused", [{"agent": "heuristic", "opponent": "random", "games": 1}])
    tasks = build_schedule(config)
    assert [(t.deal, t.seats) for t in tasks] == [
        (0, ("heuristic", "random")), (0, ("random", "heuristic")),
        (1, ("heuristic", "random")), (1, ("random", "heuristic"))]


def test_the_games_of_a_deal_share_the_deck(tmp_path):
    config = gauntlet(tmp_path, [{"game": SMALL_3, "agent": "heuristic",
                                  "opponent": "random", "games": 6}], games_list=[SMALL_3])
    run = run_tournament(config, progress=False)
    game = games.load_game(SMALL_3)
    opening = _opening(game)
    hands = {}
    for task, result in run.finished():
        hands.setdefault(task.deal, set()).add(
            tuple(_deal_of(game, result.actions)[:opening]))
    assert len(hands) == 2
    assert all(len(dealt) == 1 for dealt in hands.values())    # one deck per deal
    assert hands[0] != hands[1]


def test_a_match_counts_every_game_and_both_sides_thinking_time(tmp_path):
    config = gauntlet(tmp_path, [{"game": SMALL_3, "agent": "heuristic",
                                  "opponent": "random", "games": 12}], games_list=[SMALL_3])
    run = run_tournament(config, progress=False)
    row = summarize(config, run, SMALL_3).matches[0]
    assert (row.players, row.deals, row.games) == (3, 4, 12)
    assert row.wins + row.draws + row.losses == 12
    assert 0.0 <= row.low <= row.score <= row.high <= 1.0
    assert row.agent_ms_per_move > 0 and row.opponent_ms_per_move > 0
    assert row.errors == 0


def _fake_run(games_by_deal, games_wanted):
    """A Run of one three-player match "a" against "b" from made-up returns:
    games_by_deal[deal][agent seat] = returns; games not given are not played."""
    config = config_from_dict({"name": "f", "schedule": "gauntlet", "games": [SMALL_3],
                               "agents": {"a": "random", "b": "random"},
                               "match": [{"agent": "a", "opponent": "b",
                                          "games": games_wanted}]})
    tasks, results = build_schedule(config), {}
    for task in tasks:
        returns = games_by_deal.get(task.deal, {}).get(task.seats.index("a"))
        if returns is not None:
            results[task.id] = GameResult(task.id, task.game, task.deal, task.seed,
                                          list(task.seats), [], returns)
    return config, Run(tasks, results, {}, len(results), 0.0)


def test_the_score_is_the_mean_of_deal_means_with_the_deal_as_unit():
    win_a0 = returns_for_winners(3, {0, 1})        # seats 0 and 1 win, 2 is the durak
    win_a1, win_a2 = returns_for_winners(3, {1, 2}), returns_for_winners(3, {0, 2})
    lost_a0 = returns_for_winners(3, {1, 2})
    deals = {0: {0: win_a0, 1: win_a1, 2: win_a2},           # the agent wins all three
             1: {0: lost_a0, 1: win_a1, 2: [0.0, 0.0, 0.0]},  # loss, win, draw: 1/2
             2: {0: win_a0}}                                 # one game played so far
    config, run = _fake_run(deals, 9)
    row = match_row(config.matches[0], run.tasks, run)
    assert (row.games, row.deals, row.wins, row.draws, row.losses) == (7, 3, 5, 1, 1)
    means = [1.0, 0.5, 1.0]
    assert row.score == pytest.approx(sum(means) / 3)        # not 5.5 / 7 over games
    spread = math.sqrt(sum((m - row.score) ** 2 for m in means) / 2 / 3)
    assert row.low == pytest.approx(row.score - 1.96 * spread)
    assert row.high == 1.0                                   # cut at 100%
    # even from each game's own winners: 2/3 with two winners of three, 1/2 for the draw
    assert row.even == pytest.approx((6 * 2 / 3 + 0.5) / 7)


def test_even_is_the_share_of_winners_of_the_games_played(tmp_path):
    config = gauntlet(tmp_path, [
        {"game": SMALL, "agent": "heuristic", "opponent": "random", "games": 8},
        {"game": SMALL_3, "agent": "heuristic", "opponent": "random", "games": 12}],
        games_list=[SMALL, SMALL_3])
    run = run_tournament(config, progress=False)
    two = summarize(config, run, SMALL).matches[0]
    three = summarize(config, run, SMALL_3).matches[0]
    assert two.even == pytest.approx(0.5)                    # one winner of two, or a draw
    draws = three.draws
    assert three.even == pytest.approx(((12 - draws) * 2 / 3 + draws * 0.5) / 12)


def test_reversed_matches_are_two_matches(tmp_path):
    config = gauntlet(tmp_path, [{"agent": "heuristic", "opponent": "random", "games": 4},
                                 {"agent": "random", "opponent": "heuristic", "games": 4}])
    run = run_tournament(config, progress=False)
    rows = summarize(config, run, SMALL).matches
    assert [(r.agent, r.opponent, r.games) for r in rows] == [
        ("heuristic", "random", 4), ("random", "heuristic", 4)]
    seeds = [{t.seed for t in run.tasks if t.match == m} for m in config.matches]
    assert len(seeds[0]) == len(seeds[1]) == 2 and not seeds[0] & seeds[1]


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_an_interrupted_gauntlet_resumes_without_replaying_or_losing_games(tmp_path):
    matches = [{"agent": "ismcts", "opponent": "heuristic", "games": 6},
               {"agent": "heuristic", "opponent": "random", "games": 6}]
    whole = gauntlet(tmp_path / "whole", matches)
    run_tournament(whole, progress=False)
    parts = gauntlet(tmp_path / "parts", matches)
    run_tournament(parts, progress=False, stop_after=7)
    assert len(_lines(parts.results_path)) == 7
    with parts.results_path.open("a") as handle:             # a kill in mid-write
        handle.write('{"id": "0/heuristic-vs-random/2')
    again = run_tournament(parts, progress=False)
    assert len(again.played) == 12 - 7
    assert parts.results_path.read_bytes() == whole.results_path.read_bytes()
    lines = _lines(parts.results_path)
    assert [line["id"] for line in lines] == [t.id for t in build_schedule(parts)]
    assert set(lines[0]) == {"id", "game", "deal", "seed", "seats", "specs", "actions",
                             "returns"}
    assert [t["id"] for t in _lines(parts.timing_path)] == [line["id"] for line in lines]


def test_more_games_for_a_match_keep_the_games_already_played(tmp_path):
    small = gauntlet(tmp_path, [{"agent": "heuristic", "opponent": "random", "games": 4}])
    run_tournament(small, progress=False)
    first = _lines(small.results_path)
    larger = gauntlet(tmp_path, [{"agent": "heuristic", "opponent": "random", "games": 8}])
    run = run_tournament(larger, progress=False)
    assert len(run.played) == 4
    assert _lines(larger.results_path)[:4] == first


def test_a_gauntlet_is_the_same_with_one_job_or_two(tmp_path):
    matches = [{"agent": "heuristic", "opponent": "random", "games": 8}]
    one = gauntlet(tmp_path / "one", matches, jobs=1)
    two = gauntlet(tmp_path / "two", matches, jobs=2)
    run_tournament(one, progress=False)
    run_tournament(two, progress=False)
    assert one.results_path.read_bytes() == two.results_path.read_bytes()


def test_elo_where_the_matches_connect_the_agents_of_a_game(tmp_path):
    agents = {"heuristic": "heuristic", "random": "random", "ismcts": "ismcts(sims=10)",
              "other": "random"}
    config = gauntlet(tmp_path, [
        {"game": SMALL, "agent": "heuristic", "opponent": "random", "games": 4},
        {"game": SMALL, "agent": "ismcts", "opponent": "heuristic", "games": 4},
        {"game": SMALL_3, "agent": "heuristic", "opponent": "random", "games": 6},
        {"game": SMALL_3, "agent": "ismcts", "opponent": "other", "games": 6}],
        games_list=[SMALL, SMALL_3], agents=agents, anchor="random")
    run = run_tournament(config, progress=False)
    linked = summarize(config, run, SMALL)
    assert list(linked.agents) == ["heuristic", "random", "ismcts"]     # not "other"
    assert {r.agent for r in linked.ratings} == {"heuristic", "random", "ismcts"}
    assert linked.anchor == "random" and linked.no_ratings is None
    assert next(r for r in linked.ratings if r.agent == "random").elo == 0.0
    apart = summarize(config, run, SMALL_3)
    assert apart.ratings == [] and "heuristic, random | ismcts, other" in apart.no_ratings
    assert [m.games for m in apart.matches] == [6, 6]


def test_no_agent_is_handed_the_true_state_between_its_moves():
    """OpenSpiel's `inform_action` would pass every action with the true state (every
    hand); play_game never calls it, so an agent sees the game only through its views."""
    from koloda.solvers.random_agent import RandomAgent

    class Listening(RandomAgent):
        heard = 0

        def inform_action(self, state, player_id, action):
            Listening.heard += 1

    game = games.load_game("durak")
    record = play_game(game, [Listening(game, seed=1), Listening(game, seed=2)], seed=4)
    assert record.actions and Listening.heard == 0
