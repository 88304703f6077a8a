"""A panel shows the turn message's own image only when it shows exactly that board."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.clock import FakeClock
from bot.records import GameRecord, Player
from bot.service import GameService
from bot.store import open_store
from cogs import posting
from cogs.posting import POSTED_BOARD_SECONDS, PostedBoard, posted_board_url, remember
from host import registry

URL = "https://cdn.example/attachments/1/2/board.png"
PLAYERS = (Player(1, "Ninsun"), Player(2, "Gilgamesh"), Player(3, "Enkidu"))


def bot_with(record: GameRecord, posted: PostedBoard | None) -> Any:
    """What posted_board_url needs of the bot: the boards it posted."""
    return SimpleNamespace(posted_boards={} if posted is None else {record.id: posted})


async def test_the_turn_message_image_is_reused_only_for_the_same_board(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "dingir.sqlite3")
    try:
        service = GameService(store, FakeClock(), seed_source=lambda: 7,
                              catalogue=registry.CATALOGUE)
        await service.lobby.create(None, 10, PLAYERS[0], "ur", {})
        for player in PLAYERS[1:]:
            await service.lobby.join(10, player)
        record = await service.lobby.start(10, PLAYERS[0].user_id)
        seat = record.active[0]
        posted = PostedBoard(record.version, "en", URL)

        assert posted_board_url(bot_with(record, None), record, "en", seat) is None
        assert posted_board_url(bot_with(record, posted), record, "en", seat) == URL
        assert posted_board_url(bot_with(record, posted), record, "en", None) == URL
        # another language draws other words on the board
        assert posted_board_url(bot_with(record, posted), record, "fr", seat) is None
        # a signed attachment address does not last for ever
        old = PostedBoard(record.version, "en", URL, at=time.monotonic() - POSTED_BOARD_SECONDS - 1)
        assert posted_board_url(bot_with(record, old), record, "en", seat) is None
        # one step later the image is out of date
        user = record.seats[seat].user_id
        assert user is not None
        _, _, legal = await service.turns.legal(10, user)
        moved = (await service.turns.play(10, user, legal[0].notation)).record
        assert posted_board_url(bot_with(moved, posted), moved, "en", seat) is None
    finally:
        await store.close()


async def test_a_seat_that_sees_more_than_the_public_gets_its_own_board(tmp_path: Path) -> None:
    """After the Flood hides only the dice to come: a seat sees the public board, so its
    panel shows the turn message's image. A Civilizations seat sees its hand: never."""
    store = await open_store(tmp_path / "dingir.sqlite3")
    try:
        service = GameService(store, FakeClock(), seed_source=lambda: 7,
                              catalogue=registry.CATALOGUE)
        for channel, game, players in ((10, "flood", PLAYERS), (11, "civsets", PLAYERS)):
            await service.lobby.create(None, channel, players[0], game, {})
            for player in players[1:]:
                await service.lobby.join(channel, player)
            record = await service.lobby.start(channel, players[0].user_id)
            posted = bot_with(record, PostedBoard(record.version, "en", URL))
            found = [posted_board_url(posted, record, "en", s) for s in range(len(players))]
            assert found == ([URL] * 3 if game == "flood" else [None] * 3), game
            assert posted_board_url(posted, record, "en", None) == URL
    finally:
        await store.close()


def test_the_remembered_images_are_bounded_and_the_latest_post_wins(monkeypatch: Any) -> None:
    monkeypatch.setattr(posting, "POSTED_BOARDS_KEPT", 3)
    boards: dict[int, PostedBoard] = {}
    for game in (1, 2, 3):
        remember(boards, game, PostedBoard(1, "en", f"{URL}?{game}"))
    remember(boards, 1, PostedBoard(2, "en", URL))     # game 1 posts again
    remember(boards, 4, PostedBoard(1, "en", URL))     # game 2 is forgotten
    assert list(boards) == [3, 1, 4] and boards[1].version == 2


def test_a_long_turn_summary_gives_way_to_the_mention_of_the_next_player() -> None:
    steps = [f"🎲 **AI 1**: step {i} " + "x" * 300 for i in range(12)]
    mention = "<@123>, your turn."
    text = posting.within_limit("**After the Flood** · turn 55", steps, mention)
    assert len(text) <= 2000 and text.endswith(mention)
    assert text.startswith("**After the Flood** · turn 55\n…\n") and steps[-1] in text
    assert steps[0] not in text
    short = posting.within_limit("title", steps[:2], mention)
    assert short == "\n".join(["title", *steps[:2], mention])
    alone = posting.within_limit("title", ["y" * 3000], mention)
    assert len(alone) <= 2000 and alone.endswith("…\n" + mention)
