"""An author's name as a filter: whether a paper's author list holds a name as a
researcher writes it ("Sara Sabour", "Bengio", "Y. Bengio", "sabour", "Schölkopf" or
"Scholkopf", "Yann LeCun" or "Yann Le Cun"), or several ("Hinton and LeCun"), and the
stored names nearest to one that none holds.

Why a module: a question ("Which papers are by Sara Sabour?"), ``--author`` and the
filter's Chroma ``where`` must pick the same papers, and "papers by X" had been searched
as a topic, a false "no" over the author's own papers.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import islice
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nicknames import NickNamer


_AUTHOR_SEPARATORS = re.compile(r"\s*(?:[,;&]|\band\b)\s*", re.I)
_NAME_WORD = re.compile(r"[^\W\d_]+")
# what ends a name without being its family name: "Hal Daumé III", "Jr."
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
# the particles of a family name, written in lower case before it ("Mihaela van der
# Schaar", "Nando de Freitas"); capitalised, such a word may be a given name ("Le Song")
PARTICLES = ("van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "le", "la",
             "dos", "das", "bin", "al", "ter", "ten")
_PARTICLE_BEFORE = re.compile(rf"\b(?:{'|'.join(PARTICLES)})\s+(?=\w)")
# the second spelling of a name that writes one of these: "Jürgen" as "Juergen", "Søren" as
# "Soeren"
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue",
                          "ø": "oe", "Ø": "Oe"})
# the letters NFKD leaves whole, as a researcher without them types them: "Łukasz" is
# "Lukasz", "Søren" "Soren", "Đorđe" "Dorde" (NFKD folds "é" to "e", not "ł" to "l")
_UNDECOMPOSED = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
                               "ð": "d", "Ð": "D", "ħ": "h", "Ħ": "H", "ı": "i", "ß": "ss",
                               "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "þ": "th",
                               "Þ": "Th"})

# an accent as TeX writes it on its letter (\"o, \"{o}, {\'e}, \c{c}; not \cdot), or as a
# PDF's text gives it, a spacing mark before the letter ("Nystr¨om", "R´enyi"): 57 and 14
# of the 1987–2021 abstracts, whose words they had cut in two ("nystr", "om")
_TEX_ACCENT = re.compile(r"\{?\\([\"'`^~=.]|[uvHck](?=\{))\{?([A-Za-z])\}?\}?")
_SPACING_ACCENT = re.compile("([\u00a8\u00b4\u02dc\u02c6\u00b8\u02d8\u02c7\u02dd])([A-Za-z])")
# each accent's combining mark, by TeX's command and by the spacing mark
_COMBINING = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303",
              "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
              "c": "\u0327", "k": "\u0328", "\u00a8": "\u0308", "\u00b4": "\u0301",
              "\u02dc": "\u0303", "\u02c6": "\u0302", "\u00b8": "\u0327", "\u02d8": "\u0306",
              "\u02c7": "\u030c", "\u02dd": "\u030b"}


def typeset_accents(text: str) -> str:
    """``text`` with each accent TeX or a PDF's spacing mark writes set on its letter:
    "Nystr\\"{o}m" and "Nystr¨om" as "Nyström", "R\\'enyi" and "R´enyi" as "Rényi"."""
    def on_letter(m: re.Match[str]) -> str:
        return m.group(2) + _COMBINING[m.group(1)]
    if "\\" in text:
        text = _TEX_ACCENT.sub(on_letter, text)
    if not text.isascii():
        text = unicodedata.normalize("NFC", _SPACING_ACCENT.sub(on_letter, text))
    return text


def plain_letters(text: str) -> str:
    """``text`` in plain letters, its accents dropped (TeX's and a PDF's too:
    ``typeset_accents``) and the letters NFKD keeps whole spelled out: "Daumé" as "Daume",
    "Łukasz" as "Lukasz", "nyström" and "Nystr\\"{o}m" as "nystrom". A name and a topic
    word alike are written each way in abstracts, and typed either way."""
    text = typeset_accents(text)
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSED))
    return "".join(c for c in text if not unicodedata.combining(c))


@lru_cache(maxsize=1 << 17)
def name_words(name: str) -> tuple[str, ...]:
    """A name's words, case and accents folded, lower-case particles and suffixes left out
    ("J.-P. Vert" → j, p, vert; "Hal Daumé III" → hal, daume; "Mihaela van der Schaar" →
    mihaela, schaar; "ŁUKASZ Kaiser" → lukasz, kaiser). Cached: a filter tests every stored
    name."""
    words = _NAME_WORD.findall(plain_letters(_PARTICLE_BEFORE.sub("", name)).casefold())
    while len(words) > 1 and words[-1] in _SUFFIXES:
        words.pop()
    return tuple(words)


def spellings(name: str) -> tuple[tuple[str, ...], ...]:
    """``name_words`` of a name and, when it writes an umlaut, of its German spelling too
    ("Jürgen" is "Jurgen" and "Juergen"; "Xue" is not "Xu")."""
    german = name.translate(_UMLAUTS)
    return (name_words(name),) if german == name else (name_words(name), name_words(german))


def _initials(word: str) -> bool:
    """Whether a word of a name is initials only ("Y.", "G", "J.-P.")."""
    letters = name_words(word)
    return bool(letters) and all(len(letter) == 1 for letter in letters)


def _dotted(word: str) -> str:
    return f"{word}." if len(word) == 1 else word


# "Hinton, Geoffrey", "Hinton, Geoffrey E.": a family name, a comma, a given name (not an
# initial) and its initials; or two family names ("Hinton, Bengio"): ``name_readings``
_FAMILY_THEN_GIVEN = re.compile(r"^\s*(?P<family>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,2})"
                                r"\s*,\s*(?P<given>[^\W\d_][\w'’-]+(?:\s+[^\W\d_]\.?)*)\s*$")


@lru_cache(maxsize=1 << 10)  # an author filter reads it once for each paper (``written_by``)
def name_readings(asked: str) -> tuple[str, ...]:
    """The ways a name ``asked`` is read: ``given_first``'s, and for "Hinton, Geoffrey"
    also "Geoffrey Hinton". The comma may part two names ("Hinton, Bengio") or a family
    name from its given name; read both ways, the wrong reading seldom names anyone (it
    does where both are common family names: "Wang, Li" is also a paper of a Wang and a
    Li). "Hinton, Geoffrey" had found no paper (Hinton and someone named Geoffrey). Names
    joined by "or" are each a reading: "Bengio or LeCun" had been Bengio alone."""
    if len(either := re.split(r"\s+or\s+", asked)) > 1:  # "Bengio or LeCun": either one's
        return tuple(reading for one in either for reading in name_readings(one))
    m = _FAMILY_THEN_GIVEN.match(asked)
    return (given_first(asked), *([f"{m['given']} {m['family']}"] if m else []))


@lru_cache(maxsize=1 << 10)
def given_first(asked: str) -> str:
    """A name asked family name first, as a bibliography writes it, in the order the stored
    names have, given names first: "LeCun, Y." → "Y. LeCun", "Hinton G. E." → "G. E.
    Hinton", "Bengio, Y. and LeCun, Y." → "Y. Bengio and Y. LeCun"; any other ``asked``
    as it is. Why: the comma had made "Y." a second name, and a family name of one letter
    is none (``names_match``), so each such question found no paper."""
    if _FAMILY_THEN_GIVEN.match(asked):  # "Hinton, Geoffrey E.": both readings kept
        return asked
    names: list[str] = []
    moved = author_names(asked) != _as_split(asked)
    for name in author_names(asked):  # "Hinton G" is "G. Hinton" there already
        words = name.split()
        if names and all(_initials(w) for w in words) and not any(
                _initials(w) for w in names[-1].split()):  # "LeCun, Y."
            names[-1] = " ".join([*map(_dotted, words), names[-1]])
            moved = True
            continue
        lead = len(words)
        while lead > 1 and _initials(words[lead - 1]):
            lead -= 1
        if lead < len(words) and not any(_initials(w) for w in words[:lead]):  # "Hinton G."
            words = [*map(_dotted, words[lead:]), *words[:lead]]
            moved = True
        names.append(" ".join(words))
    return " and ".join(names) if moved else asked


@lru_cache(maxsize=1 << 15)
def author_names(authors: str) -> tuple[str, ...]:
    """A paper's author list as its names ("A. B, C D and E F" → three), each one written
    family name first with bare initials, as PubMed writes them, given first: "Smith J" is
    "J. Smith" (a run's own CSV of such names had no author anyone could ask for)."""
    return tuple(_SURNAME_INITIALS.sub(_given_first, a) for a in _as_split(authors))


def person_key(name: str) -> tuple[str, ...]:
    """What one person's spellings share when they differ only in a middle name written
    whole or as its initial: (carl, e, rasmussen) of "Carl E. Rasmussen" and "Carl Edward
    Rasmussen". A name written without its middle ("Carl Rasmussen") keeps its own: it may
    be someone else."""
    words = name_words(name)
    return words if len(words) < 3 else (words[0], *(w[0] for w in words[1:-1]), words[-1])


def people_counts(author_lists: Iterable[str]) -> Counter[str]:
    """Papers per person over ``author_lists`` (each a paper's authors), one person's
    spellings counted together (``person_key``) under the spelling most of them write (the
    longer on a tie): "Who wrote the most papers about Gaussian processes?" had named Carl
    E. Rasmussen (9) and Carl Edward Rasmussen (8) below Manfred Opper (14; R6)."""
    spelt: dict[tuple[str, ...], Counter[str]] = {}
    for authors in author_lists:
        own: dict[tuple[str, ...], str] = {}  # a person once a paper, however spelt there
        for name in author_names(authors):
            own.setdefault(person_key(name), name)
        for key, name in own.items():
            spelt.setdefault(key, Counter())[name] += 1
    return Counter({max(names, key=lambda n: (names[n], len(n))): sum(names.values())
                    for names in spelt.values()})


def _as_split(authors: str) -> tuple[str, ...]:
    """A list of names split at its separators, each as written."""
    return tuple(a for a in _AUTHOR_SEPARATORS.split(authors or "") if a.strip())


# "Smith J", "van Dijk JP", "Hoang NT": one capital, or two or three with no vowel (not
# "Xingjian SHI", "Aming WU", a family name in capitals, nor "John Smith III", "Joseph K J")
_SMALL_WORD = r"[^\W\d_][\w'’-]*[a-z][\w'’-]*"  # a word of a name, with a small letter
_SURNAME_INITIALS = re.compile(rf"^\s*(?P<family>{_SMALL_WORD}(?:\s+{_SMALL_WORD})?)"
                               r"\s+(?!(?:II|III|VII|VIII|JR|SR|MD|PHD|DVM)\s*$)"
                               r"(?P<given>[A-Z]|[B-DF-HJ-NP-TV-XZ]{2,3})\s*$")


def _given_first(m: re.Match[str]) -> str:
    return " ".join(f"{c}." for c in m.group("given")) + " " + m.group("family")


def split_authors(authors: str) -> list[str]:
    """Author names from one field: "A. One, B. Two", "One, A.; Two, B." or "A and B"."""
    authors = " ".join(authors.split())
    if not authors:
        return []
    if ";" in authors:
        parts = authors.split(";")
    elif re.search(r"\sand\s", authors):
        parts = re.split(r",?\s+and\s+", authors)
    else:
        parts = re.split(r",|\s+&\s+", authors)
    return [p.strip() for p in parts if p.strip()]


def short_authors(authors: str, most: int = 3) -> str:
    """Up to ``most`` names, else the first one and "et al.", for one-line source lists."""
    names = split_authors(authors)
    return ", ".join(names) if len(names) <= most else f"{names[0]} et al."


def _same_word(one: str, other: str) -> bool:
    """The same given name, or one the other's initial ("Whye" and "W.")."""
    return one == other or (min(len(one), len(other)) == 1 and one[0] == other[0])


def _family(words: tuple[str, ...], asked: tuple[str, ...]) -> tuple[int, int] | None:
    """How many last words of ``words`` and of ``asked`` spell one family name ("Le Cun"
    and "LeCun" alike), or None when they spell none."""
    for taken in (3, 2, 1):  # the most of the name asked: "Shalev-Shwartz" is one family name
        for size in (3, 2, 1):
            if (len(words) >= size and len(asked) >= taken
                    and "".join(words[-size:]) == "".join(asked[-taken:])):
                return size, taken
    return None


def names_match(written: str, asked: str) -> bool:
    """Whether the stored name ``written`` is the name ``asked``, in any of their
    ``spellings``: the same family name, the same first name or its initial when both
    give one, and each middle name asked among the stored middle names when it has any
    ("Yee Whye Teh" is "Yee W. Teh", "Geoffrey E. Hinton" is "Geoffrey Hinton"; "B.
    Lovelace" is not "Ada Lovelace")."""
    return any(_words_match(words, wanted)
               for words in spellings(written) for wanted in spellings(asked))


def _words_match(words: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
    if not wanted or not words or len(wanted[-1]) < 2:
        return False
    family = _family(words, wanted)
    if family is None:
        return False
    given, asked_given = words[:-family[0]], wanted[:-family[1]]
    if not asked_given or not given:
        return True
    if not _same_word(given[0], asked_given[0]):
        return False
    middles = given[1:]
    if not middles:  # "Geoffrey E. Hinton" is "Geoffrey Hinton"; "M. I. Jordan" not "Matt Jordan"
        return len(asked_given) == 1 or given[0] == asked_given[0]
    return all(any(_same_word(m, w) for m in middles) for w in asked_given[1:])


def written_by(authors: str, asked: str) -> bool:
    """Whether ``authors`` (a paper's list) holds every name ``asked`` gives ("Hinton",
    "Hinton and LeCun", "LeCun, Y.", "Hinton, Geoffrey": ``name_readings``)."""
    names = author_names(authors)
    return any(all(any(names_match(name, one) for name in names) for one in author_names(reading))
               for reading in name_readings(asked))


def people_named(asked: str, author_lists: Iterable[str]) -> list[tuple[str, int]]:
    """The stored people one name ``asked`` without a given name matches ("Bengio": Yoshua
    Bengio and Samy Bengio), each as its most written spelling with its count of papers,
    most papers first; [] when ``asked`` gives a given name or several names. People are
    told apart by their first given name; one written as an initial ("Y. Bengio") is the
    one person of that initial when there is one."""
    names = author_names(asked)
    if len(names) != 1 or len(name_words(names[0])) != 1:
        return []
    papers: dict[tuple[str, str], set[int]] = {}
    spelled: dict[tuple[str, str], Counter[str]] = {}
    for i, authors in enumerate(author_lists):
        for name in author_names(authors):
            words = spellings(name)[-1]  # "Jürgen" as "Juergen" writes it
            if len(words) > 1 and names_match(name, names[0]):
                person = (words[0], words[-1])
                papers.setdefault(person, set()).add(i)
                spelled.setdefault(person, Counter())[name.strip()] += 1
    for person in [p for p in papers if len(p[0]) == 1]:  # "Y. Bengio": Yoshua's, if his alone
        whole = [p for p in papers if len(p[0]) > 1 and p[0][0] == person[0] and p[1] == person[1]]
        if len(whole) == 1:
            papers[whole[0]] |= papers.pop(person)
            spelled[whole[0]] += spelled.pop(person)
    people = [(spelled[p].most_common(1)[0][0], len(found)) for p, found in papers.items()]
    return sorted(people, key=lambda person: (-person[1], person[0]))


def nearest_names(asked: str, author_lists: Iterable[str], n: int = 3) -> list[str]:
    """The stored names nearest to ``asked`` (for "did you mean"): first those of its family
    name whose given name the typed one is a nickname of by the ``nicknames`` table, any of
    its forms ("Mike Jordan" → Michael I. Jordan; offered, never read so: ``by_nickname``),
    then by the whole name, else by the family name alone ("Schmidhubr" → Jürgen Schmidhuber)."""
    names = {name.strip() for authors in author_lists for name in author_names(authors)}
    by_key = {" ".join(name_words(name)): name for name in names}
    wanted = name_words(asked)
    fuller = _full_names(wanted[0]) if len(wanted) == 2 else frozenset()
    kin = sorted(name for key, name in by_key.items()
                 if key.split()[0] in fuller and key.rsplit(" ", 1)[-1] == wanted[-1])
    close = difflib.get_close_matches(" ".join(wanted), list(by_key), n=n, cutoff=0.8)
    if kin or close or not wanted:
        return list(dict.fromkeys([*kin, *(by_key[key] for key in close)]))[:n]
    by_family: dict[str, list[str]] = {}
    for key, name in by_key.items():
        by_family.setdefault(key.rsplit(" ", 1)[-1], []).append(name)
    families = difflib.get_close_matches(wanted[-1], list(by_family), n=n, cutoff=0.8)
    return [name for family in families for name in sorted(by_family[family])][:n]


def _family_keys(words: tuple[str, ...]) -> set[str]:
    """The spellings of a name's family name ``_family`` compares: its last one, two and
    three words joined ("LeCun" for "Yann Le Cun")."""
    return {"".join(words[-size:]) for size in (1, 2, 3) if len(words) >= size}


# Stored papers a family name must have to be read as an author on its own after "from"
NAME_PAPERS = 5
# Abstracts that may write a word of a name no stored paper has, for it to be read as a name
# all the same (``AuthorBook.may_name``): a stray "Ian" or "Zzz", not "processes". By hand.
UNWRITTEN_PAPERS = 2


class AuthorBook:
    """The stored papers' author lists, asked whether a name a question writes is one of
    their authors (``holds``).

    Why: "papers from Hinton" names an author where "papers from Computer Vision" names a
    field, and "papers by sara sabour on capsules" an author where "papers by hand on
    graphs" names none; the words alone cannot tell them apart, the stored names can. A
    book is made once per read of the store (``PaperCatalog.author_book``), so a question
    read with it is read anew when the store changes (it is compared by identity).
    """

    def __init__(self, author_lists: Iterable[str], texts: Iterable[str] = ()) -> None:
        self.lists = tuple(authors for authors in author_lists if authors)
        self.texts = tuple(texts)  # the stored abstracts, for ``more_a_name``
        self._by_family: dict[str, frozenset[int]] | None = None

    def retire(self) -> None:
        """Let go of the stored lists once a newer book stands for the store: readings
        cached with this book (``intent.read_intent`` keys its cache by the book) are
        never asked again, and must not keep the old store's names in memory."""
        self.lists, self.texts, self._by_family = (), (), {}

    def more_a_name(self, word: str) -> bool:
        """Whether one word is a stored family name more than a word of the abstracts: it
        has NAME_PAPERS stored papers or more, and more than the abstracts that write it
        (in any case). "from Schmidhuber" (22 papers, 2 abstracts) is read as an author;
        "from London" (3 papers by Londons, 3 abstracts naming the city) as a place."""
        papers = len(self.by_family().get(" ".join(name_words(word)), ()))
        if papers < NAME_PAPERS:
            return False
        return papers > self._writers(re.escape(word), papers)

    def may_name(self, asked: str) -> bool:
        """Whether a name no stored paper has may still name a person, to be refused naming
        the nearest: two words or more, each a stored name's or written by at most
        UNWRITTEN_PAPERS abstracts ("Ian Goodfelow", "Zzz Qqq"), not a method's words
        ("Gaussian Processes", "Thompson Sampling": the abstracts write "processes"), nor a
        method named after people, whose whole name the abstracts write ("Frank-Wolfe",
        "Nelder-Mead": a review's). A book of no stored texts tells nothing: False."""
        words = name_words(asked)
        return (len(words) > 1 and bool(self.texts) and not self.holds(asked)
                and all(word in self.by_family() or self._writers(re.escape(word), UNWRITTEN_PAPERS + 1)
                        <= UNWRITTEN_PAPERS for word in words)
                and self._writers(r"[\s-]+".join(map(re.escape, asked.split())), UNWRITTEN_PAPERS + 1)
                <= UNWRITTEN_PAPERS)

    def _writers(self, pattern: str, most: int) -> int:
        """How many stored abstracts write ``pattern`` as whole words (any case), counted up
        to ``most``: past it the answer is known, and the abstracts are many."""
        written = re.compile(rf"\b{pattern}\b", re.I)
        return len(list(islice((text for text in self.texts if written.search(text)), most)))

    def by_family(self) -> dict[str, frozenset[int]]:
        """Each stored family name, in its ``_family_keys`` spellings, with the author lists
        (their places in ``lists``) that hold it; made when first asked: most questions name
        no author, and the store's names are many."""
        if self._by_family is None:
            places: dict[str, set[int]] = {}
            for i, authors in enumerate(self.lists):
                for name in author_names(authors):
                    for words in spellings(name):
                        for key in _family_keys(words):
                            places.setdefault(key, set()).add(i)
            self._by_family = {key: frozenset(found) for key, found in places.items()}
        return self._by_family

    def people(self, asked: str) -> list[tuple[str, int]]:
        """``people_named`` over the author lists that hold ``asked``'s family name alone:
        a list of one family name's papers reads a few lists, not every stored one."""
        places = self.by_family().get(" ".join(name_words(asked)), frozenset())
        return people_named(asked, [self.lists[i] for i in sorted(places)])

    def holds(self, asked: str) -> bool:
        """Whether a stored paper is written by every name ``asked`` gives (``written_by``,
        as the author filter reads it), reading only the author lists that hold each of
        its family names."""
        return any(self._holds(reading) for reading in name_readings(asked))

    def _holds(self, asked: str) -> bool:
        """``holds`` for one of the name's readings."""
        names = author_names(asked)
        if not names:
            return False
        by_family = self.by_family()
        shared: frozenset[int] | None = None
        for name in names:
            holding = frozenset().union(*(by_family.get(key, frozenset())
                                          for words in spellings(name)
                                          for key in _family_keys(words)))
            shared = holding if shared is None else shared & holding
        return any(written_by(self.lists[i], asked) for i in sorted(shared or ()))

    def by_nickname(self, asked: str) -> str | None:
        """The one stored person a name typed with a nickname stands for ("geoff hinton":
        Geoffrey Hinton, "Chris Bishop": Christopher Bishop), when the name as typed is no
        stored author's and one stored person alone of its family name has a given name the
        nickname is short for: by the ``nicknames`` package's table of English given names,
        which begins with it and is two letters longer or more ("Dave", "Mike" are not read);
        None otherwise. Looser rules read other real people ("Yan Yu" as Yang Yu, "John May"
        as Jonathan May; docs/decisions.md)."""
        names = author_names(asked)
        words = name_words(names[0]) if len(names) == 1 else ()
        if len(words) != 2 or self.holds(asked):
            return None
        full = {name for name in _full_names(words[0])  # "geoff": geoffrey, not jeffrey; "john"
                if name.startswith(words[0]) and len(name) >= len(words[0]) + 2}  # not jonathan
        people = [name for name, _ in self.people(words[1]) if name_words(name)[0] in full]
        return people[0] if len(people) == 1 else None


@cache
def _full_names(nickname: str) -> frozenset[str]:
    """The given names ``nickname`` is short for ("geoff": geoffrey, jeffrey), lower case."""
    return frozenset(_nicknamer().canonicals_of(nickname))


@cache
def _nicknamer() -> NickNamer:
    """The ``nicknames`` table, loaded when a name is first read by it: its import takes most
    of this module's, which every question's reading imports."""
    from nicknames import NickNamer

    return NickNamer()
