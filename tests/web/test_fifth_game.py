"""The page draws a game it has no drawing of its own for from the view's fields: Quintet
(tests/play/quintet.py, a fifth game on the kit, served by tests/web/quintet_server.py)
played to the end by its move buttons and watched with every hand shown; views put into the
page directly show that it draws only what the view holds, and that every koloda game
draws this way too."""

import random

import pytest
from play import quintet

from koloda.protocol.client import Client

from .test_browser import MAX_TURNS, _after, _check_end, _events, _hint, _start, _wait_for_turn

#: puts a protocol view into the page as the reply to `new` would, and draws it
SHOW = """([view, base]) => {
  Object.assign(S, { view, base, gameString: base, seed: undefined, players: seatTotal(view, 2),
    mySeat: view.seats[0].seat, watching: false, seats: [view.seats[0].seat], agents: {},
    specs: {}, last: {}, busy: false, selected: null, events: [] });
  document.querySelector("#setup").hidden = true;
  document.querySelector("#play").hidden = false;
  render();
  return ["#seats", "#table", "#me", "#actions"]
    .map((s) => document.querySelector(s).innerHTML).join("\\n");
}"""
CELLS = """[...document.querySelectorAll('#table .board .cell')].map((cell) => {
  const card = cell.querySelector('.card');
  return [cell.dataset.cell, card ? card.dataset.card : null];
})"""


@pytest.fixture(autouse=True)
def _quintet_is_a_koloda_game():
    """Here too, where records are checked and the deals made."""
    with quintet.registered():
        yield


def _field(page, name: str) -> str:
    return page.text_content(f"#table dl.fields [data-field={name}] dd")


def _cards(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "cards => cards.map((c) => c.dataset.card)")


def _check_drawing(page, seen: dict) -> None:
    """The page shows the view: the board cell by cell, the fields, the other seat's count
    and score, the person's hand."""
    expected = [[f"{'abcd'[c]}{r + 1}", card] for r, row in enumerate(seen["board"])
                for c, card in enumerate(row)]
    assert page.evaluate(CELLS) == expected
    assert _field(page, "stock") == str(seen["stock"])
    assert _field(page, "last") == ("-" if seen["last"] is None else page.evaluate(
        f"cardText({seen['last']!r})"))
    other = seen["players"][1]
    panel = page.text_content("#seat-1")
    assert f"{other['cards']} card" in panel and f"score {other['score']}" in panel
    assert page.locator("#seat-1 .card.back").count() == other["cards"]
    assert _cards(page, "#me .hand .card") == seen["hand"]


def test_the_page_plays_a_game_it_does_not_know_by_its_buttons(quintet_page):
    page = quintet_page
    _start(page, "quintet", {}, {1: "random"}, seed=3)
    rng = random.Random(4)
    for turn in range(MAX_TURNS):
        if _wait_for_turn(page) == "over":
            break
        view = page.evaluate("S.view")
        _check_drawing(page, view["seats"][0]["view"])
        buttons = page.locator("#actions button.action")
        assert [buttons.nth(i).get_attribute("data-action")
                for i in range(buttons.count())] == view["legal"]
        if turn == 1:
            _hint(page)
        before = _events(page)
        buttons.nth(rng.randrange(buttons.count())).click()
        _after(page, before)
    else:
        pytest.fail("the game did not end")
    _check_end(page, "quintet", ["you", "random"])
    assert page.locator("#table .board .cell .card").count() == 6      # the board is full


def test_watching_a_game_the_page_does_not_know_shows_every_hand(quintet_page):
    page = quintet_page
    page.select_option("#game", "quintet")
    page.check("input[name=mode][value=watch]")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    page.click("#rules summary")
    page.fill("#param-columns", "0")
    page.fill("#seed", "11")
    page.fill("#think-ms", "50")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    page.select_option("#speed", "300")
    page.wait_for_function("Number(document.body.dataset.events) > 8")
    page.click("#pause")
    page.wait_for_function("!S.busy && !S.advancing")   # the move under way is shown
    view = page.evaluate("S.view")
    assert page.locator("#seats .seat").count() == 3
    for entry in view["seats"]:
        assert _cards(page, f"#seat-{entry['seat']} .hand .card") == entry["view"]["hand"]
    assert _cards(page, "#table [data-field=pile] .card") == view["seats"][0]["view"]["pile"]
    page.select_option("#speed", "0")
    page.click("#pause")
    page.wait_for_selector("#end:not([hidden])", timeout=60_000)
    names = page.locator("#returns td:nth-child(2)").all_text_contents()
    record = _check_end(page, "quintet(columns=0,players=3)", names)
    assert [name.split("(")[0] for name in names] == ["random"] * 3
    assert len(record["actions"]) == 20                # ten cards dealt or drawn, ten laid


def test_the_page_draws_nothing_the_view_does_not_hold(quintet_page):
    """Two deals that differ only in p1's cards draw alike for p0, with no card p0 never
    saw; the card p1 just laid slides in on its cell."""
    views = quintet.views_of_two_deals()
    drawn = [quintet_page.evaluate(SHOW, [view, "quintet"]) for view in views]
    assert drawn[0] == drawn[1]
    shown = set(_cards(quintet_page, "#seats .card, #table .card, #me .card"))
    assert shown - {None} == set(quintet.SEEN_BY_P0)
    assert [card for card in sorted(quintet.unseen_by_p0()) if card in drawn[0]] == []
    _check_drawing(quintet_page, views[0]["seats"][0]["view"])
    quintet_page.evaluate("document.querySelector('#speed').value = '300'; "
                          "animate([{ player: 1, action: 'Kd b1' }])")
    assert "fresh" in quintet_page.get_attribute("#table [data-cell=b1] .card", "class")


@pytest.mark.parametrize("game, seats", [("durak(players=3)", [1]), ("platinum_fish", [0]),
                                         ("snitch(target_score=0)", [2]), ("parket", [0])])
def test_every_koloda_game_draws_as_an_unknown_one_too(quintet_page, game, seats):
    """Without its entry in PARTICULAR a koloda game is drawn from its view's fields: a
    field or a row of cards for each public field, a board as a grid of named cells."""
    client = Client.in_process()
    new = client.request("new", game=game, seats=seats, seed=4)
    base = game.split("(")[0]
    quintet_page.evaluate(f"delete PARTICULAR[{base!r}]")
    quintet_page.evaluate(SHOW, [new["view"], base])
    seen = new["view"]["seats"][0]["view"]
    public = [name for name in seen if name not in
              ("game", "seat", "hand", "players", "board", "to_move", "phase")]
    drawn = quintet_page.eval_on_selector_all("#table [data-field]",
                                              "els => els.map((e) => e.dataset.field)")
    assert sorted(drawn) == sorted(public)
    assert quintet_page.locator("#table .board .cell").count() == (35 if "board" in seen else 0)
    assert _cards(quintet_page, "#me .hand .card") == seen["hand"]
    if new["view"]["to_move"] in seats:
        assert quintet_page.locator("#actions button.action").count() == len(new["view"]["legal"])
