"""Mesopotamia at 5 and 6 players (issue 28 §2, R-players-5-6): « Les règles de mise en place
pour 5 et 6 joueurs sont les mêmes que celles pour 4 joueurs. », sentence by sentence; the
empires the players need; random games under the engine contract; replay and secrecy."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine import IllegalMove
from bot.games.mesopotamia import combat, large
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.engine import GAME
from bot.games.mesopotamia.state import by_role, seal_order
from bot.i18n import LANGUAGES, translate
from host.registry import GameEntry
from render import mesopotamia as picture
from render import mesopotamia_board as board
from render.context import RenderContext
from render.draw import legible
from tests.contract import NAMES, hidden_from, playout
from tests.phone import MIN_PHONE_TEXT, PHONE, font_sizes
from tests.test_mesopotamia_setup import random_setup

SIX_NAMES = ("A very long player name indeed", "Bob", "Éloïse", "Dan", "Ezekiel Longname",
             "Fatima")


# -- the empires the players need ---------------------------------------------------------------


@pytest.mark.parametrize(("n", "option"), [(5, "none"), (6, "none")])
def test_more_players_than_empires_is_refused_naming_what_is_allowed(n: int, option: str) -> None:
    """Every player drafts his own empire: 5-6 players with the base game's four empires are
    refused, and the refusal names the options that seat them (R-players-5-6)."""
    with pytest.raises(IllegalMove) as refused:
        GAME.setup(1, n, {"expansions": option})
    for lang in LANGUAGES:
        text = translate(refused.value.reason, lang, NAMES)
        assert f"{n}" in text and "both" in text and "assyrians_hittites" in text
    with pytest.raises(ValueError):
        GAME.setup(1, 7, {"expansions": "both"})


@pytest.mark.parametrize(("n", "option", "empires"), [
    (5, "assyrians_hittites", 6), (6, "mariotes_eblaites", 6), (6, "both", 8), (5, "auto", 8)])
def test_an_expansion_seats_five_and_six(n: int, option: str, empires: int) -> None:
    state = GAME.setup(1, n, {"expansions": option})
    assert state["n"] == n
    assert len(state["expansions"]) * 2 + len(D.EMPIRES) == empires


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_default_keeps_two_to_four_players_as_the_base_game(n: int) -> None:
    """``auto`` (the default) is ``none`` with 2-4 players: the same board for the same seed."""
    for seed in range(5):
        assert GAME.setup(seed, n, {}) == GAME.setup(seed, n, {"expansions": "none"})
        assert "expansions" not in GAME.setup(seed, n, {})
    assert large.start_regions(n) == D.START_REGIONS
    assert large.ziggurats_always(n) == D.ZIGGURAT_ALWAYS


# -- the board « comme pour 4 » -----------------------------------------------------------------


@pytest.mark.parametrize("n", [5, 6])
def test_the_board_is_laid_as_for_four(n: int) -> None:
    """No blockers (« Voir p. 12 pour le placement des Bloqueurs en partie à 2 et 3 joueurs »),
    every neutral tribe, « Pour chaque section, placez 3 jetons » on all 12 trade slots, and no
    ziggurat token yet on regions 5 and 6: they are start regions (Q-start-regions (a))."""
    four, state = GAME.setup(3, 4, {}), GAME.setup(3, n, {})
    assert state["blockers"] == four["blockers"] == []
    assert state["tribes"] == four["tribes"]
    assert sorted(state["trade"]) == sorted(four["trade"]) == sorted(D.SLOT_LEVEL)
    assert state["ziggurats"] == {}
    assert [len(h) for h in state["quests"]["hands"]] == [0] * n


@pytest.mark.parametrize("n", [5, 6])
def test_roles_a_to_f_empires_in_role_order_regions_in_reverse(n: int) -> None:
    """« Le premier joueur assis choisit le rôle disponible qu'il souhaite », « A choisit en
    premier, suivi de B », « dans l'ordre inversé », with roles E and F (R-players-5-6);
    the six numbered regions are the start regions."""
    state = GAME.setup(2, n, {})
    roles = D.ROLES[:n][::-1]
    for seat in range(n - 1):
        assert GAME.active(state) == [seat]
        assert sorted(a.notation for a in GAME.legal(state, seat)) == \
            sorted(f"role {r}" for r in roles[seat:])
        state = GAME.apply(state, seat, f"role {roles[seat]}")
    assert [state["players"][s]["role"] for s in range(n)] == list(roles)
    order = by_role(state)
    assert order == list(range(n))[::-1] and GAME.active(state) == [order[0]]
    for seat in order:
        state = GAME.apply(state, seat, GAME.legal(state, seat)[0])
    assert GAME.active(state) == [order[-1]]
    starts = {a.notation.split()[1] for a in GAME.legal(state, order[-1])}
    assert starts == set(D.NUMBERED.values())


@pytest.mark.parametrize("n", [5, 6])
def test_random_setups_of_five_and_six(n: int) -> None:
    """Every player set up in his own start region among the six; « Dans chaque Région de
    départ où aucun joueur n'est présent, placez le jeton Ziggurat approprié »; the seals piled
    in the rulebook's order of the eight empires, the turn order is the Population order; 4
    quest cards dealt, 3 kept."""
    for seed in range(12):
        state, _ = random_setup(seed * 11 + n, n)
        players = state["players"]
        assert sorted(p["role"] for p in players) == list(D.ROLES[:n])
        assert len({p["empire"] for p in players}) == n
        starts = {p["start"] for p in players}
        assert len(starts) == n and starts <= set(D.NUMBERED.values())
        assert set(state["ziggurats"]) == set(D.NUMBERED.values()) - starts
        assert len(state["ziggurats"]) == 6 - n
        assert state["order"] == seal_order(state, "population")
        for track in D.TRACKS:
            pile = state["seals"][track]
            assert sorted(s for s, _ in pile) == list(range(n))
            order = [*D.STACK_ORDER[track], *D.ALL_EMPIRES]     # the case-2 seal is apart
            ranked = [(-case, order.index(players[s]["empire"])) for s, case in pile]
            assert ranked == sorted(ranked)
        assert [len(h) for h in state["quests"]["hands"]] == [D.QUEST_KEPT] * n


def test_six_seals_in_the_rulebook_order() -> None:
    """« Placez le Sceau assyrien sur la 2e case … Akkadiens, Élamites, Sumériens, Babyloniens,
    Hittites, Mariotes et Éblaites » and « Placez le Sceau babylonien sur la 2e case … Sumériens,
    Élamites, Akkadiens, Éblaites, Mariotes, Hittites et Assyriens »."""
    state = GAME.setup(1, 6, {"expansions": "both"})
    empires = ["assyrian", "hittite", "mariote", "eblaite", "sumerian", "babylonian"]
    for seat, role in enumerate(D.ROLES[:5]):      # the last role is forced (R-forced-choice)
        state = GAME.apply(state, seat, f"role {role}")
    for seat, empire in enumerate(empires):
        state = GAME.apply(state, seat, f"empire {empire}")
    for seat in reversed(range(6)):
        if state["phase"] == "regions":
            state = GAME.apply(state, seat, GAME.legal(state, seat)[0])
    assert state["seals"]["event"] == [[0, 2], [4, 1], [5, 1], [1, 1], [2, 1], [3, 1]]
    assert state["seals"]["population"] == [[5, 2], [4, 1], [3, 1], [2, 1], [1, 1], [0, 1]]


def test_the_event_track_rules_read_six_seals() -> None:
    """With six seals on the Event track: the first orders the combats, « Si vous n'êtes pas
    dernier de la piste Événement, c'est le joueur derrière vous qui la contrôle. Si vous êtes
    dernier, c'est le joueur devant. », and a tie goes to the seat ahead."""
    state, _ = random_setup(4, 6)
    state["seals"]["event"] = [[3, 9], [5, 7], [0, 4], [2, 4], [4, 2], [1, 1]]
    assert seal_order(state, "event") == [3, 5, 0, 2, 4, 1]
    assert combat.order_chooser(state) == 3
    assert [combat.tribe_controller(state, s) for s in (3, 0, 2, 1)] == [5, 2, 4, 4]
    assert combat.tie_winner(state, 1, 2) == 2 and combat.tie_winner(state, 5, 0) == 5


# -- replay, secrecy, whole games ---------------------------------------------------------------


def test_replay_and_views_keep_the_secrets_at_six() -> None:
    """The same seed and steps give the same state; no view shows another seat's quests or a
    face-down token; a state guessed from a view keeps the seat's steps."""
    state, steps = random_setup(21, 6)
    again = GAME.setup(21, 6, {})
    for seat, step in steps:
        again = GAME.apply(again, seat, step)
    assert again == state
    secrets = GAME.secrets(state)
    for seat in (None, *range(6)):
        shown = repr(GAME.view(state, seat))
        assert not [s for s in hidden_from(secrets, seat, 6) if s in shown]
    guess = GAME.determinize(GAME.view(state, 2), 2, random.Random(1))
    assert GAME.legal(guess, 2) == GAME.legal(state, 2)
    assert guess["quests"]["hands"][2] == state["quests"]["hands"][2]


@pytest.mark.parametrize("n", [5, pytest.param(6, marks=pytest.mark.slow)])
def test_random_games_of_five_and_six_keep_the_contract(n: int) -> None:
    """A whole random game (the default options: both expansions) reaches its outcome under
    every check of the contract (views, secrets, notation, determinize, replay, images)."""
    result = playout(GameEntry(GAME, picture.RENDERER), n, 1, density=0.02, images=2,
                     max_steps=60_000)
    assert result.outcome is not None


@pytest.mark.parametrize("n", [5, 6])
def test_the_board_of_five_and_six_is_readable(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board at 5-6 players: one player row more a seat (``picture.height``: 1,334 and
    1,400 px, as tall as 2-4 players' may be; a seat's own view as tall, its quests in the
    legend's row), at most 120 KB, every text readable once shown 400 px wide; every seat's
    own board within the limits of 2-4."""
    sizes = font_sizes(monkeypatch)
    renderer = picture.MesopotamiaRenderer()       # draws every text anew, sizes recorded
    state, _ = random_setup(n, n)
    ctx = RenderContext(SIX_NAMES[:n], "fr")
    for seat in (None, 0):
        png = renderer.png(GAME.view(state, seat), ctx)
        image = Image.open(io.BytesIO(png))
        assert len(png) <= 120_000 and image.size[0] == picture.WIDTH
        quests = 0 if seat is None else len(state["quests"]["hands"][seat])
        assert image.size[1] == picture.height(n, quests) == picture.height(n) <= 1_400
    for seat in range(n):
        png = board.board_png(GAME.view(state, seat), ctx, seat)
        assert len(png) <= 100_000 and Image.open(io.BytesIO(png)).size[1] <= board.TALLEST
    assert sizes and min(sizes) >= legible(picture.WIDTH)
    assert min(sizes) * PHONE / picture.WIDTH >= MIN_PHONE_TEXT
