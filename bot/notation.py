"""Steps typed in the player's language.

A game may list in its catalogue the words of its notation as a player of each language
types them: ``<game>.word.<canonical word>`` (``ur.word.place`` is ``placer`` in French).
A typed step is read word by word back to the canonical notation (``placer C3`` ->
``place C3``) before the engine parses it; words that are not listed (squares, numbers,
canonical words) are kept as they are, so the canonical notation is always accepted.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from bot.engine import Action, BadNotation, Game, GameError, Seat, State, Text
from bot.i18n import catalogue

MAX_NUMBER = 2**63 - 1
"""The largest whole number typed or pressed input may carry (SQLite's largest integer)."""
_DIGITS = re.compile(r"[0-9]{1,19}")


def whole_number(text: str, maximum: int = MAX_NUMBER) -> int | None:
    """The number ``text`` writes with the digits 0-9 (``12``), if it is at most ``maximum``;
    None for anything else: a sign, a space, a number too large, digits of other scripts
    (``٣``), or characters that ``str.isdigit`` takes for digits but ``int`` cannot read
    (``²``)."""
    if not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= maximum else None


def _folded(word: str) -> str:
    """``word`` in lower case without accents (``Échanger`` -> ``echanger``)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def _words(game: str, lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """(typed word -> canonical word, canonical word -> word of ``lang``) for ``game``."""
    prefix = f"{game}.word."
    to_canonical: dict[str, str] = {}
    to_local: dict[str, str] = {}
    for key, word in catalogue(lang).items():
        if key.startswith(prefix) and isinstance(word, str):
            to_canonical[_folded(word)] = key[len(prefix):]
            to_local[key[len(prefix):]] = word
    return to_canonical, to_local


def canonical(game: str, text: str, lang: str) -> str:
    """``text`` typed in ``lang`` in the canonical notation of ``game``."""
    to_canonical = _words(game, lang)[0]
    return " ".join(to_canonical.get(_folded(word), word) for word in text.split())


def localized(game: str, notation: str, lang: str) -> str:
    """A canonical ``notation`` as a player of ``lang`` would type it."""
    to_local = _words(game, lang)[1]
    return " ".join(to_local.get(word, word) for word in notation.split())


def parse_typed(engine: Game, state: State, seat: Seat, text: str, lang: str | None) -> Action:
    """The step ``text`` typed by a player of ``lang``: the canonical notation, or the
    same words in their language; a refusal speaks of what they typed."""
    try:
        return engine.parse(state, seat, text)
    except BadNotation:
        translated = canonical(engine.meta.id, text, lang) if lang else text
        if translated == text:
            raise
    try:
        return engine.parse(state, seat, translated)
    except GameError as error:          # quote the words they typed, not the canonical ones
        error.reason = Text(error.reason.key, tuple(
            (name, text.strip() if value == translated.strip() else value)
            for name, value in error.reason.args))
        raise
