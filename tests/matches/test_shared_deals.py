"""Shared deals and `koloda compare`: with `deals = "shared"` (`koloda match
--shared-deals`) every match of one seed plays the same cards whoever plays, so two agents'
matches against one opponent pair deal by deal; the comparison is that pairing, and what
cannot be paired is refused with one line naming why."""

import json
import math

import pytest

from koloda.cli.main import main
from koloda.tournament.compare import CompareError, compare, read_match
from koloda.tournament.config import ConfigError, config_from_dict
from koloda.tournament.schedule import build_schedule

TINY = "durak(hand_size=3,ranks=4,suits=2)"


def _gauntlet(deals=None, seed=5):
    data = {"name": "g", "schedule": "gauntlet", "games": [TINY], "seed": seed,
            "agents": {"a": "ismcts(sims=10)", "b": "ismcts(sims=20)", "r": "random"},
            "match": [{"agent": "a", "opponent": "r", "games": 8},
                      {"agent": "b", "opponent": "r", "games": 8}]}
    if deals is not None:
        data["deals"] = deals
    return config_from_dict(data)


def _seeds(config):
    by_match = {}
    for task in build_schedule(config):
        by_match.setdefault(task.match.agent, []).append((task.deal, task.seed))
    return by_match


def test_shared_deals_give_every_match_the_same_cards_and_per_match_deals_do_not():
    shared, own = _seeds(_gauntlet("shared")), _seeds(_gauntlet())
    assert shared["a"] == shared["b"]
    assert [s for _, s in own["a"]] != [s for _, s in own["b"]]
    assert _seeds(_gauntlet("per-match")) == own              # the default, unchanged
    assert _seeds(_gauntlet("shared", seed=6))["a"] != shared["a"]


def test_the_deals_field_is_checked():
    with pytest.raises(ConfigError, match=r"deals 'pooled' is unknown; deals are "
                                          r"per-match, shared$"):
        _gauntlet("pooled")
    with pytest.raises(ConfigError, match="field deals says how a gauntlet's matches are "
                                          "dealt; a round-robin deals every table"):
        config_from_dict({"name": "rr", "games": [TINY], "games_per_pairing": 2,
                          "agents": {"a": "random", "b": "heuristic"}, "deals": "shared"})


def _match(tmp_path, name, agent, opponent="random", *extra):
    argv = ["match", agent, opponent, "--game", TINY, "--games", "24", "--seed", "3",
            "--jobs", "1", "--output", str(tmp_path), "--name", name, *extra]
    assert main(argv) == 0
    return str(tmp_path / f"{name}.jsonl")


def _plain_paired_difference(first, second):
    """The reference: each file's agent score per deal seed, averaged, then differenced."""
    def per_deal(path):
        deals = {}
        for line in open(path):
            game = json.loads(line)
            seat = int(game["id"].split("/")[3])
            returns = game["returns"]
            won = 0.5 if len(set(returns)) == 1 else float(returns[seat] == max(returns))
            deals.setdefault(game["seed"], []).append(won)
        return {seed: sum(v) / len(v) for seed, v in deals.items()}
    a, b = per_deal(first), per_deal(second)
    common = sorted(set(a) & set(b))
    return len(common), sum(a[s] - b[s] for s in common) / len(common)


def test_matches_with_shared_deals_compare_deal_by_deal(tmp_path, capfd):
    strong = _match(tmp_path, "strong", "ismcts(sims=30)", "random", "--shared-deals")
    weak = _match(tmp_path, "weak", "ismcts(sims=3)", "random", "--shared-deals")
    capfd.readouterr()
    comparison = compare(read_match(strong), read_match(weak))
    deals, difference = _plain_paired_difference(strong, weak)
    assert comparison.deals == deals == 12
    assert comparison.difference == pytest.approx(difference)
    assert comparison.low < comparison.difference < comparison.high
    assert main(["compare", strong, weak]) == 0
    out = capfd.readouterr().out.splitlines()
    assert out[0].startswith(f"first: ismcts(sims=30) against random on {TINY} ({strong}): "
                             f"24 games, 12 deals, score ")
    assert out[2].startswith(f"paired on the 12 deals both played: first - second = "
                             f"{100 * difference:+.1f} points [")


def test_what_cannot_be_paired_is_refused_with_one_line(tmp_path, capfd):
    shared = _match(tmp_path, "shared", "ismcts(sims=30)", "random", "--shared-deals")
    own = _match(tmp_path, "own", "ismcts(sims=3)", "random")
    other_opponent = _match(tmp_path, "vs-heuristic", "ismcts(sims=3)", "heuristic",
                            "--shared-deals")
    capfd.readouterr()
    with pytest.raises(CompareError, match=r"have 0 deals in common, and a paired interval "
                                           r"needs two; play both with `koloda match "
                                           r"--shared-deals` and the same --seed$"):
        compare(read_match(shared), read_match(own))
    with pytest.raises(CompareError, match="against random and .* against heuristic: "
                                           "compare needs one opponent$"):
        compare(read_match(shared), read_match(other_opponent))
    both = tmp_path / "both.jsonl"
    both.write_text(open(shared).read() + open(other_opponent).read())
    with pytest.raises(CompareError, match=r"holds the games of 2 matches"):
        read_match(str(both))
    line = json.loads(open(shared).readline())
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text(json.dumps(dict(line, id="a round-robin game")) + "\n")
    with pytest.raises(CompareError, match="game id 'a round-robin game' is not a gauntlet "
                                           "match's"):
        read_match(str(renamed))
    torn = tmp_path / "torn.jsonl"
    torn.write_text("{\"id\": 3}\n")
    for first, second in ((shared, str(tmp_path / "absent.jsonl")), (shared, str(torn))):
        assert main(["compare", first, second]) == 2
        err = capfd.readouterr().err
        assert err.startswith("koloda: error: ") and err.count("\n") == 1, err
    assert not math.isnan(read_match(shared).even)


def test_only_deals_finished_in_both_files_are_paired(tmp_path, capfd):
    """An interrupted match (its last games missing) against a whole one of the same
    agent on the same deals: the agent equals itself, 0 points, however the interruption
    fell."""
    whole = _match(tmp_path, "whole", "random", "random", "--shared-deals")
    capfd.readouterr()
    lines = open(whole).read().splitlines()
    cut = tmp_path / "cut.jsonl"          # deals 0-3 whole, then seat 0's games only
    cut.write_text("\n".join(line for i, line in enumerate(lines) if i % 2 == 0 or i < 8)
                   + "\n")
    half = read_match(str(cut))
    assert half.partial == 8 and len(half.deals) == 4
    comparison = compare(read_match(whole), half)
    assert comparison.deals == 4 and comparison.difference == 0.0
    assert main(["compare", whole, str(cut)]) == 0
    out = capfd.readouterr().out
    assert "8 games of deals not played from every seat left out" in out
    assert "paired on the 4 deals both played: first - second = +0.0 points" in out
