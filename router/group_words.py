"""A product group named by the word its names start with: "laboratory spend" for Laboratory Equipment, German
"Laborausgaben" (read as "Labor spend") for the group whose synonyms are "Laborausstattung" and "Laborgeräte".

Analysts drop the head noun of a group's name ("shipping" for Shipping Services) and German compounds keep only
the modifier ("Versandkosten"). A span nothing else resolved is offered here before it is named back as unknown:
it names a group when it is the first word of one of the group's names (of two words or more), or the start of
a one-word name that runs on (a compound). When it starts names of several groups, it names the one of them the
others all belong to (their common ancestor: "Labor" starts the names of Laboratory Equipment and of its subgroup
Lab Consumables, and names Laboratory Equipment with the subgroup in it); otherwise it stays unknown, so nothing is
guessed between two unrelated groups.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from router.edits import ONE_EDIT_FROM_SIX, Budget, budget, is_slip
from router.entities import Gazetteer

#: A compound's modifier must leave this many letters of the name after it ("Labor" + "geräte").
_COMPOUND_REST = 3
_MIN_WORD = 4
#: A shorter word ("lab") names a group only when it is the whole first word of one of its names.
_SHORT_WORD = 3
#: A first word is cut short ("lab" for "laboratory") only when it has at least this many letters.
_ABBREVIATED_MIN = 5


def _names(gazetteer: Gazetteer) -> list[tuple[str, str]]:
    return [*((g.group_name, g.product_group_id) for g in gazetteer.product_groups), *gazetteer.group_synonyms]


def leading_word_group(phrase: str, gazetteer: Gazetteer) -> tuple[str, str] | None:
    """(product_group_id, the name it starts) for a one-word ``phrase`` that starts a group's names, or ``None``.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-LAB", "Laboratory Equipment"),
    ...                                  ProductGroup("PG-LABC", "Lab Consumables", "PG-LAB")],
    ...                     [("Laborgeräte", "PG-LAB"), ("Laborverbrauchsmaterial", "PG-LABC")])
    >>> leading_word_group("laboratory", g), leading_word_group("Labor", g), leading_word_group("Lab", g)
    (('PG-LAB', 'Laboratory Equipment'), ('PG-LAB', 'Laborgeräte'), ('PG-LAB', 'Laboratory Equipment'))
    >>> leading_word_group("lab", Gazetteer.build([], [], [], [ProductGroup("PG-LAB", "Laboratory Equipment")]))
    """
    word = phrase.strip().lower()
    if len(word) < _SHORT_WORD or not re.fullmatch(r"[^\W\d_]+", word):
        return None
    hits: dict[str, str] = {}
    exact = False
    for name, group_id in _names(gazetteer):
        words = name.lower().split()
        if len(words) > 1 and words[0] == word:
            exact = True
            hits.setdefault(group_id, name)
        elif len(word) >= _MIN_WORD and len(words) == 1 and words[0].startswith(word) and (
                len(words[0]) >= len(word) + _COMPOUND_REST):
            hits.setdefault(group_id, name)
        elif (len(word) < _MIN_WORD and len(words) > 1 and len(words[0]) >= _ABBREVIATED_MIN
              and words[0].startswith(word) and len(words[0]) >= len(word) + 2):
            # "lab" is the first word of Lab Consumables and cut short from Laboratory (Equipment): both groups'
            # names start with it (their common ancestor is meant, below)
            hits.setdefault(group_id, name)
    if len(word) < _MIN_WORD and not exact:
        return None  # a short word alone names a group only as the whole first word of one of its names
    ancestors = [g for g in hits if all(h in gazetteer.subgroups(g) for h in hits)]
    return (ancestors[0], hits[ancestors[0]]) if len(ancestors) == 1 else None




#: Head nouns that say "goods of" a group without naming it ("calibration gear", "packaging stuff").
_GENERIC_HEADS = frozenset({"gear", "stuff", "items", "item", "things", "kit", "kits", "products", "product", "goods",
                            "articles", "supplies", "materials", "material", "equipment", "parts", "ware", "wares"})
_JOINERS = frozenset({"and", "&", "+", "/", ","})
_SUFFIXES = ("ing", "ers", "es", "er", "s")
#: A word shortened from a name's word ("temp" for "Temperature") keeps at least this many letters.
_ABBREVIATION_MIN = 4


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _ABBREVIATION_MIN:
            return word[: -len(suffix)]
    return word


def _same_word(said: str, named: str) -> bool:
    """``said`` is ``named`` in another form: inflected ("cabling" / "Cables"), or cut short ("temp" /
    "Temperature")."""
    if said == named:
        return True
    if _stem(said) == _stem(named):
        return True
    return len(said) >= _ABBREVIATION_MIN and named.startswith(said) and len(named) > len(said)


def _content(text: str) -> list[str]:
    return [w for w in re.findall(r"[^\W_]+|[&+/,]", text.lower()) if w not in _JOINERS]


def word_form_group(phrase: str, gazetteer: Gazetteer) -> tuple[str, str] | None:
    """(product_group_id, the name it stands for) for a ``phrase`` that says a group's name in other word forms, or
    ``None``: each word inflected or cut short ("cabling & connectors" for Cables and Connectors, "temp sensors"
    for Temperature Sensors), or the leading words of the name with a generic head ("calibration gear" for
    Calibration Equipment). Several unrelated groups stay unresolved (nothing guessed between them).

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-CABL", "Cables and Connectors"),
    ...                                  ProductGroup("PG-CAL", "Calibration Equipment"),
    ...                                  ProductGroup("PG-SENS", "Sensors"),
    ...                                  ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS")])
    >>> word_form_group("cabling", g), word_form_group("temp sensors", g), word_form_group("calibration gear", g)
    (('PG-CABL', 'Cables and Connectors'), ('PG-TEMP', 'Temperature Sensors'), ('PG-CAL', 'Calibration Equipment'))
    >>> word_form_group("pallets", g) is None
    True
    """
    said = _content(phrase)
    if not said or len(said) > 4 or any(not w.isalpha() for w in said):
        return None
    bare = said[:-1] if len(said) > 1 and said[-1] in _GENERIC_HEADS else None
    hits: dict[str, str] = {}
    for name, group_id in _names(gazetteer):
        named = _content(name)
        whole = len(named) == len(said) and all(_same_word(a, b) for a, b in zip(said, named, strict=True))
        # "cabling" for "Cables and Connectors": the first word of a name of two words or more, inflected
        first = (len(said) == 1 and len(named) > 1 and len(said[0]) >= _ABBREVIATION_MIN + 1
                 and _stem(said[0]) == _stem(named[0]))
        headed = bare is not None and len(named) >= len(bare) and all(
            _same_word(a, b) for a, b in zip(bare, named, strict=False))
        if whole or first or headed:
            hits.setdefault(group_id, name)
    ancestors = [g for g in hits if all(h in gazetteer.subgroups(g) for h in hits)]
    return (ancestors[0], hits[ancestors[0]]) if len(ancestors) == 1 else None


def _other_form(said: list[str], named: list[str]) -> bool:
    """Some word of ``said`` is another form of its word in ``named`` than its plural or singular."""
    return any(a != b and a + "s" != b and b + "s" != a for a, b in zip(said, named, strict=False))


_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
#: What may stand between two words of one name: blanks, "&" or "+" ("and" is a word of its own).
_GAP = re.compile(r"\s*[&+]?\s*")


def read_group_forms(text: str, gazetteer: Gazetteer) -> str | None:
    """``text`` with each run of two to four words that says a group's whole name in other word forms written as
    that name ("temp sensor products" -> "Temperature Sensors products", "cabling & connectors" -> "Cables and
    Connectors"), or ``None`` when there is none. A run that is a name already, or differs from one only by its
    plural, is the reader's; a generic head ("calibration gear") is left to :func:`word_form_group` on a span,
    since "sensor products" is the goods of Sensors, not its name.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-TEMP", "Temperature Sensors"),
    ...                                  ProductGroup("PG-CABL", "Cables and Connectors")])
    >>> read_group_forms("which temp sensor products did we buy", g)
    'which Temperature Sensors products did we buy'
    >>> read_group_forms("suppliers for cabling & connectors?", g)
    'suppliers for Cables and Connectors?'
    >>> read_group_forms("temperature sensor spend", g) is None
    True
    >>> read_group_forms("gear and temp sensors", g)
    'gear and Temperature Sensors'

    """
    words = list(_WORD.finditer(text))
    names = [(name, gid, _content(name)) for name, gid in group_names(gazetteer)]
    out: list[str] = []
    last, i = 0, 0
    while i < len(words):
        for size in (4, 3, 2):
            run = words[i:i + size]
            if len(run) < size or not all(_GAP.fullmatch(text[x.end():y.start()]) for x, y in pairwise(run)):
                continue
            if run[0].group(0).lower() in _JOINERS or run[-1].group(0).lower() in _JOINERS:
                continue  # "gear and temp sensors": the joining word belongs to no name's edge
            said = _content(text[run[0].start():run[-1].end()])
            hits = {gid: name for name, gid, named in names if len(named) == len(said) >= 2 and all(
                _same_word(x, y) for x, y in zip(said, named, strict=True)) and _other_form(said, named)}
            if len(hits) == 1:
                out.append(text[last:run[0].start()] + next(iter(hits.values())))
                last, i = run[-1].end(), i + size - 1
                break
        i += 1
    return "".join(out) + text[last:] if out else None


_SHARED_HEAD = re.compile(r"\b(?P<first>[^\W\d_]+)\s*(?:\+|&|/|,|\band\b|\bor\b)\s*"
                          r"(?P<second>[^\W\d_]+(?:\s+[^\W\d_]+)?)\s+(?P<head>[^\W\d_]+)\b", re.UNICODE)


def _group_of(words: list[str], names: list[tuple[str, str, list[str]]]) -> tuple[str, str] | None:
    hits = {gid: name for name, gid, named in names if len(named) == len(words) and all(
        _same_word(x, y) for x, y in zip(words, named, strict=True))}
    return next(iter(hits.items())) if len(hits) == 1 else None


def read_shared_heads(text: str, gazetteer: Gazetteer) -> str | None:
    """``text`` with two groups that share their head noun written out in full ("pressure + temp sensors" ->
    "Pressure Sensors and Temperature Sensors"), or ``None``. Read as written, the head went with the second
    modifier only and the first was silently dropped; written out, both groups are read (their union, or asked
    about when no one group holds exactly both).

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-PRES", "Pressure Sensors"),
    ...                                  ProductGroup("PG-TEMP", "Temperature Sensors")])
    >>> read_shared_heads("which items do they carry in pressure + temp sensors?", g)
    'which items do they carry in Pressure Sensors and Temperature Sensors?'
    >>> read_shared_heads("pressure sensors and flow meters", g) is None
    True
    """
    names = [(name, gid, _content(name)) for name, gid in group_names(gazetteer)]
    out: list[str] = []
    last = 0
    for found in _SHARED_HEAD.finditer(text):
        if found.start() < last:
            continue
        head = found.group("head").lower()
        second = _group_of([*_content(found.group("second")), head], names)
        first = _group_of([found.group("first").lower(), head], names)
        if second is None or first is None or first[0] == second[0]:
            continue
        out.append(f"{text[last:found.start()]}{first[1]} and {second[1]}")
        last = found.end()
    return "".join(out) + text[last:] if out else None


#: Shorthand of a group's words as analysts type it ("calibration eqpt", "mgmt", "cats"): router/foreign_words.py
#: keeps the one table of them; read here only to see that a word beside a typo belongs to the same name.
def _shorthand() -> dict[str, str]:
    from router.foreign_words import SHORTHAND  # (a table of plain-English words, no reader of this module)

    return SHORTHAND


#: "n", "'n'", "n'" between two words of one name: "cables n connectors", "rock 'n' roll" style joins.
_N_JOIN = re.compile(r"(?<=[^\W\d_])\s+(?:'n'|'n|n'|n)\s+(?=[^\W\d_])", re.I)
#: A typed word is corrected towards a name's word with one edit, only from six letters (shorter words are too
#: often others).
_TYPO_EDITS: Budget = ONE_EDIT_FROM_SIX


def _fits(said: str, named: str) -> bool:
    """``said`` is ``named`` as typed: the word, its other form, or its shorthand ("eqpt" for "equipment")."""
    said = said.lower()
    return same_word(said, named) or _shorthand().get(said) == named


def read_group_typos(text: str, gazetteer: Gazetteer) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """``text`` with the words of a product group's name typed with one slip ("calibraton eqpt" -> "calibration
    eqpt", "sensros" -> "sensors") or joined by "n" ("cables n connectors" -> "cables and connectors") written as
    the name's words, and the corrections made; ``None`` when there is none.

    A slip is corrected only towards one word of the tenant's group names (never two candidates), only for a typed
    word of six letters or more that is itself no word of any name, and only where the name is recognisable: its
    neighbour is the name's next (or previous) word, or the name is that one word. Anything else stays as typed
    and is named back by the reader (never guessed).

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-CAL", "Calibration Equipment"),
    ...                                  ProductGroup("PG-CABL", "Cables and Connectors"),
    ...                                  ProductGroup("PG-SENS", "Sensors")])
    >>> read_group_typos("calibraton eqpt co a h2", g)[0], read_group_typos("cables n connectors 2025", g)[0]
    ('calibration eqpt co a h2', 'cables and connectors 2025')
    >>> read_group_typos("share of sensros in h2", g)[0], read_group_typos("calibrate the meters", g)
    ('share of sensors in h2', None)
    """
    names = [content_words(name) for name, _ in group_names(gazetteer)]
    names = [n for n in names if n and all(w.isalpha() for w in n)]
    known = {w for n in names for w in n}
    others = {w.casefold() for c in gazetteer.companies for w in re.findall(r"[^\W\d_]+", c.company_name)}
    others |= {w.casefold() for spelling in gazetteer.supplier_names.values()
               for w in re.findall(r"[^\W\d_]+", spelling)}
    fixes: list[tuple[str, str]] = []

    def joined(m: re.Match[str]) -> str:
        before = re.search(r"([^\W\d_]+)\s*$", text[:m.start() + 1])
        after = re.match(r"\s*([^\W\d_]+)", text[m.end() - 1:])
        if before is None or after is None:
            return m.group(0)
        a, b = before.group(1).lower(), after.group(1).lower()
        if any(any(_fits(a, x) for x in n) and any(_fits(b, y) for y in n) for n in names):
            fixes.append((m.group(0).strip(), "and"))
            return " and "
        return m.group(0)

    out = _N_JOIN.sub(joined, text)
    # (the joining words of a name are no neighbours: "cables and connetors" has "cables" before the slip)
    words = [w for w in re.finditer(r"[^\W\d_]+", out) if w.group(0).lower() not in ("and", "n", "und", "et")]
    pieces: list[str] = []
    last = 0
    for i, m in enumerate(words):
        typed = m.group(0).lower()
        edits = budget(len(typed), _TYPO_EDITS)
        if not edits or typed in known or typed in others or _shorthand().get(typed):
            continue
        near = words[i - 1].group(0).lower() if i else ""
        after = words[i + 1].group(0).lower() if i + 1 < len(words) else ""
        hits: set[str] = set()
        for n in names:
            for k, w in enumerate(n):
                if not is_slip(typed, w, edits) or same_word(typed, w):
                    continue
                if (len(n) == 1 or (k + 1 < len(n) and after and _fits(after, n[k + 1]))
                        or (k > 0 and near and _fits(near, n[k - 1]))):
                    hits.add(w)
        if len(hits) != 1:
            continue
        word = next(iter(hits))
        pieces.append(out[last:m.start()] + word)
        last = m.end()
        fixes.append((m.group(0), word))
    out = "".join(pieces) + out[last:]
    return (out, tuple(fixes)) if fixes else None


#: A group's name, then its own subgroup's word joined to it ("control cabinets + accessories", "sensors and
#: probes"): the group already holds its subgroups, so the joined word adds nothing and is read with the group.
_JOINED_WORD = re.compile(r"\s*(?:\+|&|and|incl\.?|including|with|w/|plus)\s*(?P<word>[^\W\d_]+)(?![\w-])", re.I)


def read_subgroup_joins(text: str, gazetteer: Gazetteer) -> tuple[str, tuple[str, ...]] | None:
    """``text`` with a word joined to a group's name dropped where that word names (a word of) one of the group's
    own subgroups, and the words dropped; ``None`` otherwise. "control cabinets + accessories" is Control Cabinets
    with its subgroup Cabinet Accessories, which the group's figure already holds.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-CAB", "Control Cabinets"),
    ...                                  ProductGroup("PG-ACC", "Cabinet Accessories", "PG-CAB")])
    >>> read_subgroup_joins("control cabinets + accessories co c apr", g)
    ('control cabinets co c apr', ('accessories',))
    >>> read_subgroup_joins("control cabinets and tools", g) is None
    True
    """
    by_id = {g.product_group_id: g for g in gazetteer.product_groups}
    name_words = {w for name, _ in group_names(gazetteer) for w in content_words(name)}
    dropped: list[str] = []
    for name, gid in sorted(group_names(gazetteer), key=lambda x: -len(x[0])):
        spelled = r"\s+".join(re.escape(w) for w in name.split())
        for m in re.finditer(rf"(?<![\w-]){spelled}(?![\w-])", text, re.I):
            joint = _JOINED_WORD.match(text, m.end())
            before = re.search(r"([^\W\d_]+)\W*$", text[:m.start()])
            after = re.match(r"\W*([^\W\d_]+)", text[joint.end():]) if joint is not None else None
            if joint is None or (before is not None and before.group(1).lower() in name_words) \
                    or (after is not None and after.group(1).lower() in name_words):
                continue  # ("pressure sensors & temperature sensors": names of their own on either side)
            word = joint.group("word").lower()
            own = set(content_words(name))
            subs = [by_id[s] for s in gazetteer.subgroups(gid) if s != gid and s in by_id]
            # the subgroup's name less the group's own words is the joined word ("Cabinet Accessories" less
            # "cabinets" is "accessories")
            rests = [[w for w in content_words(sub.group_name) if not any(same_word(w, o) for o in own)]
                     for sub in subs]
            if any(rest and all(same_word(word, w) for w in rest) for rest in rests):
                dropped.append(joint.group("word"))
                return text[:m.end()] + text[joint.end():], tuple(dropped)
    return None


#: Head nouns that say "goods of" a group after its name and are no catalogue word of their own ("office supplies",
#: "office stuff", "sensor gear"): "products", "items", "articles" stay, since they ask for the catalogue's list.
_GOODS_HEADS = frozenset({"stuff", "things", "gear", "kit", "kits", "goods", "supplies", "wares", "materials",
                          "material", "bits"})


def read_goods_heads(text: str, gazetteer: Gazetteer) -> tuple[str, tuple[str, ...]] | None:
    """``text`` with a "goods" head noun after a group's name dropped ("office supplies" -> "office", "office
    stuff" -> "office"), and the words dropped; ``None`` when there is none. Left on, "supplies" was read as the
    catalogue's verb (a list of products where a figure was asked) and "stuff" named back as unknown. A name
    whose own words go on with the head ("Office Supplies" as a group's name) is the reader's, untouched.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-OFF", "Office"), ProductGroup("PG-SENS", "Sensors")])
    >>> read_goods_heads("office supplies ypsilon q4", g), read_goods_heads("which office products", g)
    (('office ypsilon q4', ('supplies',)), None)
    """
    spelled_names = [name for name, _ in group_names(gazetteer)]
    lowered = [" ".join(n.lower().split()) for n in spelled_names]
    dropped: list[str] = []
    out = text
    for name in sorted(spelled_names, key=len, reverse=True):
        pattern = r"\s+".join(re.escape(w) for w in name.split())
        found = re.search(rf"(?<![\w-])(?P<name>{pattern})\s+(?P<head>[^\W\d_]+)(?![\w-])", out, re.I)
        if found is None or found.group("head").lower() not in _GOODS_HEADS:
            continue
        said = f"{found.group('name')} {found.group('head')}".lower()
        if any(said in n for n in lowered):
            continue  # "Office Supplies" is a name of its own
        dropped.append(found.group("head"))
        out = out[:found.end("name")] + out[found.end("head"):]
    return (out, tuple(dropped)) if dropped else None


#: Labels written before a group's name ("WG Papier", "Wgr. Sensors", "cat Office", "Kategorie Tools"): the name's
#: kind, said as the reader's "product group" (left as typed, "WG" was named back as an unknown name).
_LABEL = re.compile(r"(?<![\w-])(?:wgs?|wgr\.?|warengruppen?|kategorien?|cats?\.?|cat[ée]gories?|categor[íi]as?|"
                    r"categor(?:y|ies)|familles?|pgs?)\s*[:.]?\s+", re.I)


def read_group_labels(text: str, gazetteer: Gazetteer) -> str | None:
    """``text`` with a label before a group's name written "product group" ("WG Papier" -> "product group
    Papier"), or ``None``. Only right before a name of the tenant's groups (any of its spellings).

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-PAPER", "Paper Products")], [("Papier", "PG-PAPER")])
    >>> read_group_labels("WG Papier, Xenon, Okt 2025: Gesamtbetrag?", g), read_group_labels("cat Leipzig", g)
    ('product group Papier, Xenon, Okt 2025: Gesamtbetrag?', None)
    """
    spelled = "|".join(r"\s+".join(re.escape(w) for w in name.split())
                       for name, _ in sorted(group_names(gazetteer), key=lambda x: -len(x[0])))
    if not spelled:
        return None
    out = re.sub(rf"{_LABEL.pattern}(?=(?:{spelled})(?![\w-]))", "product group ", text, flags=re.I)
    # the German labels name nothing but a product group: any capitalised name after them is one ("WG Papier")
    out = re.sub(r"(?<![\w-])(?:WGs?|Wgr\.?|Warengruppen?)\s*[:.]?\s+(?=(?-i:[A-ZÄÖÜ])[\w-]{2,})",
                 "product group ", out)
    return out if out != text else None


#: The public names of the word-form helpers (router/catalog_relations.py reads a group slot with them).
GENERIC_HEADS = _GENERIC_HEADS
content_words = _content
same_word = _same_word


def group_names(gazetteer: Gazetteer) -> list[tuple[str, str]]:
    """Every name of the tenant's product groups (its own names and synonyms), with the group's id."""
    return _names(gazetteer)


def _singular(word: str) -> str:
    low = word.lower()
    return low[:-1] if len(low) > 3 and low.endswith("s") and not low.endswith("ss") else low


def tail_word_group(word: str, gazetteer: Gazetteer) -> tuple[str, str] | None:
    """(product_group_id, name) of the one group whose name's last word is ``word`` (singular or plural) and longer
    than it: "loggers" of Data Loggers, "fittings" of Pipe Fittings; ``None`` when none or several groups end so.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-LOG", "Data Loggers"), ProductGroup("PG-S", "Sensors"),
    ...                                  ProductGroup("PG-T", "Temperature Sensors", "PG-S")])
    >>> tail_word_group("logger", g), tail_word_group("sensors", g), tail_word_group("data", g)
    (('PG-LOG', 'Data Loggers'), None, None)
    """
    if len(word) < _MIN_WORD or not re.fullmatch(r"[^\W\d_]+", word):
        return None
    if any(_singular(name) == _singular(word) for name, _ in _names(gazetteer)):
        return None  # a group's whole name: read by the name readers, never a part of a longer one
    hits = {gid: name for name, gid in _names(gazetteer)
            if len(name.split()) > 1 and _singular(name.split()[-1]) == _singular(word)}
    return next(iter(hits.items())) if len(hits) == 1 else None


#: A list sign or conjunction after (or before) a group's name, and the one word it joins to it.
_MEMBER_AFTER = re.compile(r"\s*(?:[/+&,]|\band\b|\bor\b)\s*([^\W\d_]+)\b", re.I)
_MEMBER_BEFORE = re.compile(r"\b([^\W\d_]+)\s*(?:[/+&,]|\band\b|\bor\b)\s*$", re.I)


def listed_group_words(text: str, groups: Sequence[tuple[int, int]], taken: Sequence[tuple[int, int]],
                       gazetteer: Gazetteer) -> list[tuple[int, int, str]]:
    """(start, end, group id) of the words listed with a read group that name a group in another word form
    ("sensors & loggers": Data Loggers; "cables or fittings"): a word joined to a group's name by a list sign is a
    member of the same list, so it is looked up as a group by its leading word, its word forms or its name's last
    word (never left unread while the first member is applied alone). A word naming no group is left as it was.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-LOG", "Data Loggers"), ProductGroup("PG-S", "Sensors")])
    >>> listed_group_words("sensors & loggers by company", [(0, 7)], [(0, 7)], g)
    [(10, 17, 'PG-LOG')]
    """
    out: list[tuple[int, int, str]] = []
    for start, end in groups:
        found = [m for m in (_MEMBER_AFTER.match(text, end),) if m] + [
            m for m in (_MEMBER_BEFORE.search(text[:start]),) if m]
        for m in found:
            a, b = m.span(1)
            if any(s < b and a < e for s, e in (*taken, *((x, y) for x, y, _ in out))):
                continue
            word = m.group(1)
            hit = leading_word_group(word, gazetteer) or word_form_group(word, gazetteer) or tail_word_group(
                word, gazetteer)
            if hit is not None:
                out.append((a, b, hit[0]))
    return out


__all__ = [
    "GENERIC_HEADS",
    "content_words",
    "group_names",
    "leading_word_group",
    "listed_group_words",
    "read_goods_heads",
    "read_group_forms",
    "read_group_typos",
    "read_shared_heads",
    "read_subgroup_joins",
    "same_word",
    "tail_word_group",
    "word_form_group",
]
