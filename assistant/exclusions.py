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
from assistant.leaning import ASPECT_WORDS
from assistant.stated_years import PAPER, PAPERS

# "that do not use X", "which don't mention X", "but not X", "not using X", "excluding X",
# "except for X", "that are not about X" (not "other than X": "accuracy other than 2019
# benchmarks" is a comparison; nor "rather than X", which papers replacing X write)
_EXCLUDES = re.compile(
    r"(?:\s*,)?\s+(?:(?:(?:that|which)\s+)?(?:do|does|did)\s*(?:not|n['’]t)\s+"
    r"(?:use|mention|rely\s+on|involve|employ|apply|discuss|study|include)"
    r"|(?P<but>(?:but|and)\s+not)(?:\s+(?:using|mentioning|on|about))?"
    r"|(?P<is>(?:(?:that|which)\s+)?(?:are|is)\s*(?:not|n['’]t)\s+(?:about|on(?!\s+par\b)))"
    r"|(?P<gerund>not\s+(?:using|mentioning|involving)|excluding)|except(?:\s+for)?)"
    r"\s+(?P<excluded>[^?.!,;]+?)\s*(?=[?.!,;]|$)", re.I)
# ...opening a chat's fragment: "but not routing", "excluding Bayesian ones"
_OPENING = re.compile(r"^\W*(?:(?:and|but|so|then|now|ok(?:ay)?)\W+)*(?:only\s+)?(?:but\s+not|excluding"
                      r"|except(?:\s+for)?|not\s+(?:using|mentioning))\s+(?P<excluded>[^?.!,;]+?)"
                      r"\s*[?.!]*\s*$", re.I)
# the papers a question asks for, which an exclusion must follow with no clause of its own
# between ("Which papers find that CNNs do not rely on shape?" asks for a finding)
_PAPERS_NOUN = re.compile(rf"\b(?:{PAPERS}|{PAPER}s?|ones|them|those)\b", re.I)
_CLAUSE = re.compile(r"\b(?:that|whether|why|if|how|when|where)\b", re.I)
# "Which papers study excluding outliers?": a gerund a verb or a preposition takes is the topic
_TAKES = re.compile(r"\b(?:stud(?:y|ies)|uses?|consider|propose|examine|investigate|discuss|address"
                    r"|on|about|of|for|by|in|with|without)\s*$", re.I)
_LEAD = re.compile(r"^(?:(?:the|a|an|any|for|in|on|about|with|using|those|ones|papers?|works?"
                   r"|articles?|that|are|is)\s+)+", re.I)
_TAIL = re.compile(r"(?:\s+(?:papers?|ones?|methods?|at\s+all))+$", re.I)
MAX_EXCLUDED_WORDS = 5  # longer, it is a clause of its own, not a name to leave out
# a topic typed alone before it ("image segmentation but not medical"): papers are asked for
BARE_TOPIC_WORDS = 4
_ASKING = re.compile(r"^\W*(?:what|which|who|whom|whose|how|why|when|where|is|are|was|were|do|does"
                     r"|did|can|could|should|would|will|has|have|explain|summari[sz]e|compare"
                     r"|describe|define)\b", re.I)  # and what asks of contents ("Explain it but not…")
# what a bare topic may not be: a request's own words, or what it asks of an answer or a
# paper ("Give me a summary but not the details", "Show me the results but not the tables");
# a kind of paper may ("Find datasets but not ImageNet", a review's)
_KINDS = frozenset("method approach dataset model algorithm technique".split())
_NO_TOPIC = (frozenset(ASPECT_WORDS) | frozenset("show tell give find list me us something anything "
                                                 "example".split())) - _KINDS
# no words to leave out: places, numbers and ages ("but not the first one", "except the last
# two", "but not the older ones")
_PLACES = frozenset("""first second third last next previous one two three four five older newer
oldest newest earlier later recent""".split())


def stated_exclusion(text: str) -> tuple[str | None, str]:
    """The phrase ``text`` asks its papers not to write, and ``text`` without those words;
    (None, ``text``) when it states none: no papers asked for before it, nor a topic typed
    alone ("Which methods do not rely on labels?" asks of methods), a clause of its own
    between them (``_CLAUSE``), a gerund a verb takes (``_TAKES``), an author's ("by Hinton
    but not Bengio", "except those by X"), or a "phrase" of no content word or longer than
    MAX_EXCLUDED_WORDS. A chat's fragment may open with it ("but not routing")."""
    if (opening := _OPENING.match(text)) and (phrase := _phrase(opening.group("excluded"))):
        return phrase, ""
    m = _EXCLUDES.search(text)
    if not m:
        return None, text
    before = text[:m.start()]
    asked = list(_PAPERS_NOUN.finditer(before))
    between = re.sub(r"^\s*(?:that|which|where)\b", "", before[asked[-1].end():] if asked else "")
    bare = (len(before.split()) <= BARE_TOPIC_WORDS and not _ASKING.match(before)  # "X but not Y"
            and not (m.group("is") and not re.match(r"\W*(?:that|which)", m.group("is")))
            and any(_topical(w) for w in re.findall(r"\w+", before.lower())))
    # "Privacy is not on the agenda" says, asks for no papers; "GANs that are not about X" asks;
    # "Tell me about it but not the math", "Approaches that are not about X" name no topic
    if ((not asked and not bare) or _CLAUSE.search(between)  # "papers that use GANs": no clause
            or (m.group("gerund") and _TAKES.search(before))
            or (m.group("but") and re.search(r"\bby\s+\S+(?:\s+\S+){0,2}$", before)
                and not re.match(r"\s*(?:on|about|in|using|with)\b", text[m.end("but"):], re.I))):
        return None, text  # "by Hinton but not Bengio" excludes an author; "but not on X" a topic
    if (phrase := _phrase(m.group("excluded"))) is None:
        return None, text
    return phrase, f"{text[:m.start()]}{text[m.end():]}"


_STOPWORDS = frozenset(STOPWORDS)


def _topical(word: str) -> bool:
    """Whether a word of a bare topic names what papers are about: not a request's, nor what
    it asks of an answer (``_NO_TOPIC``), nor a stopword but a kind of paper ("methods")."""
    one = re.sub(r"(?<=[^s])s$|(?<=ch)es$|(?<=sh)es$", "", word)
    return one in _KINDS or (word not in _NO_TOPIC and one not in _NO_TOPIC and word not in _STOPWORDS)



def opens_with_exclusion(text: str) -> bool:
    """Whether ``text`` is a chat's fragment that only leaves papers out ("but not routing",
    "excluding Bayesian ones"): the list before narrowed by it."""
    return (m := _OPENING.match(text)) is not None and _phrase(m.group("excluded")) is not None


def _phrase(excluded: str) -> str | None:
    """The words to leave out, less the words framing them ("the ones on contextual
    bandits": contextual bandits); None for an author's ("by Goodfellow") or no words."""
    phrase = _TAIL.sub("", _LEAD.sub("", excluded.strip()))
    words = phrase.split()
    if (not words or len(words) > MAX_EXCLUDED_WORDS or words[0].lower() == "by"
            or all(w.lower() in STOPWORDS or w.lower() in _PLACES or w.isdigit() for w in words)):
        return None
    return phrase
