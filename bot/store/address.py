"""Where a store is: a SQLite file's path, or a PostgreSQL address."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def is_postgres(target: str | Path) -> bool:
    """True for a PostgreSQL address (``postgresql://`` or ``postgres://``)."""
    return str(target).startswith(("postgresql://", "postgres://"))


def shown(target: str | Path) -> str:
    """``target`` without a password (for messages and logs)."""
    text = str(target)
    if not is_postgres(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
