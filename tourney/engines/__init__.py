"""The rules engines of the six games called "Dam".

``get_game(variant_id)`` gives the stateless :class:`~tourney.engines.base.Game` for a
variant id. Engine modules are imported on first use, so importing this
package stays cheap; it imports no database, web or command-line code
(``docs/guide/library.md`` walks through using the engines from Python).

A game is one engine module and one entry in ``_BUILT_IN`` (plus the translations of
its messages): everything the rest of tourney shows of it, from its name to its
replay pages, comes from its :class:`Game` (see :mod:`.presentation`).
:func:`register_game` adds a game at run time (a plugin, a test's toy game).
"""
from __future__ import annotations

import importlib
import re

from ..errors import IllegalMove, OptionError, RecordError, UnknownName, unknown_name
from ..errors.words import N_, Message
from .base import DealEvent, DealOutcome, DealSetup, Game, MatchRules, OptionSpec

# variant id -> (module, attribute). The row games share one engine with presets.
_BUILT_IN: dict[str, tuple[str, str]] = {
    "svarta-maja": ("svarta_maja", "SVARTA_MAJA"),
    "kortrad": ("row_games", "KORTRAD"),
    "sju-dolda": ("row_games", "SJU_DOLDA"),
    "dam-stick": ("dam_stick", "DAM_STICK"),
    "spardame": ("spardame", "SPARDAME"),
    "dam-brade": ("dam_brade", "DAM_BRADE"),
}

VARIANT_IDS: tuple[str, ...] = tuple(_BUILT_IN)
"""The built-in games; :func:`variant_ids` adds the registered ones."""

_REGISTERED: dict[str, Game] = {}
_VARIANT_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def variant_ids() -> tuple[str, ...]:
    """Every game's id: the built-in ones, then the registered ones."""
    return VARIANT_IDS + tuple(_REGISTERED)


def register_game(game: Game) -> None:
    """Add a game under ``game.id`` (lowercase words joined by hyphens, at most
    40 characters, not taken)."""
    if not isinstance(game, Game):
        raise TypeError(f"not a Game: {game!r}")
    if not (_VARIANT_ID.fullmatch(game.id or "") and len(game.id) <= 40):
        raise ValueError(f"a variant id is lowercase words joined by hyphens: {game.id!r}")
    if game.id in _BUILT_IN or game.id in _REGISTERED:
        raise ValueError(f"variant {game.id!r} is already registered")
    _REGISTERED[game.id] = _LOADED[game.id] = game


def unregister_game(variant_id: str) -> None:
    """Remove a game added by :func:`register_game`."""
    if _REGISTERED.pop(variant_id, None) is not None:
        del _LOADED[variant_id]


# Engines already loaded: get_game is called once per deal on the validate and import
# paths, and importlib's lookup costs more than the dict.
_LOADED: dict[str, Game] = {}


def unknown_variant(variant_id) -> UnknownName:
    """``unknown variant 'spardam' (did you mean spardame?)``, else the list."""
    return unknown_name("variant", str(variant_id)[:40], variant_ids(),
                        otherwise=Message(N_("variants: %(variants)s"),
                                          {"variants": list(variant_ids())}))


def get_game(variant_id: str) -> Game:
    """The engine of a variant; :class:`UsageError` for an unknown id."""
    game = _LOADED.get(variant_id)
    if game is not None:
        return game
    try:
        module_name, attribute = _BUILT_IN[variant_id]
    except (KeyError, TypeError):
        raise unknown_variant(variant_id) from None
    module = importlib.import_module(f"{__name__}.{module_name}")
    game = _LOADED[variant_id] = getattr(module, attribute)
    return game


__all__ = [
    "VARIANT_IDS", "get_game", "register_game", "unregister_game", "variant_ids",
    "Game", "DealSetup", "DealOutcome", "DealEvent", "MatchRules", "OptionSpec",
    # what the engines raise (tourney.errors): a rule broken, a record's problem with
    # its position, a house rule the game does not have or take, an unknown variant
    "IllegalMove", "RecordError", "OptionError", "UnknownName",
]
