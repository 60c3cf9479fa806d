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
from assistant.stated_years import PAPER
from assistant.tuning import LOOSE_WORDS

# A question that asks for the paper holding given words: the verb that asks, then the words.
_WORD_NOUN = r"(?=\s+the\s+(?:words?|terms?|phrases?))"  # "uses the word X", not "uses X"
_HOLDS = (r"(?:mentions?|mentioned|contains?|includes?|says?|said|talks?\s+about|speaks?\s+(?:of|about)"
          rf"|refers?\s+to|discuss(?:es)?|(?:uses?|has|have){_WORD_NOUN})")
# ...and as a paper's doing it, after the papers' noun: "papers mentioning X"
_HOLDING = (r"(?:mentioning|containing|including|saying|talking\s+about|speaking\s+(?:of|about)"
            rf"|referring\s+to|discussing|(?:using|with){_WORD_NOUN})")
LOOKUP_RE = re.compile(
    rf"^\s*(?:(?:which|what|how\s+many)\s+(?:one\s+|single\s+)?{PAPER}s?"
    rf"|(?:is|are)\s+there\s+(?:a|an|any|some)\s+{PAPER}s?\s+(?:that|which)"
    rf"|(?:does|do|did)\s+(?:any|a|an|some)\s+{PAPER}s?"
    # "papers that mention X", "any paper that says X", "Find all papers which contain X"
    rf"|(?P<bare>(?:(?:list|find|show(?:\s+me)?|give(?:\s+me)?)\s+)?(?:all\s+|any\s+|the\s+|a\s+)?"
    rf"{PAPER}s?\s+(?:that|which)))\s+{_HOLDS}\s+(?P<words>.+)$"
    # "papers mentioning X", "Find abstracts containing X"
    rf"|^\s*(?:(?:list|find|show(?:\s+me)?|give(?:\s+me)?)\s+)?(?:all\s+|any\s+|the\s+)?"
    rf"{PAPER}s?\s+{_HOLDING}\s+(?P<held>.+)$"
    # "Is HotpotQA mentioned anywhere?", "Is the word X used in any abstract?"
    rf"|^\s*(?:is|are|was|were)\s+(?P<said>.+?)\s+(?:mentioned|used|named|discussed|written)"
    rf"\s+(?:anywhere|at\s+all|in\s+(?:any|a|some|the)\s+(?:{PAPER}s?|titles?))\s*[?.!]*\s*$"
    rf"|^\s*in\s+which\s+{PAPER}s?\s+(?:does|do|is|are)\s+(?P<where>.+?)\s+"
    r"(?:appear|occur|come\s+up|mentioned|used)\s*[?.!]*\s*$",
    re.I)
# quotes, not apostrophes: "Bayes' rule and Occam's razor" quotes nothing
_QUOTED = re.compile(r"(?:[\"“‘]|(?<!\w)').+(?:[\"”]|[’'](?!\w))")
_LOOKUP_WORD_RE = re.compile(r"\w[\w@+.\u2010-\u2014'-]*\w[+#]*|\w[+#]*")  # "C++", "C#"
_WORD_NOUNS = re.compile(r"^\s*(?:the\s+)?(?:(?:exact\s+)?(?:words?|terms?|phrases?|expressions?"
                         r"|names?|acronyms?|keywords?)\s+)", re.I)
_WHERE_SAID = re.compile(r"\s+(?:in\s+(?:its|the|their)\s+(?:abstracts?|titles?|text)|at\s+all"
                         r"|anywhere)\s*[?.!]*\s*$", re.I)


def lookup_terms(question: str) -> tuple[str, ...]:
    """The words a term lookup asks the paper holding ("Which paper mentions shareboost?" →
    shareboost), as written, stopwords left out; none when the question is no lookup."""
    return tuple(dict.fromkeys(w for groups in lookup_alternatives(question)
                               for group in groups for w in group))


def lookup_groups(question: str) -> tuple[tuple[str, ...], ...]:
    """``lookup_terms`` in the groups "and" joins, all the alternatives' together
    (``lookup_alternatives``)."""
    return tuple(group for groups in lookup_alternatives(question) for group in groups)


def lookup_alternatives(question: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """A term lookup's alternatives, those "or" joins ("mention Tetris or chess": a paper
    holding either answers; a run had read "Tetris chess" and answered that no paper of the
    13.9k does, where 22 write one), each in the groups "and" joins, each group a phrase of
    its own ("mention both dropout and batch normalization": dropout, then batch
    normalization; a run's count had found the one paper writing "Dropout and Batch
    Normalization" together, where four write both); "and" alone between single words joins
    one term's ("research and development"); words in quotes are one group each. "either"
    only opens the alternatives, and what is asked "with or without" is no word to hold."""
    m = LOOKUP_RE.search(question)
    if not m:
        return ()
    words = _WHERE_SAID.sub("", next(filter(None, m.group("words", "held", "said", "where"))))
    words = _QUANTITY.sub(" ", _OPTIONAL.sub("", _WORD_NOUNS.sub("", words)))
    quoted = _QUOTED.search(words) is not None
    alternatives = [a for a in (_QUOTES_OR if quoted else _EITHER_OR).split(words) if a.strip()]
    # "LSTM or similar", "k-means or its variants", "dropout or not": the hedge asks for no word
    alternatives = [a for n, a in enumerate(alternatives) if n == 0 or not _HEDGE.match(a)]
    if len(alternatives) > 1 and not all(map(_looked_up, alternatives)):  # no word on a side
        alternatives = [" ".join(alternatives)]  # the hedges left out (a review's)
    if len(alternatives) > 1 and not re.search(r"\band\b|&", words):  # "GANs, VAEs, or flows"
        alternatives = [one for a in alternatives for one in a.split(",") if one.strip()]
    read = tuple(_looked_up_groups(one) for one in alternatives)
    # the looser phrasings look up a word or two, or words in quotes: "papers talking about
    # privacy in federated learning" asks for a topic's papers, not the phrase written
    loose = m.group("bare") or m.group("held") or m.group("said")
    terms = {w for groups in read for group in groups for w in group}
    if not all(read) or loose and len(terms) > LOOSE_WORDS and not quoted:
        return ()
    return read


# "Tetris or chess", "either C++ or Python": not "neither … nor", which asks the reverse
_EITHER_OR = re.compile(r"^\s*either\s+|\s*,?\s+or\s+(?=\S)", re.I)
_QUOTES_OR = re.compile(r"(?<=[\"”’'])\s*,?\s+or\s+(?=[\"“‘'])", re.I)  # "'Tetris' or 'chess'"
# what opens a hedge after "or", no alternative of its own (a review's: "LSTM or similar" had
# listed 958 papers, "CIFAR-10 or other datasets" 2,660)
_HEDGE = re.compile(r"^\s*(?:its|their|his|her|other|others|similar|related|such|the\s+like|more|less"
                    r"|fewer|not|so|any|some|whatever|alike|equivalents?)\b", re.I)
# "one or more GPUs": a quantity, no alternative
_QUANTITY = re.compile(r"\b(?:zero|one|two|three|\d+)\s+or\s+(?:more|fewer|less)\b", re.I)
# ", with or without GPUs": a word the asker does not mind held or not
_OPTIONAL = re.compile(r"\s*,?\s*\b(?:with\s+or\s+without|whether\s+or\s+not)\b[^,;?.!]*", re.I)


def _looked_up_groups(words: str) -> tuple[tuple[str, ...], ...]:
    """One alternative's groups (``lookup_alternatives``)."""
    quoted = _QUOTED.search(words) is not None
    parts = _QUOTES_EACH.findall(words) if quoted else _JOINED.split(words)
    # "research and development" is one term: "both", a comma, several quoted, a side of
    # several words ("dropout and batch normalization") or acronyms each ("GANs and VAEs") say
    # there are several
    several = len(parts) > 1 and (quoted or re.search(r"\bboth\b|,", words) is not None
                                  or any(len(_looked_up(part)) > 1 for part in parts)
                                  or all(re.search(r"[A-Z]\w*[A-Z]", part) for part in parts))
    return tuple(group for part in (parts if several else [words]) if (group := _looked_up(part)))


_JOINED = re.compile(r"\s*(?:,|&|\band\b|\bboth\b)\s*", re.I)
_QUOTES_EACH = re.compile(r"(?:[\"“‘]|(?<!\w)')([^\"”]+?)(?:[\"”]|[’'](?!\w))")  # "'dropout', 'batch norm'"


def _looked_up(words: str) -> tuple[str, ...]:
    found = (w.strip(".'") for w in _LOOKUP_WORD_RE.findall(words))
    return tuple(dict.fromkeys(w for w in found if w and w.lower() not in STOPWORDS))
