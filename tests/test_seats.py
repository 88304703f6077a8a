"""Handing a seat to another member or to the AI (``/game replace``)."""

from __future__ import annotations

import pytest

from bot.records import Player, SeatHeld, ServiceError
from tests.test_session import ANN, BOB, CHANNEL, CID, GUILD, Env, reason, started, user_of
from tests.test_session import env as env  # the shared fixture

DAN = Player(40, "Dan")


async def test_the_creators_seat_handed_over_passes_control(env: Env) -> None:
    record = await started(env.service, (ANN, BOB, CID))
    seat = next(s.seat for s in record.seats if s.user_id == ANN.user_id)
    new, old = await env.service.admin.replace_seat(CHANNEL, ANN.user_id, False, seat, DAN)
    assert old.user_id == ANN.user_id and new.seats[seat].user_id == DAN.user_id
    assert new.creator_id == DAN.user_id and new.version == record.version + 1
    assert await env.service.members.my_games(GUILD, ANN.user_id) == []
    with pytest.raises(ServiceError) as error:           # Ann has no say any more
        await env.service.admin.replace_seat(CHANNEL, ANN.user_id, False, seat, ANN)
    assert reason(error) == "service.replace_forbidden"


async def test_a_seat_goes_to_the_ai_named_like_ai_seats(env: Env) -> None:
    record = await started(env.service, (ANN, BOB), ai=1)
    seat = next(s.seat for s in record.seats if s.user_id == BOB.user_id)
    new, _ = await env.service.admin.replace_seat(CHANNEL, 0, True, seat, None,   # an admin
                                                  player_left=True)
    assert new.seats[seat].user_id is None and new.seats[seat].name == "AI 2"
    assert env.service.core.is_ai(new, seat)


async def test_a_present_players_seat_stays_theirs(env: Env) -> None:
    """The creator (or an admin) cannot take the seat of a player who is there: not for
    another member, not for themselves, not for the AI; nothing changes."""
    record = await started(env.service, (ANN, BOB, CID))
    bob = next(s.seat for s in record.seats if s.user_id == BOB.user_id)
    for caller, admin, player in ((ANN.user_id, False, DAN), (0, True, DAN),
                                  (ANN.user_id, False, None)):
        with pytest.raises(SeatHeld) as error:
            await env.service.admin.replace_seat(CHANNEL, caller, admin, bob, player)
        assert error.value.reason.key == "service.replace_present"
        assert error.value.seat == bob and error.value.user_id == BOB.user_id
    assert (await env.service.core.get(CHANNEL) or record).version == record.version
    assert (await env.service.core.get(CHANNEL) or record).seats[bob].user_id == BOB.user_id


async def test_the_seats_own_player_hands_it_to_a_member_not_to_the_ai(env: Env) -> None:
    record = await started(env.service, (ANN, BOB, CID))
    bob = next(s.seat for s in record.seats if s.user_id == BOB.user_id)
    with pytest.raises(ServiceError) as error:
        await env.service.admin.replace_seat(CHANNEL, BOB.user_id, False, bob, None)
    assert reason(error) == "service.replace_own_to_ai"      # that is /game resign
    with pytest.raises(ServiceError) as error:               # not someone else's seat
        await env.service.admin.replace_seat(CHANNEL, BOB.user_id, False, (bob + 1) % 3, DAN)
    assert reason(error) == "service.replace_forbidden"
    new, old = await env.service.admin.replace_seat(CHANNEL, BOB.user_id, False, bob, DAN)
    assert old.user_id == BOB.user_id and new.seats[bob].user_id == DAN.user_id


async def test_a_seat_whose_turn_waited_past_the_limit_can_be_handed_over(env: Env) -> None:
    """Without a turn limit a player is absent after 72 hours of their own decision
    waiting; with one, after the limit; time away does not count; a player who is not
    to move is never absent by time."""
    record = await started(env.service, (ANN, BOB))
    waiting = record.active[0]
    idle = next(s.seat for s in record.seats if s.seat != waiting)
    env.clock.advance(71 * 3600)
    with pytest.raises(SeatHeld) as error:
        await env.service.admin.replace_seat(CHANNEL, 0, True, waiting, DAN)
    assert error.value.reason.kwargs["waited"] == 71 and error.value.reason.kwargs["limit"] == 72
    await env.service.members.set_away(user_of(record, waiting), env.clock.now() + 3600)
    env.clock.advance(2 * 3600)                     # 73 h, but away for the last hour...
    with pytest.raises(SeatHeld):
        await env.service.admin.replace_seat(CHANNEL, 0, True, waiting, DAN)
    env.clock.advance(72 * 3600)                    # ...72 h after coming back
    with pytest.raises(SeatHeld):                   # the other player is not to move
        await env.service.admin.replace_seat(CHANNEL, 0, True, idle, DAN)
    new, _ = await env.service.admin.replace_seat(CHANNEL, 0, True, waiting, DAN)
    assert new.seats[waiting].user_id == DAN.user_id


async def test_the_turn_limit_says_when_a_player_is_absent(env: Env) -> None:
    record = await started(env.service, (ANN, BOB))
    await env.service.admin.update_settings(CHANNEL, ANN.user_id, False, turn_limit_hours=5)
    waiting = record.active[0]
    env.clock.advance(4 * 3600)
    with pytest.raises(SeatHeld) as error:
        await env.service.admin.replace_seat(CHANNEL, ANN.user_id, False, waiting, DAN)
    assert error.value.reason.kwargs["limit"] == 5
    env.clock.advance(3600)
    new, _ = await env.service.admin.replace_seat(CHANNEL, ANN.user_id, False, waiting, DAN)
    assert new.seats[waiting].user_id == DAN.user_id


async def test_a_resigned_seat_can_be_handed_to_a_member(env: Env) -> None:
    record = await started(env.service, (ANN, BOB, CID))
    bob = next(s.seat for s in record.seats if s.user_id == BOB.user_id)
    await env.service.admin.resign(CHANNEL, BOB.user_id)
    new, _ = await env.service.admin.replace_seat(CHANNEL, ANN.user_id, False, bob, DAN)
    assert new.seats[bob].user_id == DAN.user_id and not new.seats[bob].resigned


async def test_bad_seats_members_and_lobbies_are_refused(env: Env) -> None:
    await env.service.lobby.create(GUILD, CHANNEL, ANN, "race", {})
    with pytest.raises(ServiceError) as error:
        await env.service.admin.replace_seat(CHANNEL, ANN.user_id, False, 0, DAN)
    assert reason(error) == "service.replace_not_running"
    await env.service.lobby.join(CHANNEL, BOB)
    record = await env.service.lobby.start(CHANNEL, ANN.user_id)
    for seat, player, key in ((5, DAN, "service.replace_bad_seat"),
                              (0, BOB, "service.replace_seated")):
        with pytest.raises(ServiceError) as error:
            await env.service.admin.replace_seat(CHANNEL, ANN.user_id, False, seat, player)
        assert reason(error) == key
    assert (await env.service.core.get(CHANNEL) or record).version == record.version
