"""A tournament takes its output's lock once for the whole run, and `--jobs` reaches the
reports without changing the config."""

import contextlib

import pytest

from koloda.tournament import lock, runner
from koloda.tournament import main as tournament_main
from koloda.tournament.config import config_from_dict
from koloda.tournament.lock import OutputBusyError

TINY = "durak(hand_size=3,ranks=4,suits=2)"


def _config(tmp_path, jobs=2):
    return config_from_dict({"name": "t", "games": [TINY], "games_per_pairing": 2,
                             "seed": 3, "jobs": jobs, "output": str(tmp_path),
                             "bootstrap": 20,
                             "agents": {"random": "random", "heuristic": "heuristic"}})


@pytest.fixture
def claims(monkeypatch):
    """The claims of an output made from here on."""
    made = []

    @contextlib.contextmanager
    def counting(config):
        made.append(config.name)
        with lock.claim_output(config):
            yield

    monkeypatch.setattr(tournament_main, "claim_output", counting)
    monkeypatch.setattr(runner, "claim_output", counting)
    return made


def test_a_run_and_its_reports_claim_the_output_once(tmp_path, claims):
    tournament_main.run_and_report(_config(tmp_path), jobs=1, progress=False)
    assert claims == ["t"]
    runner.run_tournament(_config(tmp_path), jobs=1, progress=False)
    assert claims == ["t", "t"]


def test_jobs_given_reach_the_summary_and_leave_the_config_alone(tmp_path):
    config = _config(tmp_path, jobs=2)
    [(summary, written)] = tournament_main.run_and_report(config, jobs=1, progress=False)
    assert summary.jobs == 1 and config.jobs == 2
    assert "1 jobs" in (tmp_path / "t.md").read_text()
    [(again, _)] = tournament_main.run_and_report(config, progress=False)   # all played
    assert again.jobs == 2


def test_a_second_claim_in_the_same_process_is_refused(tmp_path):
    config = _config(tmp_path)
    with lock.claim_output(config):
        with pytest.raises(OutputBusyError, match="another tournament is writing"):
            with lock.claim_output(config):
                pass
        assert (tmp_path / "t.lock").exists()
    assert not (tmp_path / "t.lock").exists()
