"""The message catalogue: every user-facing string, in English and French.

Catalogues live in ``data/locales/<lang>/*.json`` (flat ``key -> template``
maps, merged per language). A template is a ``str.format`` string, or a
``{"one": ..., "other": ...}`` dict chosen by the argument ``n``.

A step's report is words in the third person, read after its player's name ("places a
token on {cell}"); said to that player, its ``<key>.you`` form is read after "You" instead
("place a token on {cell}", « placez un jeton sur {cell} »), and what followed names them
as "you" where a ``<key>.you.<field>`` form says so: see :func:`addressed`. Each game keeps
these forms in its own ``<game>_you.json``.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from bot.engine import Seat, Text, TextArg, seat_ref

LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "data" / "locales"

Template = str | dict[str, str]

_DIRECTORIES = [LOCALES_DIR]


def add_catalogues(directory: Path) -> None:
    """Read the catalogues of ``directory`` (``<lang>/*.json``) too: a game hosted from
    outside ``data/`` (a test game, one in development) brings its own words."""
    if directory not in _DIRECTORIES:
        _DIRECTORIES.append(directory)
        catalogue.cache_clear()
        _translate.cache_clear()
        _addressed.cache_clear()


@cache
def catalogue(lang: str) -> dict[str, Template]:
    """All templates of one language, merged from its JSON files."""
    merged: dict[str, Template] = {}
    for path in sorted(p for d in _DIRECTORIES for p in (d / lang).glob("*.json")):
        data: dict[str, Template] = json.loads(path.read_text(encoding="utf-8"))
        duplicated = merged.keys() & data.keys()
        if duplicated:
            raise ValueError(f"{path}: keys defined twice: {sorted(duplicated)}")
        merged.update(data)
    return merged



def _pick(template: Template, args: dict[str, Any], lang: str) -> str:
    if isinstance(template, str):
        return template
    n = args.get("n", 0)
    singular = n in (0, 1) if lang == "fr" else n == 1
    return template["one"] if singular else template["other"]


SEAT_KEY = "core.seat"
"""The key of :func:`bot.engine.seat_ref`: a seat, read as its player's name."""


YOU = ".you"
"""The suffix of a key's forms said to the player who acted (see :func:`addressed`)."""


def _arg(value: TextArg, lang: str, names: tuple[str, ...], actor: Seat | None) -> Any:
    if isinstance(value, Text):
        if actor is not None and (form := _you_form(value, actor)) is not None:
            return _addressed(value, form, lang, names, actor)
        return translate(value, lang, names)
    if isinstance(value, tuple):
        return tr(lang, "core.list_separator").join(_arg(v, lang, names, actor) for v in value)
    return value


def _render(lang: str, key: str, args: dict[str, TextArg], names: tuple[str, ...],
            actor: Seat | None = None) -> str:
    template = catalogue(lang).get(key)
    if template is None:
        template = catalogue(DEFAULT_LANGUAGE).get(key)
    if template is None:
        raise KeyError(f"missing catalogue key: {key}")
    values = {name: _arg(v, lang, names, actor) for name, v in args.items()}
    text = _pick(template, values, lang)
    if lang != "fr":
        return text.format_map(values)
    return _french_spacing(_elided(text, values).format_map(values))


ELIDED = re.compile(r"\b([dD]e|[qQ]ue|[lL][ea]) (\*\*)?\{(\w+)\}")
"""A French word that elides before a vowel ("de", "que", "le", "la"), then a field (in
bold or not)."""
VOWEL = re.compile(r"[aeiouyàâäéèêëîïôöùûüœæ]", re.IGNORECASE)
SPACED = re.compile(r" ([;:!?»])|(«) ")
NO_BREAK = "\u00a0"


def _elided(template: str, values: dict[str, Any]) -> str:
    """``template`` with "de {who}" written "d'{who}" where the value of ``who`` starts
    with a vowel (« la main d'Alice », « partie d'**Ur** »); the same for que, le, la."""
    def elide(match: re.Match[str]) -> str:
        word, bold, name = match.groups()
        value = values.get(name)
        if isinstance(value, str) and VOWEL.match(value):
            return f"{word[:-1]}'{bold or ''}{{{name}}}"
        return match.group(0)

    return ELIDED.sub(elide, template)


def _french_spacing(text: str) -> str:
    """The one spacing rule of French typography: the space before ; : ! ? and », and
    after «, is a no-break space."""
    def space(match: re.Match[str]) -> str:
        mark = match.group(1)
        return NO_BREAK + mark if mark else "«" + NO_BREAK

    return SPACED.sub(space, text)


def tr(lang: str, key: str, **args: TextArg) -> str:
    """The template ``key`` in ``lang`` (falling back to English) formatted with ``args``."""
    return _render(lang, key, args, ())


@lru_cache(maxsize=16384)
def names_seats(text: Text) -> bool:
    """True if ``text`` names a seat (:func:`bot.engine.seat_ref`), itself or in its
    arguments."""
    if text.key == SEAT_KEY:
        return True
    for _, value in text.args:
        if isinstance(value, Text) and names_seats(value):
            return True
        if isinstance(value, tuple) and any(names_seats(v) for v in value):
            return True
    return False


def translate(text: Text, lang: str, names: tuple[str, ...] = ()) -> str:
    """A :class:`Text` rendered in ``lang``; seats it names (:func:`bot.engine.seat_ref`)
    read as ``names[seat]`` ("Seat 2" without names). The same few labels come back at
    every step, so the latest ones are kept (shared by every game when the text names
    no seat)."""
    return _translate(text, lang, names if names and names_seats(text) else ())


@lru_cache(maxsize=8192)
def _translate(text: Text, lang: str, names: tuple[str, ...]) -> str:
    if text.key == SEAT_KEY:
        seat = text.kwargs.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return tr(lang, SEAT_KEY, n=(seat if isinstance(seat, int) else 0) + 1)
    return _render(lang, text.key, text.kwargs, names)


def _has_you(key: str) -> bool:
    """True if ``key`` has a second-person form (``<key>.you``)."""
    return key + YOU in catalogue(DEFAULT_LANGUAGE)


def _you_form(text: Text, actor: Seat) -> str | None:
    """The key of ``text`` said to ``actor``: ``<key>.you`` (words read after "You"), else
    its form for ``actor`` as one it names (:func:`_field_form`); None when it has neither."""
    return text.key + YOU if _has_you(text.key) else _field_form(text, actor)


def _field_form(text: Text, reader: Seat) -> str | None:
    """``<key>.you.<field>`` when ``text``'s argument ``field`` is ``reader``'s seat and the
    catalogue has that form ("you reveal…" for "{who} reveals…"), else None."""
    ref = seat_ref(reader)
    known = catalogue(DEFAULT_LANGUAGE)
    return next((f"{text.key}{YOU}.{name}" for name, value in text.args
                 if value == ref and f"{text.key}{YOU}.{name}" in known), None)


def told_to(text: Text, lang: str, names: tuple[str, ...], reader: Seat) -> str:
    """``text``, the words of someone else's step read after their name, as ``reader``
    reads them: its ``<key>.you.<field>`` form when its argument ``field`` is ``reader``
    ("declines your swap" for "declines {who}'s swap"), else as everyone reads it."""
    form = _field_form(text, reader)
    names = names if names and names_seats(text) else ()
    return translate(text, lang, names) if form is None \
        else _render(lang, form, text.kwargs, names)


def addressed(text: Text, lang: str, names: tuple[str, ...], actor: Seat) -> str | None:
    """``text``, the words of ``actor``'s step read after their name, said to them instead,
    to be read after "You" / « Vous »: its ``<key>.you`` form. Its arguments read in their
    own forms said to ``actor`` where they have one (:func:`_you_form`: the parts of the
    step, "place a token and carry out War"; what followed, "you reveal…"), as usual
    otherwise (a card, another player, a round that ends). None when ``key`` has no
    ``.you`` form."""
    if not _has_you(text.key):
        return None
    return _addressed(text, text.key + YOU, lang, names if names and names_seats(text) else (),
                      actor)


@lru_cache(maxsize=4096)
def _addressed(text: Text, form: str, lang: str, names: tuple[str, ...], actor: Seat) -> str:
    return _render(lang, form, text.kwargs, names, actor)
