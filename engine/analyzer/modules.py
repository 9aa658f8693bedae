"""Short summaries of the project's own modules and packages.

The code itself is indexed by definition (:mod:`engine.analyzer.definitions`); a module's
entry only says what the module is for (its docstring) and what it offers: the key classes
and functions with their one-line summaries, then the other public names. A package's
entry lists its modules with their purposes. Both stay around a screenful, whatever the
size of the module.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from engine.analyzer.languages import language_of
from engine.analyzer.model import Analysis, DiscoveryDraft, Symbol

MAX_SUMMARY_CHARS = 1_500
MAX_KEY_SYMBOLS = 8
"""Classes and functions shown with their summaries."""
MAX_NAMES = 30
MAX_SIGNATURE = 80
MAX_LINE = 300
"""Longer signatures are left to the definition entries."""
MAX_PACKAGE_MODULES = 30
MAX_KEYWORDS = 10
MAX_PURPOSE = 240

_KEY_KINDS = ("class", "interface", "function", "method", "type", "enum", "default")
"""Kinds shown with their summaries; a method only when its class is defined elsewhere
(Rust's ``impl Style`` in parse_style.rs, Go's methods in a file of their own, C++'s
``Query::parse`` beside the header): what the module adds."""
_PACKAGE_LANGUAGES = frozenset(
    {"Python", "JavaScript", "TypeScript", "Go", "Rust", "Java", "Kotlin", "C#", "PHP", "Ruby",
     "Swift", "C", "C++"}
)  # fmt: skip
"""Languages whose folders of two or more modules get a package entry."""
_PACKAGE_FILES = (
    "__init__.py", "index.ts", "index.js", "mod.rs", "lib.rs", "doc.go", "package-info.java"
)  # fmt: skip
"""Files whose docstring or opening comment says what their folder's package is for."""


def module_summary(file: str, symbols: list[Symbol], summary: str) -> DiscoveryDraft:
    """What the module ``file`` is for and its public API, in at most ~1,500 characters."""
    language = language_of(file.rpartition("/")[2]) or "source"
    defined = {s.name for s in symbols if s.kind != "method"}
    top = [s for s in symbols if s.kind != "method" or _owner(s) not in defined]
    methods = _methods_by_owner([s for s in symbols if s not in top])
    title = f"Module {file}"
    lines = [f"Module {file} ({language})" + (f": {summary}" if summary else "")]
    counts = _counts(top)
    if counts:
        lines.append(f"Public API: {counts}.")
    key = sorted(
        (s for s in top if s.kind in _KEY_KINDS),
        key=lambda s: (not s.summary, s.kind != "class", -len(methods.get(s.name, [])), s.line),
    )[:MAX_KEY_SYMBOLS]
    key.sort(key=lambda s: s.line)
    lines += [_key_line(sym, methods.get(sym.name, [])) for sym in key]
    shown = {s.name for s in key}
    rest = [s.name for s in top if s.name not in shown]
    if rest:
        lines.append(_also(rest, min(MAX_LINE, MAX_SUMMARY_CHARS - len(_fit(lines)))))
    names = [s.name for s in key] + rest
    return DiscoveryDraft(_fit(lines), title, file, _keywords(names))


def _also(names: list[str], room: int) -> str:
    """``Also: a, b, c and 12 more.``, as many names as fit in ``room`` characters."""
    shown: list[str] = []
    size = 40
    for name in names[:MAX_NAMES]:
        if size + len(name) + 2 > room:
            break
        shown.append(name)
        size += len(name) + 2
    more = f" and {len(names) - len(shown)} more" if len(names) > len(shown) else ""
    return f"Also: {', '.join(shown)}{more}."


def _key_line(sym: Symbol, methods: list[str]) -> str:
    """``- function name(signature) (line n): summary (methods: …)``; long signatures cut."""
    kind: str = sym.kind
    detail = sym.detail
    if detail.startswith("async "):
        kind, detail = f"async {kind}", detail.removeprefix("async ")
    shown = sym.name + (detail if detail.startswith("(") and len(detail) <= MAX_SIGNATURE else "")
    line = f"- {kind} {shown} (line {sym.line})" + (f": {sym.summary}" if sym.summary else "")
    if methods:
        line += f" (methods: {', '.join(methods[:12])})"
    return line


def package_summaries(analysis: Analysis, own: set[str]) -> list[DiscoveryDraft]:
    """One entry per folder holding two or more of the project's own modules."""
    by_folder: dict[str, list[str]] = defaultdict(list)
    for rel in sorted(own):
        folder, _, name = rel.rpartition("/")
        if language_of(name) in _PACKAGE_LANGUAGES and folder:
            by_folder[folder].append(rel)
    drafts = []
    for folder, files in sorted(by_folder.items()):
        if len(files) < 2:
            continue
        purpose = _package_purpose(folder, analysis)
        title = f"Package {folder}/"
        lines = [f"{title}: {purpose}" if purpose else title, f"{len(files)} modules:"]
        for rel in files[:MAX_PACKAGE_MODULES]:
            summary = analysis.summaries.get(rel, "")
            lines.append(f"- {rel.rpartition('/')[2]}" + (f": {summary}" if summary else ""))
        if len(files) > MAX_PACKAGE_MODULES:
            lines.append(f"- and {len(files) - MAX_PACKAGE_MODULES} more")
        names = [folder.rpartition("/")[2], *(f.rpartition("/")[2] for f in files)]
        drafts.append(DiscoveryDraft(_fit(lines), title, folder, _keywords(names)))
    return drafts


def _package_purpose(folder: str, analysis: Analysis) -> str:
    """From the package's docstring (Go: the comment that starts ``Package name``, in any
    of its files), else the first paragraph of its README."""
    for init in _PACKAGE_FILES:
        summary = analysis.summaries.get(f"{folder}/{init}")
        if summary:
            return summary
    go_doc = f"Package {folder.rpartition('/')[2]} "
    for rel, summary in analysis.summaries.items():
        if rel.rpartition("/")[0] == folder and summary.startswith(go_doc):
            return summary
    return _readme_paragraph(analysis.root / folder / "README.md")


def _readme_paragraph(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:20_000]
    except OSError:
        return ""
    for block in text.split("\n\n"):
        line = " ".join(block.split())
        if line and not line.startswith(("#", "<", "[!", "!", "```", "|", "---")):
            return line if len(line) <= MAX_PURPOSE else line[: MAX_PURPOSE - 3] + "..."
    return ""


def _owner(sym: Symbol) -> str:
    """The class a method belongs to (``Style`` of ``Style.from_str``; an overload's
    parameters, which may hold dots, left out)."""
    return sym.name.partition("(")[0].rpartition(".")[0]


def _methods_by_owner(symbols: list[Symbol]) -> dict[str, list[str]]:
    """Methods by the class they belong to."""
    methods: dict[str, list[str]] = defaultdict(list)
    for sym in symbols:
        if sym.kind == "method":
            owner, _, method = sym.name.partition(".")
            methods[owner].append(method)
    return methods


def _counts(symbols: list[Symbol]) -> str:
    counts: dict[str, int] = defaultdict(int)
    for sym in symbols:
        counts[sym.kind] += 1
    order = ("class", "function", "method", "interface", "type", "enum", "const", "default")
    ranked = sorted(counts, key=lambda k: order.index(k) if k in order else len(order))
    return ", ".join(f"{counts[k]} {_plural(k, counts[k])}" for k in ranked)


def _plural(kind: str, n: int) -> str:
    noun = {"const": "constant", "default": "default export"}.get(kind, kind)
    if n == 1:
        return noun
    return noun + ("es" if noun.endswith("s") else "s")


def _fit(lines: list[str]) -> str:
    cut = [line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "..." for line in lines]
    text = "\n".join(cut)
    return text if len(text) <= MAX_SUMMARY_CHARS else text[: MAX_SUMMARY_CHARS - 3] + "..."


def _keywords(words: list[str]) -> tuple[str, ...]:
    unique = dict.fromkeys(w.strip() for w in words if w and w.strip() and len(w) <= 60)
    return tuple(unique)[:MAX_KEYWORDS]
