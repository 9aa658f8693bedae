"""Newcomer questions on real repositories (issue 17): does the memory find the file?

Each ``<name>.json`` names a public repository, the commit measured, the file patterns its
plain-BM25 baselines read (``source_globs``) and 30+ questions written as a newcomer would
ask them, each with the 1–3 files that answer it (checked by reading them before any run).
Only questions and hashes are shipped, never the repositories' code. Issue 17 added Python,
JavaScript and TypeScript projects; issue 34 Go, Rust, Java and C++; issue 50 layouts of
documentation none of those has (Sphinx reStructuredText, odoc pages, a vimdoc help page,
a monorepo of packages' READMEs, a man page) in Python, OCaml, Lua, Dart and Go.

Beside each set, ``<name>.paths.gz`` lists the paths git tracks at the set's commit (paths
only, no content), so that the answer files are checked everywhere, with no clone and no
network.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
REPOSITORIES = (
    "typer",
    "express",
    "zustand",
    "hono",
    "urfave_cli",
    "delta",
    "gson",
    "fmt",
    "marshmallow",
    "cmdliner",
    "oil_nvim",
    "shelf",
    "fzf",
)
HIT_K = 5
MRR_K = 10

_NOISE = re.compile(
    r"(?:^|/)(?:tests?|__tests__|[^/]*-tests?|tests?-[^/]+|testdata|spec|e2e|fixtures|benchmarks?"
    r"|examples?|samples?|docs_src|demos?"
    r"|vendor|vendored|_vendor|third_party|_click|generated|changelog|changes|release-notes)/"
    r"|(?:^|/)(?:CHANGELOG|HISTORY|History|NEWS|CHANGES|release-notes)[^/]*$"
    r"|(?:^|/)(?:test_[^/]*\.py|[^/]*_test\.(?:py|go|rs|cc|cpp|c)|[^/]*\.(?:test|spec)\.[jt]sx?"
    r"|[^/]*_spec\.rb|[^/]*Tests?\.(?:java|kt|cs))$",
    re.IGNORECASE,
)
_DOC_SUFFIXES = (".md", ".mdx", ".rst", ".txt", ".adoc", ".mld")
_MAN_PAGE = re.compile(r"\.[1-9]$")
_TEST_IN_SOURCE = re.compile(
    r"#\[(?:cfg\()?test\b|^\s*(?:pub\s+)?mod\s+tests?\b|\bfn\s+test_\w*\s*\("
    r"|\bfunc\s+(?:Test|Benchmark|Fuzz)[A-Z_]\w*\s*\(\s*\w+\s+\*testing\."
    r"|^\s*def\s+test_\w*\s*\(|@(?:Test|ParameterizedTest)\b|^\s*TEST(?:_F|_P)?\s*\(",
    re.MULTILINE,
)
_WORD = re.compile(r"[^\W\d_]{2,}")
_SUMMARY = re.compile(
    r"^(?:(?P<module>Module (?!documentation of )\S|(?:More )?[Mm]odules in \S)"
    r"|(?P<package>Package \S)|(?P<overview>Project overview$))"
)
SUMMARY_KINDS = ("module", "package", "overview")


@dataclass(frozen=True, slots=True)
class Question:
    q: str
    files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class QuestionSet:
    name: str
    repo: str
    commit: str
    kind: str
    source_globs: tuple[str, ...]
    questions: tuple[Question, ...]


def load(name: str) -> QuestionSet:
    """The question set ``bench/repo_qa/<name>.json``."""
    data = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    return QuestionSet(
        name,
        data["repo"],
        data["commit"],
        data["kind"],
        tuple(data["source_globs"]),
        tuple(Question(q["q"], tuple(q["files"])) for q in data["questions"]),
    )


def paths_file(name: str) -> Path:
    """Where the list of paths tracked at set ``name``'s commit is shipped."""
    return HERE / f"{name}.paths.gz"


def tracked_paths(name: str) -> tuple[str, frozenset[str]]:
    """The commit and the paths git tracks at it, as shipped for set ``name``."""
    data = json.loads(gzip.decompress(paths_file(name).read_bytes()).decode("utf-8"))
    return data["commit"], frozenset(data["paths"])


def pack_paths(commit: str, paths: Sequence[str]) -> bytes:
    """The shipped form of a commit's tracked paths: sorted, as gzipped JSON with no
    timestamp, so the same tree always gives the same bytes."""
    text = json.dumps({"commit": commit, "paths": sorted(set(paths))}, indent=0)
    return gzip.compress(text.encode("utf-8"), mtime=0)


def off_topic_groups() -> dict[str, list[str]]:
    """Queries unrelated to any project, by group (nonsense strings, everyday topics,
    programming topics none of the projects deals with)."""
    data = json.loads((HERE / "offtopic.json").read_text(encoding="utf-8"))
    return {group: list(queries) for group, queries in data["groups"].items()}


def off_topic() -> list[str]:
    """Every off-topic query, the groups one after the other."""
    return [q for queries in off_topic_groups().values() for q in queries]


def is_noise(path: str) -> bool:
    """Release notes, examples, tests, vendored or generated code, by path (the bench's own
    rule, independent of the product's)."""
    return bool(path) and bool(_NOISE.search(path))


def is_doc(path: str) -> bool:
    """A documentation file (markdown and other prose formats, odoc pages, man pages), by
    suffix."""
    return path.lower().endswith(_DOC_SUFFIXES) or bool(_MAN_PAGE.search(path))


def question_kind(question: Question) -> str:
    """``doc`` when the question's first answer file is documentation, else ``source``."""
    return "doc" if is_doc(question.files[0]) else "source"


def is_test_code(text: str) -> bool:
    """Text that is (or holds) a unit test: ``#[cfg(test)]``/``#[test]``, ``func TestX(t
    *testing.T)``, ``def test_x(``, ``@Test``, ``TEST(`` — to find tests written inside source
    files, which the path rule cannot see."""
    return bool(_TEST_IN_SOURCE.search(text))


def summary_kind(category: str, title: str) -> str:
    """``module``, ``package`` or ``overview`` for an analysis entry that summarises a
    module (or a folder's modules), a package or the project (by its title, as the analyzer
    writes it), else ``""``. A module's documentation cut from its source is not one."""
    found = _SUMMARY.match(title) if category == "discovery" else None
    if found is None:
        return ""
    return found.lastgroup or ""


def word_count(text: str) -> int:
    """Words of two or more letters in ``text`` (identifiers' letter runs count)."""
    return len(_WORD.findall(text))


def hit_at(ranked_files: Sequence[str], answers: Sequence[str], k: int = HIT_K) -> float:
    """1 when one of the first ``k`` results comes from an answer file."""
    return float(any(f in answers for f in ranked_files[:k]))


def reciprocal_rank(ranked_files: Sequence[str], answers: Sequence[str], k: int = MRR_K) -> float:
    """1/rank of the first result from an answer file within ``k`` (0 when none)."""
    for rank, f in enumerate(ranked_files[:k], start=1):
        if f in answers:
            return 1.0 / rank
    return 0.0


_INJECTED = re.compile(r"^- \[[^\]]+\] (?P<where>\S+?)(?::\d+(?:-\d+)?)? \(id ", re.MULTILINE)


def injected_files(hook_output: str) -> list[str]:
    """The files the hook's context block cites, in order."""
    return [m["where"] for m in _INJECTED.finditer(hook_output)]
