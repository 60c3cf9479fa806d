"""Checked claims: how well each sentence of an answer is backed by the abstracts it cites.

No entailment model runs offline, so support is measured with what the assistant already
has: the bundled MiniLM sentence vectors (meaning) and the index's idf weights (which words
matter), against the cited abstracts' sentences and adjacent sentence pairs. On top of that,
cheap checks catch what similarity misses: a number or a name the claim states must occur in
a cited abstract (a wrong figure is close in meaning but not supported), a number beside the
words the abstract writes beside another number is misplaced (number_places.py), a negation, a
direction ("higher" for "lower") or a comparison's sides ("B outperforms A" of "A
outperforms B") the best sentence does not share lowers the score, and so does an absolute
("all", "always") the abstract never uses; a word of how the paper was received ("most
cited", "seminal") must be in it too.

A sentence that cites nothing is unsupported (support 0); a sentence quoted verbatim from
its cited abstract (the extractive answers) has support 1. ``THRESHOLD`` comes from
``bench/claims_calibration.py`` on the dev split of ``tests/data/claims.jsonl``
(hand-written true and false claims about the seed abstracts); it is calibrated for MiniLM,
which is why the checker uses MiniLM whatever embedding the index was built with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from assistant.answering import cited_numbers, without_markers, without_references
from assistant.asides import ACCLAIM
from assistant.corpus import normalise, split_sentences
from assistant.keywords import (
    KeywordStats,
    document_frequencies,
    document_terms,
    query_terms,
    tokenize,
)
from assistant.number_places import misplaced, numbers
from assistant.tuning import (
    ABSOLUTE_PENALTY,
    CONTEXT_CREDIT,
    MISSING_CAP,
    POLARITY_PENALTY,
)
from assistant.tuning import SUPPORT_DENSE_WEIGHT as DENSE_WEIGHT
from assistant.tuning import SUPPORT_THRESHOLD as THRESHOLD
from assistant.types import Claim

if TYPE_CHECKING:
    from assistant.embedding import Embedder
    from assistant.index import AbstractIndex

CACHE_SIZE = 512  # abstracts whose sentence vectors are kept

_LEADING_CITES = re.compile(r"^((?:\[\d+(?:\s*[,;]\s*\d+)*\]\s*)+)(.*)$", re.S)
_BYLINE = r"\((?:[^()\n]*·[^()\n]*|[^()\n]*\bet\s+al\.?,?\s+(?:19|20)\d\d|(?:[A-Z][\w-]*\s+)?(?:19|20)\d\d)\)"
_TITLE_PREFIX = re.compile(rf"^\s*(?:[-*•]\s+)?\*\*[^*]+\*\*\s*(?:{_BYLINE}\s*:\s*|:?\s*)")  # + a byline
_MARKUP = re.compile(r"[*_`#>]+|^\s*[-•]\s+")
_MATH = re.compile(r"\$[^$]+\$")  # inline LaTeX, as abstracts write it
_WORDS = re.compile(r"[A-Za-z][\w'’]*")

NEGATIONS = frozenset("""not no never cannot can't won't doesn't don't didn't isn't aren't
wasn't weren't fails fail failed failing without neither nor unable none lack lacks lacking
nothing hardly""".split())
UP = frozenset("""increase increases increased increasing higher more rise rises rose grows grow
grew growing better outperform outperforms outperformed outperforming faster larger greater
above exceeds exceed beat beats surpass surpasses""".split())
DOWN = frozenset("""decrease decreases decreased decreasing lower less fewer fall falls fell drop
drops dropped shrink shrinks worse underperform underperforms underperformed slower smaller
below""".split())
ABSOLUTES = frozenset("""all every always any never guarantee guarantees guaranteed completely
entirely perfectly eliminates eliminate universally regardless solves""".split())
# How a paper was received, which its abstract cannot tell unless it says so: a model had
# written "The most cited NeurIPS 2017 paper is … [4]" of a paper on gradient EM (a run's);
# not "the cited paper" nor "a popular method", which models write of what papers say
RECEPTION = re.compile(rf"\b(?:(?:most|highly|widely|heavily|frequently)\s+cited|citation\s+counts?"
                       rf"|{ACCLAIM}|best[\s-]paper|award(?:ed|s)?|prize)\b", re.I)
# Capitalised words that are not names when they begin a clause ("…: The model", "(In …").
_NOT_NAMES = frozenset("""the a an this that these those it its their they we our in on for
with by to of and or but as at from however while when where both each across after before
during under over using unlike""".split())


def claim_sentences(answer: str) -> list[str]:
    """The answer's sentences (``corpus.split_sentences``, line by line), each keeping the
    citation markers that follow it: "… sentence. [1] Next" gives "… sentence. [1]"."""
    sentences: list[str] = []
    for line in answer.splitlines():
        line = _TITLE_PREFIX.sub("", line)  # a "**Title?**:" lead would split a sentence
        for part in (p for cell in table_cells(line) for p in split_sentences(cell)):
            m = _LEADING_CITES.match(part)
            if m and sentences:
                sentences[-1] += " " + m.group(1).strip()
                part = m.group(2).strip()
            if part:
                sentences.append(part)
    return sentences


def table_cells(line: str) -> list[str]:
    """A Markdown table row's cells, each read on its own (the comparison tables of
    compare.py: one quoted sentence per cell); any other line whole."""
    row = line.strip()
    if len(row) > 1 and row.startswith("|") and row.endswith("|"):
        return [cell.strip() for cell in row[1:-1].split("|")]
    return [line]


def claim_text(sentence: str) -> str:
    """What a sentence claims, for scoring: no citation markers, no "**Title**:" lead, no
    Markdown."""
    text = without_markers(sentence)
    text = _MARKUP.sub("", _TITLE_PREFIX.sub("", text))
    return " ".join(text.split()).strip()


# Words no finished sentence ends with: an article, a conjunction, a preposition that needs
# its object, an auxiliary ("…knowledge distillation can be used to [1]." is cut mid-clause;
# not "for", "on", "more", "any": "what it is used for", "and more", "if any" end sentences)
_DANGLING = frozenset("""a an the to of and or but nor due than with by from into onto as such its
their our his her is are was were be been being can could will would should may might must
whose very we they multi non semi""".split())
# what a subject "I" follows, its verb to come ("In this paper, I", "Here I", "and I"): after
# a name it is a numeral ("Part I", "Table I", "CRAFT-I", "complex I", a review's)
_OPENS_A_CLAUSE = re.compile(r"(?:^|[,;:(]|\b(?i:and|but|or|so|that|which|because|if|when|while|as|then"
                             r"|where|although|though|since|here|now|first|finally))\s*I\W*$")


def unfinished(sentence: str) -> bool:
    """Whether ``sentence`` stops mid-clause, on a word no sentence ends with or on a comma:
    Gemma 270M wrote "This means that knowledge distillation can be used to [1].", "…in
    many cases due [1].", "In this paper, I", "…repeated sampling with multi [1]", each
    supported by the words it shares with its source and shown."""
    text = claim_text(sentence)
    if re.search(r"[,;–—-]\s*$", text):  # "we propose MAGE for efficient, [1]" (a lead-in: ":")
        return True
    words = re.findall(r"[A-Za-z0-9]+", text)  # "…of 95.3%" ends on a number
    if words[-1:] == ["I"] and _OPENS_A_CLAUSE.search(text):
        return True  # "In this paper, I" (a run's); not "Part I", nor an index "i"
    return bool(words) and words[-1].lower() in _DANGLING


def is_claim(sentence: str) -> bool:
    """Lead-ins ("Extractive answer (…):", "Two papers discuss this:") and bare markup state
    nothing to check; every other sentence does."""
    text = claim_text(sentence)
    if not re.search(r"[A-Za-z0-9]", text):
        return False
    return not (text.endswith(":") and not cited_numbers(sentence))


# ---------------------------------------------------------------- facts


def _names(text: str) -> list[str]:
    """Names the claim states: words with an inner capital or a digit (MuRating, GPT-4o,
    CIFAR-10), and capitalised words that do not begin the sentence (Gaussian, Singapore)."""
    tokens = re.findall(r"[A-Za-z][\w@.+\-]*[\w+]|[A-Za-z]", text)
    names = []
    for i, token in enumerate(tokens):
        token = token.strip(".-")
        inner = any(c.isupper() for c in token[1:]) or (
            any(c.isdigit() for c in token) and any(c.isalpha() for c in token))
        capital = (token[:1].isupper() and i > 0 and token.lower() not in _NOT_NAMES
                   and not token.isupper())
        if (inner or capital) and len(token) > 1:
            names.append(token)
    return list(dict.fromkeys(names))


def _name_found(name: str, lowered: str, words: set[str]) -> bool:
    """A name occurs in the (lower-cased) abstracts: as a word (a plural "s" either way;
    each hyphen part, or the parts run together when one is a number: "CIFAR10"), or, for
    an acronym of three or more capitals, spelt out ("LLMs" for large language models). A
    number among the parts names a version ("GPT-4" is not "GPT-3"): a run had "GPT-4 has
    175 billion parameters" supported by an abstract on GPT-3."""
    key = name.lower()
    if re.search(r"(?<![a-z0-9])" + re.escape(key.removesuffix("s")) + r"s?(?![a-z0-9]|\.\d)", lowered):
        return True
    parts = [p for p in re.split(r"[-/]", key) if p]
    if any(p.isdigit() for p in parts):  # "CIFAR-10" as "CIFAR10" or "CIFAR 10", not "GPT-3.5"
        spelled = r"[\s-]?".join(map(re.escape, parts))
        return re.search(rf"(?<![a-z0-9.]){spelled}(?![a-z0-9]|\.\d)", lowered) is not None
    if len(parts) > 1 and all(p in words or p.removesuffix("s") in words for p in parts):
        return True
    initials = [c.lower() for c in name if c.isupper()]
    if len(initials) >= 3 and 2 * len(initials) >= sum(c.isalpha() for c in name):
        return bool(re.search(r"\b" + r"\w*[\s-]+".join(initials), lowered))
    return False


def missing_facts(claim: str, abstracts: Sequence[str]) -> list[str]:
    """The numbers, names and words of a paper's reception (``RECEPTION``) of ``claim`` that
    none of the cited ``abstracts`` contains."""
    joined = " ".join(normalise(a) for a in abstracts)
    lowered = joined.lower()
    words = set(re.findall(r"[a-z0-9]+", lowered))
    # a reference marker ("Farwell & Donchin [4]") vouches for no number of the claim
    plain = [normalise(without_references(a)) for a in abstracts]
    known = numbers(" ".join(plain))
    missing = [n for n in sorted(numbers(without_references(claim))) if n not in known]
    missing += [n for n in misplaced(without_references(claim), plain) if n not in missing]
    missing += [n for n in _names(claim) if not _name_found(n, lowered, words)]
    return missing + reception_unsaid(claim, abstracts)


def reception_unsaid(text: str, abstracts: Sequence[str]) -> list[str]:
    """The words of a paper's reception (``RECEPTION``: "most cited", "seminal") in
    ``text`` that none of ``abstracts`` writes."""
    written = " ".join(" ".join(abstracts).lower().split())
    said = (" ".join(m.group(0).lower().split()) for m in RECEPTION.finditer(text))
    return sorted({phrase for phrase in said if phrase not in written})


@dataclass(frozen=True)
class _Cues:
    """What similarity misses in a text: its negations (how many), its direction (+1 "higher",
    −1 "lower", 0 neither or both), that direction less its comparison's verb
    (``plain_direction``), its words (for "identifiable"/"unidentifiable") and who wins and
    who loses its comparison (``roles``)."""

    negations: int
    direction: int
    words: frozenset[str]
    plain_direction: int = 0
    roles: tuple[frozenset[str], frozenset[str]] | None = None


_PASSIVE_WIN = re.compile(r"\b(outperformed|surpassed|beaten|exceeded|bettered) by\b")
# "A outperforms B", "A outperformed B", "A improves on B", "A is faster than B": A wins
_ACTIVE_WIN = re.compile(r"\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beats?|beating"
                         r"|exceed(?:s|ed|ing)?|improve[sd]?\s+(?:on|over|upon)"
                         r"|(?:better|faster|stronger|more\s+\w+)\s+than)\b")
_SIDE = 80  # characters read on each side of a comparison, to its clause's end
# a side naming the paper's own work ("our method", "the proposed approach"), which its
# keywords alone leave empty
_OWN_WORK = re.compile(r"\b(?:our|we|ours|the\s+proposed|this\s+(?:paper|work|method|approach))\b")
_OWN = "(our work)"


def _cues(text: str) -> _Cues:
    lowered = text.lower()
    m = _PASSIVE_WIN.search(lowered) or _ACTIVE_WIN.search(lowered)
    negations, direction, words = _polarity(lowered)
    if m is None:
        return _Cues(negations, direction, words, direction)
    plain = _polarity(f"{lowered[:m.start()]} {lowered[m.end():]}")[1]
    before = re.split(r"[.;:!?,(]", lowered[max(0, m.start() - _SIDE):m.start()])[-1]
    # the side after the verb ends where a qualifier begins: "B on GLUE", "B at 121 UCI tasks"
    after = re.split(r"[.;:!?,)]|\s(?:on|at|in|across|over|for|with|under|when|while|by|from|using"
                     r"|but|which)\s", lowered[m.end():m.end() + _SIDE])[0]  # "B and C", "that of B"
    first, second = _side(before), _side(after)
    return _Cues(negations, direction, words, plain,
                 (second, first) if m.re is _PASSIVE_WIN else (first, second))


def _polarity(lowered: str) -> tuple[int, int, frozenset[str]]:
    """A lower-cased text's negations, direction and words (``_Cues``)."""
    lowered = _PASSIVE_WIN.sub("underperforms", lowered)  # "outperformed by X" is down
    tokens = _WORDS.findall(lowered.replace("n't", " not"))
    words = frozenset(tokens)
    up, down = bool(words & UP), bool(words & DOWN)
    return sum(t in NEGATIONS for t in tokens), (up and not down) - (down and not up), words


def _side(text: str) -> frozenset[str]:
    """A comparison's side as its keywords, and the paper's own work as ``_OWN``."""
    return frozenset(query_terms(text)) | ({_OWN} if _OWN_WORK.search(text) else set())


def _swapped(claim: _Cues, unit: _Cues) -> bool:
    """The claim's winner is the sentence's loser and its loser the sentence's winner ("BERT
    outperforms FooNet" of "FooNet outperforms BERT", "The baselines outperform our method"
    of "Our method outperforms the baselines"): a model's paraphrase had swapped them and
    kept every word, which similarity cannot tell."""
    return _sides_match(claim, unit, swapped=True)


def _sides_match(claim: _Cues, unit: _Cues, swapped: bool = False) -> bool:
    """Whether the claim's comparison has the sentence's winner and loser (``swapped``: the
    other way round), by their keywords."""
    if claim.roles is None or unit.roles is None:
        return False
    (won, lost), (their_won, their_lost) = claim.roles, unit.roles
    if swapped:
        their_won, their_lost = their_lost, their_won
    shared = (won & lost) | (their_won & their_lost)  # "method", "model" on both sides
    won, lost, their_won, their_lost = won - shared, lost - shared, their_won - shared, their_lost - shared
    # each side found on its side, and more words so than across ("on ImageNet" may close
    # either side: "A outperforms B on ImageNet", "B is outperformed by A on ImageNet")
    return (bool(won & their_won) and bool(lost & their_lost)
            and len(won & their_won) + len(lost & their_lost) > len(won & their_lost) + len(lost & their_won))


def _contradicted(claim: _Cues, terms: AbstractSet[str], units: Sequence[_Unit]) -> bool:
    """Whether a sentence of the cited abstracts states the claim's comparison the other way
    round, and none states it as claimed about as much of the rest of the claim ("A beats B
    on GLUE; B beats A on SQuAD": "B beats A on GLUE" is contradicted, "A beats B on GLUE"
    and the whole trade-off are not, a review's). A swap anywhere counts, not only in the
    sentence that scores best: "BERT outperforms XLNet" had passed on another sentence
    sharing its words (a run's)."""
    if claim.roles is None:
        return False
    rest = set(terms) - claim.roles[0] - claim.roles[1]  # "on GLUE", the claim's other words

    def held(wanted: Callable[[_Cues, _Cues], bool]) -> int:
        return max((len(rest & unit.terms) for unit in units if wanted(claim, unit.cues)), default=-1)
    swapped = held(_swapped)
    return swapped >= 0 and swapped > held(_sides_match)


def _opposite_words(a: frozenset[str], b: frozenset[str]) -> bool:
    """One text uses a word the other negates by a prefix (identifiable, unidentifiable)."""
    return any(f"{prefix}{w}" in b and w not in b or f"{prefix}{w}" in a and w not in a
               for prefix in ("un", "non", "non-", "in", "im", "ir")
               for w in (a | b) if len(w) > 4)


def _polarity_clash(claim: _Cues, unit: _Cues) -> bool:
    """The claim and the sentence differ in negation (parity), direction or a prefix
    antonym: similar words, opposite statements. "B is outperformed by A" is "A outperforms
    B" said the other way: with the same sides, only the rest's direction counts."""
    same = _sides_match(claim, unit)
    turned = (claim.plain_direction if same else claim.direction) * (
        unit.plain_direction if same else unit.direction) < 0
    return ((claim.negations % 2) != (unit.negations % 2) or turned
            or _opposite_words(claim.words, unit.words))


# ---------------------------------------------------------------- the checker


def local_stats(texts: Iterable[str]) -> KeywordStats:
    """Keyword statistics over ``texts`` alone (each a document), for a checker without an
    index: the cited abstracts' sentences then say which words are common."""
    docs = [t for t in texts if t.strip()]
    if not docs:
        return KeywordStats()
    tokens = tokenize(docs)
    return KeywordStats(n_docs=len(docs), vocab=dict(tokens.vocab),
                        df=document_frequencies(tokens.ids, len(tokens.vocab)))


def quoted(claim: str, abstracts: Sequence[str]) -> bool:
    """The claim is a whole sentence of a cited abstract, quoted verbatim. A fragment is
    not: "transformers cannot learn parity" inside "Prior work claims that transformers
    cannot learn parity; we prove it false" says the opposite of the abstract. ``claim_text``
    strips Markdown characters from the claim, so they leave the abstract's LaTeX too
    (``$\\Delta_i$`` is ``$\\Deltai$`` in a claim), and only there: outside ``$…$`` a
    "*" or "_" can carry meaning ("2*3 times" is not "23 times")."""
    def flat(text: str) -> str:
        return " ".join(normalise(text).split()).rstrip(" .").lower()

    def math_unmarked(text: str) -> str:
        return _MATH.sub(lambda m: _MARKUP.sub("", m.group(0)), text)

    claim_flat = flat(claim)
    return bool(claim_flat) and any(claim_flat == flat(math_unmarked(sentence))
                                    for a in abstracts for sentence in split_sentences(a))


@dataclass(frozen=True)
class _Unit:
    """A sentence (or two adjacent ones) of a cited abstract, ready for scoring."""

    text: str
    terms: frozenset[str]
    cues: _Cues
    vector: np.ndarray = field(repr=False)


@cache
def _minilm() -> Embedder:
    from assistant.embedding import MiniLMOnnxEmbedding

    return MiniLMOnnxEmbedding()


class ClaimChecker:
    """Scores each sentence of an answer against the abstracts it cites.

    ``stats`` give the keyword statistics (idf): the index's ``keyword_stats``, asked at
    every check so that an ingest is seen; without them, idf comes from the cited abstracts
    themselves. ``embed`` defaults to the bundled MiniLM (the threshold is calibrated for
    it). One checker may serve many answers: abstracts' sentence vectors are cached."""

    def __init__(self, stats: Callable[[], KeywordStats] | None = None, embed: Embedder | None = None,
                 threshold: float = THRESHOLD) -> None:
        self.stats = stats
        self._embed = embed
        self.threshold = threshold
        self._units: dict[str, list[_Unit]] = {}

    @classmethod
    def for_index(cls, index: AbstractIndex) -> ClaimChecker:
        """A checker with the index's idf, reusing its embedding when that is MiniLM."""
        from assistant.settings import DEFAULT_EMBED_MODEL

        embed = index.embed_model if index.settings.index.embed_model == DEFAULT_EMBED_MODEL else None
        return cls(stats=index.keyword_stats, embed=embed)

    @property
    def embed(self) -> Embedder:
        if self._embed is None:
            self._embed = _minilm()
        return self._embed

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length MiniLM vectors of ``texts``."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.asarray(self.embed.embed(list(texts)), dtype=np.float32)

    def units(self, abstract: str) -> list[_Unit]:
        """The abstract's sentences and adjacent pairs, with their terms, cues and vectors
        (cached by text: an eval checks the same abstracts again and again). A pair's vector
        is the normalised sum of its sentences' vectors, which saves embedding every pair."""
        found = self._units.get(abstract)
        if found is None:
            sents = split_sentences(abstract)
            vectors = self.vectors(sents)
            found = [_Unit(t, frozenset(document_terms(t)), _cues(t), v)
                     for t, v in zip(sents, vectors, strict=True)]
            for first, second in zip(found, found[1:], strict=False):
                both = first.vector + second.vector
                found.append(_Unit(f"{first.text} {second.text}", first.terms | second.terms,
                                   _cues(f"{first.text} {second.text}"),
                                   both / max(float(np.linalg.norm(both)), 1e-12)))
            if len(self._units) >= CACHE_SIZE:
                self._units.clear()
            self._units[abstract] = found
        return found

    def check(self, answer: str, abstracts: Mapping[int, str]) -> list[Claim]:
        """One ``Claim`` per sentence of ``answer``; ``abstracts`` maps each source number
        the answer may cite to that abstract's text."""
        sentences = [s for s in claim_sentences(answer) if is_claim(s)]
        cited = [[abstracts[n] for n in cited_numbers(s) if n in abstracts] for s in sentences]
        texts = [claim_text(s) for s in sentences]
        scored = [i for i, known in enumerate(cited) if known and not quoted(texts[i], known)]
        vectors = dict(zip(scored, self.vectors([texts[i] for i in scored]), strict=True))
        stats = None
        if scored:  # one batch of vectors for the answer; idf only when something is scored
            stats = self.stats() if self.stats is not None else None
            if stats is None or not stats.n_docs:
                stats = local_stats(s for a in abstracts.values() for s in split_sentences(a))
        claims = []
        for i, sentence in enumerate(sentences):
            support = (0.0 if not cited[i] else 1.0 if i not in vectors
                       else self.support(texts[i], cited[i], stats or KeywordStats(), vectors[i]))
            claims.append(Claim(text=sentence, cites=cited_numbers(sentence),
                                support=round(support, 3), supported=support >= self.threshold))
        return claims

    def support(self, claim: str, abstracts: Sequence[str], stats: KeywordStats,
                vector: np.ndarray | None = None) -> float:
        """0–1: how well the cited ``abstracts`` (their best sentence or sentence pair) back
        ``claim``."""
        if quoted(claim, abstracts):
            return 1.0
        units = [u for a in abstracts for u in self.units(a)]
        if not units or not claim.strip(" ."):
            return 0.0
        weights = {t: stats.idf(t) for t in query_terms(claim)}
        total = sum(weights.values())
        if vector is None:
            vector = self.vectors([claim])[0]
        cosines = np.stack([u.vector for u in units]) @ vector
        cues = _cues(claim)
        # Words found elsewhere in the cited abstracts (the method's name, usually) count
        # for part of their weight: a claim about "MAGE" matches a sentence that says "each
        # expert".
        context = set().union(*(u.terms for u in units))
        in_context = sum(w for t, w in weights.items() if t in context)
        best = 0.0
        for unit, cosine in zip(units, cosines, strict=True):
            found = sum(w for t, w in weights.items() if t in unit.terms)
            lexical = (found + CONTEXT_CREDIT * (in_context - found)) / total if total else 0.0
            score = DENSE_WEIGHT * float(cosine) + (1 - DENSE_WEIGHT) * lexical
            if _polarity_clash(cues, unit.cues):
                score *= POLARITY_PENALTY
            best = max(best, score)
        if _contradicted(cues, set(weights), units):  # the opposite claim in its words
            best = min(best, MISSING_CAP)
        joined = " ".join(abstracts).lower()
        absolutes = set(_WORDS.findall(claim.lower())) & ABSOLUTES
        if any(not re.search(rf"\b{w}\b", joined) for w in absolutes):
            best *= ABSOLUTE_PENALTY
        if missing_facts(claim, abstracts):
            best = min(best, MISSING_CAP)
        return max(0.0, min(1.0, best))


def share_supported(claims: Sequence[Claim]) -> float | None:
    """The share of claims marked supported (None when there are none)."""
    return sum(c.supported for c in claims) / len(claims) if claims else None
