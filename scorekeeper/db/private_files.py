"""Files that hold password and token hashes (the SQLite database, its -wal and -shm files, backups):
readable and writable by their owner only, whatever the process's umask."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

OWNER_ONLY = 0o600
#: SQLite creates these beside the database with the database file's own permissions.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def create_owner_only(path: Path) -> None:
    """Create `path` empty and owner-only if it does not exist; leave an existing file's content alone."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))


def make_owner_only(path: Path) -> None:
    """Take the group's and others' access away from an existing file of this process's user."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    if info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(path, stat.S_IMODE(info.st_mode) & 0o700)


def protect_sqlite_database(database: str | None) -> None:
    """Make the SQLite database file owner-only before SQLite opens it (creating it if needed), and its
    companions too; SQLite then creates any new -wal and -shm file with the same permissions."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.parent.is_dir():
        return  # SQLite will say that it cannot open the file
    create_owner_only(path)
    for suffix in ("", *SQLITE_COMPANIONS):
        make_owner_only(path.with_name(path.name + suffix))
