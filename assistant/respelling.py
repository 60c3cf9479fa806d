"""A topic's misspelt words, read as the spelling the stored abstracts write.

A list or a count needs every paper to hold the topic's words, so one word that no abstract
writes ("hyperparamter") leaves nothing to list, a false "no". Such a word, and a word only a
paper or two write where a close spelling is written by a hundred times as many ("baysian"
beside "bayesian"), is read as that spelling, and the answer says so. A name (capitalised)
is never respelt: a thing the corpus does not name is for ``naming.unmentioned`` to point
out, not to be read as another thing.
"""

from __future__ import annotations

import re

from assistant.keywords import STOPWORDS, KeywordStats, SurfaceText, stem_of

RARE_PAPERS = 2  # a word this few papers write may be a typo the corpus shares
COMMONER = 100  # …when a close spelling is written by this many times as many papers
# Shorter words have real words one letter away too often: "salary" is no misspelt
# "salivary", nor "looming" "looping", "lessons" "lesions" or "powder" "power"
SHORTEST = 8
_LOWER_WORD = re.compile(r"(?<![\w-])[a-z]+(?![\w-])")


def respellings(topic: str, surface: SurfaceText, stats: KeywordStats) -> dict[str, str]:
    """Each lower-case word of ``topic`` that no stored paper writes, or only a few where a
    close spelling is far commoner, mapped to that spelling (the most written of the close
    ones): {"hyperparamter": "hyperparameter"}. Empty when every word is known."""
    found: dict[str, str] = {}
    for word in dict.fromkeys(_LOWER_WORD.findall(topic)):
        if len(word) < SHORTEST or word in STOPWORDS:
            continue
        papers = stats.doc_freq(stem_of(word))
        if papers > RARE_PAPERS:
            continue
        close = [w for w in surface.words
                 if abs(len(w) - len(word)) <= 1 and one_edit(word, w) and stem_of(w) != stem_of(word)]
        best = max(close, key=lambda w: stats.doc_freq(stem_of(w)), default=None)
        if best and stats.doc_freq(stem_of(best)) >= max(1, papers * COMMONER):
            found[word] = best
    return found


def one_edit(typed: str, written: str) -> bool:
    """Whether ``written`` is ``typed`` with one letter dropped, added, changed, or two
    neighbours swapped ("hyperparamter", "trasnformer", "optimzation")."""
    if typed == written:
        return False
    if len(typed) == len(written):
        differ = [i for i, (a, b) in enumerate(zip(typed, written, strict=True)) if a != b]
        return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1
                                    and typed[differ[0]] == written[differ[1]]
                                    and typed[differ[1]] == written[differ[0]])
    short, long = sorted((typed, written), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


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
    read = "; ".join(f"“{word}” as “{spelling}”" for word, spelling in words.items())
    return f"Read {read}, as the stored abstracts write it.\n"
