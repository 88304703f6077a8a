"""The texts of ``/game``: lobby announcements, seat lists and the status of a game."""

from __future__ import annotations

from bot import registry
from bot.i18n import tr, translate
from bot.records import GameRecord
from cogs import posting
from cogs.common import mention, seat_name


def seats_text(record: GameRecord, lang: str) -> str:
    """The seats in order, numbered."""
    return ", ".join(
        f"{i + 1}. {seat_name(record, s.seat, lang)}" for i, s in enumerate(record.seats)
    )


def lobby_text(record: GameRecord, lang: str) -> str:
    """The lobby announcement: game, players so far, how to join and start."""
    meta = registry.get(record.game).engine.meta
    return tr(
        lang, "discord.lobby", creator=f"<@{record.creator_id}>",
        game=translate(meta.name, lang), min=meta.min_players, max=meta.max_players,
        seats=seats_text(record, lang), n=len(record.seats),
    )


def status_text(record: GameRecord, lang: str,
                health: tuple[int, int] | None = None) -> str:
    """Whose turn and since when, scores so far, seats and settings (and, for an admin,
    the ``health`` of the worker processes: up, replaced)."""
    lines = [tr(lang, "discord.status_title", game=posting.game_title(record, lang),
                status=tr(lang, f"discord.status.{record.status}"), turn=record.turn + 1)]
    view = registry.get(record.game).engine.view(record.state, None) if record.state else {}
    scores = view.get("scores")
    for info in record.seats:
        points = scores[info.seat] if isinstance(scores, list) else None
        key = "discord.status_seat" if points is None else "discord.status_seat_score"
        lines.append(tr(lang, key, place=info.seat + 1, n=points or 0,
                        name=seat_name(record, info.seat, lang)))
    if record.status == "running":
        for seat in record.active:
            lines.append(tr(lang, "discord.status_now", mention=mention(record, seat, lang),
                            since=f"<t:{int(record.seat_since(seat))}:R>"))
    s = record.settings
    limit = (tr(lang, "discord.hours", n=s.turn_limit_hours) if s.turn_limit_hours
             else tr(lang, "discord.no_limit"))
    lines.append(tr(lang, "discord.status_settings",
                    reminder=tr(lang, "discord.hours", n=s.reminder_hours), limit=limit,
                    policy=tr(lang, f"discord.policy.{s.timeout_policy}")))
    if health is not None:
        lines.append(tr(lang, "discord.status_workers", up=health[0], n=health[1]))
    return "\n".join(lines)
