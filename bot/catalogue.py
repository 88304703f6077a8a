"""What the front ends read of a game: they go through a :class:`Catalogue`, never to its
engine.

A record names its game; the catalogue reads it with the hosted game's engine, so a front
end needs no service object to word a record (the texts of a status, a lobby, a turn
message). The programs build the one catalogue of the hosted games and give it to the
service.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine import Action, Deadline, Game, GameMeta, Ladder, Prompt, Seat, State, Text
from bot.records import GameRecord
from bot.scripted import Script


def player_count(meta: GameMeta) -> Text:
    """How many play the game: "3-6 players", or "3 players" when the count is fixed (never
    "3-3 players")."""
    if meta.min_players == meta.max_players:
        return Text.of("core.players_exact", n=meta.min_players)
    return Text.of("core.players_range", min=meta.min_players, max=meta.max_players)


LEGAL_KEPT = 512
"""Decisions whose legal steps are remembered (the latest of the busiest games)."""


class Catalogue:
    """The hosted games: their engines by id and their own scripted opponents."""

    def __init__(self, engines: Mapping[str, Game], scripts: Sequence[Script] = ()) -> None:
        self.engines = dict(engines)
        self.scripts = tuple(scripts)
        self._legal: OrderedDict[tuple[int, Seat], tuple[State, list[Action]]] = OrderedDict()

    def legal(self, game: str, state: State, seat: Seat) -> list[Action]:
        """``seat``'s legal steps in ``state`` of ``game``. A decision is read several times
        (its panel, the press, the typed step's suggestions, the check of the seats left
        waiting) and some games weigh every step to say which ends the turn, so the last
        :data:`LEGAL_KEPT` are remembered, each with its state (a step never changes a
        state: it makes a new one)."""
        key = (id(state), seat)
        found = self._legal.get(key)
        if found is not None and found[0] is state:
            self._legal.move_to_end(key)
        else:
            found = self._legal[key] = (state, self.engine(game).legal(state, seat))
            while len(self._legal) > LEGAL_KEPT:
                self._legal.popitem(last=False)
        return list(found[1])

    def engine(self, game: str) -> Game:
        """The engine of the hosted game ``game`` (KeyError naming the known games)."""
        try:
            return self.engines[game]
        except KeyError:
            raise KeyError(f"unknown game {game!r}; known: {', '.join(self.games())}"
                           ) from None

    def games(self) -> list[str]:
        """The ids of the hosted games."""
        return sorted(self.engines)

    def opponent(self, record: GameRecord) -> tuple[Text, Text] | None:
        """The game's own opponent that ``record``'s options seat at the start: its name and
        its level's; None when they seat none."""
        for script in self.scripts:
            if script.game == record.game and script.seats(record.options):
                told = script.describe(record.options) if script.describe else None
                return told or (script.title,
                                dict(script.levels)[record.options[script.option]])
        return None

    def scripted_seat(self, record: GameRecord, seat: Seat) -> bool:
        """True when the game's own opponent plays ``seat`` of ``record`` (no member, no AI)."""
        return any(script.plays_seat(record, seat) for script in self.scripts)

    def scripted_name(self, record: GameRecord, seat: Seat) -> Text | None:
        """The name of ``seat`` of ``record`` when the game's own opponent plays it."""
        return next((script.seat_title if script.seat_name is None or record.state is None
                     else script.seat_name(record.state, seat)
                     for script in self.scripts if script.plays_seat(record, seat)), None)

    def ranking(self, record: GameRecord) -> str:
        """The ranking ``record``'s result counts in: its game's, or the game's solo ladder
        (``<game>:<ladder>``) when one member played it alone against the game's own
        opponent with that ladder's options."""
        members = [seat for seat, s in enumerate(record.seats) if s.user_id is not None]
        alone = len(members) == 1 and all(
            self.scripted_seat(record, seat)
            for seat in range(len(record.seats)) if seat not in members)
        ladder = self._ladder(record) if alone else None
        return record.game if ladder is None else f"{record.game}:{ladder.key}"

    def _ladder(self, record: GameRecord) -> Ladder | None:
        meta = self.meta(record.game)
        defaults = {spec.name: spec.default for spec in meta.options}
        chosen = {**defaults, **record.options}
        return next((ladder for ladder in meta.ladders
                     if all(chosen.get(name) == value for name, value in ladder.options)),
                    None)

    def rankings(self) -> list[tuple[str, Text]]:
        """Every ranking with its name: each game's, then its solo ladders."""
        return [(game, self.meta(game).name) for game in self.games()] + [
            (f"{game}:{ladder.key}", ladder.name)
            for game in self.games() for ladder in self.meta(game).ladders]

    def ranking_name(self, ranking: str) -> Text:
        """The name of ``ranking`` (:meth:`rankings`); KeyError for an unknown one."""
        try:
            return dict(self.rankings())[ranking]
        except KeyError:
            raise KeyError(f"unknown ranking {ranking!r}") from None

    def meta(self, game: str) -> GameMeta:
        """The description of ``game``: name, players, options, hidden information."""
        return self.engine(game).meta

    def view(self, record: GameRecord, seat: Seat | None = None) -> dict[str, Any]:
        """What ``seat`` may see of ``record`` now (None: the public)."""
        if record.state is None:
            raise ValueError(f"game {record.id} has no state yet")
        return self.engine(record.game).view(record.state, seat)

    def legal_steps(self, record: GameRecord, seat: Seat) -> list[Action]:
        """``seat``'s legal steps in ``record`` (none before the start)."""
        if record.state is None:
            return []
        return self.legal(record.game, record.state, seat)

    def prompt(self, record: GameRecord, seat: Seat) -> Prompt | None:
        """What ``seat``'s decision in ``record`` asks, when the game words it."""
        if record.state is None:
            return None
        return self.engine(record.game).prompt(record.state, seat)

    def deadline(self, record: GameRecord, seat: Seat) -> Deadline | None:
        """The clock of ``seat``'s decision in ``record`` and its default step, if any."""
        if record.state is None:
            return None
        return self.engine(record.game).deadline(record.state, seat)

    def standing(self, record: GameRecord) -> tuple[Text, ...]:
        """Each seat's standing so far (score, sets), as the game words it."""
        return () if record.state is None else self.engine(record.game).standing(record.state)
