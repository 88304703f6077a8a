"""End to end: fewer presses in the turn panel. An Ur placement that leaves nothing but
ending the turn ends it in the same press; an exchange is chosen tile first, then face,
with a Back button between."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_e2e_game import click, open_game, player_of, world

pytestmark = pytest.mark.slow


async def test_a_placement_ends_the_turn_in_one_press(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob, carol = w.user("alice"), w.user("bob"), w.user("carol")
        post = await open_game(w, alice, [bob, carol])
        player = player_of(post, [alice, bob, carol])
        assert player is not None
        panel = await (await player.press(post, post.button("Take my turn")["custom_id"])
                       ).final()
        menu = next(c for c in panel.iter_components() if c.get("type") == 3)
        option = menu["options"][0]
        assert option["label"].endswith("and end the turn"), option
        mark = w.fake.mark()
        panel = await click(w, player, panel, menu["custom_id"], [option["value"]])
        assert "✅" in panel.text and not panel.custom_ids, panel.text
        following = await w.next_board(mark)
        assert not following.mentions(player.id)


async def test_an_exchange_is_chosen_tile_first_then_face(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        users = [w.user("alice"), w.user("bob"), w.user("carol")]
        post = await open_game(w, users[0], users[1:])
        for _ in range(12):                               # the placements, one press each
            player = player_of(post, users)
            assert player is not None
            panel = await (await player.press(post, post.button("Take my turn")["custom_id"])
                           ).final()
            menu = next((c for c in panel.iter_components() if c.get("type") == 3), None)
            mark = w.fake.mark()
            if menu is None or not menu["options"][0]["value"].startswith("g"):
                if menu is None:
                    step = next(b for b in panel.buttons if b["custom_id"].split(":")[3][:1]
                                == "a")
                    await click(w, player, panel, step["custom_id"])
                else:
                    await click(w, player, panel, menu["custom_id"],
                                [menu["options"][0]["value"]])
                post = await w.next_board(mark)
                continue
            tiles = [o for o in menu["options"] if o["value"].startswith("g")]
            assert tiles[0]["label"].startswith("tile ") and len(tiles) > 20, tiles[0]
            panel = await click(w, player, panel, menu["custom_id"], [tiles[0]["value"]])
            faces = [b for b in panel.buttons if ":a" in b["custom_id"]]
            assert len(faces) == 2 and all("face up and end the turn" in b["label"]
                                           for b in faces), panel.text
            panel = await click(w, player, panel, panel.button("Back")["custom_id"])
            assert next(c for c in panel.iter_components() if c.get("type") == 3)
            panel = await click(w, player, panel, menu["custom_id"], [tiles[0]["value"]])
            panel = await click(w, player, panel, faces[0]["custom_id"])
            assert "✅" in panel.text, panel.text
            await w.next_board(mark)
            return
        raise AssertionError("no exchange was offered in the first turns")
