"""The rating models: openskill's Weng-Lin models, chosen by name and parameters.

A pool records its model as a name (``RatingPool.model``) and its parameters as JSON
(``RatingPool.params_json``); :class:`ModelSpec` is that pair, checked, and builds the
openskill model object. The default is ``PlackettLuce()`` with openskill's own default
parameters.

Decisions:

- ``params_json`` holds the *full* parameter set (openskill's defaults filled in), so
  the record says which numbers produced a pool's ratings even if a later openskill
  release changes a default. A pool stored with fewer keys (e.g. the schema's ``{}``)
  gets openskill's defaults for the missing ones.
- Parameters a user may set: ``mu``, ``sigma``, ``beta``, ``kappa``, ``tau``,
  ``limit_sigma``, ``balance`` and, for the Thurstone-Mosteller models, ``epsilon``.
  ``margin`` and ``weight_bounds`` are refused: they only act on scores and
  per-player weights, and this project rates by places (ranks) and passes no
  weights (see the pitfalls below), so setting them would change nothing.
  ``gamma`` is a function, not a number, and stays openskill's.

openskill pitfalls (checked in openskill 6.2's source; tests in
tests/ratings/test_engine.py cover each):

- ``model.rate(..., tau=0)`` is ignored: ``rate`` does ``tau = tau if tau else
  self.tau``, so a zero is falsy and the model's default tau (25/300) is used. The
  constructor stores ``float(tau)`` as given, and ``rate`` then falls back to
  ``self.tau == 0.0``, which does apply. So tau is only ever given to the
  constructor here, never to ``rate``.
- ``model.rate(..., limit_sigma=X)`` *assigns* ``self.limit_sigma = X`` on the model,
  changing every later call. limit_sigma is likewise only given to the constructor.
- ``weights`` on one-player teams are normalised to ``weight_bounds`` and a
  one-element vector always becomes the upper bound (2.0): weights of 1.0 double the
  update. Every match here is free-for-all (one-player teams), so no weights are
  passed.
- compiled (mypyc) Rating objects pickle without complaint but cannot be unpickled
  (``TypeError: __init__() missing required argument 'mu'``). Ratings are stored and
  passed around as floats (mu, sigma); Rating objects live only inside one process's
  engine loop.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from ..engines.base import parse_yes_no
from ..errors import UsageError
from ..errors.words import N_, Message, quoted

DEFAULT_MODEL = "PlackettLuce"

MODEL_CLASSES: dict[str, type] = {
    "PlackettLuce": PlackettLuce,
    "BradleyTerryFull": BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
    "ThurstoneMostellerPart": ThurstoneMostellerPart,
}
MODEL_NAMES: tuple[str, ...] = tuple(MODEL_CLASSES)

# Parameter -> kind. Order is the order they are shown in.
_FLOAT_PARAMS = ("mu", "sigma", "beta", "kappa", "tau", "epsilon")
_BOOL_PARAMS = ("limit_sigma", "balance")
_REFUSED = {
    "margin": N_("it only acts on scores, and matches are rated by places"),
    "weight_bounds": N_("no per-player weights are passed (one-player teams)"),
    "gamma": N_("it is a function, not a number"),
}


def model_names_text() -> str:
    return ", ".join(MODEL_NAMES)


def resolve_model_name(name: str) -> str:
    """The canonical spelling of a model name (case-insensitive; ``BradleyTerry``
    and ``ThurstoneMosteller`` without Full/Part mean the Full models)."""
    text = name.strip().replace("-", "").replace("_", "").lower()
    aliases = {n.lower(): n for n in MODEL_NAMES}
    aliases["bradleyterry"] = "BradleyTerryFull"
    aliases["thurstonemosteller"] = "ThurstoneMostellerFull"
    aliases["pl"] = "PlackettLuce"
    try:
        return aliases[text]
    except KeyError:
        raise UsageError(Message(N_("unknown rating model %(name)s (models: %(models)s)"),
                                 {"name": quoted(name), "models": model_names_text()})) from None


def parameter_names(model: str) -> tuple[str, ...]:
    names = [p for p in _FLOAT_PARAMS if p != "epsilon" or model.startswith("ThurstoneMosteller")]
    return tuple(names) + _BOOL_PARAMS


def default_parameters(model: str) -> dict[str, Any]:
    """openskill's own defaults for a model, read from a fresh instance (the compiled
    classes keep no inspectable signature)."""
    instance = MODEL_CLASSES[resolve_model_name(model)]()
    return {p: getattr(instance, p) for p in parameter_names(resolve_model_name(model))}


def param_text(value: Any) -> str:
    """A parameter's value as a user types it back (``--param KEY=VALUE``):
    true/false, a number in at most 6 significant digits ("8.33333", "0")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _parse_value(model: str, key: str, raw: Any) -> Any:
    said = {"key": key, "value": quoted(raw)}
    if key in _REFUSED:
        raise UsageError(Message(N_("rating parameter %(key)s cannot be set: %(reason)s"),
                                 {"key": quoted(key), "reason": Message(_REFUSED[key])}))
    if key not in parameter_names(model):
        raise UsageError(Message(N_("%(model)s has no parameter %(key)s (parameters: %(known)s)"),
                                 {"model": model, "key": quoted(key),
                                  "known": list(parameter_names(model))}))
    if key in _BOOL_PARAMS:
        value = parse_yes_no(raw)
        if value is None:
            raise UsageError(Message(N_("rating parameter %(key)s takes true or false, not "
                                        "%(value)s"), said))
        return value
    not_a_number = UsageError(Message(N_("rating parameter %(key)s takes a number, not "
                                         "%(value)s"), said))
    if isinstance(raw, bool):
        raise not_a_number
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise not_a_number from None
    if not math.isfinite(value):
        raise UsageError(Message(N_("rating parameter %(key)s must be a finite number, not "
                                    "%(value)s"), said))
    if key in ("sigma", "beta", "kappa", "epsilon") and value <= 0:
        raise UsageError(Message(N_("rating parameter %(key)s must be greater than 0, not "
                                    "%(value)s"), said))
    if key == "tau" and value < 0:
        raise UsageError(Message(N_("rating parameter %(key)s must be 0 or more, not "
                                    "%(value)s"), said))
    return value


@dataclass(frozen=True)
class ModelSpec:
    """A model name and its full parameter set; builds the openskill model."""

    name: str
    params: tuple[tuple[str, Any], ...]

    @classmethod
    def create(cls, name: str = DEFAULT_MODEL,
               params: Mapping[str, Any] | None = None) -> "ModelSpec":
        """Defaults filled in, the given parameters parsed and checked."""
        canonical = resolve_model_name(name)
        resolved = default_parameters(canonical)
        for key, raw in (params or {}).items():
            resolved[key] = _parse_value(canonical, key, raw)
        return cls(canonical, tuple((k, resolved[k]) for k in parameter_names(canonical)))

    @classmethod
    def from_record(cls, model: str | None, params_json: str | None) -> "ModelSpec":
        """From a pool's columns (missing keys take openskill's defaults)."""
        params = json.loads(params_json) if params_json else {}
        if not isinstance(params, dict):
            raise UsageError(Message(N_("rating pool parameters are not a JSON object: %(text)s"),
                                     {"text": quoted(params_json)}))
        return cls.create(model or DEFAULT_MODEL, params)

    @property
    def params_dict(self) -> dict[str, Any]:
        return dict(self.params)

    def params_json(self) -> str:
        """What ``RatingPool.params_json`` stores: every parameter, sorted keys."""
        return json.dumps(self.params_dict, sort_keys=True)

    def with_params(self, params: Mapping[str, Any]) -> "ModelSpec":
        merged = self.params_dict
        merged.update(params)
        return ModelSpec.create(self.name, merged)

    def build(self):
        """A new openskill model object. tau and limit_sigma go to the constructor,
        never to ``rate()`` (see the module docstring)."""
        return MODEL_CLASSES[self.name](**self.params_dict)

    def changed_params(self) -> dict[str, Any]:
        """The parameters that differ from openskill's defaults for the model."""
        defaults = default_parameters(self.name)
        return {k: v for k, v in self.params if defaults.get(k) != v}

    def describe(self) -> str:
        """The model as people read it: its name alone with openskill's defaults
        ("PlackettLuce"), else with what differs ("PlackettLuce(tau=0, beta=3)")."""
        changed = [f"{k}={param_text(v)}" for k, v in self.changed_params().items()]
        return f"{self.name}({', '.join(changed)})" if changed else self.name


DEFAULT_SPEC = ModelSpec.create()


def build_model(name: str = DEFAULT_MODEL, params: Mapping[str, Any] | None = None):
    """An openskill model by name and parameters (openskill's defaults otherwise)."""
    return ModelSpec.create(name, params).build()
