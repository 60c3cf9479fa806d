"""The years a question states in words: a range ("since 2019", "between 2010 and 2012",
"2018 through 2020"), a decade ("in the 1990s"), the years named ("in 2019 or 2021"), the
last so many ("in the last three years"), and the question without those words.

Why a module of its own: a year in a question may be a count ("in 2048 dimensions") or a
citation's ("Vaswani et al., 2017"); ``stated.stated`` reads the venue and the author, and
the years from here.
"""

from __future__ import annotations

import re

from assistant.types import EARLIEST_YEAR, LATEST_YEAR, OPEN_END, OPEN_START

PAPERS = r"(?:papers|works|abstracts|studies|articles|publications)"  # the nouns for papers
PAPER = r"(?:paper|abstract|article|work|study|publication)"

YEAR = r"((?:19|20)\d\d)"
# "in 2048 dimensions" is a count, not a year, and so are "after 2000 training documents"
# and "in 2000 GPU hours": up to two words that are no preposition may stand before the unit.
_UNITS = (r"(?:dimensions?|steps?|samples?|tokens?|parameters?|images?|nodes?|layers?|"
          r"examples?|iterations?|epochs?|words?|languages?|classes?|points?|users?|items?|"
          r"times?|tasks?|questions?|queries|documents?|hours?|features?|agents?|patients?|"
          r"genes?|species|rounds?|runs?|trials?|seconds?|minutes?|ms|episodes?|frames?|"
          r"sentences?|pixels?|neurons?|units?|percent(?:age)?s?|[%×x])")
_MODIFIER = r"(?:(?!(?:on|for|in|of|and|or|to|with|about|by|the|a|an|at|from)\b)[a-z][\w-]*\s+)"
NOT_A_COUNT = rf"(?![\d.,]\d)(?!\s*{_MODIFIER}{{0,2}}{_UNITS}\b)(?!\s*[%×])"
END = r"(?!\d)(?![\'’]?s\b)" + NOT_A_COUNT  # "1990s" is a decade (DECADE below)
# "in the 1990s", "from the 2010s", "in the 90s", "in the '90s", "in the nineties": the ten
# years (a decade's "since" runs on); two digits only after "the" or "'" ("in 90s" may be
# seconds), 80s and 90s of the 1900s, 00s to 20s of the 2000s
_DECADE_WORDS = {"eighties": "1980", "nineties": "1990", "noughties": "2000"}
# "in the late 90s", "in the early 2000s": the decade's later or earlier half
DECADE = re.compile(r"\b(?P<how>in|from|during|since)\s+(?P<the>the\s+)?"
                    r"(?:(?P<part>early|mid|late)[\s-]+)?(?:(?P<full>(?:19|20)\d0)[\'’]?s\b"
                    rf"|(?(the)[\'’]?|[\'’])(?P<two>[89012]0)s\b(?!\s+of\b){NOT_A_COUNT}"
                    r"|(?(the)(?P<word>eighties|nineties|noughties)\b|(?!)))", re.I)
# the years of a decade's part: "the late 90s" 1995–1999
DECADE_PARTS = {"early": (0, 4), "mid": (3, 7), "late": (5, 9)}
# "in the year 1998", "before the year 2000": the year, as "in 1998" (the words had been
# searched, and "1998" read as no year: papers of 2000 and 2019 listed)
THE_YEAR = re.compile(r"\b(in|before|after|since|until|till|from|during|through|between"
                      r"|by)\s+(?:the\s+)?years?\s+(?=(?:19|20)\d\d\b)", re.I)
_PUBLISHED_BEFORE = "|".join(f"(?<={verb}\\s)" for verb in (
    "published", "presented", "appeared", "accepted", "released", "written", "out"))
# (pattern, what it gives: "range" a..b, "from" a.., "after" a+1.., "to" ..a, "before" ..a-1, "in" a)
YEAR_PHRASES: list[tuple[re.Pattern[str], str]] = [
    # "no later than 2018", "not after 2018": up to it; "no earlier than", "not before": from
    # it (the words after "no"/"not" alone had been read, the opposite range)
    (re.compile(rf"\b(?:no\s+later\s+than|not\s+(?:later\s+than|after))\s+{YEAR}{END}", re.I),
     "to"),
    (re.compile(rf"\b(?:no\s+earlier\s+than|not\s+(?:earlier\s+than|before))\s+{YEAR}{END}",
                re.I), "from"),
    (re.compile(rf"\bbetween\s+{YEAR}\s+and\s+{YEAR}{END}", re.I), "range"),
    # "in 2020 or 2021", "in 2017, 2018 or 2019", "in 2014 or 2016 or 2019": any of them (a
    # range when they follow one another, else the range from the first to the last with only
    # those years in it); three or more joined by "or" or "and" first (not "in 2019 and 2020
    # than in 2015", two spans set against each other, a review's)
    (re.compile(rf"\b(?:in|from|during)\s+{YEAR}(?:\s+(?:or|and)\s+{YEAR}){{2,10}}(?:\s*,?\s+(?:vs\.?|versus"
                rf"|than|compared\s+(?:to|with))\s+(?:in\s+)?{YEAR})?{END}", re.I), "either"),
    # "in 2018 vs 2019", "in 2018 compared with 2019": the two years, to be compared
    (re.compile(rf"\b(?:in|from|during)\s+{YEAR}(?:\s*,\s*{YEAR}){{0,10}},?\s+(?:or|and|vs\.?|"
                rf"versus|than|compared\s+(?:to|with))\s+(?:in\s+)?{YEAR}{END}", re.I), "either"),
    (re.compile(rf"\b(?:from|in)\s+{YEAR}\s*(?:-|–|—|to|until|through|till)\s*{YEAR}{END}", re.I),
     "range"),
    (re.compile(rf"(?<![\w-]){YEAR}\s*(?:-|–|—)\s*{YEAR}{END}", re.I), "range"),
    # "2017-19", "1998–99": the second year's last two digits (searched as words before)
    (re.compile(rf"(?:\b(?:from|in|during)\s+|(?<![\w-])){YEAR}\s*(?:-|–|—)\s*(\d\d){END}",
                re.I), "short"),
    # "published 2018 through 2020" ("through 2020" alone had been read, 2018 searched; not
    # "to": "1990 to 2000 census data" names the data's years)
    (re.compile(rf"(?<![\w-]){YEAR}\s+(?:through|thru)\s+{YEAR}{END}", re.I), "range"),
    (re.compile(rf"\b(?:since|from)\s+{YEAR}\s+(?:on|onwards?)\b", re.I), "from"),
    (re.compile(rf"\b(?:since|in\s+or\s+after|starting\s+(?:in|from))\s+{YEAR}{END}", re.I),
     "from"),
    (re.compile(rf"\b(?:in\s+)?{YEAR}\s+(?:or\s+later|and\s+later|onwards?|and\s+after)\b"
                rf"(?!\s+(?:in\s+)?{YEAR})", re.I),
     "from"),
    (re.compile(rf"\b(?:after|later\s+than)\s+{YEAR}{END}", re.I), "after"),
    (re.compile(rf"\b(?:before|prior\s+to|earlier\s+than)\s+{YEAR}{END}", re.I), "before"),
    # "pre-2000 papers", "post-2018 work on X": before, after (searched as words, no range)
    (re.compile(rf"(?<![\w-])pre[-–\s]?{YEAR}{END}", re.I), "before"),
    (re.compile(rf"(?<![\w-])post[-–\s]?{YEAR}{END}", re.I), "after"),
    (re.compile(rf"\b(?:until|till|up\s+to|through|in\s+or\s+before)\s+{YEAR}{END}", re.I),
     "to"),
    # "published by 2018": up to it, after a verb of publishing alone ("emissions by 2030"
    # names the data's year; "by" before a name is the author's)
    (re.compile(rf"(?:{_PUBLISHED_BEFORE})by\s+(?:the\s+end\s+of\s+)?{YEAR}{END}", re.I), "to"),
    (re.compile(rf"\b(?:in\s+)?{YEAR}\s+(?:or\s+earlier|and\s+earlier|and\s+before)\b"
                rf"(?!\s+(?:in\s+)?{YEAR})", re.I),
     "to"),
    (re.compile(rf"\b(?:in|from|during)\s+{YEAR}(?!\s*(?:-|–|—|to|until|till)\s*\d){END}", re.I),
     "in"),
    # a year before the papers' noun, a few topic words between: "Show me 2019 GAN papers",
    # "Which 2020 papers use transformers?" (the year had been searched as a word)
    (re.compile(rf"(?<![\w-]){YEAR}(?=\s+(?:[A-Za-z][\w-]*\s+){{0,4}}?(?:papers|abstracts"
                r"|articles|publications)\b)", re.I), "in"),
]
# ...except after a word of time, 1800 to 2039 ("CRAFT since 2030?", "GNNs in 1850?"; "come in
# 2048?", "loss after 1000?", "after 2030 steps" stay numbers): a year no paper is of (its
# words had been searched as the topic's, a false "no")
LAST_YEAR = re.compile(r"\b(?:(during|since|after|before|until|till)\s+(1[89]\d\d|20[0-3]\d)"
                       r"|(from)\s+(20[0-3]\d)(?=\s*[?.!]*\s*$)"  # "from 2030 sensors" stays
                       rf"|(in|from)\s+(18\d\d))(?!\s*(?:-|–|—|to|until|till)\s*\d){END}", re.I)
_LAST_YEAR_KINDS = {"in": "in", "during": "in", "since": "from", "from": "in",  # as YEAR_PHRASES
                    "after": "after", "before": "before", "until": "to", "till": "to"}
# ...and after "in" up to 2039 ending a question asking for papers ("Which papers were
# published on GANs in 2030?"; "What results come in 2048?", "What changed in 2030 work on
# X?" and "Which papers forecast energy demand in 2030?" name no papers' year)
IN_LAST_YEAR = re.compile(rf"\bin\s+(20[0-3]\d){END}(?=\s*[?.!]*\s*$)", re.I)
# a year right after the papers' noun, or after a comma ending a question naming them: "GAN
# papers (2019)", "papers on GANs, 2019" (had been searched as a word); not "CoNLL 2003"
AFTER_PAPERS = re.compile(
    rf"\b{PAPERS}(?P<year>\s*[,(]?\s*(?P<y1>(?:19|20)\d\d)\s*\)?)(?=\s*[?.!]*\s*$|\s+(?:on|about)\b)"
    rf"|\b{PAPERS}\b.*?(?P<comma>,\s*(?P<y2>(?:19|20)\d\d)){END}(?=\s*[?.!]*\s*$)", re.I)
# ...but not a citation's after a name ("Vaswani et al., 2017", "CoNLL, 2003": a capital then
# a small letter, or "et al.", before the comma; an acronym, "GANs", is the topic's)
_CITED = re.compile(r"(?:\bet\s+al\.?|\b[A-Z][a-z][\w-]*)\s*$")
# the years left out: "not written in 2019", "excluding 2019", "exclude 2021", "not
# counting 2021", "except 2018-2019" (the first had been read as 2019 alone, the opposite; the others ignored)
EXCLUDED = re.compile(
    r"\b(?:not\s+(?:(?:been|be|published|written|presented|accepted|appeared|released|from"
    r"|in)\s+){0,2}(?:in|from|during)|exclud(?:e|es|ing)|not\s+counting|leaving\s+out"
    r"|except(?:\s+for)?(?:\s+(?:in|from))?)"
    rf"\s+{YEAR}(?:\s*(?P<span>-|–|to|through)\s*{YEAR}"
    rf"|(?:\s*(?:,|or|and|,\s*or|,\s*and)\s*(?:in\s+)?{YEAR}){{0,3}}){END}", re.I)
NUMBER_WORDS = {w: n for n, w in enumerate("""zero one two three four five six seven eight
nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen
twenty""".split())}
# The last so many years of the store's papers ("in the last three years", "over the last
# decade"): read from its newest year (``filters.of_recent``), not topic words (a false "no")
RELATIVE = re.compile(
    r"\b(?:(?:in|from|during|over|within|for|of)\s+)?(?:the\s+)?(?:last|past|recent|previous)"
    rf"\s+(?:(?P<number>\d{{1,2}}|{'|'.join(NUMBER_WORDS)})\s+(?P<unit>years|decades)"
    r"|(?P<unit1>decade|year))\b"
    # "… of the corpus", "in the store": the store's years, as read (a run's topic had kept them)
    r"(?:\s+(?:of|in)\s+(?:the|this|my|our)\s+(?:corpus|store|collection|data(?:set)?))?", re.I)
_ASKS_PAPERS = re.compile(r"\b(?:papers|abstracts|articles|publications)\b(?:\s+(?:on|about)"
                          r"\b|.*\b(?:published|appeared|accepted|presented|released)\b)",
                          re.I)  # not "works"


def stated_years(text: str
                  ) -> tuple[tuple[int, int] | None, int | None, frozenset[int] | None, str]:
    """The years ``text`` states in words (``DECADE``, ``YEAR_PHRASES``, ``LAST_YEAR``,
    ``IN_LAST_YEAR``, ``RELATIVE``, ``EXCLUDED``): a range, or the last so many years of the store's
    (``Filters.recent``), the years named one by one when they leave a gap in the range
    ("2019 or 2021": 2019 and 2021, ``Filters.named_years``), and ``text`` without them. A
    range open at one end closed by another phrase ("after 2016 and before 2019") is both:
    the first alone had read "years 2017 on". "The year 1998" is read as "1998"."""
    if (said := THE_YEAR.sub(r"\1 ", text)) != text:
        found = stated_years(said)
        return found if found[:3] != (None, None, None) else (None, None, None, text)
    if (m := EXCLUDED.search(text)) and (left := [int(y) for y in m.groups() if y and y.isdigit()]):
        return _excluded(left, bool(m.group("span")), cut(text, m))
    if (m := DECADE.search(text)) and _decade(m) <= LATEST_YEAR:
        first, last = (_decade(m) + n for n in DECADE_PARTS.get(
            (m.group("part") or "").lower(), (0, 9)))
        if m.group("how").lower() == "since":
            return (first, OPEN_END), None, None, cut(text, m)
        return _and_another((first, last), None, text, m)
    if m := RELATIVE.search(text):
        return None, _count_of(m), None, cut(text, m)
    span, named, rest = _phrase_years(text)
    if span is not None and (span[0] == OPEN_START) != (span[1] == OPEN_END):
        span, named, rest = _both_ends(span, rest)
    if span is not None:
        return span, None, named, rest
    if m := LAST_YEAR.search(text):
        word, year = next((w, y) for w, y in zip(m.groups()[::2], m.groups()[1::2], strict=True) if w)
        return _years_of(_LAST_YEAR_KINDS[word.lower()], [int(year)]), None, None, cut(text, m)
    if (m := IN_LAST_YEAR.search(text)) and _ASKS_PAPERS.search(text[:m.start()]):
        return _years_of("in", [int(m.group(1))]), None, None, cut(text, m)
    if ((m := AFTER_PAPERS.search(text)) and int(year := m.group("y1") or m.group("y2")) <= LATEST_YEAR
            and not (m.group("y2") and _CITED.search(text[:m.start("comma")]))):
        said = "year" if m.group("y1") else "comma"
        return _years_of("in", [int(year)]), None, None, f"{text[:m.start(said)]} {text[m.end(said):]}"
    return None, None, None, text


def _excluded(years: list[int], span: bool, rest: str
              ) -> tuple[tuple[int, int] | None, int | None, frozenset[int] | None, str]:
    """The years ``rest`` states (every year when none) but ``years`` (a range when
    ``span``, "except 2018-2019"; else each, "not from 2019 or 2020"): "since 2015
    excluding 2019" is 2015 on but 2019 (the exclusion alone had read 1800 on but 2019)."""
    left = frozenset(range(min(years), max(years) + 1)) if span else frozenset(years)
    within, recent, named, rest = stated_years(rest)
    if recent is not None:  # "in the last five years" is read from the store's newest year
        return within, recent, named, rest
    first, last = within or (EARLIEST_YEAR, LATEST_YEAR)
    kept = (named or frozenset(range(max(first, EARLIEST_YEAR), min(last, LATEST_YEAR) + 1))) - left
    return (min(kept, default=first), max(kept, default=last)), None, kept, rest


def _phrase_years(text: str) -> tuple[tuple[int, int] | None, frozenset[int] | None, str]:
    """The range the first of ``YEAR_PHRASES`` in ``text`` states, the years it names one
    by one when they are not one run ("2019 or 2021": 2019 and 2021; it had been read as
    2019–2021, 2020's papers too), and ``text`` without its words."""
    for phrase, kind in YEAR_PHRASES:
        m = phrase.search(text)
        values = [int(g) for g in m.groups() if g] if m else []
        if m and kind == "either":  # each year of "2014, 2016, 2018 and 2019" (a group keeps its last)
            values = [int(y) for y in re.findall(YEAR, m.group(0))]
        if kind == "short" and values:  # "2017-19": the end in the first year's century
            values, kind = [values[0], values[0] // 100 * 100 + values[1]], "range"
            if values[1] <= values[0]:  # "2019-17" is no range
                continue
        if m and max(values) <= LATEST_YEAR:  # "from 2048 …" is a number, not a year
            span = _years_of(kind, values)
            gaps = kind == "either" and len(set(values)) < span[1] - span[0] + 1
            if kind in ("range", "in", "short") and not gaps:
                span, _, named, rest = _and_another(span, None, text, m)
                return span, named, rest
            return span, frozenset(values) if gaps else None, cut(text, m)
    return None, None, text


# a second span after the first, set beside it ("in the 2000s vs 2020s", "1995-2000 vs
# 2015-2020": a run's second had been dropped) or closing it ("from the 1990s to the 2010s")
def _span(n: str) -> str:
    """A span of years as a question names it, its groups numbered ``n``: a decade, a year,
    or a range."""
    return (rf"(?:(?:in|from|during|between)\s+)?(?:the\s+)?(?:(?P<decade{n}>(?:19|20)\d0)['’]?s\b"
            rf"|(?P<two{n}>[89012]0)['’]?s\b|(?P<a{n}>(?:19|20)\d\d)(?:\s*(?:-|–|—|to|through|and)\s*"
            rf"(?P<b{n}>(?:19|20)\d\d))?{END})")


# ...or weighed against it ("more papers in the 1990s than in the 2010s": R9's second had
# been dropped, the count made of the 1990s alone)
_ANOTHER = re.compile(r"\s*,?\s*(?P<join>vs\.?|versus|compared?\s+(?:to|with)|against|than|and|or|to"
                      rf"|through|until)\s+{_span('')}", re.I)
# two spans set against each other ("in 2019 vs 2020", "the 2000s vs the 2010s", "more in the
# 2010s than in the 1990s"): each asked
_AGAINST = re.compile(rf"{_span('1')}\s*,?\s*(?:vs\.?|versus|compared?\s+(?:to|with)|against|than)\s+"
                      rf"{_span('2')}", re.I)
Span = tuple[int, int]  # a span of years, its first and last


def set_against(text: str) -> tuple[Span, Span] | None:
    """The two spans of years ``text`` sets against each other ("What share of papers on GANs
    were published in 2019 vs 2020?": 2019, 2020), each a share of its own; None else."""
    if not (m := _AGAINST.search(text)):
        return None
    spans = tuple(_span_years(m, n) for n in "12")
    return (spans[0], spans[1]) if all(s[0] <= s[1] <= LATEST_YEAR for s in spans) else None


_A_SPAN = re.compile(_span(""), re.I)


# a word opening a range at the year after it ("after 2018", "since 2018": no span of its own)
_OPENS_RANGE = re.compile(r"\b(?:after|since|before|until|till|by|through|to|prior\s+to|up\s+to"
                          r"|later\s+than|earlier\s+than)\s*$", re.I)


def span_of(text: str) -> tuple[Span, str] | None:
    """The first span of years ``text`` names ("in the 2010s", "2015", "1995-2000") and
    ``text`` without it; None when it names none a paper could be of, or opens a range at
    it ("after 2018" is no span: C62)."""
    if not (m := _A_SPAN.search(text)) or _OPENS_RANGE.search(text[:m.start()]):
        return None
    span = _span_years(m, "")
    return (span, cut(text, m)) if span[0] <= span[1] <= LATEST_YEAR else None


def _span_years(m: re.Match[str], n: str) -> tuple[int, int]:
    """The years the ``_span`` groups numbered ``n`` of ``m`` name."""
    if m.group(f"a{n}"):
        return int(m.group(f"a{n}")), int(m.group(f"b{n}") or m.group(f"a{n}"))
    start = int(m.group(f"decade{n}")) if m.group(f"decade{n}") else _decade_of_two(m.group(f"two{n}"))
    return start, start + 9


def _and_another(span: tuple[int, int], named: frozenset[int] | None, text: str, m: re.Match[str]
                 ) -> tuple[tuple[int, int], None, frozenset[int] | None, str]:
    """``span``, read by ``m`` in ``text``, with a second span right after it (``_ANOTHER``):
    the years from the first's start to the second's end after "to", "through" or "until";
    both spans' years, named one by one, after "vs", "and", "or" ("2018 vs 2019": both)."""
    if not (more := _ANOTHER.match(text, m.end())):
        return span, None, named, cut(text, m)
    second = _span_years(more, "")
    if second[0] > LATEST_YEAR or second[1] < second[0]:
        return span, None, named, cut(text, m)
    rest = f"{text[:m.start()]} {text[more.end():]}"
    whole = (min(span[0], second[0]), max(span[1], second[1]))
    if more.group("join").lower() in ("to", "through", "until"):
        return whole, None, None, rest
    years = frozenset(range(span[0], span[1] + 1)) | frozenset(range(second[0], second[1] + 1))
    return whole, None, (years if len(years) < whole[1] - whole[0] + 1 else None), rest


def _both_ends(span: tuple[int, int], rest: str
               ) -> tuple[tuple[int, int], frozenset[int] | None, str]:
    """A range open at one end (``span``) and the phrase of ``rest`` open at the other:
    "after 2016 and before 2019" the years both hold (the first alone had read "years
    2017 on"); "before 2000 or after 2015", which hold none, the years either holds,
    named one by one (``Filters.named_years``; "2016 on" alone had been read)."""
    other, _, closed = _phrase_years(rest)
    if (other is None or (other[0] == OPEN_START) == (other[1] == OPEN_END)
            or (other[0] == OPEN_START) == (span[0] == OPEN_START)):
        return span, None, rest
    joined = re.compile(r"\s(?:and|but|or)\s(?=\s|[\s?.!]*$)", re.I)
    if max(span[0], other[0]) <= min(span[1], other[1]):
        return ((max(span[0], other[0]), min(span[1], other[1])), None,
                joined.sub(" ", closed, count=1))
    (_, until), (since, _) = sorted([span, other])
    if not joined.search(closed) or since > LATEST_YEAR or until < EARLIEST_YEAR:
        return span, None, rest
    named = frozenset(range(EARLIEST_YEAR, until + 1)) | frozenset(range(since, LATEST_YEAR + 1))
    return (EARLIEST_YEAR, LATEST_YEAR), named, joined.sub(" ", closed, count=1)


def _decade(m: re.Match[str]) -> int:
    """The first year of the decade a ``DECADE`` match names: "1990s" 1990, "'90s" and
    "nineties" 1990, "10s" 2010."""
    if two := m.group("two"):
        return _decade_of_two(two)
    return int(m.group("full") or _DECADE_WORDS[m.group("word").lower()])


def _decade_of_two(two: str) -> int:
    """A decade of two digits' first year: 80s and 90s of the 1900s, 00s to 20s of the 2000s."""
    return (1900 if two[0] in "89" else 2000) + int(two)


def _count_of(m: re.Match[str]) -> int:
    """How many years a ``RELATIVE`` phrase spans: "three years" 3, "decade" 10, "two
    decades" 20, "year" 1."""
    number = (m.group("number") or "one").lower()
    count = int(number) if number.isdigit() else NUMBER_WORDS[number]
    unit = m.group("unit") or m.group("unit1")
    return count * (10 if unit.lower().startswith("decade") else 1)


def _years_of(kind: str, values: list[int]) -> tuple[int, int]:
    first = values[0]
    return {
        "range": (min(values), max(values)),
        "either": (min(values), max(values)),
        "from": (first, OPEN_END),
        "after": (first + 1, OPEN_END),
        "to": (OPEN_START, first),
        "before": (OPEN_START, first - 1),
        "in": (first, first),
    }[kind]


# "between 2014 and 2016 inclusive", "(inclusive)": the range's own word (a topic word before)
_INCLUSIVE = re.compile(r"^\s*,?\s*\(?(?:both\s+)?inclusive(?:ly)?\)?(?!\w)", re.I)


def cut(text: str, m: re.Match[str]) -> str:
    """``text`` without what ``m`` matched (a space in its place), and an "inclusive"
    after it."""
    return f"{text[:m.start()]} {_INCLUSIVE.sub('', text[m.end():], count=1)}"
