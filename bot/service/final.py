"""The end-of-game text, one for every front end."""

from __future__ import annotations

from bot.engine import Outcome, Text, seat_ref

FINAL_KEYS = ("game_over", "rank_line", "winners", "together_won", "together_lost",
              "tiebreak", "detail_line", "detail")
"""The lines of the text, each a catalogue key in every front end's section."""


def final_lines(outcome: Outcome, section: str) -> list[Text]:
    """The end of a game, a :class:`Text` a line: the heading; the ranking with the scores
    (ties share a place; a non-player side such as an automaton ranked among the players);
    the shared result, or the winners; the tie-break; the details (one line a player, best
    first, when the game gives one a player). ``section`` is the catalogue section holding
    the front end's wording of :data:`FINAL_KEYS` (``"discord"``, ``"local"``)."""
    lines = [Text.of(f"{section}.game_over")]
    place = 1
    for group in outcome.ranking:
        lines += [Text.of(f"{section}.rank_line", place=place, name=_entry(outcome, entry),
                          n=outcome.scores[entry]) for entry in group]
        place += len(group)
    if outcome.together is not None:
        lines.append(Text.of(f"{section}.together_{outcome.together}",
                             n=outcome.team_score if outcome.team_score is not None else "-"))
    else:
        lines.append(Text.of(f"{section}.winners", n=len(outcome.winners), names=Text.list_and(
            [_entry(outcome, entry) for entry in outcome.winners])))
    if outcome.tiebreak is not None:
        lines.append(Text.of(f"{section}.tiebreak", reason=outcome.tiebreak))
    if len(outcome.details) == outcome.n_seats:
        lines += [Text.of(f"{section}.detail_line", name=seat_ref(seat),
                          detail=outcome.details[seat])
                  for group in outcome.ranking for seat in group if seat < outcome.n_seats]
    else:
        lines += [Text.of(f"{section}.detail", detail=detail) for detail in outcome.details]
    return lines


def _entry(outcome: Outcome, entry: int) -> Text:
    """A ranked entry: a seat (its player's name), or a non-player side's name."""
    side = outcome.side(entry)
    return side if side is not None else seat_ref(entry)
