"""A Civilizations game brought, by legal steps, to a moment where everything can happen.

:func:`prepared_log` plays a 3-player game from a seed with a script (Ann buys and
draws Greek cards and places them, keeping the last one; she starts the Romans; Bob
keeps four Roman cards in hand; everybody else draws) until Ann is to play with one
Greek card (or a few) in hand to complete the set. :func:`prepare` plays that log through
the game service into the bot's database (a running game with hidden hands cannot be
imported), and the end-to-end test plays the rest through Discord: the set completed, the
territory contested, swaps, challenges and a purchase.
"""

from __future__ import annotations

from pathlib import Path

from bot.clock import Clock
from bot.engine import State
from bot.games.civsets.cards import CARDS, CIV_CARDS
from bot.games.civsets.engine import GAME
from bot.games.civsets.state import holding, placed
from bot.records import Player
from bot.service import GameService
from bot.store import open_store
from host import registry

TARGET, CONTESTED = "greeks", "romans"
MAX_STEPS = 3000


def _ready(state: State) -> bool:
    """Ann to play, the twelve Greek cards hers (some still in hand), her Romans placed,
    four Roman cards in Bob's hand."""
    held = len(holding(state, 0, TARGET))
    return (state["current"] == 0 and state["step"] == "act" and state["actions"] == 1
            and len(placed(state, 0, TARGET)) + held == 12 and held >= 1
            and len(placed(state, 0, TARGET)) >= 4
            and len(placed(state, 0, CONTESTED)) >= 4
            and len(holding(state, 1, CONTESTED)) >= 4 and not state["over"])


def _ann(state: State, steps: list[tuple[int, str]]) -> State:
    greeks = len(placed(state, 0, TARGET)) + len(holding(state, 0, TARGET))
    legal = [a.notation for a in GAME.legal(state, 0)]
    for civ in (TARGET, CONTESTED):
        if f"place {civ}" in legal and not (civ == TARGET and greeks == 12):
            state = _step(state, 0, f"place {civ}", steps)
    legal = [a.notation for a in GAME.legal(state, 0)]
    for civ in (TARGET, CONTESTED):
        wanted = 12 if civ == TARGET else 4
        held = len(placed(state, 0, civ)) + len(holding(state, 0, civ))
        sellers = [s for s in (1, 2) if holding(state, s, civ)
                   and not (civ == CONTESTED and s == 1)]
        if held < wanted and sellers and f"buy {sellers[0] + 1} {civ}" in legal:
            state = _step(state, 0, f"buy {sellers[0] + 1} {civ}", steps)
            card = holding(state, sellers[0], civ)[0]
            state = _step(state, sellers[0], f"accept {card}", steps)
            return _step(state, 0, "end", steps)
    return _pass(state, 0, 2, steps)


def _pass(state: State, seat: int, rival: int, steps: list[tuple[int, str]]) -> State:
    """Draw and end; with nothing to draw, challenge ``rival`` and miss on purpose."""
    legal = [a.notation for a in GAME.legal(state, seat)]
    if "draw" in legal:
        state = _step(state, seat, "draw", steps)
        return _step(state, seat, "end", steps)
    if f"challenge {rival + 1}" in legal:
        state = _step(state, seat, f"challenge {rival + 1}", steps)
        state = _step(state, seat, "pick 1", steps)
        return _step(state, seat, "skip", steps)
    return _step(state, seat, "end", steps)


def _step(state: State, seat: int, notation: str, steps: list[tuple[int, str]]) -> State:
    steps.append((seat, notation))
    return GAME.apply(state, seat, notation)


def prepared_log(seed: int, options: dict[str, str]) -> tuple[State, list[tuple[int, str]]]:
    """The state and log of the scripted game from ``seed`` once it is ready (see the
    module docstring); ValueError if this seed never gets there."""
    state = GAME.setup(seed, 3, options)
    steps: list[tuple[int, str]] = []
    while len(steps) < MAX_STEPS and not state["over"]:
        if _ready(state):
            return state, steps
        seat = state["current"]
        state = _ann(state, steps) if seat == 0 else _pass(state, seat, 3 - seat, steps)
    raise ValueError(f"seed {seed} never gets ready")


def first_ready(options: dict[str, str]) -> tuple[int, State, list[tuple[int, str]]]:
    """The first seed whose scripted game gets ready, its state and its log."""
    for seed in range(1, 500):
        try:
            return seed, *prepared_log(seed, options)
        except ValueError:
            continue
    raise ValueError("no seed gets ready")


async def prepare(db_path: Path, clock: Clock, guild_id: int, channel_id: int,
                  players: list[Player], options: dict[str, str]) -> State:
    """Open, start and play the prepared game (:func:`first_ready`) in ``channel_id``
    through the game service, as ``players`` (seated in that order) would have; the bot
    then finds it in its database at ``db_path``. Its state."""
    seed, state, steps = first_ready(options)
    store = await open_store(db_path)
    try:
        service = GameService(store, clock, seed_source=lambda: seed,
                              catalogue=registry.CATALOGUE)
        await service.lobby.create(guild_id, channel_id, players[0], GAME.meta.id, options)
        for player in players[1:]:
            await service.lobby.join(channel_id, player)
        await service.lobby.start(channel_id, players[0].user_id, list(range(len(players))))
        for seat, notation in steps:
            await service.turns.play(channel_id, players[seat].user_id, notation)
        record = await service.core.get(channel_id)
        assert record is not None and record.state == state
    finally:
        await store.close()
    return state


def answer_of(card: str) -> int:
    """The 1-based right answer of a Civilization card."""
    assert card in CIV_CARDS
    return CARDS[card].answer + 1
