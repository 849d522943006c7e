"""A match that stops when the evidence decides: the games of a one-match gauntlet fed to
a sequential probability ratio test (tournament.sprt) deal by deal, in schedule order.

The unit is a deal: the same cards once per seat of the agent (two players: the seats
swapped), so deal luck and seat luck cancel inside it.  Its score is the agent's mean
pairwise score over the deal's games (tournament.sprt.game_score): for two players the
pentanomial 0, 1/4, 1/2, 3/4, 1.  Units are counted in deal order, whatever order the
workers finish in, so a run stops at the same deal on any machine and a rerun that reads
the results file back decides exactly as the first run did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from koloda.tournament.results import GameResult
from koloda.tournament.sprt import Sprt, SprtTest, game_score


@dataclass
class DealScores:
    """Win, draw and loss counts of the agent's games (each game against the opponent's
    seats, by placement), for the running score line."""
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: dict = field(default_factory=dict)     # failure reason -> games

    def add(self, score: float) -> None:
        if score > 0.5:
            self.wins += 1
        elif score < 0.5:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


class SequentialMatch:
    """Fed every finished game of the match in schedule order (`add`), it counts whole
    deals as units and says when to stop: the test decided, or `max_units` deals are in.
    Without a test (`test=None`) it only keeps the score and the Elo estimate."""

    #: without a terminal, the running line is written every this many deals
    EVERY = 10

    def __init__(self, players: int, test: SprtTest | None, max_units: int, echo=None):
        self.players = players
        self.echo = echo          # a stream for the running line after each deal, or None
        self.sprt = Sprt(test or SprtTest(), players)
        self.testing = test is not None
        self.max_units = max_units
        self.scores = DealScores()
        self._deal: int | None = None
        self._unit: list[float] = []

    def add(self, result: GameResult) -> bool:
        """Count one game (the next in schedule order); True when the match should stop."""
        seat = agent_seat(result.id)
        score = game_score(result.returns, seat)
        self.scores.add(score)
        if result.error:
            reason = getattr(result.error, "reason", None) or "error"
            self.scores.errors[reason] = self.scores.errors.get(reason, 0) + 1
        if self._deal != result.deal:
            self._deal, self._unit = result.deal, []
        self._unit.append(score)
        if len(self._unit) == self.players:          # the deal's last seat: a whole unit
            self.sprt.add(sum(self._unit) / self.players)
            self._unit = []
            self._echo()
        return self.done

    def _echo(self) -> None:
        """The running line: rewritten in place on a terminal, else every EVERY deals."""
        if self.echo is None:
            return
        if getattr(self.echo, "isatty", lambda: False)():
            self.echo.write("\r\x1b[K" + self.line())
        elif self.units % self.EVERY == 0:
            self.echo.write(self.line() + "\n")
        self.echo.flush()

    @property
    def units(self) -> int:
        return self.sprt.units

    @property
    def done(self) -> bool:
        return (self.testing and self.sprt.decision is not None) \
            or self.units >= self.max_units

    @property
    def decision(self) -> str | None:
        return self.sprt.decision if self.testing else None

    def line(self) -> str:
        """The running score: games, W/D/L, Elo with its interval, and the test."""
        s = self.scores
        text = f"{s.games} games ({self.units} deals): +{s.wins} ={s.draws} -{s.losses}"
        estimate = self.sprt.elo()
        if estimate is not None:
            text += f", Elo {estimate.elo:+.1f} [{estimate.low:+.1f}, {estimate.high:+.1f}]"
        if self.testing:
            text += (f", LLR {self.sprt.llr:+.2f} [{self.sprt.lower:+.2f}, "
                     f"{self.sprt.upper:+.2f}]")
        return text


def agent_seat(task_id: str) -> int:
    """The agent's seat in a gauntlet game, the last part of its id
    (`GAME/AGENT-vs-OPPONENT/DEAL/SEAT`)."""
    return int(task_id.rsplit("/", 1)[1])
