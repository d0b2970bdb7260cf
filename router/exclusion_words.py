"""The closed class of words that leave what follows them out of a figure, in every language the readers meet.

An exclusion read as an inclusion is the worst reading there is: "total spend ex-Delta" answered with Delta's
own spend is a confident figure for the opposite question. The English cues with their grammar ("excluding X",
"X excluded", "setting X aside") are read by router/analysis.py; this module is the table of the short
prepositions and prefixes that only ever lead a name ("ex-Delta", "bar Beta", "sans Gamma", "zonder Iota",
"oprócz Bety"): a cue of this table excludes the name written right after it and nothing else, so it is never
named back on its own ("sin IVA" is a VAT basis, read by router/foreign_words.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: "without": also the net-of-VAT cue before a VAT name (router/foreign_words.py).
WITHOUT = ("without", "excluding", "zonder", "exclusief", "excl", "excl.", "ex", "ex.", "senza", "escl", "escl.",
           "esclusa", "escluso", "sem", "excluindo", "utan", "uden", "uten", "exkl", "exkl.", "ekskl", "ekskl.",
           "bez", "w/o", "minus", "ohne", "sans", "sin", "hors")
#: "except", "apart from", "other than" in the languages of the writers (German, French and Spanish sentences are
#: also translated whole by router/german.py and router/romance.py; a mixed sentence keeps the word as typed).
EXCEPT = ("sauf", "hormis", "excepté", "excepte", "behalve", "uitgezonderd", "förutom", "forutom", "utom",
          "undtagen", "bortset fra", "bortsett från", "bortsett fra", "unntatt", "oprócz", "oprocz", "poza",
          "z wyjątkiem", "z wyjatkiem", "excepto", "salvo", "tranne", "eccetto", "exceto", "außer", "ausser",
          "ausgenommen", "abzüglich", "abzuglich", "ilman", "paitsi",
          # "not counting X" with the writers' own verb and the article or preposition their verb takes
          "sin contar", "sin contar a", "sin contar al", "sin contar con", "sin incluir", "sin incluir a",
          "sem contar", "sem contar com", "sem contar com a", "sem contar com o", "sem contar a", "sem contar o",
          "sem incluir", "sem incluir a", "sem incluir o", "sans compter", "sans inclure", "senza contare",
          "senza includere", "a excepción de", "a excepcion de", "con excepción de", "com exceção de",
          "com excecao de", "à l'exception de", "a l'exception de", "ad eccezione di", "met uitzondering van",
          "mit ausnahme von", "tirando")
#: English words that exclude only when a name follows them ("all of it bar Beta", "spend less Delta"): alone they
#: are other words (a bar chart, less than 5000).
ENGLISH_NAME_ONLY = ("bar", "less", "ex")


#: Cues that stand alone too: with no name after them their target is named back ("excluding widgets" is asked
#: about), so they are read by the English cue grammar of router/analysis.py, not as name-only cues.
STANDALONE = ("without", "excluding", "excl", "excl.", "ex.", "minus", "w/o", "exkl", "exkl.", "ohne", "außer",
              "ausser", "ausgenommen")
#: The cues that exclude only the name right after them.
NAME_ONLY = tuple(w for w in (*WITHOUT, *EXCEPT, *ENGLISH_NAME_ONLY) if w not in STANDALONE)


def _alt(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


#: A cue of the table as a regex part: a word followed by a space, or "ex-" glued to the name it leaves out (the
#: readers see names blanked to spaces)
#: ("ex-Delta", "ex-Gamma Labortechnik"). "less" is no cue in a comparison ("less Beta than Gamma").
NAME_ONLY_CUE_PATTERN = (
    r"(?<![\w-])(?:ex-(?=[^\W\d_]|\s)|"
    rf"(?:{_alt(w for w in NAME_ONLY if w != 'less')}|less(?![^.?!;]*\bthan\b))"
    r"(?=\s))"
)
#: The whole text of one such cue (a cue of this table is never named back without a name after it).
NAME_ONLY_CUE = re.compile(NAME_ONLY_CUE_PATTERN, re.I | re.UNICODE)

__all__ = ["ENGLISH_NAME_ONLY", "EXCEPT", "NAME_ONLY", "NAME_ONLY_CUE", "NAME_ONLY_CUE_PATTERN", "STANDALONE",
           "WITHOUT"]
