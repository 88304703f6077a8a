"""``/ur ...``: typed commands for the Ur steps that read better with named options.

Each command only writes the step's notation and plays it exactly like ``/play``
(same checks, same private panel or refusal).
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.games.ur.board import FACES
from cogs.common import Guarded, Interaction, loc
from cogs.play import play_typed
from host.client import DingirBot

Cell = app_commands.Range[str, 2, 2]
Count = app_commands.Range[int, 0, 9]


def cell(name: str) -> str:
    """A cell name as the notation writes it (``b3`` -> ``B3``)."""
    return name.strip().upper()


@app_commands.guild_only()
class Ur(Guarded, commands.GroupCog, group_name=loc("discord.cmd.ur.name"),
         group_description=loc("discord.cmd.ur.description")):
    """The ``/ur`` command group."""

    def __init__(self, bot: DingirBot) -> None:
        self.bot = bot
        super().__init__()


    @app_commands.command(name=loc("discord.cmd.ur.place.name"),
                          description=loc("discord.cmd.ur.place.description"))
    @app_commands.rename(at=loc("discord.cmd.ur.cell.name"))
    @app_commands.describe(at=loc("discord.cmd.ur.cell.description"))
    async def place(self, interaction: Interaction, at: Cell) -> None:
        """Place a token (placement round, or a turn without tokens on the board)."""
        await play_typed(interaction, f"place {cell(at)}")

    @app_commands.command(name=loc("discord.cmd.ur.war.name"),
                          description=loc("discord.cmd.ur.war.description"))
    @app_commands.rename(source=loc("discord.cmd.ur.from.name"),
                         target=loc("discord.cmd.ur.to.name"),
                         move=loc("discord.cmd.ur.count.name"))
    @app_commands.describe(source=loc("discord.cmd.ur.from.description"),
                           target=loc("discord.cmd.ur.to.description"),
                           move=loc("discord.cmd.ur.count.description"))
    async def war(self, interaction: Interaction, source: Cell, target: Cell,
                  move: Count) -> None:
        """Attack a neighbouring tile, then move tokens in."""
        await play_typed(interaction, f"war {cell(source)}>{cell(target)} move {move}")

    @app_commands.command(name=loc("discord.cmd.ur.politics.name"),
                          description=loc("discord.cmd.ur.politics.description"))
    @app_commands.rename(source=loc("discord.cmd.ur.from.name"),
                         target=loc("discord.cmd.ur.to.name"),
                         count=loc("discord.cmd.ur.count.name"))
    @app_commands.describe(source=loc("discord.cmd.ur.from.description"),
                           target=loc("discord.cmd.ur.to.description"),
                           count=loc("discord.cmd.ur.count.description"))
    async def politics(self, interaction: Interaction, source: Cell, target: Cell,
                       count: Count) -> None:
        """Move some of your tokens between your tiles."""
        await play_typed(interaction, f"politics {cell(source)}>{cell(target)} {count}")

    @app_commands.command(name=loc("discord.cmd.ur.exchange.name"),
                          description=loc("discord.cmd.ur.exchange.description"))
    @app_commands.rename(tile=loc("discord.cmd.ur.tile.name"),
                         face=loc("discord.cmd.ur.face.name"))
    @app_commands.describe(tile=loc("discord.cmd.ur.tile.description"),
                           face=loc("discord.cmd.ur.face.description"))
    @app_commands.choices(face=[Choice(name=loc(f"ur.face.{f}"), value=f) for f in FACES])
    async def exchange(self, interaction: Interaction, tile: app_commands.Range[str, 2, 5],
                       face: str) -> None:
        """Take a free tile (or the spare one) into your hand, showing the chosen face."""
        where = "spare" if tile.strip().lower() == "spare" else cell(tile)
        await play_typed(interaction, f"exchange {where} face {face}")

    @app_commands.command(name=loc("discord.cmd.ur.end.name"),
                          description=loc("discord.cmd.ur.end.description"))
    async def end(self, interaction: Interaction) -> None:
        """End your turn."""
        await play_typed(interaction, "end")


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    assert isinstance(bot, DingirBot)
    await bot.add_cog(Ur(bot))
