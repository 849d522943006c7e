"""`observe` with unknown outcomes: koloda guesses what the app's seat did not see and
redraws its guesses when a later action contradicts them."""

import random

import pytest

from .helpers import Server, play_between_sessions, seen_by


@pytest.mark.slow
@pytest.mark.parametrize("game, seed", [
    ("durak", 1), ("durak", 2), ("durak(players=3)", 3), ("snitch(target_score=0)", 4),
    # no stock: the dealer's last card shows the trump to all, and the first attacker (who
    # holds the lowest trump) depends on guessed hands
    ("durak(players=6)", 3), ("durak(hand_size=3,ranks=3,suits=2)", 4)])
def test_a_whole_game_between_sessions_keeps_every_seats_view_true(game, seed):
    server = Server()
    moves, returns, sessions = play_between_sessions(server, game, seed)
    assert moves > 5
    assert sum(returns) == pytest.approx(0.0)
    for session in sessions:
        end = server.ok(type="state", session=session)["view"]
        assert end["status"] == "over" and end["returns"] == returns


def test_search_agents_play_a_whole_game_from_guessed_cards():
    moves, returns, _ = play_between_sessions(Server(), "durak", 5, agent="ismcts(sims=20)")
    assert moves > 10 and sorted(returns) == [-1.0, 1.0]


def _app_dealt_durak(server, seed=7):
    table = server.ok(type="new", game="durak", seats=[0, 1], seed=seed)
    player = server.ok(type="new", game="durak", seats=[0], dealer="app", seed=seed)
    return table, player["session"]


def test_an_unknown_outcome_the_seat_would_see_is_refused():
    server = Server()
    _, session = _app_dealt_durak(server)
    reply = server.send(type="observe", session=session, actions=["deal ?"])
    assert reply["error"]["code"] == "illegal_action"
    assert "p0 sees this outcome" in reply["error"]["message"]
    assert reply["error"]["index"] == 0


def test_the_wrong_chance_verb_or_an_unknown_decision_is_out_of_turn():
    server = Server()
    _, session = _app_dealt_durak(server)
    assert server.code(type="observe", session=session, actions=["draw 7s"]) == "out_of_turn"
    assert server.code(type="observe", session=session, actions=["attack 7s"]) == "out_of_turn"


def test_whose_turn_is_unknown_while_it_depends_on_guessed_cards():
    """Durak's first attacker holds the lowest trump: until the first attack the seat
    often cannot know who it is, and then the view does not say; `hint` still answers
    when the app says it is its turn."""
    server = Server()
    unknown = []
    for seed in range(12):
        table, session = _app_dealt_durak(server, seed)
        view = server.ok(type="observe", session=session,
                         actions=seen_by(table["events"], 0))["view"]
        if view["to_move"] is None:
            assert "unknown" in view["turn"] and "legal" not in view
            unknown.append((table, session))
    assert len(unknown) >= 3
    for table, session in unknown:
        first = table["view"]["to_move"]
        if first == 0:                       # the app knows it is its turn: hint answers
            hint = server.ok(type="hint", session=session, agent="heuristic")
            assert hint["player"] == 0 and hint["action"] in table["view"]["legal"]
        else:                                # p1's attack tells whose turn it was
            attack = server.ok(type="hint", session=_seat_one(server, table),
                               agent="heuristic")["action"]
            view = server.ok(type="observe", session=session,
                             actions=[f"p1 {attack}"])["view"]
            assert view["to_move"] == 0


def _seat_one(server, table):
    session = server.ok(type="new", game="durak", seats=[1], dealer="app", seed=1)["session"]
    server.ok(type="observe", session=session, actions=seen_by(table["events"], 1))
    return session


def test_koloda_will_not_play_a_seat_whose_cards_it_guessed():
    server = Server()
    seed = next(s for s in range(50)
                if server.ok(type="new", game="durak", seats=[0, 1], seed=s)["view"]["to_move"]
                == 0)
    table, session = _app_dealt_durak(server, seed)
    server.ok(type="observe", session=session, actions=seen_by(table["events"], 0))
    attack = table["view"]["legal"][0]
    view = server.ok(type="observe", session=session, actions=[f"p0 {attack}"])["view"]
    assert view["to_move"] == 1
    reply = server.send(type="move", session=session, agent="random")
    assert reply["error"]["code"] == "hidden_information"
    assert "p1" in reply["error"]["message"]


def test_an_opponents_action_no_deal_allows_is_illegal():
    """p1 cannot attack with a card p0 holds, whatever the guesses."""
    server = Server()
    table, session = _app_dealt_durak(server, seed=2)
    view = server.ok(type="observe", session=session,
                     actions=seen_by(table["events"], 0))["view"]
    own = view["seats"][0]["hand"][0]
    reply = server.send(type="observe", session=session, actions=[f"p1 attack {own}"])
    assert reply["error"]["code"] in ("illegal_action", "out_of_turn")
    assert server.ok(type="state", session=session)["view"]["event_count"] == 13


def test_a_failed_observe_list_changes_nothing():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=4)
    before = server.ok(type="state", session=session["session"])["view"]
    first = before["legal"][0]
    reply = server.send(type="observe", session=session["session"], actions=[first, "attack Zz"])
    assert reply["error"]["code"] == "malformed_action" and reply["error"]["index"] == 1
    assert server.ok(type="state", session=session["session"])["view"] == before


@pytest.mark.parametrize("game", ["durak", "platinum_fish", "snitch"])
def test_redrawn_worlds_do_not_keep_the_positions_cached_legal_actions(game):
    """A determinizer's worlds hold other hands: their legal actions are their own."""
    from koloda import games
    state = games.load_game(game).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node() or len(state.history()) < 40:
        outcomes = state.legal_actions()
        state.apply_action(rng.choice(outcomes))
        if state.is_terminal():
            pytest.skip("the game ended early")
    state.legal_actions()                   # caches the position's legal actions
    worlds = state.determinizer(state.current_player() ^ 1)
    for _ in range(20):
        world = worlds.sample(rng)
        cached = list(world.legal_actions())
        world._legal = None
        assert cached == list(world.legal_actions())


@pytest.mark.parametrize("game, seed", [("platinum_fish", 1), ("platinum_fish", 2),
                                        ("snitch(target_score=0)", 5)])
def test_what_followed_in_public_keeps_guesses_true(game, seed):
    """Platinum Fish lays a dealt hand's pairs at once, in public: an app that sends what
    followed each action (`then`) keeps koloda's guesses in line with it."""
    moves, returns, _ = play_between_sessions(Server(), game, seed, then=True)
    assert moves > 10 and sum(returns) == pytest.approx(0.0)


def test_an_outcome_not_followed_by_what_the_app_says_is_refused():
    server = Server()
    session = server.ok(type="new", game="durak", seats=[0, 1], seed=1)["session"]
    legal = server.ok(type="state", session=session)["view"]["legal"][0]
    reply = server.send(type="observe", session=session,
                        actions=[{"action": legal, "then": ["p1 lays T"]}])
    assert reply["error"]["code"] == "illegal_action" and "p1 lays T" in reply["error"]["message"]
    reply = server.send(type="observe", session=session, actions=[{"action": legal, "x": 1}])
    assert reply["error"]["code"] == "bad_request"


def test_one_request_may_only_spend_so_long_redrawing(monkeypatch):
    import koloda.protocol.session
    server = Server()
    for seed in range(40):
        table, session = _app_dealt_durak(server, seed)
        if table["view"]["to_move"] != 1:
            continue
        server.ok(type="observe", session=session, actions=seen_by(table["events"], 0))
        world = server.protocol.sessions[session].state
        for card in table["view"]["seats"][1]["hand"]:
            action = world.parse_action(f"attack {card}")
            if not (world.core.is_legal(action) and world.current_player() == 1):
                break                        # koloda's guesses must be redrawn for it
        else:
            continue
        monkeypatch.setattr(koloda.protocol.session, "REQUEST_SECONDS", 0.0)
        reply = server.send(type="observe", session=session, actions=[f"p1 attack {card}"])
        assert reply["error"]["code"] == "limit"
        monkeypatch.setattr(koloda.protocol.session, "REQUEST_SECONDS", 5.0)
        assert server.ok(type="observe", session=session, actions=[f"p1 attack {card}"])
        return
    pytest.fail("no deal needed a redraw")
