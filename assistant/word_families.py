"""The nouns a topic's verb is written as when Porter stems the two apart.

Why a module: a list topic is matched by its words' Porter stems, and Porter leaves a
verb and its noun on different stems where it strips "-ion" only after "s" or "t" and
"-ify" and "-ification" apart: "recognize" is "recogn", "recognition" "recognit";
"classify" "classifi", "classification" "classif"; "compose" "compos", "composition"
"composit". "Which papers recognize faces?" had listed 10 papers while 26 titles name
face recognition or detection. The verb's noun stems are found here from the store's own
vocabulary and writing, never from a list of words: a stored stem that extends the topic's
stem, or that the topic's stem extends, by a short remainder of derivational suffix
(DERIVED), and that enough of its papers write as a noun ("-ion", "-sis"). The last check
keeps apart the stems that merely extend one another ("prior" and "priorit" of
"priority", "inher" of "inherent" and "inherit", "system" and "systemat"). Read only where
a list's topic is matched (its readings' coverage, its BM25 pool); the cited-answer
ranker's learned weights assume Porter's terms as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from assistant.keywords import KeywordStats, stem_of
from assistant.tuning import RARE_CHUNKS
from assistant.written_forms import WrittenText

# What Porter leaves after a verb's stem in its noun's: "recogn" + "it" of "recognition",
# "synthes" + "i" of "synthesis"; and, the other way, after its noun's in the verb's:
# "classif" + "i" of "classify" (the "-ify" verbs, ``related_stems``)
DERIVED = ("it", "i")
MIN_STEM = 6  # the verb's stem's least length: "found" is no verb of "foundation"
# Least share of the papers writing a word of the candidate stem that write it as a noun:
# "composition" of "composit" (98 of 252 papers; "composite", "compositional" the rest),
# not "inherit", "prioritize". Source: by hand, the merges the eval questions' words make
# (docs/lists.md).
NOUN_SHARE = 0.3


def related_stems(term: str, vocab: Mapping[str, int]) -> list[str]:
    """The stored stems that extend ``term`` (at least MIN_STEM letters) by a DERIVED
    remainder ("recogn" → "recognit"), and, for an "-ify" verb's stem, the stem without its
    "i" ("classifi" → "classif")."""
    found = [term + x for x in DERIVED if len(term) >= MIN_STEM and term + x in vocab]
    if term.endswith("fi") and len(term) >= MIN_STEM and term[:-1] in vocab:
        found.append(term[:-1])
    return found


def noun_word(stem: str, written: WrittenText) -> str | None:
    """The word most papers write for ``stem`` when most of the papers writing a word of
    that stem write a noun of it ("-ion", "-sis": "recognition" for "recognit"), else None
    ("inherit", "priorit" of "priority")."""
    writers, nouns = written.stem_writers(stem)
    if not writers or sum(len(p) for p in nouns.values()) == 0:
        return None
    noun_writers = set().union(*nouns.values())
    if len(noun_writers) < NOUN_SHARE * len(writers):
        return None
    return max(nouns, key=lambda w: len(nouns[w]))


# A rare noun and its adjective, which Porter stems apart: what each stem ends in past their
# shared part ("hippocampu" and "hippocamp" of "hippocampus" and "hippocampal", "cerebellum"
# and "cerebellar", "epilepsi" and "epilept" of "epilepsy" and "epileptic", "schizophrenia"
# and "schizophren"); a list on the hippocampus had missed "Hippocampal Model of Rat Spatial
# Abilities…" and ten titles like it (R6). Not "ganglia"/"ganglion" (basal ganglia, retinal
# ganglion cells) nor "electron"/"electrod": their endings are none of these.
SIBLING_ENDINGS = frozenset({"", "a", "ia", "i", "u", "um", "us", "y", "si", "al", "ar", "ic", "t"})
SIBLING_STEM = 6  # the shared part's least length (the stem's: two letters more)
# the most chunks either stem may be in (a share of the store's, RARE_CHUNKS at least): a rare
# word's family alone
SIBLING_SHARE = 0.01


def sibling_stems(term: str, stats: KeywordStats) -> list[str]:
    """The stored stems of ``term``'s word family that Porter left apart from it: the two
    share all but SIBLING_ENDINGS at their ends, at least SIBLING_STEM letters, and each is
    in at most SIBLING_SHARE of the chunks."""
    limit = max(SIBLING_SHARE * stats.n_docs, RARE_CHUNKS)  # a small store's rare words too
    if len(term) < SIBLING_STEM + 2 or not term.isalpha() or not 0 < stats.doc_freq(term) <= limit:
        return []  # "electr" of "electricity" is no family of "electra"
    found = []
    for cut in range(SIBLING_STEM, len(term) + 1):
        stem, end = term[:cut], term[cut:]
        if end not in SIBLING_ENDINGS:
            continue
        found += [stem + other for other in sorted(SIBLING_ENDINGS) if other != end
                  and 0 < stats.doc_freq(stem + other) <= limit]
    return list(dict.fromkeys(found))


def noun_family(terms: Iterable[str], stats: KeywordStats, written: WrittenText
                ) -> dict[str, dict[str, str]]:
    """For each of ``terms`` with any, its noun stems (``related_stems`` that pass
    ``noun_word``), each with its commonest written noun: "recogn" → {"recognit":
    "recognition"}."""
    family: dict[str, dict[str, str]] = {}
    for term in dict.fromkeys(terms):
        nouns = {stem: word for stem in related_stems(term, stats.vocab)
                 if (word := noun_word(stem, written)) and stem_of(word) == stem}
        nouns |= {stem: word for stem in sibling_stems(term, stats)
                  if (word := written.commonest_word(stem)) and stem not in nouns}
        if nouns:
            family[term] = nouns
    return family

