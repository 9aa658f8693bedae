"""Chunk quality and speed of the markdown layer on a real documentation folder.

Runs what indexing runs on a documentation source for every ``*.md`` / ``*.mdx`` /
``*.markdown`` file under a folder, and every ``*.rst`` file where the engine reads
reStructuredText (``rst_as_markdown``, then ``parse_markdown``, then ``chunk_markdown`` at
the default chunk size and overlap, short sections merged as for documentation), and prints:
files, chunks, heading-only chunks (own text is nothing but heading lines), chunks whose
overlap prefix came from another section (its previous chunk has another title), headings
found, chunks under 60 characters of words (heading lines left out), chunks titled by
markup (a MyST label, role, directive or attribute line, an rst directive or comment: the
title, or the first line where there is no title, as the memory shows it), chunks whose
text still holds such markup, and the parse + chunk time.

    python -m bench.markdown_chunks [FOLDER] [--knowledge]   # default: shared/eval/markdown

``--knowledge`` chunks as the knowledge folder is indexed: no short section merged.

For a "before" column, run this file against an older checkout of the engine:
``PYTHONPATH=/path/to/old/checkout python bench/markdown_chunks.py FOLDER`` (an engine
without reStructuredText support leaves ``.rst`` files out, as its indexing did).
"""

from __future__ import annotations

import itertools
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine.markdown import chunking
from engine.markdown.chunking import chunk_markdown
from engine.markdown.parse import parse_markdown

DEFAULT_FOLDER = Path("/work/shared/eval/markdown")
SUFFIXES = (".md", ".mdx", ".markdown")
SHORT = 60
"""Characters of words under which a chunk counts as short."""

_WORD = re.compile(r"\w+")
# Written here, independently of engine/markdown/markup.py and rst.py.
_MARKUP_LINE = re.compile(
    r"^\s*(?:\([^()\s]+\)=\s*$|\{[^{}\s]*[.#:%=][^{}]*\}\s*$|[`~:]{3,}\s*\{|\.\.(?:\s|$)|%\s)"
)
_ROLE = re.compile(r"\{[\w:.+-]+\}`|(?<![\w`]):[\w:.+-]+:`")
_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})")


def _rst_reader() -> Callable[[str], str] | None:
    try:
        from engine.markdown.rst import rst_as_markdown
    except ImportError:
        return None
    return rst_as_markdown


def _heading_only(text: str) -> bool:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return all(line.startswith("#") or set(line) <= set("=-") for line in lines)


def _words(text: str) -> int:
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    return len(" ".join(_WORD.findall(" ".join(lines))))


def _shown_title(chunk: chunking.Chunk) -> str:
    """The title, or the first non-blank line of the text where there is none."""
    return chunk.title or next((x for x in chunk.own_text.splitlines() if x.strip()), "")


def _has_markup(text: str) -> bool:
    """Whether ``text`` holds markup outside code (fenced, or indented four spaces)."""
    fenced = False
    for line in text.splitlines():
        plain = not fenced and not line.startswith("    ")
        if plain and (_MARKUP_LINE.match(line) or _ROLE.search(line)):
            return True
        if _FENCE.match(line):
            fenced = not fenced
    return False


def measure(folder: Path, min_prose: int | None = None) -> dict[str, float]:
    """Counts and seconds for every documentation file under ``folder``; ``min_prose`` 0
    chunks as the knowledge folder is (no short section merged)."""
    rst = _rst_reader()
    suffixes = (*SUFFIXES, ".rst") if rst else SUFFIXES
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in suffixes and p.is_file())
    texts = [(p, p.read_text(encoding="utf-8", errors="replace")) for p in files]
    if min_prose is None:
        min_prose = getattr(chunking, "MIN_PROSE_CHARS", None)
    extra = (
        {}
        if min_prose is None or not hasattr(chunking, "MIN_PROSE_CHARS")
        else {"min_prose": min_prose}
    )
    started = time.perf_counter()
    results = []
    for path, text in texts:
        if rst is not None and path.suffix.lower() == ".rst":
            text = rst(text)
        parsed = parse_markdown(text, path.name)
        results.append(chunk_markdown(parsed.body, 2000, 15, **extra))
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
        "rst_files": sum(p.suffix.lower() == ".rst" for p in files),
        "chunks": len(chunks),
        "heading_only": sum(_heading_only(c.own_text) for c in chunks),
        "overlap_crossing_sections": crossing,
        "distinct_titles": len(titles),
        f"under_{SHORT}_chars_of_words": sum(_words(c.own_text) < SHORT for c in chunks),
        "titled_by_markup": sum(bool(_has_markup(_shown_title(c))) for c in chunks),
        "markup_left_in_text": sum(_has_markup(c.own_text) for c in chunks),
        "mean_chunk_chars": sum(len(c.content) for c in chunks) / max(len(chunks), 1),
        "seconds": seconds,
    }


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--knowledge"]
    folder = Path(args[0]) if args else DEFAULT_FOLDER
    min_prose = 0 if "--knowledge" in sys.argv else None
    for key, value in measure(folder, min_prose).items():
        print(f"{key}: {value:.3f}" if isinstance(value, float) else f"{key}: {value}")


if __name__ == "__main__":
    main()
