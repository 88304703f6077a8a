"""What the presentation benchmarks look for in the bot's texts (``narration.py``,
``refusals.py``): speaking to "you" in public, commands, raw notation, unfilled
placeholders, words of the other language."""

from __future__ import annotations

import re

YOU = {"en": re.compile(r"\b(you|your|yours|yourself)\b", re.I),
       "fr": re.compile(r"\b(vous|votre|vos|tu|ton|ta|tes|toi)\b", re.I)}
"""Words that speak to the reader: wrong in a post everyone reads."""
OTHER_LANGUAGE = {
    "en": re.compile(r"\b(le|les|des|et|vous|votre|tour|joue|avec|une|est|sur)\b"),
    "fr": re.compile(r"\b(the|and|with|your|you|turn|plays|takes|is|are|has|of)\b"),
}
"""Common words of the other language: a text of ``lang`` holding one is untranslated (not
"places": French too, « dans l'ordre des places »)."""
COMMAND = re.compile(r"(?<![\w/<:])/[a-zé]+(?: [a-zé]+)?")
"""A slash command named in a text (``/play``, ``/game board``)."""
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
"""A catalogue placeholder left unfilled."""
NOTATION = re.compile(
    r"\d+\s*→\s*\d+"                      # counts moved: "A2 0→2"
    r"|\b[A-F][1-6]\s*>\s*[A-F][1-6]\b"    # Ur's war and politics notation: "B3>C3"
    r"|\b[a-z]+(?:_[a-z]+)*[-_]\d{2}\b"    # card ids: "greeks-03", "sumerians_01"
    r"|\b[a-z]+_[a-z_]+\b"                 # snake_case ids
    r"|\b[a-z]+\.[a-z_]+\.[a-z_.]+\b"      # catalogue keys
    r"|\{[a-z_]+\}"                        # unfilled placeholders
    r"|#v\d+")                             # /play's version mark
"""Raw notation, ids and keys that a reader should never see."""


def flags(text: str, lang: str) -> set[str]:
    """What is wrong with ``text`` posted publicly in ``lang``: ``you``, ``command``,
    ``notation``, ``untranslated``."""
    found = set()
    if YOU[lang].search(text):
        found.add("you")
    if COMMAND.search(text):
        found.add("command")
    if NOTATION.search(text):
        found.add("notation")
    if OTHER_LANGUAGE[lang].search(text):
        found.add("untranslated")
    return found
