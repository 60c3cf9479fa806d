"""A term lookup: a question asking for the paper that holds given words ("Which paper
mentions shareboost?", "Is HotpotQA mentioned anywhere?", "papers that mention
isometries"), and the words it asks for.

Why a module: a lookup is answered from the papers holding its words, whatever the refusal
checks read (issue 36's "a term lookup is never refused"), so which questions are lookups,
and which of their words are the looked-up ones, is one reading with its own phrasings,
beside intent.py's others.
"""

from __future__ import annotations

import re

from assistant.keywords import STOPWORDS
from assistant.stated import PAPER

# A question that asks for the paper holding given words: the verb that asks, then the words.
_HOLDS = (r"(?:mentions?|mentioned|contains?|includes?|talks?\s+about|speaks?\s+(?:of|about)"
          r"|refers?\s+to|discuss(?:es)?|(?:uses?|has|have)(?=\s+the\s+(?:words?|terms?|phrases?)))")
LOOKUP_RE = re.compile(
    rf"^\s*(?:(?:which|what|how\s+many)\s+(?:one\s+|single\s+)?{PAPER}s?"
    rf"|(?:is|are)\s+there\s+(?:a|an|any|some)\s+{PAPER}s?\s+(?:that|which)"
    rf"|(?:does|do)\s+(?:any|a|an|some)\s+{PAPER}s?"
    rf"|(?:find|show\s+me|give\s+me)\s+(?:the|a|any)\s+{PAPER}s?\s+(?:that|which)"
    rf"|any\s+{PAPER}s?\s+(?:that|which)"
    # "papers that mention X", "Find all papers which contain X" (no "which" before them)
    rf"|(?:(?:list|find|show(?:\s+me)?|give(?:\s+me)?)\s+)?(?:all\s+|the\s+)?{PAPER}s?\s+(?:that|which))"
    rf"\s+{_HOLDS}\s+(?P<words>.+)$"
    # "Is HotpotQA mentioned anywhere?", "Is the word X used in any abstract?"
    rf"|^\s*(?:is|are|was|were)\s+(?P<said>.+?)\s+(?:mentioned|used|named|discussed|written)"
    rf"\s+(?:anywhere|at\s+all|in\s+(?:any|a|some|the)\s+(?:{PAPER}s?|titles?))\s*[?.!]*\s*$"
    rf"|^\s*in\s+which\s+{PAPER}s?\s+(?:does|do|is|are)\s+(?P<where>.+?)\s+"
    r"(?:appear|occur|come\s+up|mentioned|used)\s*[?.!]*\s*$",
    re.I)
_LOOKUP_WORD_RE = re.compile(r"\w[\w@+.\u2010-\u2014'-]*\w[+#]*|\w[+#]*")  # "C++", "C#"
_WORD_NOUNS = re.compile(r"^\s*(?:the\s+)?(?:(?:exact\s+)?(?:words?|terms?|phrases?|expressions?"
                         r"|names?|acronyms?|keywords?)\s+)", re.I)
_WHERE_SAID = re.compile(r"\s+(?:in\s+(?:its|the|their)\s+(?:abstracts?|titles?|text)|at\s+all"
                         r"|anywhere)\s*[?.!]*\s*$", re.I)


def lookup_terms(question: str) -> tuple[str, ...]:
    """The words a term lookup asks the paper holding ("Which paper mentions shareboost?" →
    shareboost), as written, stopwords left out; none when the question is no lookup."""
    m = LOOKUP_RE.search(question)
    if not m:
        return ()
    words = _WHERE_SAID.sub("", m.group("words") or m.group("where") or m.group("said"))
    words = _WORD_NOUNS.sub("", words)
    found = (w.strip(".'") for w in _LOOKUP_WORD_RE.findall(words))
    return tuple(dict.fromkeys(w for w in found if w and w.lower() not in STOPWORDS))
