"""An author's name as a filter: whether a paper's author list holds a name as a
researcher writes it ("Sara Sabour", "Bengio", "Y. Bengio", "sabour", "Schölkopf" or
"Scholkopf"), and the stored names nearest to one that none holds.

Why a module: a question ("Which papers are by Sara Sabour?"), ``--author`` and the
filter's Chroma ``where`` must pick the same papers, and "papers by X" had been searched
as a topic, a false "no" over the author's own papers.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

_AUTHOR_SEPARATORS = re.compile(r"\s*(?:[,;&]|\band\b)\s*", re.I)
_NAME_WORD = re.compile(r"[^\W\d_]+")


def name_words(name: str) -> tuple[str, ...]:
    """A name's words, case and accents folded ("J.-P. Vert" → j, p, vert)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", name)
                     if not unicodedata.combining(c))
    return tuple(_NAME_WORD.findall(folded.casefold()))


def author_names(authors: str) -> list[str]:
    """A paper's author list as its names ("A. B, C D and E F" → three)."""
    return [a for a in _AUTHOR_SEPARATORS.split(authors or "") if a.strip()]


def names_match(written: str, asked: str) -> bool:
    """Whether the stored name ``written`` is the name ``asked``: the same last name, and
    each other word asked for among its words (an initial: a word it begins)."""
    wanted, words = name_words(asked), name_words(written)
    if not wanted or not words or words[-1] != wanted[-1]:
        return False
    return all(w in words if len(w) > 1 else any(x.startswith(w) for x in words)
               for w in wanted[:-1])


def written_by(authors: str, asked: str) -> bool:
    """Whether one of ``authors`` (a paper's list) is the name ``asked``."""
    return any(names_match(name, asked) for name in author_names(authors))


def nearest_names(asked: str, author_lists: Iterable[str], n: int = 3) -> list[str]:
    """The stored names nearest to ``asked`` (for "did you mean"), by spelling."""
    names = {name.strip() for authors in author_lists for name in author_names(authors)}
    by_key = {" ".join(name_words(name)): name for name in names}
    close = difflib.get_close_matches(" ".join(name_words(asked)), list(by_key), n=n,
                                      cutoff=0.8)
    return [by_key[key] for key in close]
