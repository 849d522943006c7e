"""Shipped models by name: loaded with their digest checked, refused with one line when
the file, the name, the kind or the game variant is wrong."""

import re

import numpy as np
import pytest

from koloda import games
from koloda.solvers.errors import AgentSpecError
from koloda.solvers.learned import models
from koloda.solvers.learned.models import ModelError, load_model
from koloda.solvers.registry import load_agent

from .helpers import install_test_model


def test_a_model_loads_by_name_with_its_weights_and_digest(tmp_path, monkeypatch):
    weights = install_test_model(tmp_path, monkeypatch)
    model = load_model("durak-v9")
    np.testing.assert_array_equal(model.weights, weights)
    assert model.digest == models.digest_of((tmp_path / "durak-v9.npy").read_bytes())
    assert (model.game, model.kind) == ("durak", "value")
    with pytest.raises(ValueError):
        model.weights[0] = 1.0                         # shared by every search: read-only


def test_a_file_whose_digest_differs_from_the_index_is_refused_in_one_line(tmp_path,
                                                                           monkeypatch):
    install_test_model(tmp_path, monkeypatch)
    path = tmp_path / "durak-v9.npy"
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="digest .* is not the .* its index names") as err:
        load_model("durak-v9")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("name,message", [("durak-v77", "no model named durak-v77"),
                                          ("../../etc/passwd", "is named <game>-v<N>"),
                                          ("x" * 500, "is named <game>-v<N>")])
def test_a_name_that_is_no_model_is_refused(tmp_path, monkeypatch, name, message):
    install_test_model(tmp_path, monkeypatch)
    with pytest.raises(ModelError, match=message) as err:
        load_model(name)
    assert len(str(err.value)) < 200


def test_a_spec_naming_a_model_for_another_variant_or_game_is_refused_by_name(tmp_path,
                                                                              monkeypatch):
    install_test_model(tmp_path, monkeypatch)
    with pytest.raises(AgentSpecError, match="durak-v9 was fitted for players=2; this game "
                                             "has players=3"):
        load_agent(games.load_game("durak(players=3)"), "ismcts(value=durak-v9)")
    with pytest.raises(AgentSpecError, match="durak-v9 is a model of durak, not platinum_fish"):
        load_agent(games.load_game("platinum_fish"), "ismcts(value=durak-v9)")
    agent = load_agent(games.load_game("durak"), "pimc(value=durak-v9,sims=50)")
    assert agent.leaf.name == "value"


def test_the_value_models_of_a_game_are_those_fitted_for_its_variant(tmp_path, monkeypatch):
    install_test_model(tmp_path, monkeypatch)
    assert "durak-v9" in models.value_models_for(games.load_game("durak"))
    assert "durak-v9" not in models.value_models_for(games.load_game("durak(players=3)"))
    assert "durak-v9" not in models.value_models_for(games.load_game("platinum_fish"))


def test_koloda_models_lists_what_a_spec_can_name(tmp_path, monkeypatch, capsys):
    from koloda.cli import main
    weights = install_test_model(tmp_path, monkeypatch, name="durak-v9")
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    shipped = load_model("durak-v1")
    assert re.search(r"durak-v1 +value +durak", out) and shipped.digest[:12] in out
    assert "durak-v9" in out and load_model("durak-v9").digest[:12] in out
    assert weights.size > 0
    assert main(["models", "parket"]) == 0
    assert "durak" not in capsys.readouterr().out.split("\n\n")[0]
    assert main(["models", "chess"]) == 2
    assert capsys.readouterr().err.strip() == (
        "koloda: error: no game 'chess'; the games are durak, parket, platinum_fish, snitch")


@pytest.mark.parametrize("index_text, message", [
    ("{not json", "a model index (index.json) cannot be read: JSONDecodeError"),
    ('["durak-v5"]', "a model index (index.json) is not an object of model entries"),
    ('{"durak-v5": {"game": "durak"}}', "model durak-v5: its index entry is not one"),
    (" " * (models.MAX_INDEX_BYTES + 1), "a model index (index.json) is larger than"),
])
def test_a_broken_model_folder_is_refused_in_one_line_naming_no_path(tmp_path, monkeypatch,
                                                                     index_text, message):
    (tmp_path / "index.json").write_text(index_text)
    monkeypatch.setenv(models.EXTRA_FOLDERS, str(tmp_path))
    load_model.cache_clear()
    with pytest.raises(ModelError) as err:
        load_model("durak-v5")
    assert message in str(err.value)
    assert "\n" not in str(err.value) and str(tmp_path) not in str(err.value)


def test_a_model_file_beyond_the_bound_is_refused_before_it_is_read(tmp_path, monkeypatch):
    install_test_model(tmp_path, monkeypatch, name="durak-v5")
    monkeypatch.setattr(models, "MAX_MODEL_BYTES", 1000)
    load_model.cache_clear()
    with pytest.raises(ModelError, match="model durak-v5's file is larger than"):
        load_model("durak-v5")
