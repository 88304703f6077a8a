"""A throwaway PostgreSQL cluster for the tests and benchmarks: ``initdb`` into a temporary
folder, ``pg_ctl start`` on a unix socket in that folder only (no TCP port), stopped and
deleted at the end. As root it runs as ``nobody`` (PostgreSQL refuses root).

:func:`find_bindir` says where PostgreSQL's programs are (None: not installed here).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

USER = "dingir"
FAST = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
"""For the tests: nothing waits for the disk (a test's database lives for seconds)."""


def find_bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (``DINGIR_TEST_PG_BINDIR`` if set, else the
    newest Debian one, else the one on ``PATH``), or None."""
    chosen = os.environ.get("DINGIR_TEST_PG_BINDIR")
    if chosen is not None:
        return Path(chosen) if (Path(chosen) / "initdb").is_file() else None
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
                        reverse=True):
        return Path(found).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


class Cluster:
    """A running throwaway cluster (see the module docstring)."""

    def __init__(self, bindir: Path, folder: Path, runner: list[str]) -> None:
        self.bindir = bindir
        self.folder = folder
        self.runner = runner
        self._names = itertools.count(1)

    @classmethod
    def start(cls, *, durable: bool = False) -> Cluster:
        """Create and start a cluster (``durable``: with PostgreSQL's default fsync and
        synchronous commit, for a benchmark). Raises RuntimeError if it cannot."""
        bindir = find_bindir()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed here (no initdb)")
        folder = Path(tempfile.mkdtemp(prefix="dingir-pg-"))
        runner: list[str] = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(folder, nobody.pw_uid, nobody.pw_gid)
            runner = ["runuser", "-u", "nobody", "--"]
        cluster = cls(bindir, folder, runner)
        try:
            cluster._run("initdb", "-D", str(folder / "data"), "-U", USER, "--auth=trust",
                         "-E", "UTF8", "--no-sync", "--no-instructions")
            options = f"-c listen_addresses='' -c unix_socket_directories={folder}"
            if not durable:
                options += " " + FAST
            cluster._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(folder / "data"),
                         "-l", str(folder / "log"), "-o", options)
        except (OSError, subprocess.CalledProcessError) as error:
            detail = getattr(error, "stderr", "") or ""
            shutil.rmtree(folder, ignore_errors=True)
            raise RuntimeError(f"PostgreSQL did not start: {error} {detail}".strip()) from error
        return cluster

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.runner, str(self.bindir / program), *args], check=True,
                       capture_output=True, text=True, cwd=self.folder, timeout=120)

    def url(self, database: str = "postgres") -> str:
        """The address of ``database`` on this cluster's socket."""
        return f"postgresql://{USER}@/{database}?host={self.folder}"

    async def create_schema(self) -> str:
        """A new empty schema in the cluster's ``postgres`` database: the address of a
        database whose tables go there (much cheaper than a new database)."""
        name = f"t{os.getpid()}_{next(self._names)}"
        await self._admin(f'CREATE SCHEMA "{name}"')
        return f"{self.url()}&search_path={name}"

    async def drop_schema(self, url: str) -> None:
        """Drop the schema of ``url`` (see :meth:`create_schema`) and all in it."""
        await self._admin(f'DROP SCHEMA IF EXISTS "{url.rsplit("=", 1)[-1]}" CASCADE')

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def create_database(self) -> str:
        """A new empty database; its address."""
        name = f"t{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, url: str) -> None:
        """Drop the database at ``url`` (its connections closed first)."""
        name = url.split("/")[-1].split("?")[0]
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    def stop(self) -> None:
        """Stop the cluster and delete its folder."""
        try:
            self._run("pg_ctl", "stop", "-m", "immediate", "-w", "-D", str(self.folder / "data"))
        except (OSError, subprocess.CalledProcessError):
            pass
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
