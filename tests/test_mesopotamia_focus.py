"""Mesopotamia: the regions a turn message zooms on (:mod:`bot.games.mesopotamia.focus`).

The issue: « a whole-map image after each turn plus zoomed crops of the regions that changed
or are contested ». Contested regions follow the rulebook's « des combats ont lieu dans
chaque région contenant les Unités d'au moins deux Empires. » (R-combat-detection)."""

from __future__ import annotations

from bot.games.kit import clone
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.focus import MAX_FOCUS, changed_regions, focus_regions, gather
from bot.games.mesopotamia.view import view
from tests.test_mesopotamia_end import bare, free_regions


def test_nothing_changed_means_no_region() -> None:
    state = bare(3)
    assert changed_regions(state, clone(state)) == []


def test_a_unit_that_moves_changes_both_regions_in_map_order() -> None:
    """A unit leaving one region for another: both regions are drawn again, in the map's
    order whatever the direction."""
    before = bare(2)
    a, b = free_regions(before, 2)
    before["units"] = [[0, "spearman", b]]
    after = clone(before)
    after["units"] = [[0, "spearman", a]]
    order = [r for r in D.REGIONS if r in (a, b)]
    assert changed_regions(before, after) == order
    assert changed_regions(after, before) == order


def test_every_kind_of_piece_counts_as_a_change() -> None:
    """Tribe, colony, rampart, ziggurat token, blocker and event token: each change names
    its region, and only it."""
    before = bare(3)
    regions = free_regions(before, 6)
    tribe_region = next(r for r in D.REGIONS if before["tribes"].get(r))
    site_region = next(iter(before["sites"]))
    changes = {
        tribe_region: lambda s: s["tribes"].pop(tribe_region),
        regions[0]: lambda s: s["players"][1]["colonies"].append(regions[0]),
        regions[1]: lambda s: s["players"][2]["ramparts"].append(regions[1]),
        regions[2]: lambda s: s["ziggurats"].__setitem__(regions[2], 5),
        regions[3]: lambda s: s["blockers"].append(regions[3]),
        site_region: lambda s: s["sites"][site_region].__setitem__(1, True),
    }
    for region, change in changes.items():
        after = clone(before)
        change(after)
        assert changed_regions(before, after) == [region]


def test_contested_regions_come_first_then_the_changed_ones_at_most_four() -> None:
    """A region holding land units of two empires is contested: it is zoomed on first,
    then the changed regions (each once), and never more than MAX_FOCUS crops."""
    state = bare(2)
    regions = free_regions(state, 7)
    fight = regions[5]
    state["units"] = [[0, "spearman", fight], [1, "archer", fight]]
    changed = [regions[0], fight, regions[1], regions[2], regions[3]]
    assert focus_regions(state, changed) == [fight, *regions[:3]]
    assert len(focus_regions(state, regions)) == MAX_FOCUS
    assert focus_regions(bare(2), []) == []


def test_a_unit_on_a_tribe_region_is_contested_but_a_lone_ship_is_not() -> None:
    """« … au moins deux Empires » or a neutral tribe (R-combat-detection): a land unit on a
    tribe's region is zoomed on even when nothing changed; ships never start a combat."""
    state = bare(2)
    tribe_region = next(r for r in D.REGIONS if state["tribes"].get(r))
    state["units"] = [[0, "cavalry", tribe_region]]
    assert focus_regions(state, []) == [tribe_region]
    quiet = free_regions(state, 1)[0]
    state["units"] = [[0, "ram", quiet], [1, "spearman", quiet]]
    assert focus_regions(state, []) == []


def test_a_face_down_token_swapped_unseen_is_no_change() -> None:
    """Face-down event tokens are secret: a region is not named for a change nobody sees."""
    before = bare(2)
    rid, (token, _) = next(iter(before["sites"].items()))
    after = clone(before)
    terrain = D.REGIONS[rid].terrain
    after["sites"][rid][0] = next(t for t in D.EVENTS[terrain] if t != token)
    assert changed_regions(before, after) == []


def test_a_turn_gathers_its_changes_and_the_next_turn_starts_afresh() -> None:
    """The turn message comes after a whole turn (R-turn-count): the regions of every step of
    the turn are kept, and the first step of the next turn starts a new list; the view names
    them."""
    start = bare(2)
    a, b, c = free_regions(start, 3)
    start["units"] = [[0, "spearman", a], [1, "spearman", c]]
    one = clone(start)
    one["units"][0][2] = b
    one["changed"] = gather(start, one)
    two = clone(one)
    two["units"][0][2] = a
    two["changed"] = gather(one, two)
    two["turn"] += 1   # the second step ended the turn
    assert set(two["changed"]["regions"]) == {a, b}
    three = clone(two)
    three["units"][1][2] = b
    three["changed"] = gather(two, three)
    assert set(three["changed"]["regions"]) == {b, c}
    assert set(view(three, None)["focus"]) == {b, c}
