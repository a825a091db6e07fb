"""Back-test of the rating models on simulated seasons with known player strength.

Bots of different, known skill (the chance of a heuristic rather than a random legal
move, spread evenly from 0.0 to 1.0) play seasons of the real engine's matches
(`tourney.simulation.simulate_match`), reseated at random every round; every player
plays one match per round. Each season is rated with each model, and compared with a
baseline that ranks players by their average place so far.

Reported (mean over seasons, with the standard deviation for rho):

(a) Spearman's rank correlation between the rating (ordinal, mu - 3 sigma) and true
    skill after 5, 10 and 20 matches per player;
(b) accuracy of predicting each held-out match's winner: before round r is rated,
    each of its matches is predicted from the ratings after rounds 1..r-1 (the
    player with the highest `predict_win`; the baseline: the lowest average place,
    unplayed players at the middle place). Ties are scored as chances: a predictor
    torn between several players picks one at random, and a first place shared by
    several players goes to one of them at random, so a prediction scores
    |picked & winners| / (|picked| * |winners|), and guessing scores 1/table size.
    An oracle that knows the true skills shows the ceiling.

Usage:  python bench/backtest_ratings.py [--quick] [--seed N] [--variant ID]
Writes the markdown table to bench/out/backtest.md (and prints it).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from tourney.engines import get_game
from tourney.engines.match import rank_totals
from tourney.ratings.engine import Rater, ordinal
from tourney.ratings.models import ModelSpec
from tourney.simulation import simulate_match

MODELS = ("PlackettLuce", "BradleyTerryFull", "ThurstoneMostellerFull",
          "BradleyTerryPart", "ThurstoneMostellerPart")
CHECKPOINTS = (5, 10, 20)
OUT = Path(__file__).resolve().parent / "out" / "backtest.md"


# ------------------------------------------------------------------------ statistics

def average_ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties sharing the average of the ranks they cover."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float:
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else 0.0


def top_set(scores: dict, best_high: bool = True) -> set:
    best = max(scores.values()) if best_high else min(scores.values())
    return {k for k, v in scores.items() if v == best}


def credit(picked: set, winners: set) -> float:
    return len(picked & winners) / (len(picked) * len(winners))


# ------------------------------------------------------------------------ simulation

def simulate_season(game, options, nplayers: int, table_size: int, rounds: int,
                    rng: random.Random, skills: dict[int, float]) -> list[list[list[tuple[int, int]]]]:
    """Rounds of matches, each match a ranking [(player, place)]."""
    rules = game.match_rules(options)
    names = {p: f"P{p:02d}" for p in skills}
    by_name = {n: p for p, n in names.items()}
    name_skills = {names[p]: s for p, s in skills.items()}
    season = []
    for number in range(1, rounds + 1):
        order = list(skills)
        rng.shuffle(order)
        matches = []
        for t in range(nplayers // table_size):
            seats = [names[p] for p in order[t * table_size:(t + 1) * table_size]]
            records = simulate_match(game, options, seats, rng, round_number=number,
                                     table=str(t + 1), skills=name_skills)
            totals = {n: 0 for n in seats}
            for record in records:
                for player, score in zip(record.players, record.scores):
                    totals[player] += game.parse_score(score)
            ranking = rank_totals(totals, rules.higher_is_better, seats)
            matches.append([(by_name[n], place) for n, place in ranking])
        season.append(matches)
    return season


# ------------------------------------------------------------------------ evaluation

def evaluate(season, skills: dict[int, float], table_size: int, models: tuple[str, ...]):
    """Per predictor: rho at each checkpoint and prediction credits per round."""
    players = sorted(skills)
    truth = [skills[p] for p in players]
    middle = (table_size + 1) / 2
    raters = {name: Rater(ModelSpec.create(name).build()) for name in models}
    place_sum = {p: 0.0 for p in players}
    played = {p: 0 for p in players}
    rho: dict[str, dict[int, float]] = {k: {} for k in (*models, "average place")}
    credits: dict[str, list[tuple[int, float]]] = {
        k: [] for k in (*models, "average place", "oracle (true skill)")}
    for number, matches in enumerate(season, 1):
        if number > 1:
            for ranking in matches:
                keys = [p for p, _ in ranking]
                winners = {p for p, place in ranking if place == 1}
                for name, rater in raters.items():
                    win = rater.model.predict_win(
                        [[rater.model.rating(*rater.get(p))] for p in keys])
                    picked = top_set(dict(zip(keys, win)))
                    credits[name].append((number, credit(picked, winners)))
                averages = {p: place_sum[p] / played[p] if played[p] else middle for p in keys}
                credits["average place"].append(
                    (number, credit(top_set(averages, best_high=False), winners)))
                credits["oracle (true skill)"].append(
                    (number, credit(top_set({p: skills[p] for p in keys}), winners)))
        for ranking in matches:
            for rater in raters.values():
                rater.rate(ranking)
            for p, place in ranking:
                place_sum[p] += place
                played[p] += 1
        if number in CHECKPOINTS:
            for name, rater in raters.items():
                rho[name][number] = spearman([ordinal(*rater.get(p)) for p in players], truth)
            rho["average place"][number] = spearman(
                [-(place_sum[p] / played[p]) for p in players], truth)
    return rho, credits


def windows(rounds: int) -> list[tuple[str, int, int]]:
    spans = [("rounds 2-5", 2, 5), ("rounds 6-10", 6, 10), (f"rounds 11-{rounds}", 11, rounds),
             (f"all (2-{rounds})", 2, rounds)]
    return [s for s in spans if s[1] <= min(s[2], rounds)]


def run(args) -> str:
    game = get_game(args.variant)
    options = game.resolve_options({})
    table_size = args.table
    skills = {p: p / (args.players - 1) for p in range(args.players)}
    rng = random.Random(args.seed)
    started = time.perf_counter()
    all_rho: dict[str, dict[int, list[float]]] = {}
    all_credits: dict[str, list[tuple[int, float]]] = {}
    sim_time = 0.0
    for season_number in range(args.seasons):
        t0 = time.perf_counter()
        season = simulate_season(game, options, args.players, table_size, args.rounds, rng, skills)
        sim_time += time.perf_counter() - t0
        rho, credits = evaluate(season, skills, table_size, MODELS)
        for name, by_point in rho.items():
            for point, value in by_point.items():
                all_rho.setdefault(name, {}).setdefault(point, []).append(value)
        for name, items in credits.items():
            all_credits.setdefault(name, []).extend(items)
        print(f"season {season_number + 1}/{args.seasons} done "
              f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    elapsed = time.perf_counter() - started

    lines = [
        f"# Ratings back-test ({'quick' if args.quick else 'full'} run)",
        "",
        f"{args.seasons} simulated seasons of `{args.variant}` (default rules), "
        f"{args.players} bots with skills spread evenly over 0.0..1.0, tables of "
        f"{table_size}, reseated at random every round, {args.rounds} rounds "
        f"(one match per player per round); seed {args.seed}. "
        f"{args.seasons * args.rounds * (args.players // table_size)} matches; "
        f"simulation {sim_time:.1f} s, total {elapsed:.1f} s.",
        "Models at openskill's default parameters; rating = ordinal (mu - 3 sigma).",
        "",
        "## (a) Spearman rho between rating and true skill (mean ± sd over seasons)",
        "",
    ]
    points = [p for p in CHECKPOINTS if p <= args.rounds]
    lines.append("| rating | " + " | ".join(f"after {p} matches" for p in points) + " |")
    lines.append("|---|" + "---:|" * len(points))
    for name in (*MODELS, "average place"):
        cells = []
        for p in points:
            values = all_rho[name][p]
            sd = statistics.stdev(values) if len(values) > 1 else 0.0
            cells.append(f"{statistics.fmean(values):.3f} ± {sd:.3f}")
        label = f"{name} (default)" if name == "PlackettLuce" else name
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## (b) Held-out winner prediction accuracy (next round from the rounds before)",
        "",
    ]
    spans = windows(args.rounds)
    lines.append("| predictor | " + " | ".join(s[0] for s in spans) + " |")
    lines.append("|---|" + "---:|" * len(spans))
    for name in (*MODELS, "average place", "oracle (true skill)"):
        cells = []
        for _label, low, high in spans:
            values = [c for r, c in all_credits[name] if low <= r <= high]
            cells.append(f"{statistics.fmean(values):.3f}" if values else "")
        label = f"{name} (default)" if name == "PlackettLuce" else name
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append(f"| chance (1/{table_size}) | " + " | ".join(
        f"{1 / table_size:.3f}" for _ in spans) + " |")
    lines += ["", "Matches predicted per window per predictor: " + ", ".join(
        f"{s[0]}: {sum(1 for r, _ in all_credits['PlackettLuce'] if s[1] <= r <= s[2])}"
        for s in spans) + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer seasons (under a minute).")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--variant", default="spardame")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--seasons", type=int)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.rounds is None:
        args.rounds = 20 if args.quick else 30
    if args.seasons is None:
        args.seasons = 20 if args.quick else 100
    if args.players % args.table:
        parser.error("--players must be a multiple of --table (every player plays each round)")
    report = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report, encoding="utf-8")
    print(report)
    print(f"written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
