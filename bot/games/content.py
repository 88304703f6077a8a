"""The designed content of the games: the JSON files of ``data/<game>/``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data"
"""The folder of every game's content files."""


def load(game: str, name: str) -> dict[str, Any]:
    """The JSON file ``data/<game>/<name>.json``, read once at import time by each game."""
    found: dict[str, Any] = json.loads((DATA / game / f"{name}.json").read_text(encoding="utf-8"))
    return found
