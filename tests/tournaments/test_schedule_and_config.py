"""Schedules bring every pair together over shared deals; bad configs stop before play."""

import collections
import itertools
from pathlib import Path

import pytest

from koloda.tournament.config import ConfigError, config_from_dict, load_config
from koloda.tournament.schedule import build_schedule


def _config(**changes):
    data = {"name": "t", "games": ["durak"], "games_per_pairing": 4, "seed": 1,
            "agents": {"a": "random", "b": "heuristic", "c": "random(seed=5)"}}
    data.update(changes)
    return config_from_dict(data)


def test_two_player_pairs_meet_with_seats_swapped_on_the_same_deal():
    tasks = build_schedule(_config())
    assert len({t.id for t in tasks}) == len(tasks)
    meetings = collections.Counter(frozenset(t.seats) for t in tasks)
    assert set(meetings.values()) == {4} and len(meetings) == 3
    by_deal = collections.defaultdict(list)
    for t in tasks:
        by_deal[(frozenset(t.seats), t.deal)].append(t)
    for games in by_deal.values():
        assert len(games) == 2
        first, second = games
        assert first.seed == second.seed
        assert first.seats == tuple(reversed(second.seats))
    assert len({t.seed for t in tasks}) == len(by_deal)  # every deal its own cards


def test_multiplayer_tables_cover_every_pair_and_rotate_every_seat():
    agents = {name: "random" for name in "abcde"}
    tasks = build_schedule(_config(games=["durak(players=4)"], agents=agents,
                                   games_per_pairing=12))
    pair_games = collections.Counter()
    for t in tasks:
        for x, y in itertools.combinations(sorted(set(t.seats)), 2):
            pair_games[(x, y)] += 1
    assert len(pair_games) == 10 and min(pair_games.values()) >= 12
    seats_by_deal = collections.defaultdict(list)
    for t in tasks:
        seats_by_deal[(t.id.rsplit("/", 1)[0])].append(t.seats)
    for rotations in seats_by_deal.values():
        assert len(rotations) == 4
        for seat in range(4):  # each agent of the table sits in each seat once
            assert len({r[seat] for r in rotations}) == 4


def test_fewer_agents_than_seats_fill_the_table_with_copies():
    tasks = build_schedule(_config(games=["durak(players=4)"]))
    assert all(sorted(t.seats) == ["a", "a", "b", "c"] for t in tasks)


def test_the_schedule_is_a_pure_function_of_the_config():
    assert list(build_schedule(_config())) == list(build_schedule(_config()))
    assert [t.seed for t in build_schedule(_config(seed=2))] != \
        [t.seed for t in build_schedule(_config())]


@pytest.mark.parametrize("changes, field", [
    ({"agents": {"a": "random", "b": "alphazero"}}, "agents.b"),
    ({"agents": {"a": "random", "b": "ismcts(simz=3)"}}, "agents.b"),
    ({"agents": {"a": "random", "b": "ismcts(sims=-1)"}}, "agents.b"),
    ({"games": ["poker"]}, r"games\[0\]"),
    ({"games": ["durak(players=9)"]}, r"games\[0\]"),
    ({"games": []}, "games is empty"),
    ({"games_per_pairing": 0}, "games_per_pairing"),
    ({"games_per_pairing": "many"}, "games_per_pairing must be int"),
    ({"jobs": 0}, "jobs"),
    ({"anchor": "nobody"}, "anchor"),
    ({"backend": "spark"}, "backend"),
    ({"backend": "dask"}, "scheduler"),
    ({"agents": {"a": "random"}}, "at least two agents"),
    ({"gmaes": ["durak"]}, "unknown field 'gmaes'"),
    ({"agents": {"": "random", "b": "heuristic"}}, "agent name '' must be printable"),
    ({"agents": {"a\nb": "random", "b": "heuristic"}}, "agent name 'a.*must be printable"),
])
def test_bad_configs_name_the_field(changes, field):
    with pytest.raises(ConfigError, match=field):
        _config(**changes)


def test_missing_fields_and_files(tmp_path):
    with pytest.raises(ConfigError, match="missing field 'agents'"):
        config_from_dict({"games": ["durak"], "games_per_pairing": 2})
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(str(tmp_path / "none.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("games = [")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(str(bad))


SHIPPED = sorted(str(p.relative_to(Path(__file__).resolve().parents[2]))
                 for p in (Path(__file__).resolve().parents[2] / "configs").rglob("*.toml"))


def test_every_shipped_config_is_checked():
    assert "configs/platinum_fish.toml" in SHIPPED and len(SHIPPED) >= 5


@pytest.mark.parametrize("path", SHIPPED)
def test_the_shipped_configs_are_valid(path):
    config = load_config(path)
    assert len(config.agents) >= 2
    assert build_schedule(config)


def test_the_default_config_ranks_the_four_kinds_of_agent():
    default_agents = set(load_config("configs/default.toml").agents)
    assert {"random", "heuristic", "pimc", "ismcts"} <= default_agents



@pytest.mark.parametrize("path, game_index, games, digest", [
    ("configs/default.toml", 0, 60,
     "f704f8f7c8ff96c6ec60187f3b2b7578352c940711a7ed480c93c04262dfa297"),
    ("configs/durak.toml", None, 480,
     "bc437ae920b0fc5e0d421e899a9a3cd716614f63c311191988885b07be39157b"),
])
def test_round_robin_ids_seeds_and_seats_stay_as_they_were(path, game_index, games, digest):
    """The digests were taken from the round-robin schedule before gauntlets joined it
    (the default's when it was cut to 10 games per pairing: its first 5 deals of each pair,
    unchanged; its Durak games since the other games joined): the results files of these
    configs must keep replaying game for game."""
    import hashlib

    tasks = build_schedule(load_config(path))
    if game_index is not None:
        tasks = tasks.of_game(game_index)
    text = "\n".join(f"{t.id} {t.game} {t.deal} {t.seed} {' '.join(t.seats)}" for t in tasks)
    assert len(tasks) == games
    assert hashlib.sha256(text.encode()).hexdigest() == digest
    assert all(t.seed_names and t.match is None for t in tasks)


# --- an agent's spec per game -------------------------------------------------------------

PER_GAME = {"a": "random", "b": {"snitch": "heuristic", "default": "random(seed=3)"}}


def test_an_agent_may_play_a_spec_of_its_own_in_each_game():
    config = _config(games=["durak", "snitch(target_score=0)", "parket"], agents=PER_GAME)
    played = collections.defaultdict(set)
    for task in build_schedule(config):
        played[task.game] |= {spec for seat, spec in zip(task.seats, task.specs)
                              if seat == "b"}
    assert played == {"durak": {"random(seed=3)"}, "snitch(target_score=0)": {"heuristic"},
                      "parket": {"random(seed=3)"}}
    assert config.spec("b", "snitch(target_score=0)") == "heuristic"


def test_a_table_of_specs_reads_from_toml(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('games = ["durak", "parket"]\ngames_per_pairing = 2\n'
                    '[agents]\nrandom = "random"\n\n'
                    '[agents.search]\ndurak = "ismcts(sims=10)"\nparket = "mcts(sims=10)"\n')
    config = load_config(str(path))
    assert [config.spec("search", g) for g in config.games] == ["ismcts(sims=10)",
                                                                 "mcts(sims=10)"]


def test_a_gauntlet_match_plays_the_spec_of_its_game():
    config = config_from_dict({
        "name": "g", "schedule": "gauntlet", "games": ["durak", "parket"], "seed": 1,
        "agents": {"a": {"durak": "heuristic", "parket": "random(seed=2)"}, "b": "random",
                   "spare": {"parket": "heuristic"}},
        "match": [{"game": "durak", "agent": "a", "opponent": "b", "games": 2},
                  {"game": "parket", "agent": "a", "opponent": "b", "games": 2}]})
    specs = {(t.game, seat): spec for t in build_schedule(config)
             for seat, spec in zip(t.seats, t.specs)}
    assert specs[("durak", "a")] == "heuristic" and specs[("parket", "a")] == "random(seed=2)"


@pytest.mark.parametrize("agents, said", [
    ({"a": "random", "b": {"durak": "heuristic"}},
     r"agents\.b has no spec for parket \('parket'\) and no default; add parket = "),
    ({"a": "random", "b": {"snich": "heuristic", "default": "random"}},
     r"agents\.b names 'snich', which is not a game; keys are the games' short names "
     r"\(durak, "),
    ({"a": "random", "b": {"durak": 3, "default": "random"}},
     r"agents\.b\.durak must be a spec string, not 3"),
    ({"a": "random", "b": {"parket": "mcts", "default": "ismcts(simz=3)"}},
     r"agents\.b\.default: .*simz"),
    ({"a": "random", "b": {"durak": "mcts", "default": "random"}},
     r"agents\.b\.durak: .*no version for durak"),
    ({"a": "random", "b": {}}, r"agents\.b is an empty table"),
    ({"a": "random", "b": ["random"]}, r"agents\.b must be a spec string or a table"),
])
def test_a_bad_table_of_specs_is_one_line_naming_the_agent_and_the_game(agents, said):
    with pytest.raises(ConfigError, match=said) as caught:
        _config(games=["durak", "parket"], agents=agents)
    assert "\n" not in str(caught.value)


def test_a_spare_agent_of_a_gauntlet_needs_no_spec_for_every_game_but_its_own_are_checked():
    def gauntlet(spare):
        return config_from_dict({
            "name": "g", "schedule": "gauntlet", "games": ["durak", "parket"], "seed": 1,
            "agents": {"a": "heuristic", "b": "random", "spare": spare},
            "match": [{"game": "durak", "agent": "a", "opponent": "b", "games": 2},
                      {"game": "parket", "agent": "a", "opponent": "b", "games": 2}]})
    assert gauntlet({"parket": "heuristic"})
    with pytest.raises(ConfigError, match=r"agents\.spare\.parket: .*simz"):
        gauntlet({"parket": "mcts(simz=1)"})


def test_the_default_tournament_plays_each_games_strongest_quick_search():
    from koloda import games
    config = load_config("configs/default.toml")
    for game_string in config.games:
        short = games.load_game(game_string).get_type().short_name
        assert config.spec("ismcts", game_string) == \
            games.GAMES[short].strongest_at("quick"), game_string
