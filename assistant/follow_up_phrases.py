"""How a chat follow-up asks for the list before it again: its papers ("list them", "which
ones?"), in year order ("and more recent ones?", "sort them by year", "which of them is the
oldest?"), or the same list of another topic ("what about dropout?").

Why a module: follow_ups.py routes such follow-ups; the phrasings it reads are here, each
with the run that found it wanting: "sort them by year" had given a table of five papers,
"which of them is the oldest?" a false "no", and "what about dropout?" after a list on
capsule networks a table of capsule papers, none writing dropout.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.leaning import ALONE_ASPECTS, ASPECT_NAMES, ASPECT_WORDS, MAY_POINT_BACK_RE, POINTS_BACK_RE
from assistant.paper_order import ordered_question
from assistant.stated import stated
from assistant.types import EARLIEST_YEAR, LATEST_YEAR, Filters

# a follow-up asking for the papers of the list or count before, naming nothing else: "list
# them", "show me those papers", "which ones?", "which of them?", "what are they?"
THOSE_LISTED_RE = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|and|then|now|great|thanks|please)\W+)*(?:(?:can|could|would)\s+you\s+)?"
    r"(?:please\s+)?(?:(?:list|show(?:\s+me)?|give\s+me|name|display)\s+(?:all\s+)?(?:of\s+)?"
    r"(?:them|those|these|the\s+papers|the\s+list)(?:\s+(?:papers|all|please))*"
    r"|(?:which|what)\s+(?:ones(?:\s+are\s+(?:they|those|these))?|of\s+(?:them|those|these)"
    r"|(?:papers\s+)?are\s+(?:they|those|these)))"
    r"\W*$", re.I)
# ...and for them in year order: "and more recent ones?", "what about newer papers?", "the
# oldest ones?" ("the first one" is a place)
NEWER_RE = re.compile(
    r"^\W*(?:(?:and|so|then|ok(?:ay)?)\W+)*(?:(?:what|how)\s+about\s+|show\s+me\s+|only\s+)?"
    r"(?:the\s+)?(?:more\s+|most\s+)?(?:recent|newer|newest|latest|(?P<old>older|oldest|earliest))"
    r"(?:\s+(?:ones?|papers?|work))?(?:\s+first)?\W*$", re.I)
# ...comparing with the years the list before was of: "and more recent ones?" after "only the
# ones from 2019" asks for 2020 on (``filters.beyond``), not 2019's papers newest first
_COMPARED = re.compile(r"\b(?:more\s+recent|newer|(?P<old>older))\b", re.I)
# a paper's authors' other papers: "what other papers did they write?", "what else have they
# published in 2019?", "papers by the same authors"
_THEIR_PAPERS = re.compile(
    r"\b(?:did|have|has|do)\s+(?:they|the(?:se)?\s+authors)\s+(?:also\s+)?(?:write|written|publish(?:ed)?"
    r"|author(?:ed)?)\b|\bby\s+(?:them|the\s+same\s+authors|these\s+authors)\b", re.I)
_THEIR_FRAME = re.compile(r"^\W*and\b|\b(?:thanks|thank\s+you|ok(?:ay)?|so|what|which|other|else|more|any"
                          r"|anything|papers?|works?|are|is|there|show|me|list|give|also|how|many)\b", re.I)
# what a "they" follow-up asks the authors' papers for: a range with a year ("in 2019", "in the
# 2010s"), a venue by its acronym ("in NeurIPS", not "in Section 3"), or a topic as other work
# or whether they wrote on it ("What else did they publish on X?", "Did they write about
# GANs?"), not what this paper writes ("What do they write about limitations?", "Did they
# write about future work?", "… about the baseline?")
_RANGE = re.compile(r"^(?:in|since|from|before|after|between|during)\b.*\b\d{4}s?\b"
                    r"|^(?:in|at)\s+(?-i:[A-Z]\w*[A-Z])", re.I)
_TOPIC = re.compile(r"^(?:on|about)\s+(?!(?:the|their|this|that|its|these|those|it|them)\b)(?P<first>\w+)",
                    re.I)
_OTHERS = re.compile(r"\b(?:other|else|more|also|anything|publish\w*)\b|\b(?:what|which|any|their)\s+"
                     r"(?:papers|works)\b|^\W*(?:did|have|has)\s+(?:they|the)\b", re.I)
_THIS_PAPER = re.compile(r"\b(?:this|the)\s+(?:paper|work|article)\b", re.I)


def their_papers(question: str) -> str | None:
    """What a follow-up asks of the authors' papers ("what other papers did they write?": "";
    "What else did they publish in 2019?": "in 2019"; "Did they also publish on X?": "on
    X"), or None: no such question, or one asking something else of them ("What datasets
    were used by them?", "Did they publish their code?", "What do they write about X?")."""
    if not (m := _THEIR_PAPERS.search(question)):
        return None
    rest = " ".join(_THEIR_FRAME.sub(" ", f"{question[:m.start()]} {question[m.end():]}").split())
    rest = re.sub(r"^(?:on|about|in|at)$", "", rest.strip(" ?.!,;:"), flags=re.I)  # "… about?"
    if not rest or _RANGE.match(rest):
        return rest
    topic = _TOPIC.match(rest)
    aspect = topic is not None and re.sub(r"e?s$", "", topic.group("first").lower()) in ASPECT_WORDS
    if not topic or aspect or _THIS_PAPER.search(question):
        return None
    return rest if _OTHERS.search(question) else None


# "sort them by year", "order the list by date, newest first"
SORT_RE = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|and|then|now|please)\W+)*(?:(?:can|could|would)\s+you\s+)?"
    r"(?:please\s+)?(?:sort|order|arrange|rank)\s+(?:them|those|these|the\s+(?:list|papers))\s+"
    r"by\s+(?:year|date)(?:\s*,?\s*(?:(?P<new>newest|latest|most\s+recent)\s+first|(?:oldest|"
    r"earliest)\s+first|(?P<down>descending)|ascending))?\W*$", re.I)
# "which of them is the oldest?", "which one is the most recent?", "what is the newest one?"
# (pointing back: "What is the oldest paper?" asks of the store)
EDGE_OF_LIST_RE = re.compile(
    r"^\W*(?:and\s+)?(?:which|what)(?=.*\b(?:of\s+(?:them|those|these|the\s+list)|one|ones)\b)"
    r"(?:\s+(?:one|paper))?(?:\s+of\s+(?:them|those|these|the\s+list))?"
    r"(?:\s+(?:is|was|are|were)|['’]s)\s+the\s+(?:(?P<old>oldest|earliest)|newest|latest|most\s+"
    r"recent)(?:\s+(?:one|paper)s?)?(?:\s+of\s+(?:them|those|these))?\W*$", re.I)
# "how many of them per year?", "how many such papers per year?", "show the trend over time":
# the list or count before, per year
_PER_YEAR = re.compile(r"\b(?:(?:per|by|each|every|a)\s+year|year\s+by\s+year|per-year|over\s+(?:time|the"
                       r"\s+years)|trends?|yearly|annually)\b", re.I)
_POINTING_ONLY = frozenset("""and so ok okay then now please can could would you show plot draw give me
list count counts number numbers of how many much what is was are were the a an them those these they
such papers paper ones it its this that their there trend trends over time per by each every year
years distribution breakdown broken down growth grew grown evolve evolved changed change look like do
did""".split())


def asks_per_year(question: str) -> bool:
    """Whether a follow-up asks for the list or count before per year, and for nothing
    else: "how many such papers per year?" had been read as the topic "such", "how many of
    them per year?" as papers writing "per year" (a run's, both a false "no")."""
    if not _PER_YEAR.search(question):
        return False
    return all(w in _POINTING_ONLY for w in re.findall(r"[a-z]+", _PER_YEAR.sub(" ", question.lower())))


# "THOSE…": the papers of the list before ("which of those…", "how many of them…")
THOSE_RE = re.compile(r"\b(?:of\s+(?:those|these|them|the\s+list)|which\s+ones|those\s+that"
                      r"|the\s+ones\s+that)\b", re.I)
# what papers did to a thing, as a follow-up names an aspect of theirs ("reported accuracy")
_REPORTED = ("reported|used|proposed|presented|obtained|achieved|evaluated|studied|described|"
             "introduced|mentioned|discussed|claimed|cited|published|shown|given|compared|"
             "measured|adopted|employed|suggested|released|considered")  # not "applied …"
_ASPECT_NOUNS = "|".join(w for w in ASPECT_WORDS if w not in """the a an this that these those it its
they their them there so more less most least not some any other others such each all both main key
new novel different better best worse wrong unclear similar related future missing lacking""".split())
# "what about dropout?", "how about papers on transformers?", "and papers on dropout?", not an
# aspect of the papers before ("the authors?", "a summary?", "reported accuracy?",
# "unsupervised ones?"); another participle leads a topic of its own ("federated learning",
# "certified defenses": a run's false "no")
SWAP_RE = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|then|now)\W+)?(?:(?:and\s+)?(?:what|how)\s+about\s+"
    r"(?:(?:the\s+)?(?:papers?|ones?|work)\s+(?:on|about|using|that\s+use)\s+)?|and\s+(?:the\s+)?(?:papers?|"
    r"work)\s+(?:on|about|using|that\s+use)\s+)(?!the\s+(?:{ASPECTS}))(?!(?!the\s){ASPECTS})"
    r"(?!the\s+(?:(?:same|top|first|last|next|previous|latest|newest|oldest|earliest)\b|(?![^?!]*(?-i:[A-Z]))"
    r"|[^?!]*\b(?:\d{4}|NeurIPS|NIPS|ICML|ICLR)\b[^?!]*\b(?:ones?|papers?)\W*$))"
    r"(?P<topic>[^?!]+?)\s*(?:papers?)?\s*[?.!]*\s*$"
    .replace("{ASPECTS}", rf"{ASPECT_NAMES}|(?:{_REPORTED})\b|\w+ed\s+(?:{_ASPECT_NOUNS})s?\b"
             rf"|{ALONE_ASPECTS}"), re.I)  # "what about risks?": the list's, not a new topic
# ("what about the datasets?" asks of the list; "what about the Chinese restaurant process?"
# names a topic, and had been searched as the answer's aspect and refused: R12; after "the",
# a topic is a name, capitalised: "the top 5", "the sample size", "the same for VAEs" ask of
# the list: C68), no place in it ("the Top 5") nor its papers of a year or venue ("the
# NeurIPS 2019 ones": C69; "the Hopfield papers" name a topic: C70)
_ASKING = re.compile(r"\b(?:what|which|how|why|who|when|where|whose|does|do|did|is|are|was|were"
                     r"|can|could|should|would)\b", re.I)


def order_asked(question: str) -> bool | None:
    """The order by year a follow-up asks the list before in (True: oldest first), or None:
    "and more recent ones?" (``NEWER_RE``), "list them in chronological order" (a request for
    the list before with ``paper_order.SORTED_RE``), "sort them by year" (``SORT_RE``),
    "which of them is the oldest?" (``EDGE_OF_LIST_RE``: the list in that order, the first
    line the paper asked of)."""
    for pattern in (NEWER_RE, EDGE_OF_LIST_RE):
        if m := pattern.match(question):
            return bool(m.group("old"))
    if m := SORT_RE.match(question):
        return not (m.group("new") or m.group("down"))
    ordered = ordered_question(question)
    if ordered and ordered.question != question and THOSE_LISTED_RE.match(ordered.question):
        return ordered.oldest
    return None


def beyond_asked(question: str) -> bool | None:
    """Whether a follow-up asks for the list before's topic past its years ("and more recent
    ones?", "older ones?", ``_COMPARED``): True newer, False older; None for an edge of the
    list ("the newest ones") or a question asking no year order."""
    m = NEWER_RE.match(question) and _COMPARED.search(question)
    if not m or re.search(r"\bfirst\b", question, re.I):  # "older ones first": an order
        return None
    return not m.group("old")


def asks_for_list_before(question: str, pointing: bool = False) -> bool:
    """Whether a follow-up asks for the papers of the list or count before ("list them",
    "which ones?", ``THOSE_LISTED_RE``), or for them in year order (``order_asked``);
    ``pointing``: only one pointing back at them ("the newest paper" alone asks of the store's
    papers, "the newest ones" of a list's)."""
    if THOSE_LISTED_RE.match(question):
        return True
    return order_asked(question) is not None and (
        not pointing or re.search(r"\b(?:ones?|them|those|these|list)\b", question, re.I) is not None)


# a question choosing among the papers before: "Which of these use CIFAR-10?", "How many of
# them are on GANs?", "Only the ones from 2021, please." (a run's, with nothing before them:
# they had been answered as a new question); not "Which of these methods is best: X or Y?"
_AMONG_BEFORE = re.compile(
    r"^\W*(?:(?:and|but|so|ok(?:ay)?|now|then|also)\W+)*(?:(?:which|what|how\s+many)\s+of\s+(?:these"
    r"|those|them|the\s+above)(?:\s+(?:papers|ones|works|abstracts))?(?=\s*\?|\s+(?:use[sd]?|are|were|is"
    r"|was|ha(?:ve|s|d)|do(?:es)?|did|mentions?|stud(?:y|ies)|report|propose|came|appeared|published|from"
    r"|in|by|on|about)\b)|(?:only\s+|just\s+)?the\s+ones\s+(?:from|in|by|with|that|which|published"
    r"|since|before|after|on|about)\b)", re.I)


# ...not among options it names itself after a comma or colon: "Which of these came first, GANs
# or VAEs?", "Only the ones with code, please: which papers …?" (reviews': not "Which of these
# use CIFAR-10 or ImageNet?")
_OWN_OPTIONS = re.compile(r"[,:]\s*[^,:;?]*\s(?:or|vs\.?|versus)\s"
                          r"|[:,]\s*(?:which|what|how|who|is|are|do|does)\b", re.I)


def chooses_among_before(question: str) -> bool:
    """Whether ``question`` chooses among the papers of an answer before it (``_AMONG_BEFORE``)."""
    return _AMONG_BEFORE.match(question) is not None and not _OWN_OPTIONS.search(question)


def swapped_topic(question: str, names_a_topic: Callable[[str], bool]) -> str | None:
    """The topic a follow-up asks the list before of instead ("what about dropout?",
    "and papers on transformers?"), or None: one pointing back ("what about its
    limitations?"), asking ("and what datasets do they use?") or naming no topic."""
    m = SWAP_RE.match(question)
    topic = m.group("topic").strip() if m else ""
    if not topic or POINTS_BACK_RE.search(topic) or MAY_POINT_BACK_RE.search(topic):
        return None
    if _ASKING.search(topic) or not names_a_topic(topic):
        return None
    return topic


# what a fragment follow-up says besides its years and author: "only the ones by Hinton",
# "what about 2018?", "And 2015?", "only 2019 and 2020", "the ones from Bengio"
_FRAGMENT_LEAD = re.compile(r"^\W*(?:and\s+|then\s+)?(?:(?:what|how)\s+about\s+"
                            r"|(?:list|name|show(?:\s+me)?|give\s+me)\s+)?", re.I)  # "list the ones…"
_FRAGMENT_WORDS = frozenset(
    "only just the ones one those these them of by from in and or published written papers "
    "paper please".split())
_POINTING = frozenset("only just ones those these them".split())  # a bare "Hinton" stands alone
_SPAN_WORDS = frozenset("to through thru until till".split())  # "what about 2014 to 2016?"
_WORD = re.compile(r"[^\W\d_][\w'.-]*|\d{4}")


def fragment_filters(question: str, is_author: Callable[[str], bool]) -> Filters | None:
    """The filters of a fragment whose words are only years, a stored author's name
    (``is_author``) and words that point back ("only the ones by Hinton", "what about
    2018?", "only 2019 and 2020"), which had searched "ones" or the year as a topic; None
    for any other question."""
    rest = _FRAGMENT_LEAD.sub("", question)
    words = _WORD.findall(rest)
    years = [w for w in words if w.isdigit() and EARLIEST_YEAR <= int(w) <= LATEST_YEAR]
    spans = len(years) == 2 and any(w.lower() in _SPAN_WORDS for w in words)
    name = " ".join(w for w in words if not w.isdigit() and w.lower() not in _FRAGMENT_WORDS
                    and not (spans and w.lower() in _SPAN_WORDS))
    lead = question[:len(question) - len(rest)]
    points = bool(re.search(r"[^\W\d_]", lead)) or any(w.lower() in _POINTING for w in words)
    if not (points and (years or name)) or (name and not is_author(name)):
        return None
    # two years spanned ("2014 to 2016": a run's topic "2014 to 2016"), else the years named
    asked = f"from {years[0]} to {years[1]}" if spans else f"in {' or '.join(years)}"
    dated = stated(f"papers {asked}")[0] if years else None
    return Filters(years=dated.years if dated else None,
                   named_years=dated.named_years if dated else None, author=name or None)
