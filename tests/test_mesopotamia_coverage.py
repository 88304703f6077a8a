"""``data/mesopotamia/COVERAGE.md``: « Keep a table in data/mesopotamia/COVERAGE.md: every
section heading of the rulebook, the rule sentences under it, and the test that checks each. »

Every row of the base game (its section not tagged ``(expansion)``, ``(solo)`` or
``(content)``) names in its ``test`` column the pytest node ids that check it (separated by
``<br>``), or says ``no rule`` (a row that only describes the board, flavour or advice); every
node id names a test file that exists and a test function defined in it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = ROOT / "data" / "mesopotamia" / "COVERAGE.md"
NOT_BASE = ("(expansion)", "(solo)", "(content)")
NODE = re.compile(r"^(tests/[\w/]+\.py)::(\w+)(\[[^\]]*\])?$")
EMPTY = "—"


def rows() -> list[tuple[str, str, str]]:
    """Every row of the tables: (id, section, test column)."""
    out = []
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| M-"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        out.append((cells[0], cells[1], cells[-1]))
    return out


def base_rows() -> list[tuple[str, str, str]]:
    """The rows of the multiplayer base game and its game options."""
    return [r for r in rows() if not any(tag in r[1] for tag in NOT_BASE)]


def entries(column: str) -> list[str]:
    """The entries of a test column (node ids or a ``no rule`` note)."""
    return [e.strip().strip("`").strip() for e in column.split("<br>") if e.strip()]


def defined(path: Path) -> set[str]:
    """The names of the functions defined at the top of the Python file ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_the_table_has_rows_with_five_columns() -> None:
    """The table is read: one row per rule sentence, ids unique."""
    found = rows()
    assert len(found) > 400
    ids = [r[0] for r in found]
    assert len(ids) == len(set(ids))


def test_every_node_id_exists() -> None:
    """Each node id of the ``test`` column names an existing file and a test defined in it
    (``test_x[...]`` names ``test_x``); any other entry says ``no rule``."""
    names: dict[Path, set[str]] = {}
    wrong = []
    for rid, _, column in rows():
        for entry in entries(column):
            if entry == EMPTY or entry.startswith("no rule"):
                continue
            match = NODE.match(entry)
            path = ROOT / match.group(1) if match else None
            if match is None or path is None or not path.is_file():
                wrong.append(f"{rid}: {entry}")
                continue
            if path not in names:
                names[path] = defined(path)
            if match.group(2) not in names[path]:
                wrong.append(f"{rid}: {entry}")
    assert not wrong, "unknown tests:\n" + "\n".join(wrong)


def test_every_base_game_row_names_its_test() -> None:
    """Every row of the base game has a ``test`` column that is not ``—``."""
    missing = [rid for rid, _, column in base_rows() if column in ("", EMPTY)]
    assert not missing, f"{len(missing)} rows without a test: " + ", ".join(missing)
