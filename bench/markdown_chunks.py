"""Chunk quality and speed of the markdown layer on a real documentation folder.

Runs what indexing runs on every ``*.md`` / ``*.mdx`` / ``*.markdown`` file under a folder
(``parse_markdown``, then ``chunk_markdown`` at the default chunk size and overlap) and prints:
files, chunks, heading-only chunks (own text is nothing but heading lines), chunks whose
overlap prefix came from another section (its previous chunk has another title), headings
found, and the parse + chunk time.

    python -m bench.markdown_chunks [FOLDER]    # default: /work/shared/eval/markdown
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

from engine.markdown.chunking import chunk_markdown
from engine.markdown.parse import parse_markdown

DEFAULT_FOLDER = Path("/work/shared/eval/markdown")
SUFFIXES = (".md", ".mdx", ".markdown")


def _heading_only(text: str) -> bool:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return all(line.startswith("#") or set(line) <= set("=-") for line in lines)


def measure(folder: Path) -> dict[str, float]:
    """Counts and seconds for every markdown file under ``folder``."""
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())
    texts = [(p, p.read_text(encoding="utf-8", errors="replace")) for p in files]
    started = time.perf_counter()
    results = []
    for path, text in texts:
        parsed = parse_markdown(text, path.name) if _takes_name() else parse_markdown(text)
        results.append(chunk_markdown(parsed.body, 2000, 15))
    seconds = time.perf_counter() - started
    chunks = [c for file_chunks in results for c in file_chunks]
    crossing = 0
    for file_chunks in results:
        for previous, chunk in itertools.pairwise(file_chunks):
            if chunk.overlap_chars and chunk.title != previous.title:
                crossing += 1
    titles = {(i, c.title) for i, fc in enumerate(results) for c in fc if c.title}
    return {
        "files": len(files),
        "chunks": len(chunks),
        "heading_only": sum(_heading_only(c.own_text) for c in chunks),
        "overlap_crossing_sections": crossing,
        "distinct_titles": len(titles),
        "mean_chunk_chars": sum(len(c.content) for c in chunks) / max(len(chunks), 1),
        "seconds": seconds,
    }


def _takes_name() -> bool:
    import inspect

    return len(inspect.signature(parse_markdown).parameters) > 1


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_FOLDER
    for key, value in measure(folder).items():
        print(f"{key}: {value:.3f}" if isinstance(value, float) else f"{key}: {value}")


if __name__ == "__main__":
    main()
