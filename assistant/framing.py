"""A question less its chat framing, read as the request it frames: a greeting or thanks
around it, a hedge before a count, "pull up everything … on X" for "find all papers on X",
a survey's topic named before "list the relevant papers".

Why: every reading after this one (the intent, the list's topic, the count) anchors on how
a request opens and on the papers' noun. A researcher's own words had missed them: "Roughly
how many papers … mention normalizing flows?" counted 0 papers of "Roughly how many per year
mention …" (70 as asked without it), "hey, could you pull up everything NeurIPS has on lottery
tickets? thanks!" was refused, and "I'm writing a survey on mixup … - can you list all the
relevant papers?" got 5 quoted papers, not its list (a researcher's run). The words framed
are a request's and a chat's, not a topic's: no abstract answers "hey" or "roughly".
"""

from __future__ import annotations

import re

_GREETING = re.compile(r"^\W*(?:(?:(?:hey|hi|hello|ok(?:ay)?|um+|good\s+(?:morning|afternoon|evening))"
                       r"(?:\s+(?:there|everyone|all|folks|team|again))?|quick\s+question)(?:\s*[,:;!.]+\s*"
                       r"|\s+(?=(?:how|what|which|who|why|when|where|can|could|would|is|are|do|does|please"
                       r"|list|show|find|give)\b)))+", re.I)
# thanks after the request's own end ("…? thanks!", "…, thank you"), not "applause and cheers"
_THANKS = re.compile(r"(?:(?<=[?.!,;])\s*-?\s*|\s+[-–—]\s*)\b(?:(?:many\s+)?thanks|thank\s+you|thx|cheers)"
                     r"(?:\s+(?:a\s+lot|so\s+much|very\s+much|in\s+advance))?[\s.!]*$", re.I)
_HEDGE = re.compile(r"^\W*(?:roughly|approximately|about|around|more\s+or\s+less|ballpark)\s*,?\s+"
                    r"(?=how\s+many\b)", re.I)
# a request's verb before the papers asked for: "pull up all papers on X" is "find …"
_FETCH = re.compile(r"\b(?:(?:pull|dig|bring|look)\s+up|fetch|get\s+me)\b"
                    r"(?=.*\b(?:papers?|works|abstracts)\b)", re.I)
# "everything NeurIPS has on X" (its papers on X), "everything you have about X", "everything on
# X", asked for by a request's verb or opening it; not "explain everything about its predictions"
_EVERYTHING = re.compile(r"(?P<lead>^\W*|\b(?:up|show(?:\s+me)?|give(?:\s+me)?|find|list|get(?:\s+me)?|fetch"
                         r"|see|want|need|gather|collect|compile)\s+)everything\s+(?:(?:that\s+)?"
                         r"(?P<who>(?:[\w-]+\s+){1,2}?)(?:has|have|holds?|published|stores?)\s+)?"
                         r"(?:on|about|regarding|related\s+to)\b", re.I)
_NO_ONE = re.compile(r"^(?:you|we|i|it|the\s+(?:store|corpus|collection|index)|this\s+\w+|there)\s*$", re.I)
# "I'm writing a survey on X - can you list all the relevant papers?": X's papers
_SURVEY = re.compile(r"^\W*(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+(?:writing|doing|preparing|working\s+on)"
                     r"\s+(?:a|an|my|our)\s+(?:survey|review|thesis|related[-\s]work(?:\s+section)?)"
                     r"\s+(?:on|about)\s+(?P<topic>[^.;:?!–—]+?)\s*(?:\s[-–—]\s|[.;:!–—]\s*|,\s*(?:so\s+|and\s+)?)"
                     r"(?P<ask>.*?)\b(?:all\s+)?(?:the\s+)?(?:relevant|related|key|main)\s+"
                     r"(?P<noun>papers|works|abstracts)\b(?P<rest>.*)$", re.I)


# what follows "the relevant papers" naming a topic of its own ("… the key papers on mode collapse")
_OWN_TOPIC = re.compile(r"\s+(?:on|about|regarding)\s+\w", re.I)


def unframed(question: str) -> str:
    """``question`` as the request it frames ("" stays "")."""
    text = _THANKS.sub("", _GREETING.sub("", question)).strip() or question.strip()
    text = _HEDGE.sub("", text)
    if (survey := _SURVEY.match(text)) and not _OWN_TOPIC.match(survey["rest"]):
        text = (f"{survey['ask']}all {survey['noun']} on {survey['topic'].strip()}"
                f"{survey['rest']}")
    text = _FETCH.sub("find", _EVERYTHING.sub(_all_papers_on, text))
    return text[:1].upper() + text[1:] if text != question.strip() else question


def _all_papers_on(found: re.Match[str]) -> str:
    who = (found["who"] or "").strip()
    said = f"all {who} papers on" if who and not _NO_ONE.match(who) else "all papers on"
    return found["lead"] + said
