"""The tournament job, for every schedule kind: run a config, then summarise and report
each of its game strings, the output held (tournament.lock) from the first game to the
last report."""

from __future__ import annotations

from pathlib import Path

from koloda import games
from koloda.tournament import report
from koloda.tournament.config import ConfigError, TournamentConfig
from koloda.tournament.lock import claim_output
from koloda.tournament.runner import play_missing
from koloda.tournament.schedule import gauntlet_deals
from koloda.tournament.sequential import SequentialMatch
from koloda.tournament.sprt import SprtTest
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


def run_sequential(config: TournamentConfig, test: SprtTest | None, jobs: int | None = None,
                   echo=None, command: str | None = None) -> tuple[SequentialMatch, list]:
    """A one-match gauntlet played deal by deal until `test` decides (or, without a test,
    the match's games are in), the running score written to `echo` after each deal, then
    its report (tournament.report.write_match_report, which shows `command`, the command
    line that ran it);
    returns (the match as it ended, written paths).  The results file and its resume are
    the tournament's: a rerun reads the deals back and decides as the first run did."""
    (match,) = config.matches
    players = games.load_game(match.game).num_players()
    watch = SequentialMatch(players, test, gauntlet_deals(match.games, players), echo)
    with claim_output(config):
        check_files_free(config)
        play_missing(config, jobs=jobs or config.jobs, progress=False, watch=watch)
        if echo is not None and getattr(echo, "isatty", lambda: False)():
            echo.write("\n")
        written = report.write_match_report(config, watch, command)
    return watch, written


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
