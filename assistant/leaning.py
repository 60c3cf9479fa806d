"""Whether a chat question leans on the one before it ("does it scale?", "their results?",
"Any limitations?") or names a subject of its own ("What is dropout?"), and the words that
point back (``POINTS_BACK_RE``) or ask of the papers before (``ASPECT_WORDS``).

Why a module: the offline answer searches a leaning follow-up with the question before
(``FollowUps.joined``), and places.py, subjects.py and follow_up_phrases.py read the same
words; read once here, ``intent.read_intent`` keeps the reading as ``Intent.follow_up``.
"""

from __future__ import annotations

import re

from assistant.keywords import query_terms
from assistant.naming import named_phrases
from assistant.tuning import OWN_SUBJECT_TERMS, SHORT_WORDS

CONTINUES_RE = re.compile(r"^\W*(and|but|also|so|what about|how about|then)\b", re.I)
# "it", "the method": a paper of the last answer. "they", "this": often the question's own
# subject ("Compare the graph neural network papers: what do they study?").
POINTS_BACK_RE = re.compile(r"\b(it|its|the (paper|method|approach|model|authors?))\b", re.I)
MAY_POINT_BACK_RE = re.compile(
    r"\b(they|their|them|this|that|these|those|which one|the other|the (first|second|former|"
    r"latter))\b", re.I)
# What a follow-up asks of the papers before, no subject: a part of them ("What are some
# limitations?", "what about the datasets?"), words pointing back or judging ("other", "novel")
ASPECT_WORDS = """the a an this that these those it its they their them there so more less most least not some
any other others such each all both main key new novel different better best worse wrong unclear similar
related future limitation drawback weakness weaknesses strength finding result contribution novelty assumption
experiment dataset baseline metric author code summary conclusion application performance complexity runtime
evaluation approach approaches method idea motivation problem intuition implication advantage disadvantage
benefit challenge detail setup one missing lacking downside upside caveat alternative purpose reason
takeaway""".split()
ASPECT_NAMES = rf"(?:{'|'.join(ASPECT_WORDS)})s?\b"
# ...and a participle alone ("What is proposed?"), not one leading a name ("federated learning")
ASPECTS = (rf"(?:{ASPECT_NAMES}|\w+ed(?=\s*(?:[?.!,;:]|$|\s(?:in|as|by|for|to|with|from|on|of|at|the|an?"
           rf"|and|or|here|there|so)\b)))")
# "What is dropout?", "What is a GAN?": a thing asked of by its name, a subject of its own
# ("What is a downside?" asks of the answer before: its noun is an aspect's)
# ...nor "What is an example?": a word that also leads a name ("example selection", "cost
# function", "risk-sensitive RL") asks of the answer before when it stands alone
ALONE_WORDS = "example|role|catch|risk|cost|gap|solution|goal|issue|outcome|bottleneck"
ALONE_ASPECTS = rf"(?:{ALONE_WORDS})(?:e?s)?\W*$"
DEFINES_RE = re.compile(rf"^\W*(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+)?(?!{ASPECTS}|{ALONE_ASPECTS})"
                        r"[a-z]", re.I)


def leans_on_previous(question: str, unfiltered: str | None = None) -> bool:
    """Whether an offline follow-up is searched with the previous question: it continues it
    ("and how…"), points back ("does it scale?", "how does the method handle noisy labels?"),
    may point back ("their results?") with fewer than OWN_SUBJECT_TERMS keywords of its own, or
    is short, names nothing and has one keyword at most ("Any limitations?"). "What is a GAN?
    How is it used?" names its own subject (``DEFINES_RE``) unless "the paper"/"the authors"
    point back too; a filter's name (not in ``unfiltered``) is no keyword."""
    terms, defines = query_terms(question), DEFINES_RE.search(question)
    them = re.search(r"\b(?:them|these|those|they|their)\b", question, re.I)
    own = query_terms(MAY_POINT_BACK_RE.sub(" ", unfiltered if unfiltered is not None and them
                                            else question))  # "which one": no keyword of its own
    second = defines and re.search(r"(?:\band\b|[,;?])[^?]*\bits?\b", question, re.I) and not any(
        m.group(0).lower() not in ("it", "its") for m in POINTS_BACK_RE.finditer(question))
    return bool(CONTINUES_RE.search(question) or (POINTS_BACK_RE.search(question) and not second)
                or (MAY_POINT_BACK_RE.search(question) and len(own) < OWN_SUBJECT_TERMS)
                or (len(question.split()) <= SHORT_WORDS and not named_phrases(question)
                    and len(terms) < 2 and not defines))
