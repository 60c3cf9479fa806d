"""British spellings read as American ones, before stemming: Porter stems "optimisation" to
"optimis" and "optimization" to "optim", "behaviour" and "behavior" apart, and the field
mostly writes American ("analyse" in a question missed the 698 abstracts writing "analyze").
"""

from __future__ import annotations

import re

_OUR = ("behavi", "col", "neighb", "fav", "lab", "flav", "harb", "hum", "rum", "vap", "vig",
        "hon", "od", "arm", "endeav", "sav", "tum", "rig", "val")
_OUR_ENDINGS = ("", "s", "al", "ally", "hood", "hoods", "ed", "ing", "able", "ite", "ites",
                "ism", "isms", "less", "ful", "er", "ers", "ist", "ists")
_BRITISH_WORDS = {
    "centre": "center", "centres": "centers", "centred": "centered", "centring": "centering",
    "metre": "meter", "metres": "meters", "fibre": "fiber", "fibres": "fibers",
    "litre": "liter", "litres": "liters", "theatre": "theater", "spectre": "specter",
    "calibre": "caliber", "analogue": "analog", "analogues": "analogs",
    "catalogue": "catalog", "catalogues": "catalogs", "dialogue": "dialog",
    "dialogues": "dialogs", "defence": "defense", "defences": "defenses",
    "offence": "offense", "licence": "license", "licences": "licenses",
    "programme": "program", "programmes": "programs", "judgement": "judgment",
    "judgements": "judgments", "grey": "gray", "sceptical": "skeptical",
    "scepticism": "skepticism"}
BRITISH = {**{stem + "our" + end: stem + "or" + end for stem in _OUR for end in _OUR_ENDINGS},
           **_BRITISH_WORDS}
# The roots the 1987-2021 abstracts and the seeds write with "-ize" or "-yze" (used twice at
# least; fragments of hyphenated line breaks left out): only these are read from "-ise".
# Rewriting every "-ise" had split "supervised" from "supervision" and merged "expertise"
# with "expert" (a review).
_IZE_ROOTS = frozenset("""
amortiz analyz anesthetiz anonymiz axiomatiz binariz blackwelliz canonicaliz capitaliz catalyz
categoriz centraliz characteriz coloriz computeriz conceptualiz conformaliz contextualiz
continuiz criticiz crystalliz customiz deanonymiz decentraliz depolariz dequantiz derandomiz
desensitiz destabiliz desynchroniz determiniz diagonaliz diariz dichotomiz digitiz discretiz
dualiz emphasiz equaliz factoriz formaliz frontaliz gaussianiz generaliz harmoniz hybridiz
hyperpolariz hypothesiz idealiz incentiviz individualiz initializ itemiz jeopardiz kerneliz
lineariz localiz magnetiz majoriz marginaliz maximiz memoriz metriz minimiz minoriz
mislocaliz modulariz moraliz neutraliz normaliz operationaliz optimiz organiz orthogonaliz
orthonormaliz overemphasiz overparameteriz overparametriz paralleliz paralyz parameteriz
parametriz particulariz penaliz personaliz polariz populariz prioritiz privatiz quantiz
randomiz rasteriz rationaliz realiz reanalyz recogniz regulariz rematerializ renormaliz
reorganiz reparameteriz reparametriz revitaliz revolutioniz sanitiz skeletoniz specializ
stabiliz standardiz strategiz styliz summariz symmetriz synchroniz synergiz synthesiz
systematiz tantaliz taxonomiz tensoriz triangulariz trivializ underparameteriz underutiliz
uniformiz unnormaliz unoptimiz unorganiz unpenaliz unpolariz unrealiz unregulariz utiliz
vectoriz visualiz vocaliz voxeliz""".split())
_BRITISH_ROOTS = {root[:-1] + "s": root for root in _IZE_ROOTS}
_ISE = re.compile(r"^(\w+?[iy]s)(e|ed|es|ing|er|ers|ation|ations|able)$")


def american(word: str) -> str:
    """A lower-case word in American spelling: "-ise", "-isation", "-yse" and their forms as
    "-ize", "-ization", "-yze" for the roots American abstracts write with a "z"
    (``_IZE_ROOTS``: "supervised", "noise", "expertise" keep their "s"), and the listed
    "-our", "-tre", "-ogue" and "-ence" words. Some 1,000 uses in the 1987–2021 abstracts
    are British ("behaviour" in 113 abstracts, "optimisation" 66, "analyse" 51), and
    "analyse" in a question missed the 698 abstracts that write "analyze"."""
    word = BRITISH.get(word, word)
    m = _ISE.match(word) if "s" in word else None
    if m and m.group(1) in _BRITISH_ROOTS:
        return _BRITISH_ROOTS[m.group(1)] + m.group(2)
    return word


_WORD_CASED = re.compile(r"\b([A-Za-z])([a-z]+)\b")


def in_american(text: str) -> str:
    """``text`` with its words in American spelling (``american``; a capital kept, an
    all-capital word left alone): what a model reads (the dense search, the cross-encoder)
    as the field mostly writes it, as stemming already reads the terms ("normalising
    flows" → "normalizing flows")."""
    def spelled(m: re.Match[str]) -> str:
        word = american(m.group(0).lower())
        return m.group(1) + word[1:] if word[:1] == m.group(1).lower() else m.group(0)

    return _WORD_CASED.sub(spelled, text)
