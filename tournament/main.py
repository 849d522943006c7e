"""The tournament job, for every schedule kind: run a config, then summarise and report
each of its game strings, the output held (tournament.lock) from the first game to the
last report."""

from __future__ import annotations

from pathlib import Path

from koloda.tournament import report
from koloda.tournament.config import ConfigError, TournamentConfig
from koloda.tournament.lock import claim_output
from koloda.tournament.runner import play_missing
from koloda.tournament.summary import Summary, report_name, summarize


def run_and_report(config: TournamentConfig, jobs: int | None = None,
                   progress: bool = True) -> list[tuple[Summary, list]]:
    """Play what is missing on `jobs` workers (the config's by default), write the reports;
    returns [(summary, written paths)]."""
    jobs = jobs or config.jobs
    with claim_output(config):
        check_files_free(config)
        run = play_missing(config, jobs=jobs, progress=progress)
        written = []
        for game_string in config.games:
            summary = summarize(config, run, game_string, jobs=jobs)
            written.append((summary, report.write_reports(summary, config.output)))
    return written


def check_files_free(config: TournamentConfig) -> None:
    """Refuse a folder where a report or a rewritten results file goes: writing there
    would fail only after every game was played.  (A folder in place of the results file
    itself is refused as it is read.)"""
    places = [report.temporary_path(config.results_path),
              report.temporary_path(config.timing_path)]
    for game_string in config.games:
        for path in report.report_paths(Path(config.output), report_name(config, game_string)):
            places += [path, report.temporary_path(path)]
    for place in places:
        if place.is_dir():
            raise ConfigError(f"{config.path}: {place} is a folder, where the tournament "
                              f"writes a file; move it away")
