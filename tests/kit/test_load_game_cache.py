"""`games.load_game` keeps the games it built: one object per normal game string, the most
recently used kept, and safe to call from several threads."""

import threading

import pytest

from koloda import games
from koloda.games.errors import GameParameterError


def test_equal_normal_strings_give_the_same_game():
    game = games.load_game("durak")
    assert games.load_game("durak(players=2)") is game
    assert games.load_game("durak()") is game
    assert games.load_game("durak(players=3)") is not game


def test_the_cache_is_bounded_and_keeps_the_most_recently_used():
    limit = games.MAX_GAMES_CACHED
    first = games.load_game("durak(max_moves=100)")
    for moves in range(101, 101 + limit + 10):
        games.load_game(f"durak(max_moves={moves})")
        games.load_game("durak(max_moves=100)")         # used again: kept
        assert len(games._GAMES) <= limit
    assert len(games._GAMES) == limit
    assert games.load_game("durak(max_moves=100)") is first
    oldest = games.load_game("durak(max_moves=101)")    # evicted long ago: built again
    assert str(oldest) == str(games.load_game("durak(max_moves=101)"))
    assert len(games._GAMES) == limit


@pytest.mark.parametrize("bad", ["durak(players=9)", "nope", "durak(", "durak(x=1)",
                                 "durak(hand_size=99,players=6,ranks=13)"])
def test_a_bad_string_is_refused_every_time_and_never_kept(bad):
    games.load_game("durak")
    kept = dict(games._GAMES)
    for _ in range(2):
        with pytest.raises(GameParameterError):
            games.load_game(bad)
    assert games._GAMES == kept


def test_concurrent_loads_share_one_game_per_normal_string():
    strings = ["durak", "durak(players=2)", "durak(players=3)", "platinum_fish",
               "parket", "snitch", "durak(players=4)", "durak(ranks=9)"]
    start = threading.Barrier(6)
    seen = [[] for _ in range(6)]
    errors = []

    def load(mine):
        try:
            start.wait()
            for _ in range(20):
                for text in strings:
                    mine.append((games.normalize_game_string(text), games.load_game(text)))
        except Exception as err:        # reported below: a thread's error is otherwise lost
            errors.append(err)

    threads = [threading.Thread(target=load, args=(mine,)) for mine in seen]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    by_string = {}
    for mine in seen:
        for normal, game in mine:
            assert by_string.setdefault(normal, game) is game
    assert len(by_string) == 6            # durak, durak(players=2) and durak(ranks=9) are one
    assert len(games._GAMES) <= games.MAX_GAMES_CACHED
