"""What a question names, and whether the papers an answer cites mention it.

Why: an answer quoted from papers that never mention what was asked ("How does Mamba compare
with Transformers on DNA?" answered from Markov models of DNA) looks like an answer. The
ranker cannot always tell (a refusal on such names refused answerable questions), so the
researcher is told instead: ``Answer.unmentioned``. A false warning on a right answer would
teach researchers to ignore it, so every doubt here goes towards "mentioned".

Refusal reads a question's names too (``intent.proper_names``: a name no stored abstract
uses means no sources), with its own, older rules: they were tuned on the dev split, and a
name missed here costs a warning, a name missed there a wrong answer. A name of several words
whose every word is known ("Hindsight Curriculum Distillation") is refused when no paper
writes it as a phrase (``several_word_names``, ``writes``, ``PhraseText``; read by
``name_checks.unwritten_names``), and there too every doubt goes towards
"written": a wrong refusal loses a right answer.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from assistant.corpus import Paper
from assistant.keywords import STOPWORDS, joined_parts, mentions, query_terms, stem_of
from assistant.tuning import SHORT_TITLE_WORDS
from assistant.written_forms import number_forms

_LOWER_WORD = re.compile(r"[a-z0-9]+")
_TYPOGRAPHIC = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"}
                             | {c: "'" for c in "\u2018\u2019\u02bc"}
                             # letters NFKD does not take apart ("Søren", "Łojasiewicz")
                             | dict(zip("øØłŁıđĐ", "oOlLidD", strict=True))
                             | {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th"})
# an acronym in brackets inside a phrase: "the Kurdyka-Lojasiewicz (KL) property"
_BRACKETED = re.compile(r"\s*\([A-Za-z0-9]{1,8}\)")
_CID = re.compile(r"\(cid:173\)\s*")
_POSSESSIVE = re.compile(r"(?<=\w)'s\b|(?<=s)'")
_INITIAL = re.compile(r"\b[A-Z]\.\s*")
# closing words that say what kind of thing (or task) a name is, not which ("the Penn Treebank
# Corpus", "Cart-Pole Balancing": papers write "cart-pole")
KIND_WORDS = frozenset("""corpus dataset data database benchmark task problem game
environment algorithm method model network framework architecture approach
technique procedure rule theorem lemma inequality equation bound loss distance divergence
estimator test challenge competition suite library toolkit system classification detection
segmentation recognition prediction estimation tracking control navigation balancing planning
retrieval generation translation property condition assumption relaxation approximation
embedding buffer threshold trick transform""".split())
_KIND_STEMS = frozenset(stem_of(word) for word in KIND_WORDS)  # their plurals too
# a question that only asks what a thing of several capitalised words is, its own words in
# lower case as in a sentence ("How Does Dropout Affect Generalization?" is a title)
_WHAT_IS = re.compile(r"\s*(?:[Ww]hat (?:is|are)|[Ee]xplain|[Dd]escribe|[Dd]efine|[Hh]ow (?:does|do))"
                      r"\s+(?:the\s+|an?\s+)?(?P<name>[A-Z0-9][\w-]*(?:\s+[A-Z0-9][\w-]*)+?)"
                      r"(?:\s+works?)?\s*[?.!]?\s*$")
WORD_RE = re.compile(r"\d*[A-Za-z][\w@-]*\w|\d*[A-Z]")  # "3D" whole, not "D"
ABBREVIATIONS = ("vs.", "e.g.", "i.e.", "cf.", "al.", "etc.")  # a full stop that ends nothing
MAX_NAMES = 20  # names checked per question (a pasted list of acronyms costs seconds)
_STOP = frozenset(STOPWORDS)


def _plain(word: str) -> bool:
    """A capitalised word ("Mamba", "Jensen-Shannon", "Q-Networks", "3D"): each hyphen-part,
    after any leading digits, an upper-case letter and lower-case ones, or a lone capital."""
    return all(part[:1].isupper() and (len(part) == 1 or part[1:].islower())
               for part in (p.lstrip("0123456789") for p in word.split("-")))


def _marked(word: str) -> bool:
    """An acronym or a coined name: a capital after the first letter (SAM, CorEx, AB-MCTS,
    iVAE, pass@N), not a capitalised stopword used for emphasis ("NOT", "ALL")."""
    return any(c.isupper() for c in word[1:]) and not _plain(word)


def _starts_sentence(question: str, at: int) -> bool:
    before = question[:at].rstrip(" \"'(“‘")
    if not before:
        return True
    return before[-1] in ".?!" and not before.lower().endswith(ABBREVIATIONS)


def named_phrases(question: str, proper: AbstractSet[str] | None = None) -> list[str]:
    """What ``question`` names, as a researcher writes it: acronyms and coined names alone
    ("SGD", "CorEx"), runs of capitalised words whole ("Segment Anything Model"). A capitalised
    word that opens a sentence is a name only if the corpus writes it capitalised inside its
    sentences (``proper``, lower-cased: ``SurfaceText.proper``): "Adam optimizer: …" names
    Adam, "Compare Adam and SGD" names Adam, not "Compare Adam"; a run opening a sentence
    whose later words are not all such stays whole ("Segment Anything Model: …", but also
    "Discuss Hopfield Networks": ``unmentioned`` accepts it without its first word).
    Without ``proper`` a lone word opening a sentence is no name ("How", but also "Adam").
    Nothing is a name in a question whose capitals carry no signal: all in capitals, or in
    title case ("How Does Dropout Affect Generalization?": only its acronyms count)."""
    if not any(c.islower() for c in question):
        return []
    later = [m.group(0) for m in WORD_RE.finditer(question)
             if m.group(0).lower() not in _STOP and not _marked(m.group(0))
             and not _starts_sentence(question, m.start())]
    title_case = len(later) >= 3 and sum(w[0].isupper() for w in later) >= 0.75 * len(later)
    phrases: list[str] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        opens = (bool(run) and _starts_sentence(question, run[0].start())
                 and not _is_proper(run[0].group(0), proper))
        if opens and all(_is_proper(word.group(0), proper) for word in run[1:]):
            del run[0]  # "How", "Compare Adam", "Review Monte Carlo"; see forms_of
        if run:
            phrases.append(question[run[0].start():run[-1].end()])
        run.clear()

    for m in WORD_RE.finditer(question):
        word = m.group(0)
        if word.lower() in _STOP:
            close()
        elif _marked(word):
            close()
            phrases.append(word)
        elif _plain(word) and not title_case:
            if run and question[run[-1].end():m.start()] != " ":
                close()
            run.append(m)
        else:
            close()
    close()
    return list(dict.fromkeys(phrases))[:MAX_NAMES]


def _squashed(text: str) -> str:
    return re.sub(r"[\s-]+", "", text.lower())


def mentioned(name: str, text: str) -> bool:
    """Whether ``text`` mentions ``name`` in some form. An acronym or coined name: as written
    (case and all; "GPT3" for "GPT-3"), spelled out (``keywords.mentions``), or a coined name
    run together in any case ("batch normalization" for "BatchNorm"), but an acronym never
    through a word it folds into ("clipping" is not CLIP). Capitalised words: each one's stem
    somewhere in the text ("neural tangent kernel" for "Neural Tangent Kernels"), the words
    run together ("multihead" for "Multi-Head"), or their initials ("DQN" for "Deep
    Q-Networks"; so "SAM" for Sparse Access Memory counts for "Segment Anything Model": a
    doubt goes towards "mentioned")."""
    if " " not in name and _marked(name):  # "GANs" is mentioned by "GAN", "GAN-based"
        return (any(mentions(text, form) for form in number_forms(name))
                or mentions(text.replace("-", ""), name.replace("-", ""))
                or (any(c.islower() for c in name) and _squashed(name) in _squashed(text)))
    parts = [part for word in name.split() for part in word.split("-")]
    initials = "".join(part[0] for part in parts)
    return (set(query_terms(name)) <= set(query_terms(text)) or _squashed(name) in _squashed(text)
            or (len(parts) > 1 and mentions(text, initials)))


def several_word_names(question: str, proper: AbstractSet[str] | None = None) -> list[str]:
    """The names of ``question`` (``named_phrases``) made of several capitalised words,
    spaced or hyphenated ("Hindsight Curriculum Distillation", "Forward-Forward"), not an
    acronym or coined word ("AB-MCTS", "FlashAttention-3"); in a short question that only
    asks what a thing is ("What is Hindsight Curriculum Distillation?", which reads as title
    case: ``named_phrases`` finds no name there), the thing."""
    names = [n for n in named_phrases(question, proper)
             if " " in n or ("-" in n and _plain(n))]  # a run of words is of plain ones
    short = _WHAT_IS.match(question)
    if not names and short and all(_plain(w) for w in short.group("name").split()):
        return [short.group("name")]
    return names


def folded(text: str) -> str:
    """``text`` as a name look-up reads it: lower case, accents and typographic characters
    folded to ASCII ("Rényi" as renyi, "Jensen–Shannon" as jensen-shannon, "’" as "'"), a
    possessive dropped ("Hoeffding’s inequality" as hoeffding inequality, "Bayes' rule"), an
    acronym in brackets dropped ("Kurdyka-Łojasiewicz (KL) property"), and the PDF soft
    hyphen "(cid:173)" read as a hyphen ("cart(cid:173) pole")."""
    if not text.isascii():  # each step only where it can apply: 13.9k papers in ~0.5 s
        text = text.translate(_TYPOGRAPHIC)
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    if "(cid:" in text:
        text = _CID.sub("-", text)
    if "(" in text:
        text = _BRACKETED.sub("", text)
    text = text.lower()
    return _POSSESSIVE.sub("", text) if "'" in text else text


def _stem_run(text: str) -> list[str]:
    return [stem_of(w) for w in _LOWER_WORD.findall(folded(text))]


def authors_read(authors: str) -> str:
    """An author list as written and as researchers write the names, without middle
    initials ("Richard S. Sutton" also as Richard Sutton, "Michael I. Jordan" as Michael
    Jordan)."""
    return f"{authors} | {_INITIAL.sub('', authors)}"


def name_forms(question: str, name: str, proper: AbstractSet[str] | None,
               common: Callable[[str], bool] = lambda word: False) -> list[str]:
    """``forms_of`` each, and shorter while it closes with a word that says what kind of
    thing the name is ("Penn Treebank Corpus" as Penn Treebank, "Hoeffding Inequality" as
    Hoeffding, ``KIND_WORDS``), or with a ``common`` word after two words at least
    ("Gumbel-Softmax Relaxation" as Gumbel-Softmax, "Hindsight Experience Replay Buffer"):
    a paper writes the name, seldom the kind with it."""
    forms = forms_of(question, name, proper)
    for form in list(forms):
        head, _, last = form.rpartition(" ")
        while head and (stem_of(last.lower()) in _KIND_STEMS
                        or (len(re.split(r"[\s-]+", head)) >= 2 and common(last))):
            forms.append(head)
            head, _, last = head.rpartition(" ")
    return forms


def writes(name: str, text: str) -> bool:
    """Whether ``text`` writes the several-word ``name`` as a phrase: its words' stems in a
    row, hyphens and spaces alike ("Monte-Carlo tree search" for "Monte Carlo Tree Search",
    "hidden Markov model" for "Hidden Markov Models"), run together ("multihead" for
    "Multi-Head"), or its initials as an acronym ("DQN" for "Deep Q-Networks"). Stricter than
    ``mentioned``, which takes each word anywhere: a long abstract holds "hindsight",
    "curriculum" and "distillation" apart without naming Hindsight Curriculum Distillation."""
    words, stems = _stem_run(name), _stem_run(text)
    if any(stems[i:i + len(words)] == words for i in range(len(stems) - len(words) + 1)):
        return True
    if _squashed(folded(name)) in _squashed(folded(text)):
        return True
    return any(mentions(text, acronym) for acronym in acronyms_of(name))


def acronyms_of(name: str, shortest: int = 2) -> set[str]:
    """The acronyms a paper may write for ``name``: its initials ("DQN" for "Deep
    Q-Networks"), a repeated one counted ("A3C" for "Asynchronous Advantage Actor-Critic");
    none under ``shortest`` initials."""
    initials = "".join(part[0] for part in re.split(r"[\s-]+", folded(name)) if part[:1].isalpha())
    counted = re.sub(r"(\w)\1+", lambda m: f"{m.group(1)}{len(m.group(0))}", initials)
    return {initials.upper(), counted.upper()} if len(initials) >= shortest else set()


def _phrase_form(text: str) -> str:
    return " ".join(folded(text).replace("-", " ").split())


_ENDING = re.compile(r"(?:e?s)?(?![a-z0-9])")  # the text is ASCII (``folded``)


@dataclass(frozen=True)
class PhraseText:
    """Every stored title, abstract and author list (also without middle initials) in one
    string, ``folded`` to lower-case ASCII (18 MB at 13.9k papers), hyphens read as spaces, to
    tell which papers write a name as a phrase: in a long question a paper that writes
    "Private Eye" or "Weight Distribution Condition" need not rank among the first found, and
    a BM25 search for the name alone ranked them 46th and 346th (the words are common apart).
    Built once per paper cache (~1 s at 13.9k papers, paid by the first question that
    needs it)."""

    text: str
    starts: list[int]  # where each paper's part of ``text`` begins
    paper_ids: list[str]

    @classmethod
    def of(cls, papers: Mapping[str, Paper]) -> PhraseText:
        text, starts = joined_parts(
            f" {_phrase_form(f'{paper.title} | {paper.text} | {authors_read(paper.authors)}')} \n"
            for paper in papers.values())
        return cls(text, starts, list(papers))

    def writers(self, name: str) -> set[str]:
        """The ids of the papers that write ``name`` as a phrase, any case, hyphens and
        spaces alike, with or without a plural ending ("Hidden Markov Models" in "a hidden
        Markov model")."""
        written = _phrase_form(name).strip()
        found: set[str] = set()
        # "trees" is "tree" + s, "processes" is "process" + es: both readings are tried
        for phrase in {re.sub(r"es$", "", written), re.sub(r"s$", "", written)} - {""}:
            at = self.text.find(phrase)
            while at >= 0:  # str.find, not a regex over the whole text: 0.4 s → milliseconds
                end = at + len(phrase)
                if not self.text[at - 1].isalnum() and _ENDING.match(self.text, end):
                    found.add(self.paper_ids[bisect.bisect_right(self.starts, at) - 1])
                at = self.text.find(phrase, end)
        return found


def unmentioned(question: str, papers: list[Paper],
                proper: AbstractSet[str] | None = None) -> list[str]:
    """The names of ``question`` (``named_phrases``, with the corpus's ``proper`` words)
    that none of ``papers`` mentions in its title, abstract or authors ("following
    Schmidhuber" is answered by his own papers); none when no paper is given."""
    if not papers:
        return []
    texts = [f"{p.title} {p.text} {p.authors}" for p in papers]
    return [n for n in named_phrases(question, proper)
            if not any(mentioned(form, t) for form in forms_of(question, n, proper) for t in texts)]


def forms_of(question: str, name: str, proper: AbstractSet[str] | None) -> list[str]:
    """``name``, and without its first word when it opens a sentence with a word the corpus
    writes in lower case ("Discuss Hopfield Networks": the verb, or a name's own first word
    as in "Segment Anything Model"; a doubt goes towards "mentioned")."""
    first, _, rest = name.partition(" ")
    at = question.find(name)
    if (proper is None or not rest or at < 0 or not _starts_sentence(question, at)
            or _is_proper(first, proper)):
        return [name]
    return [name, rest]


def _is_proper(word: str, proper: AbstractSet[str] | None) -> bool:
    """The corpus writes ``word`` (each hyphen-part) capitalised inside its sentences."""
    return proper is not None and set(word.lower().split("-")) <= proper


# the small words a title holds between its capitalised ones ("Dropout: A Simple Way to
# Prevent Neural Networks from Overfitting", "Attention is All you Need")
_TITLE_JOINERS = frozenset("""a an the of for in on and or to with by from via between through
without at as is are all you we not do does into over under towards toward beyond using""".split())
# ...which a title keeps in lower case: "Recent Advances In Graph Neural Networks" is a topic
# typed with every word capitalised (a review's), not a title
_SMALL_WORDS = frozenset("a an the of for in on and or to with by from via at into".split())
_TITLE_TOKEN = re.compile(r"[\w][\w'’-]*")


def typed_titles(question: str, proper: AbstractSet[str]) -> list[str]:
    """The runs of ``question`` typed as a paper's title is: at least SHORT_TITLE_WORDS
    capitalised words, joined only by spaces, a colon and a title's small words
    (``_TITLE_JOINERS``), none of them capitalised inside it (``_SMALL_WORDS``); a
    capitalised word that opens the question counts only when the corpus writes it
    capitalised (``proper``: "Summarize", "Who" do not). Words in quotes but in lower case
    may name a topic ('summarize "deep learning for climate"')."""
    runs: list[str] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        while run and run[-1].group(0).lower() in _TITLE_JOINERS:
            run.pop()
        start_case = any(w.group(0)[0].isupper() and w.group(0).lower() in _SMALL_WORDS
                         and question[before.end():w.start()] != ": "  # "Dropout: A Simple Way"
                         for before, w in zip(run, run[1:], strict=False))
        if not start_case and sum(w.group(0)[0].isupper() for w in run) >= SHORT_TITLE_WORDS:
            runs.append(question[run[0].start():run[-1].end()])
        run.clear()

    for m in _TITLE_TOKEN.finditer(question):
        word, gap = m.group(0), question[run[-1].end():m.start()] if run else ""
        if run and gap not in (" ", ": "):
            close()
        opens = not question[:m.start()].strip() or question[:m.start()].rstrip()[-1] in ".!?"
        if (word[0].isupper() and (not opens or word.lower() in proper)
                or run and word.lower() in _TITLE_JOINERS):
            run.append(m)
        else:
            close()
    close()
    return [r for r in dict.fromkeys(runs) if len(_TITLE_TOKEN.findall(r)) >= SHORT_TITLE_WORDS]
