"""Civilizations (seed 003), a quiz and set-collection card game for 3-6 players.

A turn (``step`` ``act``): any number of free steps (place cards on a territory, add a
wild card, offer a placed card of a contested territory for sale to its controller,
who answers ``pay`` or ``refuse``; play a Bonus card) and exactly
one of the four actions of the rulebook (two with the Caravan): ``draw``; ``trade N
CIV`` then ``offer CARD`` (player N answers ``give CARD`` or ``decline``); ``buy N
CIV`` (player N answers ``accept CARD`` or ``refuse``); ``challenge N`` then ``pick K``
(the K-th card of N's hand, unseen) and ``answer 1-4`` or ``skip`` on the clock, which
ends the turn. Then ``end``. Seats are 1-based in the notation. Every rule here is
cited in ``data/civsets/RULINGS.md``.

Modules (the same names in every game package, see ``bot/games/README.md``):

- ``state``: the state's shape (``CivsetsState``, a ``TypedDict``), setup and the shared
  queries.
- ``options``: the legal steps now; ``checks``: why a step is refused.
- ``effects``: what a step does.
- ``texts``: labels, choices and prompts; ``narration``: what a step did (reports).
- ``view``: what each seat sees, ``determinize``, ``secrets``; ``heuristic``: the AI's
  judgement.
- ``engine``: ``GAME``, the object the core drives (``bot.engine.Game``).
- ``cards``: the cards, questions and Bonus cards (``data/civsets``).
"""
