"""What a question names or spells exactly, read against the store's papers.

Why a room of its own: the retriever ranks, and these read names. Two refusals rest on them
(a name no stored paper knows, a name of several words no stored paper writes), the
named-paper boost puts the candidates that name everything asked about first, and a paper
holding a term almost no abstract uses keeps its place near the top. Each reads the store
through ``AbstractIndex``; the papers found for the question come from the retriever
(``Found``), ranked only when a check needs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from assistant.authors import split_authors
from assistant.corpus import Paper
from assistant.index import AbstractIndex, ChunkHit
from assistant.intent import read_intent
from assistant.keywords import KeywordStats, mentions, query_terms
from assistant.naming import (
    acronyms_of,
    authors_read,
    name_forms,
    several_word_names,
    typed_titles,
    writes,
)
from assistant.ranking import text_terms
from assistant.similar import title_key
from assistant.topics import LIKE
from assistant.tuning import (
    COMMON_NAME_PAPERS,
    NEARBY,
    NEAREST_TITLE_SHARE,
    OWN_SUBJECT_TERMS,
    RARE_CHUNKS,
    SHORT_TITLE_WORDS,
    TITLE_SHARE,
    UNTITLED_SHARE,
)
from assistant.types import Filters

# The fused scores of the papers found for the question, ranked when first asked for.
Found = Callable[[], dict[str, float]]
# Words giving examples of what the question asks about ("neuromorphic hardware like Loihi",
# "such as BERT", "e.g. TrueNorth"): a name among them is one instance, not the subject
_EXAMPLE_LEAD = (rf"\b(?:{LIKE}|such\s+as|e\.g\.,?|for\s+example,?|for\s+instance,?|including)\s+")


def as_example(question: str, name: str) -> bool:
    """Whether ``question`` gives ``name`` as an example, among those after "like", "such as",
    "e.g." or "including" ("hardware like Loihi or TrueNorth"; "papers like X" asks for X
    itself): a run had refused "Are there papers on spiking neural networks on neuromorphic
    hardware like Loihi?" for "Loihi", where 11 abstracts write spiking networks on
    neuromorphic hardware."""
    return re.search(rf"{_EXAMPLE_LEAD}(?:[^,;:()?!]*?\b(?:or|and)\s+)*{re.escape(name)}(?!\w)",
                     question, re.I) is not None


def unknown_names(index: AbstractIndex, question: str, found: Found) -> list[str]:
    """Names in the question that no stored title or abstract uses at all: no paper can
    be about them, so the question gets no sources (rather than near misses). An
    acronym counts as used when one of the papers found for the question spells it out; a
    name given as an example (``as_example``) is no subject of the question, and a family
    name of an author of the NEARBY papers found, as written (``nearby_families``), is their
    work's ("Krizhevsky et al.'s network" had been refused, his paper among the nearest)."""
    names = [n for n in read_intent(question).proper_names if not as_example(question, n)]
    if not names:
        return []
    corpus = index.surface_text()
    unknown = [name for name in names if not corpus.knows(name)]
    if not unknown:
        return []
    fused = found()  # ranked once: a refusal's text ranks the question anew on each call
    nearby, families = nearby_texts(index, fused), nearby_families(index, fused)
    unknown = [name for name in unknown if not corpus.knows(name, nearby) and name not in families]
    known = [name for name in names if name not in unknown]
    return [name for name in unknown if not any(_or_joined(question, name, k) for k in known)]


def _or_joined(question: str, name: str, other: str) -> bool:
    """Whether ``question`` gives ``name`` and ``other`` as alternatives ("the Loihi chip or
    TrueNorth"): papers on the one the corpus knows answer it, and a run had refused it for
    "Loihi" although one abstract writes TrueNorth."""
    a, b = re.escape(name), re.escape(other)
    near = r"(?:\W+\w+)?\W+or\W+(?:\w+\W+)?"  # a noun at most between ("the Loihi chip or")
    return re.search(rf"\b(?:{a}{near}{b}|{b}{near}{a})(?!\w)", question, re.I) is not None


def unwritten_names(index: AbstractIndex, question: str, found: Found,
                    allowed: AbstractSet[str] | None) -> list[str]:
    """Names of several words in the question ("Hindsight Curriculum Distillation",
    ``naming.several_word_names``) that none of the NEARBY papers found for it writes
    (``naming.writes``: as a phrase, run together or as its initials) and no stored paper
    (that the filter allows: ``allowed``, None for every paper) writes as a phrase
    (``naming.PhraseText``), each in any of its ``naming.name_forms``: the corpus knows each
    word, so ``unknown_names`` lets them through, and the answer would quote papers on
    hindsight or on distillation as if they were about the thing asked. What it wrongly
    refuses, and what it catches, is measured outside the eval by bench/multiword_names.py."""
    proper = index.surface_text().proper
    names = [n for n in several_word_names(question, proper) if not as_example(question, n)]
    if not names:
        return []
    nearby = nearby_texts(index, found(), authors=True)
    stats = index.keyword_stats()
    # a closing word in one chunk of 1,000 or more is a kind ("Relaxation", "Buffer")
    floor = max(3, index.chunk_count() // 1000)

    def common(word: str) -> bool:
        terms = query_terms(word)
        return bool(terms) and all(stats.doc_freq(term) >= floor for term in terms)

    missing = []
    for name in names:
        forms = name_forms(question, name, proper, common)
        if any(writes(form, text) for form in forms for text in nearby):
            continue
        # then any stored paper, which need not rank among the first ("Private Eye":
        # 46th), read for a counted acronym of three initials or more too ("A3C"; the
        # plain ones, lower-cased, are words and surnames somewhere, "TEM", "Kar", and
        # so is a counted pair, "F2" for Forward-Forward)
        forms += [a for form in forms for a in acronyms_of(form, shortest=3) if not a.isalpha()]
        writers = set().union(*(index.phrase_text().writers(form) for form in forms))
        if not (writers if allowed is None else writers & allowed):
            missing.append(name)
    return missing


def nearby_families(index: AbstractIndex, fused: dict[str, float]) -> set[str]:
    """The family names of the NEARBY papers' authors, as written ("Krizhevsky"): a name the
    question gives in another case ("SRA" of Suvrit Sra's) or a given name is none (C68:
    "the SRA optimizer" had been answered from his paper)."""
    return {words[-1].strip(".,") for p in _nearby_papers(index, fused)
            for name in split_authors(p.authors) if (words := name.split())}


def nearby_texts(index: AbstractIndex, fused: dict[str, float], authors: bool = False) -> list[str]:
    """The title and abstract (and authors, also without middle initials: "Hinton's …",
    "Richard Sutton") of the NEARBY papers ranked first in ``fused``."""
    return [f"{p.title} {p.text}" + (f" | {authors_read(p.authors)}" if authors else "")
            for p in _nearby_papers(index, fused)]


def _nearby_papers(index: AbstractIndex, fused: dict[str, float]) -> list[Paper]:
    """The stored papers of the NEARBY ranked first in ``fused``."""
    papers = index.papers()
    ranked = sorted(fused, key=lambda pid: -fused[pid])[:NEARBY]
    return [paper for pid in ranked if (paper := papers.get(pid)) is not None]


def names_a_method(question: str, named: set[str]) -> bool:
    """Some candidate names what the question names, and that is more than two letters:
    "UK" or "GP" names no method, and occurs in papers on anything."""
    return bool(named) and any(len(n) > 2 for n in read_intent(question).names)


def name_writers(index: AbstractIndex, question: str, fused: dict[str, float]) -> dict[str, set[str]]:
    """For each name the question writes (methods, acronyms), the candidates that name
    it as researchers write it (``keywords.mentions``, in the title or abstract)."""
    papers = index.papers()
    texts = {pid: f"{papers[pid].title} {papers[pid].text}" for pid in fused if pid in papers}
    return {name: {pid for pid, text in texts.items() if mentions(text, name)}
            for name in read_intent(question).names}


def named(writers: dict[str, set[str]]) -> set[str]:
    """The candidates that name everything the question names (``name_writers``)."""
    return set.intersection(*writers.values()) if writers else set()


def boosted(question: str, writers: dict[str, set[str]]) -> set[str]:
    """The candidates the named-paper boost puts first: those that name everything the
    question names (``writers``), a name that more than COMMON_NAME_PAPERS of the
    candidates write left out (the question's "RL" or "GAN" is named by most of its
    candidates, and the boost would put them all ahead of the one paper that writes
    "reinforcement learning"); none when no name is left. A summary ("Summarize the
    papers on … for LLM reasoning") keeps every name: it lists the papers that name what
    it asks about."""
    kept = [pids for pids in writers.values()
            if read_intent(question).summary or len(pids) <= COMMON_NAME_PAPERS]
    return set.intersection(*kept) if kept else set()


def keep_rare_match(index: AbstractIndex, question: str, bm25: dict[str, tuple[int, ChunkHit]],
                    fused: dict[str, float], stats: KeywordStats) -> None:
    """BM25's first paper stays in the fused top 3 when it holds a question term that
    almost no abstract uses: fusion dilutes such an exact match, and it is how
    researchers search (bench/rare_terms.py)."""
    rare = [t for t in query_terms(question) if 0 < stats.doc_freq(t) <= RARE_CHUNKS]
    first = min(bm25, key=lambda pid: bm25[pid][0])
    paper = index.papers().get(first)
    if not rare or paper is None or first not in fused:
        return
    if not set(rare) & text_terms(f"{paper.title}. {paper.text}"):
        return
    ranked = sorted(fused.values(), reverse=True)
    if len(ranked) > 3 and fused[first] < ranked[2]:
        fused[first] = ranked[2] + 1e-6


_QUOTES = "\"'“”‘’"


def titled_papers(papers: Mapping[str, Paper], question: str,
                  allowed: AbstractSet[str] | None = None) -> list[str]:
    """The ids of the stored papers whose own title (not a derived or a model's label) the
    question writes whole ("Who wrote Monotonic Networks?", 'What is "Attention is All you
    Need" about?'), but one inside a longer title it writes: the papers asked about. A title is
    asked for typed with its capitals or in quotes; in lower case only when longer than
    SHORT_TITLE_WORDS and most of the question's keywords (TITLE_SHARE), or of any length
    when the question asks only for its record ("who wrote thin junction trees?": a run had
    answered "who wrote probabilistic matrix factorization?" from another paper). Its abstract
    need not repeat its title's words ("need"), and the ranking had put papers sharing
    more of the question's words first, or refused."""
    asked, terms = f" {title_key(question)} ", set(query_terms(question))
    asking = read_intent(question)  # "who wrote X?", not "who wrote about X?" (a list)
    of_record = bool(terms & OF_A_RECORD) and not asking.wants_list and asking.trend_topic is None
    found: dict[str, str] = {}
    for pid, paper in papers.items():
        if paper.title_derived or paper.title_model or (allowed is not None and pid not in allowed):
            continue
        key = title_key(paper.title)
        size = key.count(" ") + 1
        if size < 2 or f" {key} " not in asked:
            continue
        # typed as a title is, or most of what the question asks about: "large scale online
        # learning used for weather forecasting in Antarctica?" asks of no paper so titled
        titled = set(query_terms(paper.title))
        held = len(titled & terms) / max(len(terms), 1)
        if (_typed_as_title(paper.title, question) or (size > SHORT_TITLE_WORDS and held >= TITLE_SHARE)
                or (of_record and not terms - titled - OF_A_RECORD)):
            found[pid] = key
    # each title the question writes, but one inside a longer one ("Capsule Networks" in
    # "Self-Routing Capsule Networks"): 'compare “A” and “B”' asks about both
    return [pid for pid, key in found.items()
            if not any(key != other and f" {key} " in f" {other} " for other in found.values())]


def titled_outside(papers: Mapping[str, Paper], question: str, applied: Filters | None,
                   given: Filters | None) -> tuple[Filters | None, str]:
    """The filter to answer ``question`` under, and a line for the answer's head: without
    the years and venue the question states when those leave out each stored paper it asks
    of by title ("What does the NeurIPS 2018 paper Dynamic Routing Between Capsules
    propose?": it is of 2017, and R10's answer had been another 2018 paper's), saying so;
    ``applied`` and "" else (``_asked_of_alone``). Years or a venue ``given`` (``--year``)
    are the user's own, never dropped (C63)."""
    if (applied is None or not (applied.states_years or applied.venue)
            or (given is not None and (given.states_years or given.venue))):
        return applied, ""
    named = [papers[pid] for pid in titled_papers(papers, question)]
    if not named or any(applied.allows(paper) for paper in named) or not all(
            _asked_of_alone(paper.title, question) for paper in named):
        return applied, ""
    paper = named[0]
    dropped = Filters(years=applied.years, named_years=applied.named_years, venue=applied.venue)
    line = (f"“{paper.title}” ({paper.source}) is a stored paper of {paper.year or 'no year'}"
            f"{f', {paper.venue}' if paper.venue else ''}, not of {dropped.describe()}: answered without "
            "that filter.\n")
    return replace(applied.without_years(), venue=None) or None, line


def _asked_of_alone(title: str, question: str) -> bool:
    """Whether ``question`` asks of the paper ``title`` names, not of other papers: the title
    right after "paper" with no other papers asked of before it, nor others' work on it after
    it ("How does the NeurIPS 2018 paper X improve on CNNs?" asks of X, 'How did work in 2019
    improve on the paper "X"?' and 'How was the paper "X" extended?' of others), or in
    quotes in a question naming no other papers nor their relation to it ("papers",
    "improve", "extend", "cite"…: 'How was "Latent Dirichlet Allocation" extended in
    2015?'). A title written bare may be a method's name as well ("How was
    Latent Dirichlet Allocation extended in 2015?"; C63, C64, C65)."""
    words = _title_words(title)
    if after := re.search(rf"\bpaper\s+[{_QUOTES}]?\s*{words}", question, re.I):
        return not (_of_other_papers(question[:after.start()]) or _DONE_TO.search(question[after.end():]))
    return quoted_title(title, question) and not _of_other_papers(question)


# others' work on a paper after its title, in the passive ('How was the paper "X" extended
# in 2015?': C66), not what it does ("How does the paper X improve on CNNs?")
_DONE_TO = re.compile(r"\b(?:extended|cited|built\s+on|followed|improved(?:\s+on|\s+upon)?|inspired"
                      r"|reproduced|replicated|criticized|criticised)\b", re.I)


def _of_other_papers(text: str) -> bool:
    """Whether ``text`` names papers, or other papers' relation to one (``_OTHER_PAPERS``)."""
    return bool(re.search(r"\bpapers\b", text, re.I) or set(query_terms(text)) & _OTHER_PAPERS)


# what a question asks of a paper's record, not of a topic: who wrote it, where and when
OF_A_RECORD = frozenset(query_terms("wrote written writes authored authors published appeared "
                                    "year venue"))


def asks_only_of(question: str, titles: Sequence[str],
                 a_name: Callable[[str], bool] = lambda _: True) -> bool:
    """Whether a question quoting papers' ``titles`` asks of those papers alone: each title in
    quotes, and besides their words fewer than OWN_SUBJECT_TERMS keywords ("summarize “X”",
    'who wrote "X"?', 'compare “A” and “B”'), none asking for other papers ("builds on",
    "related", "alternatives") nor comparing one with something else ('How does “X” differ
    from GANs?'). Such an answer had quoted papers sharing a title's words: "summarize
    “Task-Oriented Feature Distillation”" cited a domain-adaptation and a dialogue paper
    beside it. A title not quoted may name a topic ("Which papers build on neural ordinary
    differential equations?" asks for others). A title of three words or more typed with its
    capitals is asked of alone when the question asks nothing else, its record, or a part of
    it ("What datasets does X use?", unless ``a_name``: other papers write the title as a
    method's name, and "What are the limitations of Latent Dirichlet Allocation?" asks of
    the method, a review's): a model given "Summarize Dynamic Routing Between Capsules."
    with four more papers had summarized them instead (a run's)."""
    titled = {term for title in titles for term in query_terms(title)}
    own = set(query_terms(question)) - titled
    quoted = all(quoted_title(title, question) for title in titles) and len(own) < OWN_SUBJECT_TERMS
    # one paper compared with something else ('How does “X” differ from GANs?'): others too
    compared = len(titles) == 1 and bool(own & _COMPARING)
    typed = all(  # "Summarize Stacked Capsule Autoencoders."
        len(title.split()) >= SHORT_TITLE_WORDS and _typed_as_title(title, question) for title in titles
    ) and (not own - OF_A_RECORD or (not own - OF_A_RECORD - _OF_A_PAPER and not any(map(a_name, titles))))
    return (quoted or typed) and not own & _OTHER_PAPERS and not compared


# what a question asks of a paper it names ("What datasets does X use?"): its own parts, not
# others' ("alternatives to X", "better approaches", "applications of X": a review's)
_OF_A_PAPER = frozenset(query_terms("""dataset result finding contribution limitation experiment
baseline metric code summary conclusion assumption performance setup detail author novelty novel
idea motivation intuition weakness strength drawback advantage disadvantage downside upside caveat
takeaway complexity runtime challenge problem approach method evaluation evaluate main key use uses
used"""))

# words comparing what they follow with something ('compare “A” and “B”' asks of both alone)
_COMPARING = frozenset(query_terms("compare comparison differ difference versus vs contrast"))

# words asking for papers besides the titled ones: "What work builds on “X”?", "Compare “X”
# with related work" (a review: both had answered from “X” alone)
_OTHER_PAPERS = frozenset(query_terms("build builds built related similar cite cites cited extend "
                                      "extends follow follows improve improves inspired other "
                                      "others prior later alternative alternatives"))


def _typed_as_title(title: str, question: str) -> bool:
    """Whether the question writes ``title`` with its capitals, or in quotes in any case."""
    return bool(re.search(rf"\b{_title_words(title)}\b", question)) or quoted_title(title, question)


def quoted_title(title: str, question: str) -> bool:
    """Whether the question writes ``title`` in quotes, in any case."""
    return bool(re.search(rf"[{_QUOTES}]\s*{_title_words(title)}\W*[{_QUOTES}]", question, re.I))


def in_longer_name(title: str, question: str) -> bool:
    """Whether ``question`` writes ``title`` beside a capitalised word, as part of a longer
    name ("Neural Architecture Search"); not the question's first word ("Summarize X")."""
    words = _title_words(title)
    return re.search(rf"(?-i:(?<!^)\b[A-Z][\w-]*\s+)(?i:{words})\b|(?i:{words})(?-i:\s+[A-Z])",
                     question.strip()) is not None


def _title_words(title: str) -> str:
    """A pattern of ``title``'s words, apart by anything but a word character."""
    return r"\W+".join(map(re.escape, re.findall(r"\w+", title)))


# a question asking for a titled paper's summary (the keywords drop these words)
_SUMMARY_RE = re.compile(r"\b(?:summar\w*|explain|describe|overview|tl;?dr|abstract)\b", re.I)


def unstored_title(index: AbstractIndex, question: str, found: Found) -> tuple[str, str | None] | None:
    """A title the question types and asks of alone (a summary of it, its record or its parts:
    ``asks_only_of``'s reading) that no stored paper has, near or whole, and no abstract
    writes, with the nearest stored title when the two share NEAREST_TITLE_SHARE of their
    keywords; None when one of the first papers found, whose title the store does not hold
    (a seed's label is derived), writes most of its words: it may be the paper asked for.
    "Summarize BERT: Pre-training of Deep Bidirectional Transformers…" had quoted XLNet's
    abstract as if it were BERT's, and "Who wrote Dropout: A Simple Way…?" a paper on noise,
    saying nothing."""
    asking = read_intent(question)
    if asking.wants_list or asking.trend_topic is not None:  # "evaluate on the MNIST and Toronto Face"
        return None
    papers = index.papers()
    for title in typed_titles(question, index.surface_text().proper):
        rest = question.replace(title, " ")
        own = set(query_terms(rest))
        if own - OF_A_RECORD - _OF_A_PAPER or not (own or _SUMMARY_RE.search(rest)):
            continue
        typed = set(query_terms(title))
        nearest, near, share = _nearest_title(typed, papers.values())
        if near:
            continue
        if index.phrase_text().writers(title):
            continue
        ranked = found()
        first = [papers[pid] for pid in sorted(ranked, key=lambda p: -ranked[p])[:NEARBY] if pid in papers]
        if any((p.title_derived or p.title_model)
               and len(typed & text_terms(p.text)) >= UNTITLED_SHARE * len(typed) for p in first):
            return None  # a paper without its own title that may be the one asked for
        return title, nearest.title if nearest is not None and share >= NEAREST_TITLE_SHARE else None
    return None


def _nearest_title(typed: AbstractSet[str], papers: Iterable[Paper]) -> tuple[Paper | None, bool, float]:
    """The stored paper whose own title is nearest the ``typed`` keywords (a near one first,
    ``_near``, then by the share of both titles' keywords they share), whether it is near,
    and that share."""
    best, rank = None, (False, 0.0)
    for paper in papers:
        if paper.title_derived or paper.title_model:
            continue
        stored = set(query_terms(paper.title))
        shared, both = len(typed & stored), len(typed | stored) or 1
        if (near := _near(typed, stored, shared), shared / both) > rank:
            best, rank = paper, (near, shared / both)
    return best, *rank


def _near(typed: AbstractSet[str], stored: AbstractSet[str], shared: int) -> bool:
    """Whether a stored title holds the typed one's keywords, or it the stored one's, but a
    word or a sixth ("Dynamic Routing Between Capsule Networks")."""
    return shared >= max(len(typed), len(stored)) - max(1, len(typed) // 6)
