"""The tournament job, for every schedule kind: run a config, then summarise and report
each of its game strings, the output held (tournament.lock) from the first game to the
last report."""

from __future__ import annotations

from koloda.tournament import report
from koloda.tournament.config import TournamentConfig
from koloda.tournament.lock import claim_output
from koloda.tournament.runner import run_tournament
from koloda.tournament.summary import Summary, summarize


def run_and_report(config: TournamentConfig, jobs: int | None = None,
                   progress: bool = True) -> list[tuple[Summary, list]]:
    """Play what is missing, write the reports; returns [(summary, written paths)]."""
    with claim_output(config):
        run = run_tournament(config, jobs=jobs, progress=progress)
        if jobs:
            config.jobs = jobs
        written = []
        for game_string in config.games:
            summary = summarize(config, run, game_string)
            written.append((summary, report.write_reports(summary, config.output)))
    return written
