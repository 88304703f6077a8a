"""The options of a turn panel: grouped by their choices, as buttons or a paged menu.

A step may name the choices that lead to it (:attr:`bot.engine.Action.path`: the tile,
then the face to show). The panel then offers the first choices; pressing one shows the
steps behind it (and a **Back** button). A choice with a single step behind it is that
step. A level with more entries than buttons fit is a select menu, a page at a time.

Components carry where the panel stands: ``grp<k>:<k>...`` opens a choice (the indices
of the choices taken, in order), ``pg<page>[:<k>...]`` turns a page of a choice's menu,
and a select value is a step's index (``7``) or a choice's (``g3``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord

from bot.engine import Action, Text
from bot.i18n import tr
from bot.notation import whole_number
from bot.records import GameRecord
from cogs import buttons
from cogs.common import fit, label, text_of

MAX_BUTTONS = 20
"""Options shown as buttons (4 rows of 5); beyond, a select menu."""
PAGE_SIZE = 25
"""Options per page of the select menu (Discord's limit)."""
LABEL_LIMIT = 80
"""Characters of an option's label (a button's, Discord's limit)."""


@dataclass(frozen=True)
class Entry:
    """One option of a panel's level: a step (``index`` into the legal steps) or a choice
    that leads to several (``choice``: its position among this level's choices)."""

    text: str
    index: int | None = None
    choice: int | None = None
    closes_turn: bool = False
    notation: str = ""


def parse_where(arg: str) -> tuple[int, tuple[int, ...]]:
    """``<page>[:<k>...]`` as (page, choices taken); junk reads as the first page."""
    parts = [whole_number(p) for p in arg.split(":")] if arg else []
    numbers = [p for p in parts if p is not None]
    if len(numbers) != len(parts) or not numbers:
        return 0, ()
    return numbers[0], tuple(numbers[1:])


def parse_group(arg: str) -> tuple[int, ...]:
    """``<k>:<k>...`` as the choices taken (empty: the top level)."""
    parts = [whole_number(p) for p in arg.split(":")] if arg else []
    return tuple(p for p in parts if p is not None) if None not in parts else ()


def level_entries(record: GameRecord, options: Sequence[tuple[int, Action]],
                  group: tuple[int, ...], lang: str) -> tuple[tuple[int, ...], list[Entry]]:
    """The entries of the level reached by taking the choices ``group`` (those still
    offered: a stale choice returns to the level above) and the choices actually taken."""
    inside = list(options)
    taken: tuple[int, ...] = ()
    for k in group:
        keys = _keys(inside, len(taken))
        if not 0 <= k < len(keys):
            break
        inside = [(i, a) for i, a in inside if _choice(a, len(taken)) == keys[k]]
        taken += (k,)
    depth = len(taken)
    keys = _keys(inside, depth)
    entries: list[Entry] = []
    seen: set[Text] = set()
    for i, action in inside:
        key = _choice(action, depth)
        if key is None:
            entries.append(Entry(label(action, record, lang, LABEL_LIMIT), index=i,
                                 closes_turn=action.closes_turn, notation=action.notation))
            continue
        if key in seen:
            continue
        seen.add(key)
        behind = [(j, a) for j, a in inside if _choice(a, depth) == key]
        if len(behind) == 1:
            j, only = behind[0]
            text = text_of(key, record, lang) if depth else \
                label(only, record, lang, LABEL_LIMIT)
            entries.append(Entry(fit(text, LABEL_LIMIT), index=j, closes_turn=only.closes_turn,
                                 notation=only.notation))
        else:
            entries.append(Entry(fit(text_of(key, record, lang), LABEL_LIMIT),
                                 choice=keys.index(key)))
    return taken, entries


def _choice(action: Action, depth: int) -> Text | None:
    """The choice ``action`` is behind at ``depth`` (None: offered as a step there)."""
    return action.path[depth] if len(action.path) > depth else None


def _keys(inside: Sequence[tuple[int, Action]], depth: int) -> list[Text]:
    keys: list[Text] = []
    for _, action in inside:
        key = _choice(action, depth)
        if key is not None and key not in keys:
            keys.append(key)
    return keys


def interleaved(actions: Iterable[Action]) -> list[Action]:
    """``actions`` with the steps behind one first choice taken in turn with the others
    (round after round), so that a short list (``/play``'s suggestions) shows every kind
    of step: one challenge, one swap, one purchase... before the second of each."""
    groups: dict[Text | int, list[Action]] = {}
    for k, action in enumerate(actions):
        groups.setdefault(action.path[0] if action.path else k, []).append(action)
    rounds = max((len(g) for g in groups.values()), default=0)
    return [g[r] for r in range(rounds) for g in groups.values() if r < len(g)]


def _entry_text(entry: Entry, lang: str) -> str:
    if entry.closes_turn:
        return framed(lang, "discord.and_end", "step", entry.text)
    if entry.choice is not None:
        return framed(lang, "discord.choice_more", "choice", entry.text)
    return entry.text


def framed(lang: str, key: str, name: str, text: str) -> str:
    """The catalogue's ``key`` around ``text`` (its argument ``name``) within
    :data:`LABEL_LIMIT` characters: ``text`` shortened with "…" when the whole is too long, so
    that the frame ("... and end the turn") is never cut."""
    whole = tr(lang, key, **{name: text})
    over = len(whole) - LABEL_LIMIT
    if over <= 0:
        return whole
    return tr(lang, key, **{name: fit(text, max(1, len(text) - over))})


def option_items(record: GameRecord, version: int, options: Sequence[tuple[int, Action]],
                 page: int, group: tuple[int, ...], lang: str
                 ) -> tuple[list[buttons.GameComponent], int, str]:
    """The components of the level ``group`` (made at the seat's decision ``version``),
    the row left for the panel's controls, and a hint (the page, the choice taken)."""
    taken, entries = level_entries(record, options, group, lang)
    where = ":".join(str(k) for k in taken)
    items: list[buttons.GameComponent] = []
    if len(entries) <= MAX_BUTTONS:
        for k, entry in enumerate(entries):
            if entry.index is not None:
                items.append(buttons.button(record.id, version, "a", entry.index, row=k // 5,
                                            label=_entry_text(entry, lang)))
            else:
                path = f"{where}:{entry.choice}" if where else str(entry.choice)
                items.append(buttons.button(record.id, version, "grp", path, row=k // 5,
                                            label=_entry_text(entry, lang)))
        control_row, hint = 4, ""
    else:
        pages = (len(entries) + PAGE_SIZE - 1) // PAGE_SIZE
        page = max(0, min(page, pages - 1))
        chunk = entries[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
        choices = [discord.SelectOption(
            label=_entry_text(e, lang)[:100], description=e.notation[:100] or None,
            value=str(e.index) if e.index is not None else f"g{e.choice}") for e in chunk]
        items.append(buttons.select(record.id, version, "sel", choices, row=0, arg=where,
                                    placeholder=tr(lang, "discord.panel_select")))
        suffix = f":{where}" if where else ""
        if page > 0:
            items.append(buttons.button(record.id, version, "pg", f"{page - 1}{suffix}",
                                        row=1, label=tr(lang, "discord.page_prev")))
        if page < pages - 1:
            items.append(buttons.button(record.id, version, "pg", f"{page + 1}{suffix}",
                                        row=1, label=tr(lang, "discord.page_next")))
        control_row = 2 if taken else 1
        hint = tr(lang, "discord.panel_pages", page=page + 1, pages=pages)
    if taken:
        up = ":".join(str(k) for k in taken[:-1])
        items.append(buttons.button(record.id, version, "grp", up, row=control_row,
                                    label=tr(lang, "discord.choice_back")))
    return items, control_row, hint
