"""The folders `tourney publish` builds, swaps, writes into and removes, and how it
knows which ones are its own. (A site published before is updated where it is: the
changed files are rendered into a build folder beside it and renamed into place,
see :func:`tourney.reports.site.write_in_place`; a first publish swaps a whole
build in.)

Ownership, in one rule: publish removes only what carries its marker.

- **The marker** (``.tourney-site``, JSON) is in every folder publish builds. It is
  created (under another name, then renamed) already holding an exclusive
  ``flock``, and the lock is held until the build is swapped in or given up: a
  folder whose marker nobody holds a lock on is not being built by anyone.
- **Folders beside the site.** A build is ``.<name>.publishing-<8 characters>``, a
  replaced site ``.<name>.old-<pid>-<nanoseconds>``. A folder with exactly such a
  name that holds the marker, unlocked, is a leftover of a publish that was killed
  or whose cleanup was cut short; the next publish removes it. Anything else beside
  the site (``.site.old-backup``, a build still running) is left alone.
- **Files inside the site.** The manifest (``.tourney-files``, JSON) lists every
  file publish wrote. A file in the site folder that the manifest does not list
  (``CNAME``, ``.htaccess``, ``robots.txt``, an invitation PDF beside an event's
  pages) was put there by someone else: it is left where it is (into a new build
  it is carried: a hard link, else a copy), as a web server's or a hosting service's files must survive
  a publish; symbolic links are not (one could put any file of the machine on the
  web), they are dropped and named. Where a foreign file is at a path the new site needs, publish refuses
  and names it; ``--force`` drops the foreign files instead of carrying them. A
  site published before the manifest existed is taken as publish's own.
- **The database** (an SQLite file, and its ``-wal``/``-shm``/``-journal``) is
  never inside the site folder: publish refuses, since everything there is served
  to anyone who asks.
- **A mount point** cannot be swapped atomically (it cannot be renamed); publish
  refuses it with a message saying to publish into a folder inside it.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import orjson

from tourney.collector import paused
from tourney.errors import InvalidValue, TourneyError, UsageError
from tourney.errors.words import N_, Message, quoted
from tourney.files import write_failure_reason

SITE_MARKER = ".tourney-site"
MANIFEST = ".tourney-files"
OWN_FILES = frozenset({SITE_MARKER, MANIFEST})
_BUILD_INFIX = ".publishing-"
_OLD_INFIX = ".old-"


# ------------------------------------------------------------------------ the target

def prepare_target(out: str | os.PathLike, protect: Iterable[os.PathLike | str] = ()) -> Path:
    """The target folder, checked: absent, empty, or a site built by this command;
    not a mount point; holding none of the ``protect`` paths (the database)."""
    text = os.fspath(out)
    if not text.strip():
        raise InvalidValue("out", quoted(text), Message(N_("a folder")))
    target = Path(os.path.realpath(text))
    if target == Path(target.anchor):
        raise UsageError(Message(N_("refusing to publish over the file system's root")))
    for path in protect:
        inside = Path(os.path.realpath(path))
        if inside == target or target in inside.parents:
            raise UsageError(Message(
                N_("the database %(database)s is inside the site folder %(folder)s: everything "
                   "there is put on the web for anyone to download; keep the database outside "
                   "the site folder"), {"database": os.fspath(path), "folder": text}))
    if target.exists():
        if not target.is_dir():
            raise UsageError(Message(N_("%(folder)s exists and is not a folder"), {"folder": text}))
        if os.path.ismount(target):
            raise UsageError(Message(
                N_("%(folder)s is a mount point: publish swaps the whole folder at once and a "
                   "mount point cannot be swapped; publish into a folder inside it (e.g. "
                   "%(inside)s) and serve that folder"),
                {"folder": text, "inside": os.path.join(text, "site")}))
        if any(target.iterdir()) and not (target / SITE_MARKER).is_file():
            raise UsageError(Message(
                N_("%(folder)s is not empty and holds no site published by tourney (no "
                   "%(marker)s file); publish into a new or empty folder"),
                {"folder": text, "marker": SITE_MARKER}))
    else:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:  # a file where a folder should be, no permission
            raise write_error(err, target) from None
    return target


def read_manifest(site: Path) -> dict | None:
    """The manifest of the site in ``site``; None if there is none (or it is not
    one: then the site is rebuilt in full and its files are taken as publish's)."""
    try:
        with open(site / MANIFEST, "rb") as stream:
            raw = stream.read()
        with paused():  # parsed JSON makes no cycles: a collection there only walks
            manifest = orjson.loads(raw)
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        return None
    return manifest


def manifest_bytes(manifest: dict) -> bytes:
    """The manifest as written: compact JSON, keys sorted (by orjson: a big site's
    manifest holds tens of thousands of files, which the standard library's
    encoder takes a good part of a second over)."""
    return orjson.dumps(manifest, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)


def marker_bytes(content: dict) -> bytes:
    """The marker's content as written."""
    return (json.dumps(content, ensure_ascii=False) + "\n").encode("utf-8")


def read_marker(site: Path) -> dict | None:
    """The marker of the site in ``site`` (what the publish that built it wrote:
    its languages, when, the stamp of its content); None if unreadable."""
    try:
        with open(site / SITE_MARKER, encoding="utf-8") as stream:
            marker = json.load(stream)
    except (OSError, ValueError):
        return None
    return marker if isinstance(marker, dict) else None


def folder_times(site: Path) -> dict[str, int]:
    """Every folder of the site (relative, "." the site's) with its modification
    time, and the manifest's: a file added, removed or renamed anywhere in the site,
    or the manifest rewritten, changes one of them (see :func:`same_folder_times`)."""
    base = os.fspath(site)
    times = {MANIFEST: os.stat(os.path.join(base, MANIFEST)).st_mtime_ns}
    for folder, _dirs, _files in os.walk(base):
        times[os.path.relpath(folder, base)] = os.stat(folder).st_mtime_ns
    return times


def same_folder_times(site: Path, times) -> bool:
    """Whether the site's folders are as :func:`folder_times` found them when it
    was published (a stat per folder: a site has few, however many its pages)."""
    if not isinstance(times, dict) or MANIFEST not in times:
        return False
    base = os.fspath(site)
    try:
        return all(os.stat(os.path.join(base, rel)).st_mtime_ns == when
                   for rel, when in times.items())
    except (OSError, TypeError):
        return False


# ------------------------------------------------------------------------ the build folder

class BuildFolder:
    """A folder beside the target, marked and locked while the site is built in it."""

    def __init__(self, target: Path):
        self.target = target
        self.path = Path(tempfile.mkdtemp(prefix=f".{target.name}{_BUILD_INFIX}",
                                          dir=target.parent))
        os.chmod(self.path, 0o777 & ~_umask())  # mkdtemp's 0700 would hide the site
        pending = self.path / ".tourney-site.new"
        self._fd = os.open(pending, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        self.write_marker({"generator": "tourney", "state": "building", "pid": os.getpid()})
        os.rename(pending, self.path / SITE_MARKER)  # visible only once locked

    def write_marker(self, content: dict) -> None:
        data = marker_bytes(content)
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, data, 0)

    def release(self) -> None:
        """Let go of the lock (the folder is now the site, or removed)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        self.release()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _owned_name(target: Path) -> re.Pattern:
    name = re.escape(target.name)
    return re.compile(rf"\.{name}(?:\.publishing-[a-z0-9_]{{8}}|\.old-\d+-\d+)")


def leftovers(target: Path) -> list[Path]:
    """Folders beside the target that a killed publish (or a cleanup cut short)
    left: named as publish names them, holding its marker, and built by nobody
    now (the marker's lock is free). Nothing else is ever returned."""
    pattern = _owned_name(target)
    found = []
    try:
        candidates = [p for p in target.parent.iterdir() if pattern.fullmatch(p.name)]
    except OSError:
        return []
    for path in candidates:
        if path.is_symlink() or not path.is_dir():
            continue
        if _is_abandoned(path / SITE_MARKER):
            found.append(path)
    return found


def _is_abandoned(marker: Path) -> bool:
    try:
        fd = os.open(marker, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False  # no marker: not ours
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # a publish is building it
    finally:
        os.close(fd)
    return True


def discard(paths: Sequence[Path], background: bool) -> None:
    """Delete old sites. In the background (a detached process) when asked:
    deleting tens of thousands of files can take longer than building them, and
    nobody needs to wait for it; the site is already in place."""
    paths = [p for p in paths if p is not None]
    if not paths:
        return
    if background:
        try:
            subprocess.Popen(
                [sys.executable, "-c",
                 "import shutil, sys\nfor p in sys.argv[1:]: shutil.rmtree(p, ignore_errors=True)",
                 *map(str, paths)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True)
            return
        except OSError:
            pass  # no process to spare: delete here
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)


# ------------------------------------------------------------------------ foreign files

def foreign_files(site: Path, manifest: dict | None) -> tuple[list[str], list[str]]:
    """The regular files and the symbolic links in the site folder that publish did
    not write, as paths relative to it; none for a site without a manifest.

    Symbolic links are never carried into a new site: one could put any file of
    the machine on the web."""
    if manifest is None:
        return [], []
    ours = manifest["files"]
    found, links = [], []
    base = os.fspath(site)
    for folder, dirs, files in os.walk(base):
        rel_folder = os.path.relpath(folder, base)
        prefix = "" if rel_folder == "." else rel_folder.replace(os.sep, "/") + "/"
        for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            rel = prefix + name
            if rel in ours or rel in OWN_FILES:
                continue
            full = os.path.join(folder, name)
            if os.path.islink(full):
                links.append(rel)
            elif os.path.isfile(full):
                found.append(rel)
    return sorted(found), sorted(links)


def carry_foreign(site: Path, build: Path, names: Sequence[str]) -> None:
    """Put the foreign files into the build at the same paths: a hard link where
    the file system allows one (no copy, same file), else a copy."""
    for rel in names:
        source = site / rel
        dest = build / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        link_or_copy(source, dest)


def link_or_copy(source: str | Path, dest: str | Path) -> None:
    """The same file at a second path: a hard link, or a copy where the file
    system has none (FileNotFoundError if there is no source)."""
    try:
        os.link(source, dest, follow_symlinks=False)
    except FileNotFoundError:
        raise
    except OSError:
        shutil.copyfile(source, dest, follow_symlinks=False)


def conflicts(build: Path, names: Sequence[str]) -> list[str]:
    """The foreign files whose path the new site uses."""
    return [rel for rel in names if os.path.lexists(build / rel)]


def describe(names: Sequence[str], limit: int = 5) -> str | Message:
    """The first ``limit`` names, and how many more there are."""
    shown = ", ".join(names[:limit])
    if len(names) <= limit:
        return shown
    return Message(N_("%(names)s and %(count)s more"), {"names": shown, "count": len(names) - limit})


# ------------------------------------------------------------------------ the swap

_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_into_place(build_dir: Path, target: Path) -> Path | None:
    """Put the finished build where the site goes; the old site's folder, renamed
    ``.<name>.old-...`` beside the target (for :func:`discard`), or ``None``."""
    if not target.exists():
        os.rename(build_dir, target)
        return None
    old = target.with_name(f".{target.name}{_OLD_INFIX}{os.getpid()}-{time.time_ns()}")
    if _exchange(build_dir, target):
        os.rename(build_dir, old)  # build_dir now holds the old site
        return old
    os.rename(target, old)
    try:
        os.rename(build_dir, target)
    except OSError:
        os.rename(old, target)
        raise
    return old


# ------------------------------------------------------------------------ writing in place

@contextlib.contextmanager
def site_lock(target: Path):
    """Hold an exclusive lock on the site folder (a ``flock`` of the folder itself)
    while publishing into it: publishes into one folder take turns, since two
    writing into the live site at once would mix their files and manifests. A folder
    not made yet is not locked (its first publish swaps a new one in)."""
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        fd = None
    try:
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        if fd is not None:
            os.close(fd)


def replace_file(path: str | Path, data: bytes) -> None:
    """Write ``path`` through a temporary file beside it, renamed over it: a reader
    sees the old file or the new one, never part of one."""
    path = os.fspath(path)
    folder, name = os.path.split(path)
    fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def place_file(staged: str, live: str) -> None:
    """Move a file written in the build folder over its path in the live site (one
    rename: the build folder is beside the site, on the same file system)."""
    try:
        os.replace(staged, live)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(live), exist_ok=True)
        os.replace(staged, live)


def remove_file(site: Path, rel: str) -> None:
    """Remove a file of the site and then each folder it leaves empty (up to the
    site's own); a file already gone is no error."""
    path = os.path.join(site, rel)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    folder = os.path.dirname(path)
    base = os.fspath(site)
    while folder != base and folder.startswith(base + os.sep):
        try:
            os.rmdir(folder)
        except OSError:
            break  # not empty (or not ours to remove)
        folder = os.path.dirname(folder)


# ------------------------------------------------------------------------ workers

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int) -> None:
    """In a forked worker: be killed when the parent dies (Linux), and stop at once
    if it already has. Elsewhere the worker notices a closed pipe at its end."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent_pid:
        os._exit(1)


def stop_workers(pids: Iterable[int]) -> None:
    """Kill and reap workers (the parent is giving up)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for pid in pids:
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass


def write_error(err: OSError, where: Path, partly: bool = False) -> TourneyError:
    """One line for a failed write (a full disk, no permission). ``partly``: it
    failed while the changed files were being put into the site, which then has
    some of them (every link resolving) until a publish finishes the job."""
    said = {"folder": str(where), "reason": write_failure_reason(err)}
    if partly:
        return TourneyError(Message(N_("cannot write the site in %(folder)s: %(reason)s; some "
                                       "pages are updated and some not yet: publish again to "
                                       "finish"), said))
    # A place that cannot take the site (no permission, a read-only file system, a
    # file where a folder should be): the --out given cannot work, a usage error as
    # for every other output; a full disk or a failing one: a failure.
    kind = UsageError if err.errno in _NOT_WRITABLE_THERE else TourneyError
    return kind(Message(N_("cannot write the site beside %(folder)s: %(reason)s; the "
                           "published site is unchanged"), said))


_NOT_WRITABLE_THERE = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR, errno.EEXIST}


__all__ = [
    "MANIFEST",
    "SITE_MARKER",
    "BuildFolder",
    "carry_foreign",
    "conflicts",
    "die_with_parent",
    "discard",
    "folder_times",
    "foreign_files",
    "leftovers",
    "link_or_copy",
    "marker_bytes",
    "place_file",
    "prepare_target",
    "read_manifest",
    "read_marker",
    "remove_file",
    "replace_file",
    "same_folder_times",
    "site_lock",
    "stop_workers",
    "swap_into_place",
    "write_error",
]
