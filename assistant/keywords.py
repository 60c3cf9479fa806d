"""Keyword scoring: BM25's tokenizer and stopwords, a question's idf weights, coverage.

Kept apart from storage: the index hands over what it knows (its BM25 vocabulary, document
frequencies and document count, as ``KeywordStats``) and everything here is computed from
that, so scoring can be read and tested without Chroma.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

import bm25s
import bm25s.stopwords
import numpy as np
import Stemmer

from assistant.american import american
from assistant.authors import plain_letters
from assistant.tuning import ASKED_SHARE, SPELLED_OUT_INITIALS

# Words a question asks with ("Summarize the papers on…", "What does this paper
# propose?"): stopwords, except in a list topic, where they can be what is asked for
# ("Which papers automatically summarize text?", ``topic_terms``).
ASKING_WORDS = frozenset("""
explain describe tell summarize summarise summary give list show find study studies propose
proposed""".split())
# bm25s's English list has 33 words; questions also carry these, which say nothing about
# which paper is meant ("What does this paper propose?").
STOPWORDS = sorted(set(bm25s.stopwords.STOPWORDS_EN) | ASKING_WORDS | set("""
about above after again all also am any because been before being below between both can
could did do does doing done down during each few from further had has have having he her
here hers him his how i its itself just me more most my myself nor now only other our
ours out over own same she should so some than them themselves those through too under
until up very we were what when where which while who whom why would you your yours paper
papers work works abstract abstracts method methods approach approaches
""".split()))
TOKENIZER_VERSION = (f"porter-english-stop{len(STOPWORDS)}-acronym-plurals2-compounds2-american2"
                     "-norms-plain-dotted-tex-accents")

_local = threading.local()


def stemmer() -> Stemmer.Stemmer:
    """One Porter stemmer per thread: PyStemmer objects keep state and are not thread-safe,
    and the UI scores questions from several threads at once."""
    found: Stemmer.Stemmer | None = getattr(_local, "stemmer", None)
    if found is None:
        found = _local.stemmer = Stemmer.Stemmer("english")
    return found


_STEMS: dict[str, str] = {}  # word → stem
STEMS_KEPT = 200_000  # then the memo starts again: made-up words must not grow a server


def stem_of(word: str) -> str:
    """The term of a lower-case word: Porter's stem of its American spelling in plain
    letters, remembered (words repeat across abstracts, and stemming is pure)."""
    stem = _STEMS.get(word)
    if stem is None:
        if len(_STEMS) >= STEMS_KEPT:
            _STEMS.clear()
        stem = _STEMS[word] = stemmer().stemWord(american(plain_letters(word)))
    return stem


def _stems_of(words: Sequence[str]) -> list[str]:
    return [stem_of(w) for w in words]


_ACRONYM_PLURAL = re.compile(r"\b([A-Z][A-Z0-9]*[A-Z])s\b")


_NORM_INDEX = re.compile(r"(?:\\ell|ℓ)_?\{?([0-9pq])\}?|\b[Ll]_\{?([0-9])\}?(?![\w{])")


def as_typed(text: str) -> str:
    """``text`` with what a researcher types one way written that way. An acronym's plural
    as the acronym ("LLMs" → "LLM", "GPs" → "GP"): Porter keeps the "s" of "llms" (no vowel
    before it), so "LLM" in a question missed every abstract that writes "large language
    models (LLMs)". Only capitals followed by a small "s" are folded, before the text is
    lower-cased: "RLS", "GPS", "MCTS" and "10ms" stay apart from "RL", "GP", "MCT" and
    "10m". A norm's LaTeX as l1 and l2: "$\\ell_1$", "ℓ1" and "$L_2$" (the tokenizer read
    "ell_1" and "l_2"; \\ell_1 and \\ell_2 occur 214 times in the 1987–2021 abstracts). A
    dotted abbreviation as its letters ("i.i.d." → "iid", ``_DOTTED``). Its letters plain
    (``plain_letters``), after the norms (NFKD reads "ℓ" as "l"): "Nystr\\"{o}m" as "Nystrom"."""
    if "_" in text or "\\ell" in text or "ℓ" in text:
        text = _NORM_INDEX.sub(lambda m: "l" + (m.group(1) or m.group(2)), text)
    text = plain_letters(text)
    if "." in text:
        text = _DOTTED.sub(_undotted, text)
    return _ACRONYM_PLURAL.sub(r"\1", text)


# an abbreviation of single letters with dots ("i.i.d.", "w.r.t.", "o.o.d"), read as the
# word its letters make: the tokenizer drops one-letter tokens, so "non-i.i.d. data" had
# read as "non data" and "i.i.d." matched nothing (195 of the 1987–2021 abstracts write
# it). "e.g." and "i.e." stay out: every abstract would hold "eg" or "ie".
_DOTTED = re.compile(r"\b[A-Za-z](?:\.[A-Za-z]){1,3}\b\.?")
_KEPT_DOTTED = frozenset({"eg", "ie"})


def _undotted(m: re.Match[str]) -> str:
    word = m.group(0).replace(".", "")
    return m.group(0) if word.lower() in _KEPT_DOTTED else word


_COMPOUND = re.compile(r"\b\w+(?:[-\u2010\u2011]\w+)+\b")
_HYPHENS = re.compile(r"[-\u2010\u2011]")


def with_compounds(text: str) -> str:
    """A stored ``text`` with each hyphenated word followed by its parts joined ("on-line" →
    "on-line online"): 901 words of the 1987–2021 abstracts are written both ways ("on-line"
    172 times, "online" 847; "back-propagation" and "backpropagation"; "pre-trained" and
    "pretrained"), and a question's "online" must find either. Only stored texts get it
    (``tokenize``, ``document_terms``): a question's "first-order" asking for a joined term
    as well would count against every abstract that writes "first order". A range or a
    difference ("0-1", "t-1") is not a word: a part all digits leaves it as it is."""
    return _COMPOUND.sub(lambda m: f"{m.group(0)} {_joined(m.group(0))}".rstrip(), text)


def compounds(text: str) -> list[tuple[str, str]]:
    """Each hyphenated word of ``text`` with its parts joined ("multi-task", "multitask"),
    but for a range or a difference (a part all digits: "0-1", "t-1")."""
    return [(m.group(0), joined) for m in _COMPOUND.finditer(text)
            if (joined := _joined(m.group(0)))]


def joined_compounds(text: str) -> str:
    """``text`` with each hyphenated word written joined (``compounds``): "use multi-task
    learning" → "use multitask learning"."""
    return _COMPOUND.sub(lambda m: _joined(m.group(0)) or m.group(0), text)


def _joined(word: str) -> str:
    """A hyphenated word's parts joined, or nothing when a part is all digits."""
    parts = _HYPHENS.split(word)
    return "" if any(p.isdigit() for p in parts) else "".join(parts)


def _stored(text: str) -> str:
    """A stored text as it is tokenized: acronym plurals folded, then hyphenated words
    joined (in that order, so "LLMs-based" gives "llmbase" as "LLM-based" does)."""
    return with_compounds(as_typed(text))


def tokenize(texts: Sequence[str]) -> Any:
    """bm25s tokens of stored texts (ids and vocabulary), stemmed, stopwords removed,
    hyphenated words also joined: the terms ``document_terms`` gives, as the BM25 index
    holds them; a question is read by ``query_terms``."""
    return bm25s.tokenize([_stored(t) for t in texts], stopwords=STOPWORDS,
                          stemmer=_stems_of, show_progress=False)


_TOKEN = re.compile(r"(?u)\b\w\w+\b")  # bm25s's token pattern
# a letter standing alone (not the article "a") or a name with symbols ("C++", "F#"): no
# term holds it (``_TOKEN`` reads words of two letters or more)
UNSEEN_WORD_RE = re.compile(r"(?<![\w'’])(?![aA](?![\w+#]))[^\W\d_](?:\+\+|#)?(?![\w'’])")
_STOPSET = frozenset(STOPWORDS)
# Who a question asks about, no topic: "Has anyone used reference prices?" weighed "anyone"
# (in six chunks of the 13.9k) as its most specific word, and was refused (a run's). Left out
# of a question's terms only: the stored index keeps its tokenizer.
ASKERS = frozenset("anyone anybody someone somebody everyone everybody".split())
_QUESTION_STOPSET = _STOPSET | ASKERS


def query_terms(text: str) -> list[str]:
    """A question's distinct stemmed terms, in order of first use (acronym plurals folded,
    lower case, bm25s's pattern, stopwords out, ``stem_of``): for a text without hyphens the
    terms ``tokenize`` gives (a test holds ``document_terms`` and ``tokenize`` equal),
    without its per-call set-up, which was most of the time when the ranker reads 60
    abstracts a question."""
    return _terms(as_typed(text).lower(), _QUESTION_STOPSET)


def _terms(lowered: str, stopped: frozenset[str] = _STOPSET) -> list[str]:
    terms: dict[str, None] = {}
    for word in _TOKEN.findall(lowered):
        if word not in stopped:
            terms[stem_of(word)] = None
    return list(terms)


_JOINING = frozenset({"vs", "versus"})  # as stem_of leaves them


def topic_terms(text: str, stats: KeywordStats) -> list[str]:
    """A list topic's distinct stemmed terms (``query_terms``), with its asking words kept
    where their stem is specific (in at most ASKED_SHARE of the chunks): in "automatically
    summarize text" the verb is the topic, and its stem ("summar") is what papers on
    summarization write; "study portfolio selection" only asks, and "studi" is in papers of
    every kind. The stopword itself ("we summarize our findings") is never a stored term,
    nor a word joining two sides ("exploration vs exploitation": papers write the
    trade-off as "exploration-exploitation", and "vs" had weighed most of the topic)."""
    lowered = as_typed(text).lower()
    limit = ASKED_SHARE * stats.n_docs
    asked = [stem_of(w) for w in _TOKEN.findall(lowered) if w in ASKING_WORDS]
    own = [t for t in _terms(lowered, _QUESTION_STOPSET)  # an asking word alone asks of none:
           if t not in _JOINING]
    return list(dict.fromkeys([*own, *(t for t in asked  # "Summarize" of "Summarize X et al."
                                       if own and 0 < stats.doc_freq(t) <= limit)]))


def query_readings(question: str) -> list[list[str]]:
    """The question's terms as written and, when it hyphenates a word, with that word joined
    ("non-convex" and "nonconvex"): BM25 scores a paper by its better reading, so a question's
    "non-convex" finds the 151 abstracts of the 1987-2021 corpus that write "nonconvex" and
    no spelling gains from the other's rarer terms."""
    folded = as_typed(question)  # as stored texts are, before joining
    joined = joined_compounds(folded)
    return [query_terms(question)] + ([query_terms(joined)] if joined != folded else [])


def best_reading_scores(question: str, vocab: Mapping[str, int],
                        score: Callable[[list[int]], Any]) -> np.ndarray | None:
    """BM25 ``score`` (term ids → a score per document) of each of ``query_readings``, the
    better one per document; None when no reading has a term the index knows. The one way
    the store and the ranker's training both read a question."""
    found = [np.asarray(score(ids), dtype=np.float64) for terms in query_readings(question)
             if (ids := [vocab[t] for t in terms if t in vocab])]
    return np.max(found, axis=0) if found else None


def document_terms(text: str) -> list[str]:
    """The terms a stored text holds, as ``tokenize`` indexes them (hyphenated words also
    joined; ``as_typed`` once, as bm25s gets the text), for coverage and the
    ranker's lexical signals."""
    return _terms(_stored(text).lower())


def document_frequencies(token_ids: Sequence[Sequence[int]], vocab_size: int) -> np.ndarray:
    """How many documents hold each vocabulary id (for ``KeywordStats.df``)."""
    df = np.zeros(vocab_size, dtype=np.int32)
    for doc in token_ids:
        df[np.unique(np.asarray(doc, dtype=np.int64))] += 1
    return df


@dataclass(frozen=True)
class KeywordStats:
    """What the index knows about its terms: BM25 vocabulary (term → id), document
    frequency per id, and the number of documents (chunks)."""

    n_docs: int = 0
    vocab: Mapping[str, int] = field(default_factory=dict)
    df: np.ndarray | None = None

    def doc_freq(self, term: str) -> int:
        """How many chunks hold a stemmed term (0 for one the corpus never uses)."""
        return int(self.df[self.vocab[term]]) if term in self.vocab and self.df is not None else 0

    def idf(self, term: str, share: float = 1.0) -> float:
        """BM25's idf for a stemmed term; terms the corpus never uses get the highest. With
        ``share``, for the words of the term held by that share of its chunks."""
        df = self.doc_freq(term) * share
        return math.log(1 + (self.n_docs - df + 0.5) / (df + 0.5))


def keyword_weights(question: str, stats: KeywordStats) -> dict[str, float]:
    """The question's stemmed terms with their idf: computed once per question, then used by
    ``coverage`` for every candidate paper or sentence."""
    return {t: stats.idf(t) for t in query_terms(question)}


def coverage(weights: Mapping[str, float], text: str) -> float:
    """Share of the question's keyword weight (idf) that ``text`` contains."""
    return coverage_of_terms(weights, set(document_terms(text)))


def coverage_of_terms(weights: Mapping[str, float], present: AbstractSet[str]) -> float:
    """``coverage`` for a text whose stemmed terms are known already (cached)."""
    total = sum(weights.values())
    if not total:
        return 0.0
    return sum(w for t, w in weights.items() if t in present) / total


_WORD = re.compile(r"[a-z0-9]+")
_FUNCTION_WORDS = frozenset(bm25s.stopwords.STOPWORDS_EN)


_CASED_WORD = re.compile(r"[^\W_]+")  # a word, any script, its case kept
# A capitalised word inside a sentence: after a lower-case letter or a comma, not before a
# number ("shown in Figure 1", "1 Introduction", "Appendix A" are a document's structure).
_INSIDE = re.compile(r"(?<=[a-z,;]) +([^\W\d_][^\W_]*)(?![^\W_])(?!\.? *(?:\d|[A-Z]\b|\())")
# What full-text "abstracts" capitalise inside sentences and no question names.
_STRUCTURE = frozenset("""introduction appendix figure fig figs eq eqs equation section table
theorem lemma proposition corollary definition algorithm department university institute
laboratory professor school faculty college center centre""".split())


@dataclass(frozen=True)
class SurfaceText:
    """The words of the stored titles and abstracts, lower-cased and unstemmed: a stemmer
    folds "Constitutional" into "constitutes", a researcher asking about Constitutional AI
    does not. ``proper``: the words the abstracts write capitalised (not in capitals: "GAS",
    "DRONE" are acronyms) inside a sentence, twice at least and more often than in lower
    case (Adam, Markov, English, Hopfield; not However, not Explain, not Figure), so that a
    name opening a question ("Adam optimizer: …") can be told from "Compare"."""

    words: frozenset[str]
    proper: frozenset[str] = frozenset()
    # the words the abstracts write in capitals, twice at least and more often than in
    # lower case ("svm", "lstm", "mnist"), lower-cased: a question's "svm" is the acronym
    capitals: frozenset[str] = frozenset()

    @classmethod
    def of(cls, texts: Iterable[str], prose: Iterable[str] | None = None) -> SurfaceText:
        """From ``texts``; ``proper`` from ``prose`` (the abstracts alone, default
        ``texts``): titles capitalise every word."""
        texts = list(texts)
        words: set[str] = set()
        for text in texts:
            words.update(_WORD.findall(text.lower()))
        capitalised: Counter[str] = Counter()
        lower: Counter[str] = Counter()
        upper: Counter[str] = Counter()
        for text in texts if prose is None else prose:
            capitalised.update(w.lower() for w in _INSIDE.findall(text)
                               if w[0].isupper() and not w.isupper())
            cased = _CASED_WORD.findall(as_typed(text))
            lower.update(t for t in cased if t.islower())
            upper.update(t.lower() for t in cased if len(t) > 1 and t.isupper() and t.isalpha())
        proper = {w for w, n in capitalised.items() if n > max(1, lower[w])
                  and w not in _FUNCTION_WORDS and w not in _STRUCTURE}
        capitals = {w for w, n in upper.items() if n > max(1, lower[w]) and w not in _FUNCTION_WORDS}
        return cls(frozenset(words), frozenset(proper), frozenset(capitals))

    def knows(self, name: str, nearby: Sequence[str] = ()) -> bool:
        """Whether the corpus uses ``name``: each capitalised part of it ("FlashAttention" of
        "FlashAttention-3", "MuRating" of "MuRating-selected") occurs as words (a plural "s"
        either way), or, for an acronym (half its letters capitals), one of the ``nearby``
        texts (the papers found for the question) spells it out ("low-rank adaptation" for
        LoRA); among thousands of abstracts some phrase has any initials, so only those."""
        parts = [p for p in name.split("-") if any(c.isupper() for c in p)] or [name]
        return all(self._knows_part(part, nearby) for part in parts)

    def _knows_part(self, part: str, nearby: Sequence[str]) -> bool:
        words = [w for w in _WORD.findall(part.lower()) if len(w) > 1 and not w.isdigit()]
        if all(w in self.words or w.removesuffix("s") in self.words or f"{w}s" in self.words
               for w in words):
            return True
        return any(spells_out(part, text) for text in nearby)


def spells_out(acronym: str, text: str, min_initials: int = 2) -> bool:
    """Whether ``text`` spells ``acronym`` out (``spellings``)."""
    return bool(spellings(acronym, text, min_initials))


PartsOf = Callable[[str], Sequence[str] | None]  # a joined word's parts ("autoencoder")
_TOKEN_RUN = re.compile(r"\w+")
_BETWEEN = re.compile(r"[\s-]+")


def spellings(acronym: str, text: str, min_initials: int = 2,
              parts_of: PartsOf | None = None) -> list[str]:
    """The phrases of ``text`` (lower case) that spell ``acronym`` out, its capitals as the
    initials of consecutive words ("singular value decomposition" for SVD, "low-rank
    adaptation" for LoRA), and with ``parts_of`` (the parts the papers hyphenate a joined
    word into, ``written_forms.WrittenText.split_of``) a joined word's parts' initials too:
    "variational autoencoder" for VAE, as "variational auto-encoder" is. Only for acronyms
    (at least ``min_initials`` capitals, half its letters or more): FlashAttention is a name,
    not F… A…; a function word is nobody's initial ("some of the" is not SOT), though
    "method" is (FEM: finite element method)."""
    initials = "".join(c.lower() for c in acronym if c.isupper())
    if len(initials) < min_initials or 2 * len(initials) < sum(c.isalpha() for c in acronym):
        return []
    lowered = text.lower()
    if parts_of is None:  # each word one initial: a regex, three times as fast
        phrase = re.compile(r"\b" + r"\w*[\s-]+".join(initials) + r"\w*")
        return [m.group(0) for m in phrase.finditer(lowered)
                if not _FUNCTION_WORDS.intersection(_BETWEEN.split(m.group(0)))]
    words = list(_TOKEN_RUN.finditer(lowered))
    found, at = [], 0
    while at < len(words):
        end = _spelled_from(words, at, initials, lowered, parts_of)
        phrase = lowered[words[at].start():words[end - 1].end()] if end else ""
        if phrase and not _FUNCTION_WORDS.intersection(_BETWEEN.split(phrase)):
            found.append(phrase)
            at = end
        else:
            at += 1
    return found


def _spelled_from(words: Sequence[re.Match[str]], at: int, initials: str, text: str,
                  parts_of: PartsOf | None) -> int:
    """Where the run of ``words`` from ``at`` that spells ``initials`` ends (0: none): each
    word gives its initial, or a joined word its parts' initials, the words apart only by
    spaces or hyphens."""
    word = words[at].group(0)
    given = [word[0]]
    if parts_of is not None and len(initials) > 1 and (parts := parts_of(word)):
        given.append("".join(p[0] for p in parts))
    for letters in given:
        rest = initials[len(letters):]
        if not initials.startswith(letters):
            continue
        if not rest:
            return at + 1
        if at + 1 < len(words) and _BETWEEN.fullmatch(text, words[at].end(),
                                                      words[at + 1].start()):
            end = _spelled_from(words, at + 1, rest, text, parts_of)
            if end:
                return end
    return 0


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as a researcher would: the name itself, case and all
    (a plural "s" allowed: "SVMs"); else without a lower-case qualifier glued on after it
    ("SVM" for "SVM-based", "MuRating" for "MuRating-selected"; "quasi-Newton" and
    "FlashAttention-3" stay whole); else, for an acronym of three or more capitals, spelled
    out ("singular value decomposition" names SVD)."""
    if _written(text, name):
        return True
    core = re.sub(r"(-[a-z]+)+$", "", name)
    if core != name and _written(text, core):
        return True
    return spells_out(core, text, SPELLED_OUT_INITIALS)


def _written(text: str, name: str) -> bool:
    """``name`` in ``text`` as a word, a plural "s", a lower-case qualifier and a version
    or size glued on after it allowed ("GAN-based" names GAN, "GPT-3" GPT, "VGG-16" VGG;
    "VAE-GAN" names no "VAE")."""
    return bool(re.search(rf"(?<![\w-]){re.escape(name)}s?(?!\w)(?!-(?![a-z\d]))", text))


def joined_parts(parts: Iterable[str]) -> tuple[str, list[int]]:
    """``parts`` run together into one string, and where each begins in it: one text to
    search a whole store's papers with ``str.find``, each hit mapped back to its paper by
    bisecting the starts."""
    parts = list(parts)
    starts, at = [], 0
    for part in parts:
        starts.append(at)
        at += len(part)
    return "".join(parts), starts
