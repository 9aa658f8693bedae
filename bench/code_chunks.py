"""How the analyzer cuts a repository's source code into entries (issue 34).

    python -m bench.code_chunks PATH [PATH ...]
    python bench/code_chunks.py PATH [PATH ...]

For each project folder, in process and without the embedding model: the files and
symbols the analysis finds, the discovery entries (summaries) and definition chunks it
drafts, the file holding the most of them and its share, the chunks with fewer than three
words in their code, the chunks holding test code (``#[test]``, ``#[cfg(test)]``,
``func TestX(t *testing.T)``, ``@Test``, ``[Fact]``, gtest's ``TEST(``) and the most
repeated chunk title; then the analysis time (analyse, draft the summaries and the
definitions), median of three runs. To compare with another checkout, run this file
with that checkout's interpreter (``/other/.venv/bin/python bench/code_chunks.py PATH``:
it imports only ``engine``). The whole ``init`` (embedding included) is timed with the
real command: ``time memory-tui init --no-hooks`` in a fresh copy.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import Counter
from pathlib import Path

from engine.analyzer import analyze, discovery_drafts
from engine.analyzer.definitions import budget_order, definition_drafts
from engine.analyzer.noise import NoiseClassifier

WORD = re.compile(r"[^\W\d_]{2,}")
TEST_CODE = re.compile(
    r"#\[(?:\w+::)*test\]|#\[cfg\(test\)\]|^\s*func (?:Test|Benchmark|Fuzz)\w*\(\s*\w+ \*testing"
    r"|@Test\b|\[(?:Fact|Test|TestMethod)\]|^\s*TEST(?:_F)?\(",
    re.MULTILINE,
)
FENCED = re.compile(r"\n(`{3,})[^\n]*\n(.*)\n\1\s*$", re.DOTALL)


def measure(root: Path) -> dict[str, object]:
    """The figures of one project (see the module's docstring)."""
    times = []
    for _ in range(3):
        _forget_parses()
        start = time.perf_counter()
        analysis = analyze(root)
        noise = NoiseClassifier(root)
        summaries = discovery_drafts(analysis, noise)
        code = definition_drafts(root, budget_order(analysis), noise)
        times.append(time.perf_counter() - start)
    bodies = [m.group(2) if (m := FENCED.search(d.content)) else d.content for d in code]
    per_file = Counter(d.file_path for d in [*summaries, *code] if d.file_path)
    top, most = per_file.most_common(1)[0] if per_file else ("-", 0)
    total = len(summaries) + len(code)
    titles = Counter(d.section_title for d in code).most_common(1)
    return {
        "project": root.name,
        "files": len(analysis.files),
        "symbols": len(analysis.symbols),
        "summaries": len(summaries),
        "definition chunks": len(code),
        "largest file": f"{top} ({most}, {most / total:.1%})" if total else "-",
        "wordless chunks": sum(len(WORD.findall(b)) < 3 for b in bodies),
        "test chunks": sum(bool(TEST_CODE.search(b)) for b in bodies),
        "most repeated title": f"{titles[0][0]} ×{titles[0][1]}" if titles else "-",
        "analysis s (median of 3)": round(statistics.median(times), 2),
    }


def _forget_parses() -> None:
    """Each run parses every file (the outline cache of this checkout, if it has one)."""
    try:
        from engine.analyzer.outline import outline
    except ImportError:  # a checkout from before issue 34
        return
    outline.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    for path in parser.parse_args().paths:
        for key, value in measure(path.resolve()).items():
            print(f"{key}: {value}")
        print()


if __name__ == "__main__":
    main()
