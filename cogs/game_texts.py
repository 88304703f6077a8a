"""The texts of ``/game``: lobby announcements, seat lists and the status of a game."""

from __future__ import annotations

from bot.catalogue import player_count
from bot.engine import Seat
from bot.i18n import tr, translate
from bot.ratings import Rating
from bot.records import GameRecord
from cogs.common import game_title, mention, safe, seat_name
from host.registry import CATALOGUE


def seats_text(record: GameRecord, lang: str) -> str:
    """The seats in order, numbered."""
    return ", ".join(
        f"{i + 1}. {seat_name(record, s.seat, lang)}" for i, s in enumerate(record.seats)
    )


def lobby_text(record: GameRecord, lang: str) -> str:
    """The lobby announcement: game, players so far, how to join and start."""
    meta = CATALOGUE.meta(record.game)
    text = tr(
        lang, "discord.lobby", creator=f"<@{record.creator_id}>",
        game=translate(meta.name, lang), players=player_count(meta),
        seats=seats_text(record, lang), n=len(record.seats),
    )
    opponent = CATALOGUE.opponent(record)
    if opponent is not None:
        name, level = opponent
        text += "\n" + tr(lang, "discord.lobby_opponent", name=translate(name, lang),
                          level=translate(level, lang))
    return text


def status_text(record: GameRecord, lang: str, health: tuple[int, int] | None = None,
                away: dict[int, float] | None = None,
                banks: dict[Seat, float] | None = None) -> str:
    """Whose turn and since when, scores so far, seats (the time left in their ``banks``,
    until when those ``away`` are away) and settings (and, for an admin, the ``health``
    of the worker processes: up, replaced)."""
    lines = [tr(lang, "discord.status_title", game=game_title(record, lang),
                status=tr(lang, f"discord.status.{record.status}"), turn=record.turn + 1)]
    standing = CATALOGUE.standing(record)
    for info in record.seats:
        until = (away or {}).get(info.user_id or 0)
        left = (banks or {}).get(info.seat)
        line = tr(lang, "discord.status_seat", place=info.seat + 1,
                  name=seat_name(record, info.seat, lang))
        if info.seat < len(standing):
            line += tr(lang, "discord.status_standing",
                       standing=translate(standing[info.seat], lang))
        lines.append(line + (
            tr(lang, "discord.status_bank", hours=f"{left / 3600:.1f}")
            if left is not None else "") + (
            tr(lang, "discord.status_away", until=f"<t:{int(until)}:R>") if until else ""))
    if record.status == "running":
        for seat in record.active:
            lines.append(tr(lang, "discord.status_now", mention=mention(record, seat, lang),
                            since=f"<t:{int(record.seat_since(seat))}:R>"))
    s = record.settings
    limit = (tr(lang, "discord.hours", n=s.turn_limit_hours) if s.turn_limit_hours
             else tr(lang, "discord.no_limit"))
    if s.time_bank_hours:
        limit = tr(lang, "discord.bank_limit", bank=tr(lang, "discord.hours",
                                                      n=s.time_bank_hours),
                   bonus=tr(lang, "discord.hours", n=s.bank_bonus_hours))
    lines.append(tr(lang, "discord.status_settings",
                    reminder=tr(lang, "discord.hours", n=s.reminder_hours), limit=limit,
                    policy=tr(lang, f"discord.policy.{s.timeout_policy}")))
    if health is not None:
        lines.append(tr(lang, "discord.status_workers", up=health[0], n=health[1]))
    return "\n".join(lines)


def message_link(record: GameRecord) -> str | None:
    """The address of the game's current turn (or lobby) message, if it has one."""
    if record.last_message_id is None or record.guild_id is None:
        return None
    return (f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/"
            f"{record.last_message_id}")


def my_games_text(records: list[GameRecord], user_id: int, lang: str) -> str:
    """``/mygames``: the games where it is ``user_id``'s turn (longest waiting first, each
    with a link to its turn message), then the other games they sit in."""
    mine: list[tuple[float, str]] = []
    others: list[str] = []
    for record in records:
        seat = next(s.seat for s in record.seats if s.user_id == user_id)
        where = dict(game=game_title(record, lang), channel=f"<#{record.channel_id}>")
        if record.status == "running" and seat in record.active:
            since = record.seat_since(seat)
            link = message_link(record)
            mine.append((since, tr(lang, "discord.mine_turn_line", **where,
                                   since=f"<t:{int(since)}:R>",
                                   link=f" · {link}" if link else "")))
        else:
            waiting = ", ".join(seat_name(record, s, lang) for s in record.active)
            others.append(tr(lang, "discord.mine_other_line", **where,
                             status=tr(lang, f"discord.status.{record.status}"),
                             who=tr(lang, "discord.mine_waiting_for", names=waiting)
                             if record.status == "running" and waiting else ""))
    if not mine and not others:
        return tr(lang, "discord.mine_none")
    lines = [tr(lang, "discord.mine_turn_title", n=len(mine))]
    lines += [line for _, line in sorted(mine)]
    if others:
        lines += [tr(lang, "discord.mine_other_title", n=len(others)), *others]
    return "\n".join(lines)


def stats_text(name: str, ratings: dict[str, Rating],
               recent: list[tuple[int, str, int, int, float | None]], lang: str) -> str:
    """``/stats``: a member's rating and record at each game, and their last results."""
    if not ratings:
        return tr(lang, "discord.stats_none", name=name)
    lines = [tr(lang, "discord.stats_title", name=name)]
    lines += [tr(lang, "discord.stats_line", game=_game_name(game, lang),
                 rating=f"{r.shown:.1f}", n=r.games, wins=r.wins)
              for game, r in ratings.items()]
    if recent:
        lines.append(tr(lang, "discord.stats_recent"))
        lines += [tr(lang, "discord.stats_result", game=_game_name(game, lang), place=place,
                     n=players, when=f"<t:{int(ended)}:R>" if ended else "-")
                  for _, game, place, players, ended in recent]
    return "\n".join(lines)


def leaderboard_text(game: str, board: list[tuple[int, str, Rating]], lang: str) -> str:
    """``/leaderboard``: the best rated members at ``game`` on this server."""
    if not board:
        return tr(lang, "discord.leaderboard_none", game=_game_name(game, lang))
    lines = [tr(lang, "discord.leaderboard_title", game=_game_name(game, lang))]
    lines += [tr(lang, "discord.leaderboard_line", place=i, name=safe(name),
                 rating=f"{r.shown:.1f}", n=r.games, wins=r.wins)
              for i, (_, name, r) in enumerate(board, 1)]
    return "\n".join(lines)


def _game_name(ranking: str, lang: str) -> str:
    return translate(CATALOGUE.ranking_name(ranking), lang)
