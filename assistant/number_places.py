"""Numbers in their places: a claim's figure must stand where its abstract puts it.

The claim checker (claims.py) once asked only that each number of a claim occur somewhere in
the cited abstracts. A model that swaps two figures of one sentence ("92.1% on CIFAR-10 and
75.3% on CIFAR-100" as "75.3% on CIFAR-10 and 92.1% on CIFAR-100"), or gives a result the
figure of another statement ("3 datasets … a 12% gain" as "a 3% gain"), keeps every word and
every number, and passed. Here each number is read with the content words beside it (up to
``WINDOW`` on each side, stopped by another number, a clause's punctuation, a word joining
two statements such as "and", or the sentence's end; in a sentence pairing numbers with
words "respectively", every word of the sentence, on either side), and a claim's number is
misplaced when the words beside it in the claim stand beside another number of the
abstracts, and more of them than beside any place the abstracts write the number itself. A
number whose words stand beside nothing (a paraphrase: "a 5% gain in accuracy" as "improves
accuracy by 5%") is left to the similarity the checker measures.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.corpus import split_sentences
from assistant.keywords import STOPWORDS, stem_of

NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split()) if w != "_"}
NUMBER_WORDS |= {"thirty": "30", "forty": "40", "fifty": "50", "hundred": "100"}
NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?![\d.])|\d+(?:\.\d+)?")
WINDOW = 3  # content words read on each side of a number
_TOKEN = re.compile(rf"{NUMBER.pattern}|[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|[,;:()]")
# what ends a number's words: a clause's punctuation and the words joining two statements
# ("76.1% top-1 and 92.9% top-5": "top-1" is the first's, a review's)
_JOINS = frozenset(",;:() and or but while whereas versus vs".split())
# a sentence pairing numbers with words elsewhere ("96.1% and 81.4% on A and B,
# respectively"): no number of it stands beside its own words, and none is misplaced
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_STOP = frozenset(STOPWORDS)


def as_digits(token: str) -> str:
    """A number as the checker compares it: "1,000" → "1000", "2.50" → "2.5", "seven" → "7"."""
    token = NUMBER_WORDS.get(token.lower(), token).replace(",", "")
    return token.rstrip("0").rstrip(".") if "." in token else token


def numbers(text: str) -> set[str]:
    """Numbers in ``text``, as digits (``as_digits``), those inside a name too ("CIFAR-10")."""
    found = [m.group() for m in NUMBER.finditer(text)]
    found += [w for w in re.findall(r"[a-z]+", text.lower()) if w in NUMBER_WORDS]
    return {as_digits(t) for t in found}


def _is_number(token: str) -> bool:
    return token[0].isdigit() or token.lower() in NUMBER_WORDS


@dataclass(frozen=True)
class Place:
    """One number as a sentence writes it, with the content words (stemmed) on each side."""

    number: str
    before: frozenset[str]
    after: frozenset[str]
    # in a sentence pairing numbers and words "respectively": its words are the sentence's
    paired: bool = False

    def shared(self, other: Place) -> int:
        """How many of this place's words stand on the same side of the other number (any
        word of a paired sentence, whose sides cannot be told)."""
        if other.paired:
            return len((self.before | self.after) & other.before)
        return len(self.before & other.before) + len(self.after & other.after)


def places(text: str) -> list[Place]:
    """Every number of ``text``, sentence by sentence, with the words beside it."""
    found = []
    for sentence in split_sentences(text) or [text]:
        paired = _RESPECTIVELY.search(sentence) is not None
        tokens = _TOKEN.findall(sentence)
        for i, token in enumerate(tokens):
            if _is_number(token):
                before, after = (_words(tokens), frozenset()) if paired else (
                    _side(reversed(tokens[:i])), _side(tokens[i + 1:]))
                found.append(Place(as_digits(token), before, after, paired))
    return found


def _words(tokens: Iterable[str]) -> frozenset[str]:
    """Every content word of ``tokens``, stemmed."""
    return frozenset(stem_of(t.lower()) for t in tokens
                     if not _is_number(t) and t.lower() not in _STOP and len(t) > 1 and t[0].isalpha())


def _side(tokens: Iterable[str]) -> frozenset[str]:
    """The first ``WINDOW`` content words of ``tokens``, up to a number or a join."""
    words: list[str] = []
    for token in tokens:
        lowered = token.lower()
        if _is_number(token) or lowered in _JOINS or len(words) == WINDOW:
            break
        if lowered not in _STOP and len(lowered) > 1:
            words.append(stem_of(lowered))
    return frozenset(words)


def misplaced(claim: str, abstracts: Iterable[str]) -> list[str]:
    """The claim's numbers whose words stand beside another number of the ``abstracts``, and
    more of them than beside any place the abstracts write the number itself."""
    theirs = [p for a in abstracts for p in places(a)]
    wrong = []
    for mine in places(claim):
        if mine.paired:  # the claim's own "respectively": its places cannot be told
            continue
        own = max((mine.shared(p) for p in theirs if p.number == mine.number), default=0)
        other = max((mine.shared(p) for p in theirs if p.number != mine.number and not p.paired),
                    default=0)
        if other > own and mine.number not in wrong:
            wrong.append(mine.number)
    return wrong
