"""The abstracts assistant: cited answers over research-paper abstracts.

Pipeline, one module per step: settings → corpus → embedding → index → retrieval →
answering (generation | extractive) → pipeline → cli / ui / evals.

Importing the package first makes every library stay offline (see ``offline``).
"""

import time

IMPORTED_AT = time.monotonic()  # start-up time reported by `assistant serve`

from assistant import offline as _offline  # noqa: E402, F401  (must run before tiktoken/gradio)
