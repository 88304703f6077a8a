"""The HTML of a game's web page, from texts already worked out (all of them public).

The page is whole without its script: the latest board, whose turn, the scores, the
log and the result are in the HTML. ``page.js`` adds the slider and the buttons that
step through the boards, and follows the game (it polls ``data.json``). Nothing is
loaded from anywhere but the bot's own address.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import tr

BOLD = re.compile(r"\*\*(.+?)\*\*")
CODE = re.compile(r"`([^`]+)`")
ESCAPED = re.compile(r"\\([^A-Za-z0-9\s])")
KEPT = re.compile("\x00(\\d+)\x00")


def inline(text: str) -> str:
    """A line of the bot's Discord texts as HTML: escaped, ``**bold**`` and ``code``
    kept, the backslashes that protect Discord markdown in names dropped (the characters
    they protect stay as they are)."""
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        kept.append(match.group(1))
        return f"\x00{len(kept) - 1}\x00"

    out = html.escape(ESCAPED.sub(keep, text), quote=False)
    out = BOLD.sub(r"<strong>\1</strong>", out)
    out = CODE.sub(r"<code>\1</code>", out)
    return KEPT.sub(lambda m: html.escape(kept[int(m.group(1))]), out)


def lines_html(text: str) -> str:
    """Several lines of Discord text as HTML paragraphs."""
    return "".join(f"<p>{inline(line)}</p>" for line in text.split("\n") if line)


@dataclass(frozen=True)
class Frame:
    """A board the page can show: after ``played`` steps, its caption and its address."""

    played: int
    label: str
    src: str


@dataclass(frozen=True)
class TurnLog:
    """The narration of one turn (HTML lines) and the frame it leads to."""

    turn: int
    lines: str
    frame: int


@dataclass(frozen=True)
class Parts:
    """The moving parts of a page (replaced in place by ``page.js`` when the game moves)."""

    version: int
    ended: bool
    heading: str
    now: str
    scores: str
    log: str
    result: str
    frames: tuple[Frame, ...]

    def data(self) -> dict[str, object]:
        """The JSON the page reads."""
        return {"version": self.version, "ended": self.ended,
                "frames": [{"played": f.played, "label": f.label, "src": f.src}
                           for f in self.frames],
                "html": {"heading": self.heading, "now": self.now, "scores": self.scores,
                         "log": self.log, "result": self.result}}


def scores_html(lang: str, rows: Sequence[tuple[str, str]]) -> str:
    """A table of (name, score) rows, or nothing."""
    if not rows:
        return ""
    body = "".join(f"<tr><th scope=\"row\">{html.escape(name)}</th><td>{inline(score)}</td></tr>"
                   for name, score in rows)
    return f"<h2>{html.escape(tr(lang, 'web.scores'))}</h2><table>{body}</table>"


def log_html(lang: str, turns: Sequence[TurnLog]) -> str:
    """The log, one section per turn (``data-frame``: the board it leads to)."""
    if not turns:
        return f"<p>{html.escape(tr(lang, 'web.log_empty'))}</p>"
    return "".join(
        f"<section class=\"turn\" data-frame=\"{t.frame}\">"
        f"<h3>{html.escape(tr(lang, 'web.turn_header', turn=t.turn + 1))}</h3>{t.lines}</section>"
        for t in turns)


def document(lang: str, title: str, parts: Parts, assets: str, replay: str | None) -> str:
    """The whole page; ``assets`` is the query string of the script and style addresses
    (their version), ``replay`` the address of the replay animation (a finished game)."""
    esc = html.escape
    latest = parts.frames[-1]
    alt = tr(lang, "web.board_alt", game=title, frame=latest.label)
    buttons = "".join(
        f"<button type=\"button\" data-step=\"{step}\">{esc(tr(lang, key))}</button>"
        for step, key in (("first", "web.first"), ("prev", "web.previous"),
                          ("play", "web.play"), ("next", "web.next"), ("last", "web.last")))
    replay_html = "" if replay is None else (
        f"<section id=\"replay\"><h2>{esc(tr(lang, 'web.replay'))}</h2>"
        f"<img src=\"{esc(replay)}\" alt=\"{esc(tr(lang, 'web.replay_alt'))}\" "
        f"loading=\"lazy\"></section>")
    data = json.dumps(parts.data(), ensure_ascii=False).replace("<", "\\u003c")
    words = json.dumps({"play": tr(lang, "web.play"), "pause": tr(lang, "web.pause"),
                        "alt": tr(lang, "web.board_alt", game=title, frame="{frame}")},
                       ensure_ascii=False).replace("<", "\\u003c")
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{esc(tr(lang, 'web.page_title', game=title))}</title>
<link rel="stylesheet" href="../../static/page.css?{assets}">
<script src="../../static/page.js?{assets}" defer></script>
</head>
<body>
<header><h1 id="heading">{parts.heading}</h1><p id="now">{parts.now}</p></header>
<main>
<section id="boardbox">
<figure>
<img id="board" src="{esc(latest.src)}" alt="{esc(alt)}">
<figcaption id="caption">{esc(latest.label)}</figcaption>
</figure>
<div id="controls" hidden>
<input id="slider" type="range" min="0" max="{len(parts.frames) - 1}"
 value="{len(parts.frames) - 1}" aria-label="{esc(tr(lang, 'web.slider'))}">
<div class="buttons">{buttons}</div>
</div>
</section>
<aside>
<section id="result">{parts.result}</section>
<section id="scores">{parts.scores}</section>
<section id="logbox"><h2>{esc(tr(lang, 'web.log'))}</h2><div id="log">{parts.log}</div></section>
{replay_html}
</aside>
</main>
<footer><p>{esc(tr(lang, 'web.follows'))} {esc(tr(lang, 'web.footer'))}</p></footer>
<script type="application/json" id="data">{data}</script>
<script type="application/json" id="words">{words}</script>
</body>
</html>
"""


def message(lang: str, text: str, assets: str) -> str:
    """A page that only says ``text`` (no game at this address)."""
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dingir</title>
<link rel="stylesheet" href="../../static/page.css?{assets}">
</head>
<body><main class="message"><p>{html.escape(text)}</p></main></body>
</html>
"""
