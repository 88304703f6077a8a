"""The database backends the store's contract tests run on.

A test that takes the ``database`` fixture (directly or through another fixture) runs
once on SQLite and once on PostgreSQL, unless marked ``sqlite_only``. PostgreSQL is a
throwaway cluster started once for the session (:mod:`tests.pgcluster`), a new schema
per test; where PostgreSQL is not installed, those tests say so and skip.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.pgcluster import Cluster

BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        sqlite_only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if sqlite_only else BACKENDS,
                             indirect=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster for the whole run (skips the test where there is none)."""
    try:
        cluster = Cluster.start()
    except RuntimeError as error:
        pytest.skip(f"{error}: the PostgreSQL tests skip (apt-get install postgresql)")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The store's backend of this run of the test: "sqlite" or "postgresql"."""
    return str(request.param)


@pytest.fixture
def database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Where a new store goes: a SQLite file's path, or the address of a new PostgreSQL
    schema (dropped afterwards)."""
    if backend == "sqlite":
        yield str(tmp_path / "dingir.sqlite3")
        return
    yield request.getfixturevalue("pg_database")


@pytest.fixture
async def pg_database(pg_cluster: Cluster) -> AsyncIterator[str]:
    """The address of a new PostgreSQL schema (dropped afterwards)."""
    url = await pg_cluster.create_schema()
    try:
        yield url
    finally:
        await pg_cluster.drop_schema(url)
