"""Tests of the Discord stand-in itself, driven by a minimal real discord.py bot."""

from __future__ import annotations

import asyncio
import io
import signal
import textwrap
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    FAKE_TOKEN,
    BotProcess,
    Channel,
    FakeDiscord,
    FakeUser,
    Guild,
    InteractionFailed,
    Upload,
    ValidationError,
    point_discordpy_at,
)

ACTIONS = ["war B3>C3 move 2", "war B3>D3 move 1", "politics done", "end"]


def png_bytes(colour: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, "PNG")
    return out.getvalue()


class TurnView(discord.ui.View):
    def __init__(self, presses: list[str]) -> None:
        super().__init__(timeout=None)
        self.presses = presses

    @discord.ui.button(label="End turn", custom_id="end-turn", style=discord.ButtonStyle.primary)
    async def end_turn(self, interaction: discord.Interaction, button: discord.ui.Button[TurnView]
                       ) -> None:
        self.presses.append(interaction.user.name)
        await interaction.response.edit_message(content=f"turn ended by {interaction.user.name}")

    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label=a, value=a)
                                                  for a in ("one", "two", "three")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[TurnView]
                   ) -> None:
        await interaction.response.send_message(f"picked {select.values}", ephemeral=True)


class SettingsModal(discord.ui.Modal, title="Settings"):
    interval: discord.ui.TextInput[SettingsModal] = discord.ui.TextInput(
        label="Reminder interval (hours)", custom_id="interval", default="24")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"interval {self.interval.value} h",
                                                ephemeral=True)


@dataclass
class Seen:
    presses: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def make_bot(seen: Seen) -> commands.Bot:
    """A tiny bot: /game new|board|dm|thread|import, /play (autocomplete), /abort, a view."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(),
                       guild_ready_timeout=0.1, help_command=None)
    game = app_commands.Group(name="game", description="Play board games")

    @game.command(name="new", description="Open a game here")
    @app_commands.choices(game=[app_commands.Choice(name="Ur", value="ur"),
                                app_commands.Choice(name="Race", value="race")])
    async def new(interaction: discord.Interaction, game: str,
                  players: app_commands.Range[int, 2, 4] = 3) -> None:
        assert interaction.channel is not None and interaction.guild is not None
        where = getattr(interaction.channel, "name", "?")
        await interaction.response.send_message(
            f"new {game} for {players} in {where} of {interaction.guild.name}",
            file=discord.File(io.BytesIO(png_bytes()), "board.png"), view=TurnView(seen.presses))

    @game.command(name="board", description="Post the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        await interaction.channel.send("board", file=discord.File(io.BytesIO(png_bytes("blue")),
                                                                  "board.png"))
        await interaction.followup.send("posted")

    @game.command(name="dm", description="DM me")
    async def dm(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("hello in private")
            text = "sent"
        except discord.Forbidden as exc:
            text = f"dm failed {exc.code}"
        await interaction.response.send_message(text, ephemeral=True)

    @game.command(name="thread", description="Open a thread")
    async def thread(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        created = await interaction.channel.create_thread(
            name="ur game", type=discord.ChannelType.public_thread)
        await created.send("welcome")
        await interaction.response.send_message(f"thread {created.id}")

    @app_commands.command(name="abort", description="Abort the game")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def abort(interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        await interaction.response.send_message(f"aborted, manage_guild={perms.manage_guild}")

    @game.command(name="import", description="Import a game")
    async def import_(interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        await interaction.response.send_message(f"imported {file.filename} {len(data)} bytes")

    @game.command(name="settings", description="Change the settings")
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(SettingsModal())

    config = app_commands.Group(name="config", description="Configure", parent=game)

    @config.command(name="reminders", description="Reminder interval")
    async def reminders(interaction: discord.Interaction,
                        hours: app_commands.Range[int, 1, 168]) -> None:
        await interaction.response.send_message(f"every {hours} h", ephemeral=True)

    @app_commands.command(name="play", description="Play one step")
    async def play(interaction: discord.Interaction, action: str) -> None:
        await interaction.response.send_message(f"played {action}", ephemeral=True)

    @play.autocomplete("action")
    async def play_choices(interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=a, value=a) for a in ACTIONS if current in a]

    bot.tree.add_command(game)
    bot.tree.add_command(play)
    bot.tree.add_command(abort)

    async def setup_hook() -> None:
        bot.add_view(TurnView(seen.presses))
        await bot.tree.sync()

    async def on_error(interaction: discord.Interaction, error: Exception) -> None:
        seen.errors.append(repr(error))

    async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause before re-identifying (discord.py's default)."""

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
    bot.tree.on_error = on_error  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    fake: FakeDiscord
    bot: commands.Bot
    seen: Seen
    guild: Guild
    channel: Channel
    alice: FakeUser
    bob: FakeUser


@pytest.fixture
async def world() -> AsyncIterator[World]:
    fake = FakeDiscord()
    await fake.start()
    restore = point_discordpy_at(fake)
    guild = fake.guild("Tavern", channels=["general", "games"])
    channel = guild.text_channels()[0]
    alice = fake.user("alice", guild=guild, locale="fr")
    bob = fake.user("bob", guild=guild)
    seen = Seen()
    bot = make_bot(seen)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_ready()
        await fake.wait_synced()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield World(fake, bot, seen, guild, channel, alice, bob)
        fake.assert_clean()
        assert seen.errors == []
    finally:
        await bot.close()
        await asyncio.wait_for(task, 10)
        restore()
        await fake.stop()


async def test_login_sync_ready_and_guild_cache(world: World) -> None:
    fake, bot = world.fake, world.bot
    assert fake.requests["GET /users/@me"] == 1
    assert fake.requests["PUT /applications/{id}/commands"] == 1
    assert fake.requests["GET /oauth2/applications/@me"] == 1
    assert fake.identify_count == 1
    assert {c["name"] for c in fake.commands[None]} == {"game", "play", "abort"}
    assert all(c["id"] for c in fake.commands[None])
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Tavern"
    assert {c.name for c in guild.text_channels} == {"general", "games"}
    assert bot.user is not None and bot.user.id == fake.bot.id


async def test_command_answer_carries_png_and_button(world: World) -> None:
    result = await world.alice.slash("game new", game="ur", channel=world.channel)
    await result.response()
    message = await result.final()
    assert message.content == "new ur for 3 in general of Tavern"
    assert not result.ephemeral
    [attachment] = message.attachments
    assert attachment.filename == "board.png" and attachment.content_type == "image/png"
    assert attachment.image_size() == (40, 30)
    assert message.pngs == [attachment.data]
    assert "end-turn" in message.custom_ids and "pick" in message.custom_ids
    assert result.latency is not None and result.latency >= 0
    assert world.fake.channel_messages(world.channel) == [message]


async def test_autocomplete_returns_filtered_choices(world: World) -> None:
    choices = await world.alice.autocomplete("play", "action", typed="war", channel=world.channel)
    assert [c["value"] for c in choices] == ["war B3>C3 move 2", "war B3>D3 move 1"]
    played = await (await world.alice.slash("play", action="end", channel=world.channel))
    assert played.ephemeral and played.content == "played end"


async def test_button_press_and_select_reach_the_view(world: World) -> None:
    opened = await world.alice.slash("game new", game="race", players=2, channel=world.channel)
    message = await opened.final()
    assert message.button("end")["custom_id"] == "end-turn"
    pressed = await (await world.bob.press(message, "end-turn"))
    assert world.seen.presses == ["bob"]
    assert pressed.callback_type == 7
    assert message.content == "turn ended by bob"
    picked = await (await world.bob.select(message, "pick", ["two"]))
    assert picked.ephemeral and picked.content == "picked ['two']"
    with pytest.raises(ValidationError):
        await world.bob.select(message, "pick", ["seven"])
    with pytest.raises(ValidationError):
        await world.bob.press(message, "no-such-button")


async def test_validation_rejects_like_discord(world: World) -> None:
    alice, channel = world.alice, world.channel
    bad_calls: list[tuple[str, dict[str, Any]]] = [
        ("game new", {"game": "ur", "colour": "red"}),      # unknown option
        ("game new", {"game": "chess"}),                    # not one of the choices
        ("game new", {"game": "ur", "players": 9}),         # out of range
        ("game new", {"game": "ur", "players": "three"}),   # wrong type
        ("game new", {}),                                   # required option missing
        ("game", {}),                                       # group without subcommand
        ("game fly", {}),                                   # unknown subcommand
        ("teleport", {}),                                   # unknown command
    ]
    for command, options in bad_calls:
        with pytest.raises(ValidationError):
            await alice.slash(command, channel=channel, **options)
    assert world.fake.interactions == []
    sent = await alice.slash("game new", game="ur", players=9, channel=channel, validate=False)
    assert sent.record.payload["data"]["options"][0]["options"][1]["value"] == 9


async def test_nested_subcommand_group(world: World) -> None:
    result = await (await world.alice.slash("game config reminders", hours=12,
                                            channel=world.channel))
    assert result.content == "every 12 h"
    [group] = result.record.payload["data"]["options"]
    assert (group["type"], group["options"][0]["type"]) == (2, 1)
    with pytest.raises(ValidationError):
        await world.alice.slash("game config", channel=world.channel)
    with pytest.raises(ValidationError):
        await world.alice.slash("game config reminders", hours=0, channel=world.channel)


async def test_manage_server_permission(world: World) -> None:
    with pytest.raises(ValidationError):
        await world.alice.slash("abort", channel=world.channel)
    admin = world.fake.user("carol", guild=world.guild, manage_guild=True)
    result = await (await admin.slash("abort", channel=world.channel))
    assert result.content == "aborted, manage_guild=True"


async def test_deferred_answer_channel_post_and_followup(world: World) -> None:
    mark = world.fake.mark()
    result = await world.alice.slash("game board", channel=world.channel)
    await result.response()
    assert result.deferred
    final = await result.final()
    assert final.content == "posted" and final.ephemeral
    post = await world.fake.wait_for_channel_message(world.channel, lambda m: bool(m.pngs),
                                                     after=mark)
    assert post.content == "board" and post.interaction is None


async def test_rate_limit_on_channel_post_is_retried(world: World) -> None:
    fault = world.fake.fail_next("POST /channels/*/messages", status=429, retry_after=0.05)
    slow = world.fake.slow_next("/webhooks/*", delay=0.2)
    result = await world.alice.slash("game board", channel=world.channel)
    post = await world.fake.wait_for_channel_message(world.channel, lambda m: m.content == "board")
    assert fault.hits == 1 and fault.count == 0
    assert world.fake.fault_hits == [f"429 POST /channels/{world.channel.id}/messages"]
    assert (await result.final()).content == "posted"
    assert post.pngs and slow.hits == 1


async def test_lost_answer_then_retry_meets_the_done_work(world: World) -> None:
    fault = world.fake.fail_next("POST /interactions/*", status=500, processed=True)
    result = await (await world.alice.slash("play", action="end", channel=world.channel))
    assert result.content == "played end" and fault.hits == 1
    await world.fake.wait_until(lambda: world.seen.errors, what="the retry refused (40060)")
    assert "40060" in world.seen.errors[0]
    world.seen.errors.clear()


async def test_lost_permissions_and_deleted_channel(world: World) -> None:
    fake, seen = world.fake, world.seen
    fake.set_bot_denied(world.channel)
    await world.alice.slash("game board", channel=world.channel)
    await fake.wait_until(lambda: seen.errors, what="the bot's error handler")
    assert "50013" in seen.errors[0]
    assert fake.refused[-1].startswith("403 POST")
    seen.errors.clear()
    games = world.guild.text_channels()[1]
    fake.delete_channel(games)
    await fake.wait_until(lambda: world.bot.get_channel(games.id) is None,
                          what="CHANNEL_DELETE in the bot's cache")


async def test_dropped_gateway_resumes_and_interactions_still_arrive(world: World) -> None:
    fake = world.fake
    await fake.drop_gateway(code=4000)
    waiting = await world.alice.slash("play", action="end", channel=world.channel)
    await fake.wait_resumed()
    assert fake.identify_count == 1 and fake.resume_count == 1
    assert (await waiting.final()).content == "played end"
    after = await (await world.bob.slash("play", action="politics done", channel=world.channel))
    assert after.content == "played politics done"
    fake.request_reconnect()
    await fake.wait_resumed(resumes=2)
    again = await (await world.bob.slash("play", action="end", channel=world.channel))
    assert again.content == "played end"
    await fake.drop_gateway(code=None)      # abrupt: no close frame
    await fake.wait_resumed(resumes=3)
    last = await (await world.alice.slash("play", action="end", channel=world.channel))
    assert last.content == "played end" and fake.identify_count == 1


async def test_invalid_session_makes_the_bot_identify_again(world: World) -> None:
    fake = world.fake
    fake.resume_allowed = False
    await fake.drop_gateway(code=None)
    await fake.wait_ready(identifies=2)
    result = await (await world.alice.slash("play", action="end", channel=world.channel))
    assert result.content == "played end"


async def test_dm_open_and_closed(world: World) -> None:
    result = await (await world.alice.slash("game dm", channel=world.channel))
    assert result.content == "sent"
    assert [m.content for m in world.fake.channel_messages(world.alice.dm)] == ["hello in private"]
    world.bob.close_dms()
    refused = await (await world.bob.slash("game dm", channel=world.channel))
    assert refused.content == "dm failed 50007"


async def test_command_in_a_dm(world: World) -> None:
    result = await (await world.alice.slash("play", action="end", channel=world.alice.dm))
    assert result.content == "played end"
    assert "guild_id" not in result.record.payload and result.record.payload["context"] == 1
    with pytest.raises(ValidationError):
        await world.alice.slash("abort", channel=world.alice.dm)


async def test_thread_creation_is_dispatched(world: World) -> None:
    result = await (await world.alice.slash("game thread", channel=world.channel))
    thread_id = int(result.content.split()[1])
    thread = world.fake.channels[thread_id]
    assert thread.is_thread and thread.parent_id == world.channel.id
    assert [m.content for m in world.fake.channel_messages(thread)] == ["welcome"]
    assert isinstance(world.bot.get_channel(thread_id), discord.Thread)
    inside = await (await world.alice.slash("game new", game="ur", channel=thread))
    assert inside.content == "new ur for 3 in ur game of Tavern"


async def test_attachment_option_is_readable(world: World) -> None:
    upload = Upload("game.json", b'{"seed": 1}')
    result = await (await world.alice.slash("game import", file=upload, channel=world.channel))
    assert result.content == "imported game.json 11 bytes"


async def test_refused_answers_fail_the_interaction(world: World) -> None:
    fake = world.fake
    done = await (await world.alice.slash("play", action="end", channel=world.channel))
    url = f"{fake.api_base}/interactions/{done.record.id}/{done.record.token}/callback"
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400 and resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["code"] == 40060
        async with http.get(f"{fake.api_base}/no/such/route") as resp:
            assert resp.status == 404
    assert fake.unknown_routes == ["GET /api/v10/no/such/route"]
    fake.fail_next("POST /interactions/*", status=400)
    failing = await world.alice.slash("game new", game="ur", channel=world.channel)
    with pytest.raises(InteractionFailed):
        await failing.response()
    await fake.wait_until(lambda: world.seen.errors, what="the bot's error handler")
    world.seen.errors.clear()
    fake.unknown_routes.clear()


async def test_modal_round_trip(world: World) -> None:
    opened = await (await world.alice.slash("game settings", channel=world.channel))
    assert opened.modal is not None and opened.modal["title"] == "Settings"
    submitted = await (await world.alice.submit_modal(opened, {"interval": "48"}))
    assert submitted.content == "interval 48 h" and submitted.ephemeral


async def test_wrong_token_is_refused() -> None:
    async with FakeDiscord() as fake:
        restore = point_discordpy_at(fake)
        try:
            client = discord.Client(intents=discord.Intents.default())
            with pytest.raises(discord.LoginFailure):
                await client.start("not-the-token")
            await client.close()
        finally:
            restore()
    assert fake.refused and fake.refused[0].startswith("401")


BOT_SCRIPT = textwrap.dedent("""
    import os
    import discord, discord.gateway, discord.http, yarl
    discord.http.Route.BASE = os.environ["DINGIR_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DINGIR_GATEWAY_URL"])
    print("db", os.environ["DINGIR_DB"], flush=True)
    discord.Client(intents=discord.Intents.default()).run(os.environ["DISCORD_TOKEN"])
""")


async def test_bot_process_kill_and_restart(tmp_path: Path) -> None:
    script = tmp_path / "tinybot.py"
    script.write_text(BOT_SCRIPT)
    async with FakeDiscord(token=FAKE_TOKEN) as fake:
        fake.guild("Tavern")
        process = BotProcess(fake, db_path=tmp_path / "db.sqlite3", args=[str(script)],
                             cwd=tmp_path)
        await process.start(timeout=30)
        assert fake.identify_count == 1 and process.running
        process.kill()
        assert await process.wait() == -signal.SIGKILL
        await process.restart(timeout=30)
        assert fake.identify_count == 2
        await process.stop()
        assert not process.running
    assert f"db {tmp_path / 'db.sqlite3'}" in process.output()
