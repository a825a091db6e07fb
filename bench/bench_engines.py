"""Speed of the game engines: validating record files and bare replay, against peers.

For every variant, bots play simulated matches first (not timed); the records are
written to a CSV file. Then, per variant, in alternating runs:

* **validate**: the full path of ``tourney validate`` over that file:
  :class:`~tourney.records.csv_format.RecordReader` (CSV parsing, card parsing)
  and :meth:`~tourney.records.validation.RecordChecker.check_stream` (engine
  replay of every deal, the claimed scores, every match's rules);
* **replay**: the bare engine, ``game.replay(setup, tokens, options)`` over the
  same deals already parsed (setups built, tokens split);
* **peer** (where there is one, same run, same card sequences):
  DeepMind OpenSpiel's ``hearts`` replaying our 4-player ``spardame`` deals
  (see bench/peers.py for the rule mapping), and py-draughts' ``AmericanBoard``
  replaying our ``dam-brade`` games. ``dam-stick`` cannot be replayed by OpenSpiel
  (its first trick is led by the dealer's right-hand neighbour with any card), so
  its peer figure is OpenSpiel on the spardame deals: the same work, 52 cards
  played by 4 seats.

Times are process CPU time (other processes on a shared machine skew wall-clock
figures); each figure is the best of ``--repeats`` runs. ratio = our replay
deals/s over the peer's. Targets: at least 0.5 of OpenSpiel (aim: parity) for the
trick games, at least 10x py-draughts for dam-brade.

Usage:  python bench/bench_engines.py [--quick] [--deals N] [--repeats R] [--profile]
Prints a markdown table and writes it to bench/out/engines.md; ``--profile`` adds
cProfile hot spots of our replay and validate path (trick games and dam-brade),
also written to bench/out/engines_profile.txt. A peer that is not installed is reported and
skipped (exit 0); exit 1 if one of our engines rejects a simulated record.
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import platform
import pstats
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from peers import OpenSpielHearts, PeerUnavailable, Prepared, PyDraughtsAmerican

from tourney.engines import VARIANT_IDS, get_game
from tourney.engines.dam_brade import jumpers
from tourney.records.csv_format import open_records, write_records
from tourney.records.validation import MatchCheck, RecordChecker
from tourney.simulation import simulate_match

OUT_DIR = Path(__file__).resolve().parent / "out"
OUT = OUT_DIR / "engines.md"
PROFILE_OUT = OUT_DIR / "engines_profile.txt"

PLAYERS = {"svarta-maja": 4, "kortrad": 4, "sju-dolda": 4, "dam-stick": 4, "spardame": 4,
           "dam-brade": 2}
GAMES_PER_DEAL = 5  # dam-brade: --deals N gives N/5 games (a game is ~170 moves, a deal 52)
SEED = 20240601


@dataclass
class Workload:
    """One variant's simulated records, written out and parsed, ready to time."""

    variant: str
    game: object
    options: dict
    records: list
    path: str = ""
    items: list = field(default_factory=list)  # (setup, tokens) per deal
    outcomes: list = field(default_factory=list)
    moves: int = 0
    dropped: int = 0  # dam-brade games left out (a capture skipped)
    error: str | None = None


@dataclass
class PeerRun:
    peer: object | None
    prepared: Prepared | None
    note: str  # why it is missing, or what it replays


# --------------------------------------------------------------------- generation

def simulate(game, options: dict, nplayers: int, want: int, seed: int, keep=None) -> tuple[list, int]:
    """Whole matches (so that each one validates) until ``want`` deals; ``keep``
    filters single-deal matches (dam-brade). Returns the records and the number
    of deals filtered out."""
    rng = random.Random(seed)
    players = [f"P{i + 1}" for i in range(nplayers)]
    records: list = []
    dropped = 0
    match = 0
    while len(records) < want:
        match += 1
        deals = simulate_match(game, options, players, rng, event="bench", round_number=match,
                               table="1")
        if keep is not None and not all(keep(r) for r in deals):
            dropped += len(deals)
            continue
        records.extend(deals)
    return records, dropped


def plain_checkers(game, options: dict):
    """A filter for dam-brade records that are English checkers too: no huff, and
    no step made while a capture was available (with skill 1 the bots always
    capture, so this drops nothing; it is checked, not assumed)."""
    def keep(record) -> bool:
        state = game.new_deal(record.setup(), options)
        for token in record.play:
            move = game.parse_move(token)
            if move[0] == "H":
                return False
            if move[0] == "-" and state.result is None:
                side = state.turn
                if jumpers(side, state.pieces[side], state.pieces[1 - side], state.kings):
                    return False
            game.play(state, move)
        return True
    return keep


def build_workload(variant: str, deals: int, tmp: str) -> Workload:
    game = get_game(variant)
    options = game.resolve_options()
    want = max(deals // GAMES_PER_DEAL, 20) if variant == "dam-brade" else deals
    keep = plain_checkers(game, options) if variant == "dam-brade" else None
    records, dropped = simulate(game, options, PLAYERS[variant], want, SEED, keep)
    work = Workload(variant, game, options, records, dropped=dropped)
    work.path = os.path.join(tmp, f"{variant}.csv")
    with open(work.path, "w", encoding="utf-8", newline="") as out:
        write_records(out, records, game_for=lambda record: game)
    work.items = [(r.setup(), r.play) for r in records]
    work.moves = sum(len(r.play) for r in records)
    # One untimed replay: the outcomes feed the peers' checks, and the claimed
    # scores must be what the engine gives.
    for record, (setup, tokens) in zip(records, work.items):
        outcome = game.replay(setup, tokens, options)
        if [game.format_score(s) for s in outcome.scores] != record.scores:
            raise RuntimeError(f"{variant}: replay disagrees with the simulation's scores")
        work.outcomes.append(outcome)
    return work


# ------------------------------------------------------------------------ timing

def validate_file(path: str) -> tuple[int, int]:
    """``tourney validate`` without the printing: (deals, invalid deals + matches)."""
    checker = RecordChecker()
    stream, reader = open_records(path, errors="yield")
    deals = bad = 0
    with stream:
        for item in checker.check_stream(reader):
            if isinstance(item, MatchCheck):
                bad += not item.valid
                continue
            deals += 1
            bad += not item.valid
    return deals, bad


def replay_items(game, items, options) -> None:
    replay = game.replay
    for setup, tokens in items:
        replay(setup, tokens, options)


def best_times(runs: dict, repeats: int) -> dict:
    """Best CPU time of each callable over ``repeats`` alternating rounds."""
    best = {label: float("inf") for label in runs}
    for _ in range(repeats):
        for label, fn in runs.items():
            gc.collect()
            start = time.process_time()
            fn()
            best[label] = min(best[label], time.process_time() - start)
    return best


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


# ------------------------------------------------------------------------- peers

def open_peer(factory, records, outcomes, what: str) -> PeerRun:
    try:
        peer = factory()
    except PeerUnavailable as err:
        return PeerRun(None, None, f"{factory.name}: skipped, {err}")
    prepared = peer.prepare(records, outcomes)
    note = (f"{peer.name} {peer.version}: {len(prepared.items)} {what}, each replayed once "
            f"before timing and checked: {peer.checks}")
    if prepared.skipped:
        note += "; LEFT OUT: " + ", ".join(f"{n} ({why})" for why, n in prepared.skipped.items())
    else:
        note += " (all agreed)"
    return PeerRun(peer, prepared, note)


# ------------------------------------------------------------------------ report

def machine_lines() -> list[str]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return [
        f"- machine: {platform.platform()}, {cpu}, {os.cpu_count()} CPUs",
        f"- python: {platform.python_implementation()} {platform.python_version()}",
    ]


def fmt_rate(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}x"


def _profile(fn, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    fn()
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    body = text.getvalue()
    return body[body.find("   ncalls"):] if "   ncalls" in body else body


def profile_engines(works: dict, variants: list[str], top: int = 14) -> str:
    """cProfile hot spots (by own time) of the bare replay, then of the validate
    path, of each variant."""
    parts = []
    for variant in variants:
        work = works.get(variant)
        if work is None or work.error:
            continue
        unit = "games" if variant == "dam-brade" else "deals"
        replay = _profile(lambda w=work: replay_items(w.game, w.items, w.options), top)
        validate = _profile(lambda w=work: validate_file(w.path), top)
        parts.append(f"### {variant}: {len(work.items)} {unit}, {work.moves} moves\n\n"
                     f"replay:\n\n```\n{replay.rstrip()}\n```\n\n"
                     f"validate:\n\n```\n{validate.rstrip()}\n```\n")
    return "\n".join(parts)


def time_variant(work: Workload, peer: PeerRun | None, repeats: int) -> tuple[str, bool]:
    """One table row: validate, replay and the peer timed in alternating runs;
    and whether every deal and match validated."""
    variant = work.variant
    n = len(work.items)
    checked = validate_file(work.path)  # untimed: the file must be valid
    runs = {
        "validate": lambda: validate_file(work.path),
        "replay": lambda: replay_items(work.game, work.items, work.options),
    }
    if peer and peer.peer is not None:
        runs["peer"] = lambda: peer.peer.replay_all(peer.prepared.items)
    best = best_times(runs, repeats)
    validate_rate = rate(n, best["validate"])
    replay_rate = rate(n, best["replay"])
    peer_name, peer_rate, ratio = "—", None, None
    if peer is not None:
        peer_name = peer.peer.name if peer.peer else peer.note.split(":")[0] + " (not installed)"
        if variant == "dam-stick" and peer.peer:
            peer_name += " ¹"
    if "peer" in best:
        peer_rate = rate(len(peer.prepared.items), best["peer"])
        ratio = replay_rate / peer_rate
    label = f"{variant} (games)" if variant == "dam-brade" else variant
    bad = "" if checked == (n, 0) else f" ({checked[1]} INVALID)"
    row = (f"| {label} | {n} | {fmt_rate(validate_rate)}{bad} | {fmt_rate(replay_rate)} "
           f"| {peer_name} | {fmt_rate(peer_rate)} | {fmt_ratio(ratio)} |")
    return row, checked == (n, 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small run (well under 30 s)")
    parser.add_argument("--deals", type=int, help="deals per card variant (dam-brade: a fifth "
                        "as many games); default 3000, --quick 300")
    parser.add_argument("--repeats", type=int, help="timed runs per figure, best kept "
                        "(default 5, --quick 2)")
    parser.add_argument("--profile", action="store_true",
                        help="also print cProfile hot spots of our replay and validate path")
    args = parser.parse_args(argv)
    deals = args.deals or (300 if args.quick else 3000)
    repeats = args.repeats or (2 if args.quick else 5)
    started = time.perf_counter()

    header = ["# Engine speed", ""] + machine_lines()
    print("\n".join(header), flush=True)

    works: dict[str, Workload] = {}
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        # 1. Generation (not timed): every variant's records, then the peers' inputs.
        for variant in VARIANT_IDS:
            try:
                works[variant] = build_workload(variant, deals, tmp)
            except Exception as err:  # noqa: BLE001 - an engine still being written must not stop the rest
                works[variant] = Workload(variant, None, {}, [], error=f"{type(err).__name__}: {err}")
                failed = True
            print(f"  simulated {variant}: {len(works[variant].records)} deals", file=sys.stderr,
                  flush=True)

        peers: dict[str, PeerRun] = {}
        spardame = works.get("spardame")
        if spardame and not spardame.error:
            hearts = open_peer(OpenSpielHearts, spardame.records, spardame.outcomes,
                               "spardame deals")
            peers["spardame"] = hearts
            peers["dam-stick"] = hearts
        brade = works.get("dam-brade")
        if brade and not brade.error:
            peers["dam-brade"] = open_peer(PyDraughtsAmerican, brade.records, brade.outcomes,
                                           "dam-brade games")

        # 2. Timing, variant by variant, runs alternating.
        rows = []
        for variant in VARIANT_IDS:
            work = works[variant]
            if work.error:
                rows.append(f"| {variant} | — | error: {work.error} | | | | |")
                continue
            try:
                row, valid = time_variant(work, peers.get(variant), repeats)
            except Exception as err:  # noqa: BLE001 - report it in the row, time the rest
                row, valid = f"| {variant} | — | error: {type(err).__name__}: {err} | | | | |", False
            rows.append(row)
            failed = failed or not valid
            print(f"  timed {variant}", file=sys.stderr, flush=True)

        # 3. Profile (optional, after the timing; needs the files still there).
        profile = profile_engines(works, ["spardame", "dam-stick", "dam-brade"]) if args.profile else ""

    table = [
        "",
        (f"{deals} deals per card variant, {max(deals // GAMES_PER_DEAL, 20)} dam-brade games; "
         f"best of {repeats} runs, process CPU time."),
        "",
        "| variant | deals | validate deals/s | replay deals/s | peer | peer deals/s | ratio |",
        "|---|---:|---:|---:|---|---:|---:|",
        *rows,
        "",
        ("- validate: `tourney validate`'s path over a CSV file (CSV and card parsing, engine "
         "replay, scores and match checks); replay: `game.replay` over parsed setups and tokens."),
        ("- ratio: our replay deals/s over the peer's. Targets: trick games at least 0.5 "
         "(aim 1.0) of OpenSpiel; dam-brade at least 10x py-draughts."),
        ("- ¹ OpenSpiel cannot replay dam-stick (the first trick is led by the dealer's right-hand "
         "neighbour, with any card): its figure is OpenSpiel on the spardame deals, the same "
         "work (4 seats, 52 cards)."),
        ("- OpenSpiel: `hearts` with pass_cards, no_pts_on_first_trick, must_break_hearts, "
         "can_lead_any_club, qs_breaks_hearts off; dealt our post-pass hands (52 chance actions, "
         "timed, with `apply_action`), every card through `apply_action_with_legality_check`, then "
         "`returns()`; `load_game` not timed. OpenSpiel gets its action ints ready; our replay "
         "parses the card tokens and checks the passes."),
        ("- py-draughts: a new `AmericanBoard`, every move through `push_uci` (our square s is "
         "its 33 - s, our Black its White); result tokens not pushed. Only games with no "
         "capture skipped (hence no huff): legal in dam-brade, English checkers and py-draughts."),
    ]
    for variant, peer in peers.items():
        if variant != "dam-stick":
            table.append(f"- {peer.note}.")
    if brade and not brade.error and brade.dropped:
        table.append(f"- dam-brade: {brade.dropped} simulated games left out (a capture skipped).")
    table.append(f"- total run time {time.perf_counter() - started:.0f} s.")
    body = "\n".join(table)
    print(body, flush=True)

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(header) + "\n" + body + "\n", encoding="utf-8")
    print(f"\nwritten to {OUT.relative_to(Path.cwd()) if OUT.is_relative_to(Path.cwd()) else OUT}")

    if args.profile:
        print("\n## Profile of our engines (own time)\n\n" + profile)
        PROFILE_OUT.write_text(profile, encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
