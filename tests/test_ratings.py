"""Ratings and results of finished games (issue "What players found": ratings and
history, per server and game, multiplayer-aware, with openskill)."""

from __future__ import annotations

from bot.ratings import Place, Rating, rate
from bot.records import GameRecord, Player
from tests.test_session import ANN, BOB, CID, GUILD, Env, current_user, started
from tests.test_session import env as env  # the shared fixture

NEW = Rating()


def test_the_winner_gains_the_losers_lose_and_ties_share() -> None:
    after = rate({}, [Place(1, 1, True), Place(2, 2, False), Place(3, 2, False)])
    assert after[1].shown > 0 > after[2].shown == after[3].shown
    assert after[1].sigma < NEW.sigma                   # a game makes the estimate surer
    assert (after[1].games, after[1].wins, after[2].wins) == (1, 1, 0)


def test_beating_a_strong_player_is_worth_more_than_beating_a_newcomer() -> None:
    strong = Rating(mu=35.0, sigma=3.0, games=40, wins=30)
    upset = rate({2: strong}, [Place(1, 1, True), Place(2, 2, False)])
    expected = rate({}, [Place(1, 1, True), Place(2, 2, False)])
    assert upset[1].mu - NEW.mu > expected[1].mu - NEW.mu
    assert upset[2].games == 41 and upset[2].wins == 30


def test_alone_or_together_only_the_record_moves() -> None:
    alone = rate({}, [Place(1, 1, True)])
    assert (alone[1].mu, alone[1].sigma, alone[1].games, alone[1].wins) == (
        NEW.mu, NEW.sigma, 1, 1)
    both = rate({}, [Place(1, 1, True), Place(2, 1, True)], together=True)
    assert both[1].mu == both[2].mu == NEW.mu and both[2].wins == 1


async def play_out(env: Env, record: GameRecord) -> GameRecord:
    """Play a toy race to its end (every seat adds 1 then ends, the AI too)."""
    while True:
        await env.service.autoplay.play_seats(record.id)
        record = await env.service.core.get_by_id(record.id) or record
        if record.status != "running":
            return record
        user = current_user(record)
        await env.service.turns.play(record.channel_id, user, "add 1")
        record = (await env.service.turns.play(record.channel_id, user, "end")).record


async def finish(env: Env, players: tuple[Player, ...] = (ANN, BOB, CID), ai: int = 0) -> int:
    """The id of a toy race played to its end."""
    return (await play_out(env, await started(env.service, players, ai=ai))).id


async def test_a_finished_game_is_recorded_once_with_its_ranking(env: Env) -> None:
    game_id = await finish(env)
    record = await env.service.core.get_by_id(game_id)
    assert record is not None and record.status == "finished"
    outcome = env.service.core.outcome(record)
    assert outcome is not None
    assert await env.service.results.record_result(game_id)
    assert not await env.service.results.record_result(game_id)          # never twice
    board = await env.service.results.leaderboard(GUILD, "race")
    winner = record.seats[outcome.winners[0]].user_id
    assert len(board) == 3 and board[0][0] == winner and board[0][2].wins == 1
    assert [r.games for _, _, r in board] == [1, 1, 1]
    ratings, recent = await env.service.results.player_stats(GUILD, winner or 0)
    assert ratings["race"].shown > 0 and recent[0][1:4] == ("race", 1, 3)


async def test_ai_seats_are_not_rated_and_missed_results_are_caught_up(env: Env) -> None:
    game_id = await finish(env, (ANN, BOB), ai=1)
    assert await env.service.results.record_missing_results() == 1      # as the scheduler does
    assert await env.service.results.record_missing_results() == 0
    board = await env.service.results.leaderboard(GUILD, "race")
    assert sorted(uid for uid, _, _ in board) == [ANN.user_id, BOB.user_id]
    rows = await env.store._fetchall("SELECT seat, user_id FROM results WHERE game_id = ?",
                                     (game_id,))
    assert len(rows) == 3 and sum(1 for _, uid in rows if uid is None) == 1


async def test_a_resigned_player_is_rated_last(env: Env) -> None:
    record = await started(env.service, (ANN, BOB, CID))
    await env.service.admin.resign(record.channel_id, ANN.user_id)
    record = await play_out(env, record)
    assert await env.service.results.record_result(record.id)
    _, recent = await env.service.results.player_stats(GUILD, ANN.user_id)
    assert recent[0][2] == 3
