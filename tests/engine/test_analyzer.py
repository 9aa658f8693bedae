"""Codebase analysis: symbols, languages, walking rules, manifests, docs and discovery drafts."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.analyzer import Analysis, Symbol, analyze, discovery_drafts
from engine.analyzer import scan as scan_module
from engine.analyzer.definitions import definition_drafts
from engine.analyzer.gitignore import is_ignored, parse_gitignore
from engine.analyzer.js_symbols import js_symbols

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create ``files`` (relative path → text or bytes) under ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def kinds(analysis: Analysis, file: str) -> dict[str, str]:
    """Symbol name → kind for one file."""
    return {s.name: s.kind for s in analysis.symbols if s.file == file}


def symbol(analysis: Analysis, file: str, name: str) -> Symbol:
    return next(s for s in analysis.symbols if s.file == file and s.name == name)


# --- Python -----------------------------------------------------------------------------------


def test_python_public_symbols_with_methods_constants_and_kinds(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/store.py": '''\
                """Storage of records."""
                from enum import Enum
                from typing import Literal, Protocol

                MAX_ITEMS = 10
                """Most items kept."""
                _SECRET = 1
                lower_value = 2
                Mode = Literal["a", "b"]

                def load(path: str, *, strict: bool = False) -> dict:
                    """Read a file."""

                async def fetch(url): ...

                def _helper(): ...

                class Store:
                    """Keeps records."""
                    def __init__(self): ...
                    def put(self, key: str) -> None: ...
                    async def get(self, key): ...
                    def _evict(self): ...
                    class Inner: ...

                class Color(Enum):
                    RED = 1

                class Reader(Protocol):
                    def read(self) -> bytes: ...

                class _Hidden: ...

                if __name__ == "__main__":
                    def not_exported(): ...
            ''',
        },
    )
    analysis = analyze(tmp_path)
    assert kinds(analysis, "pkg/store.py") == {
        "MAX_ITEMS": "const",
        "Mode": "type",
        "load": "function",
        "fetch": "function",
        "Store": "class",
        "Store.put": "method",
        "Store.get": "method",
        "Color": "enum",
        "Reader": "interface",
        "Reader.read": "method",
    }
    load = symbol(analysis, "pkg/store.py", "load")
    assert load.line == 11
    assert load.detail == "(path: str, *, strict: bool = False) -> dict"
    assert load.summary == "Read a file."
    assert symbol(analysis, "pkg/store.py", "MAX_ITEMS").summary == "Most items kept."
    assert symbol(analysis, "pkg/store.py", "Store.put").detail == "(key: str) -> None"
    assert analysis.summaries["pkg/store.py"] == "Storage of records."
    assert "pkg/store.py" in analysis.entry_points  # the __main__ guard


def test_python_docstrings_give_their_first_paragraph_as_in_other_languages(
    tmp_path: Path,
) -> None:
    """A module's or a definition's purpose is its docstring's first paragraph, wrapped
    lines joined (the first line alone cut "string lookup of schemas" off marshmallow's
    class registry), up to a blank line, a field list or a doctest."""
    write(
        tmp_path,
        {
            "pkg/registry.py": '''
                """A registry of :class:`Schema <pkg.Schema>` classes. This allows for string
                lookup of schemas, which may be used with ``Nested``.

                .. warning:: private.
                """

                def get_class(name: str) -> type:
                    """Retrieve a class from the registry
                    by its name.
                    :raises: KeyError if none is registered.
                    """

                def register(name: str) -> None:
                    """Add a class.
                    >>> register("A")
                    """
            ''',
        },
    )
    analysis = analyze(tmp_path)
    assert analysis.summaries["pkg/registry.py"] == (
        "A registry of Schema classes. This allows for string lookup of schemas, which may be"
        " used with Nested."
    )
    get_class = symbol(analysis, "pkg/registry.py", "get_class")
    assert get_class.summary == "Retrieve a class from the registry by its name."
    assert symbol(analysis, "pkg/registry.py", "register").summary == "Add a class."


def test_python_signatures_are_quoted_as_written(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "sig.py": """\
                import functools

                GREETING: str = "héllo, wörld"  # non-ASCII before the value: byte offsets

                @functools.cache
                def multi(
                    first: int,  # the first
                    second: dict[str, "Ünïcode"] = {},
                ) -> list[int]:
                    return []

                class Base(dict, metaclass=type): ...

                class Child(Base):
                    @staticmethod
                    def tool(x): ...
                    def method(self: "Child", /, y) -> None: pass
            """,
        },
    )
    analysis = analyze(tmp_path)
    assert symbol(analysis, "sig.py", "GREETING").detail == ': str = "héllo, wörld"'
    assert symbol(analysis, "sig.py", "multi").detail == (
        '(first: int, second: dict[str, "Ünïcode"] = {}) -> list[int]'
    )
    assert symbol(analysis, "sig.py", "multi").line == 6
    assert symbol(analysis, "sig.py", "Base").detail == "(dict, metaclass=type)"
    assert symbol(analysis, "sig.py", "Child.tool").detail == "(x)"
    assert symbol(analysis, "sig.py", "Child.method").detail == "(/, y) -> None"


def test_python_all_decides_exports_and_reexports_take_the_definition_kind(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": """\
                from pkg.core import (
                    Engine,
                    build,
                )
                from pkg.core import helper

                __all__ = ["Engine", "build"]
                __all__ += ["VERSION"]
                VERSION = "1"
            """,
            "pkg/core.py": """\
                __all__ = ("Engine", "build", "_private_but_listed")

                class Engine: ...
                def build(): ...
                def helper(): ...
                def _private_but_listed(): ...
            """,
        },
    )
    analysis = analyze(tmp_path)
    assert kinds(analysis, "pkg/__init__.py") == {
        "Engine": "class",
        "build": "function",
        "VERSION": "const",
    }
    assert symbol(analysis, "pkg/__init__.py", "Engine").detail == "re-export from pkg.core"
    assert symbol(analysis, "pkg/__init__.py", "Engine").line == 2
    assert symbol(analysis, "pkg/__init__.py", "build").line == 3
    assert kinds(analysis, "pkg/core.py") == {
        "Engine": "class",
        "build": "function",
        "_private_but_listed": "function",
    }


def test_python_syntax_error_is_reported_not_raised(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    write(
        tmp_path,
        {
            "broken.py": "def broken(:\n    pass\n",
            "fine.py": 'PATTERN = "\\d+"\n\ndef ok(): ...\n',  # invalid escape: a SyntaxWarning
        },
    )
    analysis = analyze(tmp_path)
    assert [f for f, _ in analysis.errors] == ["broken.py"]
    assert "syntax error" in analysis.errors[0][1]
    assert "line 1" in analysis.errors[0][1]
    assert kinds(analysis, "fine.py") == {"PATTERN": "const", "ok": "function"}
    assert "broken.py" in analysis.files  # still hashed, so a fix is noticed
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_test_files_count_but_export_nothing(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "app/core.py": "def run(): ...\n",
            "tests/test_core.py": "def test_run(): ...\n",
            "src/util.test.ts": "export function helper() {}\n",
        },
    )
    analysis = analyze(tmp_path)
    assert {s.file for s in analysis.symbols} == {"app/core.py"}
    assert analysis.stats["test_files"] == 2
    assert analysis.source_dirs == ("app",)


# --- JavaScript / TypeScript --------------------------------------------------------------------


TS_MODULE = """\
export function parse(text: string): Node { return null as any }
export async function* stream() {}
export class Parser {}
export abstract class Base {}
export const VERSION = "1.0";
export const handler = async (req: Request): Promise<void> => {};
export let counter = 0;
export interface Options { strict: boolean }
export type Token = { kind: string };
export enum Color { Red, Green }
export const enum Flag { A }
export declare function declared(): void;
export { local, other as renamed, Kind as default };
export type { Shape } from "./shapes";
export * as utils from "./utils";
export const { alpha, beta: gamma } = config;
function local() {}
const other = 1;
class Kind {}
"""


def test_ts_export_forms() -> None:
    found = {s.name: s.kind for s in js_symbols(TS_MODULE, "src/mod.ts")}
    assert found == {
        "parse": "function",
        "stream": "function",
        "Parser": "class",
        "Base": "class",
        "VERSION": "const",
        "handler": "function",
        "counter": "const",
        "Options": "interface",
        "Token": "type",
        "Color": "enum",
        "Flag": "enum",
        "declared": "function",
        "local": "function",
        "renamed": "const",
        "Kind": "default",
        "Shape": "type",
        "utils": "const",
        "alpha": "const",
        "gamma": "const",
    }
    details = {s.name: s.detail for s in js_symbols(TS_MODULE, "src/mod.ts")}
    assert details["Shape"] == "re-export from ./shapes"
    assert details["utils"] == "namespace re-export"
    assert details["local"] == ""
    lines = {s.name: s.line for s in js_symbols(TS_MODULE, "src/mod.ts")}
    assert lines["parse"] == 1 and lines["Color"] == 10 and lines["renamed"] == 13


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("export default class Widget extends Base {}", {"Widget": "class"}),
        ("export default class {}", {"default": "class"}),
        ("export default function render() {}", {"render": "function"}),
        ("export default async function () {}", {"default": "function"}),
        ("const app = 1;\nexport default app;", {"app": "default"}),
        ("export default { a: 1 };", {"default": "default"}),
        ("class Api {}\nexport = Api;", {"Api": "default"}),
    ],
)
def test_default_exports(source: str, expected: dict[str, str]) -> None:
    symbols = js_symbols(source, "x.ts")
    assert {s.name: s.kind for s in symbols} == expected
    assert all(s.detail in ("default export", "export =") for s in symbols)


def test_exports_in_comments_strings_templates_and_regexes_do_not_count() -> None:
    source = """\
        // export function commentedOut() {}
        /* export class BlockCommented {}
           export const alsoCommented = 1; */
        /**
         * export interface InDocComment {}
         */
        const a = "export function inDoubleQuotes() {}";
        const b = 'export const inSingleQuotes = 1';
        const c = `export class InTemplate {} ${"x"} export const stillTemplate = 1`;
        const d = /export function inRegex/;
        const e = 4 / 2; export const afterDivision = e / 2;
        const url = "http://example.com"; export function afterUrl() {}
        export function real() { return `${`nested ${"}"}`}`; }
        export const last = 1;
    """
    found = {s.name for s in js_symbols(textwrap.dedent(source), "x.js")}
    assert found == {"afterDivision", "afterUrl", "real", "last"}


def test_commonjs_exports() -> None:
    source = """\
        function helper() {}
        class Client {}
        module.exports = {
          helper,
          Client,
          version: "1",
          build: function () {},
          make: (a, b) => a + b,
          run() { return { nested: true }; },
          "quoted-key": 1,
          ...spread,
        };
        exports.extra = () => 1;
        module.exports.CONFIG = { a: 1 };
    """
    found = {s.name: s.kind for s in js_symbols(textwrap.dedent(source), "lib/index.js")}
    assert found == {
        "helper": "function",
        "Client": "class",
        "version": "const",
        "build": "function",
        "make": "function",
        "run": "function",
        "quoted-key": "const",
        "extra": "function",
        "CONFIG": "const",
    }
    assert "nested" not in found


def test_commonjs_single_export() -> None:
    assert [(s.name, s.kind) for s in js_symbols("module.exports = createApp;\n", "a.js")] == [
        ("createApp", "default")
    ]
    assert [(s.name, s.kind) for s in js_symbols("module.exports = class Queue {}", "b.js")] == [
        ("Queue", "class")
    ]


def test_js_files_in_a_project(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "src/App.tsx": "export default function App() { return <p>Don't panic</p>; }\n"
            "export const Button = (props: Props) => <button/>;\n",
            "src/types.d.ts": "export declare interface Config { port: number }\n",
        },
    )
    analysis = analyze(tmp_path)
    assert kinds(analysis, "src/App.tsx") == {"App": "function", "Button": "function"}
    assert kinds(analysis, "src/types.d.ts") == {"Config": "interface"}


# --- Walking ------------------------------------------------------------------------------------


def test_languages_counted_and_sorted(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "a.py": "x = 1\ny = 2\n",
            "b.py": "z = 3",
            "c.py": "",
            "web/app.ts": "let a = 1\n",
            "web/view.tsx": "let b = 2\n",
            "README.md": "# Title\n",
            "notes.unknownext": "whatever\n",
        },
    )
    analysis = analyze(tmp_path)
    table = [(s.language, s.files, s.lines, s.percentage, s.extensions) for s in analysis.languages]
    assert table == [
        ("Python", 3, 3, 50.0, (".py",)),
        ("TypeScript", 2, 2, 33.3, (".ts", ".tsx")),
        ("Markdown", 1, 1, 16.7, (".md",)),
    ]
    assert analysis.stats["files"] == 7
    assert analysis.stats["lines"] == 6
    assert "notes.unknownext" not in analysis.files


class _ListingSpy:
    """Stands in for ``os`` in the scanner: records every directory it lists."""

    def __init__(self) -> None:
        self.listed: list[Path] = []

    def __getattr__(self, name: str) -> object:
        return getattr(os, name)

    def scandir(self, path: str | os.PathLike[str]) -> object:
        self.listed.append(Path(path))
        return os.scandir(path)

    def relative(self, root: Path) -> list[str]:
        """The listed directories, relative to ``root`` (posix, "." for the root), sorted."""
        return sorted(p.resolve().relative_to(root.resolve()).as_posix() for p in self.listed)


@pytest.fixture
def listing(monkeypatch: pytest.MonkeyPatch) -> _ListingSpy:
    """The directories the analyzer's walk lists during the test."""
    spy = _ListingSpy()
    monkeypatch.setattr(scan_module, "os", spy)
    return spy


def test_ignored_hidden_and_gitignored_directories_are_not_walked(
    tmp_path: Path, listing: _ListingSpy
) -> None:
    files: dict[str, str | bytes] = {
        f"node_modules/pkg{i}/lib/index.js": f"export function dep{i}() {{}}\n" for i in range(3)
    }
    files |= {
        "src/main.py": "def real(): ...\n",
        ".hidden/secret.py": "def hidden(): ...\n",
        ".claude/knowledge/x.md": "# Knowledge\n",
        "generated/out.py": "def generated(): ...\n",
        "logs/keep.py": "def kept(): ...\n",
        "logs/drop.py": "def dropped(): ...\n",
        "mypkg.egg-info/top.py": "def egg(): ...\n",
        "custom/skip.py": "def custom(): ...\n",
        ".gitignore": "# comment\n/generated/\nlogs/*.py\n!logs/keep.py\n",
    }
    write(tmp_path, files)
    analysis = analyze(tmp_path, ignored_dirs=["node_modules", "*.egg-info", "custom"])
    names = {s.name for s in analysis.symbols}
    assert names == {"real", "kept"}
    assert analysis.stats["files"] == 2
    # Pruned, not walked and filtered: an ignored directory is never even listed.
    assert listing.relative(tmp_path) == [".", "logs", "src"]


def test_default_ignored_dirs_apply(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "app.py": "def app(): ...\n",
            "venv/lib/x.py": "def v(): ...\n",
            "dist/bundle.js": "export function bundled() {}\n",
            "target/debug/gen.py": "def t(): ...\n",
            "pkg/__pycache__/mod.py": "def cached(): ...\n",
        },
    )
    assert {s.name for s in analyze(tmp_path).symbols} == {"app"}


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "ignored"),
    [
        ("*.log", "a/b/debug.log", False, True),
        ("/build", "build", True, True),
        ("/build", "src/build", True, False),
        ("docs/*.md", "docs/a.md", False, True),
        ("docs/*.md", "docs/sub/a.md", False, False),
        ("**/cache", "x/y/cache", True, True),
        ("out/", "out", False, False),
        ("out/", "a/out", True, True),
        ("a/**/z", "a/b/c/z", False, True),
        ("a/**/z", "a/z", False, True),
        ("data/**", "data/x/y.csv", False, True),
        ("file[0-9].txt", "file7.txt", False, True),
    ],
)
def test_gitignore_patterns(pattern: str, path: str, is_dir: bool, ignored: bool) -> None:
    assert is_ignored(parse_gitignore(pattern, ""), path, is_dir) is ignored


def test_nested_gitignore_applies_below_its_directory() -> None:
    rules = parse_gitignore("*.tmp\n", "") + parse_gitignore("secret.py\n!keep.tmp\n", "pkg")
    assert is_ignored(rules, "pkg/secret.py", False)
    assert not is_ignored(rules, "secret.py", False)
    assert not is_ignored(rules, "pkg/keep.tmp", False)
    assert is_ignored(rules, "other/keep.tmp", False)


def test_binary_and_huge_files_are_skipped_and_counted(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "blob.py": b"def fake():\n    pass\n\x00\x01\x02" + bytes(range(256)),
            "huge.py": "def huge(): ...\n" + "# padding\n" * 20_000,
            "image.png": b"\x89PNG\r\n\x1a\n\x00\x00",
            "ok.py": "def ok(): ...\n",
        },
    )
    analysis = analyze(tmp_path, max_file_bytes=100_000)
    assert {s.name for s in analysis.symbols} == {"ok"}
    assert analysis.stats["skipped_binary"] == 1
    assert analysis.stats["skipped_large"] == 1
    assert analysis.stats["files"] == 4
    assert analysis.errors == ()
    assert set(analysis.files) == {"ok.py"}


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinks_leaving_the_root_are_not_followed(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside", {"lib.py": "def outside(): ...\n"})
    project = write(tmp_path / "project", {"main.py": "def inside(): ...\n"})
    (project / "linked_dir").symlink_to(outside, target_is_directory=True)
    (project / "linked_file.py").symlink_to(outside / "lib.py")
    (project / "loop").symlink_to(project, target_is_directory=True)
    assert {s.name for s in analyze(project).symbols} == {"inside"}


def test_files_map_holds_hashes_of_analysed_files(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "x = 1\n", "docs/guide.md": "# Guide\n"})
    analysis = analyze(tmp_path)
    assert analysis.files == {
        "a.py": hashlib.sha256(b"x = 1\n").hexdigest(),
        "docs/guide.md": hashlib.sha256(b"# Guide\n").hexdigest(),
    }


def test_root_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError):
        analyze(tmp_path / "missing")
    with pytest.raises(NotADirectoryError):
        analyze(write(tmp_path, {"file.py": "x = 1\n"}) / "file.py")


# --- Manifests ----------------------------------------------------------------------------------


def test_pyproject_name_scripts_frameworks_and_test_tools(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": """\
                [project]
                name = "demo-app"
                dependencies = ["textual>=1", "FastAPI[all] ~= 0.110", "Sentence_Transformers"]

                [project.optional-dependencies]
                test = ["pytest>=8", "hypothesis"]

                [project.scripts]
                demo = "demo.cli:main"
            """,
            "demo/__main__.py": "print('hi')\n",
            "demo/cli.py": "def main(): ...\n",
        },
    )
    analysis = analyze(tmp_path)
    assert analysis.name == "demo-app"
    assert analysis.entry_points == ("demo -> demo.cli:main", "demo/__main__.py", "demo/cli.py")
    assert analysis.frameworks == ("fastapi", "sentence-transformers", "textual")
    assert analysis.test_tools == ("hypothesis", "pytest")


def test_package_json_name_bin_main_frameworks_and_test_tools(tmp_path: Path) -> None:
    package = {
        "name": "@acme/tool",
        "main": "./dist/index.js",
        "bin": {"acme": "./bin/acme.js", "acme-dev": "bin/dev.js"},
        "dependencies": {"react": "^18", "next": "14"},
        "devDependencies": {"jest": "^29", "@testing-library/react": "^14"},
    }
    write(tmp_path, {"package.json": json.dumps(package), "vitest.config.ts": "export {}\n"})
    analysis = analyze(tmp_path)
    assert analysis.name == "@acme/tool"
    assert analysis.entry_points == (
        "acme -> bin/acme.js",
        "acme-dev -> bin/dev.js",
        "main -> dist/index.js",
    )
    assert analysis.frameworks == ("next", "react")
    assert analysis.test_tools == ("jest", "testing-library", "vitest")


def test_package_json_string_bin_uses_the_package_name(tmp_path: Path) -> None:
    write(tmp_path, {"package.json": '{"name": "solo", "bin": "cli.js"}'})
    assert analyze(tmp_path).entry_points == ("solo -> cli.js",)


def test_requirements_cargo_and_go_mod(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "requirements-dev.txt": "-r requirements.txt\n# comment\nDjango==5.0  # web\n"
            "pytest-cov\ngit+https://example.com/x.git\nflask @ https://x/flask.whl\n",
            "svc/Cargo.toml": '[package]\nname = "svc"\n[dependencies]\ntokio = "1"\n'
            '[dev-dependencies]\ninsta = "1"\n[[bin]]\nname = "svcd"\npath = "src/daemon.rs"\n',
            "gosvc/go.mod": "module example.com/gosvc\n\ngo 1.22\n\nrequire (\n"
            "\tgithub.com/gin-gonic/gin v1.9.1\n\tgithub.com/stretchr/testify v1.8.4\n)\n",
            "gosvc/main.go": "package main\n",
            "gosvc/main_test.go": "package main\n",
        },
    )
    analysis = analyze(tmp_path)
    assert analysis.frameworks == ("django", "flask", "gin", "tokio")
    assert analysis.test_tools == ("go test", "insta", "pytest-cov", "testify")
    assert "svcd -> svc/src/daemon.rs" in analysis.entry_points
    assert "gosvc/main.go" in analysis.entry_points
    assert analysis.name == tmp_path.name  # no manifest at the root


def test_broken_manifest_is_reported(tmp_path: Path) -> None:
    write(tmp_path, {"package.json": "{not json", "pyproject.toml": "[project\n"})
    analysis = analyze(tmp_path)
    assert {f for f, _ in analysis.errors} == {"package.json", "pyproject.toml"}
    assert analysis.name == tmp_path.name


# --- Documentation -------------------------------------------------------------------------------


def test_doc_outlines(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "README.md": """\
                # My Project {#top}

                Intro.

                ## Install

                ```bash
                # not a heading
                ```

                ### On [Linux](https://x) with `apt`

                Usage
                -----
            """,
            "docs/guide.md": "---\ntitle: The Guide\n---\n\n## First step ##\n",
            "docs/api.rst": "API\n===\n\nClients\n-------\n",
            "LICENSE.md": "# MIT License\n",
        },
    )
    docs = {d.file: d for d in analyze(tmp_path).docs}
    assert set(docs) == {"README.md", "docs/api.rst", "docs/guide.md"}
    readme = docs["README.md"]
    assert readme.title == "My Project"
    assert readme.headings == ("Install", "On Linux with apt", "Usage")
    assert readme.levels == (2, 3, 2)
    assert docs["docs/guide.md"].title == "The Guide"
    assert docs["docs/guide.md"].headings == ("First step",)
    assert (docs["docs/api.rst"].title, docs["docs/api.rst"].headings) == ("API", ("Clients",))


# --- Drafts -------------------------------------------------------------------------------------


def make_project(root: Path) -> Path:
    return write(
        root,
        {
            "pyproject.toml": '[project]\nname = "shop"\ndependencies = ["flask"]\n'
            '[project.scripts]\nshop = "shop.cli:main"\n',
            "shop/cli.py": "def main() -> int:\n    return 0\n",
            "shop/cart.py": '"""Shopping cart."""\n\nclass Cart:\n    def add(self, item): ...\n'
            "    def total(self) -> int: ...\n\ndef empty_cart() -> Cart: ...\n",
            "web/api.ts": "export function getCart() {}\nexport interface CartDto {}\n",
            "README.md": "# Shop\n\n## Running\n",
        },
    )


def test_drafts_overview_and_modules_but_no_doc_outlines(tmp_path: Path) -> None:
    drafts = discovery_drafts(analyze(make_project(tmp_path)))
    overview = drafts[0]
    assert overview.section_title == "Project overview"
    assert overview.file_path == ""
    assert "shop" in overview.content
    assert "Python" in overview.content and "TypeScript" in overview.content
    assert "shop -> shop.cli:main" in overview.content
    assert "flask" in overview.content
    by_file = {d.file_path: d for d in drafts[1:]}
    cart = by_file["shop/cart.py"]
    assert cart.content.startswith("Module shop/cart.py (Python): Shopping cart.")
    assert "class Cart (line 3)" in cart.content
    assert "methods: add, total" in cart.content
    assert "function empty_cart() -> Cart (line 7)" in cart.content
    assert cart.keywords[:2] == ("Cart", "empty_cart")
    assert by_file["web/api.ts"].keywords == ("getCart", "CartDto")
    assert "README.md" not in by_file  # docs are indexed as text (sources), not outlined
    assert all(0 < len(d.content) <= 10_000 and len(d.keywords) <= 10 for d in drafts)


def test_drafts_are_deterministic(tmp_path: Path) -> None:
    make_project(tmp_path / "one")
    first = discovery_drafts(analyze(tmp_path / "one"))
    second = discovery_drafts(analyze(tmp_path / "one"))
    assert first == second
    assert len({d.content for d in first}) == len(first)


def test_a_huge_module_gets_one_short_summary_and_its_code_by_definition(
    tmp_path: Path,
) -> None:
    body = "".join(
        f'def function_number_{i}(argument_one: int, argument_two: str = "x") -> None:\n'
        f'    """Does thing {i} with a fairly long description."""\n'
        for i in range(2000)
    )
    write(tmp_path, {"big.py": '"""A very big module."""\n' + body})
    drafts = [d for d in discovery_drafts(analyze(tmp_path)) if d.file_path == "big.py"]
    assert [d.section_title for d in drafts] == ["Module big.py"]
    summary = drafts[0].content
    assert summary.startswith("Module big.py (Python): A very big module.")
    assert "Public API: 2000 functions." in summary
    assert re.search(r"Also: function_number_\d+, .* and 19\d\d more\.$", summary)
    assert len(summary) <= 1_500
    code = definition_drafts(tmp_path, ["big.py"])
    last = next(d for d in code if "function_number_1999" in d.content)
    assert last.line_start <= 4000 <= last.line_end  # 1 docstring line + 2 lines per function
    assert all(len(d.content) <= 1_500 for d in code)


def test_many_modules_are_capped_largest_first(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        f"pkg{i % 20}/mod{i}.py": "".join(f"def f{j}(): ...\n" for j in range(1 + i % 7))
        for i in range(700)
    }
    write(tmp_path, files)
    drafts = discovery_drafts(analyze(tmp_path))
    modules = [d for d in drafts if d.section_title.startswith("Module ")]
    groups = [d for d in drafts if d.section_title.startswith("Modules in")]
    assert len(modules) + len(groups) <= 320
    assert groups, "files past the cap are summarised per directory"
    sizes = [d.content.count("\n- ") for d in modules]
    assert sizes == sorted(sizes, reverse=True)
    assert all(len(d.content) <= 10_000 for d in drafts)


# --- This repository ----------------------------------------------------------------------------


def test_analysing_this_repository(listing: _ListingSpy) -> None:
    analysis = analyze(PROJECT_ROOT)
    assert symbol(analysis, "engine/services/memory.py", "Memory").kind == "class"
    assert symbol(analysis, "app/cli/main.py", "main").kind == "function"
    assert analysis.name == "memory-tui"
    assert analysis.languages[0].language == "Python"
    assert "textual" in analysis.frameworks and "pytest" in analysis.test_tools
    assert not any(f.startswith((".venv/", ".git/")) for f in analysis.files)
    drafts = discovery_drafts(analysis)
    assert any(d.file_path == "engine/services/memory.py" for d in drafts)
    # Hidden folders (.git, .venv, caches) and __pycache__ are pruned, never listed.
    listed = listing.relative(PROJECT_ROOT)
    assert "engine" in listed and "tests/engine" in listed
    assert [d for d in listed if any(p.startswith(".") for p in d.split("/")) and d != "."] == []
    assert [d for d in listed if "__pycache__" in d.split("/")] == []


def test_analyzer_is_headless() -> None:
    code = (
        "import sys, engine.analyzer; "
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('textual', 'rich', 'app', 'lancedb', 'torch', 'sentence_transformers', 'tree_sitter')]; "
        "print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
