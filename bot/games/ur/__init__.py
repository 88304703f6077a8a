"""Ur (Paolo Mori, 2006): a pure rules engine for 3-4 players.

Modules (the same names in every game package, see ``bot/games/README.md``, and Ur's own
``board``, ``notation`` and ``scoring``):

- ``board``: components (loaded once from ``data/ur/components.json``), cell
  names, adjacency, and the seeded construction of the starting grid.
- ``notation``: the step grammar (``war B3>C3 move 2`` ...), parse and format.
- ``state``: the state layout (``UrState``, a ``TypedDict`` of flat lists), setup, shared
  queries, prompts.
- ``checks``: whether a step is legal, and the rule it breaks if not.
- ``options``: the legal steps of the current step, generated directly.
- ``effects``: what a step does, and the automatic parts of the turn.
- ``scoring``: exact best partition of tiles into sets (``score_sets``).
- ``texts``: the labels of the steps; ``narration``: what a step did (reports).
- ``view``: the public view (documented there) and its inverse (``determinize``).
- ``heuristic``: the AI's judgement of a position.
- ``engine``: ``GAME``, the object the core drives (``bot.engine.Game``).

Rulings on ambiguous points are listed in ``data/ur/RULINGS.md``.
"""
