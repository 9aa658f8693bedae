"""Every markdown parser on 1 MB of hostile input: seconds, and a budget it must stay within.

Each input is built to hit what made regex-based parsing quadratic or worse (thousands of
unclosed ``<!--``, unclosed fences, deep nesting, long lines and whitespace runs, directive-like
lines, unmatched brackets and backticks; MyST roles, labels and nested directive fences,
HTML headings, reStructuredText titles, nested directives and roles). Each parser runs on
it at half size and full size: the budget is ``BUDGET_SECONDS`` at full size, and full size
may take at most ``MAX_GROWTH`` times half size (linear time doubles; quadratic quadruples;
runs under a second are too noisy on shared cores to judge growth, and a quadratic parser
takes minutes on 1 MB anyway). The exit status
is 1 when any run is over budget, so ``make bench`` style runs catch a regression; no test
times anything.

    python -m bench.parse_adversarial [--mb 1.0] [--only NAME] [--parsers NAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from engine.analyzer.docs import outline
from engine.markdown.chunking import MIN_PROSE_CHARS, chunk_markdown
from engine.markdown.parse import blank_html_comments, parse_markdown
from engine.markdown.rst import rst_as_markdown

BUDGET_SECONDS = 30.0
"""Most seconds any parser may take on one 1 MB input (on this shared 2-core machine)."""
MAX_GROWTH = 3.0
"""Most that doubling the input may multiply the time by."""


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda size: unit * max(1, size // len(unit))


INPUTS: dict[str, Callable[[int], str]] = {
    "comment opens, one line": _repeat("x <!-- "),
    "comment opens, many lines": _repeat("<!-- a\n"),
    "closed comments": _repeat("<!-- a -->\n"),
    "directives unclosed, one line": _repeat("<!-- keywords: a "),
    "directive then spaces": lambda n: "<!-- keywords" + " " * n,
    "unclosed fences": lambda n: "".join("`" * (3 + i % 9) + "x\n" for i in range(n // 8)),
    "fences in list items": _repeat("- ```\n  # h\n"),
    "deep nesting": _repeat("> " * 200 + "- " * 200 + "x\n"),
    "long line of words": _repeat("word "),
    "one long word": _repeat("x"),
    "heading, whitespace run": lambda n: "# a" + " \t" * (n // 2) + "x",
    "many headings": _repeat("# h\n"),
    "many setext headings": _repeat("a\n===\n"),
    "backtick runs": _repeat("` `` ``` "),
    "brackets in a heading": lambda n: "# " + "[a](" * (n // 8) + "[" * (n // 2),
    "tags and anchors in a heading": lambda n: "# " + "<a" * (n // 4) + "{#" * (n // 4),
    "table rows": lambda n: "| a | b |\n|---|---|\n" + "| x |\n" * (n // 6),
    "jsx and esm lines": _repeat("<Tabs\nimport x\n"),
    "myst roles unclosed": _repeat("{ref}`` a {func}`"),
    "myst labels and comments": _repeat("(x)=\n% c\n{.c}\n"),
    "myst directives nested": lambda n: "".join(
        "`" * (3 + i % 40) + "{note}\n" for i in range(n // 40)
    ),
    "colon fences unclosed": _repeat(":::{tip} t\n"),
    "html headings unclosed": _repeat("<h3>a "),
    "html headings": _repeat("<h2 id=x>q</h2>\n"),
    "rst titles": _repeat("T\n=\n\n"),
    "rst directives nested": lambda n: "".join(
        " " * (3 * (i % 50)) + ".. note::\n\n" for i in range(n // 80)
    ),
    "rst roles unclosed": _repeat(":ref:`a `x <y> "),
}

PARSERS: dict[str, Callable[[str], object]] = {
    "parse .md": lambda text: parse_markdown(text, "doc.md"),
    "parse .mdx": lambda text: parse_markdown(text, "doc.mdx"),
    "blank comments": blank_html_comments,
    "chunk": lambda text: chunk_markdown(text, 2000, 15),
    "outline .md": lambda text: outline("doc.md", text),
    "outline .rst": lambda text: outline("doc.rst", text),
    "chunk as docs": lambda text: chunk_markdown(text, 2000, 15, MIN_PROSE_CHARS),
    "rst as markdown": rst_as_markdown,
}


def _seconds(parser: Callable[[str], object], text: str) -> float:
    """Seconds of one run; the best of two when it is short, where other jobs on the shared
    cores add the most noise."""
    best = float("inf")
    for _ in range(2):
        started = time.perf_counter()
        parser(text)
        best = min(best, time.perf_counter() - started)
        if best > 2:
            break
    return best


def main(argv: list[str] | None = None) -> int:
    """Run every parser on every input; print a table; 1 if any run is over budget."""
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--mb", type=float, default=1.0, help="full input size in MB")
    args.add_argument("--only", default="", help="run only inputs whose name contains this")
    args.add_argument("--parsers", default="", help="run only parsers whose name contains this")
    options = args.parse_args(argv)
    parsers = {k: v for k, v in PARSERS.items() if options.parsers in k}
    size = int(options.mb * 1_000_000)
    print(f"| input ({options.mb:g} MB) | " + " | ".join(parsers) + " |")
    print("|---" * (len(parsers) + 1) + "|")
    over: list[str] = []
    worst = 0.0
    for name, build in INPUTS.items():
        if options.only not in name:
            continue
        full, half = build(size), build(size // 2)
        cells = []
        for parser_name, parser in parsers.items():
            small, large = _seconds(parser, half), _seconds(parser, full)
            growth = large / max(small, 0.01)
            worst = max(worst, large)
            flag = ""
            if large > BUDGET_SECONDS or (large > 1 and growth > MAX_GROWTH):
                over.append(f"{name} / {parser_name}: {large:.2f} s, x{growth:.1f} for 2x input")
                flag = " ✗"
            cells.append(f"{large:.2f}{flag}")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print(f"\nslowest run: {worst:.2f} s (budget {BUDGET_SECONDS:g} s, growth ≤ x{MAX_GROWTH:g})")
    for line in over:
        print("OVER BUDGET:", line)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
