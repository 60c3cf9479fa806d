"""A label for an abstract given without a title (``derive_title``): the method it
introduces, else what the authors say they study, else its first sentence's subject.

The reader gives each untitled paper this label (``Paper.title_derived`` marks it), so
lists, citations and the UI always have a name to show.
"""

from __future__ import annotations

import re

from assistant.paper import split_sentences

_INTRO = re.compile(
    r"\b(?:propose|proposes|introduce|introduces|present|presents|develop|develops|"
    r"called|termed|named|dubbed|coin|[Oo]ur (?:new )?(?:algorithm|method|framework|approach|model))\b"
)
_NAMEISH = r"[A-Za-z][\w\-]*[A-Z][\w\-]*"
_ACRONYM_AFTER_PHRASE = re.compile(
    r"((?:[A-Z][\w\-]*\s+|(?:of|for|and|on|with|the|in|to|a)\s+){1,9}[A-Z][\w\-]*)\s*"
    r"\((" + _NAMEISH + r")\)"
)
_NAME_THEN_EXPANSION = re.compile(r"\b(" + _NAMEISH + r")\s*\(([A-Z][^()]{4,80})\)")
_NAME_AFTER_VERB = re.compile(
    r"\b(?:propose|proposes|introduce|introduces|present|presents|develop|develops)\s+"
    r"(?:[\w\-]+,?\s+){0,5}?(" + _NAMEISH + r")\b,?\s*(.*)"
)
_LATEX_WRAPPER = re.compile(r"\\(?:emph|textit|textbf|texttt|textsc)\{([^{}]*)\}")
_MATH = re.compile(r"\$[^$]*\$")
_SHORT_MATH = re.compile(r"[$\\{}^_]|\\[a-zA-Z]+")
_STUDY = re.compile(
    r"\b(?:[Ww]e|[Tt]his (?:paper|work|study))\s+(?:first\s+)?"
    r"(?:study|studies|investigate|investigates|show|shows|propose|proposes|present|presents|"
    r"introduce|introduces|analy[sz]e|characterize|address|addresses|focus on)\s+"
    r"(?:that\s+|whether\s+|how\s+)?(.+)"
)
_SUBJECT_STOP = re.compile(
    r"\s(?:is|are|was|were|has|have|remains?|plays?|poses?|aims?|refers?|excels?|offers?|"
    r"motivates?|encodes?|yields?|hinges?|critically)\b|,|:| \(|—"
)
_COMMON_ACRONYMS = {"LLM", "LLMs", "RL", "SGD", "GNN", "GNNs", "DNN", "DNNs", "AI", "ML"}



def _clip(phrase: str, words: int = 10) -> str:
    parts = phrase.strip(" .,;:").split()
    clipped = " ".join(parts[:words]).rstrip(",;:")
    return clipped + ("…" if len(parts) > words else "")


def _method_name(sentence: str) -> str | None:
    """``NAME: description`` for the method an intro sentence names, if any."""
    m = _ACRONYM_AFTER_PHRASE.search(sentence)
    if m and m.group(2) not in _COMMON_ACRONYMS:
        phrase = re.sub(r"^(?:(?:the|a|an|of|for|and|on|with|in|to)\s+)+", "", m.group(1), flags=re.I)
        return f"{m.group(2)}: {phrase.strip()}"
    m = _NAME_THEN_EXPANSION.search(sentence)
    if m and m.group(1) not in _COMMON_ACRONYMS:
        return f"{m.group(1)}: {m.group(2).strip()}"
    m = _NAME_AFTER_VERB.search(sentence)
    if m and m.group(1) not in _COMMON_ACRONYMS:
        rest = re.sub(r"^(?:which|that)\s+", "", m.group(2))
        if not rest:
            return m.group(1)
        joiner = ": " if re.match(r"(?:an?|the)\s", rest) else " "
        return f"{m.group(1)}{joiner}{_clip(rest, 8)}"
    return None


def derive_title(text: str) -> str:
    """A short label for an abstract without a title: the method it introduces where it names
    one (``"TCCM: Time-Conditioned Contraction Matching"``), else a topic phrase taken from
    what the authors say they study, else the first sentence's subject."""
    plain = _LATEX_WRAPPER.sub(r"\1", _LATEX_WRAPPER.sub(r"\1", text)).replace("**", "")
    plain = _MATH.sub(lambda m: _SHORT_MATH.sub("", m.group(0)) if len(m.group(0)) < 12 else "", plain)
    sentences = split_sentences(plain)
    for sentence in sentences:
        if _INTRO.search(sentence) and (name := _method_name(sentence)):
            return name
    for sentence in sentences:
        if m := _STUDY.search(sentence):
            topic = _clip(m.group(1), 10)
            break
    else:
        first = sentences[0] if sentences else plain
        topic = _SUBJECT_STOP.split(first, maxsplit=1)[0].strip(" .")
        topic = _clip(topic if len(topic.split()) >= 2 else first, 10)
    return (topic[:1].upper() + topic[1:]) or "Untitled abstract"
