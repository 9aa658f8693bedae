"""What of a repository's code and docs the analyzer takes as the project's own (issue 34).

    python -m bench.ownership PATH [PATH...]

For each checkout: code files, those classified as the project's own, those that reach the
memory (a definition chunk or a module entry), markdown files indexed as sources, code
files per kind of accompanying material, and the "Vendored"/"Examples" summary entries.
Run it once with an older checkout of ``engine`` first on ``PYTHONPATH`` for the "before".
Reads the files only; nothing is stored and no model is loaded.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from engine.analyzer import analyze, discovery_drafts
from engine.analyzer.definitions import CODE_LANGUAGES, budget_order, definition_drafts
from engine.analyzer.languages import language_of
from engine.analyzer.noise import NoiseClassifier
from engine.core.config import load_config
from engine.services.sources import SourceSet


def measure(root: Path) -> dict[str, object]:
    """The figures of one checkout."""
    start = time.perf_counter()
    analysis = analyze(root)
    noise = NoiseClassifier(root)
    code = {r for r in analysis.files if language_of(r.rpartition("/")[2]) in CODE_LANGUAGES}
    drafts = discovery_drafts(analysis, noise)
    chunks = definition_drafts(root, budget_order(analysis), noise)
    config = load_config(root)
    docs = SourceSet(root, config, root / config.knowledge_dir).files()
    return {
        "repository": root.name,
        "code_files": len(code),
        "own_code_files": sum(noise.kind(r) is None for r in code),
        "code_files_in_memory": len({d.file_path for d in [*drafts, *chunks]} & code),
        "definition_chunks": len(chunks),
        "markdown_sources": len(docs),
        "code_by_kind": dict(Counter(str(noise.kind(r)) for r in sorted(code)).most_common()),
        "vendored_and_examples": [
            d.section_title for d in drafts if d.section_title.startswith(("Vendored", "Examples"))
        ],
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for path in argv:
        print(json.dumps(measure(Path(path).resolve()), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
