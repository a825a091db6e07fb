"""Model construction by name and parameters, and how a pool records them."""
from __future__ import annotations

import json

import pytest
from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from tourney.errors import UsageError
from tourney.ratings.models import (
    DEFAULT_MODEL,
    DEFAULT_SPEC,
    MODEL_NAMES,
    ModelSpec,
    build_model,
    default_parameters,
    resolve_model_name,
)

CLASSES = {
    "PlackettLuce": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
    "ThurstoneMostellerPart": ThurstoneMostellerPart,
}


def test_default_is_plackett_luce_with_openskills_defaults():
    assert DEFAULT_MODEL == "PlackettLuce"
    model = DEFAULT_SPEC.build()
    assert isinstance(model, PlackettLuce)
    reference = PlackettLuce()
    for key in ("mu", "sigma", "beta", "kappa", "tau", "limit_sigma", "balance"):
        assert getattr(model, key) == getattr(reference, key), key
    assert DEFAULT_SPEC.describe() == "PlackettLuce"  # the defaults: no empty "()"


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_every_model_builds_with_its_defaults(name):
    spec = ModelSpec.create(name)
    model = spec.build()
    assert type(model) is CLASSES[name]
    reference = CLASSES[name]()
    for key, value in spec.params:
        assert getattr(reference, key) == value
    assert ("epsilon" in spec.params_dict) == name.startswith("ThurstoneMosteller")


@pytest.mark.parametrize("text, expected", [
    ("PlackettLuce", "PlackettLuce"), ("plackettluce", "PlackettLuce"),
    ("BradleyTerry", "BradleyTerryFull"), ("thurstone-mosteller", "ThurstoneMostellerFull"),
    ("ThurstoneMostellerPart", "ThurstoneMostellerPart"), ("bradley_terry_part", "BradleyTerryPart"),
])
def test_model_names(text, expected):
    assert resolve_model_name(text) == expected


def test_unknown_model_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown rating model 'Elo'.*PlackettLuce"):
        ModelSpec.create("Elo")


def test_params_json_records_every_parameter_and_round_trips():
    spec = ModelSpec.create("ThurstoneMostellerFull", {"beta": "3.5", "limit_sigma": "true"})
    stored = json.loads(spec.params_json())
    assert stored["beta"] == 3.5 and stored["limit_sigma"] is True
    assert set(stored) == set(default_parameters("ThurstoneMostellerFull"))
    again = ModelSpec.from_record("ThurstoneMostellerFull", spec.params_json())
    assert again == spec
    model = again.build()
    assert model.beta == 3.5 and model.limit_sigma is True and model.epsilon == 0.1
    assert spec.describe() == "ThurstoneMostellerFull(beta=3.5, limit_sigma=true)"


def test_a_pool_stored_with_empty_params_gets_the_defaults():
    assert ModelSpec.from_record(None, "{}") == DEFAULT_SPEC
    assert ModelSpec.from_record("PlackettLuce", "") == DEFAULT_SPEC


@pytest.mark.parametrize("params, message", [
    ({"margin": "1"}, "cannot be set: it only acts on scores"),
    ({"weight_bounds": "1"}, "cannot be set"),
    ({"epsilon": "0.2"}, "PlackettLuce has no parameter 'epsilon'"),
    ({"nope": "1"}, "has no parameter 'nope'"),
    ({"sigma": "0"}, "greater than 0"),
    ({"tau": "-1"}, "0 or more"),
    ({"beta": "abc"}, "takes a number"),
    ({"mu": "nan"}, "finite"),
    ({"balance": "maybe"}, "true or false"),
])
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(UsageError, match=message):
        ModelSpec.create("PlackettLuce", params)


def test_with_params_keeps_the_others():
    spec = ModelSpec.create("BradleyTerryPart", {"beta": 2})
    changed = spec.with_params({"tau": "0"})
    assert changed.params_dict["beta"] == 2.0 and changed.params_dict["tau"] == 0.0
    assert changed.name == "BradleyTerryPart"


def test_parse_param_items():
    from tourney.cli.output import parse_assignments

    assert parse_assignments(["tau=0", " beta = 3 "], "--param") == {"tau": "0", "beta": "3"}
    with pytest.raises(UsageError, match="--param takes KEY=VALUE"):
        parse_assignments(["tau"], "--param")


def test_build_model_by_name():
    model = build_model("BradleyTerryFull", {"mu": 1500, "sigma": 500})
    assert isinstance(model, BradleyTerryFull)
    assert model.rating().mu == 1500.0 and model.rating().sigma == 500.0
