"""A topic's misspelt words, read as the spelling the stored abstracts write.

A list or a count needs every paper to hold the topic's words, so one word that no abstract
writes ("hyperparamter") leaves nothing to list, a false "no". Such a word is read as the
spelling one slip away (a letter dropped or doubled, two swapped, or in a long word no
abstract writes, one vowel written for another: "adverserial") that the abstracts write,
and the answer says so. So is a word a couple of papers write, typo and all ("baysian"),
or whose stem another word has ("recurent" is stemmed as "recur"), when the spelling one
slip away is written by far more papers. A consonant changed for another is no slip read
so: it turns one real word into another ("constricted" into "constructed", "livelihoods"
into "likelihoods"). A name (capitalised) is never respelt: a thing the corpus does not
name is for ``naming.unmentioned`` to point out, not to be read as another thing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.keywords import STOPWORDS, KeywordStats, SurfaceText, stem_of
from assistant.naming import typed_titles

if TYPE_CHECKING:
    from assistant.index import AbstractIndex

# Shorter words have real words one letter away too often: "salary" is no misspelt
# "salivary", nor "looming" "looping", "lessons" "lesions" or "powder" "power"
SHORTEST = 8
# ...unless no abstract writes the word in any form, it lacks a letter of, or swaps two of,
# a word a good share of the chunks write ("modles" → "models", "robotcs" → "robotics"),
# and has 6 letters at least: a letter added to a frequent word makes real words too
# often ("powder", "relit"), and so does one dropped from a five-letter word ("repot")
SHORTEST_SLIP = 6
FREQUENT_SLIP = 0.01  # the share of the chunks a short word's slip is written in, at least
# A word some abstracts write is a slip too when at most RARE papers write it and the word
# one slip away is written by RATIO times as many: a few abstracts hold the typo themselves
# ("baysian" in 2, "reinforcment" shares "reinforcement"'s stem), and a real word that rare
# seldom has a neighbour that common
RARE = 2
RATIO = 50
VOWELS = frozenset("aeiou")
WrittenBy = Callable[[str], int]  # how many stored papers write a word (naming.PhraseText)
# A list question's opening words, misspelt ("Wich papers use LSTMs?" had been answered as
# a question about one paper)
CUES = ("which", "what", "list", "show", "find", "give", "name")
CUE_WRITTEN = 2
_LOWER_WORD = re.compile(r"(?<![\w-])[a-z]+(?![\w-])")
_FIRST_WORD = re.compile(r"^\s*([A-Za-z]+)\b")


def respellings(topic: str, surface: SurfaceText, stats: KeywordStats,
                written_by: WrittenBy | None = None) -> dict[str, str]:
    """Each lower-case word of ``topic`` that no stored paper writes, mapped to the most
    written spelling one slip away (``one_slip``): {"hyperparamter": "hyperparameter"}.
    Empty when every word is known. A word under SHORTEST letters is respelt only when it
    lacks a letter of, or swaps two of, a frequent word (``FREQUENT_SLIP``). With
    ``written_by``, a word at most RARE papers write is respelt too when the spelling one
    slip away is written by RATIO times as many."""
    found: dict[str, str] = {}
    for word in dict.fromkeys(_LOWER_WORD.findall(topic)):
        if len(word) < SHORTEST_SLIP or word in STOPWORDS:
            continue
        writers = _rare_writers(word, surface, stats, written_by)
        if writers is None:  # a word papers write is no slip
            continue
        short = len(word) < SHORTEST
        if short and not writers and word in surface.words:
            continue
        vowel = not short and not writers  # a vowel changed in a word papers write is no
        # slip often ("splatting" is no "splitting")
        close = [w for w in surface.words
                 if abs(len(w) - len(word)) <= 1 and one_slip(word, w, vowel=vowel)]
        if short:  # a letter dropped or two swapped, not one added
            close = [w for w in close if len(w) >= len(word)]
        best = max(close, key=lambda w: stats.doc_freq(stem_of(w)), default=None)
        if best is None or (short and stats.doc_freq(stem_of(best)) < FREQUENT_SLIP * stats.n_docs):
            continue
        if writers and (written_by is None or written_by(best) < RATIO * writers[0]):
            continue
        found[word] = best
    return found


def written_respellings(index: AbstractIndex, text: str) -> dict[str, str]:
    """``respellings`` of ``text`` in ``index``'s papers, with each word's count of papers
    writing it (``naming.PhraseText.writers``), and each lower-case word the papers write
    in capitals as they do (``cased``)."""
    surface = index.surface_text()
    return cased(text, surface) | respellings(text, surface, index.keyword_stats(),
                                              lambda word: len(index.phrase_text().writers(word)))


def asked_respellings(index: AbstractIndex, text: str, lookup: bool) -> dict[str, str]:
    """A question's respellings: a term lookup's (``lookup``) ``lookup_respellings``, any
    other's ``written_respellings``; and a stored title typed with slips (``title_respellings``)."""
    titles = title_respellings(index, text)
    for typed in titles:  # its words are read as the title's, not one by one
        text = text.replace(typed, " ")
    return titles | (lookup_respellings if lookup else written_respellings)(index, text)


def title_respellings(index: AbstractIndex, text: str) -> dict[str, str]:
    """Each title ``text`` types with its capitals (``naming.typed_titles``) that is a stored
    paper's own title but for slips (each word that differs is ``one_slip`` from the title's,
    in the same order), read as that title: "Dynamic Routng Betwen Capsules" and "Attenton Is
    All You Need" had been refused, their papers shown as the nearest that do not answer (a
    run's). A word that is another word ("Restoration" for "Recognition") is no slip."""
    typed = {span: span.casefold().split() for span in typed_titles(text, index.surface_text().proper)}
    if not typed:
        return {}
    found: dict[str, str] = {}
    for paper in index.papers().values():
        if paper.title_derived or paper.title_model:
            continue
        words = paper.title.casefold().split()
        for span, asked in typed.items():
            if (len(asked) == len(words) and asked != words and span not in found
                    and all(a == w or one_slip(a, w) for a, w in zip(asked, words, strict=True))
                    and not all(a == w or _plural_of(a, w) for a, w in zip(asked, words, strict=True))):
                found[span] = paper.title  # not a plural alone: "Convex Neural Network models"
    return found


def lookup_respellings(index: AbstractIndex, text: str) -> dict[str, str]:
    """For a term lookup, which asks for its words as typed: ``respellings`` of the words no
    stored paper writes in any form alone ("Which paper mentions zebrafsh?" had been a
    false "no" beside the 5 papers writing "zebrafish"; a rare word some paper writes is
    that paper's, and stays as typed). Without ``written_by``, ``respellings`` reads only
    those (``_rare_writers``)."""
    return respellings(text, index.surface_text(), index.keyword_stats())


def _plural_of(one: str, other: str) -> bool:
    """Whether one word is the other with a plural ending ("network", "networks"; not
    "proces", "process")."""
    short, long = sorted((one, other), key=len)
    return long in (f"{short}s", f"{short}es")


def cased(text: str, surface: SurfaceText) -> dict[str, str]:
    """Each lower-case word of ``text`` that the papers write in capitals
    (``SurfaceText.capitals``: an acronym) mapped to them: {"svm": "SVM"}. "svm papers
    before 2000" had listed 11 papers and "SVM papers before 2000" 26: an acronym typed in
    capitals is also read spelled out ("support vector machines")."""
    return {word: word.upper() for word in dict.fromkeys(_LOWER_WORD.findall(text))
            if word in surface.capitals and word not in STOPWORDS}


def _rare_writers(word: str, surface: SurfaceText, stats: KeywordStats,
                  written_by: WrittenBy | None) -> tuple[int, ...] | None:
    """() when no abstract writes ``word`` in any form (its stem unknown); (n,) when it is
    written but rare: n papers at most RARE write it as typed (at least 1 for the ratio), the
    word being absent from the abstracts or its stem in at most RARE chunks (a check no
    costlier than a stem's count for a common word); None for a word the papers write."""
    if not stats.doc_freq(stem_of(word)):
        return ()
    if written_by is None or (word in surface.words and stats.doc_freq(stem_of(word)) > RARE):
        return None
    n = written_by(word)
    return (max(n, 1),) if n <= RARE else None


def cue_respellings(question: str, stats: KeywordStats) -> dict[str, str]:
    """The question's first word, when at most CUE_WRITTEN chunks write it (a typo of an
    abstract's own: "wich" is in one) and it is one slip from a word that opens a list
    question ("Wich", "Whcih", "Lsit"), mapped to that word as capitalised: {"Wich":
    "Which"}; as for a short topic word, a letter dropped or two swapped, not one added
    ("Lists", "Names" are words). Empty otherwise."""
    m = _FIRST_WORD.match(question)
    typed = m.group(1) if m else ""
    if (len(typed) < 4 or typed.lower() in CUES or typed.lower() in STOPWORDS
            or stats.doc_freq(stem_of(typed.lower())) > CUE_WRITTEN):
        return {}
    cue = next((c for c in CUES if len(typed) <= len(c) and one_slip(typed.lower(), c)), None)
    if cue is None:
        return {}
    return {typed: cue.capitalize() if typed[0].isupper() else cue}


def one_slip(typed: str, written: str, vowel: bool = False) -> bool:
    """Whether ``typed`` is ``written`` with one letter dropped or added, or two neighbours
    swapped ("hyperparamter", "optimizzation", "trasnformer"), or with ``vowel`` one vowel
    written for another ("adverserial"); not with a consonant changed ("livelihoods")."""
    if len(typed) == len(written):
        differ = [i for i, (a, b) in enumerate(zip(typed, written, strict=True)) if a != b]
        if vowel and len(differ) == 1:
            return typed[differ[0]] in VOWELS and written[differ[0]] in VOWELS
        return (len(differ) == 2 and differ[1] == differ[0] + 1
                and typed[differ[0]] == written[differ[1]] and typed[differ[1]] == written[differ[0]])
    short, long = sorted((typed, written), key=len)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1:] == short
                                               for i in range(len(long)))


def respelt(text: str, words: dict[str, str]) -> str:
    """``text`` with each of ``words`` written as its respelling."""
    for word, spelling in words.items():
        text = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", spelling, text)
    return text


def respelt_line(words: dict[str, str]) -> str:
    """The note saying how the topic was read: "“hyperparamter” is in no stored abstract:
    read as “hyperparameter”." ("" for none)."""
    if not words:
        return ""
    # a list cue ("Wich" as "Which") is read as the question's word, not the abstracts'
    titled = {w: s for w, s in words.items() if " " in w}  # ``title_respellings``
    cued = "; ".join(f"“{w}” as “{s}”" for w, s in words.items() if s.lower() in CUES)
    read = "; ".join(f"“{w}” as “{s}”" for w, s in words.items() if s.lower() not in CUES and w not in titled)
    return ("".join(f"Read “{w}” as the stored title “{s}”.\n" for w, s in titled.items())
            + (f"Read {cued}.\n" if cued else "")
            + (f"Read {read}, as the stored abstracts write it.\n" if read else ""))
