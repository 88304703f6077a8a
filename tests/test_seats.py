"""Handing a seat to another member or to the AI (``/game replace``)."""

from __future__ import annotations

import pytest

from bot.records import Player, ServiceError
from tests.test_session import ANN, BOB, CHANNEL, CID, GUILD, Env, reason, started
from tests.test_session import env as env  # the shared fixture

DAN = Player(40, "Dan")


async def test_the_creators_seat_handed_over_passes_control(env: Env) -> None:
    record = await started(env.service, (ANN, BOB, CID))
    seat = next(s.seat for s in record.seats if s.user_id == ANN.user_id)
    new, old = await env.service.replace_seat(CHANNEL, ANN.user_id, False, seat, DAN)
    assert old.user_id == ANN.user_id and new.seats[seat].user_id == DAN.user_id
    assert new.creator_id == DAN.user_id and new.version == record.version + 1
    assert await env.service.my_games(GUILD, ANN.user_id) == []
    with pytest.raises(ServiceError) as error:           # Ann has no say any more
        await env.service.replace_seat(CHANNEL, ANN.user_id, False, seat, ANN)
    assert reason(error) == "service.replace_forbidden"


async def test_a_seat_goes_to_the_ai_named_like_ai_seats(env: Env) -> None:
    record = await started(env.service, (ANN, BOB), ai=1)
    seat = next(s.seat for s in record.seats if s.user_id == BOB.user_id)
    new, _ = await env.service.replace_seat(CHANNEL, 0, True, seat, None)   # an admin
    assert new.seats[seat].user_id is None and new.seats[seat].name == "AI 2"
    assert env.service.is_ai(new, seat)


async def test_bad_seats_members_and_lobbies_are_refused(env: Env) -> None:
    await env.service.create(GUILD, CHANNEL, ANN, "race", {})
    with pytest.raises(ServiceError) as error:
        await env.service.replace_seat(CHANNEL, ANN.user_id, False, 0, DAN)
    assert reason(error) == "service.replace_not_running"
    await env.service.join(CHANNEL, BOB)
    record = await env.service.start(CHANNEL, ANN.user_id)
    for seat, player, key in ((5, DAN, "service.replace_bad_seat"),
                              (0, BOB, "service.replace_seated")):
        with pytest.raises(ServiceError) as error:
            await env.service.replace_seat(CHANNEL, ANN.user_id, False, seat, player)
        assert reason(error) == key
    assert (await env.service.get(CHANNEL) or record).version == record.version
