"""What an Ur step did, as the channel reads it: a sentence in the third person.

Ur hides nothing, so the report is public. It says what the player did ("places a token on
A5", "attacks F4 from E4 and moves 5 tokens in"); the counts of tokens and the points are on
the board picture, which marks the tiles the turn changed. Stopping an action and ending the
turn go without saying, as does an Agriculture tile left without a new token.
"""

from __future__ import annotations

from bot.engine import Action, Report, Text

QUIET = frozenset({"bonus_done", "war_done", "politics_done", "ziggurat_done", "end"})
"""The labels of the steps that go without saying."""


def report(action: Action) -> Report:
    """The step told in the third person: the label's words, said of the player."""
    kind = action.label.key.removeprefix("ur.act.")
    args = action.label.kwargs
    quiet = kind in QUIET or (kind == "agriculture" and args.get("n") == 0)
    return Report(Text("ur.did." + kind, action.label.args), quiet=quiet)
