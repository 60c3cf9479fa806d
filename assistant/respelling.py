"""A topic's misspelt words, read as the spelling the stored abstracts write.

A list or a count needs every paper to hold the topic's words, so one word that no abstract
writes ("hyperparamter") leaves nothing to list, a false "no". Such a word is read as the
spelling one slip away (a letter dropped or doubled, two swapped) that the abstracts write,
and the answer says so. A letter changed for another is no slip read so: it turns one real
word into another ("constricted" into "constructed", "livelihoods" into "likelihoods"). A
name (capitalised) is never respelt: a thing the corpus does not name is for
``naming.unmentioned`` to point out, not to be read as another thing.
"""

from __future__ import annotations

import re

from assistant.keywords import STOPWORDS, KeywordStats, SurfaceText, stem_of

# Shorter words have real words one letter away too often: "salary" is no misspelt
# "salivary", nor "looming" "looping", "lessons" "lesions" or "powder" "power"
SHORTEST = 8
_LOWER_WORD = re.compile(r"(?<![\w-])[a-z]+(?![\w-])")


def respellings(topic: str, surface: SurfaceText, stats: KeywordStats) -> dict[str, str]:
    """Each lower-case word of ``topic`` that no stored paper writes, mapped to the most
    written spelling one slip away (``one_slip``): {"hyperparamter": "hyperparameter"}.
    Empty when every word is known."""
    found: dict[str, str] = {}
    for word in dict.fromkeys(_LOWER_WORD.findall(topic)):
        if len(word) < SHORTEST or word in STOPWORDS:
            continue
        if stats.doc_freq(stem_of(word)):  # a word some paper writes is no slip
            continue
        close = [w for w in surface.words if abs(len(w) - len(word)) <= 1 and one_slip(word, w)]
        best = max(close, key=lambda w: stats.doc_freq(stem_of(w)), default=None)
        if best:
            found[word] = best
    return found


def one_slip(typed: str, written: str) -> bool:
    """Whether ``typed`` is ``written`` with one letter dropped or added, or two neighbours
    swapped ("hyperparamter", "optimizzation", "trasnformer"); not with a letter changed."""
    if len(typed) == len(written):
        differ = [i for i, (a, b) in enumerate(zip(typed, written, strict=True)) if a != b]
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
    read = "; ".join(f"“{word}” as “{spelling}”" for word, spelling in words.items())
    return f"Read {read}, as the stored abstracts write it.\n"
