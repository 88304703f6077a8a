"""Mesopotamia's solo mode « Gardiens d'Assur » (seed 004, pp. 52-53): survive six waves.

The enemy is a seat that is no player (the last one): :mod:`.mode` sets it up, launches its
waves (``data/mesopotamia/guardians.json``), marches its units after your turn (its one step,
``advance``; the way of each unit: :mod:`.routes`) and ends the game; :mod:`.news` tells the
channel what it did. Its combats are « COMBAT EN SOLO » (:mod:`bot.games.mesopotamia.solo`)
without retreat. Rulings: ``R-guard-*`` in ``data/mesopotamia/RULINGS.md``.
"""
