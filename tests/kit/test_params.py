"""One grammar for game strings and agent specs: strict, typed, round-tripping."""

import math

import pytest

from koloda import games, solvers
from koloda.games.errors import GameParameterError
from koloda.games.kit.params import Param, format_call, parse_call, validate
from koloda.solvers import AgentSpecError


class Oops(ValueError):
    pass


def parse(text):
    return parse_call(text, "thing", Oops)


@pytest.mark.parametrize("text, expected", [
    ("durak", ("durak", {})),
    ("durak()", ("durak", {})),
    (" durak( players = 3 , lead=from_under ) ", ("durak", {"players": 3, "lead": "from_under"})),
    ("x(a=-12,b=0.5,c=1e-3,d=true,e=FALSE,f=.5)",
     ("x", {"a": -12, "b": 0.5, "c": 1e-3, "d": True, "e": False, "f": 0.5})),
    ('x(p="a,b(c).json",q=\'say "hi"\',r=reports/x.json)',
     ("x", {"p": "a,b(c).json", "q": 'say "hi"', "r": "reports/x.json"})),
])
def test_calls_parse_to_a_name_and_typed_values(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize("text, says", [
    ("", "expected name"),
    ("9lives", "expected name"),
    ("x(a=1", "expected name"),
    ("x(a)", "not key=value"),
    ("x(=1)", "not key=value"),
    ("x(a=1,a=2)", "given twice"),
    ("x(a=1,,b=2)", "empty parameter"),
    ("x(a=1,)", "empty parameter"),
    ("x(a=f(1))", "quote the value"),
    ('x(a="open)', "unterminated quote"),
    ("x(a=two words)", "cannot read the value"),
    (None, "must be a string"),
])
def test_malformed_calls_are_refused_saying_why(text, says):
    with pytest.raises(Oops, match=says):
        parse(text)


@pytest.mark.parametrize("token", ["٣", "３", "٣٣"])
def test_digits_of_other_scripts_are_refused(token):
    """Python's int() reads these as numbers; the grammar does not read them at all."""
    with pytest.raises(Oops, match="cannot read the value"):
        parse(f"x(a={token})")


@pytest.mark.parametrize("token", ["+3", "1_000", "0x10"])
def test_only_plain_integers_are_numbers(token):
    """Python's int() reads these; the grammar leaves them as text, which an int
    parameter then refuses."""
    value = parse(f"x(a={token})")[1]["a"]
    assert isinstance(value, str)
    with pytest.raises(Oops, match="must be int"):
        validate((Param("a", int, 1, "a count"),), {"a": value}, "x", Oops)


@pytest.mark.parametrize("params", [
    {}, {"a": 1}, {"b": -2.5, "a": 0}, {"s": "a,b"}, {"s": "7"}, {"s": "true"}, {"s": ""},
    {"s": 'q"uote'}, {"flag": False}, {"path": "reports/a-b_c.json"},
])
def test_format_call_round_trips(params):
    text = format_call("x", params)
    assert parse(text) == ("x", params)


def test_validate_fills_defaults_and_checks_types_ranges_and_choices():
    spec = (Param("n", int, 2, "players", low=2, high=6),
            Param("c", float, 0.7, "constant", low=0.0),
            Param("mode", str, "path", "rule", choices=("path", "any")))
    assert validate(spec, {}, "g", Oops) == {"n": 2, "c": 0.7, "mode": "path"}
    assert validate(spec, {"c": 1}, "g", Oops)["c"] == 1.0
    for raw, says in [({"n": 7}, "n must be 2..6, not 7"), ({"n": True}, "n must be int"),
                      ({"c": -0.1}, "c must be at least 0.0"),
                      ({"c": math.nan}, "finite"), ({"c": math.inf}, "finite"),
                      ({"mode": "all"}, "mode must be path or any, not all"),
                      ({"m": 1}, "g has no parameter 'm'; its parameters: n")]:
        with pytest.raises(Oops, match=says):
            validate(spec, raw, "g", Oops)


@pytest.mark.parametrize("body, says", [
    ("a=1,a=2", "given twice"), ("a=1,,b=2", "empty parameter"), ("a", "not key=value"),
])
def test_game_strings_and_agent_specs_share_the_grammar(body, says):
    with pytest.raises(GameParameterError, match=says):
        games.load_game(f"durak({body})")
    with pytest.raises(AgentSpecError, match=says):
        solvers.load_agent(games.load_game("durak"), f"ismcts({body})")


@pytest.mark.parametrize("game_string", ["durak(ranks=٣)", "durak(players=+3)",
                                         "durak(ranks=6,ranks=7)", "durak(players=3,,)"])
def test_game_strings_are_as_strict_as_agent_specs(game_string):
    with pytest.raises(GameParameterError):
        games.load_game(game_string)


def test_normalized_game_strings_drop_defaults_and_sort():
    assert games.normalize_game_string("durak()") == "durak"
    assert games.normalize_game_string("durak(players=2)") == "durak"
    assert (games.normalize_game_string("durak(ranks=13, players=4)")
            == "durak(players=4,ranks=13)")
