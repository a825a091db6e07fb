"""Writing files the safe way, and refusing outputs that would destroy data.

Every file tourney writes (rejects, score sheets, exports) goes through
:func:`atomic_write`: the content is written to a temporary file in the target's
own folder and renamed over the target only once it is complete and flushed to
disk. A failed, interrupted or killed write leaves the old file as it was (and
at worst a stray ``.NAME.*.tmp`` beside it), never a truncated one.

:func:`check_outputs` runs before a command touches anything: an output path that
is one of the command's inputs (same resolved path or same inode) or the open
SQLite database (or its ``-wal``, ``-shm`` or ``-journal`` file) is a usage error,
exit 2. ``--out tourney.db`` must not replace a league's database. So is one
that begins with ``-`` (``--out --json``: the name forgotten, the next option
taken for it).
(A command line refuses an output file that exists already unless told to
replace it: that is its own policy, worded with its flag, in ``tourney.cli``.)
"""
from __future__ import annotations

import errno
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterable, Iterator

from .errors import UsageError
from .errors.words import N_, Message, quoted

# Files SQLite keeps beside a database while it is open.
SQLITE_COMPANIONS = ("", "-wal", "-shm", "-journal")


def _identity(path: str | os.PathLike) -> tuple[str, tuple[int, int] | None]:
    """A path's resolved form and, when it exists, its (device, inode)."""
    resolved = os.path.realpath(os.fspath(path))
    try:
        st = os.stat(resolved)
        return resolved, (st.st_dev, st.st_ino)
    except OSError:
        return resolved, None


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether two paths name one file: the same resolved path, or (hard links,
    bind mounts) the same inode."""
    path_a, inode_a = _identity(a)
    path_b, inode_b = _identity(b)
    return path_a == path_b or (inode_a is not None and inode_a == inode_b)


def check_outputs(outputs: dict[str, str | os.PathLike | None], *,
                  inputs: Iterable[str | os.PathLike | None] = (),
                  database: str | os.PathLike | None = None) -> None:
    """Refuse (:class:`UsageError`, exit 2) an output that would overwrite an input
    of the same command or the database.

    ``outputs`` maps an option's name (``--out``) to the path given for it (``None``
    or ``-`` when not given / standard output); ``database`` is the SQLite file the
    command opens (``None`` for a server database).
    """
    given = {option: path for option, path in outputs.items()
             if path is not None and os.fspath(path) != "-"}
    others = [p for p in inputs if p is not None and os.fspath(p) != "-"]
    for option, path in given.items():
        if os.fspath(path).startswith("-"):
            # The name forgotten, the next option taken for it (`--out --json`):
            # a file named after an option is never what was meant.
            raise UsageError(Message(
                N_("%(option)s %(path)s looks like an option, not a name; nothing was "
                   "written. Give the name after %(option)s (%(plain)s for one that really "
                   "begins with -)."),
                {"option": option, "path": quoted(os.fspath(path)),
                 "plain": f"./{os.fspath(path)}"}))
        if database is not None:
            for suffix in SQLITE_COMPANIONS:
                if same_file(path, os.fspath(database) + suffix):
                    said = {"option": option, "path": quoted(os.fspath(path)),
                            "database": os.fspath(database), "companion": suffix[1:]}
                    raise UsageError(Message(N_(
                        "%(option)s %(path)s is the database's %(companion)s file "
                        "(%(database)s); nothing was written. Give another file name.")
                        if suffix else N_(
                        "%(option)s %(path)s is the database (%(database)s); nothing was "
                        "written. Give another file name."), said))
        for source in others:
            if same_file(path, source):
                raise UsageError(Message(N_("%(option)s %(path)s is the input file %(input)s; "
                                            "nothing was written. Give another file name."),
                                         {"option": option, "path": quoted(os.fspath(path)),
                                          "input": quoted(os.fspath(source))}))
    names = list(given.items())
    for i, (option, path) in enumerate(names):
        for other_option, other in names[i + 1:]:
            if same_file(path, other):
                raise UsageError(Message(N_("%(option)s and %(other)s name the same file "
                                            "%(path)s"),
                                         {"option": option, "other": other_option,
                                          "path": quoted(os.fspath(path))}))


def write_failure_reason(err: OSError) -> str | Message:
    """Why a file or folder could not be written: words for a file standing where a
    folder of the path should be (making that folder fails 'File exists') and a full
    disk; else the system's reason, as the system says it."""
    if err.errno == errno.EEXIST and err.filename:
        return Message(N_("%(path)s is a file, not a folder"),
                       {"path": os.fspath(err.filename)})
    if err.errno == errno.ENOSPC:
        return Message(N_("no space left on the device"))
    return err.strerror or str(err)


def cannot_write(target: str | os.PathLike, err: OSError) -> UsageError:
    """The refusal of an output that cannot be written where it was asked for (no
    such folder, no permission, a file in the way): exit 2, the call cannot work."""
    return UsageError(Message(N_("%(file)s: cannot write: %(reason)s"),
                              {"file": os.fspath(target), "reason": write_failure_reason(err)}))


def _creation_mode() -> int:
    """The mode a plain ``open(path, "w")`` would give a new file (0666 less the umask)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8",
                 newline: str | None = "") -> Iterator[IO]:
    """Write ``path`` through a temporary file in the same folder, renamed into
    place when the ``with`` block ends without an error.

    The new file keeps the permission bits of the file it replaces (or gets those
    of a newly created file). On any error, or an interrupt, the temporary file is
    removed and ``path`` is untouched. Text mode by default, ``newline=""`` (the
    csv module's choice); pass ``mode="wb"`` for bytes.
    """
    target = Path(path)
    folder = target.parent
    try:
        existing = os.stat(target)
        permissions = existing.st_mode & 0o7777
    except FileNotFoundError:
        permissions = _creation_mode()
    except OSError as err:
        raise cannot_write(target, err) from None
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise cannot_write(target, err) from None
    text_options = {} if "b" in mode else {"encoding": encoding, "newline": newline}
    try:
        with os.fdopen(fd, mode, **text_options) as stream:
            os.fchmod(stream.fileno(), permissions)
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
