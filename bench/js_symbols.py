"""JS/TS exports: the old regex lexer against tree-sitter, on real repositories (issue #26).

Reads every ``.js``/``.jsx``/``.mjs``/``.cjs``/``.ts``/``.tsx``/``.mts`` file of the given
sources (a folder, or a bare git directory such as ``/work/.mirror/honojs+hono/repo``, read
at HEAD through ``git archive``), runs both scanners on each (best of ``--runs``), and
prints the time, the names each finds, and where they disagree. The import cost is
measured in fresh interpreters with ``-X importtime``.

    python -m bench.js_symbols [SOURCE ...] [--runs 3] [--diff 10]
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench._lexer_js_symbols import js_symbols as lexer_symbols
from engine.analyzer.js_commonjs import commonjs_symbols
from engine.analyzer.js_symbols import js_symbols as tree_symbols

SUFFIXES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
DEFAULT_SOURCES = (
    "/work/.mirror/honojs+hono/repo",
    "/work/.mirror/expressjs+express/repo",
    "/work/.mirror/pmndrs+zustand/repo",
    "/work/.mirror/sindresorhus+ky/repo",
    "/usr/lib/node_modules/npm",
)
FIRST_CALL = """
import time
from engine.analyzer.js_symbols import js_symbols
t = time.perf_counter()
js_symbols("export const a = 1", "a.ts")
js_symbols("export const a = 1", "a.js")
print(round((time.perf_counter() - t) * 1000, 1))
"""
"""The first two calls in a fresh interpreter: tree-sitter's import and both grammars."""
Scanner = Callable[[str, str], tuple[Any, ...]]
Pairs = set[tuple[str, str]]


def files(source: str) -> Iterator[tuple[str, str]]:
    """(relative path, text) of every JS/TS file of one folder or bare git directory."""
    path = Path(source)
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        data = subprocess.run(
            ["git", "--git-dir", source, "archive", "HEAD"], capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            for member in tar:
                if member.isfile() and member.name.endswith(SUFFIXES):
                    raw = tar.extractfile(member)
                    if raw is not None:
                        yield member.name, raw.read().decode("utf-8", errors="replace")
        return
    for file in sorted(path.rglob("*")):
        if file.suffix in SUFFIXES and file.is_file():
            yield str(file.relative_to(path)), file.read_text("utf-8", errors="replace")


def timed(scan: Scanner, corpus: list[tuple[str, str]], runs: int) -> tuple[float, list[Pairs]]:
    """Best total seconds over ``runs`` passes, and the (name, kind) pairs per file."""
    best, found = float("inf"), list[Pairs]()
    for _ in range(runs):
        start = time.perf_counter()
        found = [{(s.name, s.kind) for s in scan(text, rel)} for rel, text in corpus]
        best = min(best, time.perf_counter() - start)
    return best, found


def import_ms(modules: tuple[str, ...]) -> float:
    """Cumulative import time (ms) of ``modules``, in a fresh interpreter (``-X importtime``)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {', '.join(modules)}"],
        capture_output=True,
        text=True,
        check=True,
    )
    total = 0
    for line in result.stderr.splitlines():
        fields = line.split("|")
        if len(fields) == 3 and fields[2].strip() in modules:
            total += int(fields[1])
    return total / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", default=list(DEFAULT_SOURCES))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--diff", type=int, default=10, help="disagreements to show")
    args = parser.parse_args()
    tree_symbols("export const warm = 1;", "warm.ts")  # grammars loaded once per process
    corpus = []
    for src in args.sources:
        part = list(files(src)) if Path(src).exists() else []
        corpus += part
        lexer_s = timed(lexer_symbols, part, args.runs)[0]
        tree_s = timed(tree_symbols, part, args.runs)[0]
        commonjs_s = timed(commonjs_symbols, part, args.runs)[0]
        print(
            f"  {Path(src).name if Path(src).name != 'repo' else Path(src).parent.name:20s}"
            f"{len(part):5d} files {sum(len(t) for _, t in part) / 1e6:5.2f} MB"
            f"  lexer {lexer_s:5.2f} s  tree-sitter {tree_s:5.2f} s"
            f" (of which the CommonJS scan {commonjs_s:5.2f} s)"
        )
    size = sum(len(text.encode()) for _, text in corpus)
    print(f"{len(corpus)} files, {size / 1e6:.1f} MB from {len(args.sources)} sources")
    lexer_s, old = timed(lexer_symbols, corpus, args.runs)
    tree_s, new = timed(tree_symbols, corpus, args.runs)
    print(f"lexer        {lexer_s:7.2f} s  {sum(map(len, old)):6d} names")
    print(f"tree-sitter  {tree_s:7.2f} s  {sum(map(len, new)):6d} names")
    differ = [
        (rel, o - n, n - o) for (rel, _), o, n in zip(corpus, old, new, strict=True) if o != n
    ]
    print(f"files where they disagree: {len(differ)}")
    for rel, only_old, only_new in differ[: args.diff]:
        print(f"  {rel}: lexer only {sorted(only_old)[:4]}, tree only {sorted(only_new)[:4]}")
    for modules in (
        ("tree_sitter", "tree_sitter_javascript", "tree_sitter_typescript"),
        ("markdown_it",),
    ):
        best = min(import_ms(modules) for _ in range(args.runs))
        print(f"import cost  {best:6.1f} ms  ({', '.join(modules)})")
    first = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"first .ts and .js calls in a fresh interpreter (import, grammars): {first} ms")


if __name__ == "__main__":
    main()
