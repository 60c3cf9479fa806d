"""What every bench script shares: its figures go to bench/results/<name>.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assistant.settings import PROJECT_ROOT

RESULTS = PROJECT_ROOT / "bench" / "results"


def save(name: str, figures: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {path}")
    return path
