"""After the Flood (Martin Wallace, 2008) for exactly 3 players: workers, trade, empires.

The rules engine is written from the French summary (seed 001) and the data designed for
this project in ``data/flood`` (map, tables, rulings).
"""
