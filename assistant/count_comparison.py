"""A question that compares two topics by how many papers each has ("Are there more papers on
GANs or on normalizing flows?", "Which has more papers, GANs or VAEs?", "Is reinforcement
learning more popular than active learning?"): its reading, the two topics.

Why: such a question asks for two counts over the whole store, which a trend's counting
gives (``ListAnswers.compare_stream``), not for the sentences of the five papers that name
both topics, which the cited answer had quoted. The reading is ``Intent.compared_topics``;
it lives here, beside intent.py, as one reading with its own trimming of the topics.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.stated_years import PAPERS, Span, span_of
from assistant.trend_questions import UNIT_PLURALS

_AMOUNT = r"(?:more|fewer|less)(?!\s+than\b)"  # "more than 10 papers on X" counts no two topics
# how much a field is worked on; "common" and "prevalent" say how often a thing happens
# ("Is overfitting more common than underfitting in small datasets?" asks of findings)
_POPULAR = r"(?:popular|studied|researched)"
_END = r"\s*[?.!]*\s*$"
_SEP = r"\s*[,:;\u2013\u2014-]?\s*"
COUNT_COMPARISON_RES = [
    # "Are there more papers on A or (on) B?", "Were there fewer A papers than B papers?"
    re.compile(rf"^\s*(?:are|were)\s+there\s+{_AMOUNT}\s+(?=.*\b{PAPERS}\b)(?P<a>.+?)\s+"
               rf"(?:or|than)\s+(?:there\s+(?:are|were)\s+)?(?P<b>.+?){_END}", re.I),
    # "Do more papers study A or B?", "Did fewer papers use A than B?"
    re.compile(rf"^\s*(?:do|did)\s+{_AMOUNT}\s+{PAPERS}\s+(?!on\b|about\b)[\w-]+\s+(?P<a>.+?)\s+"
               rf"(?:or|than)\s+(?P<b>.+?){_END}", re.I),
    # "Which has more papers, A or B?", "Which topic had the most papers: A or B?"
    re.compile(rf"^\s*(?:which|what)\s+(?:[\w-]+\s+)?(?:has|had|have|gets|got|sees|saw)\s+"
               rf"(?:more|fewer|the\s+most|the\s+fewest)\s+{PAPERS}{_SEP}(?P<a>.+?)\s+or\s+"
               rf"(?P<b>.+?){_END}", re.I),
    # "Which is more popular, A or B?", "Which was more studied: A or B?"
    re.compile(rf"^\s*(?:which|what)\s+(?:[\w-]+\s+)?(?:is|was|are|were)\s+more\s+{_POPULAR}"
               rf"{_SEP}(?P<a>.+?)\s+or\s+(?P<b>.+?){_END}", re.I),
    # "What's trending more: A or B?", "Which is growing faster, A or B?" (a run's answer
    # had quoted one abstract)
    re.compile(rf"^\s*(?:which|what)(?:\s+(?:topic|field|area|one|direction|method|approach)s?)?"
               rf"(?:['’]s|\s+(?:is|was|are|were))?\s+(?:trending|growing|rising)\s+(?:more|faster)"
               rf"{_SEP}(?P<a>.+?)\s+or\s+(?P<b>.+?){_END}", re.I),
    # "Is A more popular than B?", "Are A or B more studied?" (a field named without an
    # article: "Is the method more common than…?" asks about a paper)
    re.compile(rf"^\s*(?:is|are|was|were)\s+(?!(?:the|a|an|it|this|that|they)\s)(?P<a>.+?)\s+"
               rf"more\s+{_POPULAR}\s+than\s+(?P<b>.+?){_END}", re.I),
    re.compile(rf"^\s*(?:is|are|was|were)\s+(?!(?:the|a|an|it|this|that|they)\s)(?P<a>.+?)\s+"
               rf"or\s+(?P<b>.+?)\s+more\s+{_POPULAR}{_END}", re.I),
    # "Which topic grew faster, A or B?": a field's noun before the past tense ("Which grew
    # faster, model size or dataset size?" asks of quantities; a review's)
    re.compile(rf"^\s*(?:which|what)\s+(?:topic|field|area|direction)s?\s+(?:grew|rose)\s+(?:more|faster)"
               rf"{_SEP}(?P<a>.+?)\s+or\s+(?P<b>.+?){_END}", re.I),
    # "Compare A and B by number of papers", "Did A overtake B in number of papers?" (a run's
    # answers had quoted five abstracts, or refused)
    re.compile(rf"^\s*compare\s+(?P<a>.+?)\s+(?:and|with|to|vs\.?|versus)\s+(?P<b>.+?)\s+(?:by|in)\s+"
               rf"(?:the\s+)?(?:number|count)\s+of\s+{PAPERS}{_END}", re.I),
    re.compile(rf"^\s*(?:did|have|has)\s+(?P<a>.+?)\s+(?:overtak(?:e|en)|surpass(?:ed)?|outnumber(?:ed)?)"
               rf"\s+(?P<b>.+?)\s+(?:by|in)\s+(?:the\s+)?(?:number|count)\s+of\s+{PAPERS}{_END}", re.I),
    # "Compare the number of papers on A and (on) B" (R9: "A and B" had been counted as one)
    re.compile(rf"^\s*compare\s+the\s+(?:numbers?|counts?)\s+of\s+{PAPERS}\s+(?P<a>(?:on|about|using)\s+.+?)"
               rf"\s+(?:and|with|to|vs\.?|versus)\s+(?P<b>.+?){_END}", re.I),
]
# "Which grew faster, GANs or VAEs?" names no field's noun: a comparison when a side is
# written as a method's name (``names_a_method``), not "Which grew faster, model size or
# dataset size?", which asks of quantities (a review's)
_GREW_FASTER_HEAD = (r"^\s*(?:which|what)(?:['’]s|\s+(?:has|have))?\s+(?:grew|grown|rose|risen)\s+"
                     r"(?:more|faster)\s*(?:[,:;\u2013\u2014-]\s*)*(?:(?:recently|lately|of\s+late"
                     r"|(?:in|over|during)\s+(?:the\s+)?(?:recent|last|past)\s+(?:\w+\s+){0,2}(?:years?|decades?)"
                     r"|over\s+(?:time|the\s+years|the\s+decades?)|this\s+decade|in\s+(?:popularity|the\s+literature"
                     r"|(?:the\s+)?(?:number|count)\s+of\s+(?:papers|publications)))\s*[,:;\u2013\u2014]\s*)?")
_GREW_FASTER = re.compile(rf"{_GREW_FASTER_HEAD}(?P<a>[^,:;]+?),?\s+or\s+(?P<b>.+?){_END}", re.I)
# "Has A grown faster than B?" (years read apart: "… since 2017?"), "Compare the growth of A
# and B": a growth compared, when its sides name fields (``names_fields``; a run's)
_GROWTH_OF = [
    re.compile(rf"^\s*(?:has|have|did|is|are)\s+(?!(?:the|a|an|it|this|that|they)\s)(?P<a>.+?)\s+"
               rf"(?:grown|grow|risen|rise|growing|rising)\s+(?:more|faster)\s+than\s+(?P<b>.+?){_END}",
               re.I),
    re.compile(rf"^\s*compare\s+the\s+(?:growth|rise|trends?|popularity)\s+(?:of|in)\s+"
               rf"(?!(?:the|a|an|its|their)\s)(?P<a>.+?)\s+"
               rf"(?:and|with|to|vs\.?|versus)\s+(?P<b>.+?){_END}", re.I),
]
# "Has A overtaken B?" with no count named: a count compared when its sides are fields of
# several words (``_a_field``) or papers ("papers on A … papers on B"), not methods' names
# ("Did GPT-3 surpass BERT?" asks of results); R9's had quoted one abstract
_OVERTOOK = re.compile(rf"^\s*(?:did|have|has)\s+(?!(?:the|a|an|it|this|that|they)\s)(?P<a>.+?)\s+"
                       rf"(?:overtak(?:en|e)|surpass(?:ed)?|outnumber(?:ed)?)\b{_SEP}(?P<b>.+?){_END}", re.I)
# a kind of model written as an acronym's plural ("GANs", "CNNs"; not "FLOPs", a unit)
_METHODS = re.compile(rf"\b(?!{UNIT_PLURALS}\b)[A-Z]{{2,}}s\b")
# ...of three or more, a comma list before the "or" ("Which grew faster: GANs, VAEs or
# diffusion models?" had quoted one abstract naming two of them): a comparison whose first
# side lists two, each counted (``compared_sides``), as a count's, when a kind of model
# (``_METHODS``) or two names are among them: one quantity's name is no field ("parameters,
# FLOPs or GPU memory?", C57); its first words no preposition's ("in accuracy, ResNet or
# VGG?" says what grew, C55)
_GREW_FASTER_LIST = re.compile(rf"{_GREW_FASTER_HEAD}(?!\s*(?:in|of|for|by|on|at|with|per|across"
                               rf"|among)\b)(?P<a>[^,:;]+?(?:,\s*[^,:;]+?)+),?\s+or\s+(?P<b>[^,:;]+?){_END}",
                               re.I)
# (a side holds no comma or colon: "…, in the paper, FLOPs or parameters?" had compared
# “paper, FLOPs”, "… in the paper: FLOPs or …" “paper: FLOPs” (reviews'); "GANs, or VAEs?"
# is one (another's); "Which grew faster, since 2016, GANs or VAEs?" is searched without its
# years as "Which grew faster,, GANs or VAEs?"); a time's words before a colon or a comma
# say when ("Which grew faster in recent years: GANs or VAEs?" had compared nothing, a
# review's), as do popularity's or the papers' count ("in popularity:"); any others say what
# grew ("… in accuracy, ResNet or VGG?": no count of papers)
# Words that frame a compared topic rather than name it, taken off its ends ("papers on
# GANs" → GANs, "GAN papers" → GAN, "on normalizing flows" → normalizing flows)
_LEAD = re.compile(rf"^(?:(?:the\s+)?(?:{PAPERS}|research|interest|work)\s+(?:on|about|using|that\s+use"
                   r"|in|into)\s+|(?:on|about|using|in)\s+(?:the\s+)?)", re.I)  # "research on GANs" (C50)
_NO_TOPIC = re.compile(r"^(?:than|\d)", re.I)  # a side that is a number's, not a topic
_TAIL = re.compile(rf"\s+(?:{PAPERS}|ones)$", re.I)
# "GAN research", "reinforcement learning work": the field's, taken off a name or several
# words, or off both sides ("bandit research or RL research"); kept on one word alone, where
# it may make the field's name ("social work", "action research"; "operations research"
# always). Both ways err somewhere ("bandit research or RL" keeps it; "qualitative research
# or quantitative research" loses it): what a one-word field is needs knowing the field.
_FIELD_TAIL = re.compile(r"(?<!\boperations)\s+(?:research|work)$", re.I)
# "A vs B", "A versus B", "A compared to B" as a count's or a trend's topic: two topics set
# against each other, each counted ("How many papers on GANs vs VAEs per year?"), unless
# the pair names one thing ("the exploration vs exploitation trade-off") or what the
# papers do ("comparing GANs vs VAEs": papers that compare)
_VERSUS = re.compile(r"\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+", re.I)
_ONE_THING = re.compile(r"^(?:compar|contrast)\w*\b|\b(?:trade-?offs?|dilemmas?|debates?)\b",
                        re.I)


def compared_topics(question: str) -> tuple[str, str] | None:
    """The two sides a question compares by their papers' count ("Are there more papers
    on GANs or on normalizing flows?" → GANs, normalizing flows; "…on GANs, VAEs or flows?"
    → "GANs, VAEs", flows, which ``compared_sides`` reads as three), or None when it asks no
    such thing, or names no topic on one side."""
    for pattern in COUNT_COMPARISON_RES:
        m = pattern.search(question)
        if m:
            first, second = _trimmed_pair(m.group("a"), m.group("b"))
            if all(re.search(r"\w", t) and not _NO_TOPIC.match(t) for t in (first, second)):
                return first, second
    for pattern in (_GREW_FASTER, *_GROWTH_OF):
        if (m := pattern.search(question)) and names_fields(sides := _trimmed_pair(m["a"], m["b"])):
            return sides
    # "Did GPT-3 surpass BERT?" asks of results: only fields of several words, or papers
    if (m := _OVERTOOK.search(question)) and (all(_a_field(_trimmed(side)) for side in (m["a"], m["b"]))
                                              or all(_LEAD.match(side) for side in (m["a"], m["b"]))):
        return _trimmed_pair(m["a"], m["b"])
    listed = [*m["a"].split(","), m["b"]] if (m := _GREW_FASTER_LIST.search(question)) else []
    if m and (any(_METHODS.search(side) for side in listed)
              or sum(names_a_method((side, "")) for side in listed) >= 2
              or all(_a_field(_trimmed(side)) for side in listed)):
        return _trimmed(m["a"]), _trimmed(m["b"])
    return None


# no side: a pronoun ("Did he have more papers …?", "Do you have …": C67)
_NOT_A_SIDE = (r"(?!(?:the|a|an|it|this|that|these|those|they|there|he|she|we|you|i|your|our|its"
               r"|their|his|her)\s)")
# what a paper is, not what it is on: no abstract says it ("Which had more accepted papers:
# 2019 or 2020?" had counted two abstracts writing "accepted": C67)
_PAPER_KIND = re.compile(r"^(?:(?:the|all|more|highly|most|newly)\s+)*(?:accepted|published|total|oral"
                         r"|spotlight|poster|cited|submitted|rejected|new|long|short|single-author"
                         r"|workshop|conference|journal|open-access|peer-reviewed|other|such)$", re.I)
# a topic's count asked of two spans written alone, the topic beside the comparison:
# "Which had more MCMC papers: the 1990s or the 2010s?", "Did MCMC have more papers in the
# 2010s than in the 1990s?", "Was MCMC more studied in the 1990s or the 2010s?" (left out
# at C62, read as a list of every year's papers or quoted)
PERIOD_COMPARISON_RES = [
    re.compile(rf"^\s*(?:which|what|when)\s+(?:[\w-]+\s+)?(?:has|had|have|saw|sees|got|gets|were\s+there"
               rf"|was\s+there)\s+(?:more|fewer|less|the\s+most|the\s+fewest)\s+"
               rf"(?P<side>(?!{PAPERS}\b)[^,:;]+?\b{PAPERS}){_SEP}(?P<a>.+?)\s+or\s+(?P<b>.+?){_END}", re.I),
    re.compile(rf"^\s*(?:did|does|do|has|have)\s+{_NOT_A_SIDE}(?P<side>.+?)\s+(?:have|get|see|had|has|got)"
               rf"\s+(?:more|fewer|less)\s+{PAPERS}\s+(?P<a>.+?)\s+(?:than|or)\s+(?P<b>.+?){_END}", re.I),
    re.compile(rf"^\s*(?:is|are|was|were)\s+{_NOT_A_SIDE}(?P<side>.+?)\s+(?:more|less)\s+{_POPULAR}\s+"
               rf"(?P<a>.+?)\s+(?:than|or)\s+(?P<b>.+?){_END}", re.I),
]


def compared_periods(question: str) -> tuple[str, Span, Span] | None:
    """The side of a question that names the topic it compares over two spans of years by
    its papers' count, and the two spans ("Were there more papers on MCMC in the 1990s or in
    the 2010s?" → "papers on MCMC", 1990–1999, 2010–2019): a comparison of counts
    (``COUNT_COMPARISON_RES``) whose one side is a span alone and whose other is the topic
    and one span. None else: two topics, a side with no span or with two ("in 2015, 2017
    or 2019"), a range opened at a year ("after 2018"), no topic but the papers ("Were there
    more papers in 2019 or 2020?"; C62). R9's had quoted five abstracts. Or the topic beside
    two spans alone (``_beside_periods``: "Which had more MCMC papers: the 1990s or the
    2010s?")."""
    for pattern in COUNT_COMPARISON_RES:
        if (m := pattern.search(question)) is None:
            continue
        first, second = span_of(m["a"]), span_of(m["b"])
        if first is None or second is None or first[0] == second[0]:
            continue
        rests = [rest for _, rest in (first, second)]
        named = [rest for rest in rests if re.search(r"\w", rest)]
        if len(named) != 1 or span_of(named[0]) or not re.search(r"\w", compared_topic(named[0])):
            continue
        return named[0], first[0], second[0]
    return _beside_periods(question)


def _beside_periods(question: str) -> tuple[str, Span, Span] | None:
    """A topic's side and the two spans of a comparison written with the topic beside it
    and each span alone (``PERIOD_COMPARISON_RES``), or None."""
    for pattern in PERIOD_COMPARISON_RES:
        if (m := pattern.search(question)) is None:
            continue
        first, second = span_of(m["a"]), span_of(m["b"])
        if (first is None or second is None or first[0] == second[0]
                or any(re.search(r"\w", rest) for _, rest in (first, second))
                or span_of(m["side"]) or not re.search(r"\w", topic := compared_topic(m["side"]))
                or _PAPER_KIND.match(topic)):
            continue
        return m["side"], first[0], second[0]
    return None


def compared_topic(side: str) -> str:
    """A compared side as the topic counted: less the words that frame it ("papers on MCMC"
    → MCMC, "MCMC papers" → MCMC), and no topic when only the papers' noun is left ("Were
    there more papers on the 1990s or the 2010s?" had searched "papers on": C63)."""
    topic = re.sub(r"\s+(?:on|about|in|of|for|using|from)$", "", _trimmed(side), flags=re.I)
    return "" if re.fullmatch(rf"(?:the\s+)?{PAPERS}", topic, re.I) else topic  # "papers on the 1990s"


# what grows that is no field: a quantity's noun ending a side ("model size", "training
# time", "the number of parameters"): "Which grew faster, model size or dataset size?"
_QUANTITY = re.compile(r"\b(?:sizes?|counts?|numbers?|amounts?|accurac(?:y|ies)|errors?|rates?|loss(?:es)?"
                       r"|speeds?|costs?|times?|latenc(?:y|ies)|throughput|memory|compute|parameters?"
                       r"|lengths?|depths?|widths?|budgets?|scales?|performance|runtimes?|usage"
                       r"|consumption|footprints?|scores?|prices?|demand|volumes?|energy|capacity"
                       r"|bandwidth|efficiency|gaps?|variance|resolution|data|datasets?|norms?|bounds?"
                       r"|complexit(?:y|ies)|weights?|states?|constants?|gradients?|values?|sums?"
                       rf"|{UNIT_PLURALS})$", re.I)


def _a_field(side: str) -> bool:
    """Whether a compared ``side`` of several words names a field ("federated learning",
    "capsule networks"), not a quantity (``_QUANTITY``) nor a side with a qualifier."""
    return len(side.split()) > 1 and not _QUANTITY.search(side) and not _QUALIFIER.search(side)


def names_fields(sides: tuple[str, str]) -> bool:
    """Whether a growth's two sides are fields to count papers of: either written as a
    method's name (``names_a_method``), or both as a field of several words (``_a_field``):
    "Which grew faster, federated learning or knowledge distillation?" had quoted one
    abstract (two runs'), "…, model size or dataset size?" asks of quantities."""
    return names_a_method(sides) or all(_a_field(side) for side in sides)


# a comparison of counts asking which grows faster, not which has more
GROWTH_ASKED = re.compile(r"\b(?:grew|grown|growing|grows|rose|risen|rising|trending)\s+(?:more|faster)\b"
                          r"|^\s*compare\s+the\s+(?:growth|rise|trends?)\b", re.I)


MAX_COMPARED = 5  # topics one comparison counts at most: each is a trend's screen


def compared_sides(sides: tuple[str, str]) -> tuple[str, ...] | None:
    """The compared topics as counted: examples in brackets left out ("GANs (e.g.,
    StyleGAN)" had counted 197 papers, "GANs" 237), the second cut at a comma ("VAEs,
    overall", "VAEs, and which is growing?"), and a comma list before the "or" read item by
    item ("GANs, VAEs, or normalizing flows", each counted; three had been turned away, "ask
    of two at a time"), its items framing the question left out (``_framing``: "in the
    store, GANs", "GANs, say,", "GANs, e.g. StyleGAN,"). None when a qualifier is in an
    item ("T5 in parameter count"), they list more than MAX_COMPARED, or a third follows
    the second ("GANs or VAEs, or on flows")."""
    first, second = (re.sub(r"\s*\([^)]*\)", "", side).strip(" ,") or side.strip(" ,()")
                     for side in sides)  # "(GANs)": its words
    head, comma, rest = second.partition(",")
    third = comma and re.match(rf"\s*(?:or|and)\s+(?!(?:on\s+|about\s+)?(?:{_NO_THIRD})\b)\w", rest, re.I)
    if third or not head.strip():
        return None
    if "," not in first:
        return first, head.strip()
    listed = [re.sub(r"^\s*(?:and|or)\s+", "", item, flags=re.I).strip()
              for item in [*first.split(","), head]]
    items = [item for item in listed if item and not _framing(item)]
    if not 2 <= len(items) <= MAX_COMPARED or any(_QUALIFIER.search(_trimmed(i)) for i in items):
        return None
    return tuple(_trimmed_sides(items))


# an item framing a compared list, not a topic: a place's or a time's words ("in the store",
# "in general"; not "in-context learning" nor "on VAEs"), an example's or a list's
# abbreviation ("e.g. StyleGAN", "etc."), or one word saying how or where ("say",
# "overall", "honestly", "store" of "in the store"): C57, C58
_FRAMING = re.compile(r"^(?:(?:in|of|for|at|by|with|from|since|over|during|across|among|within|under|per)\s"
                      r"|(?:e\.\s?g|i\.\s?e|etc|viz|cf)\b|(?:say|overall|both|neither|either|same|general"
                      r"|also|too|all|store|corpus|collection|database|dataset|(?:honest|rough|general"
                      r"|current|actual|real|most|main|usual|basical|frank|clear|obvious|typical|recent)ly)$)",
                      re.I)  # adverbs by name: "anomaly", "family" are topics


def _framing(item: str) -> bool:
    """Whether a compared list's ``item`` frames the question rather than names a topic."""
    return bool(_FRAMING.search(item.strip()))


# what follows a comparison's "or"/"and" that names no third topic ("…, or not?", "…, and by
# how much?", "…, or about the same?", "…, or on both?"; a review's refusals)
_NO_THIRD = (r"which|how|what|why|when|where|who|is|are|was|were|does|do|did|has|have|can|could"
             r"|will|would|should|not|by|in|since|both|neither|either|about\s+the\s+same|roughly"
             r"|vice\s+versa|the\s+same|equal|equally|are\s+they|is\s+it|none|just")


def versus_topics(topic: str | None) -> tuple[str, str] | None:
    """The two topics a count's or a trend's topic sets against each other ("GANs vs
    VAEs" → GANs, VAEs; ``_VERSUS``), trimmed as ``compared_topics`` trims its own; None
    when it names one topic. A count of "GANs vs VAEs" had counted the 69 papers holding
    both as one topic's, where "Is A more popular than B?" counts each."""
    if not topic or _ONE_THING.search(topic.strip()):
        return None
    sides = _VERSUS.split(topic)
    if len(sides) != 2:
        return None
    first, second = _trimmed_pair(sides[0], sides[1])
    if all(re.search(r"\w", t) and not _NO_TOPIC.match(t) for t in (first, second)):
        return first, second
    return None


def _trimmed(text: str) -> str:
    """A compared topic less the words that frame it at its ends (``_LEAD``, ``_TAIL``)."""
    text = " ".join(text.split()).strip(" ,\"'“”")
    text = _TAIL.sub("", _LEAD.sub("", text)).strip(" ,\"'“”")
    return text


def _trimmed_pair(first: str, second: str) -> tuple[str, str]:
    """Two compared topics as ``_trimmed_sides`` trims them."""
    a, b = _trimmed_sides([first, second])
    return a, b


def _trimmed_sides(sides: Sequence[str]) -> list[str]:
    """Compared topics ``_trimmed``, and "research" or "work" taken off their ends
    (``_FIELD_TAIL``) where what is left is a name, several words, or where all end so."""
    trimmed = [_trimmed(side) for side in sides]
    every = all(_FIELD_TAIL.search(side) for side in trimmed)
    left = [_FIELD_TAIL.sub("", side) for side in trimmed]
    return [rest if every or " " in rest or _A_NAME.search(rest) else side
            for side, rest in zip(trimmed, left, strict=True)]


# "GANs", "CNNs", "MuRating": not "Privacy", nor a unit ("FLOPs", "GMACs": quantities)
_A_NAME = re.compile(rf"\b(?!{UNIT_PLURALS}\b)(?:\w*[A-Z]\w*[A-Z]|[a-z]+[A-Z])")
# a side's qualifier ("exploitation in RL"): no name of the side (a review's)
_QUALIFIER = re.compile(r"\s+(?:in|of|for|with|on|under|across|within)\s+.*$", re.I)


def names_a_method(sides: tuple[str, str]) -> bool:
    """Whether either side of "A vs B" is written as a method's name, capitals inside a word
    ("GANs vs VAEs", "CNNs vs transformers"), not a trade-off of concepts ("privacy vs
    utility", "Privacy vs Utility", "model-based vs model-free"). A qualifier after the second
    side qualifies both ("exploration vs exploitation in RL") and names neither; after each
    side, each its own ("mode collapse in GANs vs posterior collapse in VAEs": a review's),
    unless it is the same one ("exploration in RL vs exploitation in RL")."""
    first, second = sides
    own, after = _QUALIFIER.search(first), _QUALIFIER.search(second)
    if own is None or (after is not None and own.group(0).lower() == after.group(0).lower()):
        first, second = _QUALIFIER.sub("", first), _QUALIFIER.sub("", second)
    return bool(_A_NAME.search(first) or _A_NAME.search(second))
