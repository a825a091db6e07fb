"""The rules engines of the six games called "Dam".

``get_game(variant_id)`` gives the stateless :class:`~tourney.engines.base.Game` for a
variant id. Engine modules are imported on first use, so importing this
package stays cheap.
"""
from __future__ import annotations

import importlib

from ..errors import UsageError
from .base import DealEvent, DealOutcome, DealSetup, Game, MatchRules, OptionSpec

# variant id -> (module, attribute). The row games share one engine with presets.
_REGISTRY: dict[str, tuple[str, str]] = {
    "svarta-maja": ("svarta_maja", "SVARTA_MAJA"),
    "kortrad": ("row_games", "KORTRAD"),
    "sju-dolda": ("row_games", "SJU_DOLDA"),
    "dam-stick": ("dam_stick", "DAM_STICK"),
    "spardame": ("spardame", "SPARDAME"),
    "dam-brade": ("dam_brade", "DAM_BRADE"),
}

VARIANT_IDS: tuple[str, ...] = tuple(_REGISTRY)


# Engines already loaded: get_game is called once per deal on the validate and import
# paths, and importlib's lookup costs more than the dict.
_LOADED: dict[str, Game] = {}


def get_game(variant_id: str) -> Game:
    """The engine of a variant; :class:`UsageError` for an unknown id."""
    game = _LOADED.get(variant_id)
    if game is not None:
        return game
    try:
        module_name, attribute = _REGISTRY[variant_id]
    except KeyError:
        known = ", ".join(VARIANT_IDS)
        raise UsageError(f"unknown variant {variant_id!r} (variants: {known})") from None
    module = importlib.import_module(f"{__name__}.{module_name}")
    game = _LOADED[variant_id] = getattr(module, attribute)
    return game


__all__ = [
    "VARIANT_IDS", "get_game", "Game", "DealSetup", "DealOutcome", "DealEvent",
    "MatchRules", "OptionSpec",
]
