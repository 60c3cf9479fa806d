"""The tuned constants, in one place: what each one sets, and where its value came from.

Why one module: these numbers were chosen by measurement (or, where no bench tunes them, by
hand), and a reader changing one must find the script and split that chose it, and rerun
it. Their figures live in ``bench/results/`` and ``docs/measurements.md``, never here.
"Source" names the bench script and the split (dev: the eval's dev split; the title pairs
and the bench question sets are drawn from the 1987–2021 corpus, never the eval) and the
commit that set the value; "by hand" means no script tunes it.

The thresholds the refusals compare with (``abstain_below``, ``cross_encoder_below``,
``neighbourhood``, ``joint_reading``) and the ranker's weights are in ``ranker.json``,
written by ``bench/calibrate_abstention.py`` and ``bench/train_ranker.py``.
"""

from __future__ import annotations

# ---------------------------------------------------------------- retrieval

# Papers taken from each ranking (BM25, dense) for the learned ranker to order.
# Source: bench/train_ranker.py on the title→abstract pairs, as trained (625e302).
POOL = 30
# Papers searched for an unknown acronym's spelled-out phrase, and for a several-word name.
# Source: by hand, the eval's dev split checked (e70cc44).
NEARBY = 10
# Papers the cross-encoder rereads when the ranker is unsure of its first.
# Source: bench/cross_encoder.py, dev (fdbafb5: three rather than two).
RERANK_TOP = 3
# The ranker's probability of its first paper under which the cross-encoder rereads.
# Source: bench/cross_encoder.py, dev (d065034).
RERANK_BELOW = 0.9
# A name more of the candidates write than this is the field's word (RL, GAN), left out of
# the named-paper boost. Source: bench/key_facts.py's blind questions and dev (6a5fdd5).
COMMON_NAME_PAPERS = 3
# A refusal's nearest papers, each shown with why it does not answer. Source: by hand (titles).
NEAREST_SHOWN = 3

# ---------------------------------------------------------------- related papers (similar.py)

# BM25's share of a "more like this" ranking: cosine alone. Source: a probe on the seeds'
# 19 queries, every BM25 share tried lowered MRR and hit@3 (c781006; docs/decisions.md).
SIMILAR_BM25_WEIGHT = 0.0
# Dense chunks asked for per requested paper (one paper's chunks can fill a page).
# Source: by hand (fc416a3).
CHUNKS_PER_PAPER = 10
# Papers taken from each ranking whatever the number asked for. Source: by hand (fc416a3).
MIN_CANDIDATES = 50

# ---------------------------------------------------------------- refusals

# Share of the question's keyword weight that counts as all of it (the exemptions of the
# off-topic and evidence checks). Source: by hand, a rounding guard (625e302).
FULL_MATCH = 0.99
# The ranker's first papers the cross-encoder's refusal and the joint reading read.
# Source: bench/calibrate_abstention.py, dev (fdbafb5), as the thresholds were calibrated.
REFUSAL_TOP = 2

# ---------------------------------------------------------------- ranking signals

# A question term in at most this many chunks is rare (one or two abstracts): the rare-term
# signal and the fused top 3 kept for BM25's first. Source: bench/rare_terms.py (0578ea2).
RARE_CHUNKS = 3
# Words of a text keyword coverage reads (rare words count anywhere): past an abstract's
# length, so a whole paper is read as far as an abstract goes.
# Source: the corpus's abstract lengths and the eval among the 13.9k, dev (9b9d530).
LEADING_WORDS = 400
# Papers whose mean cosine measures a question's neighbourhood (the off-topic check).
# Source: bench/calibrate_abstention.py, dev (7e35d62).
NEAREST = 10
# Chunks searched for those papers: one paper's chunks can fill the first ten.
# Source: by hand, the eval among the 13.9k checked (84af405).
NEAREST_CHUNKS = 50

# ---------------------------------------------------------------- the extractive answer

# Sentences an extractive answer quotes (one more for a definition, method or finding).
# Source: the eval's key-fact recall, dev (a571184, raised from 3 by the levers table).
MAX_SENTENCES = 4
# Further sentences must score this close to the best one. Source: by hand (a571184).
KEEP_RATIO = 0.75
# "What is X?": the sentence that introduces X answers it best. Source: by hand (a571184).
DEFINITION_BONUS = 0.15
# "How many…?": a sentence with a number in it is likelier the answer.
# Source: by hand (2ec1c20).
QUANTITY_BONUS = 0.1
# A further sentence is added when it holds this share of the question's keyword weight the
# chosen ones lack. Source: the eval among the 13.9k, dev (9a6e4e5).
COMPLETE_GAIN = 0.1
# Before the first sentence in which the authors speak, a sentence's score counts this much
# for a question on what was done or found. Source: bench/key_facts.py and dev (5bd65cb).
BACKGROUND_FACTOR = 0.3
# A paper is quoted when the ranker's belief in it is this share of the first paper's.
# Source: the eval among the 13.9k, dev (625e302).
CLOSE_RATIO = 0.8
# ...a "which papers…" summary quotes those within this share. Source: dev (a571184).
SUMMARY_RATIO = 0.04

# ---------------------------------------------------------------- the model's prompt and reply

# A question must leave at least this many tokens of the window for sources (the first
# abstract, shortened if need be); a longer one is refused before any call.
# Source: by hand (a571184, c0a2c03).
MIN_SOURCE_TOKENS = 96
# A source that does not fit whole is shortened only when this many tokens of it fit.
# Source: by hand (a571184).
MIN_PART_TOKENS = 48
# A source the ranker scores under this shows as 0.00: it is not answering and is left out
# of a model's prompt (the first source always stays). Source: by hand, the shown rounding
# (ab47b33).
MIN_SOURCE_SCORE = 0.005
# Words in a row taken from the prompt's own framing that make a model's sentence an echo.
# Source: by hand (ab47b33).
ECHO_RUN = 8
# Abstracts per relevance check of a list (the model's context holds them).
# Source: by hand (eed84ef).
JUDGE_BATCH = 6
# Replies in a row out of the relevance check's format after which a list stops asking the
# model: the rest of its band goes to the cross-encoder. Gemma 270M answered none of a
# list's batches in the format, each taking seconds.
# Source: by hand, after bench/results/lists-gemma-270m-before.json.
JUDGE_MISSES = 2
# A model's title: its token budget (a reply that runs on is cut, then judged), the words
# past which a reply is a sentence or a summary, and the share of its terms the abstract
# must hold (the rest is invention). Source: by hand (ea8ea80; GROUNDED 2ac524f).
TITLE_MAX_TOKENS = 48
MAX_TITLE_WORDS = 20
GROUNDED = 0.5

# ---------------------------------------------------------------- claim support

# Support under which a model's sentence is flagged unsupported.
# Source: bench/claims_calibration.py, best F1 of the flag on its dev half (fc416a3).
SUPPORT_THRESHOLD = 0.69
# support = DENSE_WEIGHT · cosine + (1 − DENSE_WEIGHT) · idf word overlap.
# Source: by hand, on bench/claims_calibration.py's hand-written set (fc416a3).
SUPPORT_DENSE_WEIGHT = 0.5
# Share of a word's weight when it is in the cited abstract but not the best sentence.
# Source: by hand, on bench/claims_calibration.py's hand-written set (fc416a3).
CONTEXT_CREDIT = 0.5
# Negation or direction not shared with the best sentence multiplies support by this.
# Source: by hand, on bench/claims_calibration.py's hand-written set (fc416a3).
POLARITY_PENALTY = 0.7
# "all", "always"… that the cited abstracts never say multiplies support by this.
# Source: by hand, on bench/claims_calibration.py's hand-written set (fc416a3).
ABSOLUTE_PENALTY = 0.8
# A number or name absent from the cited abstracts caps support at this.
# Source: by hand, on bench/claims_calibration.py's hand-written set (fc416a3).
MISSING_CAP = 0.25

# ---------------------------------------------------------------- reading names and questions

# A paragraph of at most this many words that names no year or venue is a file's title, not
# an abstract. Source: by hand, the files that lost their first abstract (a72311b).
MAX_HEADER_WORDS = 6

# Question and abstract tokens the cross-encoder reads together (longer abstracts lose their
# end). Source: bench/cross_encoder.py (d065034; 512 measured, not kept).
RERANK_MAX_TOKENS = 256
# Initials from which an acronym counts as spelled out by a phrase: two begin some phrase
# of most abstracts (GP: "given presynaptic"). Source: by hand, a review's cases (2b1954c).
SPELLED_OUT_INITIALS = 3
# A list topic's asking word ("summarize", "study") counts as a topic word only when its stem
# is in at most this share of the chunks: "summar" (as in "summarization") is, "studi" and
# "propos", which every kind of paper writes, are not. Source: by hand, dev list-27 and the
# 13.9k store's shares (docs/lists.md).
ASKED_SHARE = 0.01
# A list or trend topic names something only when one of its terms is in at most this share
# of the chunks: "use" (0.44 of the 13.9k store's chunks), "model" (0.44) and "learn" (0.45)
# are the field's own words, and "Which papers use?" or "…use models?" had listed 3 and 279
# arbitrary papers. Set in the gap below them: the next stems ("algorithm" 0.35, "data"
# 0.30, "network" 0.25) still name a topic. Source: by hand, the 13.9k store's shares; no
# question of evals/lists.jsonl, bench/'s question sets, the docs or the tests has a topic of
# only stems above even 0.25, in that store or the seeds' (docs/lists.md).
COMMON_SHARE = 0.4
# The fewest chunks a store's share of a word is read from: a few papers' share says what
# those papers write, not whether the word is the field's own (a run's own 17 papers wrote
# "use" in 1 of 48 chunks). In fewer, a list question's verb is the field's own word when the
# 13.9k store's chunks find it so (FIELD_STEMS). Source: by hand, between the small stores it
# must cover (a run's 48 chunks, the seeds' 70) and the 13.9k store's 22,586 whose shares set
# COMMON_SHARE; not tuned. A list's reading flips where a store crosses it.
SHARE_CHUNKS = 1000
# The stems in more than COMMON_SHARE of the 13.9k store's 22,586 chunks: "use" 0.435,
# "learn" 0.437, "model" 0.432 (the next verb "appli" 0.106). Source: its keyword stats.
FIELD_STEMS = frozenset({"use", "learn", "model"})
# A topic word whose own family (``written_forms.own_prefix``) is written by at most this
# share of the papers holding its Porter stem must be written as its own word ("transformer",
# not "transformation"). Source: by hand, the dev split checked (no dev topic word is under).
OWN_FAMILY_SHARE = 1 / 3
# Words of a question read for the answer's notice of a word no cited abstract writes as its
# own (``readings.unwritten_own_words``): each new one is a pass over the store's text
# (about 5 ms on the 13.9k; a 4,000-character question had taken 2 s more). Source: a
# hostile review.
OWN_WORDS_READ = 10
# A stored title a question writes in lower case is asked for only when longer than this many
# words and holding this share of the question's keywords ("Who wrote attention is all you
# need?"); typed with its capitals or in quotes, at any length. Source: by hand, a hostile
# review's cases ("Is large scale online learning used for weather forecasting…?": half).
SHORT_TITLE_WORDS = 3
# Words a looser lookup phrasing ("papers mentioning X", "Is X mentioned anywhere?") looks
# up, unquoted: more is a topic's list ("papers talking about privacy in federated
# learning" had listed the 2 writing the phrase, against 20). Source: a hostile review.
LOOSE_WORDS = 2
TITLE_SHARE = 0.6
# The share of a typed title's keywords that a paper without its own title (a seed's label is
# derived) must hold to be perhaps the paper asked for, so that a title no stored paper has
# is not refused ("Deep Residual Learning for Image Recognition": a seed on long-tailed
# recognition holds "deep", "learning", "recognition", 3 of 5). Source: by hand, on the
# tests' titled store.
UNTITLED_SHARE = 0.8
# The share of two titles' keywords (of both together) they must share for a stored title to
# be named as the nearest to one typed that no paper has: "Sequence to Sequence Learning
# with Neural Networks" for "… Using Deep Neural Networks" (0.67), not "Stabilizing Training
# of Generative Adversarial Networks…" for "Improved Techniques for Training Generative
# Adversarial Networks" (0.5). Source: by hand, on the 13.9k store (a review's cases).
NEAREST_TITLE_SHARE = 0.6
# Papers that must write a "vs" pair's two sides joined, in the order asked
# ("exploration-exploitation", "bias–variance"), for the pair to be one thing of the field;
# a few write two models joined as a hybrid ("VAE-GAN"). Source: by hand, the 13.9k's
# counts (trade-offs 6–32 papers, "GANs vs VAEs" 1).
PAIR_WRITERS = 5
# BM25's first papers for a topic of only common words read for whether one writes it as a
# phrase ("learning to learn"). Source: by hand, the researcher runs' cases.
PHRASE_PAPERS = 200
# Keywords from which an offline follow-up saying "they…" or "this…" stands alone.
# Source: by hand, the follow-up tests (6eb25d4).
OWN_SUBJECT_TERMS = 3
# "Any limitations?": a question of at most this many words is a follow-up unless it names
# or has its own subject. Source: by hand, a review's cases (7de9ac7).
SHORT_WORDS = 4
# a "who works on X?" list names the authors with most of its papers, this many
AUTHORS_SHOWN = 8
# a list names the first this many papers the reading turned down that write its topic
TURNED_DOWN_SHOWN = 3
APART_SHOWN = 5  # how many of the papers a trend's count set apart its line names (apart_line)
# A typed title more other papers than this write as a phrase is a method's name as much as
# one paper's ("latent Dirichlet allocation"): "What are its limitations?" asks of the method,
# and other papers answer too (``Retriever.a_name``).
TITLE_AS_NAME = 2
# What a list paper kept for its title naming the topic adds to its cheap score, unread: as
# far as a sure reading of the cross-encoder's (``ListScreen._rank_score``; bench/list_order.py)
TITLED_RISE = 0.25
