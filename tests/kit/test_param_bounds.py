"""Bounds on everything a game string or an agent spec can carry: every number has a range,
every text a length and an encoding, every message a size; and every game string that
passes the checks loads and plays."""

import itertools
import random

import pytest

from koloda import games, solvers
from koloda.games.errors import GameParameterError
from koloda.games.kit.params import MAX_TEXT, Param, format_call, parse_call, validate

C_INT_MAX = 2**31 - 1      # OpenSpiel's GameParameters hold a game's ints as C++ int


class Oops(ValueError):
    pass


def parse(text):
    return parse_call(text, "thing", Oops)


def every_param():
    for spec in games.catalog():
        for param in spec.parameters:
            yield f"game {spec.name}", param
    for kind in solvers.agent_kinds():
        for param in kind.params:
            yield f"agent {kind.name}", param


def unbounded(owner: str, param: Param) -> str | None:
    """What `param` lacks of its bounds, or None."""
    if param.type in (int, float):
        if param.low is None or param.high is None:
            return "a low and a high"
        if owner.startswith("game") and param.type is int \
                and not -C_INT_MAX <= param.low <= param.high <= C_INT_MAX:
            return "bounds within a C++ int"
    elif param.type is str and param.choices is None and param.max_length > MAX_TEXT:
        return f"a length of at most {MAX_TEXT}"
    return None


def test_every_parameter_of_every_game_and_agent_is_bounded():
    """Numbers have both bounds (a game's ints fit OpenSpiel's C++ int), texts a length."""
    lacking = {f"{owner} {param.name}": unbounded(owner, param)
               for owner, param in every_param()}
    assert {name: what for name, what in lacking.items() if what} == {}


@pytest.mark.parametrize("digits", [21, 4400])
def test_integers_of_more_than_20_digits_are_refused_by_a_short_message(digits):
    assert parse("x(a=-99999999999999999999)") == ("x", {"a": -99999999999999999999})
    number = "9" * digits
    with pytest.raises(Oops, match=rf"sims=9{{20}}\.\.\. has too many digits \({digits}\)") \
            as caught:
        parse(f"x(sims={number})")
    assert len(str(caught.value)) < 200


def test_a_float_beyond_the_range_of_floats_is_refused_not_read_as_infinity():
    with pytest.raises(Oops, match="uct_c=1e400 is too large for a number"):
        parse("x(uct_c=1e400)")


@pytest.mark.parametrize("text", [
    "9" * 60_000, "x(" + "a" * 60_000, "x(a=" + "b c" * 20_000 + ")",
    "x(" + "a" * 60_000 + ")", 'x(a="' + "b" * 60_000, "x(a=1," + "b=(" * 20_000 + ")",
    ["x"] * 60_000,
], ids=["name", "open", "spaces", "no-value", "quote", "paren", "list"])
def test_a_message_about_a_huge_text_stays_short(text):
    with pytest.raises(Oops) as caught:
        parse(text)
    assert len(str(caught.value)) < 400


def test_a_message_about_many_unknown_parameters_stays_short():
    raw = {f"k{i}" * 50: 1 for i in range(10_000)}
    with pytest.raises(Oops, match="has no parameter 'k0k0.* and 9995 more") as caught:
        validate((Param("n", int, 1, "a count", low=0, high=9),), raw, "g", Oops)
    assert len(str(caught.value)) < 400


TEXT = Param("mode", str, "a", "some text")


@pytest.mark.parametrize("value", ["\ud800", "a\udfffb", "a\x00b"])
def test_text_that_utf8_cannot_carry_is_refused(value):
    with pytest.raises(Oops, match="mode must be text that UTF-8 can write"):
        validate((TEXT,), {"mode": value}, "g", Oops)


def test_text_is_bounded_in_length_and_the_message_cuts_it():
    assert validate((TEXT,), {"mode": "é" * MAX_TEXT}, "g", Oops)["mode"] == "é" * MAX_TEXT
    with pytest.raises(Oops, match=f"mode must be at most {MAX_TEXT} characters, not 100000") \
            as caught:
        validate((TEXT,), {"mode": "y" * 100_000}, "g", Oops)
    assert len(str(caught.value)) < 200
    short = Param("pos", str, "", "a position", max_length=5)
    with pytest.raises(Oops, match="pos must be at most 5 characters, not 6"):
        validate((short,), {"pos": "abcdef"}, "g", Oops)


def test_an_int_too_large_for_a_float_parameter_is_refused_as_not_finite():
    c = Param("c", float, 0.5, "a constant", low=0.0, high=1.0)
    with pytest.raises(Oops, match="c must be a finite number"):
        validate((c,), {"c": 10**400}, "g", Oops)


def test_values_out_of_range_are_cut_in_the_message():
    n = Param("n", int, 1, "a count", low=0, high=9)
    with pytest.raises(Oops, match=r"n must be 0..9, not 1{20}\.\.\.$"):
        validate((n,), {"n": int("1" * 500)}, "g", Oops)
    with pytest.raises(Oops, match=r"n must be int \(like n=1\), not '2{20}'\.\.\.$"):
        validate((n,), {"n": "2" * 500}, "g", Oops)


# Edge values of every parameter; those that size the deal are tried in every combination.
DEAL_PARAMS = {
    "durak": ("players", "ranks", "suits", "hand_size"),
    "platinum_fish": ("players", "ranks", "copies", "min_hand", "max_hand"),
    "snitch": ("players", "hand_size", "ranks", "copies"),
    "parket": (),
}


def edge_values(param: Param) -> list:
    if param.choices is not None:
        return list(param.choices)
    if param.type is int:
        return sorted({param.low, param.low + 1, param.default, param.high - 1, param.high})
    if param.type is str:
        return [param.default, "\ud800", "a\x00", "x" * (param.max_length + 1)]
    return [param.default]


def edge_game_strings(spec) -> list[str]:
    by_name = {p.name: p for p in spec.parameters}
    deal = DEAL_PARAMS[spec.name]
    strings = [format_call(spec.name, dict(zip(deal, values)))
               for values in itertools.product(*(edge_values(by_name[n]) for n in deal))]
    for param in spec.parameters:
        if param.name not in deal:
            strings += [format_call(spec.name, {param.name: v}) for v in edge_values(param)]
    return strings


def play_a_little(game, seed: int, moves: int = 20) -> None:
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            action = rng.choice(state.legal_actions())
            state.action_to_string(state.current_player(), action)
            state.apply_action(action)


@pytest.mark.parametrize("spec", games.catalog(), ids=lambda spec: spec.name)
def test_a_game_string_that_passes_the_checks_loads_and_plays(spec):
    """At the edges of every range: either normalize_game_string refuses the string (and
    load_game with it) with GameParameterError, or the game loads and plays."""
    played = 0
    for seed, text in enumerate(edge_game_strings(spec)):
        try:
            normal = games.normalize_game_string(text)
        except GameParameterError:
            with pytest.raises(GameParameterError):
                games.load_game(text)
            continue
        game = games.load_game(text)
        assert str(games.load_game(normal)) == str(game)
        play_a_little(game, seed)
        played += 1
    assert played >= 5
