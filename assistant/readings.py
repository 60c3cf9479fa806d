"""How a list topic's readings read a paper: the share of a reading's keyword weight the
paper holds (its runs written as one, its phrases side by side), and whether its title
names the reading.

Why a module: the screen (``listing.py``) scores every pooled paper, up to two thousand a
question, against each reading of its topic (``topics.py``); what a paper must write to
hold a reading, in its abstract or in its title, is decided here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from assistant.corpus import Paper
from assistant.index import AbstractIndex
from assistant.keywords import UNSEEN_WORD_RE, KeywordStats, as_typed, joined_compounds, stem_of, topic_terms
from assistant.ranking import leading, rare_terms, read_coverage, text_terms
from assistant.topics import (
    ACRONYM_RE,
    ALSO,
    OR_RE,
    PHRASE_SHARE,
    STOPS,
    TYPED_ACRONYM_RE,
    WORD_RE,
    or_readings,
    phrase_share,
    reading_weights,
    topic_of,
    topic_phrases,
    without_examples,
)
from assistant.tuning import COMMON_SHARE, FIELD_STEMS, OWN_FAMILY_SHARE, OWN_WORDS_READ, SHARE_CHUNKS
from assistant.word_families import noun_family
from assistant.word_runs import (
    Run,
    compound_runs,
    holds_run,
    name_runs,
    run_terms,
    term_sequence,
    text_sequences,
)
from assistant.written_forms import as_written, family_pattern, own_prefix


class Reading(NamedTuple):
    """One of a list topic's readings as coverage reads a paper against it
    (``coverage_readings``)."""

    weights: dict[str, float]  # keyword → idf ** idf_power
    rare: frozenset[str]  # its keywords read anywhere in an abstract
    phrases: frozenset[tuple[str, str]]  # pairs a paper must write side by side
    acronyms: frozenset[str]  # the acronyms it writes (a paper defining one otherwise skips it)
    runs: tuple[Run, ...]  # what a paper must write as one (word_runs)
    compounds: tuple[Run, ...]  # its hyphenated words, read joined too
    # its terms but the question's verb if common and a generic head (``generic_head``):
    # what a title must write
    named: frozenset[str]
    title_words: tuple[re.Pattern[str], ...]  # each named word as typed (``as_written``)
    title_pairs: frozenset[tuple[str, str]]  # its named words side by side in the reading
    own: tuple[tuple[str, re.Pattern[str]], ...] = ()  # terms held only as their own word
    # a verb's term with its noun's ("recogn", {"recognit"}): a paper holds either
    nouns: tuple[tuple[str, frozenset[str]], ...] = ()

    def as_nouns(self, paper: Paper) -> frozenset[str]:
        """The ``nouns`` terms the paper holds through their noun alone, read where the
        term itself would be (a rare term anywhere, else in the title and leading words):
        "face recognition" holds "recognize faces"'s "recogn"."""
        if not self.nouns:
            return frozenset()
        read = text_terms(leading(paper.text)) | text_terms(paper.title)
        anywhere = text_terms(paper.text)
        return frozenset(term for term, nouns in self.nouns
                         if nouns & (anywhere if term in self.rare else read))

    def unwritten(self, paper: Paper) -> frozenset[str]:
        """The ``own`` terms the paper's title and abstract hold only as other words of their
        stem ("transformations", no "transformer")."""
        if not self.own:
            return frozenset()
        text = f"{paper.title}. {paper.text}"
        return frozenset(term for term, word in self.own if not word.search(text))

    def share(self, paper: Paper, phrase_weight: float) -> float:
        """The share of the reading's keyword weight the paper holds (``read_coverage``,
        its runs' terms held or not), lowered by ``phrase_weight`` times the share of its
        phrases the paper does not write as one."""
        held, unheld = run_terms(self.runs, paper)
        nouns = self.as_nouns(paper)  # "recognition" holds "recognize", its own word or not
        covered = read_coverage(self.weights, self.rare, paper.text, paper.title,
                                unheld | (self.unwritten(paper) - nouns), held | nouns)[0]
        return covered * (1.0 - phrase_weight
                          * (1.0 - phrase_share(self.phrases, paper, self.compounds)))

    def titles(self, paper: Paper) -> bool:
        """Whether the paper's title names the reading: it writes each ``named`` word (all but the
        question's verb, when the verb is the field's own word (``common_verb``):
        "use", not "synthesize") as typed (singular or plural, ``as_written``:
        "Transformer" for "transformers", not "Transformations" of the same stem), those
        side by side in the reading side by side, and its runs as one ("Levenshtein
        Transformer" for "use transformers?", which the cross-encoder had read at -10;
        not "Diffusion Maps" nor "Real-World…" for "use diffusion models?" or "world
        models"). A title says what its paper is about."""
        if not self.title_words or not all(w.search(paper.title) for w in self.title_words):
            return False
        title = replace(paper, text="")
        if run_terms(self.runs, title)[1] & self.named:
            return False
        return phrase_share(self.title_pairs, title, self.compounds) == 1.0


# The verb of a list question, after its papers' noun ("Which papers use…", "List the
# papers that apply…"): the papers' relation to the topic, not a word a title must write
_VERB_RE = re.compile(r"\b(?:papers?|abstracts?|articles?|publications?)\s+(?:(?:that|which)"
                      r"\s+)?([A-Za-z][\w-]*)", re.I)


def common_verb(verb: str, stats: KeywordStats) -> bool:
    """Whether a list question's verb (``relation_verb``) is the field's own word, the
    papers' relation to the topic rather than a word of it: in more than COMMON_SHARE of
    the chunks; in a store of fewer than SHARE_CHUNKS, whose share says what its few papers
    write rather than what the field does, one of FIELD_STEMS (a run's own 17 papers wrote
    "use" in 1 of 48 chunks, and "which papers use bandits?" was read as "use bandits", a
    false "no")."""
    if stats.n_docs < SHARE_CHUNKS:
        return verb in FIELD_STEMS
    return stats.doc_freq(verb) > COMMON_SHARE * stats.n_docs


def relation_verb(question: str) -> str | None:
    """The term of the word after a list question's papers' noun, unless a stopword ("on",
    "about", "were"): "use" in "Which papers use transformers?", none in "List all papers
    on transformers"."""
    m = _VERB_RE.search(question)
    word = m.group(1).lower() if m else ""
    return stem_of(word) if word and word not in STOPS else None


# A name and the word for its kind ("the ImageNet dataset", "the Penn Treebank corpus",
# "the GLUE benchmark"): a paper using the data writes the name, seldom the kind word. One
# kind word, not several ("NLP benchmarks", "QA datasets" name kinds of data), nor one a
# thing of a kind ("a QA dataset", "a new 3D dataset"), nor a year ("the 2018 benchmark").
_NAME = r"(?:[A-Z][\w.-]*|\w*\d[\w-]*)"
NAMED_KIND_RE = re.compile(
    rf"(?<!\ba\s)(?<!\bA\s)(?<!\ban\s)(?<!\bnew\s)(?<!\bnovel\s)\b"
    rf"(?:(?P<the>the\s+)|(?=\S*[A-Z0-9]\S*[A-Z0-9]))"
    rf"(?P<name>(?=(?:\S*[^\W\d_]){{2}}){_NAME}(?:\s+{_NAME}){{0,3}})\s+"
    r"(?:data\s*set|dataset|database|corpus|benchmark)\b(?!\s+of\b)")


def without_kind(topic: str) -> str:
    """``topic`` with a name's kind word left out: "use the ImageNet dataset?" is "use
    ImageNet?". Read with the kind word, a paper had to write both: 44 papers listed of the
    13.9k against 306 for "use ImageNet?". A name is a capitalised word after "the", or one
    with a second capital or a digit ("MNIST", "CIFAR-10"), with two letters or more;
    "large datasets" stays."""
    return NAMED_KIND_RE.sub(lambda m: m.group("name"), topic)


def writes_topic(question: str, searched: str, paper: Paper) -> bool:
    """Whether the paper's title or abstract writes one of the searched topic's phrasings
    (``ListScreen.searched_topic``: "use Bayesian optimization? | use BO?"), or one of the
    alternatives it joins with "or", as one run (stemmed, hyphens split and joined, the
    question's verb aside: ``relation_verb``). Past the reading budget only such a paper is
    kept on its words alone: a paper holding "Bayesian" and "optimization" apart covers the
    topic's keywords as fully."""
    text = text_sequences(f"{paper.title}. {paper.text}")
    return any(holds_run(seq, run) for run in _topic_runs(question, searched) for seq in text)


@lru_cache(maxsize=64)
def _topic_runs(question: str, searched: str) -> tuple[tuple[str, ...], ...]:
    """The runs ``writes_topic`` looks for, each phrasing's and each alternative's."""
    verb = relation_verb(question)
    parts = [p for phrasing in searched.split(ALSO) for p in [phrasing, *OR_RE.split(phrasing)]]
    runs = (seq[1:] if len(seq) > 1 and seq[0] == verb else seq
            for part in parts for seq in _seen_sequences(part) if seq)
    return tuple(dict.fromkeys(runs))


def _seen_sequences(part: str) -> tuple[tuple[str, ...], ...]:
    """``text_sequences`` of a topic's part, none losing a word: a part with a word no term
    holds ("Q" of "deep Q-network", "C++") only in its joined form ("qnetwork") when that
    holds the word, else none ("deep network" had written DQN, and "learning for control"
    "Q learning for control")."""
    if not UNSEEN_WORD_RE.search(part):
        return text_sequences(part)
    if UNSEEN_WORD_RE.search(joined_compounds(as_typed(part))):
        return ()
    return text_sequences(part)[1:]


def coverage_readings(question: str, topic: str, index: AbstractIndex, pooled: Sequence[Paper],
                      power: float) -> list[Reading]:
    """Each of the searched ``topic``'s readings (``reading_weights``) as coverage reads it,
    with the runs a paper must write as one (``word_runs``): a hyphenated word's parts, and
    the words an acronym the question types is spelled out as (an "LSTM" paper writes
    "long short-term memory", not "long" and "short-term memory" apart; the question's own
    words are read as typed). ``pooled``: the papers its phrases are learnt from."""
    stats = index.keyword_stats()
    named = TYPED_ACRONYM_RE.findall(topic_of(question))
    parts_of = index.written_text().split_of  # "autoencoder" is auto and encoder for VAE
    verb = relation_verb(question)
    if verb and not common_verb(verb, stats):
        verb = None  # "synthesize" in "Which papers synthesize speech?" is the topic's
    owned = own_words(topic, index)  # per word, so once for the readings' common words
    family = topic_nouns(topic, index)
    readings = []
    # a one-word "or" part read in its context ("study go?" of "chess or go"): no title names
    # the topic by that word alone ("Never Go Full Batch", "Big Bird"; C59)
    in_context = {r for phrasing in topic.split(ALSO) for r in or_readings(without_examples(phrasing))}
    for text, w in reading_weights(topic, stats, power):
        # a hyphenated word no stored paper writes is no word of the field ("t-stochastic
        # neighbor embedding", t-SNE spelled out): its parts are read as words
        compound = tuple(run for run in compound_runs(text)
                         if run.joined and stats.doc_freq(run.joined))
        # a hyphenated word of one part not a stopword weighs as the word it is ("mix-up"
        # as "mixup", not as "mix", which every paper that mixes writes)
        w = {**w, **{run.terms[0]: stats.idf(run.joined) ** power for run in compound
                     if len(run.terms) == 1 and run.terms[0] in w}}
        own = [found for found in owned if found[0] in w]
        # a word held only as its own weighs as rare as it is ("optimizers": 1% of "optim")
        w = {**w, **{term: stats.idf(term, share) ** power for term, _, share in own}}
        in_title = frozenset(term_sequence(text)) - {verb}
        # nor a word the paper must write: "Which papers use reinforcement learning?" had
        # listed 828 papers, "…study reinforcement learning?" 1,020
        if verb in w and len(w) > 1:
            w = {term: weight for term, weight in w.items() if term != verb}
        phrases = topic_phrases(text, stats, pooled, compound)
        # a title needn't write the kind of thing it names ("Levenshtein Transformer" for
        # "transformer architectures?"); an abstract still weighs it: one mention of
        # "transformer" does not make a paper one on the architecture
        in_title -= {generic_head(text, w, phrases, index, own)}
        in_title = frozenset() if text in in_context and len(w) == 1 else in_title
        readings.append(Reading(w, rare_terms(w, stats), phrases,
                                frozenset(ACRONYM_RE.findall(text)),
                                (*name_runs(text, named, parts_of), *compound), compound, in_title,
                                *title_check(text, in_title, parts_of),
                                tuple((term, word) for term, word, _ in own),
                                tuple((t, frozenset(family[t])) for t in w if t in family)))
    return readings


def topic_nouns(topic: str, index: AbstractIndex) -> dict[str, dict[str, str]]:
    """The topic's verbs' noun stems with their written nouns (``noun_family``: "recogn" →
    {"recognit": "recognition"}), its own words aside: "classify or classification"
    asks for both already."""
    stats = index.keyword_stats()
    terms = topic_terms(topic, stats)
    family = noun_family(terms, stats, index.written_text())
    return {t: nouns for t, found in family.items()
            if (nouns := {s: w for s, w in found.items() if s not in terms})}


def with_nouns(topic: str, index: AbstractIndex) -> str:
    """The topic as BM25 searches it for a list's pool: with its verbs' nouns
    (``topic_nouns``) after it, so that "recognize faces" pools "face recognition"."""
    words = [w for nouns in topic_nouns(topic, index).values() for w in nouns.values()]
    return f"{topic} {' '.join(words)}" if words else topic


def own_words(text: str, index: AbstractIndex
              ) -> tuple[tuple[str, re.Pattern[str], float], ...]:
    """Each word of ``text`` whose Porter stem holds far more papers than its own family
    (``own_prefix``: at most OWN_FAMILY_SHARE of them write it), with a pattern for that
    family: a paper holds the word's term only writing the word. "transformers" stems to
    "transform", which 909 of the 13.9k abstracts hold and 237 write as "transformer(s)";
    a list on transformers had kept papers on invariance to transformations. BM25 still
    reads the stem. With each, the share of the stem's papers that write the word (the
    term weighs as rare as the word is)."""
    own = []
    for word in dict.fromkeys(WORD_RE.findall(as_typed(text).lower())):
        prefix = own_prefix(word) if word not in STOPS else None
        if not prefix:
            continue
        term = stem_of(word)
        holders = len(index.term_papers([term]).get(term, ()))
        share = index.written_text().papers_writing(prefix) / holders if holders else 1.0
        if 0 < share <= OWN_FAMILY_SHARE:
            own.append((term, re.compile(family_pattern(prefix), re.I), share))
    return tuple(own)


def unwritten_own_words(text: str, papers: Sequence[Paper], index: AbstractIndex) -> list[str]:
    """The words of ``text`` held only as their own (``own_words``: "transformer", whose stem
    "transform" far more papers hold as "transformation") that none of ``papers`` writes:
    an answer citing them may not say what was asked. "What methods reduce the memory of
    transformer training?" had cited a paper on distilling CNNs, whose "transformation"
    met the stem, with no notice."""
    texts = [f"{p.title}. {p.text}" for p in papers]
    # each new word costs a pass over the store (``own_words``): a question's first few only
    words = [w for w in dict.fromkeys(WORD_RE.findall(as_typed(text)))
             if w.lower() not in STOPS and own_prefix(w.lower())][:OWN_WORDS_READ]
    return [word for word in words if (own := own_words(word, index))
            and not any(pattern.search(t) for _, pattern, _ in own for t in texts)]


def generic_head(text: str, weights: dict[str, float], phrases: frozenset[tuple[str, str]],
                 index: AbstractIndex, own: Sequence[tuple[str, re.Pattern[str], float]]
                 ) -> str | None:
    """The reading's last term when it only names the kind of thing its other terms are:
    common across the corpus (in more than PHRASE_SHARE of the chunks, too common to lead a
    phrase), after terms that are specific together (at most PHRASE_SHARE of the papers hold
    them all, an ``own`` term only where written as itself), and no phrase with the term
    before it (``topic_phrases``: "world models", "federated learning" are the field's
    names). A title needn't write it: "Levenshtein Transformer" names a transformer
    architecture, and "Which papers propose transformer architectures?" had listed far
    fewer papers than "…use transformers?" (docs/measurements.md). None: no such term."""
    seq = [t for t in term_sequence(text) if t in weights]
    rest = set(weights) - {seq[-1]} if len(seq) > 1 else set()
    stats = index.keyword_stats()
    if (not rest or stats.doc_freq(seq[-1]) <= PHRASE_SHARE * stats.n_docs
            or (seq[-2], seq[-1]) in phrases):
        return None
    holders = index.term_papers(rest)
    papers = index.papers()
    together = frozenset.intersection(*(holders.get(t, frozenset()) for t in rest))
    for term, word, _ in own:
        if term in rest:
            together = frozenset(pid for pid in together if pid in papers and word.search(
                f"{papers[pid].title}. {papers[pid].text}"))
    return seq[-1] if 0 < len(together) <= PHRASE_SHARE * len(papers) else None


def title_check(text: str, named: frozenset[str],
                parts_of: Callable[[str], tuple[str, ...] | None] = lambda _: None
                ) -> tuple[tuple[re.Pattern[str], ...], frozenset[tuple[str, str]]]:
    """What ``Reading.titles`` looks for in a title, once per reading rather than once per
    paper: each ``named`` word of ``text`` as typed, in any of its written forms (a joined
    word also with the parts the papers hyphenate it into, ``parts_of``: "Back-Propagation"
    for "backpropagation", whose four 1988–1989 papers so titled the cross-encoder had
    read as not using it), and the pairs of named terms side by side in ``text``."""
    words = [w for w in dict.fromkeys(WORD_RE.findall(as_typed(text)))
             if w.lower() not in STOPS and stem_of(w.lower()) in named]
    seq = term_sequence(text)

    def written(word: str) -> str:
        parts = parts_of(word.lower())
        apart = r"[\s-]?".join(map(re.escape, parts[:-1])) + rf"[\s-]?{as_written(parts[-1])}" \
            if parts else None
        return f"(?:{as_written(word)}|{apart})" if apart else as_written(word)
    return (tuple(re.compile(rf"(?<!\w){written(w)}(?!\w)", re.I) for w in words),
            frozenset((a, b) for a, b in zip(seq, seq[1:], strict=False)
                      if a in named and b in named and a != b))


def within_reach(readings: Sequence[Reading], index: AbstractIndex, pids: Sequence[str],
                 share: float) -> list[str]:
    """The papers of ``pids`` that may hold ``share`` of some reading's keyword weight
    (``Reading.share``), or whose title may name one: the rest cannot, and are not read.
    A bound, never a verdict: a term counts when the BM25 index finds it in the paper
    (``AbstractIndex.term_papers``: what coverage reads of the abstract is a part of it),
    in its title, or the paper writes the hyphenated word it is a part of joined. A
    trend's deep pool is every paper holding a word of the topic ("neural networks":
    thousands), and reading each for its coverage had been half a broad trend's time."""
    holders = index.term_papers(t for r in readings for t in r.weights)
    nouns = index.term_papers(s for r in readings for _, found in r.nouns for s in found)
    for r in readings:  # a verb's term is held by its noun's papers too
        for term, found in r.nouns:
            holders[term] = holders.get(term, frozenset()).union(
                *(nouns.get(s, frozenset()) for s in found))
    # a hyphenated word written joined holds its parts ("gumbelsoftmax": gumbel, softmax)
    joined = {run.joined: run.terms for r in readings for run in r.runs if run.joined}
    for whole, found in index.term_papers(joined).items():
        for term in joined[whole]:
            holders[term] = holders.get(term, frozenset()) | found
    papers = index.papers()
    # (a hair under ``share``: the bound sums the same weights in another order)
    bounds = [(r, dict(r.nouns), share * sum(r.weights.values()) * (1 - 1e-9))
              for r in readings]

    def reaches(pid: str) -> bool:
        paper = papers[pid]
        title = text_terms(paper.title)
        title |= {term for whole, terms in joined.items() if whole in title for term in terms}
        return any(sum(w for t, w in r.weights.items()
                       if t in title or pid in holders.get(t, ())
                       or title & of.get(t, frozenset())) >= least
                   or r.titles(paper) for r, of, least in bounds)

    return [pid for pid in pids if pid in papers and reaches(pid)]


def without_verb(searched: str, question: str, stats: KeywordStats) -> str:
    """The searched topic (its phrasings joined by ALSO) without the list question's verb
    where it leads a phrasing and is common (``common_verb``, as ``Reading.titles`` reads
    it): "use Sinkhorn?" is read as "Sinkhorn?". The verb is the
    papers' relation to the topic; the cross-encoder had read "use Sinkhorn?" about three
    logits under "Sinkhorn?" on the same sentences, and turned down papers a list "on"
    the topic keeps. "use or analyze the NTK" keeps its verbs: they are its alternatives."""
    m = _VERB_RE.search(question)
    verb = relation_verb(question)
    if not m or not verb or not common_verb(verb, stats):
        return searched
    return re.sub(rf"(^|{re.escape(ALSO.strip())})\s*{re.escape(m.group(1))}\s+(?!or\b)",
                  r"\1 ", searched, flags=re.I).strip()
