"""Settings of ``python -m dingir``, read from the environment and a ``.env`` file.

Every setting is documented in ``.env.example``. The token is kept out of
``repr`` so that it can never end up in a log line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.i18n import LANGUAGES
from bot.notation import whole_number
from bot.records import Limits
from bot.shards import Shards, parse

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A setting is missing or invalid; the message says what to do."""


@dataclass(frozen=True)
class Settings:
    """The bot's settings (see ``.env.example``)."""

    token: str = field(repr=False)
    db_path: Path = Path("var/dingir.sqlite3")
    database_url: str | None = field(default=None, repr=False)
    """A PostgreSQL address (``DINGIR_DATABASE_URL``): the store is there, not in
    ``db_path``. Out of ``repr``: it may hold a password."""
    dev_guild: int | None = None
    log_level: str = "INFO"
    language: str = "en"
    api_base: str | None = None
    gateway_url: str | None = None
    clock_file: Path | None = None
    scheduler_seconds: float = 60.0
    worker_processes: int = 2
    backup_dir: Path | None = None
    """None: a ``backups`` folder beside the database."""
    backup_hours: float = 24.0
    backup_keep: int = 7
    post_retry_seconds: float = 5.0
    """A post that met Discord's server errors is tried again after this, then after six
    times this."""
    web_port: int | None = None
    """The port of the games' web pages (None: no web server)."""
    web_host: str = "127.0.0.1"
    """The address the web server listens on (behind a reverse proxy: this machine only)."""
    web_url: str | None = None
    """The public address of the web pages (None: ``http://localhost:<port>``)."""
    shards: Shards | None = None
    """The shards this process serves (``DINGIR_SHARDS``); None: one process for all."""
    limits: Limits = field(default_factory=Limits)
    """Open lobbies and games per member and per server, the cooldown between two new
    games, the lifetime of a lobby."""


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    """A number greater than 0."""
    value = _float(env, name, default, "a number")
    if value <= 0:
        raise ConfigError(f"{name} must be greater than 0: fix it in .env")
    return value


def _hours(env: Mapping[str, str], name: str, default: float, unit: str = "hours") -> float:
    """A number of hours (or other ``unit``), 0 allowed (0 turns the thing off)."""
    value = _float(env, name, default, f"a number of {unit}")
    if value < 0:
        raise ConfigError(f"{name} cannot be negative: fix it in .env (0 turns it off)")
    return value


def _float(env: Mapping[str, str], name: str, default: float, what: str) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not {what}: fix it in .env") from None


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    value = whole_number(raw)
    if value is None:
        raise ConfigError(f"{name}={raw!r} is not a whole number (0 or more): fix it in .env")
    return value


def _guild(env: Mapping[str, str]) -> int | None:
    raw = env.get("DINGIR_DEV_GUILD", "").strip()
    if not raw:
        return None
    value = whole_number(raw)
    if value is None:
        raise ConfigError(
            f"DINGIR_DEV_GUILD={raw!r} is not a server id: copy the id "
            "(Developer Mode, right click the server, Copy Server ID) or leave it empty"
        )
    return value


def from_mapping(env: Mapping[str, str]) -> Settings:
    """Settings from a mapping of variables; raises ConfigError with a one-line fix."""
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is missing: copy .env.example to .env and paste your bot's token "
            "(Discord Developer Portal > your application > Bot > Reset Token)"
        )
    level = env.get("DINGIR_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"DINGIR_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
    language = env.get("DINGIR_LANGUAGE", "en").strip().lower() or "en"
    if language not in LANGUAGES:
        raise ConfigError(f"DINGIR_LANGUAGE must be one of {', '.join(LANGUAGES)}")
    clock = env.get("DINGIR_CLOCK_FILE", "").strip()
    return Settings(
        token=token,
        db_path=Path(env.get("DINGIR_DB", "").strip() or "var/dingir.sqlite3"),
        database_url=_database_url(env),
        dev_guild=_guild(env),
        log_level=level,
        language=language,
        api_base=env.get("DINGIR_API_BASE", "").strip() or None,
        gateway_url=env.get("DINGIR_GATEWAY_URL", "").strip() or None,
        clock_file=Path(clock) if clock else None,
        scheduler_seconds=_number(env, "DINGIR_SCHEDULER_SECONDS", 60.0),
        worker_processes=_count(env, "DINGIR_WORKER_PROCESSES", 2),
        backup_dir=Path(backups) if (backups := env.get("DINGIR_BACKUP_DIR", "").strip())
        else None,
        backup_hours=_hours(env, "DINGIR_BACKUP_HOURS", 24.0),
        backup_keep=_count(env, "DINGIR_BACKUP_KEEP", 7),
        post_retry_seconds=_number(env, "DINGIR_POST_RETRY_SECONDS", 5.0),
        web_port=_port(env),
        web_host=env.get("DINGIR_WEB_HOST", "").strip() or "127.0.0.1",
        web_url=env.get("DINGIR_WEB_URL", "").strip().rstrip("/") or None,
        shards=_shards(env),
        limits=_limits(env),
    )


def _port(env: Mapping[str, str]) -> int | None:
    """``DINGIR_WEB_PORT``: None when empty or 0 (no web server)."""
    port = _count(env, "DINGIR_WEB_PORT", 0)
    if port > 65535:
        raise ConfigError(f"DINGIR_WEB_PORT={port} is not a port (1-65535): fix it in .env")
    return port or None


def _shards(env: Mapping[str, str]) -> Shards | None:
    raw = env.get("DINGIR_SHARDS", "").strip()
    if not raw:
        return None
    try:
        return parse(raw)
    except ValueError as error:
        raise ConfigError(f"DINGIR_SHARDS={raw!r} {error}: fix it in .env, or leave it "
                          "empty for one process") from None


def _database_url(env: Mapping[str, str]) -> str | None:
    url = env.get("DINGIR_DATABASE_URL", "").strip()
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DINGIR_DATABASE_URL must be a PostgreSQL address "
                          "(postgresql://user:password@host/database), or empty for SQLite")
    return url or None


def _limits(env: Mapping[str, str]) -> Limits:
    default = Limits()
    return Limits(
        lobbies_per_member=_count(env, "DINGIR_MAX_LOBBIES_PER_MEMBER",
                                  default.lobbies_per_member),
        games_per_member=_count(env, "DINGIR_MAX_GAMES_PER_MEMBER", default.games_per_member),
        games_per_server=_count(env, "DINGIR_MAX_GAMES_PER_SERVER", default.games_per_server),
        cooldown_seconds=_hours(env, "DINGIR_NEW_GAME_COOLDOWN_SECONDS",
                                default.cooldown_seconds, "seconds"),
        lobby_hours=_hours(env, "DINGIR_LOBBY_EXPIRY_HOURS", default.lobby_hours),
        repost_seconds=_hours(env, "DINGIR_REPOST_SECONDS", default.repost_seconds, "seconds"),
    )


def load(env_file: Path | None = Path(".env")) -> Settings:
    """Settings from ``env_file`` (if it exists) overridden by the process environment."""
    merged: dict[str, str] = {}
    if env_file is not None and env_file.is_file():
        merged.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    merged.update(os.environ)
    return from_mapping(merged)
