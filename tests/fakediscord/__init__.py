"""A local stand-in for Discord (REST + gateway on 127.0.0.1) for end-to-end tests.

See README.md. Main entry points: FakeDiscord (server.py), FakeUser / InteractionResult
(users.py), point_discordpy_at() for an in-process client, BotProcess for `python -m dingir`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from .model import (
    EPHEMERAL,
    Attachment,
    Channel,
    Guild,
    InteractionRecord,
    Member,
    Message,
    Perm,
    Role,
    User,
    ValidationError,
)
from .server import FAKE_TOKEN, ApiError, FakeDiscord, Fault
from .users import FakeUser, InteractionFailed, InteractionResult, Upload

__all__ = [
    "EPHEMERAL",
    "FAKE_TOKEN",
    "NO_LIMITS",
    "ApiError",
    "Attachment",
    "BotProcess",
    "Channel",
    "FakeDiscord",
    "FakeUser",
    "Fault",
    "Guild",
    "InteractionFailed",
    "InteractionRecord",
    "InteractionResult",
    "Member",
    "Message",
    "Perm",
    "Role",
    "Upload",
    "User",
    "ValidationError",
    "point_discordpy_at",
]

PROJECT_ROOT = Path(__file__).resolve().parents[2]

NO_LIMITS = {
    "DINGIR_MAX_LOBBIES_PER_MEMBER": "0", "DINGIR_MAX_GAMES_PER_MEMBER": "0",
    "DINGIR_MAX_GAMES_PER_SERVER": "0", "DINGIR_NEW_GAME_COOLDOWN_SECONDS": "0",
    "DINGIR_REPOST_SECONDS": "0",
}
"""The bot's settings that turn its limits on new games off, for tests and simulations
that open many games at once."""


def point_discordpy_at(fake: FakeDiscord) -> Callable[[], None]:
    """Point this process's discord.py at the stand-in; returns a function that undoes it."""
    import discord.gateway
    import discord.http
    import yarl

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore


class BotProcess:
    """Runs the bot (`python -m dingir` by default) as a subprocess pointed at the stand-in.

    Environment: DISCORD_TOKEN (the stand-in's token), DINGIR_API_BASE, DINGIR_GATEWAY_URL,
    DINGIR_DB, DINGIR_CLOCK_FILE (and DINGIR_FAKE_CLOCK_FILE, DINGIR_CLOCK_RECHECK=0) plus
    `env`. Output goes to `log_path`. `kill()` sends SIGKILL by default; `restart()` kills
    and starts again.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        db_path: str | os.PathLike[str],
        clock_file: str | os.PathLike[str] | None = None,
        args: Sequence[str] = ("-m", "dingir"),
        cwd: str | os.PathLike[str] = PROJECT_ROOT,
        env: dict[str, str] | None = None,
        log_path: str | os.PathLike[str] | None = None,
    ) -> None:
        self.fake = fake
        self.db_path = Path(db_path)
        self.clock_file = None if clock_file is None else Path(clock_file)
        self.args = list(args)
        self.cwd = Path(cwd)
        self.extra_env = dict(env or {})
        self.log_path = Path(log_path) if log_path else self.db_path.with_suffix(".bot.log")
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._log: IO[bytes] | None = None

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DINGIR_API_BASE=self.fake.api_base,
            DINGIR_GATEWAY_URL=self.fake.gateway_url,
            DINGIR_DB=str(self.db_path),
            PYTHONUNBUFFERED="1",
        )
        if self.clock_file is not None:
            env.update(DINGIR_CLOCK_FILE=str(self.clock_file),
                       DINGIR_FAKE_CLOCK_FILE=str(self.clock_file),
                       DINGIR_CLOCK_RECHECK="0")      # a new offset counts at once
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    async def start(self, *, wait_ready: bool = True, timeout: float = 30.0) -> None:
        """Start the process; with wait_ready, return once it has IDENTIFIED on the gateway
        (RuntimeError with the log tail if it exits first)."""
        if self.running:
            raise RuntimeError("the bot process is already running")
        identifies = self.fake.identify_count + 1
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - kept open while the bot runs
        self._log.write(f"--- start {self.starts + 1}\n".encode())
        self._log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, *self.args, cwd=self.cwd, env=self.environment(),
            stdout=self._log, stderr=asyncio.subprocess.STDOUT, stdin=asyncio.subprocess.DEVNULL,
        )
        self.starts += 1
        if wait_ready:
            await self.wait_ready(identifies, timeout)

    async def wait_ready(self, identifies: int, timeout: float = 30.0) -> None:
        assert self.proc is not None
        ready = asyncio.ensure_future(self.fake.wait_ready(identifies=identifies,
                                                           timeout=timeout))
        died = asyncio.ensure_future(self.proc.wait())
        done, _ = await asyncio.wait({ready, died}, return_when=asyncio.FIRST_COMPLETED)
        died.cancel()
        if ready not in done:
            ready.cancel()
            raise RuntimeError(f"bot exited with {self.proc.returncode} before connecting:\n"
                               f"{self.output()[-3000:]}")
        ready.result()

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send a signal (SIGKILL by default) to the bot process."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(sig)

    async def wait(self, timeout: float = 10.0) -> int:
        """Wait for the process to exit; its return code."""
        assert self.proc is not None
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        self._close_log()
        return code

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL if it has not exited after `timeout`."""
        if self.proc is None:
            return None
        if self.running:
            self.kill(signal.SIGTERM)
            try:
                return await self.wait(timeout)
            except TimeoutError:
                self.kill(signal.SIGKILL)
        return await self.wait(timeout)

    async def restart(self, *, sig: int = signal.SIGKILL, wait_ready: bool = True,
                      timeout: float = 30.0) -> None:
        """Kill (SIGKILL by default), wait for the exit, start again."""
        if self.running:
            self.kill(sig)
            await self.wait(timeout)
        await self.start(wait_ready=wait_ready, timeout=timeout)

    def output(self) -> str:
        """Everything the process wrote so far (all starts)."""
        with contextlib.suppress(FileNotFoundError):
            return self.log_path.read_text(errors="replace")
        return ""

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
