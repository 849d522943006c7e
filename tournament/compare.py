"""Two agents' matches against one opponent, compared deal by deal.

Cards decide much of a card game, so two agents measured on different deals differ by
their luck as much as by their play.  Matches dealt alike (`deals = "shared"`, `koloda
match --shared-deals`, the same seed) play the same cards, and the difference of the two
agents' scores deal by deal cancels the cards' share: the paired interval is narrower than
the two matches' own intervals together.  Deals are matched by their seed, so only the
deals both matches played count, and only whole: a deal counts once the agent has played
it from every seat (a match stopped halfway would otherwise pair one seat's game, with its
luck of the seat, against a whole deal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from koloda import games
from koloda.games.errors import KolodaError
from koloda.games.kit.outcomes import expected_score, score
from koloda.tournament import ratings
from koloda.tournament.results import read_results


class CompareError(KolodaError):
    """Two results files that cannot be compared (the message says why)."""


@dataclass(frozen=True)
class MatchScores:
    """One match's games: the agent's score in each, grouped by deal seed."""
    path: str
    game: str
    agent: str                         # the agent's spec
    opponent: str
    deals: dict[int, list[float]]      # deal seed -> the agent's score in each of its games
    even: float                        # an equally strong agent's mean score
    partial: int = 0                   # games of deals not played from every seat: left out

    @property
    def games(self) -> int:
        return sum(len(scores) for scores in self.deals.values())

    def interval(self) -> ratings.ScoreInterval:
        return ratings.clustered_score(self.deals.values())


@dataclass(frozen=True)
class Comparison:
    first: MatchScores
    second: MatchScores
    deals: int                          # deals both played
    difference: float                   # first's score minus second's, per common deal
    low: float
    high: float


def read_match(path: str) -> MatchScores:
    """The games of the one match in a results file (of `koloda match`, or a gauntlet of
    one match)."""
    if not Path(path).is_file():
        raise CompareError(f"{path} is not a results file")
    found = read_results(Path(path))
    if not found:
        raise CompareError(f"{path} holds no finished game")
    first = next(iter(found.values()))
    game = games.load_game(first.game)
    found = read_results(Path(path), {first.game: game})   # every game replayed
    slots = {key: _match_and_seat(path, key) for key in found}
    keys = sorted({match for match, _ in slots.values()})
    if len(keys) > 1 or len({result.game for result in found.values()}) > 1:
        shown = ", ".join(keys[:3]) + (", ..." if len(keys) > 3 else "")
        raise CompareError(f"{path} holds the games of {len(keys)} matches ({shown}); "
                           f"compare takes files of one match each")
    deals: dict[int, list[float]] = {}
    seats: dict[int, set[int]] = {}
    specs: set[tuple[str, str]] = set()
    even = 0.0
    for result in found.values():
        seat = slots[result.id][1]
        others = {spec for s, spec in enumerate(result.specs) if s != seat}
        if len(others) != 1:
            raise CompareError(f"{path}: game {result.id} is not one agent against copies "
                               f"of one opponent; compare takes gauntlet matches")
        specs.add((result.specs[seat], others.pop()))
        deals.setdefault(result.seed, []).append(score(result.returns, seat))
        seats.setdefault(result.seed, set()).add(seat)
        even += expected_score(result.returns)
    whole = set(range(game.num_players()))
    partial = sum(len(deals.pop(seed)) for seed in [s for s in deals if seats[s] != whole])
    if not deals:
        raise CompareError(f"{path} holds no deal played from every seat; finish the match "
                           f"first (run it again: it resumes)")
    if len(specs) > 1:
        raise CompareError(f"{path} holds games of {len(specs)} pairs of specs; compare "
                           f"takes files of one match each")
    agent, opponent = specs.pop()
    return MatchScores(path, first.game, agent, opponent, deals, even / len(found), partial)


def _match_and_seat(path: str, key: str) -> tuple[str, int]:
    """A gauntlet game id's match and the agent's seat (`GAME/AGENT-vs-OPPONENT/DEAL/SEAT`)."""
    parts = key.split("/")
    if len(parts) != 4 or not parts[3].isdigit():
        raise CompareError(f"{path}: game id {key[:80]!r} is not a gauntlet match's "
                           f"(GAME/AGENT-vs-OPPONENT/DEAL/SEAT); compare takes gauntlet "
                           f"matches")
    return parts[1], int(parts[3])


def compare(first: MatchScores, second: MatchScores, z: float = 1.96) -> Comparison:
    """The first agent's score minus the second's over the deals both played, with its
    normal 95% interval (deals the unit)."""
    if first.game != second.game:
        raise CompareError(f"{first.path} is of {first.game} and {second.path} of "
                           f"{second.game}: compare needs one game")
    if first.opponent != second.opponent:
        raise CompareError(f"{first.path} plays against {first.opponent} and {second.path} "
                           f"against {second.opponent}: compare needs one opponent")
    common = sorted(set(first.deals) & set(second.deals))
    if len(common) < 2:
        raise CompareError(f"{first.path} and {second.path} have {len(common)} deals in "
                           f"common, and a paired interval needs two; play both with "
                           f"`koloda match --shared-deals` and the same --seed")
    differences = [_mean(first.deals[seed]) - _mean(second.deals[seed]) for seed in common]
    mean = _mean(differences)
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(common) - 1))
    half = z * spread / math.sqrt(len(common))
    return Comparison(first, second, len(common), mean, mean - half, mean + half)


def _mean(values) -> float:
    return sum(values) / len(values)


def format_comparison(comparison: Comparison) -> str:
    lines = []
    for label, match in (("first", comparison.first), ("second", comparison.second)):
        interval = match.interval()
        lines.append(f"{label}: {match.agent} against {match.opponent} on {match.game} "
                     f"({match.path}): {match.games} games, {len(match.deals)} deals, score "
                     f"{100 * interval.score:.1f}% [{100 * interval.low:.1f}, "
                     f"{100 * interval.high:.1f}] (even {100 * match.even:.1f}%)"
                     + (f"; {match.partial} games of deals not played from every seat left "
                        f"out" if match.partial else ""))
    lines.append(f"paired on the {comparison.deals} deals both played: first - second = "
                 f"{100 * comparison.difference:+.1f} points [{100 * comparison.low:+.1f}, "
                 f"{100 * comparison.high:+.1f}]")
    return "\n".join(lines)
