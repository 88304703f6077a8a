"""``python -m dingir``: read the settings, open the database, connect to Discord, run.

A missing or rejected token, an unreachable Discord or an unusable database
gives one line on stderr saying what to do, and a non-zero exit status. The
token is never printed or logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sqlite3
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import yarl

from bot import config
from bot.clock import OffsetClock, SystemClock
from bot.records import StoreUnavailable
from bot.service import GameService
from bot.shards import ALL

if TYPE_CHECKING:
    from aiohttp.web import AppRunner

    from bot.instance import Held
    from bot.store import Store
    from host.workers import Workers

log = logging.getLogger("bot")
SWITCH_INTERVAL = 0.001
"""Seconds the event loop's thread may keep the interpreter lock while the database
thread waits for it (Python's default, 5 ms, made each group commit wait up to 5 ms
at every statement under load)."""
LOG_FORMAT = "{asctime} {levelname:<8} {name}: {message}"
"""Log lines written to a file or a pipe: no terminal colour codes."""


class Fatal(Exception):
    """A startup failure explained in one line."""


class Redact(logging.Filter):
    """Replaces a secret (the token) in every log line, should a library ever print it."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message without the secret; never drops a record."""
        message = record.getMessage()
        if self.secret in message:
            record.msg, record.args = message.replace(self.secret, "[token]"), None
        return True


def use_endpoints(settings: config.Settings) -> None:
    """Point discord.py at another REST base / gateway (a local stand-in for tests)."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


JsonText = str | bytes | bytearray | memoryview
STRICT_JSON: Callable[[JsonText], Any] = discord.utils._from_json
"""discord.py's JSON reader (orjson where installed)."""


def read_gateway_json(text: JsonText) -> Any:
    """Read one message from Discord as discord.py does, but also one with a lone UTF-16
    surrogate escape (half an emoji, ``"\\ud83d"``): orjson refuses it and the refused
    message would end the connection and the bot. The standard library reads it, and each
    lone surrogate becomes U+FFFD (a string that can be written back to Discord)."""
    try:
        return STRICT_JSON(text)
    except ValueError:
        return _mend_surrogates(json.loads(bytes(text) if isinstance(text, memoryview) else text))


def _mend_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [_mend_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_mend_surrogates(k): _mend_surrogates(v) for k, v in value.items()}
    return value


async def run(settings: config.Settings, seed_source: Callable[[], int] | None = None) -> None:
    """Open the store, build the services and the client, and stay connected (games
    seeded by ``seed_source`` when given, else at random)."""
    from bot.backups import Backups
    from bot.deadlines import Deadlines
    from host import registry
    from host.client import client
    from host.scheduler import Scheduler
    from host.workers import Workers

    clock = OffsetClock(SystemClock(), settings.clock_file) if settings.clock_file \
        else SystemClock()
    store, lock = await open_database(settings)
    shards = settings.shards or ALL
    if settings.shards is not None:
        log.info("serving shards %s", shards)
    backup_hours = 0.0 if settings.database_url or 0 not in shards.ids \
        else settings.backup_hours                # pg_dump's job; shard 0's process's
    web: AppRunner | None = None
    try:
        workers = Workers(settings.worker_processes)
        service = GameService(store, clock, seed_source, catalogue=registry.CATALOGUE,
                              ai_search=workers.ai_step, limits=settings.limits,
                              shards=shards)
        deadlines = Deadlines(clock, service.core.engine, shards)
        service.core.watchers.append(deadlines.watch)
        bot = client(settings, service, Scheduler(service, store, clock, shards), workers,
                     deadlines, Backups(store, clock, settings.backup_dir or
                                        settings.db_path.parent / "backups", backup_hours,
                                        settings.backup_keep))
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGTERM, lambda: bot.spawn(bot.close(), "sigterm")
        )
        if settings.web_port:
            web = await start_web(settings, service, workers)
        async with bot:
            try:
                await bot.login(settings.token)
            except discord.LoginFailure:
                raise Fatal("Discord rejected the token (LoginFailure): reset it in the "
                            "Developer Portal (Bot > Reset Token) and put the new one in "
                            ".env as DISCORD_TOKEN.") from None
            except aiohttp.ClientConnectionError as error:
                raise Fatal(f"cannot reach Discord ({type(error).__name__}): check the "
                            "network (or DINGIR_API_BASE).") from None
            except discord.HTTPException as error:
                raise Fatal(f"Discord refused the start-up requests ({error.status}: "
                            f"{error.text or 'no details'}).") from None
            await bot.connect(reconnect=True)
        await bot.backups.at_stop()
    finally:
        if web is not None:
            await web.cleanup()
        await store.close()
        if lock is not None:
            lock.close()


async def open_database(settings: config.Settings) -> tuple[Store, Held | None]:
    """The store the settings name, held by this process alone for its shards: a SQLite
    file (with its lock files, returned) or a PostgreSQL database (holding its lease)."""
    from bot.instance import AlreadyRunning, hold

    shards = (settings.shards or ALL).ids
    try:
        lock = None if settings.database_url else hold(settings.db_path, shards)
    except AlreadyRunning as error:
        raise Fatal(str(error)) from None
    try:
        return await _open_store(settings), lock
    except BaseException:
        if lock is not None:
            lock.close()
        raise


async def _open_store(settings: config.Settings) -> Store:
    from bot.instance import AlreadyRunning
    from bot.store import SchemaTooNew, open_store, shown

    where = shown(settings.database_url or settings.db_path)
    try:
        return await open_store(settings.database_url or settings.db_path,
                                lease=(settings.shards or ALL).ids)
    except AlreadyRunning as error:
        raise Fatal(str(error)) from None
    except SchemaTooNew as error:
        raise Fatal(f"{where}: {error}.") from None
    except (StoreUnavailable, sqlite3.Error, OSError) as error:
        detail = error.detail if isinstance(error, StoreUnavailable) else error
        check = ("DINGIR_DATABASE_URL and that PostgreSQL runs" if settings.database_url
                 else "DINGIR_DB and that its folder is writable")
        raise Fatal(f"cannot open the database {where} ({detail}): check {check}.") from None


async def start_web(settings: config.Settings, service: GameService, workers: Workers
                    ) -> AppRunner:
    """The games' web pages on ``DINGIR_WEB_PORT`` (:mod:`web.server`)."""
    from web.server import start

    assert settings.web_port is not None
    try:
        runner, _ = await start(service, workers, settings.web_host, settings.web_port)
    except OSError as error:
        raise Fatal(f"cannot serve the web pages on {settings.web_host}:{settings.web_port} "
                    f"({error.strerror}): choose another DINGIR_WEB_PORT, or leave it empty"
                    ) from None
    return runner


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux and macOS: fewer CPU cycles for
    each Discord request), else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main(seed_source: Callable[[], int] | None = None) -> int:
    """Run the bot until interrupted (games seeded by ``seed_source`` when given: the
    end-to-end tests play known games); returns the process exit status."""
    try:
        settings = config.load()
    except config.ConfigError as error:
        print(f"dingir: {error}", file=sys.stderr)
        return 2
    level = getattr(logging, settings.log_level)
    if sys.stderr.isatty():
        discord.utils.setup_logging(level=level)
    else:
        discord.utils.setup_logging(level=level,
                                    formatter=logging.Formatter(LOG_FORMAT, style="{"))
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redact(settings.token))
    use_endpoints(settings)
    discord.utils._from_json = read_gateway_json
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(run(settings, seed_source))
    except Fatal as error:
        print(f"dingir: {error}", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("dingir: Discord refused the gateway intents: Dingir needs none of the "
              "privileged ones; check the application settings.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
