"""A long fuzz session over the record reader and the record checker.

Run once (minutes), not in the test suite::

    python bench/fuzz_long.py structured --seconds 240     # structure-aware, random
    python bench/fuzz_long.py atheris --seconds 300        # coverage-guided (pip install atheris)

Both modes feed inputs through ``tests/hardening/fuzz_support.check_bytes``: the
reader (``errors="yield"``) and :class:`RecordChecker` must raise nothing but the
project's errors, every error must carry a position, and no deal may be reported
with the catch-all rule ``internal`` (an engine crash). Findings are deduplicated
by their signature (exception type and the innermost project frame, or the
broken invariant's rule) and each first input is saved under ``--out``
(default ``$TMPDIR/tourney-fuzz-findings/``) with a summary ``summary.json``, rewritten as
the session goes (libFuzzer ends the process without running Python's exit hooks).

``structured`` starts from valid simulated matches of every variant and applies
one to four mutations per input: record-level (a move dropped, inserted, replaced
or swapped, a hand, stock or pass card changed, seats swapped, the dealer
changed, scores changed, a score-sheet row), text-level (tokens, cells, rows
deleted, duplicated, swapped) and byte-level (bits flipped, NUL, CR, quotes,
broken UTF-8). ``atheris`` gives libFuzzer the same valid files as its seed
corpus and lets it mutate bytes with coverage feedback over the reader, the
checker and the engines.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "hardening"))


class Session:
    """Counts inputs and keeps the first input of every distinct finding."""

    def __init__(self, mode: str, out: Path):
        self.mode = mode
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self.tried = 0
        self.valid_deals = 0
        self.findings: dict[str, dict] = {}
        self.started = time.time()
        self._last_write = 0.0

    def signature(self, err: BaseException) -> str:
        from fuzz_support import InvariantBroken

        if isinstance(err, InvariantBroken):
            text = str(err)
            # "engine crash reported as rule 'internal': ... (KeyError: 5) ..." -> kind
            kind = text.split(": ", 1)[1] if ": " in text else text
            return "invariant: " + kind.split("(")[0][:120] + _exception_kind(text)
        frames = traceback.extract_tb(err.__traceback__)
        own = [f for f in frames if "/tourney/" in f.filename or "/cli/" in f.filename]
        where = own[-1] if own else (frames[-1] if frames else None)
        place = f"{Path(where.filename).name}:{where.lineno}" if where else "?"
        return f"{type(err).__name__} at {place}"

    def run_one(self, data: bytes, variant: str | None = None, rules: dict | None = None,
                note: str = "") -> None:
        from fuzz_support import check_bytes

        self.tried += 1
        try:
            valid, _ = check_bytes(data, variant=variant, rules=rules)
            self.valid_deals += valid
        except Exception as err:  # every escape is a finding; keep going
            self.found(err, data, variant, rules, note)
        if time.time() - self._last_write > 10:
            self.write_summary()

    def found(self, err, data, variant, rules, note) -> None:
        sig = self.signature(err)
        entry = self.findings.get(sig)
        if entry is not None:
            entry["count"] += 1
            return
        digest = hashlib.sha256(data).hexdigest()[:16]
        path = self.out / f"{self.mode}-{digest}.csv"
        path.write_bytes(data)
        self.findings[sig] = {
            "signature": sig, "count": 1, "input": str(path), "variant": variant,
            "rules": rules, "note": note, "error": f"{type(err).__name__}: {err}"[:2000],
            "traceback": "".join(traceback.format_exception(err))[-3000:],
        }
        print(f"[finding] {sig}\n  {str(err)[:300]}\n  saved: {path}", flush=True)
        self.write_summary()

    def summary(self) -> dict:
        seconds = time.time() - self.started
        return {
            "mode": self.mode, "inputs_tried": self.tried, "seconds": round(seconds, 1),
            "inputs_per_second": round(self.tried / seconds, 1) if seconds else None,
            "valid_deals_seen": self.valid_deals,
            "distinct_findings": len(self.findings),
            "findings": list(self.findings.values()),
        }

    def write_summary(self) -> None:
        self._last_write = time.time()
        (self.out / f"summary-{self.mode}.json").write_text(
            json.dumps(self.summary(), indent=2, default=str))


def _exception_kind(text: str) -> str:
    # keep the exception name of an "internal" report in the signature
    start = text.find("(")
    if start < 0:
        return ""
    return " " + text[start + 1:].split(":", 1)[0][:40]


# ------------------------------------------------------------------- structured

def structured(session: Session, seconds: float, seed: int) -> None:
    import fuzz_support as fz

    from tourney.engines import VARIANT_IDS

    rng = random.Random(seed)
    pool = [(s, fz.to_csv(s.records, s.variant)) for s in fz.all_samples()]
    print(f"structured: {len(pool)} seed matches over {len(VARIANT_IDS)} variants", flush=True)
    deadline = time.time() + seconds
    while time.time() < deadline:
        sample, text = rng.choice(pool)
        records = [r for r in sample.records]
        notes = []
        # 1-4 mutations, starting from the record level (deep, rule-relevant)
        for _ in range(rng.randint(1, 4)):
            level = rng.random()
            if level < 0.55:
                i = rng.randrange(len(records))
                what, records[i] = fz.mutate_record(records[i], sample.variant, rng)
                notes.append(f"deal {i + 1}: {what}")
                text = fz.to_csv_raw(records)
            elif level < 0.85:
                text = fz.mutate_text(text, rng)
                notes.append("text")
            else:
                notes.append("bytes")
                data = fz.mutate_bytes(text.encode("utf-8", errors="surrogateescape"), rng)
                text = data.decode("utf-8", errors="surrogateescape")
        data = text.encode("utf-8", errors="surrogateescape")
        # half the inputs with the match's house rules given on the command line
        rules = sample.rules if rng.random() < 0.5 else None
        session.run_one(data, variant=None, rules=rules, note="; ".join(notes))
        # and the deal straight through the checker (no CSV in between)
        i = rng.randrange(len(sample.records))
        what, record = fz.mutate_record(sample.records[i], sample.variant, rng)
        session.tried += 1
        try:
            fz.check_deal_record(record, sample.variant, sample.rules)
        except Exception as err:
            session.found(err, fz.to_csv_raw([record]).encode("utf-8", "surrogateescape"),
                          sample.variant, sample.rules, f"record-level: {what}")


# ------------------------------------------------------------------- atheris

def run_atheris(session: Session, seconds: float, seed: int) -> None:
    import atheris

    with atheris.instrument_imports(include=["tourney"]):
        import tourney.records.csv_format  # noqa: F401
        import tourney.records.validation  # noqa: F401
        from tourney.engines import VARIANT_IDS, get_game

        for variant in VARIANT_IDS:
            get_game(variant)
    import fuzz_support as fz

    corpus = Path(tempfile.mkdtemp(prefix="tourney-fuzz-corpus-"))
    for k, sample in enumerate(fz.all_samples()):
        (corpus / f"seed-{k}.csv").write_text(fz.to_csv(sample.records, sample.variant))
        # a one-deal file of each match too: short inputs mutate faster
        (corpus / f"seed-{k}-1.csv").write_text(fz.to_csv(sample.records[:1], sample.variant))

    def one_input(data: bytes) -> None:
        session.run_one(data)

    argv = [sys.argv[0], str(corpus), f"-max_total_time={int(seconds)}", f"-seed={seed}",
            "-max_len=20000", "-rss_limit_mb=4096", "-print_final_stats=1"]
    atheris.Setup(argv, one_input)
    atheris.Fuzz()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["structured", "atheris"])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path,
                        default=Path(tempfile.gettempdir()) / "tourney-fuzz-findings")
    args = parser.parse_args()
    session = Session(args.mode, args.out)
    try:
        if args.mode == "structured":
            structured(session, args.seconds, args.seed)
        else:
            run_atheris(session, args.seconds, args.seed)
    finally:
        session.write_summary()
        summary = session.summary()
        print(json.dumps({k: v for k, v in summary.items() if k != "findings"}), flush=True)


if __name__ == "__main__":
    main()
