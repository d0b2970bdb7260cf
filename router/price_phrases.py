"""A product's prices by kind, in the languages whose readers lack them: one table, read by router/foreign_words.py.

The catalogue's list price ("preço de tabela", "prezzo di listino", "lijstprijs"), the average paid per unit
("preço médio unitário") and the unit price ("stukprijs"). Each is a figure of the product (router/list_prices.py,
the unit-price metric), never passages (router/metric_shape.py). The phrases are kept out of the readers' word
lists (router/vocabulary.py): a word of a phrase ("tabela", "lista") alone is no price and stays unread.
"""

from __future__ import annotations

import re

#: A product's prices by kind, in the languages whose readers lack them (Portuguese, Italian, Dutch, Nordic, Polish,
#: Finnish; the Spanish and French list prices too): the catalogue's list price, the average paid per unit and the
#: unit price. Each is a figure of the product (router/list_prices.py, the unit-price metric), never passages.
LIST_PRICES = ("preço de tabela", "preço de lista", "preço de catálogo", "preço de catalogo", "preco de tabela",
               "preco de lista", "preco de catalogo", "prezzo di listino", "prezzo listino", "prezzo di catalogo",
               "precio de lista", "precio de catálogo", "precio de catalogo", "precio de tarifa", "precio tarifa",
               "prix catalogue", "prix de catalogue", "prix de liste", "prix tarif", "catalogusprijs", "lijstprijs",
               "listpris", "listepris", "cena katalogowa", "cena cennikowa", "listahinta", "luettelohinta",
               # (Czech, Romanian, Turkish, Nordic catalogue prices: router/foreign_words.py reads them from here too)
               "ceníková cena", "katalogová cena", "preț de listă", "pret de lista", "preț de catalog",
               "liste fiyatı", "liste fiyati", "katalog fiyatı", "katalogpris")
AVERAGE_UNIT_PRICES = ("preço médio unitário", "preço unitário médio", "preco medio unitario",
                       "preco unitario medio", "preço médio por unidade", "prezzo medio unitario",
                       "prezzo unitario medio", "gemiddelde stukprijs", "gemiddelde eenheidsprijs",
                       "genomsnittligt styckpris", "genomsnittligt enhetspris", "gennemsnitlig enhedspris",
                       "gjennomsnittlig enhetspris", "średnia cena jednostkowa", "srednia cena jednostkowa",
                       "keskimääräinen yksikköhinta")
UNIT_PRICES = ("preço unitário", "preco unitario", "preço por unidade", "prezzo unitario", "prezzo per unità",
               "stukprijs", "eenheidsprijs", "styckpris", "enhetspris", "enhedspris", "stykpris",
               "cena jednostkowa", "yksikköhinta")



def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


_READS = tuple((re.compile(rf"(?<![\w&-])(?:{_alternation(words)})(?![\w&-])", re.I), english)
               for words, english in ((LIST_PRICES, "list price"), (AVERAGE_UNIT_PRICES, "average unit price"),
                                      (UNIT_PRICES, "unit price")))


def read_prices(text: str) -> str:
    """``text`` with a product's price phrases in the English the price readers know.

    >>> read_prices("preço de tabela do PRD-710"), read_prices("prezzo medio unitario PRD-9 nel 2025")
    ('list price do PRD-710', 'average unit price PRD-9 nel 2025')
    """
    for pattern, english in _READS:
        text = pattern.sub(english, text)
    return text


__all__ = ["AVERAGE_UNIT_PRICES", "LIST_PRICES", "UNIT_PRICES", "read_prices"]
