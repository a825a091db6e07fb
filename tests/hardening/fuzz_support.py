"""Shared pieces of the hardening fuzz tests and of ``bench/fuzz_long.py``.

* a pool of valid simulated records per variant (bots on the real engines),
* the invariant every input must satisfy (:func:`check_bytes`): the reader and
  the checker raise nothing but the project's own errors, every error carries a
  position, and the checker never reports the catch-all rule ``internal``,
* mutations of valid files (text level) and of valid records (deal level).

No test lives here; the test files and the long fuzz session import it.
"""
from __future__ import annotations

import copy
import functools
import io
import random
import re
from dataclasses import dataclass
from typing import Callable

from tourney.cards import CARD_NAMES, SUIT_SYMBOLS, SUITS
from tourney.engines import VARIANT_IDS, get_game
from tourney.errors import OptionError, RecordError, TourneyError
from tourney.records.csv_format import DealRecord, RecordReader, write_records
from tourney.records.validation import DealCheck, MatchCheck, RecordChecker
from tourney.simulation import simulate_match

# Rule sets the simulated matches are played (and checked) under: the defaults,
# and a house-rule set per variant that changes what is legal.
RULE_SETS: dict[str, list[dict]] = {
    "svarta-maja": [{"deals": 2}, {"deals": 2, "hand_size": 5, "spade_trump": True}],
    "kortrad": [{"deals": 2}, {"deals": 2, "row": 5, "secret": 2}],
    "sju-dolda": [{"deals": 2}, {"deals": 2, "row": 3, "secret": 1}],
    "dam-stick": [{"deals": 2}, {"deals": 2, "no_queen_first_trick": True, "dealer": "free"}],
    "spardame": [{"deals": 3}, {"deals": 3, "pass": "cycle", "hearts_break": True,
                                "no_points_first_trick": True, "qs_with_jd": True,
                                "jd_bonus": -50, "no_trick_bonus": -50}],
    "dam-brade": [{}, {"games": 2, "huff": "capturer"}],
}
PLAYER_COUNTS = {
    "svarta-maja": (2, 4, 6), "kortrad": (2, 4), "sju-dolda": (2, 6),
    "dam-stick": (3, 4, 6), "spardame": (3, 4, 5), "dam-brade": (2,),
}
# Whether a rule error of these kinds may come without a column: they concern the
# file or the row as a whole.
ROW_WIDE_RULES = {"ragged-row", "csv", "encoding", "line-too-long", "header"}


@dataclass(frozen=True)
class Sample:
    """One simulated match: its records and the rules it was played under."""

    variant: str
    rules: dict
    records: tuple

    def game(self):
        return get_game(self.variant)

    def options(self) -> dict:
        return self.game().resolve_options(self.rules)


@functools.lru_cache(maxsize=None)
def samples(variant: str) -> tuple[Sample, ...]:
    """Valid matches of a variant: every player count and rule set, a few seeds."""
    game = get_game(variant)
    out = []
    for rules_index, rules in enumerate(RULE_SETS[variant]):
        options = game.resolve_options(rules)
        for n in PLAYER_COUNTS[variant]:
            rng = random.Random(1000 * rules_index + n)
            players = [f"P{i + 1}" for i in range(n)]
            records = simulate_match(game, options, players, rng, event="fz",
                                     table=f"{rules_index}-{n}", skills=0.7)
            out.append(Sample(variant, dict(rules), tuple(records)))
    return tuple(out)


def all_samples() -> list[Sample]:
    return [s for v in VARIANT_IDS for s in samples(v)]


@functools.lru_cache(maxsize=None)
def token_pool(variant: str) -> tuple[str, ...]:
    """Every move token the simulated records of a variant use: legal-looking
    tokens for insertions and replacements."""
    seen = dict.fromkeys(t for s in samples(variant) for r in s.records for t in r.play)
    return tuple(seen)


def to_csv(records, variant: str) -> str:
    buffer = io.StringIO()
    game = get_game(variant)
    write_records(buffer, records, game_for=lambda record: game)
    return buffer.getvalue()


def to_csv_raw(records) -> str:
    """Records as CSV with their move tokens as they are (mutated tokens need not
    parse, so no engine rewrites them)."""
    buffer = io.StringIO()
    write_records(buffer, records)
    return buffer.getvalue()


# ------------------------------------------------------------------- the invariant

# A damaged or oversized XLSX workbook has no line to name (bytes starting "PK\3\4").
WORKBOOK_RULES = ("xlsx", "too-large")


class InvariantBroken(AssertionError):
    """An input made the reader or checker misbehave (a finding)."""


def _check_error(err: RecordError, what: str, *, deal_level: bool) -> None:
    if err.rule == "internal":
        raise InvariantBroken(f"{what}: engine crash reported as rule 'internal': {err}")
    if err.line is None and err.rule not in WORKBOOK_RULES:
        raise InvariantBroken(f"{what}: error without a line: {err!r} ({err})")
    if deal_level and err.column is None and err.move is None \
            and err.rule not in ROW_WIDE_RULES:
        raise InvariantBroken(f"{what}: deal error without column or move: "
                              f"rule={err.rule!r}: {err}")


def check_item(item) -> None:
    """The invariant on one item of :meth:`RecordChecker.check_stream`."""
    if isinstance(item, DealCheck):
        if item.error is not None:
            _check_error(item.error, f"deal at line {item.line}",
                         deal_level=item.record is not None)
        elif item.outcome is None:
            raise InvariantBroken(f"deal at line {item.line}: neither outcome nor error")
    elif isinstance(item, MatchCheck):
        if item.error is not None:
            _check_error(item.error, f"match round {item.round} table {item.table}",
                         deal_level=False)
        elif item.result is None:
            raise InvariantBroken("a valid match without a result")
    else:
        raise InvariantBroken(f"check_stream yielded {item!r}")


def check_bytes(data: bytes, variant: str | None = None, rules: dict | None = None
                ) -> tuple[int, int]:
    """Read and check a file's bytes; raise :class:`InvariantBroken` (or let a
    foreign exception escape) when the invariant breaks. Returns
    ``(valid deals, invalid items)``."""
    checker = RecordChecker(variant=variant, rules=rules)
    reader = RecordReader(io.BytesIO(data), filename="fuzz.csv", errors="yield")
    valid = invalid = 0
    try:
        for item in checker.check_stream(reader):
            check_item(item)
            if item.error is None:
                valid += isinstance(item, DealCheck)
            else:
                invalid += 1
    except RecordError as err:  # a problem of the file as a whole
        _check_error(err, "file", deal_level=False)
        invalid += 1
    except OptionError:
        # A rule given for the whole run that a row's (mutated) variant lacks: a
        # usage error of the command line, not of the file.
        if not rules:
            raise
        invalid += 1
    except TourneyError as err:
        raise InvariantBroken(f"a {type(err).__name__} without a position: {err}") from err
    return valid, invalid


def check_deal_record(record: DealRecord, variant: str, rules: dict) -> DealCheck:
    """One (mutated) record through the checker, with the invariant."""
    checker = RecordChecker(variant=variant, rules=rules)
    check = checker.check_deal(record)
    check_item(check)
    return check


# ------------------------------------------------------------------- text mutations

_TOKEN_RE = re.compile(r"[^\s,;|/\"]+|[\s,;|/\"]")


def mutate_text(text: str, rng: random.Random) -> str:
    """One random mutation of a CSV text: a token, a cell or a row deleted,
    duplicated or swapped, a quote added, a line break moved."""
    lines = text.split("\n")
    op = rng.randrange(9)
    if op <= 2:  # tokens
        pieces = _TOKEN_RE.findall(text)
        if len(pieces) < 2:
            return text + rng.choice([",", "\"", "\n", ";"])
        _shuffle(pieces, op, rng)
        return "".join(pieces)
    if op <= 5:  # cells of one line
        k = rng.randrange(len(lines))
        cells = lines[k].split(",")
        _shuffle(cells, op - 3, rng)
        lines[k] = ",".join(cells)
        return "\n".join(lines)
    _shuffle(lines, op - 6, rng)
    return "\n".join(lines)


def _shuffle(items: list, kind: int, rng: random.Random) -> None:
    """In place: a random item deleted (``kind`` 0, while more than one is left),
    duplicated at a random place (1), or two swapped (2)."""
    i, j = rng.randrange(len(items)), rng.randrange(len(items))
    if kind == 0 and len(items) > 1:
        del items[i]
    elif kind == 1:
        items.insert(j, items[i])
    else:
        items[i], items[j] = items[j], items[i]


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One random byte-level mutation: a bit flipped, a byte set, bytes cut or
    inserted (including NUL, CR, quotes and broken UTF-8)."""
    if not data:
        return bytes([rng.randrange(256)])
    buf = bytearray(data)
    op = rng.randrange(4)
    i = rng.randrange(len(buf))
    if op == 0:
        buf[i] ^= 1 << rng.randrange(8)
    elif op == 1:
        buf[i] = rng.choice([0, 13, 34, 44, 59, 124, 0x80, 0xC3, 0xEF, 0xFF, rng.randrange(256)])
    elif op == 2:
        del buf[i:i + rng.randrange(1, 8)]
    else:
        buf[i:i] = rng.choice([b"\x00", b"\r", b"\"", b",", b"\xef\xbb\xbf", b"\xe2\x99",
                               "♠".encode(), b"\n\n", bytes([rng.randrange(256)])])
    return bytes(buf)


# ------------------------------------------------------------------- record mutations

def respell_card(name: str, rng: random.Random) -> str:
    """Another accepted spelling of a canonical card name (10, lower case, symbol)."""
    rank, suit = name[0], name[1]
    if rank == "T" and rng.random() < 0.5:
        rank = "10"
    if rng.random() < 0.5:
        suit = SUIT_SYMBOLS[SUITS.index(suit)]
    text = rank + suit
    return text.lower() if rng.random() < 0.5 else text


_CARD_IN_TOKEN = re.compile(r"\b(?:[2-9TJQKA][SHDC])\b")


def respell_token(token: str, variant: str, rng: random.Random) -> str:
    """A non-canonical spelling of a move token the engine must still accept."""
    if variant in ("kortrad", "sju-dolda"):
        return token.lower() if rng.random() < 0.5 else token
    if variant == "dam-brade":
        return token.replace("x", "X") if rng.random() < 0.5 else token
    return _CARD_IN_TOKEN.sub(lambda m: respell_card(m.group(0), rng), token)


HOSTILE_SCORES = ("0", "1", "5", "-50", "0.5", "240", "x", "1e9", "nan", "inf", "-inf",
                  "1e999", "9" * 400, "-" + "9" * 5000, "½", "1/2", "0,5", " 5", "-0", "+5",
                  "1_0", "٣", "")


def hostile_move_token(rng: random.Random) -> str:
    """A token of some notation's shape with a hostile part: long digit runs,
    out-of-range numbers, repeated separators, odd characters. Never longer than
    the reader lets through (MAX_TOKEN_CHARS)."""
    from tourney.records.csv_format import MAX_TOKEN_CHARS

    prefix = rng.choice(["S", "D", "s", "d", "H", "h", "", "QS,", "11-", "11x", "x", "-",
                         "10", "QS/", "/", ","])
    body = rng.choice([
        lambda: rng.choice("0123456789") * rng.randint(1, MAX_TOKEN_CHARS - 8),
        lambda: str(rng.choice([0, -1, 33, 99, 2 ** 31, 2 ** 64, 10 ** 30])),
        lambda: rng.choice(["x", "-", ",", "/", "|"]) * rng.randint(1, 50),
        lambda: "".join(rng.choice("0123456789SHDCx-/,½١²\u2013\u00a0")
                        for _ in range(rng.randint(1, 30))),
        lambda: "x".join(str(rng.randint(0, 40)) for _ in range(rng.randint(2, 40))),
        lambda: ",".join(rng.choice(CARD_NAMES) for _ in range(rng.randint(1, 14)))
        + "/" + ",".join(rng.choice(CARD_NAMES + ("-",)) for _ in range(rng.randint(1, 14))),
    ])()
    return (prefix + body)[:MAX_TOKEN_CHARS]


def mutate_record(record: DealRecord, variant: str, rng: random.Random,
                  extra_tokens: tuple[str, ...] = ()) -> tuple[str, DealRecord]:
    """One record-level mutation: a move dropped, inserted or replaced by another
    legal-looking token, a hand card changed, seats swapped, the dealer changed,
    a stock or pass card changed. Returns ``(what was done, the new record)``."""
    r = copy.deepcopy(record)
    play = r.play or []
    pool = token_pool(variant) + tuple(extra_tokens)
    ops: list[Callable[[], str]] = []

    def drop():
        i = rng.randrange(len(play))
        return f"drop move {i + 1} {play.pop(i)!r}"

    def insert():
        i = rng.randrange(len(play) + 1)
        token = rng.choice(pool)
        play.insert(i, token)
        return f"insert {token!r} at move {i + 1}"

    def replace():
        i = rng.randrange(len(play))
        token = rng.choice(pool)
        old, play[i] = play[i], token
        return f"replace move {i + 1} {old!r} by {token!r}"

    def swap_moves():
        i, j = rng.randrange(len(play)), rng.randrange(len(play))
        play[i], play[j] = play[j], play[i]
        return f"swap moves {i + 1} and {j + 1}"

    def hand_card():
        seats = [s for s, h in enumerate(r.hands) if h]
        seat = rng.choice(seats)
        i = rng.randrange(len(r.hands[seat]))
        card = rng.randrange(52)
        r.hands[seat][i] = card
        return f"hand of seat {seat}, card {i} -> {CARD_NAMES[card]}"

    def drop_hand_card():
        seats = [s for s, h in enumerate(r.hands) if h]
        seat = rng.choice(seats)
        r.hands[seat].pop(rng.randrange(len(r.hands[seat])))
        return f"a card dropped from seat {seat}'s hand"

    def swap_hands():
        a, b = rng.sample(range(len(r.hands)), 2)
        r.hands[a], r.hands[b] = r.hands[b], r.hands[a]
        return f"hands of seats {a} and {b} swapped"

    def swap_players():
        a, b = rng.sample(range(len(r.players)), 2)
        r.players[a], r.players[b] = r.players[b], r.players[a]
        return f"players of seats {a} and {b} swapped"

    def dealer():
        r.dealer = rng.choice(r.players)
        return f"dealer -> {r.dealer}"

    def stock_card():
        i = rng.randrange(len(r.stock))
        r.stock[i] = rng.randrange(52)
        return f"stock card {i} -> {CARD_NAMES[r.stock[i]]}"

    def pass_card():
        seats = [s for s, p in enumerate(r.passes) if p]
        seat = rng.choice(seats)
        i = rng.randrange(len(r.passes[seat]))
        r.passes[seat][i] = rng.randrange(52)
        return f"pass of seat {seat}, card {i} -> {CARD_NAMES[r.passes[seat][i]]}"

    def drop_secret():
        seat = rng.randrange(len(r.secrets))
        r.secrets[seat] = []
        return f"secret of seat {seat} dropped"

    def scores():
        if r.scores is None:
            r.scores = ["0"] * len(r.players)
        seat = rng.randrange(len(r.scores))
        r.scores[seat] = rng.choice(HOSTILE_SCORES)
        return f"score of seat {seat} -> {r.scores[seat][:20]}"

    def hostile_token():
        token = hostile_move_token(rng)
        if play and rng.random() < 0.7:
            play[rng.randrange(len(play))] = token
        else:
            play.insert(rng.randrange(len(play) + 1), token)
        return f"hostile token {token[:20]!r} ({len(token)} characters)"

    def score_sheet():
        play.clear()
        return "play removed (a score-sheet row)"

    if play:
        ops += [drop, replace, swap_moves, drop, replace]
    ops += [insert, hostile_token]
    if r.hands and any(r.hands):
        ops += [hand_card, drop_hand_card]
        if len(r.hands) > 1:
            ops.append(swap_hands)
    if len(r.players) > 1:
        ops.append(swap_players)
    if r.dealer is not None:
        ops.append(dealer)
    if r.stock:
        ops.append(stock_card)
    if r.passes and any(r.passes):
        ops.append(pass_card)
    if r.secrets:
        ops.append(drop_secret)
    ops += [scores, score_sheet]
    what = rng.choice(ops)()
    r.play = play
    return what, r
