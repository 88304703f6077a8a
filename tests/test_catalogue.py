"""The message catalogue is complete: every key in both languages, every key used in code defined.

Keys used in code are found by scanning the sources for literal keys passed to
``tr(lang, "...")``, ``Text.of("...")``, the service's ``fail("...")`` and the
cogs' ``loc("...")``; keys built at run time (``f"discord.status.{status}"``)
are checked family by family below.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import get_args

import pytest

from bot.i18n import LANGUAGES, LOCALES_DIR, catalogue
from bot.records import GameStatus, TimeoutPolicy

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    p for folder in ("bot", "cogs", "dingir", "host", "render", "web")
    for p in (ROOT / folder).rglob("*.py")
)
KEY = r"""["']([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["']"""
PATTERNS = (
    re.compile(rf"\btr\(\s*[\w.]+\s*,\s*{KEY}"),
    re.compile(rf"\bText\.of\(\s*{KEY}"),
    re.compile(rf"\bfail\(\s*{KEY}"),
    re.compile(rf"\bloc\(\s*{KEY}"),
)
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def keys_in_code() -> dict[str, str]:
    """Every literal catalogue key in the sources, with where it was first seen."""
    found: dict[str, str] = {}
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        for pattern in PATTERNS:
            for match in pattern.finditer(source):
                line = source.count("\n", 0, match.start()) + 1
                found.setdefault(match.group(1), f"{path.relative_to(ROOT)}:{line}")
    return found


def fields(template: str | dict[str, str]) -> set[str]:
    """The ``{name}`` fields of a template (both plural forms)."""
    texts = template.values() if isinstance(template, dict) else [template]
    return {f for t in texts for _, f, _, _ in string.Formatter().parse(t) if f}


def test_the_scan_finds_keys() -> None:
    used = keys_in_code()
    assert "discord.moved_on" in used
    assert "discord.cmd.play.name" in used


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_used_in_code_exists(lang: str) -> None:
    known = catalogue(lang)
    missing = {k: where for k, where in keys_in_code().items() if k not in known}
    assert not missing, f"keys missing in {lang}: {missing}"


def test_both_languages_have_the_same_keys_per_file() -> None:
    for path in sorted((LOCALES_DIR / "en").glob("*.json")):
        other = LOCALES_DIR / "fr" / path.name
        assert other.exists(), f"{other} is missing"
        en = json.loads(path.read_text(encoding="utf-8"))
        fr = json.loads(other.read_text(encoding="utf-8"))
        assert sorted(en.keys() - fr.keys()) == [], f"missing in fr/{path.name}"
        assert sorted(fr.keys() - en.keys()) == [], f"missing in en/{path.name}"
    assert {p.name for p in (LOCALES_DIR / "fr").glob("*.json")} == {
        p.name for p in (LOCALES_DIR / "en").glob("*.json")
    }


def test_translations_use_the_same_fields() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    different = {k: (fields(en[k]), fields(fr[k])) for k in en.keys() & fr.keys()
                 if fields(en[k]) != fields(fr[k])}
    assert not different


def test_plural_templates_have_both_forms() -> None:
    for lang in LANGUAGES:
        for key, template in catalogue(lang).items():
            if isinstance(template, dict):
                assert set(template) == {"one", "other"}, f"{lang} {key}"


def test_run_time_key_families_exist() -> None:
    for lang in LANGUAGES:
        known = catalogue(lang)
        for status in get_args(GameStatus):
            assert f"discord.status.{status}" in known
        for policy in get_args(TimeoutPolicy):
            assert f"discord.policy.{policy}" in known
            assert f"service.timeout_{policy}" in known


def test_command_strings_are_valid_for_discord() -> None:
    for lang in LANGUAGES:
        for key, value in catalogue(lang).items():
            if not key.startswith("discord.cmd."):
                continue
            assert isinstance(value, str)
            if key.endswith(".name"):
                assert COMMAND_NAME.match(value) and value == value.lower(), f"{lang} {key}"
            else:
                assert 1 <= len(value) <= 100, f"{lang} {key} is {len(value)} characters"


def test_command_names_are_unique() -> None:
    for lang in LANGUAGES:
        names = [v for k, v in catalogue(lang).items()
                 if k.startswith("discord.cmd.") and k.count(".") == 3 and k.endswith(".name")]
        assert len(names) == len(set(names)), f"{lang}: {sorted(names)}"
