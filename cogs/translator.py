"""Localised command names, descriptions and choices, from the message catalogue.

Every command string is a ``locale_str`` whose ``key`` extra names a catalogue
entry (see :func:`cogs.common.loc`); for each Discord locale that maps to one of
our languages other than English, the translation is that entry.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import DEFAULT_LANGUAGE, catalogue
from cogs.common import language, on_tree_error


class CatalogueTranslator(app_commands.Translator):
    """Translates command strings through ``data/locales/<lang>/*.json``."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalogue entry of ``string``'s key in ``locale``'s language, or None."""
        key = string.extras.get("key")
        lang = language(locale, DEFAULT_LANGUAGE)
        if key is None or lang == DEFAULT_LANGUAGE:
            return None
        value = catalogue(lang).get(key)
        return value if isinstance(value, str) else None


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: translate the commands and answer errors outside the cogs."""
    await bot.tree.set_translator(CatalogueTranslator())
    bot.tree.error(on_tree_error)
