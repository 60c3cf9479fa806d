"""Index the seeds plus the 13,910 NeurIPS 1987–2021 abstracts into a separate data directory.

Usage: python bench/ingest_distractors.py [DATA_DIR] [CSV_DIR]
Writes bench/results/ingest_distractors.json (papers, chunks, seconds, papers/s).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from common import SHARED_ABSTRACTS, save

import assistant  # noqa: F401
from assistant.index import AbstractIndex
from assistant.settings import PROJECT_ROOT, Settings

DISTRACTORS = SHARED_ABSTRACTS


def main() -> None:
    data_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / ".data-distractors"
    csv_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else DISTRACTORS
    settings = Settings()
    settings.data.dir = data_dir
    index = AbstractIndex(settings)

    def progress(done: int, total: int, what: str) -> None:
        if done % 2560 < 256 or done == total:
            print(f"{what}: {done}/{total}", flush=True)

    report = index.ingest([settings.data.seeds, csv_dir], progress=progress)
    out = {
        "papers": report.papers_total,
        "chunks": report.chunks_total,
        "chunks_added": report.chunks_added,
        "skipped": len(report.skipped),
        "seconds": round(report.seconds, 1),
        "chunks_per_second": round(report.chunks_added / report.seconds, 1) if report.seconds else None,
    }
    save("ingest_distractors", out)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
