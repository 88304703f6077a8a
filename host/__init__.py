"""What hosts the games: the catalogue of hosted games (engines, renderers, scripted
opponents, Discord extensions), the Discord client, the scheduler of reminders and clocks,
and the worker processes that draw and search."""
