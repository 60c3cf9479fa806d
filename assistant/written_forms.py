"""How the stored papers write a compound word: joined ("finetuning"), hyphenated
("fine-tuning") or spaced ("fine tuning"); and a word's forms as asked (``written_forms``:
its singular and plural, its letters and digits joined or hyphenated).

Why a module: a topic is read in the words the user typed, and the cross-encoder and the
dense search read the spellings of one compound apart ("finetuning" is three word pieces to
them, "fine-tuning" two words): ``trends "finetuning"`` counted 43 papers of the 13.9k and
``trends "fine-tuning"`` 124. The compounds the papers write and the forms they write each
in are learnt here from the stored texts, so that a topic is read in the form most of its
papers write (``written_topic``), and an acronym's letters can be the initials of a joined
word's parts ("autoencoder" for the A and E of VAE: ``keywords.spellings``).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from os.path import commonprefix

from assistant.american import american
from assistant.corpus import Paper
from assistant.keywords import STOPWORDS, compounds, joined_parts, stem_of

JOINED, HYPHENATED, SPACED = "", "-", " "  # a compound's forms, by what stands between parts
# a looked-up word is also found written apart (``WrittenText.spaced_split``) when at most
# SPACED_RARE papers write it joined and SPACED_WRITERS or more write it apart
SPACED_RARE, SPACED_WRITERS = 2, 2
_SEPARATOR = r"(?P<sep>[-\u2010\u2011]|\s+|)"
_HYPHEN = re.compile(r"[-\u2010\u2011]")
_APOSTROPHE = re.compile("['’]")  # a word's apostrophe, written either way (``as_written``)
_PART_AFTER = re.compile(r"[-\u2010\u2011]\w")
_WORD = re.compile(r"[^\W\d_][^\W_]*")  # a word of letters first (no number, no "0-1")
_STOPS = frozenset(STOPWORDS)


@dataclass(frozen=True)
class WrittenText:
    """Every stored title and abstract in one lower-case string (hyphens kept), with the
    compounds they hyphenate (``splits``: a joined word's stem → how often each split of it
    is written, "finetun" → {("fine", "tuning"): 135, …}). Built once per paper cache."""

    text: str
    starts: list[int]  # where each paper's part of ``text`` begins
    splits: Mapping[str, Counter[tuple[str, ...]]] = field(default_factory=dict)
    # papers_writing's counts, each a scan of the whole text (a third of a second at 13.9k
    # papers), asked again by every reading of a topic
    _writing: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    _stems: dict[str, tuple[set[int], dict[str, set[int]]]] = field(
        default_factory=dict, compare=False, repr=False)
    _commonest: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    # spaced_split's answers: a lookup's words are split by term_holders, then again for the
    # list's quotes, each a scan of the text for its cuts
    _spaced: dict[str, tuple[str, str] | None] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, papers: Mapping[str, Paper]) -> WrittenText:
        text, starts = joined_parts(f" {paper.title.lower()} | {paper.text.lower()} \n"
                                    for paper in papers.values())
        splits: dict[str, Counter[tuple[str, ...]]] = {}
        for word, joined in compounds(text):  # once over the whole text: 2 s at 13.9k papers
            splits.setdefault(stem_of(joined), Counter())[tuple(_HYPHEN.split(word))] += 1
        return cls(text, starts, splits)

    def split_of(self, word: str) -> tuple[str, ...] | None:
        """The parts the papers most often hyphenate ``word`` (lower case) into, as its own
        letters ("finetuning" → ("fine", "tuning")), or None when no paper hyphenates it."""
        found = self.splits.get(stem_of(word))
        if not found:
            return None
        for split, _ in found.most_common():
            head = "".join(split[:-1])
            if word.startswith(head) and len(word) > len(head):
                at, cut = 0, []
                for part in split[:-1]:
                    cut.append(word[at:at + len(part)])
                    at += len(part)
                return (*cut, word[at:])
        return None

    def spaced_split(self, word: str) -> tuple[str, str] | None:
        """The two words of three letters or more, neither a stop word, the papers write a
        rare ``word`` (lower case) apart as ("honeybees" as "honey bees": R8's lookup had
        found the one paper of three writing it joined), or None. Only a word at most
        SPACED_RARE papers write joined, and apart by SPACED_WRITERS or more: a common
        word's pair is another phrase (C61: "keypoints" and "the key point of this paper",
        "everyday" and "every day", "standstill" and "cannot stand still")."""
        if word not in self._spaced:
            cuts = [(word[:i], word[i:]) for i in range(3, len(word) - 2)
                    if not {word[:i], word[i:]} & _STOPS]  # "notable" is no "not able"
            # a literal first, fast; the whole text scanned (``forms``) only for a cut it finds
            written = {cut: self.forms(cut) for cut in cuts if f"{cut[0]} {cut[1][:3]}" in self.text}
            best = max(written, key=lambda cut: written[cut][SPACED], default=None)
            self._spaced[word] = None if best is None or written[best][JOINED] > SPACED_RARE \
                or written[best][SPACED] < SPACED_WRITERS else best
        return self._spaced[word]

    def forms(self, parts: Sequence[str]) -> Counter[str]:
        """How many papers write the compound of ``parts`` (lower case) in each form
        (JOINED, HYPHENATED, SPACED; its last part with any ending of the same stem): a
        paper writing two forms counts for both."""
        stem = stem_of("".join(parts))
        last = commonprefix([parts[-1], stem_of(parts[-1])]) or parts[-1]
        # a literal first, which the regex engine finds fast (a look-behind first had made
        # each look-up a crawl of 0.7 s); the word's start and end are checked after
        pattern = re.compile(re.escape(parts[0]) + _SEPARATOR + "".join(
            re.escape(part) + r"(?P=sep)" for part in parts[1:-1]) + re.escape(last) + r"\w*")
        papers: dict[str, set[int]] = {JOINED: set(), HYPHENATED: set(), SPACED: set()}
        for m in pattern.finditer(self.text):
            before, after = self.text[m.start() - 1], self.text[m.end():m.end() + 2]
            if (before.isalnum() or before in "_-\u2010\u2011" or _PART_AFTER.match(after)
                    or stem_of(_HYPHEN.sub("", "".join(m.group(0).split()))) != stem):
                continue  # inside a word, or a part of a longer compound ("state-of-the-art")
            sep = m.group("sep")
            form = JOINED if not sep else SPACED if sep.isspace() else HYPHENATED
            papers[form].add(bisect.bisect_right(self.starts, m.start()))
        return Counter({form: len(found) for form, found in papers.items()})


    def papers_writing(self, prefix: str) -> int:
        """How many papers write a word beginning with ``prefix`` (lower case)."""
        if prefix not in self._writing:
            # the prefix looked for first, which the regex engine finds fast, and the word's
            # start checked after (``family_pattern``'s look-behind first had taken 0.3 s a
            # prefix over the 13.9k); each place the prefix stands is tried, as there
            pattern, found, at = re.compile(family_body(prefix)), set(), 0
            while m := pattern.search(self.text, at):
                if not m.start() or not _WORD_CHAR.match(self.text, m.start() - 1):
                    found.add(bisect.bisect_right(self.starts, m.start()))
                at = m.start() + 1
            self._writing[prefix] = len(found)
        return self._writing[prefix]

    def stem_writers(self, stem: str) -> tuple[set[int], dict[str, set[int]]]:
        """The papers writing a word of ``stem`` (its Porter stem is ``stem``), and of
        those writing it as a noun ("-ion(s)", "-sis", "-ses": "recognition" of
        "recognit") the papers writing each such word (``word_families``)."""
        if stem not in self._stems:
            writers: set[int] = set()
            nouns: dict[str, set[int]] = {}
            for m in re.finditer(family_pattern(stem) + r"\w*", self.text):
                word = m.group(0)
                if stem_of(word) != stem:
                    continue
                at = bisect.bisect_right(self.starts, m.start())
                writers.add(at)
                if _NOUN_RE.search(word):
                    nouns.setdefault(word, set()).add(at)
            self._stems[stem] = (writers, nouns)
        return self._stems[stem]

    def commonest_word(self, stem: str) -> str | None:
        """The word the papers most often write for ``stem`` (its Porter stem is ``stem``:
        "hippocampal" for "hippocamp", "psychiatry" for "psychiatri"), or None when none
        writes one."""
        if stem not in self._commonest:  # a scan of the whole text; a screen asks thrice
            start = stem[:-1] if stem.endswith("i") else stem  # Porter's "i" of a "y": "psychiatry"
            words = Counter(m.group(0) for m in re.finditer(family_pattern(start) + r"\w*", self.text)
                            if stem_of(m.group(0)) == stem)
            self._commonest[stem] = words.most_common(1)[0][0] if words else None
        return self._commonest[stem]


_NOUN_RE = re.compile(r"(?:ions?|s[ie]s)$")
_INFLECTION = re.compile(r"(?:ies|es|s|ing|ed|e)$")


def own_prefix(word: str) -> str | None:
    """What every word of ``word``'s own family begins with (lower case, American): the word
    without its plural, "-ing", "-ed" (a doubled consonant single) or final "e"
    ("transformers" → "transformer", "optimizers" → "optimizer"), when that is longer than
    its Porter stem, which folds in other words ("transform" also stems "transformation");
    None when it is not (the stem is the word's family: "networks" → "network")."""
    word = american(word)
    prefix = _INFLECTION.sub("", word) if len(word) > 4 and not word.endswith("ss") else word
    if word.endswith(("ing", "ed")) and len(prefix) > 2 and prefix[-1] == prefix[-2]:
        prefix = prefix[:-1]  # "modelling" is "model"'s, "planned" "plan"'s
    return prefix if len(prefix) > len(stem_of(word)) else None


def family_pattern(prefix: str) -> str:
    """The pattern of a word beginning with ``prefix`` (``own_prefix``, American), in British
    spelling too: a paper writing only "optimiser" writes "optimizer"'s word."""
    return _WORD_START + family_body(prefix)


def family_body(prefix: str) -> str:
    """``family_pattern`` less its check that the word starts there."""
    return re.sub(r"(?<=[iy])z", "[sz]", re.escape(prefix))


_WORD_START = r"(?<![^\W_])"  # no letter or digit before: a word's start
_WORD_CHAR = re.compile(r"[^\W_]")


def written_topic(topic: str, written: WrittenText) -> str:
    """``topic`` with each compound word in the form most of the papers writing it write
    (more of them than write the typed form): "finetuning" as "fine-tuning", "multi task"
    as "multi-task", "hyper-parameter" as "hyperparameter", "drop-out" as "dropout". A
    compound: a hyphenated word, a word the papers also hyphenate, or two words side by
    side whose joined word is a stored term (``known``) that papers hyphenate at their
    seam; two stopwords are none. The parts keep their typed letters."""
    out, at = [], 0
    for start, end, parts, typed in _compounds_of(topic, written):
        counts = written.forms([p.lower() for p in parts])
        best = max(counts, key=lambda form: (counts[form], form == typed))
        if counts[best] > counts[typed]:
            out += [topic[at:start], best.join(parts)]
            at = end
    return "".join(out) + topic[at:]


def _compounds_of(topic: str, written: WrittenText) -> list[tuple[int, int, tuple[str, ...], str]]:
    """Each compound of ``topic`` (``written_topic``): where it stands, its parts as typed,
    and its typed form."""
    found: list[tuple[int, int, tuple[str, ...], str]] = []
    hyphenated = list(re.finditer(r"\b\w+(?:[-\u2010\u2011]\w+)+\b", topic))
    for m in hyphenated:
        parts = tuple(_HYPHEN.split(m.group(0)))
        if not any(p.isdigit() for p in parts):  # not a range or a difference ("0-1", "t-1")
            found.append((m.start(), m.end(), parts, HYPHENATED))
    taken = [range(m.start(), m.end()) for m in hyphenated]
    words = [m for m in _WORD.finditer(topic)
             if not any(m.start() in span for span in taken)]
    for m in words:
        split = written.split_of(m.group(0).lower()) if m.group(0).lower() not in _STOPS else None
        if split:
            parts, at = [], m.start()
            for part in split:
                parts.append(topic[at:at + len(part)])
                at += len(part)
            found.append((m.start(), m.end(), tuple(parts), JOINED))
    for a, b in zip(words, words[1:], strict=False):
        pair = (a.group(0).lower(), b.group(0).lower())
        joined = "".join(pair)
        if (topic[a.end():b.start()].isspace() and not set(pair) <= _STOPS
                and pair in _seams(written, joined)):
            found.append((a.start(), b.end(), (a.group(0), b.group(0)), SPACED))
    return _apart(found)


def _seams(written: WrittenText, joined: str) -> set[tuple[str, str]]:
    """The two parts the papers hyphenate ``joined`` into, at each seam they write, the
    last part cut to the typed word's letters."""
    seams = set()
    for split in written.splits.get(stem_of(joined), ()):
        if len(split) == 2 and joined.startswith(split[0]):
            seams.add((split[0], joined[len(split[0]):]))
    return seams


def _apart(found: list[tuple[int, int, tuple[str, ...], str]]
           ) -> list[tuple[int, int, tuple[str, ...], str]]:
    """``found`` in order, none overlapping one before it."""
    kept: list[tuple[int, int, tuple[str, ...], str]] = []
    for item in sorted(found):
        if not kept or item[0] >= kept[-1][1]:
            kept.append(item)
    return kept


def compound_forms(word: str, written: WrittenText) -> list[str]:
    """``word`` as typed, joined and hyphenated, when it is a compound the papers hyphenate
    ("pretraining", "pre-training"; "non-convex", "nonconvex": a run's lookups had found
    each spelling's papers alone, 49 and 64 of the 112), and written apart when it is a rare
    word the papers write so (``spaced_split``: "honeybees", "honey bees"); the word alone
    otherwise."""
    spaced = None  # written apart only where the papers write it so ("on-line" is no "on line"; C61)
    if _HYPHEN.search(word):
        parts = tuple(_HYPHEN.split(word))
    elif split := written.split_of(word.lower()) or (spaced := written.spaced_split(word.lower())):
        cuts = [0, *accumulate(len(part) for part in split)]
        parts = tuple(word[a:b] for a, b in zip(cuts, cuts[1:], strict=False))
    else:
        return [word]
    if len(parts) < 2 or any(not part or part.isdigit() for part in parts):
        return [word]
    apart = [" ".join(parts)] if spaced else []
    return list(dict.fromkeys([word, "".join(parts), "-".join(parts), *apart]))


# a looked-up word the keyword index cannot hold: the symbols "C++" or "F#" write, no term
# of the tokenizer's (a run's: "Which paper mentions C++?" quoted a paper on ResNets)
SYMBOLS = re.compile(r"\w[+#]|[+#]\w")


def typed_pattern(word: str) -> re.Pattern[str]:
    """A looked-up word as a paper writes it, in any case and not inside a longer word: one
    with symbols as typed ("C++", not "C++11"), any other in its ``written_forms``."""
    body = re.escape(word) if SYMBOLS.search(word) else as_written(word)
    return re.compile(rf"(?<![\w+#]){body}(?![\w+#])", re.I)


def as_written(word: str) -> str:
    """A pattern for ``word`` as asked, in any of its ``written_forms``, an apostrophe as
    either ("Rubik's" as "Rubik’s": R8's lookup had found one of the two papers)."""
    forms = sorted(written_forms(word), key=len, reverse=True)
    return "(?:" + "|".join(_APOSTROPHE.sub("['’]", re.escape(form)) for form in forms) + ")"


def written_forms(word: str) -> set[str]:
    """``word`` in the singular and the plural, each joined at a letter-digit boundary as
    written, by a hyphen or by nothing (``joined_forms``)."""
    return {form for joined in joined_forms(word) for form in number_forms(joined)}


_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])-?(?=\d)|(?<=\d)-?(?=[^\W\d_])")


def joined_forms(word: str) -> set[str]:
    """``word`` with its letters and digits joined by a hyphen or by nothing: "ResNet50",
    "ResNet-50" (BM25 reads the first as one word and the second as two: "ResNet50" had
    found 11 papers, "ResNet-50" 40); a word of no such boundary alone."""
    if not _LETTER_DIGIT.search(word):
        return {word}
    return {_LETTER_DIGIT.sub(joint, word) for joint in ("", "-")} | {word}


# Fields and mass nouns whose "-ics" is no plural ending (a review found "heuristics",
# "metrics", "characteristics" read as singulars too: 151 papers of the 334 writing either)
FIELDS_IN_ICS = frozenset(
    "dynamics physics statistics robotics genomics proteomics economics mathematics "
    "linguistics mechanics optics kinematics electronics informatics analytics ethics "
    "politics semantics graphics logistics acoustics aesthetics thermodynamics biomechanics "
    "neuroeconomics psychophysics econometrics bioinformatics photonics pragmatics "
    "phonetics athletics".split())


def number_forms(word: str) -> set[str]:
    """``word`` in the singular and the plural: "map" and "maps", "ontology" and
    "ontologies", "matrix" and "matrices", "analysis" and "analyses", and the Latin and
    Greek ones: "hippocampus" and "hippocampi", "polyhedron" and "polyhedra", "datum" and
    "data" (their stems differ: "hippocampi" had found no paper of the 34 writing the
    singular). A field's name ending in "ics" (``FIELDS_IN_ICS``: "dynamics", "physics",
    "robotics") is no plural: no singular is made of it ("Which papers mention dynamics?"
    had listed every "dynamic programming" paper); "heuristics" and "metrics" are plurals."""
    forms = {word, word + "s", word + "es"}
    lower = word.lower()
    for one, many in (("y", "ies"), ("ix", "ices"), ("ex", "ices"), ("is", "es"),
                      ("us", "i"), ("on", "a"), ("um", "a")):
        if len(word) > 4 and lower.endswith(many):
            forms.add(word[:len(word) - len(many)] + one)
        if len(word) > 3 and lower.endswith(one):
            forms.add(word[:len(word) - len(one)] + many)
    # a plural's singular ("flows", "views" too), but never from "news", "class", "bias",
    # "axis", "this" (review), nor "dynamics"
    if (len(word) > 3 and lower.endswith("s") and not lower.endswith(("ss", "us", "is", "news"))
            and lower.split("-")[-1] not in FIELDS_IN_ICS):
        forms.add(word[:-2] if lower.endswith(("ches", "shes", "xes", "sses")) else word[:-1])
    return forms


_NETWORKS = re.compile(r"(?<=\w\s)(N|n)etwork(s?)\b")


def short_forms(phrasing: str) -> list[str]:
    """``phrasing`` with each "network(s)" after another word written "net(s)", the field's
    short form ("Generative Adversarial Nets", "neural nets"), or none when it has none: the
    2014 paper naming GANs writes only "adversarial nets", and no GAN count had held it."""
    short = _NETWORKS.sub(lambda m: f"{m[1]}et{m[2]}", phrasing)
    return [short] if short != phrasing else []
