"""The words of the Mesopotamia setup: each step's label, what a step did and what a panel
asks. Only :class:`~bot.engine.Text` values: the catalogue holds the words
(``data/locales/<lang>/mesopotamia.json``).
"""

from __future__ import annotations

from bot.engine import Action, Prompt, Report, Seat, State, Text, TextArg, seat_ref
from bot.games.mesopotamia import data as D

GROUPS = {"role": "role", "empire": "empire", "start": "region", "die": "bonus",
          "colony": "bonus", "decline": "bonus", "return": "quest"}


def _t(key: str, **args: TextArg) -> Text:
    return Text.of(f"mesopotamia.{key}", **args)


def label(notation: str) -> Text:
    """How a step reads in the panel, in autocomplete and in the log of its own seat."""
    verb, *args = notation.split()
    if verb == "role":
        return _t("act.role", role=args[0].upper())
    if verb == "empire":
        return _t("act.empire", empire=D.empire_name(args[0]))
    if verb == "start":
        number = D.REGIONS[args[0]].start or 0
        return _t("act.start", region=D.region_name(args[0]), n=number)
    if verb == "die":
        return _t("act.die", colour=D.colour_name(args[0]))
    if verb == "colony":
        return _t("act.colony", region=D.region_name(args[0]))
    if verb == "decline":
        return _t("act.decline")
    return _t("act.return", quest=D.quest_name(args[0]))


def action(notation: str) -> Action:
    """The :class:`Action` of a notation."""
    return Action(notation, label(notation), GROUPS[notation.split()[0]])


def _public(notation: str) -> Text:
    """What everyone may read of a step: a returned quest card is not named."""
    return _t("act.returned") if notation.startswith("return ") else label(notation)


def report(seat: Seat, notation: str, after: State) -> Report:
    """What the step did: its label, then the steps that were forced after it, and the deal
    or the end of the setup when it brought them."""
    forced = tuple(_t("report.forced", who=seat_ref(s), step=label(n))
                   for s, n in after["log"])
    extra: tuple[Text, ...] = forced
    if after["phase"] == "quests" and not notation.startswith("return "):
        extra += (_t("report.dealt", n=D.QUEST_DEALT),)
    if after["phase"] == "ready":
        extra += (_t("report.ready"),)
    if not extra:
        return Report(_public(notation), ((seat, label(notation)),))
    return Report(_t("report.then", step=_public(notation), then=extra),
                  ((seat, _t("report.then", step=label(notation), then=extra)),))


def prompt(state: State, seat: Seat) -> Prompt | None:
    """What ``seat``'s decision asks."""
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "roles":
        return Prompt(_t("prompt.role"))
    if phase == "empires":
        return Prompt(_t("prompt.empire", role=str(player["role"]).upper()))
    if phase == "regions":
        return Prompt(_t("prompt.start", empire=D.empire_name(player["empire"])))
    if phase == "bonus":
        return Prompt(_t(f"prompt.{state['bonus'][0][1]}"))
    if phase == "quests" and state["quests"]["returned"][seat] is None:
        cards = tuple(_t("quest_line", quest=D.quest_name(q), text=D.quest_text(q))
                      for q in state["quests"]["hands"][seat])
        return Prompt(_t("prompt.quests", kept=D.QUEST_KEPT, cards=cards))
    return None

