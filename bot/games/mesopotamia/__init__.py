"""Mesopotamia (seed 004) for 2 to 4 players: Dingir dice, technologies, events, Gardens.

The rules engine is written from the French rulebook and the contents designed for this
project in ``data/mesopotamia`` (map, cards, tiles, tokens, rulings). This first slice holds
the data and the whole setup of the multiplayer base game; the rounds come next.
"""
