"""The panel's options grouped by their choices (:mod:`cogs.choices`): Ur's exchange is
chosen tile first, then face; a step that leaves only "end turn" says it ends the turn."""

from __future__ import annotations

import random

from bot.engine import State
from bot.i18n import tr
from bot.records import GameRecord, SeatInfo
from cogs import choices
from host import registry

UR = registry.get("ur").engine


def ur_at(step: str, seed: int = 3) -> State:
    """A random Ur game played until its current player's step is ``step``."""
    rng = random.Random(seed)
    state = UR.setup(seed, 3, {})
    while state["step"] != step or UR.outcome(state) is not None:
        seat = UR.active(state)[0]
        state = UR.apply(state, seat, rng.choice(UR.legal(state, seat)))
    return state


def record_of(state: State) -> GameRecord:
    return GameRecord(id=1, guild_id=1, channel_id=1, game="ur", status="running",
                      creator_id=1, options={}, seed=3,
                      seats=[SeatInfo(i, i + 1, f"p{i}") for i in range(3)], state=state,
                      version=9, active=UR.active(state))


def test_an_exchange_is_chosen_tile_first_then_face() -> None:
    state = ur_at("exchange")
    seat = UR.active(state)[0]
    legal = UR.legal(state, seat)
    options = [(i, a) for i, a in enumerate(legal) if a.group != "end"]
    record = record_of(state)
    taken, top = choices.level_entries(record, options, (), "en")
    assert taken == () and len(top) * 2 == len(options) > 20
    assert all(e.choice is not None and e.text.startswith(("tile ", "the spare tile"))
               for e in top)
    taken, faces = choices.level_entries(record, options, (0,), "en")
    assert taken == (0,) and len(faces) == 2
    assert all(e.index is not None and e.text.endswith("face up") and e.closes_turn
               for e in faces)
    picked = {legal[e.index].notation for e in faces if e.index is not None}
    cell = picked.pop().split()[1]
    assert all(n.split()[1] == cell for n in picked)
    assert choices.level_entries(record, options, (999,), "en")[0] == ()   # stale: the top


def test_a_placement_before_end_closes_the_turn_and_says_so() -> None:
    state = UR.setup(3, 3, {})
    seat = UR.active(state)[0]
    options = list(enumerate(UR.legal(state, seat)))
    record = record_of(state)
    items, _, hint = choices.option_items(record, 9, options, 0, (), "en")
    menu = items[0].item
    assert hint and all(o.label.endswith("and end the turn") for o in menu.options)
    after = UR.apply(state, seat, options[0][1])
    assert [a.group for a in UR.legal(after, seat)] == ["end"]


def test_junk_in_a_components_position_reads_as_the_top() -> None:
    assert choices.parse_where("2:1:0") == (2, (1, 0))
    assert choices.parse_where("x:1") == (0, ()) and choices.parse_where("²") == (0, ())
    assert choices.parse_group("1:²") == () and choices.parse_group("") == ()


def test_a_long_step_that_ends_the_turn_keeps_the_words_that_say_so() -> None:
    """A label is at most 80 characters: a long step is shortened, never "... and end the"."""
    step = "build a Ziggurat storey and take a black Dingir die (1 Stone, 1 Clay) in Eridu"
    for lang in ("en", "fr"):
        ending = tr(lang, "discord.and_end", step="")
        text = choices.framed(lang, "discord.and_end", "step", step)
        assert len(text) == choices.LABEL_LIMIT and text.endswith(ending), text
        assert text.startswith(step[:40]) and "…" in text
    assert choices.framed("en", "discord.and_end", "step", "place a token on E2") == \
        "place a token on E2 and end the turn"
