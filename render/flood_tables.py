"""The After the Flood tables as one picture, so that players never need the rulebook.

Everything is read from ``data/flood`` (the designed tables) and written through the
catalogue: resource values, the Grain and Cloth tables, what each region trades, the
Empires table of the five rounds, buying and equipping armies, combat, extending an
empire, the city extension table, the seven city particularities and how points are
scored, on two pages (the economy; empires, war and points) so that each stays short enough
for a phone. The pictures depend only on the language, so each is drawn once.
They are 900 px wide, no text under 23 px (``render.draw.legible``), so a phone showing them
400 px wide still reads them; the colours are the board's (``render.flood``).
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.games.flood import data as D
from bot.i18n import tr, translate
from render import fonts
from render.draw import legible, png_bytes
from render.flood import BACKGROUND, BORDER, INK, MUTED, RES_COLOURS

WIDTH = 900
TEXT_MIN = legible(WIDTH)
MARGIN = 18
TITLE = 27
LINE = 31
SWATCH = 22
MAX_HEIGHT = 2400


def _wrap(text: str, width: float, bold: bool = False) -> list[str]:
    """``text`` cut into lines of at most ``width`` px at the smallest size."""
    face = fonts.font(TEXT_MIN, bold)
    lines: list[str] = []
    for word in fonts.clean_text(text, fonts.coverage(bold)).split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


class _Page:
    """A tall page written top to bottom."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.image = Image.new("RGB", (WIDTH, MAX_HEIGHT), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.y = float(MARGIN)

    def t(self, key: str, **args: str | int) -> str:
        return tr(self.lang, f"flood.tables.{key}", **args)

    def heading(self, key: str, **args: str | int) -> None:
        self.y += 8
        self.draw.line((MARGIN, self.y, WIDTH - MARGIN, self.y), fill=BORDER, width=2)
        self.y += 8
        self.draw.text((MARGIN, self.y), self.t(key, **args), font=fonts.font(TITLE, True),
                       fill=INK)
        self.y += TITLE + 10

    def para(self, text: str, x: float = MARGIN, colour: tuple[int, int, int] = INK) -> None:
        for line in _wrap(text, WIDTH - MARGIN - x):
            self.draw.text((x, self.y), line, font=fonts.font(TEXT_MIN), fill=colour)
            self.y += LINE

    def swatch(self, x: float, res: str) -> float:
        top = self.y + (LINE - SWATCH) / 2 - 2
        self.draw.rectangle((x, top, x + SWATCH, top + SWATCH), fill=RES_COLOURS[res],
                            outline=INK)
        return x + SWATCH + 8

    def cells(self, texts: list[str], widths: list[float], bold: bool = False) -> None:
        """One row of a table, each text fitted in its column."""
        x = float(MARGIN)
        for text, width in zip(texts, widths, strict=True):
            shown, size = fonts.fit(text, width - 10, TEXT_MIN, TEXT_MIN, bold)
            self.draw.text((x, self.y), shown, font=fonts.font(size, bold), fill=INK)
            x += width
        self.y += LINE


def _res(lang: str, res: str) -> str:
    return translate(D.res_name(res), lang)


def _values(page: _Page) -> None:
    page.heading("values")
    column = (WIDTH - 2 * MARGIN) / 4
    for i, res in enumerate(D.RESOURCES):
        x = MARGIN + column * (i % 4)
        x = page.swatch(x, res)
        page.draw.text((x, page.y), f"{_res(page.lang, res)} {D.VALUES[res]}",
                       font=fonts.font(TEXT_MIN), fill=INK)
        if i % 4 == 3:
            page.y += LINE
    page.para(page.t("values_use"), colour=MUTED)


def _collection(page: _Page) -> None:
    page.heading("collection")
    widths = [250.0] + [(WIDTH - 2 * MARGIN - 250) / D.PLAYERS] * D.PLAYERS
    page.cells(["", *(page.t("rank", n=n) for n in range(1, D.PLAYERS + 1))], widths, True)
    for res, table in (("grain", D.GRAIN_BY_RANK), ("cloth", D.CLOTH_BY_RANK)):
        page.cells([_res(page.lang, res), *(str(table[n]) for n in range(1, D.PLAYERS + 1))],
                   widths)
    page.para(page.t("collection_rules", min=D.COLLECTION_MIN, income=D.INCOME,
                     cap=D.MAX_WORKERS, decline=", ".join(map(str, D.DECLINE_ROUNDS)),
                     keep=D.LEADER_KEEPS), colour=MUTED)


def _trade(page: _Page) -> None:
    page.heading("trade")
    lang = page.lang
    for res in D.RESOURCES:
        where = [translate(D.region_name(r), lang) for r in D.OUTER if res in D.REGIONS[r].trade]
        if not where:
            continue
        x = page.swatch(MARGIN, res)
        page.para(page.t("trade_row", get=_res(lang, res),
                         pay=", ".join(_res(lang, p) for p in D.PAY_WITH[res]),
                         where=", ".join(where)), x=x)
    page.para(page.t("trade_rules"), colour=MUTED)


def _empires(page: _Page) -> None:
    page.heading("empires")
    lang = page.lang
    name_width = 400.0
    widths = [90.0, name_width, 130.0, WIDTH - 2 * MARGIN - 90 - name_width - 130]
    page.cells([page.t("round"), page.t("empire"), page.t("armies"), page.t("start")], widths,
               True)
    for empire in D.EMPIRES.values():
        start = page.t("sumer") if empire.in_sumer else ", ".join(
            translate(D.region_name(r), lang) for r in empire.starts)
        page.cells([str(empire.round), translate(D.empire_name(empire.id), lang),
                    str(empire.armies), start], widths)
    page.para(page.t("initiate", grain=D.PURCHASE["grain"], metal=D.PURCHASE["metal"],
                     tools=D.PURCHASE["tools"], cap=D.ARMY_CAP, most=D.INITIAL_MAX),
              colour=MUTED)


def _war(page: _Page) -> None:
    page.heading("war")
    page.para(page.t("combat", dice=D.DICE, better=D.BETTER_ROLL, worse=D.WORSE_ROLL))
    page.para(page.t("extend", cap=D.REGION_ARMY_CAP, destroy=D.DESTROY_COST,
                     walls=D.WALLS_COST, repeat=D.REPEAT_COST))


def _cities(page: _Page) -> None:
    page.heading("cities", wood=D.EXTENSION_WOOD)
    widths = [(WIDTH - 2 * MARGIN) / len(D.CITY_VP)] * len(D.CITY_VP)
    page.cells([page.t("luxuries", n=n) for n in D.CITY_VP], widths, True)
    page.cells([page.t("vp", n=vp) for vp in D.CITY_VP.values()], widths)
    page.para(page.t("cities_rules", lux=", ".join(_res(page.lang, r) for r in D.LUXURIES)),
              colour=MUTED)
    for region in D.CITY_SITES:
        if D.REGIONS[region].bonus is None:
            continue
        page.para(page.t("bonus", city=translate(D.region_name(region), page.lang),
                         name=translate(D.bonus_name(region), page.lang),
                         text=tr(page.lang, f"flood.bonus_text.{region}")))


def _scoring(page: _Page) -> None:
    page.heading("scoring")
    page.para(page.t("scoring_rules", vp=D.REGION_VP,
                     cost=max(D.OPPORTUNITY.values())))


PAGES = ((_values, _collection, _trade, _cities), (_empires, _war, _scoring))
"""The sections of each page."""


def tables_image(lang: str, page_no: int) -> Image.Image:
    """Page ``page_no`` (0-based) of the tables in ``lang``, as tall as it needs."""
    page = _Page(lang)
    page.draw.text((MARGIN, page.y), page.t("title", n=page_no + 1, of=len(PAGES)),
                   font=fonts.font(TITLE + 3, True), fill=INK)
    page.y += TITLE + 12
    for section in PAGES[page_no]:
        section(page)
    return page.image.crop((0, 0, WIDTH, int(page.y) + MARGIN))


@cache
def tables_png(lang: str, page_no: int) -> bytes:
    """Page ``page_no`` of the tables in ``lang`` as PNG bytes (drawn once)."""
    image = tables_image(lang, page_no).quantize(32, method=Image.Quantize.FASTOCTREE)
    return png_bytes(image, compress_level=9)
