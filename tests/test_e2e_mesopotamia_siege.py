"""End to end: the Siege of Ur through the real bot and the local Discord stand-in (issue 27
§2). Ann opens ``/game new game:mesopotamia players:1 options:mode=siege`` (the lobby says
the Defenders' garrison takes the last seat), starts it and plays the first rounds like the
quick AI; the service plays the Defenders' seat, and each of their turns is posted under their
name with the two Action cards and what each did, in the server's language. Nothing Ann
received shows a secret she may not read, and the log replays to the stored state."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.mesopotamia.engine import GAME
from tests.contract import secret_texts
from tests.secret_scan import leaks, received
from tests.test_e2e_game import world
from tests.test_e2e_mesopotamia import open_alone, play_alone, replays_to, settled

pytestmark = pytest.mark.slow

SEED = 42
ROUNDS = 4
WORDS = {
    "en": {"lobby": "the Garrison of Ur (the rulebook's Defenders of Ur) takes the last seat"
                    " (Siege of Ur)",
           "turn": "🎲 **Garrison of Ur** reveals "},
    "fr": {"lobby": "la Garnison d'Ur (les Défenseurs d'Ur du livret) prend la dernière place"
                    " (Siège d'Ur)",
           "turn": "🎲 **Garnison d'Ur** révèle "},
}


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_one_person_besieges_ur(tmp_path: Path, lang: str) -> None:
    """The Defenders' turns posted in ``lang``, no secret leaked, the log replayed."""
    ours = WORDS[lang]
    async with world(tmp_path, seed=SEED, locale="fr" if lang == "fr" else "en-US") as w:
        ann = w.user("ann")
        created, now = await open_alone(w, ann, tmp_path, options="mode=siege")
        assert ours["lobby"] in created, created
        assert now.state["siege"]["seat"] == 1
        now = await play_alone(w, ann, tmp_path, now, lambda s: s.state["phase"] == "over"
                               or s.state.get("round", 0) >= ROUNDS, 300)

        lines = [line for m in w.posts() for line in m.text.split("\n")]
        theirs = [line for line in lines if line.startswith(ours["turn"])]
        assert len(theirs) >= ROUNDS - 1, lines[-30:]
        print("\n" + "\n".join(theirs[:3]))

        now = await settled(tmp_path)
        hidden = [secret for secret in GAME.secrets(now.state) if 0 not in secret.readers]
        forbidden = {text for secret in hidden for text in secret_texts(secret)}
        assert not leaks(received(w.fake, ann), forbidden)
        assert replays_to(tmp_path, now.state)["mode"] == "siege"
