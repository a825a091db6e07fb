"""Players: registering, listing, renaming, merging duplicates, importing a CSV.

Service functions take an open session (the caller owns the transaction, see
:func:`tourney.storage.db.transaction`), write an audit row for every change, and
raise :class:`~tourney.errors.TourneyError` for anything a user can get wrong.

Decisions:

- Names are stored as given, surrounding whitespace stripped, never otherwise
  transformed; lookups are exact. An unknown name gets an error naming the closest
  registered names (case-insensitive), so ``anna`` suggests ``Anna``.
- A name may not contain ``;``: the record CSV separates the players of a deal with
  it, so such a player could never appear in a record.
- ``player rename`` keeps the old name as an alias: a row of that name merged into
  the renamed player, so a record file written before the rename still imports
  (renaming back to it removes the alias).
- A merged duplicate keeps its row (``merged_into_id``). Its name stays taken and
  still finds the player: :func:`find_player` follows the merge to the kept
  player, so records and commands using the old spelling keep working.
- ``player import``: existing names are left as they are and reported as already
  registered (their club and email are not updated); a name twice in the file is an
  error; the whole file is imported or nothing, and every error of its rows is listed
  (each cell on its own), as ``result import`` lists a record file's.
- ``player merge``: refused when both players sat in the same round of an event
  (one person cannot have played two seats of a round). The duplicate's entries,
  seats and match places move to the kept player; an entry in an event both
  entered is folded into the kept one's (earliest first round; a withdrawal only if
  both withdrew, at the later round). Club and e-mail the kept player lacks are
  taken from the duplicate. The ratings are the ratings layer's part
  (:func:`tourney.ratings.service.fold_merged_player`, called with this merge by
  :func:`tourney.app.players.merge_players`).
"""
from __future__ import annotations

import io
import itertools
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from sqlmodel import Session, select

from ..errors import (
    InvalidValue,
    Remedy,
    TourneyError,
    UnknownName,
    UsageError,
    close_names,
    in_file,
    unknown_name,
)
from ..errors.words import N_, Message, comma_words, did_you_mean, quoted
from ..ordering import name_key
from ..person_names import lookalike_key, lookalike_kind, normalize_name
from ..storage.audit import record_change
from ..storage.bulk import BulkInsert
from ..storage.merges import follow, merge_links
from ..storage.models import Entry, Event, MatchPlace, Player, Round, Seat, utcnow

MAX_NAME = 200
MAX_CLUB = 200
MAX_EMAIL = 320
IMPORT_COLUMNS = ("name", "club", "email")
# A player file's header in any of the languages the tool speaks (English, Swedish,
# Norwegian, Finnish): a club keeps its list in its own language ("Namn, Klubb,
# E-post"). Each column's names, lower case; the first is the column's own name.
IMPORT_HEADER_NAMES = {
    "name": ("name", "namn", "navn", "nimi"),
    "club": ("club", "klubb", "seura"),
    "email": ("email", "e-mail", "e-post", "epost", "sähköposti", "sahkoposti"),
}
# Each header name a player file may have -> its column.
_IMPORT_HEADER_COLUMN = {alias: column for column, aliases in IMPORT_HEADER_NAMES.items()
                         for alias in aliases}
# Columns `player list --format csv|xlsx` adds, left out when such a list is imported.
LIST_ONLY_COLUMNS = ("events", "merged into")
# Hardening (CSV formula injection): names reach exported record CSVs (players,
# dealer), and a spreadsheet runs a cell that begins with one of these as a
# formula. Refusing them at registration keeps exports free of formulas without
# escaping cells, so importing an export stays a no-op.
FORMULA_START = "=+-@"
# The kinds of name a refusal of a name names (clean_title's ``what``), as words (each with its article:
# "an event name" in English, "ett tävlingsnamn" in Swedish).
NAME_KINDS = {"name": Message(N_("a name")), "player name": Message(N_("a player name")),
              "event name": Message(N_("an event name")),
              "series name": Message(N_("a series name")),
              "team name": Message(N_("a team name"))}


# ------------------------------------------------------------------- checking text

def clean_name(text: str | None, what: str = "player name") -> str:
    """A name as stored: surrounding whitespace stripped; refused (exit 1) when
    empty, over 200 characters, holding a control character or ``;``, or
    beginning with a spreadsheet formula character (``= + - @``)."""
    name = clean_title(text, what)
    if ";" in name:
        raise TourneyError(Message(N_("%(what)s cannot contain ';' (records separate "
                                      "players with it): %(name)s"),
                                   {"what": NAME_KINDS[what], "name": quoted(name)}))
    if name[0] in FORMULA_START:
        raise TourneyError(Message(N_("%(what)s cannot begin with %(char)s: spreadsheets "
                                      "read such a cell of an exported CSV as a formula: "
                                      "%(name)s"),
                                   {"what": NAME_KINDS[what], "char": quoted(name[0]),
                                    "name": quoted(name)}))
    return name


def clean_title(text: str | None, what: str = "name") -> str:
    """Any other name (an event's title): surrounding whitespace stripped; refused
    when empty, over 200 characters or holding a control character."""
    name = normalize_name(text)  # NFC: a name typed on a Mac matches Windows'
    if not name:
        raise TourneyError(Message(N_("%(what)s cannot be empty"), {"what": NAME_KINDS[what]}))
    if len(name) > MAX_NAME:
        raise TourneyError(Message(N_("%(what)s has at most %(most)s characters, not "
                                      "%(count)s: %(name)s..."),
                                   {"what": NAME_KINDS[what], "most": MAX_NAME,
                                    "count": len(name), "name": quoted(name[:40])}))
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise TourneyError(Message(N_("%(what)s cannot hold control characters "
                                          "(%(char)s in %(name)s)"),
                                       {"what": NAME_KINDS[what], "char": f"U+{ord(char):04X}",
                                        "name": quoted(name)}))
    return name


def clean_club(text: str | None) -> str | None:
    club = normalize_name(text)  # NFC too: "Vasa Åkersberga" from any keyboard is one club
    if not club:
        return None
    if len(club) > MAX_CLUB:
        raise TourneyError(Message(N_("a club name has at most %(most)s characters: "
                                      "%(club)s..."),
                                   {"most": MAX_CLUB, "club": quoted(club[:40])}))
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in club):
        raise TourneyError(Message(N_("a club name cannot hold control characters: %(club)s"),
                                   {"club": quoted(club)}))
    return club


def clean_email(text: str | None) -> str | None:
    """Checked only for shape (one ``@``, something either side, no spaces)."""
    email = (text or "").strip()
    if not email:
        return None
    local, at, domain = email.rpartition("@")
    if (len(email) > MAX_EMAIL or not at or not local or not domain
            or any(c.isspace() or unicodedata.category(c) == "Cc" for c in email)):
        raise TourneyError(Message(N_("not an e-mail address: %(email)s"),
                                   {"email": quoted(email)}))
    return email


# ------------------------------------------------------------------------- looking up

def player_by_name(session: Session, name: str) -> Player | None:
    """The row with exactly this name (merged rows included), or None."""
    return session.exec(select(Player).where(Player.name == name)).first()


def resolve_merged(session: Session, player: Player) -> Player:
    """The player a merged duplicate was merged into (following chains)."""
    if player.merged_into_id is None:
        return player
    return session.get(Player, follow(merge_links(session), player.id))


def unknown_player_error(session: Session, name: str, hint: Message | None = None,
                         **remedy) -> UnknownName:
    """``unknown player 'Ana' (did you mean 'Anna'?)``, ``hint`` (words) after it."""
    names = session.exec(select(Player.name).where(Player.merged_into_id.is_(None)))
    return unknown_name("player", name, names, quote=True, cutoff=0.75, hint=hint, **remedy)


def find_player(session: Session, name: str, *, follow_merged: bool = True) -> Player:
    """The player of a name; a merged duplicate's name gives the kept player.
    :class:`TourneyError` naming close matches when there is none."""
    name = normalize_name(name)
    player = player_by_name(session, name)
    if player is None:
        raise unknown_player_error(session, name)
    return resolve_merged(session, player) if follow_merged else player


@dataclass(frozen=True)
class PlayerInfo:
    """A player as commands report it and the audit log keeps it."""

    id: int | None
    name: str
    club: str | None
    email: str | None

    @classmethod
    def of(cls, player: Player) -> "PlayerInfo":
        return cls(player.id, player.name, player.club, player.email)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "club": self.club, "email": self.email}


# ------------------------------------------------------------------------- adding

# A look-alike name's warning by how the names differ
# (tourney.person_names.lookalike_kind): whole sentences, the kinds said in them.
LOOKALIKE_SENTENCES = {
    "case": N_("%(name)s looks like %(like)s (they differ only by case); if they are one "
               "person, merge them"),
    "accents": N_("%(name)s looks like %(like)s (they differ only by accents); if they are "
                  "one person, merge them"),
    "case and accents": N_("%(name)s looks like %(like)s (they differ only by case and "
                           "accents); if they are one person, merge them"),
    "spaces": N_("%(name)s looks like %(like)s (they differ only by spaces); if they are one "
                 "person, merge them"),
}


@dataclass(frozen=True)
class Lookalike:
    """A name being registered that looks like one already there: equal apart from
    case (``differs="case"``), accents (``"accents"``) or only inner spaces
    (``"spaces"``), see :func:`tourney.person_names.lookalike_key`. Registered
    anyway: a warning."""

    name: str
    like: str
    differs: str

    @property
    def words(self) -> Message:
        """The warning as words (a page's in its language; :attr:`text` the English)."""
        return Message(LOOKALIKE_SENTENCES[self.differs],
                       {"name": quoted(self.name), "like": quoted(self.like)})

    @property
    def text(self) -> str:
        return str(self.words)

    def to_json(self) -> dict:
        return {"name": self.name, "like": self.like, "differs": self.differs,
                "message": self.text}


def find_lookalikes(session: Session, names: Sequence[str]) -> list[Lookalike]:
    """The names (new ones, in order) that look like a registered player's, or like
    a name before them in ``names``, without being equal to it."""
    registered = session.exec(select(Player.name).where(Player.merged_into_id.is_(None)))
    return _lookalikes(registered, names)


def registered_lookalikes(session: Session, names: Iterable[str]) -> dict[str, str]:
    """Each of ``names`` that is not registered but looks like a registered player's
    name, with that name (the sign-ups an organizer is about to enter: ``ANNA BERG``
    is most likely the ``Anna Berg`` already there). Each name is compared with the
    registered ones only, never with the others given."""
    registered = list(session.exec(select(Player.name).where(Player.merged_into_id.is_(None))))
    found = {}
    for name in names:
        like = _lookalikes(registered, [name])
        if like and name not in registered:
            found[name] = like[0].like
    return found


def _lookalikes(registered: Iterable[str], names: Sequence[str]) -> list[Lookalike]:
    """:func:`find_lookalikes` with the registered (not merged) names given."""
    known: dict[str, list[str]] = {}
    for name in registered:
        known.setdefault(lookalike_key(name), []).append(name)
    found = []
    for name in names:
        similar = known.setdefault(lookalike_key(name), [])
        for other in similar:
            if other != name:
                found.append(Lookalike(name, other, lookalike_kind(name, other)))
                break
        similar.append(name)
    return found


def entered_names(session: Session, event: Event) -> dict[str, str]:
    """Every name that finds a player entered in ``event`` -> the name they have now:
    their own, and the old names of a renamed player or a duplicate merged into one."""
    from ..storage.merges import current_names

    entered = set(session.exec(select(Player.name).join(Entry, Entry.player_id == Player.id)
                               .where(Entry.event_id == event.id)).all())
    names = {name: name for name in entered}
    names.update({old: now for old, now in current_names(session).items() if now in entered})
    return names


def add_players(session: Session, names: Sequence[str], *, club: str | None = None,
                email: str | None = None, warnings: list | None = None) -> list[Player]:
    """Register new players; refused if any name is taken or repeated. A name that
    looks like a registered one (:func:`find_lookalikes`) is added, and a
    :class:`Lookalike` for it appended to ``warnings`` when given."""
    if not names:
        raise UsageError(Message(N_("name at least one player")))
    cleaned = [clean_name(n) for n in names]
    club = clean_club(club)
    email = clean_email(email)
    if email and len(cleaned) > 1:
        raise InvalidValue("email", quoted(email), Message(N_("an address for one player at a time")))
    seen = set()
    for name in cleaned:
        if name in seen:
            raise TourneyError(Message(N_("%(name)s is named twice"), {"name": quoted(name)}))
        seen.add(name)
        existing = player_by_name(session, name)
        if existing is not None:
            if existing.merged_into_id is not None:
                kept = resolve_merged(session, existing)
                raise TourneyError(Message(N_("%(name)s is taken: a duplicate merged into "
                                              "%(kept)s"),
                                           {"name": quoted(name), "kept": quoted(kept.name)}))
            raise TourneyError(Message(N_("%(name)s is already registered"),
                                       {"name": quoted(name)}))
    if warnings is not None:
        warnings.extend(find_lookalikes(session, cleaned))
    players = []
    for name in cleaned:
        player = Player(name=name, club=club, email=email)
        session.add(player)
        session.flush()
        record_change(session, "player.add", name, None, PlayerInfo.of(player).to_json())
        players.append(player)
    return players


# ------------------------------------------------------------------------- listing

def list_players(session: Session, *, include_merged: bool = False,
                 lang: str | None = None) -> list[dict]:
    """Players by name (as ``lang`` sorts names, :func:`tourney.ordering.name_key`)
    with club, e-mail and the events entered (slugs, by date)."""
    query = select(Player)
    if not include_merged:
        query = query.where(Player.merged_into_id.is_(None))
    # Sorted here, not by the database: collations differ between backends.
    players = sorted(session.exec(query).all(), key=lambda p: name_key(p.name, lang))
    events: dict[int, list[str]] = {}
    rows = session.exec(
        select(Entry.player_id, Event.slug).join(Event, Event.id == Entry.event_id)
        .order_by(Event.date.is_(None), Event.date, Event.id))
    for player_id, slug in rows:
        events.setdefault(player_id, []).append(slug)
    by_id = {p.id: p for p in players}
    out = []
    for player in players:
        item = {"name": player.name, "club": player.club, "email": player.email,
                "events": events.get(player.id, [])}
        if include_merged:
            kept = by_id.get(player.merged_into_id) if player.merged_into_id else None
            if player.merged_into_id and kept is None:
                kept = resolve_merged(session, player)
            item["merged_into"] = kept.name if kept else None
        out.append(item)
    return out


# ------------------------------------------------------------------------- renaming

def rename_player(session: Session, old: str, new: str) -> Player:
    player = find_player(session, old, follow_merged=False)
    if player.merged_into_id is not None:
        kept = resolve_merged(session, player)
        raise TourneyError(Message(N_("%(name)s was merged into %(kept)s; rename that one"),
                                   {"name": quoted(player.name), "kept": quoted(kept.name)}))
    new_name = clean_name(new)
    if new_name == player.name:
        raise TourneyError(Message(N_("%(name)s already has that name"),
                                   {"name": quoted(player.name)}))
    taken = player_by_name(session, new_name)
    if taken is not None:
        if taken.merged_into_id is None or resolve_merged(session, taken).id != player.id:
            raise TourneyError(Message(N_("%(name)s is already registered"),
                                       {"name": quoted(new_name)}))
        # Back to one of the player's own earlier names: that alias row gives way.
        session.delete(taken)
        session.flush()
    before = PlayerInfo.of(player).to_json()
    old_name = player.name
    player.name = new_name
    session.add(player)
    session.flush()
    # The old name stays an alias, as a merged duplicate's does: records and
    # commands written before the rename still find the player.
    alias = Player(name=old_name, merged_into_id=player.id)
    session.add(alias)
    session.flush()
    record_change(session, "player.rename", f"{before['name']} -> {new_name}",
                  before, {**PlayerInfo.of(player).to_json(), "alias": old_name})
    return player


def set_player(session: Session, name: str, *, club: str | None = None,
               email: str | None = None) -> tuple[Player, dict[str, tuple]]:
    """Change a registered player's club or e-mail address (None: left as it is;
    an empty text clears it); the player and ``{field: (before, after)}`` of what
    changed. A merged duplicate's name changes the player it went into."""
    player = find_player(session, name)
    wanted = {}
    if club is not None:
        wanted["club"] = clean_club(club)
    if email is not None:
        wanted["email"] = clean_email(email)
    changed = {key: (getattr(player, key), value) for key, value in wanted.items()
               if getattr(player, key) != value}
    if changed:
        before = PlayerInfo.of(player).to_json()
        for key, (_, value) in changed.items():
            setattr(player, key, value)
        session.add(player)
        session.flush()
        record_change(session, "player.set", player.name, before,
                      PlayerInfo.of(player).to_json())
    return player, changed


# ------------------------------------------------------------------------- merging

@dataclass
class MergeReport:
    keep: str
    duplicate: str
    entries_moved: list[str] = field(default_factory=list)  # event slugs
    entries_folded: list[str] = field(default_factory=list)  # events both had entered
    seats_moved: int = 0
    places_moved: int = 0
    keep_id: int | None = None
    duplicate_id: int | None = None

    def to_json(self) -> dict:
        return {"keep": self.keep, "duplicate": self.duplicate,
                "entries_moved": self.entries_moved, "entries_folded": self.entries_folded,
                "seats_moved": self.seats_moved, "places_moved": self.places_moved}


def merge_players(session: Session, keep_name: str, duplicate_name: str) -> MergeReport:
    """Merge ``duplicate`` into ``keep`` (see the module docstring)."""
    keep = find_player(session, keep_name, follow_merged=False)
    duplicate = find_player(session, duplicate_name, follow_merged=False)
    for player in (keep, duplicate):
        if player.merged_into_id is not None:
            kept = resolve_merged(session, player)
            raise TourneyError(Message(N_("%(name)s is already merged into %(kept)s"),
                                       {"name": quoted(player.name), "kept": quoted(kept.name)}))
    if keep.id == duplicate.id:
        raise TourneyError(Message(N_("a player cannot be merged into itself")))
    _refuse_shared_rounds(session, keep, duplicate)

    report = MergeReport(keep=keep.name, duplicate=duplicate.name, keep_id=keep.id,
                         duplicate_id=duplicate.id)
    before = {"keep": PlayerInfo.of(keep).to_json(),
              "duplicate": PlayerInfo.of(duplicate).to_json(),
              "entries": {}}
    keep_entries = {e.event_id: e for e in session.exec(
        select(Entry).where(Entry.player_id == keep.id))}
    slugs = dict(session.exec(select(Event.id, Event.slug)).all())
    for entry in session.exec(select(Entry).where(Entry.player_id == duplicate.id)).all():
        slug = slugs[entry.event_id]
        before["entries"][slug] = {"first_round": entry.first_round,
                                   "withdrawn_after": entry.withdrawn_after}
        mine = keep_entries.get(entry.event_id)
        if mine is None:
            entry.player_id = keep.id
            session.add(entry)
            report.entries_moved.append(slug)
            continue
        mine.first_round = min(mine.first_round, entry.first_round)
        if mine.withdrawn_after is None or entry.withdrawn_after is None:
            mine.withdrawn_after = None
        else:
            mine.withdrawn_after = max(mine.withdrawn_after, entry.withdrawn_after)
        session.add(mine)
        session.delete(entry)
        report.entries_folded.append(slug)
    session.flush()

    for seat in session.exec(select(Seat).where(Seat.player_id == duplicate.id)).all():
        seat.player_id = keep.id
        session.add(seat)
        report.seats_moved += 1
    for place in session.exec(select(MatchPlace).where(MatchPlace.player_id == duplicate.id)).all():
        place.player_id = keep.id
        session.add(place)
        report.places_moved += 1

    if keep.club is None and duplicate.club:
        keep.club = duplicate.club
    if keep.email is None and duplicate.email:
        keep.email = duplicate.email
    duplicate.merged_into_id = keep.id
    session.add(keep)
    session.add(duplicate)
    session.flush()
    after = {"keep": PlayerInfo.of(keep).to_json(), "merged": report.to_json()}
    record_change(session, "player.merge", f"{duplicate.name} -> {keep.name}", before, after)
    return report


def _refuse_shared_rounds(session: Session, keep: Player, duplicate: Player) -> None:
    seats = session.exec(
        select(Seat.round_id, Seat.player_id, Seat.table)
        .where(Seat.player_id.in_([keep.id, duplicate.id]))).all()
    by_round: dict[int, dict[int, str | None]] = {}
    for round_id, player_id, table in seats:
        by_round.setdefault(round_id, {})[player_id] = table
    for round_id, sat in sorted(by_round.items()):
        if len(sat) < 2:
            continue
        round_ = session.get(Round, round_id)
        event = session.get(Event, round_.event_id)
        said = {"kept": quoted(keep.name), "duplicate": quoted(duplicate.name),
                "event": event.slug, "round": round_.number, "table": sat[keep.id]}
        if sat[keep.id] == sat[duplicate.id] and sat[keep.id] is not None:
            raise TourneyError(Message(N_("cannot merge: %(kept)s and %(duplicate)s both sat "
                                          "at the same table %(table)s (event %(event)s, "
                                          "round %(round)s), so they are two people"), said))
        raise TourneyError(Message(N_("cannot merge: %(kept)s and %(duplicate)s both sat in "
                                      "the same round (event %(event)s, round %(round)s), so "
                                      "they are two people"), said))
    shared_versions = set(session.exec(
        select(MatchPlace.version_id).where(MatchPlace.player_id == keep.id))) & set(
        session.exec(select(MatchPlace.version_id).where(MatchPlace.player_id == duplicate.id)))
    if shared_versions:
        raise TourneyError(Message(N_("cannot merge: %(kept)s and %(duplicate)s both have a "
                                      "place in the same match, so they are two people"),
                                   {"kept": quoted(keep.name), "duplicate": quoted(duplicate.name)}))


# ------------------------------------------------------------------------- importing

@dataclass
class PlayerRow:
    line: int
    name: str
    club: str | None
    email: str | None


@dataclass
class PlayerImport:
    """What a player list import did: names added, names already registered."""

    added: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    lookalikes: list[Lookalike] = field(default_factory=list)
    # names already registered whose club or e-mail in the file is not the one
    # stored (which is kept): name -> the fields, "club" and/or "email"
    differ: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"added": self.added, "already_registered": self.already,
                "warnings": [w.to_json() for w in self.lookalikes],
                "differ": [{"name": name, "fields": fields}
                           for name, fields in self.differ.items()]}


# A club's or federation's player list is thousands of rows; a file of more is
# not one (and an endless input must end: hardening).
MAX_PLAYER_ROWS = 100_000


def read_player_csv(path: str | Path, *, encoding: str | None = None,
                    sheet: str | None = None, notices: list[str] | None = None
                    ) -> list[PlayerRow]:
    """The rows of a player file (CSV as spreadsheets save it, or XLSX; ``-`` is
    standard input): a ``name`` column, optional ``club`` and ``email`` (headers
    case-insensitive, in any language of :data:`IMPORT_HEADER_NAMES`; any other
    column is refused). Blank lines are skipped. Errors
    name the line. ``notices`` gets how the file was read (a guessed encoding)."""
    from ..errors import RecordError
    from ..records.sources import open_source

    source = open_source(str(path), encoding=encoding, sheet=sheet)
    name = "<stdin>" if str(path) == "-" else str(path)
    try:
        with source:
            rows = parse_player_rows(source.rows(known=tuple(_IMPORT_HEADER_COLUMN)), name,
                                     source)
    except PlayerFileRejected as rejected:
        rejected.notices = list(source.notices)  # how it was read explains much
        raise
    except RecordError as err:
        cell = source.cell(err.line, None) if err.line else None
        # of the kind it is: a file that cannot be read at all is a usage error
        kind = UsageError if isinstance(err, UsageError) else TourneyError
        raise in_file(kind, err.file or name, err.words or err.message, line=err.line,
                      cell=cell, column=err.column) from None
    if notices is not None:
        notices.extend(source.notices)
    return rows


def parse_player_csv(text: str, source: str = "players.csv") -> list[PlayerRow]:
    """The rows of a player CSV given as text (see :func:`read_player_csv`)."""
    from ..records.sources import Source

    table = Source(io.BytesIO(text.encode("utf-8")), source)
    return parse_player_rows(table.rows(known=tuple(_IMPORT_HEADER_COLUMN)), source, table)


class PlayerFileRejected(TourneyError):
    """A player file with invalid rows: nothing is imported. ``errors``: each
    problem of a row (a :class:`~tourney.errors.RecordError` naming the file,
    line or cell, and column), the first :data:`~tourney.records.checked.MAX_ERRORS_KEPT` of them;
    ``error_count``: all of them; ``notices``: how the file was read."""

    def __init__(self, file: str, errors: list, error_count: int):
        self.file = file
        self.errors = errors
        self.error_count = error_count
        self.notices: list[str] = []
        super().__init__(Message(N_("%(file)s: nothing imported: 1 error in the file")
                                 if error_count == 1 else
                                 N_("%(file)s: nothing imported: %(count)s errors in the file"),
                                 {"file": file, "count": error_count}))


# Row errors kept for the report of a player file, the rest counted: the bound
# of the result import's list (one bound for every list of a file's errors).
def _errors_kept() -> int:
    from ..records.checked import MAX_ERRORS_KEPT  # the result import's machinery, loaded on a bad file

    return MAX_ERRORS_KEPT


def parse_player_rows(rows, source: str, table=None) -> list[PlayerRow]:
    """The rows of a player file (see :func:`read_player_csv`). A problem of the
    file as a whole (its header, its size) stops reading; every problem of a row
    is listed (:class:`PlayerFileRejected`, raised once the whole file is read)."""
    from ..errors import RecordError
    from ..records.csv_format import COLUMNS as RECORD_COLUMNS
    from ..records.csv_format import ragged_row_message

    def at(error_class: type[TourneyError], line: int, message: Message, **ways) -> TourneyError:
        cell = table.cell(line, None) if table is not None else None
        return in_file(error_class, source, message, line=line, cell=cell, **ways)

    def place(line: int) -> str | Message:  # another row: its cell in a workbook
        cell = table.cell(line, "name") if table is not None else None
        return cell or Message(N_("line %(number)s"), {"number": line})

    header = rows.read_header()
    if header is None or not any(h.strip() for h in header):
        raise UsageError(Message(N_("%(file)s: no header line (it needs a name column)"),
                                 {"file": source}))
    columns = [_IMPORT_HEADER_COLUMN.get(h.strip().lower(), h.strip().lower()) for h in header]
    unknown = [h for h, c in zip(header, columns)
               if c not in IMPORT_COLUMNS and c not in LIST_ONLY_COLUMNS]
    first_row = ()
    if (len(columns) == 1 and unknown and columns[0] not in RECORD_COLUMNS
            and not close_names(columns[0], ("name",), limit=1)):
        # One column and no header: a plain list of names, one per line (as a club
        # keeps it); its first line is a name too. Unless it reads as a misspelt
        # `name` ('nme', 'Nman', 'Name:'): that would register a player by that name
        # (one no command removes); said like any unknown column.
        first_row, columns, unknown = ((1, header),), ["name"], []
    if unknown:
        # A column of the record file: a result file given here by mistake, not
        # a misspelt player column ('deal' is not 'email').
        records = [u for u in unknown if u.strip().lower() in RECORD_COLUMNS]

        def named(column: str) -> str | Message:
            hint = did_you_mean([] if column in records else
                                close_names(column.strip().lower(), IMPORT_COLUMNS, limit=1))
            return (quoted(column[:40]) if hint is None else
                    Message(N_("%(column)s (%(hint)s)"), {"column": quoted(column[:40]),
                                                         "hint": hint}))

        text = Message(N_("unknown column %(columns)s; a player file has name, club and "
                          "email") if len(unknown) == 1 else
                       N_("unknown columns %(columns)s; a player file has name, club and "
                          "email"), {"columns": comma_words([named(u) for u in unknown])})
        if records:
            raise at(UsageError, 1, Message(
                N_("%(problem)s; %(columns)s is a column of a result file: import that as "
                   "results") if len(records) == 1 else
                N_("%(problem)s; %(columns)s are columns of a result file: import that as "
                   "results"),
                {"problem": text, "columns": [quoted(r[:40]) for r in records[:3]]}),
                remedy=Remedy("import-results"))
        raise at(UsageError, 1, text)
    for column in set(columns):
        if columns.count(column) > 1:
            raise at(UsageError, 1, Message(N_("column %(column)s appears twice"),
                                            {"column": quoted(column)}))
    if "name" not in columns:
        raise at(UsageError, 1, Message(N_("no name column")))
    if table is not None:
        table.set_columns(columns)
    result = []
    errors: list[RecordError] = []
    error_count = 0
    kept = _errors_kept()

    def refuse(line: int, message: Message, column: str | None = None,
               rule: str = "player-row") -> None:
        nonlocal error_count
        error_count += 1
        if len(errors) < kept:
            cell = table.cell(line, column) if table is not None else None
            errors.append(RecordError(message, rule=rule, file=source, line=line,
                                      column=column, cell=cell))

    seen: dict[str, int] = {}
    filled = 0
    for line, values in itertools.chain(first_row, rows):
        if not any(v.strip() for v in values):
            continue
        filled += 1
        if filled > MAX_PLAYER_ROWS:
            raise at(TourneyError, line, Message(N_("more than %(most)s players in one file; "
                                                    "not a player list"),
                                                 {"most": MAX_PLAYER_ROWS}))
        if len(values) != len(columns):
            refuse(line, ragged_row_message(values, len(columns)), rule="ragged-row")
            continue
        record = dict(zip(columns, values))
        # each cell on its own: a row with a bad name and a bad address has both said
        cleaned = {}
        for column, clean in (("name", clean_name), ("club", clean_club),
                              ("email", clean_email)):
            try:
                cleaned[column] = clean(record.get(column))
            except TourneyError as err:
                refuse(line, err.words or str(err), column, rule=f"player-{column}")
                continue
            name = cleaned[column]
            if column == "name" and name in seen:
                refuse(line, Message(N_("%(name)s is already on %(place)s"),
                                     {"name": quoted(name), "place": place(seen[name])}), "name",
                       rule="player-twice")
                del cleaned["name"]
            elif column == "name":
                seen[name] = line
        if len(cleaned) == 3:
            result.append(PlayerRow(line, cleaned["name"], cleaned["club"],
                                    cleaned["email"]))
    if error_count:
        raise PlayerFileRejected(source, errors, error_count)
    return result


def import_players(session: Session, rows: Iterable[PlayerRow],
                   source: str | None = None) -> PlayerImport:
    """Register the rows' new players; names already registered are left alone.

    A fixed number of statements whatever the file's length (issue 34: one lookup
    and one INSERT a player were a round trip each on PostgreSQL): every registered
    name read at once (the lookalike check reads them all anyway), the new players
    written in bulk."""
    report = PlayerImport()
    registered, stored = {}, {}
    for name, club, email, merged_into in session.execute(
            select(Player.name, Player.club, Player.email, Player.merged_into_id)):
        registered[name] = merged_into is None
        if merged_into is None:
            stored[name] = (club, email)
    new_rows = []
    for row in rows:
        # a merged duplicate's name is taken too: it finds the player it went into
        if row.name in registered:
            report.already.append(row.name)
            club, email = stored.get(row.name, (row.club, row.email))
            fields = [key for key, given, kept in (("club", row.club, club),
                                                   ("email", row.email, email))
                      if given is not None and given != kept]
            if fields:
                report.differ[row.name] = fields
        else:
            new_rows.append(row)
    report.lookalikes = _lookalikes([name for name, live in registered.items() if live],
                                    [row.name for row in new_rows])
    if not new_rows:
        return report
    writer = BulkInsert(session, Player.__table__, ("name", "club", "email", "created_at"))
    now = writer.bound("created_at", utcnow())
    ids = writer.write_new([(row.name, row.club, row.email, now) for row in new_rows])
    report.added = [row.name for row in new_rows]
    record_change(session, "player.import", source, None,
                  {"added": [PlayerInfo(player_id, row.name, row.club, row.email).to_json()
                             for player_id, row in zip(ids, new_rows)],
                   "already_registered": report.already})
    return report
