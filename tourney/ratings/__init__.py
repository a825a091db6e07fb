"""OpenSkill ratings: one pool per variant, kept in step with the results.

- :mod:`.models`: the openskill models by name and parameters (:class:`ModelSpec`),
  and the openskill pitfalls this package works around;
- :mod:`.engine`: the pure engine (:class:`Rater`: rankings in, floats and
  before/after rows out; :func:`predict`);
- :mod:`.service`: the database side (:func:`refresh_after_results`, called by the
  use cases in :mod:`tourney.app` after they change results; :func:`recompute`;
  reading for the CLI and the site). It never imports :mod:`tourney.tournament`.

The service module is imported on use (``from tourney.ratings.service import ...``)
so that the pure engine does not pull in the storage layer.
"""
from __future__ import annotations

from .engine import Change, Prediction, Rater, ordinal, predict, rate_matches
from .models import DEFAULT_MODEL, DEFAULT_SPEC, MODEL_NAMES, ModelSpec, build_model

__all__ = [
    "Change", "Prediction", "Rater", "ordinal", "predict", "rate_matches",
    "DEFAULT_MODEL", "DEFAULT_SPEC", "MODEL_NAMES", "ModelSpec", "build_model",
]
