"""The filters a question states in words: a year range ("since 2019", "between 2010 and
2012", "in the 1990s"), a venue ("in NeurIPS 2025") and an author ("papers by Sara Sabour"),
and the question without those words, which is what is searched.

Why a module of its own: a year in a question may be a count ("in 2048 dimensions"), a venue
a word ("processes in nature") and a name a method's inspiration ("inspired by Hebbian
learning"); telling them apart is most of the reading, and ``intent.read_intent`` and every
filter it sets read it from here once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from assistant.authors import PARTICLES, AuthorBook, given_first
from assistant.corpus import KNOWN_VENUES, canonical_venue
from assistant.exclusions import stated_exclusion
from assistant.keywords import STOPWORDS
from assistant.stated_years import PAPER, PAPERS, YEAR, cut, stated_years
from assistant.types import LATEST_YEAR, Filters

# What asks for the newest papers first, before the papers' noun and the topic's words
# ("recent GAN papers", "the most recent papers on X", "latest", "newest"; "new" and
# "newer" just before the noun alone: "new optimization papers" may be on new optimizers),
# and after the topic ("… were published recently"): an order, not words of the topic
# (``intent.Intent.newest_first``, ``topics.LEAD_RE``)
RECENT = rf"(?:(?:most\s+)?(?:recent|latest|newest)|new(?:er)?(?=\s+{PAPERS}\b))"
# papers' being published ("were published", "have appeared"), and recently so
BEEN = r"(?:were|was|are|is|have\s+been|has\s+been|have|has|had|got)"  # "have appeared" too (C61)
PUBLISHED = r"(?:published|written|presented|accepted|appeared|released)"
# ...or in recent years, with or without the verb ("Which papers study GANs in recent years?":
# "recent" and "years" had been topic words each paper must hold, as "published" had been)
RECENTLY = (rf"(?:(?:{BEEN}\s+)?{PUBLISHED}\s+(?:most\s+)?recently"
            rf"|(?:(?:{BEEN}\s+)?{PUBLISHED}\s+)?(?:in|over|during|from)\s+(?:the\s+)?recent\s+years)\b")
# A request for a topic's papers with no papers' noun: "What was published in 2021 about
# X?", "What has been written on X?", "Anything published on X in 2019?", "Is there anything
# on X?", "anything on X?" (each had been searched with its own words, "anything" and "published", and refused
# or answered from one paper); the words are no topic's (``topics.raw_topic``)
PUBLISHED_ON = (rf"^\s*(?:(?:what|anything)\s+(?:{BEEN}\s+|(?:has|have)\s+)?(?:published|written)"
                r"|(?:is|are)\s+there\s+anything(?:\s+(?:published|written))?|(?:any|some)thing)"
                r"(?=\s+(?:on|about|regarding|concerning|(?:in|since|from|during|between)\s+'?\d)\b)"
                # not of the papers before ("Is there anything in these papers about X?")
                r"(?!.*\b(?:it|its|this|these|those|them|they|their)\b)")

# ---------------------------------------------------------------- an author it names

# One name as written, capitals and all ("Sara Sabour", "Mihaela van der Schaar", "J.-P.
# Vert", "O'Brien"; not "Hinton's"), not opening with a question's word ("List Hinton's
# papers"), and several joined by "and" or commas ("Hinton and LeCun").
_LEADS = (r"(?!(?:List|Show|Find|Give|Name|Get|Summari[sz]e|Compare|Count|Plot|Describe|Explain"
          r"|Which|What|How|Why|When|Where|Who|Are|Is|Was|Were|Do|Does|Did|Has|Have|Had|Can"
          r"|Could|Will|Would|Should|Please|The|All|Any|Recent|Latest|Newest|Most|New)\b)")
# the capitals and small letters a name may begin with, accented too ("Özlem Aslan", "Łukasz
# Kaiser", "Éric Moulines": "[A-Z]" had missed them, and the name was searched as words)
CAPITALS = "".join(c for c in map(chr, range(0x250)) if c.isupper())
SMALLS = "".join(c for c in map(chr, range(0x250)) if c.islower())
_WORD = rf"[{CAPITALS}](?:[\w.-]|['’](?!s\b))*"
_PARTICLE = rf"(?:{'|'.join(PARTICLES)})"
_ONE = rf"{_LEADS}{_WORD}(?:\s+(?:{_PARTICLE}\s+)*{_WORD}){{0,3}}"
_NAME = rf"(?-i:(?P<author>{_ONE}(?:\s*(?:,|&|\band\b|\bor\b)\s*{_ONE})*))"  # "or": either
# what follows a name and goes with it: "et al.", "'s group", "and colleagues"
_AFTER = (r"(?:\s+et\s+al\b\.?|['’]s(?:\s+(?:group|lab|team|students|collaborators"
          r"|co-?authors))?|\s+and\s+(?:colleagues|co-?authors|collaborators|others|students))?")
# where the writers of "X et al." stand: the question's start ("In 2017, X et al. proposed…"
# once its year is cut), or after an auxiliary or "summarize" ("What did X et al. propose?",
# "What were X et al. studying?", "Summarize X et al."), not after a comma or "is/was": a
# cited work ("build on the Transformer, Vaswani et al.?", "The baseline was X et al.")
_WROTE_BY = "(?:^[\\s\\W]*|" + "|".join(rf"(?<=\b{w}\s)" for w in (
    "did", "does", "do", "has", "have", "had", "are", "were", "summarize", "summarise")) + ")\\s*"
_OF_SOME = "(?:" + "|".join(rf"(?<=\b{w}\s)" for w in ("many", "which", "any", "all", "some", "most")) + ")"
_BY = (r"(?:(?:that|which)\s+)?(?:(?:are|were|is|was)\s+)?(?:(?:written|authored|co-?authored)\s+"
       r"(?:(?:jointly|together)\s+)?)?")
# "Which papers are by Sara Sabour?", "What has Yoshua Bengio published?", "Bengio's papers":
# ``cut`` is what states the author, the rest is what is searched (perhaps nothing).
_WRITES = r"(?:published|publish|written|write|authored|author|co-?authored|co-?author)"
_WROTE = rf"(?:{_WRITES}|work(?:ed)?\s+on|stud(?:y|ied)|research(?:ed)?(?:\s+on)?|say|said)"
# what follows "by" and is no name written in lower case ("papers by year", "by hand")
_NO_NAME = (r"(?!(?:years?|venues?|decades?|topics?|dates?|months?|citations?|relevance|score"
            r"|authors?|institutions?|countr(?:y|ies)|affiliations?|design|impact|fields?|areas?"
            r"|type|length|size|popularity|importance|quality|accuracy|performance|hand|default"
            r"|chance|example|definition|construction|comparison|contrast|nature|themselves"
            r"|itself)\b)")
AUTHOR_RES = [
    re.compile(rf"\b(?:{PAPERS}|{PAPER})\s+(?P<cut>{_BY}by\s+(?:the\s+authors?\s+)?{_NAME}"
               rf"{_AFTER})", re.I),
    re.compile(rf"(?P<cut>\b(?:written|authored|co-?authored)\s+(?:(?:jointly|together)\s+)?by\s+"
               rf"{_NAME}{_AFTER})", re.I),
    # "papers that have both Hinton and Sutskever as authors", "papers with Bengio as co-author"
    re.compile(rf"\b(?:{PAPERS}|{PAPER})\s+(?P<cut>(?:(?:that|which)\s+)?(?:have|has|had|with|list"
               rf"|name)\s+(?:both\s+)?{_NAME}\s+as\s+(?:an?\s+)?(?:co-?)?authors?\b)", re.I),
    # "What has Yoshua Bengio published?", "Which papers did A and B write together?",
    # "Which papers did A write with B?"
    re.compile(rf"^\s*(?:what|(?:which|how\s+many)\s+{PAPERS})\s+(?P<cut>(?:has|have|did)\s+{_NAME}"
               rf"\s+{_WROTE}(?:\s+together)?(?:\s+(?:together\s+)?with\s+"
               rf"{_NAME.replace('author', 'coauthor')})?)(?!\w)", re.I),
    # "Did Bengio write about attention?", "Has Hinton published anything in 2010?", "Has
    # Bengio worked with LeCun?": a writer's verbs, or "worked with" a name ("Has Dropout
    # worked on small data?" and "Does Mamba work on long documents?" ask of a method)
    re.compile(rf"^\s*(?:did|has|have)\s+(?P<cut>{_NAME}\s+(?:ever\s+)?(?:{_WRITES}"
               r"(?:\s+(?:anything|any\s+papers?|papers?))?(?:\s+together)?"
               rf"|(?:work(?:ed)?|collaborated)(?=\s+(?:\w+\s+)?with\s+(?-i:[{CAPITALS}])))"
               rf"(?:\s+(?:\w+\s+)?with\s+{_NAME.replace('author', 'coauthor')})?)"
               r"(?=\s+(?:about|on|in)\b|\s*[?.!]*\s*$)", re.I),
    # "Bengio's papers", with the "of" of "how many of Levine's papers" (a run: "how many of
    # papers are about X?" was no count)
    re.compile(rf"(?P<cut>(?:{_OF_SOME}of\s+)?{_NAME}['’]s)\s+(?:{PAPERS}|papers|work|research"
               r"|publications|contributions)\b", re.I),
    # a name cited with "et al." as the subject that wrote: "What did Vaswani et al. propose
    # in 2017?", "Vaswani et al. propose…" (a run: searched for "Vaswani", "et" and "al", a
    # false "no"); not a work built on, compared with or cited ("build on McMahan et al.",
    # "outperform (Vaswani et al., 2017)"), where a review found "Mahan" read
    re.compile(rf"{_WROTE_BY}(?P<cut>{_NAME}\s+et\s+al\b\.?(?:['’]s\b)?)", re.I),
    # written in lower case, as the question's last words: "papers by sara sabour?" (not
    # "papers by year", "papers by design interpretable", "papers by hand")
    re.compile(rf"\b{PAPERS}\s+(?P<cut>{_BY}by\s+{_NO_NAME}(?P<author>[^\W\d_][\w'’.-]*"
               r"(?:\s+[^\W\d_][\w'’.-]*){0,2}))\s*[?.!]*\s*$", re.I),
]
# Read as an author only when a stored paper has that author (``AuthorBook.holds``):
# "from" names a venue, a year or a field as often ("papers from NeurIPS", "papers from
# Computer Vision", "from the 1990s", all read before or refused here), and lower-case
# words inside a question may be words ("papers by hand on graphs": a stored author is
# named Hand, so one lower-case word is read only where the question ends, a writer's verb
# frames it, or the store holds it more as a name than as a word, ``AuthorBook.more_a_name``).
# After "from", a name of one word is read only on that last ground: "Which papers from
# London use Gaussian processes?" asks for a place, though stored authors are named London.
# "Yoshua Bengio papers", "Hinton papers on capsules", "list bengio papers": a name just
# before the papers' noun, where a topic stands as often ("Transformer papers", "GAN
# papers", "Hopfield papers"): the longest run of its words ending at the noun that a
# stored paper has, of one word only when the store holds it more as a name
# (``AuthorBook.more_a_name``: Hopfield has 5 stored papers, his networks 41 abstracts).
# "papers of Yoshua Bengio" reads as "from" does.
# (pattern, which end of the name may move: "end", it may end before the pattern's last
# word; "start", begin after its first; "" neither; "named", neither, and one word only when
# more a name than a word: "What did Adam propose?" asks of the optimizer, a review's)
_ET_AL = re.compile(r"\bet\s+al\b|['’]s\s+(?:group|lab|team)\b", re.I)  # a name, not a place
_RANGE_WORDS = r"(?:per|each|every|since|before|after|between|from|in|during|over|published)"
_ARE = r"(?:(?:that|which)\s+)?(?:(?:are|were|is|was|come|came)\s+)?"
# up to five words: "laurens van der maaten"
_LOWER = rf"(?-i:(?P<author>[{SMALLS}][\w'’.-]*(?:\s+[{SMALLS}][\w'’.-]*){{0,4}}))"
_NOUN = r"(?:papers|abstracts|articles|publications)"  # not "works", "studies": verbs too
STORED_AUTHOR_RES: list[tuple[re.Pattern[str], str]] = [
    # "Papers from Hinton", "Which papers are from Geoffrey Hinton?", "papers of Hinton"
    (re.compile(rf"\b(?:{PAPERS}|{PAPER})\s+(?P<cut>(?:{_ARE}from|of)\s+{_NAME}{_AFTER})",
                re.I), ""),
    # "papers from sara sabour on capsules", "papers by sara sabour on capsules"
    (re.compile(rf"\b(?:{PAPERS}|{PAPER})\s+(?P<cut>(?:{_ARE}from|{_BY}by|of)\s+{_NO_NAME}"
                rf"{_LOWER})", re.I), "end"),
    # "List papers on attention by Yoshua Bengio", "Which papers on capsules are by
    # Hinton?", "How many papers on attention by Bengio per year?": "by" a name after the
    # topic, where the question ends or its range begins ("inspired by Hebb" names no
    # stored author, and "the dataset released by Google" none)
    (re.compile(rf"(?P<cut>\b(?:(?:are|were|is|was)\s+)?(?:(?:written|authored)\s+)?by\s+"
                rf"{_NAME}{_AFTER})(?=\s*[?.!]*\s*$|\s+{_RANGE_WORDS}\b)", re.I), ""),
    # ...and a full name no stored paper has, whose words are names or written in no abstract
    # ("How many papers on GANs by Ian Goodfelow?", "… by Zzz Qqq?": refused naming the
    # nearest, not counted as “GANs by Zzz Qqq”; a review's), not one the abstracts write ("by
    # Gaussian Processes", "by Monte Carlo Tree Search": topic words; ``AuthorBook.may_name``)
    (re.compile(rf"(?<!ed\s)(?P<cut>\bby\s+{_NAME}{_AFTER})(?=\s*[?.!]*\s*$|\s+{_RANGE_WORDS}\b)", re.I),
     "unheld"),  # not after a verb: "inspired by Donald Hebb"
    # the same in lower case: "how many papers on boltzmann machines by hinton" (a run: its
    # words searched, 60 counted where "by Hinton" counts 12)
    (re.compile(rf"(?P<cut>\b(?:(?:are|were|is|was)\s+)?(?:(?:written|authored)\s+)?by\s+{_NO_NAME}"
                rf"{_LOWER})(?=\s*[?.!]*\s*$|\s+{_RANGE_WORDS}\b)", re.I), "end"),
    # "what has yoshua bengio published?", "which papers did hinton write?"
    (re.compile(rf"^\s*(?:what|(?:which|how\s+many)\s+{PAPERS})\s+(?P<cut>(?:has|have|did)\s+"
                rf"{_LOWER}\s+{_WROTE}(?:\s+together)?)(?!\w)", re.I), ""),
    # "What did Sabour, Frosst and Hinton propose in 2017?", "What has Hinton introduced?"
    # (a run's false "no": the names searched as words)
    (re.compile(rf"^\s*what\s+(?P<cut>(?:did|has|have)\s+{_NAME}{_AFTER}\s+(?:propos|introduc"
                r"|present|develop|show|find|found|stud|contribut)\w*)\b", re.I), "named"),
    # "Yoshua Bengio papers", "Show me Hinton papers on capsules", "Which Bengio papers…"
    (re.compile(rf"(?<![\w'’-])(?P<cut>{_NAME})\s+{_NOUN}\b", re.I), "start"),
    # "yoshua bengio papers", "list hinton papers on capsules": a request's first words
    (re.compile(rf"^\s*(?P<cut>{_LOWER})\s+{_NOUN}\b", re.I), "start"),
]
# "Rank the papers by BLEU score", "Sort papers by venue": an order, not an author
_ORDERED = re.compile(r"\b(?:rank|sort|order|group|organi[sz]e|cluster|arrange|classify"
                      r"|categori[sz]e|split|bucket|filter|break\s+down)\w*\b", re.I)
_NOT_A_NAME = frozenset({"the", "a", "an", "same", "this", "these", "those", "their", "his", "her",
                         "its", "our", "my", "your", "other", "different", "several", "many",
                         "some", "all", "each", "every", "recent", "latest", "newest",
                         "most", "new"})
MAX_NAME_CHARS = 100


def stated(question: str, venues: Iterable[str] = (), authors: AuthorBook | None = None
           ) -> tuple[Filters | None, str]:
    """The filter a question states in words ("since 2019", "before 2000", "between 2010
    and 2012", "in NeurIPS 2025", "papers by Sara Sabour"), and the question without those
    words, so that "2019" or "Sabour" does not count as a keyword no abstract holds (the
    question itself when nothing else would be left). With ``authors``, the stored
    author lists, an author named only by words that may be something else ("papers
    from Hinton", "papers by sara sabour on capsules") is read when a stored paper has
    them (``STORED_AUTHOR_RES``); without, such words are left in the question."""
    venues = tuple(venues)
    rest = _full_years(question, venues)  # "NIPS '96": NIPS 1996
    span: tuple[int, int] | None = None
    venue: str | None = None
    pattern = _venue_pattern(venues)
    m = next((m for m in pattern.finditer(rest) if _meant_as_venue(m)), None) if pattern else None
    if m:
        venue = canonical_venue(_typed_venue(m))
        year = m.group(2) or m.group(4)
        if year and _MORE_YEARS.match(rest, m.end()):  # "in NeurIPS 2020 and 2021": read below
            rest = f"{rest[:m.start()]} in {year}{rest[m.end():]}"
        else:
            span = (int(year), int(year)) if year and int(year) <= LATEST_YEAR else None
            rest = cut(rest, m)
    recent, named = None, None
    if span is None:
        span, recent, named, rest = stated_years(rest)
        if rest != question:  # "by Hinton and from 2019?": no "and" left dangling at the end
            rest = _DANGLING.sub("", rest)
    not_author, rest = _excluded_author(rest, venues, authors)  # "… not by Hinton"
    excluded, rest = stated_exclusion(rest)  # "… that do not use SVM"
    author, rest = _stated_author(rest, venues)
    if author is None and authors is not None:
        author, rest = _stored_author(rest, venues, authors)
    found = Filters(years=span, named_years=named, venue=venue, author=author,
                    recent=recent, excluded=(excluded,) if excluded else (), excluded_author=not_author)
    if not found:
        return None, question
    rest = re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s{2,}", " ", rest)).strip(" ,;:")
    return found, rest if re.search(r"\w", rest) else question


# an author whose papers are left out: "capsule papers not by Hinton", "…, excluding those
# by Geoffrey Hinton", "GAN papers that were not written by Bengio", "except Hinton's" (a run
# had listed only Hinton's papers, or read "Hinton's" as a word the papers must not write)
_NOT_BY = re.compile(r"(?:\s*,)?\s*\b(?:(?:(?:that|which)\s+)?(?:(?:are|were|is|was)\s+)?(?:not|n['’]t)"
                     r"|excluding|except(?:\s+for)?|other\s+than|apart\s+from)\s+(?:(?:those|the\s+ones|ones"
                     r"|the\s+papers|papers|any)\s+)?(?:(?:written|authored|co-?authored)\s+)?by\s+", re.I)
_NOT_OWNED = re.compile(r"(?:\s*,)?\s*\b(?:excluding|except(?:\s+for)?)\s+(?P<name>[^\W\d_][\w.-]*"
                        r"(?:\s+[^\W\d_][\w.-]*){0,3})['’]s?(?!\w)(?:\s+(?:papers|ones|work))?"
                        r"(?=\s*(?:[?.!,;]|$))", re.I)  # not "except Stein's lemma"


def _excluded_author(text: str, venues: Iterable[str], authors: AuthorBook | None
                     ) -> tuple[str | None, str]:
    """The author ``text`` leaves out ("not by Hinton", "except Hinton's"), and ``text``
    without those words: one the store has, or, "written by" (or with no store), a name
    typed with capitals (one the store lacks leaves out nothing: "not written by Minsky"
    had become the filter "by Minsky", a review's). "not by pruning", "not by Monte Carlo
    sampling" name a method (a review's), and "excluding Nesterov's acceleration" one named
    after a person."""
    if m := _NOT_BY.search(text):
        name, after = _stated_author(f"papers by {text[m.end():]}", venues)
        if name is None and authors is not None:
            name, after = _stored_author(f"papers by {text[m.end():]}", venues, authors)
        written = authors is None or re.search(r"written|authored", m.group(0), re.I)  # an author's
        stored = authors is not None and name is not None and authors.holds(name)
        if name is not None and (name[:1].isupper() and written or stored):
            return name, f"{text[:m.start()]} {after.removeprefix('papers')}"
    m = _NOT_OWNED.search(text)
    if m and authors is not None and authors.holds(m.group("name")):
        return given_first(m.group("name")), f"{text[:m.start()]} {text[m.end():]}"
    return None, text


def _stated_author(text: str, venues: Iterable[str]) -> tuple[str | None, str]:
    """The author ``text`` names as its papers' ("papers by Sara Sabour"), and ``text``
    without those words; none when the "name" is common words ("papers by the same
    group"), an acronym ("papers by BLEU"), a venue ("did NeurIPS publish"), an order
    ("Rank the papers by Hinton…"), or longer than any name."""
    for pattern in AUTHOR_RES:
        m = pattern.search(text)
        if not m or _ORDERED.search(text[:m.start("cut")]):
            continue
        name = m.group("author").strip(".’'")
        if "coauthor" in pattern.groupindex and m.group("coauthor"):  # "worked with B"
            name = f"{name} and {m.group('coauthor').strip('.’')}"
        if _a_name(name, lower_case=name == name.lower(), venues=venues):
            start, end = m.span("cut")
            return given_first(name), f"{text[:start]} {text[end:]}"
    return None, text


def _stored_author(text: str, venues: Iterable[str], authors: AuthorBook
                   ) -> tuple[str | None, str]:
    """The author ``text`` names in one of ``STORED_AUTHOR_RES``'s ways that a stored
    paper has ("Papers from Hinton", "Yoshua Bengio papers"), and ``text`` without those
    words; the longest run of the words that is a stored name ("sara sabour" of "papers by
    sara sabour on capsules", "bengio" of "which bengio papers"). None when no stored paper
    has the name ("papers from Computer Vision", "papers by young researchers",
    "Transformer papers")."""
    for pattern, moves in STORED_AUTHOR_RES:
        m = pattern.search(text)
        if not m:
            continue
        after_from = re.match(r"(?:\w+\s+){0,2}(?:from|of)\b", m.group("cut"), re.I) is not None
        for start, end in _name_spans(text, m, moves, authors):
            name = given_first(text[start:end].strip(".’'"))
            cut_start = m.start("cut") if start == m.start("author") else start
            if _ORDERED.search(text[:cut_start]):  # "Sort (the) Bengio papers by year"
                break
            if ((after_from or moves == "named") and len(name.split()) < 2
                    and not _ET_AL.search(m.group("cut")) and not authors.more_a_name(name)):
                continue  # "from London", "What did Adam propose?": a word as often as a name
            if (_a_name(name, lower_case=name == name.lower(), venues=venues)
                    and (authors.may_name(name) if moves == "unheld" else authors.holds(name))):
                cut_end = m.end("cut") if end == m.end("author") else end
                return name, f"{text[:cut_start]} {text[cut_end:]}"
    return None, text


def _name_spans(text: str, m: re.Match[str], moves: str, authors: AuthorBook
                ) -> list[tuple[int, int]]:
    """Where in ``text`` the name ``m`` reads may lie, longest first: as read, or, as
    ``moves`` allows, ending sooner (``_name_ends``) or beginning later (``_name_starts``)."""
    start, end = m.span("author")
    if moves == "end":
        return [(start, e) for e in _name_ends(text, m, authors)]
    if moves == "start":
        return [(s, end) for s in _name_starts(m, authors)]
    return [(start, end)]


def _name_ends(text: str, m: re.Match[str], authors: AuthorBook) -> list[int]:
    """Where the name ``m`` reads may end, longest first: after each of its words, of two
    words or more inside the question ("sara sabour" of "sara sabour on"), of one where
    the question ends ("papers from hinton?") or where the store holds the word more as a
    name than as a word of the abstracts ("papers from bengio on attention";
    ``AuthorBook.more_a_name``: "papers by hand on graphs" names none)."""
    words = list(re.finditer(r"\S+", m.group("author")))
    ends = [m.start("author") + w.end() for w in reversed(words)]
    return [end for count, end in zip(range(len(words), 0, -1), ends, strict=True)
            if count >= 2 or re.fullmatch(r"[\s?.!]*", text[end:])
            or authors.more_a_name(m.group("author").split()[0])]


def _name_starts(m: re.Match[str], authors: AuthorBook) -> list[int]:
    """Where the name ``m`` reads before the papers' noun may begin, longest first: at each
    of its words but one after "and", a comma or a particle (whose name is the words
    before too: "Hinton and LeCun", "van der Schaar"), of one word only where the store
    holds it more as a name than as a word ("Bengio papers", "which bengio papers"; not
    "Transformer papers", "Hopfield papers", "deep learning papers")."""
    words = list(re.finditer(r"\S+", m.group("author")))
    joined = re.compile(rf"(?:and|&|{_PARTICLE})|.*,", re.I)
    return [m.start("author") + w.start() for i, w in enumerate(words)
            if (i == 0 or not joined.fullmatch(words[i - 1].group()))
            and (i < len(words) - 1 or authors.more_a_name(w.group()))]


def _a_name(name: str, lower_case: bool, venues: Iterable[str]) -> bool:
    words = name.split()
    if not words or len(name) > MAX_NAME_CHARS or words[0].lower() in _NOT_A_NAME:
        return False
    # lower case, stopwords are words, but for "and"/"or" between names ("bengio and lecun")
    if lower_case and any(w in STOPWORDS and not (0 < i < len(words) - 1 and w in ("and", "or"))
                          for i, w in enumerate(words)):
        return False
    if any(w.isalpha() and w.isupper() and len(w) > 1 for w in words):  # BLEU, MIT
        return False
    return not names_a_venue(name, venues)


def names_a_venue(name: str, venues: Iterable[str]) -> bool:
    """Whether ``name`` is a stored venue's or a known one's, in any of its spellings ("NIPS")."""
    named = {canonical_venue(v).casefold() for v in venues} | {v.casefold() for v in KNOWN_VENUES}
    return canonical_venue(name).casefold() in named


# ...and more years after it, the venue's too ("NeurIPS 2020 and 2021" had read 2020 alone)
_MORE_YEARS = re.compile(r"\s*(?:,|and|or|to|through|until|-|–)\s*(?:in\s+)?(?:19|20)\d\d\b", re.I)
# a year right after a venue is its year, whatever follows: "in NeurIPS 2025 use large
# language models" (END had read "2025 … language" as a count of languages)
_VENUE_YEAR_END = r"(?!\d)(?![\'’]?s\b)"


_YEAR_WORDS = r"in|from|since|to|until|till|through|before|after|between|and|or|of"


def _full_years(text: str, venues: tuple[str, ...]) -> str:
    """``text`` with a year of two digits written whole after a venue or a word giving a year
    ("in '19", "'17-'19"): "NIPS '96" is "NIPS 1996",
    "NeurIPS'19" "NeurIPS 2019" (a run: "nips '96" had been searched as words, a false
    "no"); from 80 on, the 1900s."""
    def whole(m: re.Match[str]) -> str:
        return f"{m.group(1)} {_whole_year(m.group(2))}"
    text = re.sub(rf"(?<![\w-])({_venue_names(venues)})\s*['’](\d\d)(?!\d)", whole, text,
                  flags=re.I)
    # ...and one after a word giving a year: "GANs in '19", "from '17 to '19" (a run: "in '19"
    # had been searched as words, 0 papers where 2019 holds 56)
    text = re.sub(r"(?<![\w-])['’](\d\d)\s*([-–])\s*['’](\d\d)(?![\w'’])", lambda m: (
        f"{_whole_year(m.group(1))}{m.group(2)}{_whole_year(m.group(3))}"), text)
    text = re.sub(rf"(?<![\w-])({_YEAR_WORDS})\s*['’](\d\d)(?![\w'’])", whole, text, flags=re.I)
    for _ in range(3):  # a list after a whole year: "in '17, '18 and '19", "2017, '18"
        text = re.sub(r"(?<=\d\d\d\d)(,)\s*['’](\d\d)(?![\w'’])", whole, text)
    return text


def _whole_year(two_digits: str) -> str:
    """A year of two digits written whole: from 80 on, of the 1900s ("96": "1996")."""
    return f"{19 if int(two_digits) >= 80 else 20}{two_digits}"


@lru_cache(maxsize=64)
def _venue_names(venues: tuple[str, ...]) -> str:
    """The stored and known venues' spellings as a regex's alternatives, longest first."""
    names = {canonical_venue(v) for v in venues if len(v.strip()) >= 3}
    names |= set(KNOWN_VENUES.values())
    spellings = {n.lower(): n for n in names} | KNOWN_VENUES
    return "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))


@lru_cache(maxsize=64)
def _venue_pattern(venues: tuple[str, ...]) -> re.Pattern[str] | None:
    alternatives = _venue_names(venues)
    if not alternatives:
        return None
    venue = rf"(?<![\w-])({alternatives})(?![\w-])"
    # A venue counts only where it is meant as one: "in/at/from NeurIPS", "NeurIPS 2025",
    # "NeurIPS papers".
    return re.compile(
        rf"(?:\b(?:in|at|from|of)\s+(?:the\s+)?{venue}(?:\s+{YEAR}{_VENUE_YEAR_END})?)"
        rf"|(?:{venue}\s+{YEAR}{_VENUE_YEAR_END})"
        rf"|(?:{venue}(?=\s+(?:papers?|abstracts?|proceedings)\b))", re.I)


def _meant_as_venue(m: re.Match[str]) -> bool:
    """A venue written as one: with its year or "papers" after it, or with its capitals ("in
    Nature", "at ICML", "in Neurips"), not as a word ("processes in nature", "of the www")."""
    if m.group(1) is None or m.group(2):  # "NeurIPS 2025", "nips papers", "in NeurIPS 2025"
        return True
    return _typed_venue(m) != _typed_venue(m).lower()


def _typed_venue(m: re.Match[str]) -> str:
    """The venue as the question writes it, in whichever of ``_venue_pattern``'s forms."""
    return next(g for g in (m.group(1), m.group(3), m.group(5)) if g)


# an "and", "or" or "but" a cut year leaves ending the question ("by Hinton and ?")
_DANGLING = re.compile(r"\s+(?:and|or|but)(?=\s*[?.!]*\s*$)", re.I)
