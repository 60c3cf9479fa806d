"""What a question asks its papers not to write: "papers on kernel methods that do not use
SVM", "GAN papers but not StyleGAN", "How many papers on active learning don't mention deep
learning?", "optimizers except Adam".

Why a module: the exclusion had been searched as part of the topic, so the list held the
very papers it excluded (a run: 76 kernel-method papers, quoting "Support Vector Machine
Classification with Indefinite Kernels") and the count counted papers matching "active
learning don't mention deep learning". It is read as a filter (``Filters.excluded``): a
paper whose title or abstract writes the phrase (in any case, plural or hyphenated) is left
out of lists, counts, trends and answers alike, and the answer names it.
"without" stays part of a topic ("learning without labels", "transformers without
attention" are written about in those words).
"""

from __future__ import annotations

import re

from assistant.keywords import STOPWORDS

# "that do not use X", "which don't mention X", "but not X", "not using X", "excluding X",
# "except for X" (not "other than X": "accuracy other than 2019 benchmarks" is a comparison)
_EXCLUDES = re.compile(
    r"(?:\s*,)?\s+(?:(?:(?:that|which)\s+)?(?:do|does|did)\s*(?:not|n['’]t)\s+"
    r"(?:use|mention|rely\s+on|involve|employ|apply|discuss|study|include)"
    r"|(?:but|and)\s+not(?:\s+(?:using|mentioning|on|about))?|not\s+(?:using|mentioning|involving)"
    r"|excluding|except(?:\s+for)?)"
    r"\s+(?P<excluded>[^?.!,;]+?)\s*(?=[?.!,;]|$)", re.I)
_LEAD = re.compile(r"^(?:(?:the|a|an|any|for|in|on|about|with|using)\s+)+", re.I)
_TAIL = re.compile(r"(?:\s+(?:papers?|ones?|methods?|at\s+all))+$", re.I)
MAX_EXCLUDED_WORDS = 5  # longer, it is a clause of its own, not a name to leave out


def stated_exclusion(text: str) -> tuple[str | None, str]:
    """The phrase ``text`` asks its papers not to write, and ``text`` without those words;
    (None, ``text``) when it states none, or the "phrase" has no content word or is longer
    than MAX_EXCLUDED_WORDS."""
    m = _EXCLUDES.search(text)
    if not m:
        return None, text
    phrase = _TAIL.sub("", _LEAD.sub("", m.group("excluded").strip()))
    words = phrase.split()
    if not words or len(words) > MAX_EXCLUDED_WORDS or all(w.lower() in STOPWORDS for w in words):
        return None, text
    return phrase, f"{text[:m.start()]}{text[m.end():]}"
