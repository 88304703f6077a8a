"""Dingir's tests. The test games (:mod:`tests.toy_game`, :mod:`tests.bazaar`) bring their
words in ``tests/locales``, read whenever a test module is imported (and by a bot that
hosts a test game with ``DINGIR_EXTRA_GAMES``)."""

from pathlib import Path

from bot.i18n import add_catalogues

add_catalogues(Path(__file__).resolve().parent / "locales")
