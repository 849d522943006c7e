"""The page of `koloda serve --http` in a real headless browser: whole games of Durak and
Parket played by clicking legal cards, cells and buttons (with one bad click, one action
typed wrong and one hint), the result and the record at the end, and watch mode for every
game.  Screenshots go to reports/screenshots/ (the same names on every run)."""

import json
import random

import pytest

from koloda import games
from koloda.protocol.client import Client
from koloda.protocol.record import check_record, replay
from koloda.solvers.parket import solve_state

MAX_TURNS = 400


def _start(page, game: str, params: dict, agents: dict, mode: str = "play", seed: int = 7,
           hint_agent: str | None = None, think_ms: int = 100):
    page.select_option("#game", game)
    page.check(f"input[name=mode][value={mode}]")
    if params:
        page.click("#rules summary")
        for name, value in params.items():
            page.fill(f"#param-{name}", str(value))
    for seat, agent in agents.items():
        page.select_option(f"#agent-{seat}", agent)
    if hint_agent:
        page.select_option("#hint-agent", hint_agent)
    page.fill("#think-ms", str(think_ms))
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    page.select_option("#speed", "0")


def _events(page) -> int:
    return int(page.get_attribute("body", "data-events") or 0)


def _wait_for_turn(page) -> str:
    """Wait until it is the person's turn or the game is over; which."""
    page.wait_for_function("['me', 'over'].includes(document.body.dataset.turn)")
    return page.get_attribute("body", "data-turn")


def _after(page, before: int) -> None:
    """Wait until the move just clicked is played (or the game is over)."""
    page.wait_for_function(f"document.body.dataset.turn === 'over' || "
                           f"Number(document.body.dataset.events) > {before}")


def _errors(page) -> int:
    """How many error replies the page has shown."""
    return int(page.get_attribute("body", "data-errors") or 0)


def _check_end(page, game_string: str, players: list[str], errors: int = 0) -> dict:
    page.wait_for_selector("#end:not([hidden])")
    assert _errors(page) == errors, page.text_content("#message")
    assert page.get_attribute("body", "data-phase") == "over"
    record = check_record(json.loads(page.input_value("#record")))
    assert record["game"] == games.normalize_game_string(game_string)
    assert record["players"] == players
    _, state = replay(record)
    assert state.is_terminal() and list(state.returns()) == record["returns"]
    assert page.text_content("#replay-command").startswith("koloda show --record koloda-")
    assert page.get_attribute("#download", "href").startswith("blob:")
    return record


def _hint(page) -> None:
    page.click("#hint")
    page.wait_for_selector("#hint-result ol.policy li")
    assert "suggests" in page.text_content("#hint-result")
    shares = page.locator("#hint-result .pct").all_text_contents()
    assert shares and all(text.endswith("%") for text in shares)


def test_a_whole_game_of_durak_by_clicks(page, screenshots):
    game = "durak(ranks=6,suits=2,hand_size=3)"
    page.screenshot(path=screenshots / "setup.png")
    _start(page, "durak", {"ranks": 6, "suits": 2, "hand_size": 3}, {1: "random"},
           hint_agent="ismcts")
    rng = random.Random(3)
    bad_click = typed = hinted = False
    for turn in range(MAX_TURNS):
        if _wait_for_turn(page) == "over":
            break
        if turn == 0:
            page.screenshot(path=screenshots / "durak-start.png")
        idle = page.locator("#me .card:not(.playable)")
        if not bad_click and idle.count():
            before = _events(page)
            idle.first.click()
            page.wait_for_selector("#message:not([hidden])")
            assert "cannot be played now" in page.text_content("#message")
            assert _events(page) == before and page.get_attribute("body", "data-turn") == "me"
            bad_click = True
        if not typed:
            page.fill("#typed-action", "attack Zz")
            page.click("#typed-form button")
            page.wait_for_selector("#message:has-text('malformed_action')")
            assert page.get_attribute("body", "data-turn") == "me"
            typed = True
        if not hinted and turn >= 1:
            _hint(page)
            page.screenshot(path=screenshots / "durak-play.png")
            hinted = True
        choices = page.locator("#me .card.playable, #actions button.action")
        assert choices.count() > 0
        before = _events(page)
        choices.nth(rng.randrange(choices.count())).click()
        _after(page, before)
    else:
        pytest.fail("the game did not end")
    assert bad_click and typed and hinted
    _check_end(page, game, ["you", "random"], errors=1)       # the action typed wrong
    page.screenshot(path=screenshots / "durak-end.png", full_page=True)


def test_a_whole_game_of_parket_by_clicks(page, screenshots):
    _start(page, "parket", {}, {1: "random"}, hint_agent="mcts")
    rng = random.Random(5)
    bad_click = hinted = False
    for turn in range(MAX_TURNS):
        if _wait_for_turn(page) == "over":
            break
        cards = page.locator("#me .card.playable")
        if not cards.count():                              # only relocations are legal
            cards = page.locator("#table .cell .card.playable")
        cards.nth(rng.randrange(cards.count())).click()
        page.wait_for_selector("#table .cell.target")
        if not bad_click:
            wrong = page.locator("#table .cell:not(.target):not(:has(.card))")
            before = _events(page)
            wrong.first.click()
            page.wait_for_selector("#message:not([hidden])")
            assert "cannot go on" in page.text_content("#message")
            assert _events(page) == before and page.get_attribute("body", "data-turn") == "me"
            bad_click = True
        if not hinted and turn >= 2:
            _hint(page)
            page.screenshot(path=screenshots / "parket-play.png")
            hinted = True
        cells = page.locator("#table .cell.target")
        before = _events(page)
        cells.nth(rng.randrange(cells.count())).click()
        _after(page, before)
    else:
        pytest.fail("the game did not end")
    assert bad_click and hinted
    record = _check_end(page, "parket", ["you", "random"])
    page.wait_for_selector("#analysis[data-done=true]")
    _check_analysis(page, record)
    page.screenshot(path=screenshots / "parket-end.png", full_page=True)


def _check_analysis(page, record) -> None:
    """The page's verdict on each move is the solver's: every move it says threw a value
    away did, and it names every such move from the first one solved."""
    reach = page.text_content("#analysis-reach")
    assert reach.startswith("solved from move "), reach
    first = int(reach.split()[3])
    game, end = replay(record)
    state = game.new_initial_state()
    expected = []
    for number, action in enumerate(end.history(), start=1):
        if number >= first:
            result = solve_state(state)
            played = next(m for m in result.moves if m.action == action)
            if played.value != result.value:
                kept = ", ".join(m.move for m in result.moves if m.value == result.value)
                who = "you" if state.current_player() == 0 else "p1"
                expected.append(f"{who}, move {number} ({played.move}), turned a "
                                f"{result.value} into a {played.value}; {kept} kept it")
        state.apply_action(action)
    shown = page.locator("#analysis-moves li").all_text_contents()
    assert shown == (expected or ["no move within reach threw a win or a draw away"])


def test_each_game_opens_against_the_opponent_hello_names(page):
    for spec in games.catalog():
        page.select_option("#game", spec.name)
        assert page.input_value("#hint-agent") == spec.opponent
        seats = page.locator("#seat-agents select")
        assert seats.count() >= 1
        assert {seats.nth(i).input_value() for i in range(seats.count())} == {spec.opponent}
    page.select_option("#game", "durak")
    page.select_option("#agent-1", "random")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    assert [page.input_value(f"#agent-{i}") for i in (1, 2)] == \
        ["random", games.GAMES["durak"].opponent]      # a seat's choice stays
    page.select_option("#game", "parket")
    assert page.input_value("#agent-1") == "solver"     # a new game starts afresh


def test_the_level_picker_seats_a_level_and_the_game_is_played_by_it(page):
    from koloda.solvers.levels import LEVELS
    page.select_option("#game", "durak")
    options = page.locator("#level option").all_text_contents()
    assert options[0] == "choose per seat" and len(options) == 1 + len(LEVELS["durak"])
    assert options[3].startswith("3: ")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    page.select_option("#level", "level(n=3)")
    assert [page.input_value(f"#agent-{i}") for i in (1, 2)] == ["level(n=3)"] * 2
    page.fill("#players", "2")
    page.dispatch_event("#players", "input")
    assert page.input_value("#agent-1") == "level(n=3)"        # the level stays chosen
    page.select_option("#agent-1", "random")
    assert page.input_value("#level") == ""                     # a seat chosen apart
    page.select_option("#level", "level(n=2)")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    page.select_option("#speed", "0")
    _wait_for_turn(page)
    assert "level(n=2)" in page.text_content("#seats")


WATCHED = [("durak", {"ranks": 6, "suits": 2, "hand_size": 3}, 2),
           ("platinum_fish", {"ranks": 6, "copies": 4}, 2),
           ("snitch", {"target_score": 0, "ranks": 6}, 3),
           ("parket", {}, 2)]


@pytest.mark.parametrize("game, params, players", WATCHED, ids=[w[0] for w in WATCHED])
def test_watch_agents_play_a_whole_game(page, screenshots, game, params, players):
    agents = {seat: "random" if seat else "heuristic" for seat in range(players)}
    _start(page, game, params, agents, mode="watch", seed=11)
    page.select_option("#speed", "300")
    page.wait_for_function("Number(document.body.dataset.events) > 12 || "
                           "document.body.dataset.turn === 'over'")
    shown = page.locator("#seats .seat").count()
    assert shown == players                                 # every seat, every hand shown
    page.click("#pause")
    page.wait_for_timeout(900)                              # the last move's slide ends
    page.screenshot(path=screenshots / f"watch-{game}.png")
    page.select_option("#speed", "0")
    page.click("#pause")                                    # resume
    game_string = page.text_content("#game-string")
    names = page.locator("#returns td:nth-child(2)")
    page.wait_for_selector("#end:not([hidden])", timeout=60_000)
    record = _check_end(page, game_string, names.all_text_contents())
    assert [name.split("(")[0] for name in record["players"]] == list(agents.values())
    if game == "parket":                        # the solver's verdict, as for a person
        page.wait_for_selector("#analysis[data-done=true]")
        assert page.text_content("#analysis-reach").startswith("solved from move ")
    else:
        assert page.is_hidden("#analysis")
    page.screenshot(path=screenshots / f"watch-{game}-end.png", full_page=True)


def test_the_page_plays_with_the_token_given_in_its_fragment(token_page, token_web_url):
    agents = {0: "heuristic", 1: "random"}
    _start(token_page, "durak", {"ranks": 6, "suits": 2, "hand_size": 3}, agents,
           mode="watch", seed=5)
    token_page.wait_for_selector("#end:not([hidden])", timeout=60_000)
    names = token_page.locator("#returns td:nth-child(2)").all_text_contents()
    record = _check_end(token_page, token_page.text_content("#game-string"), names)
    assert [name.split("(")[0] for name in record["players"]] == list(agents.values())
    first = token_page.evaluate("S.session")
    token_page.click("#again")          # a second game: the first is closed, with the token
    _start(token_page, "durak", {}, {1: "random"}, seed=3)
    if _wait_for_turn(token_page) == "me":
        _hint(token_page)
    assert _errors(token_page) == 0, token_page.text_content("#message")
    gone = Client.http(token_web_url).send({"type": "state", "session": first})
    assert gone["error"]["code"] == "unknown_session"


def test_without_the_token_the_page_says_what_it_needs(browser, token_web_url):
    context = browser.new_context()
    page = context.new_page()
    page.goto(token_web_url.split("#")[0])
    page.wait_for_function("document.querySelector('#setup-message').textContent !== ''")
    assert "token" in page.text_content("#setup-message")
    context.close()
