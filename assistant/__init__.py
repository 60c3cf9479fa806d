"""The abstracts assistant: cited answers over research-paper abstracts.

Pipeline, one module per step: settings → corpus → embedding → index → retrieval →
answering (generation | extractive) → pipeline → cli / ui / evals.

Importing the package first makes every library stay offline (see ``offline``).
"""

from assistant import offline as _offline  # noqa: F401  (must run before tiktoken/gradio)
