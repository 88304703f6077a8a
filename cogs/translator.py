"""Localised command names, descriptions and choices, from the message catalogue.

Every command string is a ``locale_str`` whose ``key`` extra names a catalogue
entry (see :func:`cogs.common.loc`); for each Discord locale that maps to one of
our languages other than English, the translation is that entry.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LANGUAGE, catalogue
from cogs.common import language


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
