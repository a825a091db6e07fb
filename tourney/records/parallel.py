"""Checking one big record file in parts, a process each (``tourney validate
--jobs``, ``tourney result import --jobs``).

A CSV file is cut into parts at line starts where a new match begins; each part is
read with the file's header line (:class:`~tourney.records.sources.Source` with a
``line_offset``, so every line number is the file's) and checked on its own in a
forked process. :func:`stream_parts` hands what the processes send to the caller
in file order as they go (the importer stores matches while the parts are being
checked); :func:`run_parts` collects each part's result (``validate``).

Only files whose parts read exactly as the whole file would are cut: a regular
file (not a pipe), CSV (not XLSX), in UTF-8 (or ASCII) throughout, with no
UTF-16 byte-order mark and no quote character (a quoted field may hold a line
break, so a line start would not always be a record start). Anything else, and a
file smaller than two parts of :data:`MIN_PART_BYTES`, is read in one process.

A match must stand within one part: :func:`collides` tells when a match key of
one part is also in an earlier part (a match cut in two, or the rows of one
match apart in the file); ``validate`` then checks the file in one process, and
the importer refuses the later rows as one process does, so the result is always
the one a single process gives.
"""
from __future__ import annotations

import codecs
import gc
import hashlib
import io
import mmap
import os
import signal
import stat
import struct
import sys
from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Iterator, Sequence, TypeVar

from .sources import MAX_LINE_BYTES, Source, sniff_delimiter

# A part is at least this big: below it, forking and reading the header again cost
# more than the part's share of the work.
MIN_PART_BYTES = 1 << 20
# A file is cut into at least PARTS_PER_JOB parts per process, and parts of about
# PART_BYTES when that gives more: the processes take the next part as each ends,
# so they all stay busy to the end (no process waits on one last big part), and
# the caller storing the parts in file order (the importer) works on each part
# while the later ones are checked, not on one big last part once all are done.
PARTS_PER_JOB = 4
PART_BYTES = 8 << 20
# How far past a cut a new match is looked for before that cut is given up.
MAX_LINES_TO_MATCH_START = 2000
_SCAN = 1 << 24  # bytes per slice when scanning the file
_KEY_COLUMNS = ("event", "round", "table")

T = TypeVar("T")


@dataclass(frozen=True)
class Part:
    """Bytes ``start`` to ``end`` of the file (whole lines), whose first line is line
    ``line_offset + 2`` of the file (the header is line 1)."""

    start: int
    end: int
    line_offset: int


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def plan_parts(path: str, jobs: int, *, encoding: str | None = None) -> list[Part] | None:
    """The parts of the file at ``path`` for ``jobs`` processes (see
    :data:`PARTS_PER_JOB`), none under :data:`MIN_PART_BYTES`, or None when it is
    to be read in one process (see the module's docstring for when)."""
    if jobs < 2 or path == "-":
        return None
    if encoding is not None:
        try:
            if codecs.lookup(encoding).name != "utf-8":
                return None
        except LookupError:
            return None
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return None
        count = min(max(jobs * PARTS_PER_JOB, -(-info.st_size // PART_BYTES)),
                    info.st_size // MIN_PART_BYTES)
        if count < 2:
            return None
        with open(path, "rb") as stream, mmap.mmap(stream.fileno(), 0,
                                                   access=mmap.ACCESS_READ) as data:
            return _cut(data, count)
    except (OSError, ValueError):
        return None


def _cut(data, count: int) -> list[Part] | None:
    """Up to ``count`` parts of ``data``, the file's bytes (a mmap)."""
    if data[:4].startswith((b"PK\x03\x04", codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return None
    if not _is_utf8_without_quotes(data):
        return None
    header_end = data.find(b"\n") + 1
    if not 0 < header_end <= MAX_LINE_BYTES:
        return None
    header = data[:header_end].decode("utf-8").lstrip("\ufeff")
    delimiter = sniff_delimiter(header, _KEY_COLUMNS + ("players", "play"))
    names = [c.strip().lower() for c in header.rstrip("\r\n").split(delimiter)]
    if not all(c in names for c in _KEY_COLUMNS[1:]):
        return None  # no round or table column: nothing to cut at
    # where the event, round and table cells are, and how many cells a line has
    key_at = [names.index(c) if c in names else None for c in _KEY_COLUMNS] + [len(names)]
    size = len(data)
    cuts = [header_end]
    for k in range(1, count):
        cut = _match_start(data, header_end + (size - header_end) * k // count,
                           delimiter, key_at)
        if cut is not None and cut > cuts[-1] + 1 and cut < size:
            cuts.append(cut)
    if len(cuts) < 2:
        return None
    cuts.append(size)
    parts, lines = [], 0
    for start, end in zip(cuts, cuts[1:]):
        parts.append(Part(start, end, lines))
        lines += _count(data, start, end, b"\n")
    return parts


def _slices(data, start: int, end: int):
    """Bytes ``start`` to ``end`` of the mapped file, a slice at a time, each slice's
    pages let go of once read: scanning a big file must not map all of it into
    this process's memory at once (its peak would grow with the file)."""
    for at in range(start, end, _SCAN):
        stop = min(at + _SCAN, end)
        yield data[at:stop]
        aligned = at - at % mmap.PAGESIZE
        try:
            data.madvise(mmap.MADV_DONTNEED, aligned, stop - aligned)
        except (AttributeError, OSError, ValueError):
            pass  # no madvise here: the pages stay mapped until the file is closed


def _is_utf8_without_quotes(data) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for piece in _slices(data, 0, len(data)):
            if b'"' in piece:
                return False
            if not piece.isascii() or decoder.getstate()[0]:
                decoder.decode(piece)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _count(data, start: int, end: int, what: bytes) -> int:
    return sum(piece.count(what) for piece in _slices(data, start, end))


def _match_start(data, at: int, delimiter: str, key_at: Sequence[int]) -> int | None:
    """The start of the first line at or after byte ``at`` where a new match
    surely begins: its round and table cells differ from its previous line's, and
    its key cells and its previous line's are readable (a row that cannot be
    read, or one whose event cell alone differs, may belong to the match before
    it: a part must not begin with one, nor follow one)."""
    line_start = data.rfind(b"\n", 0, at) + 1  # the line ``at`` is in
    previous = _key(data, line_start, delimiter, key_at)
    start = data.find(b"\n", at) + 1
    for _ in range(MAX_LINES_TO_MATCH_START):
        if not start or start >= len(data):
            return None
        key = _key(data, start, delimiter, key_at)
        if key is not None and previous is not None and key[1:] != previous[1:]:
            return start
        previous = key
        start = data.find(b"\n", start) + 1
    return None


def _key(data, start: int, delimiter: str, key_at: Sequence[int | None]) -> tuple | None:
    """The event, round and table cells of the line at ``start``; None unless the
    line has a cell per column, a round in digits and a table."""
    end = data.find(b"\n", start)
    cells = data[start:end if end >= 0 else len(data)].decode("utf-8").rstrip("\r").split(delimiter)
    if len(cells) != key_at[3]:
        return None
    event, number, table = (cells[i].strip() if i is not None else "" for i in key_at[:3])
    if not (number.isascii() and number.isdigit() and table):
        return None
    return (event, int(number), table)


class _PartStream(io.RawIOBase):
    """The file's header line, then the part's bytes."""

    def __init__(self, path: str, header_end: int, part: Part):
        self._file = open(path, "rb")
        self._pending = self._file.read(header_end)
        self._file.seek(part.start)
        self._left = part.end - part.start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._pending:
            count = min(len(buffer), len(self._pending))
            buffer[:count] = self._pending[:count]
            self._pending = self._pending[count:]
            return count
        if self._left <= 0:
            return 0
        data = self._file.read(min(len(buffer), self._left))
        self._left -= len(data)
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        self._file.close()
        super().close()


def _run(path: str, name: str, parts: list[Part], index: int, encoding: str | None, work):
    part = parts[index]
    stream = _PartStream(path, parts[0].start, part)
    with Source(stream, name, encoding=encoding, line_offset=part.line_offset) as source:
        return work(source)


def run_parts(path: str, name: str, parts: list[Part], work: Callable[[Source], T], *,
              encoding: str | None = None, jobs: int | None = None) -> list[T] | None:
    """``work(source)`` for each part in forked processes, ``jobs`` at a time
    (:func:`stream_parts`), and their results in order. None if a process did
    not hand back its result (it was killed): the caller then reads the file in one
    process. A process's exception is raised here."""
    try:
        return [value for _, done, value in
                stream_parts(path, name, parts, lambda source, _send: work(source),
                             encoding=encoding, jobs=jobs) if done]
    except PartLost:
        return None


class PartLost(Exception):
    """A process checking a part ended without handing back all of its work (it
    was killed)."""

    def __init__(self, index: int, status: int):
        self.index, self.status = index, status
        how = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
               else f"exit status {os.WEXITSTATUS(status)}")
        super().__init__(f"the process checking part {index + 1} of the file stopped ({how})")


_LENGTH = struct.Struct("<Q")


@dataclass
class _Child:
    """A part's process, as the parent sees it."""

    pid: int
    notices: int  # read end of the pipe that gets a byte per whole item
    spool: object  # the unlinked temporary file the items are written to
    ended: int | None  # read end of a pipe nobody writes: at end of file once it exits
    status: int | None = None  # its wait status, once reaped


def stream_parts(path: str, name: str, parts: list[Part],
                 work: Callable[[Source, Callable[[object], None]], T], *,
                 encoding: str | None = None,
                 jobs: int | None = None) -> Iterator[tuple[int, bool, object]]:
    """``work(source, send)`` for every part, each in a forked process, at most
    ``jobs`` at a time (default: all at once; the next part starts as one ends),
    and what each sends, in file order: ``(part index, False, item)`` for each
    ``send(item)``, then ``(part index, True, value)`` for the value ``work``
    returned. An exception of ``work`` is raised here in its place; a process that
    ends without its value raises :class:`PartLost`.

    Unlike :func:`run_parts`, the items stream: the caller works on the first
    part's items while the later parts are still being checked. A part's items
    wait in an unlinked temporary file (not in memory), so a big file keeps memory
    flat; a pipe tells the reader that the next item is complete. Items are
    pickled. Leaving the iteration early (or an error) kills the processes still
    running.
    """
    import pickle
    import select
    import tempfile

    jobs = max(1, min(jobs or len(parts), len(parts)))
    children: list[_Child] = []  # a part's process, by part index, in the order started

    def start(index: int) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        spool = tempfile.TemporaryFile(prefix="tourney-part-")
        read_end, write_end = os.pipe()
        ended_read, ended_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: its part, item by item, and out
            # What the parent built stays out of this process's collections: a
            # collection touching each inherited object would copy the parent's
            # pages (a part started late, the parent is big) for nothing.
            gc.freeze()
            os.close(read_end)
            os.close(ended_read)
            for other in children:  # the parent's ends of the others' pipes and spools
                for fd in (other.notices, other.ended):
                    if fd is not None:
                        os.close(fd)
                other.spool.close()
            code = 0
            try:
                def send(kind: str, value) -> None:
                    data = pickle.dumps((kind, value), pickle.HIGHEST_PROTOCOL)
                    _write_all(spool.fileno(), _LENGTH.pack(len(data)) + data)
                    os.write(write_end, b".")  # the item is whole: it may be read

                try:
                    value = _run(path, name, parts, index, encoding,
                                 lambda source: work(source, lambda item: send("item", item)))
                    send("done", value)
                except BaseException as err:  # handed to the parent, raised there
                    try:
                        send("error", err)
                    except Exception as failed:  # an error that does not pickle
                        send("error", RuntimeError(f"{err!r} ({failed!r})"))
            except BaseException:
                code = 1  # the parent went away (a broken pipe): nothing to tell
            finally:
                os._exit(code)
        os.close(write_end)
        os.close(ended_write)
        children.append(_Child(pid, read_end, spool, ended_read))

    def reap(child: _Child) -> None:
        _, child.status = os.waitpid(child.pid, 0)
        os.close(child.ended)
        child.ended = None

    def running() -> list[_Child]:
        return [child for child in children if child.ended is not None]

    def wait(index: int) -> None:
        """Until part ``index``'s next item is whole or its process has ended,
        starting a part whenever a process ends (``jobs`` stay busy)."""
        while True:
            busy = running()
            while len(busy) < jobs and len(children) < len(parts):
                start(len(children))
                busy = running()
            watched = [child.ended for child in busy]
            if index < len(children):
                watched.append(children[index].notices)
            ready, _, _ = select.select(watched, [], [])
            for child in busy:
                if child.ended in ready:
                    reap(child)
            if index < len(children) and children[index].notices in ready:
                return

    try:
        for index in range(len(parts)):
            offset = 0
            while True:
                wait(index)
                child = children[index]
                if not os.read(child.notices, 1):  # the process ended before its value
                    if child.ended is not None:
                        reap(child)
                    raise PartLost(index, child.status)
                fd = child.spool.fileno()
                (length,) = _LENGTH.unpack(_read_at(fd, _LENGTH.size, offset))
                kind, value = pickle.loads(_read_at(fd, length, offset + _LENGTH.size))
                offset += _LENGTH.size + length
                if kind == "item":
                    yield index, False, value
                elif kind == "error":
                    raise value
                else:
                    yield index, True, value
                    break
            child.spool.close()  # read: its disk space goes back now, not at the end
    finally:
        for child in children:
            if child.ended is not None:
                try:
                    os.kill(child.pid, signal.SIGKILL)  # a no-op for one that already ended
                except ProcessLookupError:
                    pass
                reap(child)
            os.close(child.notices)
            child.spool.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_at(fd: int, size: int, offset: int) -> bytes:
    chunks = []
    while size:
        chunk = os.pread(fd, size, offset)
        if not chunk:
            raise EOFError("a part's spool ended early")
        chunks.append(chunk)
        size -= len(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def collides(keys_by_part: Iterable[Sequence[Hashable]]) -> bool:
    """Whether a key of one part is also a key of an earlier part, or a part after
    the first begins with rows of no match (unreadable rows a single process
    counts against the match before them: ``RecordChecker.check_stream``)."""
    seen: set = set()
    for index, keys in enumerate(keys_by_part):
        if index and keys and keys[0] in (NO_MATCH, NO_MATCH_DIGEST):
            return True
        keys = set(keys)
        if not seen.isdisjoint(keys):
            return True
        seen |= keys
    return False


# The key of a file's first rows when none of them can be read (MatchCheck.key).
NO_MATCH = (None, None, None)


def key_digest(key: Hashable) -> int:
    """A match key as 8 bytes (a signed int, for an ``array('q')``): a part hands
    back its keys so, for :func:`collides`, at a few bytes each instead of a tuple of
    strings (a part of garbage rows is a key a row). Two keys that share a digest
    only send the file to one process, which then checks it whole."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(),
                          "little", signed=True)


NO_MATCH_DIGEST = key_digest(NO_MATCH)

__all__ = ["MIN_PART_BYTES", "Part", "PartLost", "collides", "key_digest", "plan_parts", "run_parts",
           "stream_parts", "usable_cores"]
