"""Swiss pairing against bbpPairings (FIDE Dutch): quality measures and time per round.

Run: ``python bench/bench_swiss.py [--quick] [--sizes 20,50,100] [--seeds 3] [--rounds 9]
[--rounds-at 1000=5] [--peer-cache DIR | --no-peer-cache] [--peer-cache-from N]``

bbpPairings is a bench-only peer, never a dependency: build it from its source
yourself and name the binary in ``BBP_PAIRINGS`` (``BBP_PAIRINGS=/path/to/bbpPairings.exe``).
Without it the peer's columns are reported as skipped and the run still exits 0.

For each field size and seed a 9-round event is played with random results: each
player has a form in each round, drawn from a generator seeded by the seed, the round
and the player, and the better form wins (45 % Black, 45 % White, 10 % draws, when
the forms are within 0.0513 of each other), so a board gets the same result whoever
paired it and whatever its colours. Every round:

- **same state**: both programs pair the same tournament state (bbpPairings reads it
  as a TRF file written here, ``--dutch input.trf -p output``); the state then moves on
  with bbpPairings' pairing, so every round compares the two on identical input;
- **own event**: ours also pairs an event of its own, moved on by its own pairings
  (the cumulative effect of its colour choices shows there).

Measures, summed over the rounds and seeds (lower is better): rematches; colour-rule
breaks (a player whose colour difference passes 2 or who gets one colour three times
running); downfloaters (boards whose two players have different scores); the score
difference at the boards (points, summed); unmet colour preferences by strength, FIDE
style: absolute (difference beyond 1 or the same colour twice running), strong
(difference 1), mild (difference 0: alternate). Times are seconds per round: ours is
the ``seat_round`` call (the matching library imported beforehand: a command pays
that once, about 0.05 s), the peer's its whole process (reading the TRF file
and writing the pairing; the file is written beforehand, untimed). Both are given as
CPU time (user + system, ``time.process_time`` and the child's rusage), which a
busy shared machine does not inflate, and as wall-clock time; the ratio is of CPU.

Players are numbered 1..n, the pairing number order (rating descending) bbpPairings
uses inside a score group, and our ``Entrant.rank`` is the standing by points, then
that number, so both order a score group alike. A bye is a pairing-allocated bye
worth a win. Our seat 0 (Black) is TRF colour ``b``.

bbpPairings' pairings are cached from 1,000 players up (``--peer-cache-from``): the
shared event is moved on by bbpPairings' pairings and the seeded results only, so
the TRF file of each round is the same from one run to the next, and bbpPairings
(deterministic) pairs it the same. A pairing is stored in ``--peer-cache DIR``
(default ``$BBP_CACHE``, else ``bench/out/bbp_cache/``) under the SHA-256 of the
binary and the TRF text, with the CPU and wall time it took when it ran; a later run
reads it back instead of running bbpPairings again (at 1,000 players a round takes it
about a minute of CPU) and reports those stored times, marked as cached. Below that
size bbpPairings runs every time, so its times (the 100-player ratio) are of this
run. ``--no-peer-cache`` runs it everywhere. Writes the figures to
``bench/out/bench_swiss.json`` too (see bench/figures.py).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from figures import OUT, write_figures

from tourney.pairing.history import BLACK, WHITE, Entrant, PastRound
from tourney.pairing.seating import seat_round

MEASURES = ("rematches", "colour breaks", "downfloaters", "score diff",
            "absolute unmet", "strong unmet", "mild unmet")


class PeerUnavailable(Exception):
    pass


# Two forms closer than this draw: P(|x - y| < g) = 2g - g² = 0.1 for uniform forms.
DRAW_GAP = 1 - 0.9 ** 0.5


def form(seed: int, number: int, key: int) -> float:
    """A player's form in a round: the better form wins, whoever the pairing set."""
    return random.Random(f"{seed}:{number}:{key}").random()


# ------------------------------------------------------------------ the event state

@dataclass
class Event:
    """One event's state: points (half points), colours, meetings, byes, TRF rows."""

    n: int
    rounds: int
    points: dict[int, int] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    colours: dict[int, list[int]] = field(default_factory=dict)
    met: set = field(default_factory=set)
    history: list[PastRound] = field(default_factory=list)
    games: dict[int, list[str]] = field(default_factory=dict)  # TRF round fields

    def __post_init__(self):
        for key in range(1, self.n + 1):
            self.points[key] = 0
            self.byes[key] = 0
            self.colours[key] = []
            self.games[key] = []

    def entrants(self) -> list[Entrant]:
        order = sorted(self.points, key=lambda k: (-self.points[k], k))
        return [Entrant(k, self.points[k] / 2, place + 1, self.byes[k])
                for place, k in enumerate(order)]

    def play(self, tables: list[list[int]], byes: list[int], seed: int, number: int) -> None:
        for black, white in tables:
            fb, fw = form(seed, number, black), form(seed, number, white)
            b, w = ("=", "=") if abs(fb - fw) < DRAW_GAP else ("1", "0") if fb > fw else ("0", "1")
            self.points[black] += {"1": 2, "0": 0, "=": 1}[b]
            self.points[white] += {"1": 2, "0": 0, "=": 1}[w]
            self.colours[black].append(BLACK)
            self.colours[white].append(WHITE)
            self.met.add(frozenset((black, white)))
            self.games[black].append(f"{white:>4} b {b}")
            self.games[white].append(f"{black:>4} w {w}")
        for key in byes:
            self.points[key] += 2
            self.byes[key] += 1
            self.games[key].append("0000 - U")
        self.history.append(PastRound([list(t) for t in tables], list(byes)))

    def trf(self) -> str:
        """The state as a TRF file bbpPairings reads (one 001 line a player)."""
        order = sorted(self.points, key=lambda k: (-self.points[k], k))
        rank = {k: i + 1 for i, k in enumerate(order)}
        lines = ["012 tourney bench"]
        for key in range(1, self.n + 1):
            name = f"Player {key:04d}"
            rating = 2800 - key  # pairing numbers follow the rating
            head = (f"001 {key:>4}      {name:<33} {rating:>4}"
                    f"{'':<28}{self.points[key] / 2:>4.1f} {rank[key]:>4}")
            assert len(head) == 89, len(head)
            lines.append(head + "".join("  " + g for g in self.games[key]))
        lines.append(f"XXR {self.rounds}")
        lines.append("XXC black1")
        return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the measures

def preference(colours: list[int]) -> tuple[int, str]:
    if not colours:
        return 0, "none"
    difference = sum(colours)
    if difference > 1:
        return WHITE, "absolute"
    if difference < -1:
        return BLACK, "absolute"
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return -colours[-1], "absolute"
    if difference:
        return -difference, "strong"
    return -colours[-1], "mild"


def measure(event: Event, tables: list[list[int]]) -> dict[str, float]:
    out = dict.fromkeys(MEASURES, 0)
    for black, white in tables:
        sb, sw = event.points[black], event.points[white]
        out["rematches"] += frozenset((black, white)) in event.met
        out["downfloaters"] += sb != sw
        out["score diff"] += abs(sb - sw) / 2
        for key, got in ((black, BLACK), (white, WHITE)):
            past = event.colours[key]
            want, strength = preference(past)
            if want and want != got:
                out[f"{strength} unmet"] += 1
            after = past + [got]
            if abs(sum(after)) > 2 or (len(after) >= 3 and after[-1] == after[-2] == after[-3]):
                out["colour breaks"] += 1
    return out


# ------------------------------------------------------------------ the two programs

@dataclass
class Clock:
    """CPU seconds (user + system; what a busy shared machine does not inflate) and
    wall-clock seconds of one pairing."""

    cpu: float
    wall: float


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ours(event: Event, seed: int, number: int) -> tuple[list[list[int]], list[int], Clock]:
    entrants = event.entrants()
    cpu, wall = time.process_time(), time.perf_counter()
    seating = seat_round(entrants, event.history, min_size=2, max_size=2, preferred=2,
                         method="swiss", seed=seed, round_number=number,
                         total_rounds=event.rounds)
    return (seating.tables, seating.byes,
            Clock(time.process_time() - cpu, time.perf_counter() - wall))


class Bbp:
    """bbpPairings run as a process on the state written as a TRF file."""

    def __init__(self, cache: Path | None = None, cache_from: int = 1000):
        path = os.environ.get("BBP_PAIRINGS")
        if not path:
            raise PeerUnavailable("BBP_PAIRINGS is not set (the path of a bbpPairings "
                                  "binary built from its source)")
        if not os.access(path, os.X_OK):
            raise PeerUnavailable(f"BBP_PAIRINGS={path} is not an executable file")
        self.path = path
        self.folder = tempfile.TemporaryDirectory(prefix="bench-swiss-")
        self.cache, self.cache_from = cache, cache_from
        self.binary = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        self.cached: dict[int, int] = {}  # players -> pairings read from the cache
        self.stored: dict[int, int] = {}  # players -> pairings run and stored

    def pair(self, event: Event) -> tuple[list[list[int]], list[int], Clock]:
        """bbpPairings' pairing of the state, from the cache where it may be."""
        text = event.trf()
        entry = None
        if self.cache is not None and event.n >= self.cache_from:
            key = hashlib.sha256(f"{self.binary}\n{text}".encode()).hexdigest()
            entry = self.cache / key[:2] / f"{key}.json"
            if entry.exists():
                data = json.loads(entry.read_text(encoding="utf-8"))
                self.cached[event.n] = self.cached.get(event.n, 0) + 1
                return data["tables"], data["byes"], Clock(data["cpu"], data["wall"])
        tables, byes, elapsed = self.run(text)
        if entry is not None:
            entry.parent.mkdir(parents=True, exist_ok=True)
            partial = entry.with_suffix(".part")
            partial.write_text(json.dumps({
                "players": event.n, "tables": tables, "byes": byes, "cpu": elapsed.cpu,
                "wall": elapsed.wall, "measured": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                time.gmtime())}),
                encoding="utf-8")
            partial.replace(entry)
            self.stored[event.n] = self.stored.get(event.n, 0) + 1
        return tables, byes, elapsed

    def run(self, text: str) -> tuple[list[list[int]], list[int], Clock]:
        trf = Path(self.folder.name) / "state.trf"
        out = Path(self.folder.name) / "pairing.txt"
        trf.write_text(text, encoding="utf-8")
        before, wall = children_cpu(), time.perf_counter()
        done = subprocess.run([self.path, "--dutch", str(trf), "-p", str(out)],
                              capture_output=True, text=True)
        elapsed = Clock(children_cpu() - before, time.perf_counter() - wall)
        if done.returncode != 0:
            raise RuntimeError(f"bbpPairings failed ({done.returncode}): "
                               f"{done.stdout}{done.stderr}")
        lines = out.read_text(encoding="utf-8").split()
        count = int(lines[0])
        numbers = [int(x) for x in lines[1:1 + 2 * count]]
        tables, byes = [], []
        for white, black in zip(numbers[::2], numbers[1::2]):
            if black == 0:
                byes.append(white)
            else:
                tables.append([black, white])
        return tables, byes, elapsed


# ------------------------------------------------------------------ the runs

@dataclass
class Totals:
    values: dict[str, float] = field(default_factory=lambda: dict.fromkeys(MEASURES, 0))
    clocks: list[Clock] = field(default_factory=list)
    per_seed: dict[int, dict[str, float]] = field(default_factory=dict)

    def add(self, seed: int, measured: dict[str, float], clock: Clock) -> None:
        mine = self.per_seed.setdefault(seed, dict.fromkeys(MEASURES, 0))
        for k, v in measured.items():
            self.values[k] += v
            mine[k] += v
        self.clocks.append(clock)

    @property
    def cpu(self) -> float:
        return sum(c.cpu for c in self.clocks) / max(1, len(self.clocks))

    @property
    def wall(self) -> float:
        return sum(c.wall for c in self.clocks) / max(1, len(self.clocks))


def check(event: Event, tables, byes) -> None:
    seated = sorted([k for t in tables for k in t] + list(byes))
    assert seated == list(range(1, event.n + 1)), "not every player seated once"


def run_size(n: int, rounds: int, seeds: list[int], bbp: Bbp | None):
    same_ours, same_bbp, own = Totals(), Totals(), Totals()
    for seed in seeds:
        shared, mine = Event(n, rounds), Event(n, rounds)
        for number in range(1, rounds + 1):
            tables, byes, seconds = ours(shared, seed, number)
            check(shared, tables, byes)
            same_ours.add(seed, measure(shared, tables), seconds)
            if bbp is not None:
                p_tables, p_byes, p_seconds = bbp.pair(shared)
                check(shared, p_tables, p_byes)
                same_bbp.add(seed, measure(shared, p_tables), p_seconds)
                shared.play(p_tables, p_byes, seed, number)
            else:
                shared.play(tables, byes, seed, number)
            o_tables, o_byes, o_seconds = ours(mine, seed, number)
            own.add(seed, measure(mine, o_tables), o_seconds)
            mine.play(o_tables, o_byes, seed, number)
        print(f"  {n} players, seed {seed}: done", file=sys.stderr, flush=True)
    return same_ours, same_bbp, own


def beyond_noise(mine: Totals, peer: Totals) -> list[str]:
    """Measures on which ``mine`` (an event of its own) is worse than ``peer`` by more
    than two standard errors of the per-seed difference: two events paired apart
    drift apart (other boards, other results, other score groups), so their sums
    differ by chance; one seed gives no error and every excess counts."""
    worse = []
    seeds = sorted(peer.per_seed)
    for m in MEASURES:
        diffs = [mine.per_seed[s][m] - peer.per_seed[s][m] for s in seeds]
        mean = sum(diffs) / len(diffs)
        if len(diffs) > 1:
            sd = statistics.stdev(diffs)
            if mean > 2 * sd / len(diffs) ** 0.5:
                worse.append(m)
        elif mean > 0:
            worse.append(m)
    return worse


def ratio_text(ratio: float) -> str:
    return f"{ratio:.2f}" if ratio >= 0.1 else f"{ratio:.2g}"


def fmt(value: float) -> str:
    return f"{value:g}" if value != int(value) else f"{int(value)}"


def bbp_cache_text(args) -> str:
    return f"`{args.peer_cache}`, from {args.peer_cache_from} players up"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="20, 50 and 100 players, 2 seeds")
    parser.add_argument("--sizes", default=None, help="field sizes (default 20,50,100,300,1000)")
    parser.add_argument("--seeds", type=int, default=None,
                        help="seeds per size (default 8; 3 from 300 players, 1 from 1,000)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--rounds-at", action="append", default=[], metavar="SIZE=R",
                        help="events of R rounds at SIZE players (repeatable), e.g. 1000=5")
    parser.add_argument("--peer-cache", type=Path, metavar="DIR",
                        default=Path(os.environ.get("BBP_CACHE") or OUT / "bbp_cache"),
                        help="where bbpPairings' pairings are cached (default $BBP_CACHE, "
                             "else bench/out/bbp_cache)")
    parser.add_argument("--peer-cache-from", type=int, default=1000, metavar="N",
                        help="use and fill the cache from N players up (default 1000)")
    parser.add_argument("--no-peer-cache", action="store_true",
                        help="run bbpPairings on every state")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in (args.sizes or ("20,50,100" if args.quick
                                             else "20,50,100,300,1000")).split(",")]
    import rustworkx  # noqa: F401  (imported once before any timing; see above)

    try:
        bbp: Bbp | None = Bbp(None if args.no_peer_cache else args.peer_cache,
                              args.peer_cache_from)
        peer_note = f"bbpPairings: {bbp.path} (`--dutch`, FIDE Dutch system)"
    except PeerUnavailable as err:
        bbp, peer_note = None, f"bbpPairings: skipped ({err})"

    rounds_at = {int(k): int(v) for k, _, v in (item.partition("=") for item in args.rounds_at)}
    shown = ", ".join(f"{r} at {n:,} players" for n, r in sorted(rounds_at.items()))
    print(f"### Swiss pairing against bbpPairings, {args.rounds} rounds"
          + (f" ({shown})" if shown else "") + ", random results\n")
    print(peer_note + "\n")
    print("Sums over the rounds and seeds (lower is better). *same state*: both pair the "
          "state bbpPairings' pairings lead to, the verdict's comparison; *own event*: ours "
          "pairs an event of its own, compared with bbpPairings' event seed by seed "
          "(worse only beyond two standard errors of the per-seed difference).\n")
    head = ("| players | seeds | pairing | " + " | ".join(MEASURES)
            + " | CPU s/round | CPU ratio | wall s/round |")
    print(head)
    print("|---:|---:|---|" + "---:|" * (len(MEASURES) + 3))
    verdicts = []
    figures = []
    for n in sizes:
        count = args.seeds or (2 if args.quick else 1 if n >= 1000 else 3 if n >= 300 else 8)
        seeds = list(range(1, count + 1))
        rounds = rounds_at.get(n, args.rounds)
        same_ours, same_bbp, own = run_size(n, rounds, seeds, bbp)
        rows = [("ours, same state", same_ours)]
        if bbp is not None:
            rows.append(("bbpPairings", same_bbp))
        rows.append(("ours, own event", own))
        for label, totals in rows:
            ratio = (ratio_text(totals.cpu / same_bbp.cpu)
                     if bbp is not None and same_bbp.cpu else "–")
            print(f"| {n} | {count} | {label} | "
                  + " | ".join(fmt(totals.values[m]) for m in MEASURES)
                  + f" | {totals.cpu:.4f} | {ratio} | {totals.wall:.3f} |")
        size = {"players": n, "seeds": count, "rounds": rounds,
                "ours": {"values": same_ours.values, "cpu": same_ours.cpu,
                         "wall": same_ours.wall,
                         "slowest_wall": max(c.wall for c in same_ours.clocks),
                         "slowest_cpu": max(c.cpu for c in same_ours.clocks)},
                "own_event": {"values": own.values, "cpu": own.cpu, "wall": own.wall}}
        if bbp is not None:
            worse = [m for m in MEASURES if same_ours.values[m] > same_bbp.values[m]]
            drift = beyond_noise(own, same_bbp)
            verdicts.append((n, worse, drift, same_ours, same_bbp))
            size.update(bbp={"values": same_bbp.values, "cpu": same_bbp.cpu,
                             "wall": same_bbp.wall},
                        worse=worse, own_event_worse=drift,
                        cpu_ratio=same_ours.cpu / max(same_bbp.cpu, 1e-9),
                        wall_ratio=same_ours.wall / max(same_bbp.wall, 1e-9),
                        peer_cached=bbp.cached.get(n, 0), peer_stored=bbp.stored.get(n, 0))
        figures.append(size)
    print()
    write_figures("bench_swiss", {"measures": list(MEASURES), "peer": bbp is not None,
                                  "peer_note": peer_note, "sizes": figures})
    if bbp is None:
        print("bbpPairings skipped: no comparison.")
        return 0
    cached = {n: k for n, k in bbp.cached.items() if k}
    if cached:
        print("- bbpPairings' pairings read from the cache (" + bbp_cache_text(args) + "), "
              "with the times they took when they ran: "
              + ", ".join(f"{k} at {n} players" for n, k in sorted(cached.items()))
              + ". Its times there are not of this run.")
    stored = {n: k for n, k in bbp.stored.items() if k}
    if stored:
        print("- bbpPairings' pairings run and stored in the cache (" + bbp_cache_text(args)
              + "): " + ", ".join(f"{k} at {n} players" for n, k in sorted(stored.items()))
              + ".")
    for n, worse, drift, mine, peer in verdicts:
        quality = ("same state: equal or better on every measure" if not worse
                   else "same state: worse on " + ", ".join(worse))
        quality += ("; own event: no measure worse beyond chance" if not drift
                    else "; own event: worse on " + ", ".join(drift))
        print(f"- {n} players: {quality}; CPU {ratio_text(mine.cpu / max(peer.cpu, 1e-9))}× "
              f"bbpPairings ({mine.cpu:.4f} s against {peer.cpu:.4f} s a round), wall "
              f"{ratio_text(mine.wall / max(peer.wall, 1e-9))}× ({mine.wall:.3f} s against "
              f"{peer.wall:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
