"""Evals: the stored questions (``dataset``), each scored through the real pipeline
(``scoring``), and the reports (``report``); ``runner`` is `assistant eval`."""

from assistant.evals.dataset import (
    DEFAULT_DATASET,
    LOOKUP_PHRASINGS,
    THRESHOLDS,
    DatasetError,
    EvalItem,
    load_dataset,
    rare_word_probes,
    words_one_abstract_uses,
)
from assistant.evals.report import check_thresholds, compare, flat_metrics, markdown_report
from assistant.evals.runner import run_cli
from assistant.evals.scoring import (
    EvalRun,
    QuestionResult,
    evaluate,
    fact_found,
    indexed_items,
    retrieval_scores,
    score_answer,
)

__all__ = [
    "DEFAULT_DATASET", "THRESHOLDS", "DatasetError", "EvalItem", "EvalRun", "QuestionResult",
    "check_thresholds", "compare", "evaluate", "fact_found", "flat_metrics", "indexed_items",
    "LOOKUP_PHRASINGS", "load_dataset", "rare_word_probes", "words_one_abstract_uses",
    "markdown_report", "retrieval_scores", "run_cli", "score_answer",
]
