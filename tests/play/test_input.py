"""What a person types at the prompt: a number, a move in notation (as listed, symbols
or letters, any case), a command, or something wrong."""

from koloda.play.typed import Choice, read_choice

LEGAL = ["beat As", "beat Th", "take"]


def test_a_number_picks_a_listed_move():
    assert read_choice("1", LEGAL) == Choice("move", "beat As")
    assert read_choice(" 3 ", LEGAL) == Choice("move", "take")


def test_a_number_that_is_no_move():
    for typed in ("0", "4", "99"):
        choice = read_choice(typed, LEGAL)
        assert choice.kind == "error"
        assert choice.text == f"no move {typed}: type a number from 1 to 3, or a move as listed"


def test_a_move_in_notation_as_listed():
    assert read_choice("take", LEGAL) == Choice("move", "take")
    assert read_choice("BEAT as", LEGAL) == Choice("move", "beat As")
    assert read_choice("beat  A♠", LEGAL) == Choice("move", "beat As")
    assert read_choice("beat 10♥", LEGAL) == Choice("move", "beat Th")
    assert read_choice("9♥ d2", ["9h d2"]) == Choice("move", "9h d2")


def test_anything_else_goes_to_the_game_to_judge():
    # not listed: the protocol says whether it is malformed or illegal
    assert read_choice("attack 7s", LEGAL) == Choice("move", "attack 7s")
    assert read_choice("fly away", LEGAL) == Choice("move", "fly away")


def test_commands():
    assert read_choice("hint", LEGAL).kind == "hint"
    assert read_choice("?", LEGAL).kind == "hint"
    assert read_choice("Help", LEGAL).kind == "help"
    for typed in ("quit", "q", "exit"):
        assert read_choice(typed, LEGAL).kind == "quit"
    assert read_choice("   ", LEGAL).kind == "empty"


def test_digits_that_are_no_move_number_are_an_error_not_a_crash():
    assert read_choice("²", LEGAL) == Choice(
        "error", "no move ²: type a number from 1 to 3, or a move as listed")
    assert read_choice("١", LEGAL).kind == "error"
    choice = read_choice("9" * 5000, LEGAL)
    assert choice.kind == "error" and len(choice.text) < 100
    assert choice.text.startswith("no move 99999999999999999999...: type a number")


def test_bad_input_at_the_prompt_gets_a_line_and_the_prompt_again(tmp_path):
    import io
    import json

    from koloda.play.table import PlayOptions, Table

    typed = iter(["²", "9" * 5000, "\x00", "beat " + "x" * 10_000, "quit"])
    prompts = []

    def read_line(prompt):
        prompts.append(prompt)
        return next(typed)

    out, path = io.StringIO(), tmp_path / "game.json"
    options = PlayOptions("durak(ranks=6,suits=2,hand_size=3)", ["random"], seed=3,
                          record=path, delay=0)
    assert Table(options, out, read_line).run() == 0
    assert len(prompts) == 5
    assert out.getvalue().count("  no move ") == 2
    assert "you quit; the game so far is saved in" in out.getvalue()
    assert json.loads(path.read_text())["players"] == ["you", "random"]
