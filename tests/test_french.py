"""French as the catalogue writes it: one spacing rule before ; : ! ? and inside « »
(a no-break space, in every French text), and elisions before a name or a word put in a
template (« la main d'Alice », « partie d'Ur »)."""

from __future__ import annotations

import re
import string

from bot.i18n import catalogue, tr

PLAIN_SPACE = re.compile(r" [;:!?»]|« ")


def fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def test_every_french_text_has_no_breaking_space_before_its_punctuation() -> None:
    wrong = []
    for key, template in catalogue("fr").items():
        forms = template.values() if isinstance(template, dict) else [template]
        for n, form in enumerate(forms):
            args = {name: 1 for name in fields(form)}       # numbers fit every field
            text = tr("fr", key, **{**args, "n": n})
            if PLAIN_SPACE.search(text):
                wrong.append((key, text))
    assert not wrong
    assert tr("fr", "discord.question", mention="@a", prompt="Quoi ?") == "❓ @a\u00a0: Quoi\u00a0?"


def test_a_name_after_de_or_que_is_elided() -> None:
    assert tr("fr", "discord.aborted", game="Ur", name="Bob") == \
        "🛑 La partie d'Ur a été annulée par Bob."
    assert tr("fr", "discord.skipped", name="Alice") == "⏭️ Le tour d'Alice est passé par vote."
    assert tr("fr", "discord.skipped", name="Éloïse").startswith("⏭️ Le tour d'Éloïse")
    assert tr("fr", "discord.skipped", name="Bob") == "⏭️ Le tour de Bob est passé par vote."
    assert tr("en", "discord.skipped", name="Alice").startswith("⏭️ Alice")
    opened = tr("fr", "discord.lobby", creator="@a", game="Après le Déluge", players="3",
                seats="a", n=1)
    assert "une partie d'**Après le Déluge**" in opened, opened           # in bold too
