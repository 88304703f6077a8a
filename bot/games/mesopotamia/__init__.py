"""Mesopotamia (seed 004) for 2 to 4 players: Dingir dice, technologies, events, Gardens.

The rules engine is written from the French rulebook and the contents designed for this
project in ``data/mesopotamia`` (map, cards, tiles, tokens, rulings): the whole base game
for 2 to 4 players, from the setup to the final score.
"""
