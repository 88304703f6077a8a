"""The Automaton of Mesopotamia's solo mode « Duel des rois » (seed 004, pp. 44-49).

A seat that is no player: it acts by two decks, Strategy and Action (:mod:`.cards`, data in
``data/mesopotamia/automaton``). :mod:`.priorities` reads a Strategy card's condition,
:mod:`.deck` runs its turn (draws, priorities, assignment, bonus, end of turn) inside the
engine's state, :mod:`.play` names the engine steps it takes, :mod:`.explain` says why, and
:mod:`.solo_combat` is « COMBAT EN SOLO » (its steps in the engine:
:mod:`bot.games.mesopotamia.solo`). Rulings: ``R-auto-*`` and ``R-solo-*`` in
``data/mesopotamia/RULINGS.md``.
"""
