"""How a list question's topic is read: the words it asks about, their phrasings, the
alternatives "or" joins, and the phrases a paper must write as one.

Why a module: what a list screens for (``listing.py``) and what a trend counts
(``trends.py``) both start from the topic, and reading it well decides most of a list's
precision and recall: "Which papers use or analyze the neural tangent kernel?" is about the
neural tangent kernel (not "use"), papers write it as "NTK" too, and "generate captions for
images or videos" asks for video captions, not every paper on video.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice

from assistant.authors import typeset_accents
from assistant.corpus import Paper, split_sentences
from assistant.index import AbstractIndex
from assistant.intent import JUDGING, WHO_WORKS, read_intent
from assistant.keywords import (
    KeywordStats,
    as_typed,
    stem_of,
    topic_terms,
)
from assistant.ranking import cached_coverage
from assistant.stated import BEEN, PUBLISHED, PUBLISHED_ON, RECENT, RECENTLY
from assistant.tuning import ASKED_SHARE, PAIR_WRITERS, SHARE_CHUNKS, SPELLED_OUT_INITIALS
from assistant.word_runs import (
    STOPS,
    WORD_RE,
    Run,
    sequence_terms,
    text_pairs,
    writes_pair,
)
from assistant.written_forms import as_written, typed_pattern

# What merely says the papers exist, after their noun ("papers were published", "are there",
# "were published recently": ``Intent.newest_first``): no topic
_EXIST = (rf"(?:\s+{RECENTLY}|\s+(?:were|are|was|have\s+been|got)\s+(?:published|accepted"
          r"|presented|written|there)\b)")
# What the papers say on the topic, after their noun ("what do papers say about X?", "tell
# me what 2025 papers say about X"): no topic words
_SAY = r"(?:say|said|write|wrote|report|tell\s+us)\s+(?:about|on)"
# A list question's lead words ("Which papers…", "List all works on…", "Give me a list of
# papers on…", "Show me all" before "federated learning papers"), cut before the topic is
# searched: "papers", "give" and "list" are in no abstract's topic, nor "recent": the
# papers' order (``Intent.newest_first``).
LEAD_RE = re.compile(
    r"^\s*(?:(?:please|pls|plz)\s+)?(?:(?:can|could|would)\s+you\s+|i\s+(?:want|need|would\s+like)\s+)?"
    r"(?:(?:please|pls|plz)\s+)?"
    r"(?:(?:list|find|show(?:\s+me)?|give(?:\s+me)?|name|count|get|search(?:\s+for)?"
    r"|summari[sz]e|describe|review|tell\s+me(?:\s+about)?|(?:are|were)\s+there)\s+)?"
    r"(?:(?:a|the)\s+(?:(?:full|complete|comprehensive|whole)\s+)?list\s+of\s+)?"
    r"(?:(?:only|just)\s+)?(?:(?:which|what|how\s+many|all(?:\s+(?:of\s+)?the)?|every|each|any|some"
    r"|the)\s+)?"
    r"(?:(?:are|were|is|do|did)\s+(?:the\s+)?)?(?:(?:main|most|key|best|top|important|influential"
    rf"|notable|seminal|cited|major|{JUDGING}|{RECENT})\s+)*"
    rf"(?:(?:papers?|works?|abstracts?|articles?|publications?)\b{_EXIST}?"
    rf"(?:\s+(?:{_SAY}|that|which|who|where|on|about|in|regarding|concerning|related\s+to)\b)?\s*"
    r"|(?=(?:[\w-]+\s+){1,4}(?:papers|works|abstracts|articles|publications)\b))",
    re.I)
WHO_RE = re.compile(WHO_WORKS, re.I)
PUBLISHED_ON_RE = re.compile(rf"{PUBLISHED_ON}(?:\s+(?:on|about|regarding|concerning)\b)?", re.I)
OR_RE = re.compile(r"\s+or\s+|\s*,\s*or\s+", re.I)
# ...the examples end where a word ties the topic to what it is for or on, two words or more
# following: "graph neural networks, e.g. GraphSAGE, for fraud detection" without "for fraud
# detection" had listed every GNN paper, none on fraud; "such as BERT fine-tuned on SQuAD"
# and "such as learning to rank" are examples whole
_QUALIFIED = r"(?=\s(?:for|in|on|with|using|via|across|within)\s+\w+\s+\w)"
_EXAMPLE = rf"(?:(?!{_QUALIFIED})[^,()])*"
# "like" giving examples ("molecules like benzene"), not a verb ("I would like", "looks
# like") nor asking for the thing itself ("papers like X")
LIKE = "".join(rf"(?<!\b{w}\s)" for w in ("would", "i", "we", "you", "they", "look", "looks", "feel",
                                          "feels", "seem", "seems", "paper", "papers", "work",
                                          "works", "one", "ones", "anything", "are", "is")
               ) + r"(?<!['’]d\s)like"
# A clause giving examples of the topic, to the next comma, bracket or the end: "…, such as
# documents or news", "… (e.g. BERT)"; "for example", "for instance" and "including" only
# after a comma ("strategies for example selection" gives none)
EXAMPLES_RE = re.compile(
    r"\s*\((?:such\s+as|e\.g\.|for\s+example|for\s+instance|including)[^)]*\)"
    rf"|,?\s+(?:such\s+as|e\.g\.,?|{LIKE})\s{_EXAMPLE}(?:,|$|{_QUALIFIED})"
    rf"|,\s*(?:for\s+example|for\s+instance|including),?\s{_EXAMPLE}(?:,|$|{_QUALIFIED})", re.I)
PHRASE_SHARE = 0.05  # a term in more of the chunks than this is too common to make a phrase
# Share of the pooled papers holding both words of a topic's neighbouring pair that must
# write them side by side for the pair to count as a phrase. Source: dev (bench/lists.py).
PHRASE_TOGETHER = 0.25
# Papers of the pool that must write a pair side by side for it to be a phrase of the field:
# one paper alone is no field's usage. "dopamine neuromodulation" (basal ganglia or
# dopamine neuromodulation?) was made a phrase by one full text of four holding both words.
PHRASE_WRITERS = 2
ALSO = " | "  # joins a topic's phrasings ("neural ordinary differential equations | neural ODE")
ACRONYM_RE = re.compile(rf"\b[A-Z]{{{SPELLED_OUT_INITIALS},}}(?=s?\b)")  # "DPP", "NTKs"
# An acronym a question types, two capitals or more ("RL", "GPs"): spelled out only when
# most of its papers agree on the words (``_spelled_as``)
TYPED_ACRONYM_RE = re.compile(r"\b[A-Z]{2,}(?=s?\b)")
# Readings of a topic the cross-encoder reads each paper against at most (each is a pass
# over the band): "use GNNs, VAEs, GANs, LLMs… or RBMs" made 37 and took 30 s.
MAX_REREAD_TEXTS = 4
# the papers' noun, with what merely says they exist after it ("GAN papers were published")
PAPERS_WORD_RE = re.compile(rf"\b(?:papers?|abstracts?|articles?|publications?)\b"
                            rf"(?:{_EXIST}|\s+{_SAY}\b)?", re.I)
# An acronym the question gives in brackets after its words: "capsule networks (CapsNets)",
# "electrocardiogram (ECG)" (two capitals or more)
STATED_ACRONYM_RE = re.compile(r"\s*\(\s*((?=(?:[^()\s]*[A-Z]){2})[A-Za-z][\w-]*)\s*\)")
# the papers' recency or existence after the topic, ending the question ("Which papers on
# GANs were published recently?", "How many papers on GANs were published?"): an order
# (``Intent.newest_first``) or nothing, not the topic's words ("publish" had been a word
# each paper must hold: 28 GAN papers of 2019 listed, 56 for "GAN papers from 2019"), and
# "appeared" or "published" alone ("Which papers on boosting appeared in 1998?" had found
# none "appeared"; "Which papers study GANs published in 2019?" listed 29, 54 without it),
# nor after the noun alone ("How many papers by Bengio appeared in 2016?": a run's false "no")
RECENTLY_RE = re.compile(rf"(?:^|\s+)(?:{RECENTLY}|{BEEN}\s+{PUBLISHED}|published|appeared|came\s+out)"
                         r"[\s,;]*(?=[?.!]*\s*$)", re.I)  # "…, since 2019?" read less its years (C61)
# Courtesy or a request to list ending the question ("? Thanks!", ", please?", " pls",
# " thx", "? List them": C70): no topic ("…? For
# time series." is one, and stays; "optimal transport pls" had counted none)
AFTER_QUESTION_RE = re.compile(
    r"(?:\?\s*|\s*,\s*|\s+)(?:(?:many\s+)?thanks?(?:\s+you)?|thx|ty|cheers|please|pls|plz"
    r"|(?<=\?\s)(?:(?:please|pls)\s+)?(?:list|show|name)\s+(?:them|those|these|all)(?:\s+please)?)"  # C70
    r"(?:\s+(?:so|very)\s+much|\s+a\s+lot|\s+in\s+advance)?\s*[?.!]*\s*$", re.I)


def topic_of(question: str, or_question: bool = True) -> str:
    """The question without its list lead words: what BM25 and the dense search look for
    ("Which papers use diffusion models for planning?" → "use diffusion models for
    planning?"); when that leaves nothing, the question itself (``or_question``) or "".
    A term lookup's topic is the words it asks for ("Which papers mention anomaly
    detection?" → "anomaly detection"): its verb is in no abstract's topic, and sank every
    paper's score."""
    return stated_acronyms(raw_topic(question, or_question))[0]


def raw_topic(question: str, or_question: bool = True) -> str:
    """``topic_of`` with the acronyms it states in brackets kept (``stated_acronyms``)."""
    looked_up = read_intent(question).lookup_terms
    if looked_up:
        return " ".join(looked_up)
    # "Who worked on X?", "What was published on X?": "worked", "published" are no topic words
    asked = PUBLISHED_ON_RE.sub("", WHO_RE.sub("", question, count=1), count=1)
    rest = RECENTLY_RE.sub("", PAPERS_WORD_RE.sub(" ", LEAD_RE.sub("", asked, count=1)))
    rest = AFTER_QUESTION_RE.sub("?", " ".join(rest.split()))
    # "are" alone, the year it stated read ("Which papers are from 1987?"), asks no topic, nor
    # a count's closing word ("How many papers in 2020 and 2021 combined?": a review's)
    said = rest.strip(" ?.!\"'")
    if said and not re.fullmatch(rf"{BEEN}|(?:in\s+)?(?:total|all)|overall|altogether|combined", said, re.I):
        return rest
    return question.strip() if or_question else ""


def stated_acronyms(topic: str) -> tuple[str, str | None]:
    """The topic without the acronyms it gives in brackets for its words, and the topic
    with each written instead of those words (None when it gives none): "use capsule
    networks (CapsNets)?" → "use capsule networks?", "use CapsNets?". The words are the run
    before the bracket that the acronym abbreviates (``abbreviates``); a bracket that
    abbreviates none ("large language models (GPT-4)", "COVID-19 (SARS-CoV-2)") names
    something of its own and stays. A paper writing either spelling answers; one writing
    only the acronym had been scored as missing the words."""
    without, substituted, found = topic, topic, False
    for m in reversed(list(STATED_ACRONYM_RE.finditer(topic))):
        before = topic[:m.start()].split()
        size = next((k for k in range(min(len(before), 8), 0, -1)
                     if abbreviates(m.group(1), before[-k:])), 0)
        if size:
            without = without[:m.start()] + without[m.end():]
            head = " ".join(substituted[:m.start()].split()[:-size])
            substituted = f"{head} {m.group(1)}{substituted[m.end():]}".strip()
            found = True
    return without, (substituted if found else None)


def abbreviates(acronym: str, words: list[str]) -> bool:
    """Whether ``acronym`` abbreviates ``words``: its capitals, or all its letters, are their
    initials (hyphenated words' parts counted or not: "capsule networks" for CapsNets,
    "locality-sensitive hashing" for LSH, "chain of thought" for CoT, not "language models"
    for LLaMA), or, for one word, its capitals are the word's letters in order from its
    first ("electrocardiogram" for ECG)."""
    capitals = "".join(c for c in acronym if c.isupper()).lower()
    letters_of = "".join(c for c in acronym.lower() if c.isalpha()).removesuffix("s")
    initials = "".join(part[0].lower() for w in words for part in w.split("-") if part[:1].isalpha())
    whole = "".join(w[0].lower() for w in words if w[:1].isalpha())  # "pre-trained" as one
    if len(words) > 1 or len(initials) > 1:  # CoT, MoE, kNN: each letter an initial
        return bool({initials, whole} & {capitals, letters_of})
    word = words[0].lower()
    letters = iter(word)
    return word[:1] == capitals[:1] and all(c in letters for c in capitals)


def reading_weights(topic: str, stats: KeywordStats, power: float = 1.0
                    ) -> list[tuple[str, dict[str, float]]]:
    """The topic's keyword weights (``topic_weights``), and each of its alternatives': a
    paper on one of them holds the keywords of that one, not of all. Each with its text.

    The alternatives: the phrasings ``searched_topic`` joined with " | " (a run of words and
    its acronym), each without the examples it gives (``without_examples``), and in each the
    parts "or" joins outside them ("place cells or grid cells"; "GNNs, e.g. GraphSAGE or GCNs,
    for fraud detection" is not about GCNs alone), also read with each word the "or" joins
    standing in the phrase around it (``or_readings``: "generate or compose music":
    "generate music", "compose music"). A part of one word is never an alternative of its
    own, however many "or"s the phrasing has: "news" alone held every news paper, and "use
    or analyze the neural tangent kernel" is not about "use". Read in its context, it is
    when its word is specific (in at most ASKED_SHARE of the chunks): "study earthquakes
    or volcanoes" had read neither apart, and said "no"; "birds or trees" is not about
    every decision tree (3% of the 13.9k store's chunks; C59), nor "poetry or novels" about
    every "novel" method."""
    def words(text: str) -> int:
        return len(topic_terms(text, stats))

    def specific(text: str) -> bool:  # one term, in at most ASKED_SHARE of the chunks (a
        terms = topic_terms(text, stats)  # store of fewer than SHARE_CHUNKS: a few papers' share)
        return len(terms) == 1 and (stats.n_docs < SHARE_CHUNKS
                                    or stats.doc_freq(terms[0]) <= ASKED_SHARE * stats.n_docs)

    phrasings = [p for p in topic.split(ALSO) if words(p)]
    alternatives = [] if len(phrasings) < 2 else phrasings
    for phrasing in phrasings:
        cut = without_examples(phrasing)
        alternatives += [cut] if cut != phrasing and words(cut) > 1 else []
        parts = [p for p in OR_RE.split(cut) if words(p)]  # an "or" of examples joins examples
        if len(parts) > 1:
            alternatives += [p for p in parts if words(p) > 1]
            alternatives += [p for p in or_readings(cut) if words(p) > 1 or specific(p)]
    return [(text, topic_weights(text, stats, power))
            for text in dict.fromkeys([topic, *alternatives])]


def topic_weights(text: str, stats: KeywordStats, power: float = 1.0) -> dict[str, float]:
    """A list topic's keyword weights: each of its ``topic_terms`` with its idf ** ``power``."""
    return {t: stats.idf(t) ** power for t in topic_terms(text, stats)}


def without_examples(phrasing: str) -> str:
    """The phrasing without the examples it gives (EXAMPLES_RE): "use pretrained models,
    such as BERT, for named entity recognition" → "use pretrained models for named entity
    recognition". Examples illustrate a topic; its papers need not name one."""
    return " ".join(EXAMPLES_RE.sub(" ", phrasing).split())


def or_readings(phrasing: str) -> list[str]:
    """A phrasing with one "or" read with each word it joins standing in the phrase around
    them: "apply machine learning to seismic or earthquake data" → "… to seismic data",
    "… to earthquake data"; a comma list of single words reads each item so ("use ODEs,
    SDEs, or PDEs" → "use ODEs", "use SDEs", "use PDEs"). Items of several words are not
    told apart: only the words either side of the "or" stand for each other, and the "or"
    parts themselves are the alternatives that read them whole (``reading_weights``). None
    for a phrasing with no "or", or several."""
    words = re.sub(r"\s+,", ",", phrasing.replace("(", " ").replace(")", " ")).split()
    at = [i for i, w in enumerate(words) if w.lower() == "or"]
    if len(at) != 1 or not 0 < at[0] < len(words) - 1:
        return []
    before, after = words[:at[0]], words[at[0] + 1:]
    items = [before.pop().rstrip(","), after.pop(0)]
    while before and before[-1].endswith(","):  # "ODEs, SDEs," before "or PDEs"
        items.insert(0, before.pop().rstrip(","))
    return [" ".join([*before, item, *after]) for item in items if item]


def reread_pairs(topic: str, papers: Sequence[Paper], stats: KeywordStats
                 ) -> tuple[list[str], list[str]]:
    """What the cross-encoder reads for ``papers``: the texts it reads each paper against
    (``reread_texts``, at most MAX_REREAD_TEXTS) and each paper's passage
    (``focus_passage`` under all of the topic's readings); a paper's logit is its best over
    the texts. One function for the screen and its tuning (bench/lists.py)."""
    readings = [w for _, w in reading_weights(topic, stats)]
    return (reread_texts(topic, stats)[:MAX_REREAD_TEXTS],
            [focus_passage(paper, readings) for paper in papers])


def reread_texts(topic: str, stats: KeywordStats) -> list[str]:
    """What the cross-encoder reads a paper against: each of the topic's alternatives (a
    phrasing, an "or" part read in its context), or the topic itself when it has none. One
    alternative reads as the field writes it; "use DPPs? | use determinantal point
    processes?" read as one query is neither."""
    return [text for text, _ in reading_weights(topic, stats)[1:]] or [topic]


def focus_passage(paper: Paper, readings: Sequence[dict[str, float]]) -> str:
    """What the list's reread reads of a paper: its title and the abstract's sentence that
    holds most of the topic's keyword weight (under any of its readings). The cross-encoder
    judges a passage's relevance; read whole, an abstract that uses the thing asked in one
    sentence of its experiments ("on Wikipedia data") reads as about something else, and
    the sentence alone costs a fraction of the whole abstract's reading."""
    sentences = split_sentences(paper.text) or [paper.text]
    best = max(range(len(sentences)), key=lambda i: max(
        (cached_coverage(w, sentences[i]) for w in readings), default=0.0))
    said = LINE_BREAK_HYPHEN_RE.sub("", sentences[best])  # "gan- glion" read as "ganglion"
    return typeset_accents(said if paper.title_derived else f"{paper.title}. {said}")


# A word broken at a line end, as text taken from PDFs keeps it ("the gan- glion cells", "iden-
# tity"), not a hyphen left hanging before "and" ("first- and second-order"): the
# cross-encoder had read the ganglion paper as one on GANs
LINE_BREAK_HYPHEN_RE = re.compile(r"(?<=[a-z])- (?=[a-z])(?!(?:and|or|nor|to|as|vs|versus)\b)")


def topic_phrases(text: str, stats: KeywordStats, pool: Sequence[Paper],
                  runs: tuple[Run, ...] = ()) -> frozenset[tuple[str, str]]:
    """The topic's phrases: neighbouring words of the topic (no stopword between) whose
    first is specific (in at most PHRASE_SHARE of the chunks), and which the pooled papers
    holding both words write side by side in at least PHRASE_TOGETHER of them, two at
    least (PHRASE_WRITERS): "diffusion models", "protein structure", "hyperbolic space";
    not "mixup data" (papers on mixup write "mixup" and "data" apart), nor "use capsule"
    (its first word is common). A phrase of the field is written as one; words a question
    merely puts side by side are not."""
    limit = PHRASE_SHARE * stats.n_docs
    words = WORD_RE.findall(as_typed(text).lower())
    candidates = {(stem_of(a), stem_of(b)) for a, b in zip(words, words[1:], strict=False)
                  if a not in STOPS and b not in STOPS and stem_of(a) != stem_of(b)
                  and 0 < stats.doc_freq(stem_of(a)) <= limit}
    if not candidates:
        return frozenset()
    texts = [f"{p.title}. {p.text}" for p in pool]
    phrases = set()
    for a, b in candidates:
        both = [text for text in texts if {a, b} <= sequence_terms(text, runs)]
        together = sum(1 for text in both if (a, b) in text_pairs(text, runs))
        if both and together >= max(PHRASE_WRITERS, PHRASE_TOGETHER * len(both)):
            phrases.add((a, b))
    return frozenset(phrases)


def phrase_share(pairs: frozenset[tuple[str, str]], paper: Paper, runs: tuple[Run, ...] = ()
                 ) -> float:
    """The share of the topic's phrases (``pairs``) that the paper's title or abstract
    writes as one, in either order (1 for a topic without phrases): "diffusion" and
    "model" apart are not "diffusion models"."""
    if not pairs:
        return 1.0
    text = f"{paper.title}. {paper.text}"
    return sum(1 for pair in pairs if writes_pair(text, pair, runs)) / len(pairs)


def best_sentence(paper: Paper, weights: dict[str, float], words: Sequence[str] = ()) -> str:
    """The abstract's sentence that holds most of the topic's keyword weight (the first
    such; the first sentence when none holds any), among those writing most of a lookup's
    ``words`` as asked: "Which papers mention C++?" had quoted "Clustering is a ubiquitous
    task in data science." (C++ is no keyword) for the paper writing it further on."""
    sentences = split_sentences(paper.text) or [paper.text]
    written = [typed_pattern(w) for w in words]
    return max(sentences, key=lambda sentence: (sum(1 for p in written if p.search(sentence)),
                                                cached_coverage(weights, sentence)))


_JOIN = r"\s*(?:vs\.?|versus|/|-|–|—)\s*"


def written_as_pair(first: str, second: str, index: AbstractIndex) -> bool:
    """Whether at least PAIR_WRITERS stored papers write the two sides of "``first`` vs
    ``second``" joined in that order: "exploration vs exploitation" is a trade-off the
    field names so ("exploration-exploitation"), one topic to count, where hardly a paper
    writes "GANs vs VAEs": two topics set against each other."""
    sides = [as_written(side.strip()) for side in (first, second)]
    return _writes(f"{first} {second}", rf"\b{sides[0]}{_JOIN}{sides[1]}\b", index, PAIR_WRITERS)


def sharing_head(first: str, second: str, index: AbstractIndex) -> tuple[str, str]:
    """The two sides of "``first`` vs ``second``" with the words after the second's first
    word read after the first too, when PHRASE_WRITERS stored papers write the first so:
    "online vs offline reinforcement learning" sets "online reinforcement learning" against
    "offline reinforcement learning" (it had counted every paper writing "online"). A
    plural first side names a thing of its own ("CNNs vs recurrent networks") and stays."""
    head = second.split()[1:]
    if len(first.split()) != 1 or not head or first.lower().endswith("s"):  # "CNNs": a thing
        return first, second
    shared = f"{first} {' '.join(head)}"
    words = r"[\s-]+".join(as_written(word) for word in shared.split())
    written = _writes(shared, rf"\b{words}\b", index, PHRASE_WRITERS)
    return (shared, second) if written else (first, second)


def _writes(text: str, pattern: str, index: AbstractIndex, at_least: int) -> bool:
    """Whether ``at_least`` stored papers holding every keyword of ``text`` match
    ``pattern`` (any case) in their title or abstract."""
    terms = topic_terms(text, index.keyword_stats())
    held = index.term_papers(terms)
    if not terms or len(held) < len(set(terms)):
        return False
    found, papers = re.compile(pattern, re.I), index.papers()
    writers = (pid for pid in frozenset.intersection(*held.values())
               if found.search(f"{papers[pid].title}. {papers[pid].text}"))
    return next(islice(writers, at_least - 1, None), None) is not None
