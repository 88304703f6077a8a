"""Mesopotamia (seed 004) for 2 to 4 players: Dingir dice, technologies, events, Gardens.

The rules engine is written from the French rulebook and the contents designed for this
project in ``data/mesopotamia`` (map, cards, tiles, tokens, rulings): the whole base game
for 2 to 4 players, from the setup to the final score.

Modules (the same names in every game package, see ``bot/games/README.md``):

- ``state``: the state's shape (``MesopotamiaState``, a ``TypedDict``) and the shared
  queries (the setup is ``setup``'s).
- ``options``: the legal steps now; ``checks``: why a step is refused.
- ``effects``: what a step does (through the module of the setup or of the phase under
  way).
- ``texts``: labels, choices and prompts; ``narration``: what a step did (reports).
- ``view``: what each seat sees, ``determinize``, ``secrets``; ``heuristic``: the AI's
  judgement.
- ``engine``: ``GAME``, the object the core drives (``bot.engine.Game``).
- ``data``: the designed contents (``data/mesopotamia``); the setup and the rounds:
  ``setup``, ``turn`` (the action phase and its actions: ``actions``, ``exploration``,
  ``construction``, ``trade``), ``events``, ``battles`` (with ``combat``, ``bids``,
  ``standard``), ``rounds`` (the end of a round), ``scoring``; ``focus`` (the regions a step
  changed) and ``words`` (shared wording).
"""
