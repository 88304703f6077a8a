"""Crafted input gets a clear refusal, never an unhandled error (issue 24, item 6).

Numbers typed or pressed are read by one reader (``bot.notation.whole_number``): ``²`` is a
digit to ``str.isdigit`` but not to ``int``, ``٣`` is a digit of another script, and a
number over SQLite's integers cannot reach the database. Custom ids of Dingir's form with an
unknown action or a malformed argument, and ids in Dingir's namespace that do not read as
one, are refused privately; so are command options Discord would not send (another type,
out of range, not among the choices, a required one missing). The end-to-end test sends
such input to the real bot through the stand-in for Discord.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from benchmarks.fuzz_interactions import forged_message
from bot.config import ConfigError, from_mapping
from bot.engine import BadNotation
from bot.games.ur.notation import parse_move
from bot.i18n import tr
from bot.notation import MAX_NUMBER, whole_number
from bot.records import GameRecord, SeatInfo, ServiceError
from cogs import lobby, play
from cogs.buttons import FOREIGN, TEMPLATE, Press
from cogs.common import Interaction, UnknownOptions, check_options, seat_name
from cogs.mesopotamia import seat_of_typed
from cogs.options import parse_order
from tests.test_e2e_game import open_game, world

UNKNOWN_BUTTON = tr("en", "discord.unknown_button")


@pytest.mark.parametrize(("text", "number"), [
    ("0", 0), ("12", 12), (str(MAX_NUMBER), MAX_NUMBER),
    ("²", None), ("٣", None), ("１", None), ("-1", None), ("+1", None), (" 1", None),
    ("1\n", None), ("1.0", None), ("", None), (str(MAX_NUMBER + 1), None), ("9" * 40, None),
])
def test_only_the_digits_0_to_9_make_a_number(text: str, number: int | None) -> None:
    assert whole_number(text) == number


def test_a_number_over_the_maximum_is_none() -> None:
    assert whole_number("5", 5) == 5
    assert whole_number("6", 5) is None


def record(*names: str) -> GameRecord:
    seats = [SeatInfo(i, None if name.startswith("AI ") else i + 1, name)
             for i, name in enumerate(names)]
    return GameRecord(id=1, guild_id=1, channel_id=1, game="mesopotamia", status="running",
                      creator_id=1, options={}, seed=1, seats=seats, state=None, version=1)


@pytest.mark.parametrize(("typed", "seat"), [
    ("1", 1), (" 0 ", 0), ("bob", 1), ("²", None), ("٣", None), ("-1", None), ("3", None),
    ("99999999999999999999999", None),
])
def test_mesopotamia_board_reads_a_seat_number_or_a_name(typed: str, seat: int | None) -> None:
    assert seat_of_typed(record("alice", "bob", "AI 3"), typed, "en") == seat


def test_an_ai_seat_whose_number_is_not_a_number_keeps_its_name() -> None:
    assert seat_name(record("alice", "AI ²"), 1, "en") == tr("en", "discord.ai_name",
                                                             name="AI ²")
    assert seat_name(record("alice", "AI 2"), 1, "en") == tr("en", "discord.ai_seat", n=2)


@pytest.mark.parametrize("order", ["²", "٣ ١", "-1", "<@²>", "1 2 x"])
def test_a_seat_order_of_other_digits_is_refused(order: str) -> None:
    with pytest.raises(ServiceError) as error:
        parse_order(order)
    assert error.value.reason.key == "discord.bad_order"


def test_a_seat_order_reads_positions_and_mentions() -> None:
    assert parse_order("2 1, <@123456789012345678>") == [1, 0, 123456789012345678]


def test_ur_counts_are_digits_0_to_9() -> None:
    assert parse_move("war b3>c3 move 2").n == 2
    for text in ("war b3>c3 move ٣", "politics b3>c4 ²", "agriculture b3 １"):
        with pytest.raises(BadNotation):
            parse_move(text)


def test_a_setting_in_other_digits_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="DINGIR_MAX_GAMES_PER_SERVER"):
        from_mapping({"DISCORD_TOKEN": "x", "DINGIR_MAX_GAMES_PER_SERVER": "²"})
    with pytest.raises(ConfigError, match="DINGIR_DEV_GUILD"):
        from_mapping({"DISCORD_TOKEN": "x", "DINGIR_DEV_GUILD": "٣"})


@pytest.mark.parametrize(("custom_id", "ours"), [
    ("dg:5:3:a1", True), ("dg:5:3:thread:x", True), ("dg:0:0:thread:ur:1", True),
    ("dg:5:3:a²", False), ("dg:٣:3:a1", False), ("dg:99999999999999999999:0:turn", False),
    ("dg:5:3:A1", False), ("dg:-1:0:turn", False), ("dg", False), ("dg:", False),
    ("dg:5:3:a1\n", False),
])
def test_dingir_custom_ids_read_or_are_refused(custom_id: str, ours: bool) -> None:
    assert bool(TEMPLATE.fullmatch(custom_id)) is ours
    assert bool(FOREIGN.fullmatch(custom_id)) is not ours


def test_other_custom_ids_are_left_alone() -> None:
    assert not FOREIGN.fullmatch("dgx") and not FOREIGN.fullmatch("other:1")


def refused(error: pytest.ExceptionInfo[ServiceError]) -> bool:
    return error.value.reason.key == "discord.unknown_button"


@pytest.mark.parametrize("arg", ["", "1:2", "_", "x"])
def test_a_step_button_without_an_index_is_refused(arg: str) -> None:
    with pytest.raises(ServiceError) as error:
        _ = Press(1, 1, "a", arg).number
    assert refused(error)


def fake_interaction() -> Interaction:
    """Enough of an interaction for the handlers to refuse before they touch Discord."""
    settings = SimpleNamespace(language="en")
    return cast(Interaction, SimpleNamespace(locale="en-US",
                                             client=SimpleNamespace(settings=settings)))


@pytest.mark.parametrize("arg", [":x", "", ":chess:1", "::1", ":ur:", ":ur:99", ":ur:1:2"])
async def test_a_forged_thread_button_is_refused(arg: str) -> None:
    with pytest.raises(ServiceError) as error:
        await lobby.press_thread(fake_interaction(), Press(0, 0, "thread", arg))
    assert refused(error)


@pytest.mark.parametrize("values", [("²",), ("-1",), ("",), ("٣",), ()])
async def test_a_select_value_that_is_not_an_index_is_refused(values: tuple[str, ...]) -> None:
    with pytest.raises(ServiceError) as error:
        await play.press_select(fake_interaction(), Press(1, 1, "sel", "", values))
    assert refused(error)


@pytest.mark.parametrize("arg", ["", "1", "1:", ":1", "1:2:3"])
async def test_a_question_button_without_seat_and_index_is_refused(arg: str) -> None:
    with pytest.raises(ServiceError) as error:
        await play.press_public_step(fake_interaction(), Press(1, 1, "q", arg))
    assert refused(error)


def new_game_with(**options: Any) -> Interaction:
    """``/game new`` as Discord would deliver it with ``options``."""
    given = [{"name": k, "type": {str: 3, int: 4, bool: 5}[type(v)], "value": v}
             for k, v in options.items()]
    data = {"name": "game", "type": 1, "options": [{"type": 1, "name": "new",
                                                    "options": given}]}
    return cast(Interaction, SimpleNamespace(command=lobby.Lobby.new, data=data))


@pytest.mark.parametrize("options", [
    {"game": "chess"}, {"game": "ur", "ai": -1}, {"game": "ur", "ai": 6}, {"ai": 1},
    {"game": "ur", "ai": "1"}, {"game": "ur", "thread": 1}, {"game": "ur", "colour": "red"},
])
def test_options_discord_would_not_send_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(UnknownOptions):
        check_options(new_game_with(**options))


def test_options_discord_sends_pass() -> None:
    assert check_options(new_game_with(game="ur", ai=5, thread=True, options="x=1"))


@pytest.mark.slow
async def test_crafted_input_gets_clear_private_refusals(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob = (w.fake.user(n, guild=w.guild) for n in ("alice", "bob"))
        post = await open_game(w, alice, [bob], game="mesopotamia", title="Mesopotamia")
        game_id, version = (int(x) for x in post.custom_ids[0].split(":")[1:3])

        def stored() -> tuple[Any, ...]:
            with sqlite3.connect(tmp_path / "dingir.sqlite3") as db:
                return tuple(db.execute("SELECT version, state FROM games").fetchall())

        before = stored()
        answer = await (await alice.slash("mesopotamia board", channel=w.channel,
                                          player="²")).final()
        assert answer.ephemeral
        assert answer.text == tr("en", "discord.mesopotamia.unknown_player", name="²")
        for custom_id in (f"dg:{game_id}:{version}:zzz", f"dg:{game_id}:{version}:a²",
                          "dg:0:0:thread:x", "dg:0:0:thread:chess:1",
                          f"dg:{game_id}:{version}:q99:0", f"dg:{game_id}:{version}:a1:2",
                          f"dg:{game_id}:0:log", f"dg:{10**18 - 1}:0:log1",
                          "dg:99999999999999999999:0:turn"):
            pressed = await alice.press(forged_message(post, custom_id), custom_id,
                                        validate=False)
            answer = await pressed.final()
            assert answer.ephemeral and answer.text == UNKNOWN_BUTTON, (custom_id, answer.text)
        select = f"dg:{game_id}:{version}:sel"
        chosen = await alice.select(forged_message(post, select, select=True), select, ["²"],
                                    validate=False)
        answer = await chosen.final()
        assert answer.ephemeral and answer.text == UNKNOWN_BUTTON
        board = f"dg:{game_id}:{version}:board"          # a panel button on a public post
        shown = await (await bob.press(forged_message(post, board), board,
                                       validate=False)).final()
        assert shown.ephemeral and shown.id != post.id
        assert post.text == w.fake.messages[post.id].text
        assert stored() == before
        assert json.loads(before[0][1])       # a real state was compared
