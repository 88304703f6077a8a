"""Solo ladders (issue 27 §4): a game one member plays alone against the game's own opponent
counts in a ranking of its own per mode and difficulty (:class:`bot.engine.Ladder`), rated
against that opponent, and leaves the member's rating between members unchanged.

The toy race gets a scripted rival (option ``rival``: ``slow`` adds 1 a turn, ``fast`` 2),
with a ladder for each level.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import replace

import pytest

from bot.catalogue import Catalogue
from bot.clock import FakeClock
from bot.engine import Ladder, OptionSpec, Seat, State, Text
from bot.i18n import translate
from bot.ratings import GAME_ITSELF, Place, Rating, rate
from bot.records import GameRecord, Player, SeatInfo, ServiceError
from bot.scripted import Script
from bot.service import GameService, in_thread
from bot.store import open_store
from tests.test_session import ANN, BOB, CHANNEL, GUILD, first_legal, user_of
from tests.toy_game import RaceGame

LEVELS = ("slow", "fast")


class SoloRace(RaceGame):
    """The toy race with a scripted rival in the last seat when ``rival`` names a level."""

    meta = replace(RaceGame.meta, id="solo", options=(
        *RaceGame.meta.options,
        OptionSpec("rival", Text.of("toy.name"), ("none", *LEVELS), "none")),
        ladders=tuple(Ladder(level, Text.of("toy.rules"), (("rival", level),))
                      for level in LEVELS))

    def setup(self, seed: int, n_players: int, options: Mapping[str, str]) -> State:
        return {**super().setup(seed, n_players, options),
                "rival": options.get("rival", "none")}


def rival_step(state: State, seat: Seat) -> str:
    """The rival adds once a turn (1 when slow, 2 when fast), then ends it."""
    return "end" if state["adds"] else ("add 2" if state["rival"] == "fast" else "add 1")


RIVAL = Script("solo", "Rival", Text.of("toy.name"), Text.of("toy.name"), "rival",
               tuple((level, Text.of("toy.name")) for level in LEVELS), "slow",
               lambda options: int(options.get("rival", "none") != "none"),
               lambda state, seat: state["rival"] != "none" and seat == len(state["totals"]) - 1,
               rival_step)
CATALOGUE = Catalogue({"solo": SoloRace()}, [RIVAL])


@pytest.fixture
async def service(database: str) -> AsyncIterator[GameService]:
    """A service hosting the solo race, over a new store (on each backend)."""
    store = await open_store(database)
    try:
        yield GameService(store, FakeClock(), seed_source=lambda: 3, catalogue=CATALOGUE,
                          ai_search=in_thread(first_legal))
    finally:
        await store.close()


async def play_to_the_end(service: GameService, players: tuple[Player, ...],
                          options: dict[str, str], channel: int = CHANNEL) -> GameRecord:
    """A game of ``players`` with ``options`` played to its end and recorded: each member
    adds 2 a turn."""
    await service.lobby.create(GUILD, channel, players[0], "solo", options)
    for player in players[1:]:
        await service.lobby.join(channel, player)
    record = await service.lobby.start(channel, players[0].user_id)
    while True:
        await service.autoplay.play_seats(record.id)
        record = await service.core.get_by_id(record.id) or record
        if record.status != "running":
            assert await service.results.record_result(record.id)
            return record
        user = user_of(record, record.active[0])
        await service.turns.play(record.channel_id, user, "add 2")
        record = (await service.turns.play(record.channel_id, user, "end")).record


def record_of(seats: tuple[SeatInfo, ...], options: dict[str, str]) -> GameRecord:
    """A finished game of the solo race with ``seats`` and ``options``."""
    return GameRecord(id=1, guild_id=GUILD, channel_id=CHANNEL, game="solo",
                      status="finished", creator_id=ANN.user_id,
                      options={"target": "10", **options}, seed=1, seats=list(seats),
                      state=SoloRace().setup(1, len(seats), options), version=1)


def test_winning_against_the_game_itself_raises_the_rating_and_it_stays_fixed() -> None:
    won = rate({}, [Place(1, 1, True), Place(GAME_ITSELF, 2, False)])
    lost = rate({}, [Place(1, 2, False), Place(GAME_ITSELF, 1, True)])
    assert set(won) == set(lost) == {1}                  # the game itself is never rated
    assert won[1].shown > 0 > lost[1].shown
    again = rate(won, [Place(1, 1, True), Place(GAME_ITSELF, 2, False)])
    assert again[1].mu > won[1].mu and (again[1].games, again[1].wins) == (2, 2)
    assert rate({GAME_ITSELF: Rating(mu=50.0)}, [Place(1, 1, True), Place(GAME_ITSELF, 2,
                                                  False)]) == won   # always a newcomer's


def test_the_ranking_of_a_record_depends_on_who_plays_and_the_options() -> None:
    ann, bob = SeatInfo(0, ANN.user_id, "Ann"), SeatInfo(1, BOB.user_id, "Bob")
    assert [key for key, _ in CATALOGUE.rankings()] == ["solo", "solo:slow", "solo:fast"]
    alone = record_of((ann, SeatInfo(1, None, "Rival")), {"rival": "fast"})
    assert CATALOGUE.ranking(alone) == "solo:fast"
    with_bob = record_of((ann, bob, SeatInfo(2, None, "Rival")), {"rival": "fast"})
    assert CATALOGUE.ranking(with_bob) == "solo"        # two members: the game's ranking
    with_ai = record_of((ann, SeatInfo(1, None, "AI")), {"rival": "none"})
    assert CATALOGUE.ranking(with_ai) == "solo"         # an AI seat is not the game itself


async def test_a_solo_game_counts_in_its_ladder_only(service: GameService) -> None:
    duel = await play_to_the_end(service, (ANN, BOB), {})
    between, _ = await service.results.player_stats(GUILD, ANN.user_id)
    assert set(between) == {"solo"}

    options = service.lobby.with_opponent("solo", {}, people=1, ai_seats=0, level=None)
    assert options["rival"] == "slow"                     # the level for one person
    slow = await play_to_the_end(service, (ANN,), options, channel=CHANNEL + 1)
    fast = await play_to_the_end(service, (ANN,), {"rival": "fast"}, channel=CHANNEL + 2)
    won = []
    for record in (slow, fast):
        outcome = service.core.outcome(record)
        assert outcome is not None
        won.append(outcome.seat_won(0))
    assert won[0]                                         # 2 a turn beats 1 a turn

    ratings, recent = await service.results.player_stats(GUILD, ANN.user_id)
    assert ratings["solo"] == between["solo"]             # the members' ranking untouched
    assert [ratings["solo:slow"].games, ratings["solo:fast"].games] == [1, 1]
    assert [bool(ratings["solo:slow"].wins), bool(ratings["solo:fast"].wins)] == won
    for key, did_win in zip(("solo:slow", "solo:fast"), won, strict=True):
        assert (ratings[key].shown > 0) == did_win        # rated against the game itself
        board = await service.results.leaderboard(GUILD, key)
        assert [(uid, r) for uid, _, r in board] == [(ANN.user_id, ratings[key])]
    assert len(recent) == 3
    members = await service.results.leaderboard(GUILD, "solo")
    assert sorted(uid for uid, _, _ in members) == [ANN.user_id, BOB.user_id]
    assert all(r.games == 1 for _, _, r in members) and duel.status == "finished"
    with pytest.raises(ServiceError) as refused:           # a clear refusal, not a crash
        await service.results.leaderboard(GUILD, "solo:nobody")
    assert "solo:nobody" in translate(refused.value.reason, "en")


def test_mesopotamia_ranks_each_solo_mode_and_difficulty_apart() -> None:
    """The Siege of Ur and the Guardians of Assur have their ladder whatever the ``automaton``
    option the lobby filled in; the Duel of Kings one per difficulty; each ladder is named in
    both languages."""
    from host.registry import CATALOGUE as HOSTED
    engine = HOSTED.engine("mesopotamia")
    ann, its = SeatInfo(0, ANN.user_id, "Ann"), SeatInfo(1, None, "Automaton")
    for options, ranking in (({"mode": "siege", "automaton": "igigi"}, "mesopotamia:siege"),
                             ({"mode": "guardians", "automaton": "emperor"},
                              "mesopotamia:guardians"),
                             ({"automaton": "anunnaki"}, "mesopotamia:duel-anunnaki"),
                             ({"mode": "duel", "automaton": "emperor"},
                              "mesopotamia:duel-emperor")):
        record = GameRecord(id=1, guild_id=GUILD, channel_id=CHANNEL, game="mesopotamia",
                            status="finished", creator_id=ANN.user_id, options=options, seed=1,
                            seats=[ann, its], state=engine.setup(1, 2, options), version=1)
        assert HOSTED.ranking(record) == ranking, options
    ladders = {ladder.key: ladder for ladder in engine.meta.ladders}
    assert translate(ladders["guardians"].name, "en") == \
        "Mesopotamia alone: the Guardians of Assur"
    french = translate(ladders["guardians"].name, "fr")
    assert french.replace("\u202f", " ").replace("\u00a0", " ") == \
        "Mesopotamia en solo : les Gardiens d'Assur"
