"""Commands that need no database: `variants`, `validate`, `simulate`."""
from __future__ import annotations

import os
import pickle
import shutil
import sys
import tempfile
import textwrap
from array import array
from contextlib import ExitStack, contextmanager

import click

from tourney.engines import get_game, variant_ids
from tourney.engines.base import MAX_DEALS_PER_MATCH
from tourney.engines.presentation import rules_sentence
from tourney.errors import RecordError, TourneyError, UsageError
from tourney.errors.counts import count_text, plural_word
from tourney.records.csv_format import RecordReader, canonical_rows, typed_record, write_records
from tourney.records.parallel import collides, key_digest, plan_parts, run_parts, usable_cores
from tourney.records.sources import open_source
from tourney.records.validation import (
    MAX_MATCHES_PER_FILE,
    DealCheck,
    MatchCheck,
    RecordChecker,
    nothing_filled_in,
    too_many_matches,
)

from .completion import complete_event, complete_variant
from .errors import INVALID, OK, notice_message
from .errors import message as error_message
from .output import (
    COUNT,
    db_option,
    echo,
    emit_json,
    emit_jsonl,
    encoding_option,
    json_option,
    message,
    parse_rules,
    rule_option,
    sheet_option,
)


@click.command()
@click.argument("variant", required=False, metavar="[VARIANT]",
                shell_complete=complete_variant)
@json_option
def variants(variant, as_json):
    """List the variants with their player counts and options (house rules).

    With VARIANT, show that game alone: its rules in a few sentences, then its
    options with their defaults. Set options per event with
    `tourney event create SLUG --variant VARIANT --rule KEY=VALUE`.

    \b
    Examples:
      tourney variants
      tourney variants spardame
    """
    games = [get_game(variant)] if variant else [get_game(v) for v in variant_ids()]
    if as_json:
        emit_json(games[0].describe() if variant else [g.describe() for g in games])
        return
    for game in games:
        echo(f"{game.id}: {game.name} ({players_text(game.min_players, game.max_players)})")
        if variant:
            echo(textwrap.fill(game.summary, width=78, initial_indent="  ",
                                     subsequent_indent="  "))
            echo("  options:")
        indent = "    " if variant else "  "
        for spec in game.option_specs:
            choices = f" [{'|'.join(str(c) for c in spec.choices)}]" if spec.choices else ""
            default = spec.format(spec.default)
            echo(f"{indent}{spec.key}{choices} (default: {default}): {spec.doc}")


def players_text(least: int, most: int) -> str:
    """ "2 players", "3-5 players"."""
    return f"{least} players" if least == most else f"{least}-{most} players"


def _deal_json(check: DealCheck) -> dict:
    if check.valid:
        return {"kind": "deal", "line": check.line, "valid": True,
                "scores": check.outcome.scores, "error": None,
                "verified": check.outcome.verified}
    return {"kind": "deal", **check.error.position(), "line": check.line, "valid": False,
            "scores": None, "error": str(check.error), "rule": check.error.rule,
            "verified": None}


def _match_json(match: MatchCheck) -> dict:
    error = match.error
    return {
        "kind": "match", "event": match.event, "round": match.round, "table": match.table,
        "valid": match.valid,
        "ranking": [[p, place] for p, place in match.result.ranking] if match.result else None,
        "error": None if error is None else str(error),
        "rule": None if error is None else error.rule,
        **(NO_POSITION if error is None else error.position()),
        # every error of the match (the first is the one above), each as an
        # invalid deal's object gives its error
        "errors": [{"error": str(err), "rule": err.rule, **err.position()}
                   for err in match.errors],
    }


class _Spool:
    """Lines to print later (``(kind, payload)``), kept in a temporary file rather than
    in memory: a part's output until its turn comes, the matches' JSON until every
    deal is printed. A file of a million rows prints a million lines; holding them
    took the process past a GB. Picklable once closed (a part hands it back)."""

    def __init__(self):
        fd, self.path = tempfile.mkstemp(prefix="tourney-validate-", suffix=".spool")
        self.stream = os.fdopen(fd, "wb")

    def add(self, kind: str, payload) -> None:
        pickle.dump((kind, payload), self.stream, protocol=pickle.HIGHEST_PROTOCOL)

    def close(self) -> "_Spool":
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        return self

    def replay(self, emit) -> None:
        """Each line through ``emit(kind, payload)``, in order; the file is removed."""
        self.close()
        try:
            with open(self.path, "rb") as stream:
                while True:
                    try:
                        kind, payload = pickle.load(stream)
                    except EOFError:
                        break
                    emit(kind, payload)
        finally:
            self.discard()

    def discard(self) -> None:
        self.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass


# The position keys of a valid match (an invalid one has its error's).
NO_POSITION = {"line": None, "column": None, "move": None, "seat": None, "player": None}


class _Checked:
    """One reading of a record file (or of a part of one: ``--jobs``): the lines to
    print, in file order, through ``emit(kind, payload)`` ("echo": a text line,
    "json": a JSON line), and the counts."""

    def __init__(self, name: str, as_json: bool, emit):
        self.name = name
        self.as_json = as_json
        self.emit = emit
        self.deals = self.bad_deals = self.matches = self.bad_matches = 0
        self.match_json = _Spool() if as_json else None  # --json: printed after the deals
        self.keys: list | None = None  # a part's matches' keys (to check parts apart)
        self.unfilled = 0
        self.notices: list[str] = []
        self.error: TourneyError | None = None  # a problem of the file: reading stopped
        self.games: list[str] = []  # the variants whose rules were used
        self.by_rules = 0  # errors the rules in force decided (other house rules might allow)

    def skipped(self, source, line: int, reason: str) -> None:
        if self.as_json:
            self.emit("json", {"kind": "skipped", "line": line,
                               "cell": source.cell(line, None), "reason": reason})

    def check(self, source, checker: RecordChecker) -> "_Checked":
        reader = RecordReader(source, filename=self.name, errors="yield",
                              on_skipped=lambda line, reason: self.skipped(source, line, reason))
        name = self.name
        try:
            self._check(source, checker, reader)
        except RecordError as err:  # the file's own problem (too many matches): named
            if err.file is None:
                err.file = name
            raise
        return self

    def _check(self, source, checker: RecordChecker, reader) -> None:
        name, as_json, emit = self.name, self.as_json, self.emit
        for item in checker.check_stream(reader):
            if isinstance(item, MatchCheck):
                self.matches += 1
                if self.keys is not None:
                    self.keys.append(key_digest(item.key))
                if not item.valid:
                    self.bad_matches += 1
                    self.by_rules += item.error.by_rules
                for error in item.errors:
                    source.locate(error)
                    if error.file is None:  # one prefix form: FILE, line N, column
                        error.file = name
                if as_json:
                    self.match_json.add("json", _match_json(item))
                else:
                    # a match's errors read as the import lists them: the one form
                    # of a record error (its rows' errors are printed already)
                    for error in item.problems:
                        emit("echo", error_message(error))
                continue
            if item.error is not None:
                source.locate(item.error)
            self.deals += 1
            if not item.valid:
                self.bad_deals += 1
                self.by_rules += item.error.by_rules
            if as_json:
                emit("json", _deal_json(item))
            elif not item.valid:
                if item.error.file is None:  # one prefix form: FILE, line N, column
                    item.error.file = name
                emit("echo", error_message(item.error))
        self.unfilled = reader.unfilled
        self.notices = list(source.notices)
        self.games = checker.games_used

    def check_part(self, source, checker: RecordChecker) -> "_Checked":
        """:meth:`check` keeping what it printed and a problem of the file, to
        hand them to the process that prints (``--jobs``)."""
        try:
            self.check(source, checker)
        except TourneyError as err:
            self.error = err
        self.emit = None
        return self


def _print(kind: str, payload) -> None:
    if kind == "json":
        emit_jsonl(payload)
    else:
        echo(payload)


def _check_in_parts(file: str, name: str, parts, jobs: int, checker: RecordChecker,
                    as_json: bool, encoding: str | None) -> _Checked | None:
    """The file checked in parts, a process each, and printed in file order; None
    (nothing printed) when a match crosses parts: then one process checks it."""

    def work(source) -> _Checked:
        printed = _Spool()
        done = _Checked(name, as_json, printed.add)
        done.keys = array("q")
        done.check_part(source, checker)
        done.printed = printed.close()
        if done.match_json is not None:
            done.match_json.close()
        return done

    results = run_parts(file, name, parts, work, encoding=encoding, jobs=jobs)
    if results is None:  # a process did not finish: one process checks the file
        return None
    stopped = next((i for i, r in enumerate(results) if r.error is not None), None)
    if stopped is not None:
        for result in results[stopped + 1:]:
            _discard(result)
        results = results[:stopped + 1]  # a single process stops there too
    if sum(r.matches for r in results) > MAX_MATCHES_PER_FILE:
        for result in results:
            _discard(result)
        error = too_many_matches(None)
        error.file = name
        raise error
    if collides(r.keys for r in results):
        for result in results:
            _discard(result)
        return None
    total = _Checked(name, as_json, _print)
    for index, result in enumerate(results):
        result.printed.replay(_print)
        total.deals += result.deals
        total.bad_deals += result.bad_deals
        total.matches += result.matches
        total.bad_matches += result.bad_matches
        total.by_rules += result.by_rules
        if result.match_json is not None:
            result.match_json.replay(total.match_json.add)
        total.unfilled += result.unfilled
        total.notices += [n for n in result.notices if n not in total.notices]
        total.games += [g for g in result.games if g not in total.games]
        if result.error is not None:
            for rest in results[index + 1:]:
                _discard(rest)
            raise result.error
    return total


def _discard(result: "_Checked") -> None:
    """A part's spooled output, not to be printed."""
    result.printed.discard()
    if result.match_json is not None:
        result.match_json.discard()


def _event_checker(slug: str, db_url: str | None):
    """The checker of ``validate --event``: the event's settings, read from the
    database opened read-only (the storage layer is loaded only then)."""
    from tourney.storage.db import reading
    from tourney.tournament.events import get_event
    from tourney.tournament.players import entered_names
    from tourney.tournament.settings import event_checker, event_settings

    from .database import open_db

    engine = open_db(db_url, read_only=True)
    try:
        with reading(engine) as session:
            event = get_event(session, slug)
            settings = event_settings(event)
            entered = entered_names(session, event)
    finally:
        engine.dispose()  # no pooled connection is left to the processes of --jobs
    return event_checker(settings, entered), settings


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--variant", shell_complete=complete_variant, help="The variant of rows without a variant column.")
@click.option("--event", "event_slug", metavar="SLUG", shell_complete=complete_event,
              help="Check with this event's variant, house rules, match rules, seating "
                   "and stored results: the verdict `result import` would give (reads the "
                   "database, writes nothing).")
@sheet_option
@encoding_option
@rule_option
@click.option("--jobs", type=click.IntRange(1, 256), metavar="N",
              help="Processes that check a big CSV file at a time, each taking the next part "
                   "of it as it ends (default: one per core; a file under 2 MB is checked "
                   "in one). Output is in file order.")
@json_option
@db_option
def validate(file, variant, event_slug, sheet, encoding, rules, jobs, as_json, db_url):
    """Check every deal and every match of a record file (CSV or XLSX; - for
    stdin); touches no database, unless --event names an event whose rules to
    use (then the database is only read).

    Each deal is replayed move by move by its variant's engine (or, for a
    score-sheet row, its scores are checked for what is possible); each match is
    checked for deal numbering, same players, the dealer rule and its end rule.
    Every error is listed, worded as `result import` words it: each row's, and
    each problem of a match that can be told apart from the others (none that
    follows from another; --json: the match's "errors").
    Unfilled score-sheet rows are skipped, their key columns still checked;
    --json reports each as {"kind": "skipped", "line": N, "reason": ...}.

    A big CSV file is checked by one process per core (--jobs), each taking the
    next part of it as it ends; what is printed is the same, in the same order, as one process
    prints.

    Without --event, the rules are the variant's defaults and any --rule; the
    last messages say which were used (and, when the defaults refused what house
    rules decide, how to give them). With --event SLUG, every row is checked
    with that event's variant, house rules and match rules exactly as `tourney
    result import` checks them (a row of another event or variant is an error),
    and every name must be a player entered in the event (or an old name of
    one); a file valid by its rows is then checked as the import checks it
    (the seating, the results already stored), so both give one verdict.

    Exit status: 0 all valid, 1 some deal or match invalid, 2 usage error
    (unknown event, variant or option, unreadable file, unknown header, no
    database for --event).

    \b
    Examples:
      tourney validate round3.csv --variant spardame --rule pass=cycle
      tourney validate round3.csv --event club-1
      tourney validate season.csv --json | jq 'select(.valid|not)'
    """
    given = parse_rules(rules)
    if event_slug is not None:
        if variant is not None or given:
            raise UsageError("--event checks with the event's own variant and rules; "
                             "leave out --variant and --rule")
        checker, settings = _event_checker(event_slug, db_url)
        used = rules_sentence([settings.game.id], settings.rules, event=settings.slug)
    else:
        checker, used = RecordChecker(variant=variant, rules=given), None
    name = "<stdin>" if file == "-" else file
    with ExitStack() as spool:
        if event_slug is not None and file == "-":
            # read twice (the rows, then the import's own checks): spooled to a file
            file = spool.enter_context(_spooled_stdin())
        _validate(file, name, event_slug, checker, used, given, sheet, encoding, jobs, as_json,
                  db_url)


@contextmanager
def _spooled_stdin():
    """Standard input copied to a temporary file (its path), removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="tourney-validate-") as folder:
        path = os.path.join(folder, "stdin")
        with open(path, "wb") as stream:
            shutil.copyfileobj(sys.stdin.buffer, stream, 1 << 20)
        yield path


def _import_errors(file: str, name: str, slug: str, db_url: str | None, sheet: str | None,
                   encoding: str | None) -> list:
    """What `result import FILE --event SLUG` would refuse the file for (nothing: it
    would store it), found by the import itself in a dry run on the database opened
    read-only: the seating, the entries, the stored results."""
    from tourney.app.results import ImportOptions, NothingFilledIn, import_results
    from tourney.storage.db import reading
    from tourney.tournament.results import ImportRejected

    from .database import open_db

    engine = open_db(db_url, read_only=True)
    try:
        with reading(engine) as session:
            import_results(session, file, ImportOptions(event=slug, dry_run=True,
                                                        encoding=encoding, sheet=sheet, jobs=1))
    except NothingFilledIn:
        return []  # said by validate itself
    except ImportRejected as rejected:
        for error in rejected.report.errors:
            if error.file is None or file != name:
                error.file = name
        return rejected.report.errors
    finally:
        engine.dispose()
    return []


def _validate(file, name, event_slug, checker, used, given, sheet, encoding, jobs, as_json,
              db_url) -> None:
    checked = None
    if sheet is None:
        jobs = usable_cores() if jobs is None else jobs
        parts = plan_parts(file, jobs, encoding=encoding)
        if parts is not None:
            checked = _check_in_parts(file, name, parts, jobs, checker, as_json, encoding)
    if checked is None:
        checked = _Checked(name, as_json, _print)
        try:
            with open_source(file, encoding=encoding, sheet=sheet) as source:
                checked.check(source, checker)
        except BaseException:
            if checked.match_json is not None:
                checked.match_json.discard()
            raise
    for notice in checked.notices:
        message(notice_message(notice))
    if as_json:
        checked.match_json.replay(lambda _kind, match: emit_jsonl(match))
    skipped_text = (f"; skipped {count_text(checked.unfilled, 'empty score-sheet row')}"
                    if checked.unfilled else "")
    if used is None:
        used = rules_sentence(checked.games, given)
    message(f"{name}: {used.english()}")
    message(f"{name}: {count_text(checked.deals, 'deal')} in "
            f"{count_text(checked.matches, 'match')}: "
            f"{checked.bad_deals} invalid {plural_word(checked.bad_deals, 'deal')}, "
            f"{checked.bad_matches} invalid {plural_word(checked.bad_matches, 'match')}"
            f"{skipped_text}")
    if checked.by_rules and event_slug is None and not given:
        message(f"{name}: {used.english()}; if the file was played with house rules, "
                "give them (--rule NAME=VALUE) or --event SLUG")
    if event_slug is not None and not checked.bad_deals and not checked.bad_matches:
        # valid by the rows alone: the seating, the entries and the stored results
        # say the rest, as the import would (the one verdict of both commands)
        refused = _import_errors(file, name, event_slug, db_url, sheet, encoding)
        for error in refused:
            if as_json:
                emit_jsonl({"kind": "import", "valid": False, "error": str(error),
                            "rule": error.rule, **error.position()})
            else:
                echo(error_message(error))
        if refused:
            message(f"{name}: result import would refuse it: "
                    f"{count_text(len(refused), 'error')}")
            sys.exit(INVALID)
    if checked.unfilled and not checked.deals and not checked.bad_deals:
        # an untouched score sheet: refused as `result import` refuses it
        empty = nothing_filled_in(checked.unfilled)
        if as_json:
            emit_jsonl({"kind": "file", "file": name, "valid": False, "error": empty.message,
                        "rule": empty.rule})
        message(f"Error: {name}: {empty.message}")
        sys.exit(INVALID)
    sys.exit(INVALID if checked.bad_deals or checked.bad_matches else OK)


@click.command()
@click.argument("variant", required=False, shell_complete=complete_variant)
@click.option("--players", "nplayers", type=click.IntRange(1, 100),
              help="Players per table (without --round).")
@click.option("--deals", type=click.IntRange(1, MAX_DEALS_PER_MATCH),
              help=f"Deals per match, 1 to {MAX_DEALS_PER_MATCH} (for variants without "
                   "an end rule).")
@click.option("--tables", type=click.IntRange(1, 100_000), default=1, show_default=True,
              help="Tables per round (without --round).")
@click.option("--rounds", type=click.IntRange(1, 100_000), default=1, show_default=True,
              help="Rounds (without --round).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--skill", type=float, default=1.0, show_default=True,
              help="Bot skill: the chance of a heuristic move rather than a random legal one.")
@click.option("--event", help="Fill the event column; with --round, the event whose round "
                              "is played.")
@click.option("--round", "round_number", type=COUNT,
              help="Play this seated round of --event: every table without a result, the "
                   "players in their seats, the event's rules (needs the database).")
@rule_option
@json_option
@db_option
def simulate(variant, nplayers, deals, tables, rounds, seed, skill, event, round_number, rules,
             as_json, db_url):
    """Play matches with bots and write a valid record CSV to stdout.

    Bots play legal moves: with probability --skill a simple heuristic, otherwise
    a random legal move. Matches follow the variant's end rule (e.g. dam-stick to
    100 points); variants without one play --deals deals (default 4).

    With --event SLUG --round N, the bots play that seated round of the event:
    every table that has no result yet, with the players in their seats (the
    first seat deals first) and the event's rules, so `tourney result import`
    takes the file as it is (a way to try an event out before the evening).

    With --json, the same records as JSON lines: one object per deal, keyed by
    the record file's columns (as sqlite-utils' --nl); round and deal are
    numbers and the table a label, as in `tourney result export --json`.

    \b
    Examples:
      tourney simulate spardame --players 4 --deals 3 --seed 7 > sim.csv
      tourney validate sim.csv
      tourney simulate --event club-1 --round 2 --seed 1 > round-2.csv
      tourney result import round-2.csv
    """
    if round_number is not None:
        records, game = _simulate_seated_round(variant, nplayers, event, round_number, rules,
                                               seed, skill, deals, db_url)
    else:
        if variant is None:
            raise UsageError("name the VARIANT to simulate, or --event SLUG --round N to "
                             "play a seated round", setting="variant")
        if nplayers is None:
            raise UsageError("--players is needed (players per table)")
        game = get_game(variant)
        if not game.min_players <= nplayers <= game.max_players:
            raise UsageError(f"{variant} is played by "
                             f"{players_text(game.min_players, game.max_players)}")
        if not 0.0 <= skill <= 1.0:
            raise UsageError("--skill is a probability between 0 and 1")
        from tourney.simulation import simulate_rounds

        options = game.resolve_options(parse_rules(rules))
        records = simulate_rounds(game, options, nplayers, rounds=rounds, tables=tables,
                                  seed=seed, deals=deals, skill=skill, event=event)
    if as_json:
        for fields in canonical_rows(records, game_for=lambda record: game):
            emit_jsonl(typed_record(fields))
    else:
        write_records(sys.stdout, records, game_for=lambda record: game)


def _simulate_seated_round(variant, nplayers, event, round_number, rules, seed, skill, deals,
                           db_url):
    """The records of a seated round (simulate --event --round) and its game."""
    if event is None:
        raise UsageError("--round needs --event SLUG (the event whose round is played)")
    if nplayers is not None or rules:
        raise UsageError("--round plays the event's tables with its rules: leave out "
                         "--players and --rule")
    if not 0.0 <= skill <= 1.0:
        raise UsageError("--skill is a probability between 0 and 1")
    from tourney.app.rounds import simulate_round
    from tourney.storage.db import reading
    from tourney.tournament.events import get_event

    from .database import open_db

    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        played = get_event(session, event).variant
        if variant is not None and variant != played:
            raise UsageError(f"{event} is an event of {played}, not {variant}")
        records = simulate_round(session, event, round_number, seed=seed, skill=skill,
                                 deals=deals)
    message(f"played {count_text(len({r.table for r in records}), 'table')} of {event} "
            f"round {round_number}: {count_text(len(records), 'deal')}")
    return records, get_game(played)


def register(group: click.Group) -> None:
    group.add_command(variants)
    group.add_command(validate)
    group.add_command(simulate)
