"""What a question about a topic's papers over the years asks: its topic ("How has interest
in graph neural networks grown?" → graph neural networks), the years a peak question names
as its claim ("Did research on GANs peak in 2019?"), and what else it asks of the counts:
growth, the top years, the decades (``CountsAsked``: "By what percentage did papers on GANs
grow from 2018 to 2021?").

Why apart from intent.py: a trend question is read by its own family of patterns (a verb of
growth, a count per year, a peak), which ``intent.read_intent`` asks through
``trend_topic``, ``peak_claim`` and ``counts_asked``; the counts answer it
(``ListAnswers.trend_stream``, its lines ``trend_replies.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from assistant.stated_years import END, NUMBER_WORDS, PAPERS, YEAR
from assistant.types import OPEN_END, OPEN_START, Filters

# A question about how much a topic is worked on over the years; a fall too ("Has interest
# in GANs dropped since 2019?" had quoted one paper; C60)
_CHANGED = (r"(?:grown|grow|changed|change|evolved|evolve|developed|develop|risen|rise|declined"
            r"|decline|increased|increase|decreased|decrease|shifted|shift|progressed|trended"
            r"|growing|changing|evolving|rising|declining|increasing|decreasing"
            r"|dropped|drop|dropping|fallen|fall|fell|falling|waned|waning|faded|fading)")
_OVER_TIME = r"(?:over\s+(?:time|the\s+(?:years|decades?))|year[\s-]+(?:by|over|to|after)[\s-]+year)"
_PER_YEAR = r"(?:(?:per|each|every|by|a)\s+year|yearly|annually)"
_PER_DECADE = r"(?:(?:per|each|every|by|a)\s+decade)"
_OF_PAPERS = rf"(?:{PAPERS}|publications?|popular\w*|interest\s+in)"  # what a count is of
# what asks for papers counted: "how many", "number of", "plot …", "how popular", "interest
# in", "papers were published" (not "papers predict yearly sales", "count objects over time")
_COUNTED = (rf"(?:how\s+many|number\s+of|^\s*(?:count|plot|chart|graph|draw|show)|popular\w*"
            rf"|interest\s+in|{PAPERS}\s+(?:were\s+|are\s+|have\s+been\s+)?(?:published|appeared))")
# A field's own growth or decline, said of the topic itself ("How has federated learning
# grown?"): not "changed", "increased" or "developed", which a paper's quantities and
# methods do as often ("How has the accuracy increased?")
_GREW = r"(?:grown|risen|declined|evolved|taken\s+off|boomed|waned|faded|shrunk)"
# what a trend question may end with after its verb ("Has X grown lately?")
_ENDS = (rf"(?:\s+(?:{_OVER_TIME}|recently|lately|in\s+(?:recent|the\s+last|the\s+past)\s+years"
         r"|so\s+(?:much|fast|quickly)|in\s+popularity))?\s*[?.!]*\s*$")
# the papers' count, the interest in a topic or its field, as the subject that grows ("the
# number of papers on X", "the number of X papers", "interest in X", "the field of X"): the
# topic follows
_FRAMED = (rf"(?:the\s+)?(?:(?:interest|research|work|attention|activity|publications?|papers?"
           rf"|popularity|use|adoption|(?:number|share)\s+of\s+{PAPERS})\s+(?:in|on|about|into|to|of)\s+"
           rf"|(?:number|share)\s+of\s+(?=(?:[\w-]+\s+){{1,4}}{PAPERS}\b)"
           rf"|(?=(?:[\w-]+\s+){{1,4}}{PAPERS}\s+{_CHANGED}\b)"  # "Did X papers increase?"
           r"|(?:research\s+)?field\s+of\s+(?!view\b))")
# a subject that names no field: one pointing back ("How has it evolved?"), or a count of anything
# but papers, a paper's own ("How has the number of parameters grown?"; the papers' is ``_FRAMED``)
_NO_FIELD = (r"(?!(?:it|its|they|their|them|this|that|these|those|he|she|his|her"
             r"|the\s+(?:paper|method|approach|model|authors?)"
             r"|(?:the\s+)?(?:number|share|amount|count|size)\s+of)\b)")
# A field's peak ("Did research on GANs peak in 2019?", "When did interest in GANs peak?",
# "Was 2019 the peak of GANs?", "Were GANs at their peak in 2019?"): the year of the most
# papers, which the counts over every year show; the years it names are the claim those
# counts check, not a range to count within (``Intent.claimed_years``). A field is named
# without an article, a paper's quantity with one ("When did the loss peak?", "What was
# the peak of the curve?"), as for ``_GREW``.
_PEAKED = r"(?:peak(?:ed)?|(?:reach(?:ed)?|hit)\s+(?:its|their|a)\s+peak)"
_FIELD = rf"(?:{_FRAMED}|(?!(?:the|a|an)\s){_NO_FIELD})"
PEAK_RES = [
    re.compile(rf"^\s*(?:when\s+)?(?:did|has|have|had)\s+{_FIELD}(?P<topic>.+?)\s+{_PEAKED}"
               r"(?:\s+(?:in|around|during|by|before|after|between|since|yet|already|or|and)\b.*"
               r")?\s*[?.!]*\s*$", re.I),
    re.compile(rf"^\s*(?:when\s+)?(?:was|were|is|are)\s+{_FIELD}(?P<topic>.+?)\s+at\s+"
               r"(?:its|their)\s+(?:peak|height|highest)\b", re.I),
    re.compile(rf"^\s*(?:(?:was|is|were)\s+(?:\S+\s+)?|(?:when|what|which)\s+(?:year\s+)?"
               rf"(?:was|is)\s+)the\s+peak\s+(?:year\s+)?(?:of|for|in)\s+{_FIELD}(?P<topic>.+)$",
               re.I),
]
# A year a question names ("Was 2019 the peak of GANs?" states no range in words)
NAMED_YEAR_RE = re.compile(rf"(?<![\w-]){YEAR}{END}")

# What a trend question asks of its counts beyond the table (``CountsAsked``): how much the
# topic grew between two years, as a percentage or a multiple ("By what percentage did
# papers on GANs grow from 2018 to 2021?", "Did the number of papers about bandits double
# between 2015 and 2020?"), its busiest years ("the top 3 years for X"), or its decades
# ("Which decade had the most papers on X?"). Its subject is the papers or the research on
# a field ("papers on X", "X papers", "research on X"), or a field named without an article
# in the present perfect of a verb only a field does ("How much has federated learning
# grown?"): "By what percentage did the error decline?", "How much did accuracy grow?" and
# "What is the growth rate of model parameters?" ask of a paper's quantity (a review's).
_HOW_MUCH = r"^\s*(?:by\s+)?(?:what|how\s+(?:much|fast|quickly))\s+"  # "By what %", "How fast"
_BY_HOW_MUCH = rf"{_HOW_MUCH}(?:(?:percent(?:age)?|%|factor|amount|margin)\s+)?(?:did|has|have|had)\s+"
_FIELD_GREW = r"(?:grown|expanded|boomed|taken\s+off)"
_GROWTH_NOUN = (r"^\s*what(?:\s+(?:is|was|were|are)|['’]s)\s+the\s+(?:(?:percent(?:age)?|%|annual|yearly"
                r"|relative|overall)\s+)?(?:growth|increase|rise|decline|decrease|drop|change)"
                r"(?:\s+rate)?\s+(?:in|of)\s+")
_SUBJECT_PAPERS = rf"(?:the\s+)?(?P<topic>(?:[\w-]+\s+){{1,5}}?)(?:{PAPERS}|research|publications)"
# a subject that is a kind of model alone, an acronym's plural ("How much did GANs grow
# between 2016 and 2021?", "How much did GANs increase?", "What is the decline in RNNs?": its
# papers), not a metric's letters ("How much did BLEU increase?", "What is the decrease in
# FIDs?": the common evaluation metrics' plurals, a review's), a unit's ("FLOPs"), a paper's
# quantity ("accuracy on ImageNet") nor words in lower case ("model size")
_RANGE_ENDS = (r"(?=\s+(?:between|from|since|in|after|over|during|by)\s+(?:\d|the\s+(?:last|past))"
               r"|(?:\s+(?:per|each|a|every)\s+year)?\s*[?.!]*\s*$)")  # the end, or its years next
UNIT_PLURALS = r"[KMGTP]?(?:FLOPs|FLOPS|MACs)"  # quantities' units, no kind of model ("GFLOPs")
_NOT_A_FIELD = (rf"(?:{UNIT_PLURALS}|FPSs|FIDs|KIDs|AUCs|ROCs|BLEUs|ROUGEs|METEORs|PSNRs"
                r"|SSIMs|R?MSEs|MAEs|WERs|CERs|EERs|[FT]PRs|NLLs|PPLs|ELBOs|MRRs|[mM]?APs)")
_NAMED_SUBJECT = rf"(?P<topic>(?!{_NOT_A_FIELD}\b)[A-Z][A-Za-z0-9-]*[A-Z]s)\b"
_FOLD = {"double": 2, "doubled": 2, "triple": 3, "tripled": 3, "quadruple": 4, "quadrupled": 4}
_FOLDED = (rf"(?P<fold>{'|'.join(_FOLD)}|(?:grown|grow|increased?|risen|rise)\s+(?P<times>\w+)[\s-]?fold)\b")
_MANY = rf"(?P<n>[1-9]\d?|{'|'.join(w for w in NUMBER_WORDS if w != 'zero')})"
_AS_ASKED: list[tuple[Literal["growth", "top_years", "decades"], re.Pattern[str]]] = [
    ("growth", re.compile(rf"{_BY_HOW_MUCH}{_FRAMED}(?P<topic>.+?)\s+{_CHANGED}\b", re.I)),
    ("growth", re.compile(rf"{_BY_HOW_MUCH}{_SUBJECT_PAPERS}\s+{_CHANGED}\b", re.I)),
    ("growth", re.compile(rf"(?i:{_BY_HOW_MUCH}){_NAMED_SUBJECT}\s+(?i:{_CHANGED})(?i:{_RANGE_ENDS})")),
    ("growth", re.compile(rf"{_HOW_MUCH}(?:(?:percent(?:age)?|%|factor)\s+)?(?:has|have)\s+"
                          rf"(?!(?:the|a|an|our|my|your)\s){_NO_FIELD}(?P<topic>.+?)\s+{_FIELD_GREW}\b",
                          re.I)),
    ("growth", re.compile(rf"{_GROWTH_NOUN}{_FRAMED}(?P<topic>.+)$", re.I)),
    ("growth", re.compile(rf"{_GROWTH_NOUN}{_SUBJECT_PAPERS}\b", re.I)),
    ("growth", re.compile(rf"(?i:{_GROWTH_NOUN}){_NAMED_SUBJECT}(?i:{_RANGE_ENDS})")),
    ("growth", re.compile(rf"^\s*(?:did|has|have|had)\s+{_FRAMED}(?P<topic>.+?)\s+{_FOLDED}", re.I)),
    ("growth", re.compile(rf"^\s*(?:did|has|have|had)\s+{_SUBJECT_PAPERS}\s+{_FOLDED}", re.I)),
    ("top_years", re.compile(rf"^\s*(?:what|which)\s+(?:were|are|was|is)\s+the\s+(?:top|busiest|biggest"
                             rf"|best|leading|peak|most\s+active)\s+(?:{_MANY}\s+)?years\s+(?:for|of|in|on)\s+"
                             r"(?P<topic>.+)$", re.I)),
    ("top_years", re.compile(rf"^\s*(?:in\s+)?(?:which|what)\s+{_MANY}\s+years\s+(?:had|saw|have|were"
                             r"|was|did)\b(?P<topic>.+)$", re.I)),
    ("top_years", re.compile(rf"^\s*(?:list|name|give|show)\s+(?:me\s+)?the\s+(?:top\s+)?{_MANY}\s+years"
                             r"\s+(?:with|for|of|on)\b(?P<topic>.+)$", re.I)),
    ("top_years", re.compile(rf"\btop\s+{_MANY}\s+years\s+(?:for|of|in|on)\s+(?P<topic>.+)$", re.I)),
    ("decades", re.compile(r"^\s*(?:in\s+)?(?:which|what)\s+decades?\s+(?:had|saw|has|have|was|were|did)\b"
                           # "…had more papers on X?", "…had the fewest papers on X?" (C64: "fewer"
                           # had been answered with the decade of the most)
                           r"(?:\s+(?:more|(?P<fewest>fewer|the\s+fewest|the\s+least))\b)?"
                           rf"(?=.*\b(?:{PAPERS}|research|work|most\b.*\bpublished)\b)(?P<topic>.+)$", re.I)),
    ("decades", re.compile(rf"^(?:(?=.*\b{_OF_PAPERS}\b)(?=.*\b{_COUNTED}\b)(?=.*\b{_PER_DECADE}\b)"
                           rf"|(?=.*\b{PAPERS}\s+{_PER_DECADE}\b))(?P<topic>.+)$", re.I)),
]


@dataclass(frozen=True)
class CountsAsked:
    """What a trend question asks of its counts beyond the table (``_AS_ASKED``): ``growth``
    between the first and the last year counted, ``factor`` the multiple a yes-or-no
    question asks of ("double": 2; None asks how much); the ``n`` years of the most papers;
    or the papers per ``decades`` (those of the ``fewest``, when asked so)."""

    kind: Literal["growth", "top_years", "decades"]
    factor: float | None = None
    n: int = 1
    fewest: bool = False  # the decade of the fewest papers asked for, not of the most


def counts_asked(question: str) -> CountsAsked | None:
    """What ``question`` asks of its topic's counts (``CountsAsked``), or None: a trend
    question asking for the counts alone ("How has X grown?"), or no trend question."""
    for kind, pattern in _AS_ASKED:
        if m := pattern.search(question):
            found = m.groupdict()
            many = found.get("n")  # "the busiest years": three
            n = (int(many) if many.isdigit() else NUMBER_WORDS[many.lower()]) if many else \
                3 if kind == "top_years" else 1
            return CountsAsked(kind, factor=_factor(found.get("fold"), found.get("times")), n=n,
                               fewest=bool(found.get("fewest")))
    return None


def _factor(fold: str | None, times: str | None) -> float | None:
    """The multiple a growth question asks of: "double" 2, "grown tenfold" 10; None."""
    if not fold:
        return None
    if times:
        word = times.lower()
        return float(word) if word.isdigit() else float(NUMBER_WORDS.get(word, 0)) or None
    return float(_FOLD[fold.lower()])


TREND_RES = [
    *(pattern for _, pattern in _AS_ASKED),
    re.compile(rf"^\s*how\s+(?:has|have|did|is|are)\s+{_FRAMED}(?P<topic>.+?)\s+{_CHANGED}\b",
               re.I),
    # asked yes or no ("Has the number of papers on X grown?", "Is interest in X declining?")
    re.compile(rf"^\s*(?:has|have|did|is|are)\s+{_FRAMED}(?P<topic>.+?)\s+{_CHANGED}{_ENDS}",
               re.I),
    re.compile(rf"^\s*how\s+(?:has|have|did)\s+(?P<topic>.+?)\s+{_CHANGED}\s+{_OVER_TIME}", re.I),
    # "How has X evolved?", "Has X declined?": the present perfect asks of the years to now;
    # a field is named without an article, a paper's quantity with one ("How has the gap
    # grown?")
    re.compile(rf"^\s*(?:how\s+)?(?:has|have)\s+(?!(?:the|a|an)\s){_NO_FIELD}(?P<topic>.+?)"
               rf"\s+{_GREW}{_ENDS}", re.I),
    re.compile(r"^\s*(?:what\s+(?:are|were|is)\s+(?:the\s+)?|(?:show|plot|chart|draw)\s+(?:me\s+)?"
               r"(?:the\s+)?)?(?:publication\s+|research\s+)?trends?\s+(?:in|of|for)\s+(?P<topic>.+)",
               re.I),
    re.compile(r"^\s*(?:how\s+many|number\s+of)\s+papers\s+(?:are\s+there\s+)?(?:on|about|mention"
               r"|mentioning|use|using|study|studied|apply|applied|address|work\s+on)\s+"
               r"(?P<topic>.+?)\s+(?:per|each|every|by|a)\s+year", re.I),
    re.compile(rf"^\s*(?:is|are)\s+{_NO_FIELD}(?P<topic>.+?)\s+(?:still\s+)?(?:growing|declining"
               rf"|on\s+the\s+rise|in\s+decline|fading|taking\s+off|booming|waning){_ENDS}", re.I),
    # papers counted year by year, in any order of words ("How many papers per year mention
    # X?", "Plot X papers by year", "How popular has X been over the years?"): the topic is
    # what is left once the words that frame the question are taken off its ends
    re.compile(rf"^(?:(?=.*\b{_OF_PAPERS}\b)(?=.*\b{_COUNTED}\b)(?=.*\b{_PER_YEAR}\b)"
               rf"|(?=.*\b{PAPERS}\s+{_PER_YEAR}\b))(?P<topic>.+)$", re.I),
    re.compile(rf"^(?=.*\b{_OF_PAPERS}\b)(?=.*\b{_COUNTED}\b)(?=.*\b{_OVER_TIME}\b)(?P<topic>.+)$",
               re.I),
    # the year of the most papers, or of the first ("Which year had the most papers on X?",
    # "When did papers on X first appear?", "When did X emerge?"): the counts show it
    re.compile(rf"^\s*(?:(?:in\s+)?(?:which|what)\s+years?\s+(?:had|saw|has|have|was|were|did)\b"
               rf"(?=.*\b(?:{PAPERS}|most\b.*\bpublished)\b)"
               rf"|when\s+did\s+(?:the\s+)?(?:first\s+)?{PAPERS}\s+(?:on|about)\b"
               r"|when\s+did\b(?=.+\b(?:first\s+)?(?:appear|emerge|take\s+off|become\s+popular"
               r"|gain\s+popularity)\w*"
               r"\s*[?.!]*\s*$))(?P<topic>.+)$", re.I),
    *PEAK_RES,
]
# Words that frame a trend question rather than name its topic, taken off the topic's ends
# ("the number of federated learning papers" → federated learning); the topic's own words
# inside it stay ("learning on graphs").
_FRAME_PHRASES = re.compile(rf"\b(?:{_PER_YEAR}|{_PER_DECADE}|{_OVER_TIME}|how\s+(?:many|much|popular)"
                            r"|number\s+of"
                            r"|share\s+of|(?:have|has)\s+been|(?:interest|attention|activity)\s+(?:in"
                            r"|to|on|into)|popularity\s+of|(?:become|became)\s+popular"
                            r"|gain(?:ed)?\s+popularity|thank\s+you)\b", re.I)
_FRAME_WORDS = frozenset("""
    a an the of on about in into to for with by from that which what there me find all get
    when first most fewest saw emerge emerged take off become
    is are was were be been being has have had did does do
    papers paper works publications publication articles article studies abstracts research
    number count counts plot chart draw show
    give list trend trends year years yearly annually decade decades each every per
    mention mentions mentioning mentioned use uses using used study studied studying address
    addressing apply applying applied work working published publish appeared appear written
    grown grow changed change evolved evolve developed develop risen rise declined decline
    increased increase decreased decrease shifted shift progressed trended growing changing
    evolving rising declining increasing decreasing please pls plz thanks thx cheers""".split())
_TOPIC_END = re.compile(rf"(?:(?:^|\s+)(?:{_OVER_TIME}|in\s+the\s+(?:papers|corpus|literature|abstracts)"
                        r"|in\s+research|recently|lately|in\s+total|overall|altogether|combined))+[\s?.!]*$"
                        r"|[\s?.!]+$", re.I)  # "… in 2020 and 2021 combined?": no topic's words



def peak_claim(question: str, filters: Filters | None) -> tuple[int, int] | None:
    """The years a question about a field's peak names ("Did research on GANs peak in
    2019?" → 2019, "Was 2019 the peak of GANs?", "Did X peak before 2015?"), or None when it
    asks of no peak or names no year: the claim its counts over every year check. Its range
    had filtered the count to 2019's papers, where any year is the peak."""
    if not any(p.search(question) for p in PEAK_RES):
        return None
    named = [int(year) for year in NAMED_YEAR_RE.findall(question)]
    if filters and filters.years and len(named) < 2:
        return filters.years
    return (min(named), max(named)) if named else None  # "in 2019 or 2020": either


# A verb of change ending the question but for the year it is measured since and how
# ("Did interest in SVMs decline after 2010?", "… changed year by year since 2017?"): not a
# word of the topic ("shift-invariant kernels after 2010", "to increase robustness"), nor
# a change of something else ("How have papers on GANs since 2018 changed their metrics?")
_CHANGE_SINCE_RE = re.compile(
    rf"\b(?:{_CHANGED}|{_GREW})(?:\s+(?:{_OVER_TIME}|in\s+popularity))*\s+(?:after|since)\s+"
    rf"(?:the\s+year\s+)?{YEAR}(?:\s+on(?:wards?)?)?(?:\s+(?:{_OVER_TIME}|in\s+popularity))*"
    r"\s*[?.!]*\s*$", re.I)


def change_since(question: str, filters: Filters | None) -> int | None:
    """The year a change the question asks about is measured from ("Did interest in SVMs
    decline after 2010?" → 2010, "Has X grown since 2017?" → 2017): its verb of change
    ends it, but for "after" or "since" that year, which ``filters`` (the question's own)
    read as a range open at its end. Counted within the range, as it had been, "after 2010"
    showed 2011 on alone, with "first counted in 2011" (a researcher's run); the year
    itself is the measure. None for any other question: "Did X grow before 2015?" asks of
    the years up to 2015, its range."""
    m = _CHANGE_SINCE_RE.search(question)
    if m is None or filters is None or filters.years is None or filters.recent:
        return None
    start, end = filters.years
    return int(m.group(1)) if start > OPEN_START and end >= OPEN_END else None


def trend_topic(question: str) -> str | None:
    """The topic of a question about its papers over the years ("How has interest in graph
    neural networks grown?" → graph neural networks), "" when it names none ("How many
    papers per year?", which an author may filter), or None when it is no such question."""
    matched = False
    for pattern in TREND_RES:
        m = pattern.search(question)
        topic = trimmed_topic(m.group("topic")) if m else ""
        if re.search(r"\w", topic):
            return topic
        matched = matched or bool(m)
    return "" if matched else None


def trimmed_topic(text: str) -> str:
    """A trend's topic less the words that frame the question at its ends; framing words
    inside it stay ("user interest in recommender systems")."""
    text = _TOPIC_END.sub("", text)
    framed = [range(*m.span()) for m in _FRAME_PHRASES.finditer(text)]
    words = list(re.finditer(r"\S+", text))
    framing = [any(w.start() in span for span in framed)
               or w.group().strip(",?.!\"'“”").lower() in _FRAME_WORDS
               or not w.group().strip(",?.!\"'“”") for w in words]
    if False not in framing:
        return ""
    first = framing.index(False)
    last = len(words) - framing[::-1].index(False)
    return text[words[first].start():words[last - 1].end()].strip(" ,\"'“”")
