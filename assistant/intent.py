"""What a question asks, read once: its kind, the names it writes, the range it states, and
whether it leans on the previous question.

Why one module: the retriever, the offline composer, the comparison table and the pipeline
each decide something from the question's wording. Each reading is a pattern here, read by
``read_intent`` into a frozen ``Intent``: written and tested once. A question may carry
several readings ("Which papers compare A and B?" asks for several papers and for a
comparison): each a field, read by the part of the answer it steers; ``kind`` the main one
(``KIND_ORDER``). ``search`` is the question less the words stating its range or author
("since 2019", "papers by Sara Sabour": stated.py), which is what is searched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from assistant.authors import AuthorBook
from assistant.count_comparison import compared_periods, compared_topic, compared_topics
from assistant.keywords import STOPWORDS
from assistant.leaning import leans_on_previous
from assistant.stated import PUBLISHED_ON, RECENT, RECENTLY, names_a_venue, stated
from assistant.stated_years import PAPER, PAPERS
from assistant.term_lookups import lookup_terms
from assistant.trend_questions import CountsAsked, counts_asked, peak_claim, trend_topic
from assistant.types import Filters

Kind = Literal["summary", "comparison", "definition", "method", "finding", "quantity", "problem",
               "list", "lookup", "trend", "other"]
TOKEN_RE = re.compile(r"[A-Za-z][\w@-]*\w")

# ---------------------------------------------------------------- several papers, a table

# A question that asks for several papers. "Compare", "list" or "survey" ask for them when
# they open the question or follow "can you"; inside one ("How did the method compare with
# boosting?", "In the work on feedback loops, …") a question asks about one paper, unless
# it compares two things ("How do A and B compare?") or names papers, works or methods.
SUMMARY_RE = re.compile(
    r"^\s*(please\s+)?(survey|list|compare|contrast)\b"
    r"|\b(can|could|would) you (please )?(survey|list|compare|contrast|review)\b"
    r"|^\s*(review|tell me about|describe) (the )?(papers|works|literature|research|work) on\b"
    r"|^\s*how (do|does) .+ and .+ compare\b"
    r"|\b(comparison|compare) (of|between)\b"
    r"|\b(list|compare|survey) (the )?(papers|works|approaches|methods|studies)\b"
    r"|\b(summari[sz]e|summary|overview|(a|an) (comparison|survey) of|which (papers|works|abstracts)"
    r"|what (papers|works)|papers (on|about|that))\b",
    re.I,
)
# A question that compares papers or asks which papers do something: answered offline, when
# it asks for several papers too, by a table (compare.py).
COMPARE_RE = re.compile(r"\b(compare[sd]?|comparing|comparison|contrast|versus|vs\.?|"
                        r"which (papers|works|abstracts|studies)|what (papers|works|studies))\b",
                        re.I)

# ---------------------------------------------------------------- what of one paper it asks

QUANTITY_RE = re.compile(r"\b(how (many|much|large|big|fast|long|accurate|far|well|often|high|low|"
                         r"small)(?![-\w])|what (?!(do|does|did|is|are|was|were) )(\w+ )?(share|range|"
                         r"percentage|rates?|size|accuracy|speed(-?up)?|fraction)|by how much|"
                         r"which (datasets|benchmarks))\b", re.I)
# A question that asks how something is done or what was found, shown or tested: its answer
# lies after an abstract's opening.
CONTRIBUTION_QUESTION_RE = re.compile(
    r"^\s*(how (can|could|do|does|did|should|might|would|to)\b|is there (a|any) way"
    r"|is it possible|can (one|we|i|a|an)\b|describe (a|an|the) (method|algorithm|approach))"
    r"|\b(what|which) (approach|method|technique|way|algorithm|model|framework|architecture"
    r"|mechanism|idea|strategy|procedure|solution|result|finding|guarantee|bound|rate|speed"
    r"|improvement|gain|error|performance)s?\b"
    r"|\b(find|finds|show|shows|showed|prove|proves|proved|report|reports"
    r"|achieve|achieves|achieved|reach|reached|propose|proposes|proposed|tested|evaluated"
    r"|validated|outperform\w*)\b", re.I)
# A question about the problem itself (its answer is in the abstract's opening) is read so even
# when it also names results or data sets ("Why did earlier experiments fail?").
PROBLEM_QUESTION_RE = re.compile(
    r"^\s*why\b|\b(fail\w*|limitations?|limited|limits|hard(er)?|difficult\w*|challeng\w*"
    r"|drawbacks?|shortcomings?|problematic|lacks?|lacking|wrong|struggl\w*|weakness\w*"
    r"|obstacles?|bottlenecks?|costly|motivat\w*|what problem|the problem (of|with))\b"
    r"|(?<!than )\b(previous|prior|existing|earlier|conventional|current|typical|standard)"
    r" (methods?|approaches|work|models|algorithms|techniques|solutions|systems|pipelines)\b",
    re.I)
# "How can X be done?": answered by the sentence in which the authors propose their approach.
METHOD_QUESTION_RE = re.compile(
    r"^\s*(how (can|could|do|does|should|might|would|to)\b|is there (a|any) way|is it possible)"
    r"|\b(what|which) (approach|method|technique|algorithm|framework|mechanism|strategy"
    r"|procedure|solution)s?\b", re.I)
# "What did X find?", "How well does X do?": answered by the abstract's result sentence.
FINDING_QUESTION_RE = re.compile(
    r"\b(what|which)\b[^?]*\b(did|does|do|has|have|was|were)\b[^?]*\b(find|found|show|shown|achieve"
    r"|achieved|observe|observed|report|reported|accomplish|deliver|demonstrate|demonstrated"
    r"|reveal|revealed|establish|established|conclude|concluded|suggest|provide|provided)\b"
    r"|\bhow (well|much|far|close|effective|accurate|good)\b"
    r"|\bhow (did|does|do)\b[^?]*\b(compare|fare|perform|do)\b"
    r"|\bwhat (results?|benefits?|advantages?|improvements?|gains?|findings?|effects?)\b"
    r"|^\s*(does|did|do|can|could)\b[^?]*\b(outperform|beat|improve|help)\w*", re.I)
# "What is X?", "How does X work?": answered by the sentence that introduces X and the next.
DEFINITION_QUESTION_RE = re.compile(r"^\s*(what (is|are|does|do)|how (does|do)|explain|describe)\b",
                                    re.I)

# ---------------------------------------------------------------- every paper, a word, a trend

# Up to four words naming the papers' topic before the noun ("all federated learning
# papers"), not words that point at papers already named ("show me how these papers…").
# "most" points, but "most recent" asks for the newest (``NEWEST_RE``) and may lead them
# ("Show me the most recent papers on X")
# Words that judge papers rather than name their topic ("Nice papers!", "great work"): a
# remark or a request for the best few, never a topic's words (``topics.LEAD_RE`` cuts them)
JUDGING = (r"good|great|nice|cool|awesome|excellent|amazing|wonderful|fantastic|brilliant"
           r"|impressive|fascinating|outstanding|remarkable|terrific|superb|lovely|neat"
           r"|interesting")
_POINTING = (r"how|what|why|when|where|which|who|whose|these|those|this|that|both"
             r"|your|my|our|their|its|his|her|top|best|most(?!\s+recent\b)|least|few|some"
             r"|several|one|two|three|four|five|six|seven|eight|nine|ten|\d+|first|main|key|important"
             rf"|notable|influential|seminal|cited|{JUDGING}")
_TOPIC_WORDS = rf"(?:(?!(?:{_POINTING})\b)[\w-]+\s+){{0,4}}"
# A word of a request made of the topic's words alone: none that points, asks ("summarize",
# "compare", "any", "the": stopwords are the words questions ask with) or picks some papers
# by their age or their tie to others ("recent", "similar papers" after an answer); "and",
# "of", "for"… join the topic's words inside it
# words that only qualify the papers counted ("How many different papers on GANs?")
_COUNTED = "different distinct unique separate individual total overall research scientific".split()
_PICKING = """compare contrast review survey overview rank recent latest newest new previous
earlier older newer early earliest classic famous popular foundational landmark similar related
relevant further additional published accepted presented academic""".split() + _COUNTED
_ASKS = "|".join(sorted(map(re.escape, {*STOPWORDS, *_PICKING}), key=len, reverse=True))
_NAMING_WORD = rf"(?!(?:{_POINTING}|{_ASKS})\b)[\w-]+\s+"
_JOINING = r"(?:and|or|of|for|in|on|with|from|to)\s+"
# What follows the papers' noun in a request for them: the topic they are on, or what they do
_ABOUT = r"on|about|that|which|using|with|in|from|where"
_NOUN_TOPIC = (rf"{_NAMING_WORD}(?:(?:{_JOINING})?{_NAMING_WORD}){{0,3}}"  # "GAN" of "GAN papers"
               r"(?=(?:papers|abstracts|articles|publications)\b)")
# A count ("How many papers on X", "How many GAN papers …": ``counted_topics.count_topic``)
_COUNTED_AS = rf"(?:(?:{'|'.join(_COUNTED)}|academic|published|recent|new)\s+)*"  # per year: the recent
# ...and counts set side by side ("compare the number of X papers in 2019 and 2021"): each year's
# ...and a share of them ("What fraction of papers use RL?", "percentage of 2020 papers on X":
# runs had listed the three writing "fraction", refused on "percentage"), the count's shares
SHARE_WORDS = frozenset({"fraction", "percentage", "percent", "share", "proportion"})
_SHARE_NOUN = "|".join(sorted(SHARE_WORDS, key=len, reverse=True))
_SHARE_ASKED = (rf"(?:what\s+(?:{_SHARE_NOUN}|%)|(?:(?:what\s+is|what['’]s)\s+)?(?:the\s+)?"
                rf"(?:{_SHARE_NOUN})(?=\s+of\b))")
COUNT_RE = re.compile(rf"^\s*(?:how\s+many|{_SHARE_ASKED}"
                      rf"(?:\s+of(?:\s+(?:all|the))*)?|(?:(?:what\s+is|what['’]s|compare|show(?:\s+me)?|tell\s+me)"
                      rf"\s+)?(?:the\s+(?:total\s+)?|(?=number\s+of\s+{PAPERS}\b))number\s+of|(?:please\s+)?count(?:\s+up)?(?:\s+(?:all\s+)?the)?"
                      # "How did the number of GAN papers in 2018 compare with 2021?" (its years read
                      # apart), "What was the number of GAN papers?": the topic before the noun, and
                      # nothing after it ("… of papers on GANs compare with VAEs?" compares: C68)
                      rf"|(?:how\s+(?:did|does|do)|what\s+(?:was|were))\s+the\s+number\s+of"
                      rf"(?=\s+(?:[\w-]+\s+){{1,4}}{PAPERS}\s*[?.!]*\s*$))\s+"
                      rf"{_COUNTED_AS}(?P<lead>{_NOUN_TOPIC})?{PAPERS}\b(?P<topic>.*)$", re.I)
_SHARE = re.compile(rf"\s*{_SHARE_ASKED}", re.I)
# "… of the papers on federated learning use differential privacy?": papers of a topic first
OF_A_TOPIC = re.compile(r"\s*(?:on|about|in|for|with|using)\s+(?!(?:the|this|our|your)\s+(?:store|collection"
                        r"|corpus)\b)(?P<of>\S.*?)\s(?:that\s+|which\s+)?(?:also\s+)?"
                        r"(?P<verb>(?:use[sd]?|appl(?:y|ies|ied))(?!\s+(?:to|for|with|into)\b)|using|are|is|stud(?:y|ies|ied)"
                        r"|report(?:s|ed)?|propose[sd]?|address(?:es|ed)?|mention(?:s|ed)?|evaluate[sd]?"
                        r"|employ(?:s|ed)?|focus(?:es|ed)?|rel(?:y|ies|ied)"
                        # "were model-based", "were in robotics"; not "were published" (what share of
                        # them a range of years or an author holds: topic_shares.py)
                        r"|(?:were|was|ha(?:ve|s|d))(?!\s+(?:been\s+)?(?:published|presented|accepted|released"
                        r"|written)\b))\b", re.I)


def share_of_a_topic(asked: re.Match[str]) -> bool:
    """Whether a ``COUNT_RE`` match asks a share of a topic's papers ("What share of the
    papers on federated learning use differential privacy?", "What fraction of RL papers
    are model-based?"), which no count of all the papers answers (a review's: 116 counted
    on the whole phrase, given as a share of the 13,872)."""
    of_a_topic = asked.group("lead") or OF_A_TOPIC.match(asked.group("topic"))
    return asks_a_share(asked.string) and bool(of_a_topic)


def asks_a_share(question: str) -> bool:
    """Whether ``question`` opens by asking a share ("What fraction of …", "What % of …")."""
    return bool(_SHARE.match(question))


def as_count(question: str) -> str:
    """A share's question asked as the count it is answered by ("What percentage of papers
    are?" → "How many papers are?"): what a chat's follow-up narrows or lists."""
    return re.sub(rf"^\s*{_SHARE_ASKED}\s+of(?:\s+(?:all|the))*\s+", "How many ", question, flags=re.I)


# "Who works on X?", "Who has published on X?", "Who wrote about X?", "Has anyone worked
# on X?": X's papers, listed (``topics.raw_topic`` cuts these words from the topic)
_ON = r"(?:on|about|in|into)"
_WORKS_ON = (rf"(?:works?|working|worked|stud(?:y|ies|ied)|research(?:es|ed)?|publish(?:es|ed)?"
             rf"|looked)\s+{_ON}|(?:writes?|wrote|written)\s+(?:about|on)")
# ...who has most of them ("Who wrote the most papers on X?", "top authors on X": a run's no)
_MOST_ON = (r"(?:who|which\s+(?:authors|researchers|people))\s+(?:ha(?:s|ve)\s+)?(?:wrote|written"
            rf"|published|authored)\s+the\s+most(?:\s+(?:papers|work))?\s+{_ON}|(?:(?:who|what)\s+are\s+)?"
            r"(?:the\s+)?(?:top|leading|main|most\s+(?:prolific|active))(?:\s+\d+)?\s+(?:authors|researchers"
            rf"|people)\s+(?:working\s+)?{_ON}(?!\s+(?:the|this|that|a|an)\s+(?:paper|article|team|group)\b)")
# a preposition after "who" ("Who researched and invented backpropagation?" asks no list)
WHO_WORKS = (rf"^\s*(?:{_MOST_ON}|who\s+(?:else\s+)?(?:(?:is|are|has|have)\s+)?(?:{_WORKS_ON})"
             r"|(?:has|have|did|does|do)\s+any(?:one|body)\s+(?:else\s+)?"
             rf"(?:{_WORKS_ON}|stud(?:y|ied)|research(?:ed)?)(?!\s+(?:and|or|first)\b))\s+")
# A question that asks for every paper that answers it, not the best few.
LIST_RE = re.compile(
    rf"^\s*(?:please\s+)?(?:(?:can|could|would)\s+you\s+(?:please\s+)?)?"
    rf"(?:list|enumerate|find|show(?:\s+me)?|give(?:\s+me)?|name|retrieve|count)\s+(?:all\s+|every\s+)?"
    rf"(?:(?:of\s+)?the\s+)?{_TOPIC_WORDS}{PAPERS}\b"
    rf"|\b(?:a|the)\s+(?:full\s+|complete\s+|comprehensive\s+|whole\s+)?list\s+of\s+(?:all\s+)?"
    rf"(?:the\s+)?{_TOPIC_WORDS}{PAPERS}\b"
    rf"|\b(?:which|what)\s+{PAPERS}\b"
    # "Which GAN papers were published…?": the topic before the noun ("works" and "studies"
    # are verbs too: "which optimizer works best?")
    rf"|\b(?:which|what)\s+(?!of\b){_TOPIC_WORDS}(?:papers|abstracts|articles|publications)\b"
    rf"|^\s*(?:how\s+many|{_SHARE_ASKED}\s+of(?:\s+(?:all|the))*)\s+{_COUNTED_AS}(?:{_NOUN_TOPIC})?{PAPERS}\b"
    rf"|\b(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+)?(?:{PAPERS}|paper|abstract)\s+"
    rf"(?:{_ABOUT})\b"
    # "Are there papers on X?": those papers (R12's had quoted five, four not on X); not
    # "… that show X is false?", "… on this?", "… on X and who wrote them?" (C69)
    rf"|^\s*(?:are|were)\s+there\s+(?:any\s+)?(?:papers|abstracts|articles|publications)\s+"
    rf"(?:(?:in|from)\s+(?:the|this|your)\s+(?:store|collection|corpus|database)\s+)?"  # C70
    rf"(?:on|about|using|(?:that|which)\s+(?!(?:show|prove|claim|find|found|contradict|argue|suggest"
    rf"|demonstrate|disprove|refute|report)\w*\b)\w+)\s+(?!(?:this|that|it|them|these|those|both"
    rf"|either)\W*$)(?![^?]*[?;,]?\s*(?:and|but)?\s*(?:if\s+so,?\s+)?(?:who|what|how|when|where"
    rf"|which|why)\b)"
    # "Papers on RLHF", "abstracts about X": the noun opening the request, as after "Show"
    # ("works" and "studies" open questions as verbs too, and stay out)
    rf"|^\s*(?:papers|abstracts|articles|publications)\s+(?:{_ABOUT})\b"
    # ...after a word asking for the newest ("Newest papers on X", "the latest papers
    # about X", "latest GAN papers"), which makes "work" the papers too ("recent work on X")
    rf"|^\s*(?:the\s+)?{RECENT}\s+(?:(?:papers|abstracts|articles|publications|works?)"
    rf"\s+(?:{_ABOUT})\b|{_NAMING_WORD}(?:(?:{_JOINING})?{_NAMING_WORD}){{0,3}}"
    r"(?:papers|abstracts|articles|publications)\s*[?.!]*\s*$)"
    # "GAN papers", "hyperbolic embedding papers": the topic's words and the papers' noun, all
    # the request (a range it states is cut before: "… papers since 2019"); "Summarize the
    # GAN papers", "Any GAN papers?", "the CRAFT paper" ask something else
    rf"|^\s*{_NAMING_WORD}(?:(?:{_JOINING})?{_NAMING_WORD}){{0,3}}"
    r"(?:papers|abstracts|articles|publications)\s*[?.!]*\s*$"
    # the papers' noun with no topic's word beside it ("Show me papers", "Papers?", "Nice
    # papers!"; not "these papers", which points back): a request that names nothing to
    # list, answered by the one line saying what to ask (``ListAnswers.list_papers``), not
    # read as a search for "nice" (it had listed A-NICE-MC) nor answered from "great"
    rf"|^\s*(?:please\s+)?(?:(?:list|find|show(?:\s+me)?|give(?:\s+me)?|name)\s+)?"
    rf"(?:(?:all|every|the|some|any|only|just|{JUDGING})\s+)*(?:papers|abstracts|articles|publications)"
    r"\s*[?.!]*\s*$"
    rf"|{WHO_WORKS}|{PUBLISHED_ON}", re.I)
# A question that asks for the newest papers first: a word asking so before the papers'
# noun and the topic's or author's words ("Which recent papers…", "latest GAN papers",
# "Recent Bengio papers", "the most recent papers on X", "recent work on X"), or after the
# topic ("Which papers on GANs were published recently?"). Its list is ordered newest year
# first (``paper_order.in_year_order``); the words are no topic's (``topics.LEAD_RE``).
_NAME_WORD = rf"(?!(?:{_POINTING}|{_ASKS})\b)[\w'’-]+\s+"  # "Bengio's" too
NEWEST_RE = re.compile(
    rf"\b{RECENT}\s+(?:{_NAME_WORD}(?:(?:{_JOINING})?{_NAME_WORD}){{0,3}})?{PAPERS}\b"
    rf"|^\s*(?:the\s+)?{RECENT}\s+work\s+(?:{_ABOUT})\b|\b{RECENTLY}", re.I)
# What a question asks of an author's papers other than the list of them: a summary, a
# comparison, one paper ("Summarize the papers by X", "the paper by X")
_ASKS_OF_PAPERS = re.compile(rf"\b(?:summari[sz]e|summary|overview|survey|review|describe|explain"
                             rf"|compare|contrast)\b|\b(?:the|a|one)\s+{PAPER}\b", re.I)


@dataclass(frozen=True)
class Intent:
    """Every reading of one question (``read_intent``). The booleans are the readings the
    answer's parts steer by; ``kind`` names the main one."""

    question: str
    kind: Kind
    names: tuple[str, ...]  # methods and acronyms, matched case-sensitively (``names_in``)
    proper_names: tuple[str, ...]  # those plus capitalised words inside a sentence
    filters: Filters | None  # the range the question states in words
    search: str  # the question less the words that stated that range
    follow_up: bool  # leans on the previous question (``leans_on_previous``)
    summary: bool  # asks for several papers: one line per paper
    comparison: bool  # compares papers or asks which papers: a table when also a summary
    definition: bool  # "What is X?"
    method: bool  # how something can be done, not what the problem is
    finding: bool  # what was found, shown or achieved, not what the problem is
    quantity: bool  # a number: how many, how fast, what accuracy
    contribution: bool  # how it is done or what was found (the answer follows the opening)
    problem: bool  # what the problem is, or what earlier work lacks
    wants_list: bool  # every paper that answers, not the best few
    lookup_terms: tuple[str, ...]  # the words a term lookup asks the paper holding
    trend_topic: str | None  # the topic whose papers per year are asked for
    newest_first: bool  # asks for the newest papers first ("recent papers on X")
    # the years a peak question names as the claim the counts check ("Did X peak in 2019?"),
    # not a range to count within: they are not in ``filters``
    claimed_years: tuple[int, int] | None = None
    compared_topics: tuple[str, str] | None = None  # sides compared by their papers' count
    # what a trend question asks of its counts: growth, its top years, its decades
    counts_asked: CountsAsked | None = None


# The main reading, first that holds: a trend, a term lookup and a list are what the answer's
# shape follows; then several papers; then what of one paper is asked.
KIND_ORDER: tuple[Kind, ...] = ("trend", "lookup", "list", "comparison", "summary", "problem",
                                "quantity", "finding", "method", "definition")


def read_intent(question: str, venues: Sequence[str] = (),
                authors: AuthorBook | None = None) -> Intent:
    """``question`` read once; ``venues``: the stored venues, which a question may name as
    its range ("in Nature") beside the known ones; ``authors``: the stored author lists,
    which confirm an author the words alone leave in doubt ("papers from Hinton":
    ``stated.STORED_AUTHOR_RES``). Pure and cached."""
    return _read(question, tuple(venues), authors)


@lru_cache(maxsize=512)
def _read(question: str, venues: tuple[str, ...], authors: AuthorBook | None) -> Intent:
    filters, search = stated(question, venues, authors)
    if over := over_periods(question, filters, venues, authors):  # "… in the 1990s or the 2010s?"
        filters, search = over
    problem = bool(PROBLEM_QUESTION_RE.search(question))
    quantity = bool(QUANTITY_RE.search(question))
    readings = {
        "summary": bool(SUMMARY_RE.search(question)),
        "comparison": bool(COMPARE_RE.search(question)),
        "definition": bool(DEFINITION_QUESTION_RE.search(question)),
        "method": bool(METHOD_QUESTION_RE.search(question)) and not problem,
        "finding": bool(FINDING_QUESTION_RE.search(question)) and not problem,
        "quantity": quantity,
        "problem": problem,
        "list": bool(LIST_RE.search(search)),
    }
    # "Which papers are by Sara Sabour?", "What has Bengio published?": her papers, all of
    # them; "Summarize the papers by X on Y", "the paper by X": read as they ask, within
    # hers (one naming no topic, "Summarize the papers by X", is listed all the same:
    # ListAnswers.of_author_alone)
    readings["list"] |= bool(filters and filters.author) and not _ASKS_OF_PAPERS.search(search) \
        and not any(readings[k] for k in ("definition", "method", "finding", "quantity", "problem"))
    lookup = lookup_terms(search)
    trend = trend_topic(search)
    claimed = peak_claim(question, filters) if trend is not None else None
    if claimed and filters:  # "Did X peak in 2019?" is asked of every year, not 2019's
        filters = replace(filters, years=None) or None
    holds = readings | {"lookup": bool(lookup) and not readings["list"],
                        "trend": trend is not None}
    kind: Kind = next((k for k in KIND_ORDER if holds[k]), "other")
    return Intent(
        question=question, kind=kind, names=tuple(names_in(question)),
        proper_names=tuple(proper_names(question)), filters=filters, search=search,
        follow_up=leans_on_previous(question, search), summary=readings["summary"],
        comparison=readings["comparison"], definition=readings["definition"],
        method=readings["method"], finding=readings["finding"], quantity=quantity,
        contribution=(bool(CONTRIBUTION_QUESTION_RE.search(question)) or quantity) and not problem,
        problem=problem, wants_list=readings["list"], lookup_terms=lookup, trend_topic=trend,
        newest_first=bool(NEWEST_RE.search(question)), claimed_years=claimed,
        compared_topics=compared_topics(search),
        counts_asked=counts_asked(search) if trend is not None else None)


def over_periods(question: str, filters: Filters | None, venues: tuple[str, ...],
                 authors: AuthorBook | None) -> tuple[Filters, str] | None:
    """A count compared over two spans of years ("Were there more papers on MCMC in the 1990s
    or in the 2010s?", ``compared_periods``) read as the count it is answered by: "How many
    papers on MCMC?" over both spans' years, the question's author and venue kept. The year
    reader alone had kept one span ("… than there were in 2015", "…, 2015 or 2019?") or
    none ("the 1990s or the 2010s", no "in"; C62). None for any other question."""
    if (periods := compared_periods(question)) is None:
        return None
    side, *spans = periods
    if not (topic := compared_topic(stated(side, venues, authors)[1])):  # "papers by Bengio on X"
        return None
    if names_a_source(topic, venues, authors):  # "Did Hinton have more papers in …?" (C67)
        return None
    years = frozenset(year for first, last in spans for year in range(first, last + 1))
    span = (min(years), max(years))
    named = years if len(years) < span[1] - span[0] + 1 else None
    return (replace((filters or Filters()).without_years(), years=span, named_years=named),
            f"How many papers on {topic}?")


def names_a_source(topic: str, venues: Sequence[str], authors: AuthorBook | None) -> bool:
    """Whether a compared ``topic`` names where papers come from, not what they are on: a
    venue ("Did NeurIPS have more papers in 2019 …?") or a stored author written as a name
    ("Did Michael I. Jordan have …?"). Counted as a topic, each had been counted by the
    abstracts writing the name: "None in either" for Jordan's 40 and 15 papers (C67)."""
    if names_a_venue(topic, venues):
        return True
    # as a person's name: capitalised, no acronym ("GAN" is no Zhe Gan's)
    written_as_name = all(word[:1].isupper() and (len(word.rstrip(".")) == 1 or not word.isupper())
                          for word in topic.split())  # an initial ("I.") is no acronym
    return authors is not None and written_as_name and authors.holds(topic)


def names_in(text: str) -> list[str]:
    """Method names and acronyms in a question (CRAFT, PoLAR, AB-MCTS, pass@N), to be matched
    case-sensitively: a stemmer folds "CRAFT" into "crafted", a researcher does not."""
    names = [t for t in TOKEN_RE.findall(text) if any(c.isupper() for c in t[1:])]
    return list(dict.fromkeys(names))


def proper_names(question: str) -> list[str]:
    """What a question names: ``names_in`` plus capitalised words inside a sentence
    (Chinchilla, Mamba, Constitutional AI), the way a researcher names a thing."""
    found = names_in(question)
    for m in TOKEN_RE.finditer(question):
        before = question[: m.start()].rstrip(" \"'(")
        word = m.group(0)
        if word[0].isupper() and before and before[-1] not in ".?!:;" and word.lower() not in STOPWORDS:
            found.append(word)
    return list(dict.fromkeys(found))


