"""Issue 17: the analyzer describes the project's own code, summarises the rest."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_files import write

from engine.analyzer import analyze, discovery_drafts
from engine.analyzer.definitions import MAX_CHUNK_CHARS, definition_drafts, file_drafts
from engine.analyzer.docs import lead
from engine.analyzer.noise import NoiseClassifier, classify_path
from engine.core.models import MAX_CONTENT_LENGTH


@pytest.mark.parametrize(
    ("rel", "kind"),
    [
        ("CHANGELOG.md", "release-notes"),
        ("docs/release-notes.md", "release-notes"),
        ("History.md", "release-notes"),
        ("changelog/1.2.md", "release-notes"),
        ("docs_src/first_steps/tutorial001.py", "examples"),
        ("examples/mvc/index.js", "examples"),
        ("docs/tutorial/options.py", "examples"),
        ("Documentation/howto/hello.py", "examples"),  # every spelling of a docs folder
        ("examples/json/README.md", None),  # what the example shows, for its reader
        ("samples/json/README", None),
        ("examples/json/notes.md", "examples"),
        ("examples/json/main.kt", "examples"),
        ("tests/test_cli.py", "tests"),
        ("test/README.md", None),  # how the tests run, for their reader
        ("spec/README", None),
        ("tests/fixtures/README.md", "tests"),  # further down: may be a fixture
        ("tests/notes.md", "tests"),
        ("src/router.test.ts", "tests"),
        ("pkg/util_test.go", "tests"),
        ("system_test.sh", "tests"),  # eradman/entr, a C tool: its shell test beside the code
        ("src/format_test.cc", "tests"),
        ("benchmarks/routers/bench.mts", "tests"),
        ("pkg/_vendor/six.py", "vendored"),
        ("third_party/zlib/zlib.h", "vendored"),
        ("api/service_pb2.py", "generated"),
        ("package-lock.json", "generated"),
        ("deprecated/stb_image.c", "old-versions"),  # stb: kept, superseded by stb_image.h
        ("attic/old_parser.py", "old-versions"),
        ("src/deprecated/api.py", None),  # below the top: a package's API of that name
        ("nbs/llms-ctx-full.txt", "generated"),  # llmstxt.org: llms.txt's pages, bundled
        ("docs/llms-full.txt", "generated"),
        ("nbs/llms.txt", None),
        ("dist.min.js", "generated"),
        ("README.md", None),
        ("docs/tutorial/options.md", None),
        ("pkg/changes.py", None),
        ("src/history.ts", None),
        ("typer/testing.py", None),
        ("src/latest.go", None),
        ("lib/router/index.js", None),
    ],
)
def test_classify_path(rel: str, kind: str | None) -> None:
    assert classify_path(rel) == kind


def test_a_nested_folder_with_its_own_licence_is_vendored(tmp_path: Path) -> None:
    write(tmp_path, {"LICENSE": "x", "pkg/core.py": "", "pkg/_click/LICENSE.txt": "x",
                     "pkg/_click/core.py": "", "pkg/_click/sub/a.py": ""})  # fmt: skip
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("pkg/core.py") is None  # the root's own licence does not count
    assert noise.kind("pkg/_click/core.py") == "vendored"
    assert noise.kind("pkg/_click/sub/a.py") == "vendored"


def test_a_test_suites_readme_is_documentation_a_fixtures_is_not(tmp_path: Path) -> None:
    """stakater/Reloader: ``test/loadtest/README.md`` says how to run the load tests; it
    is the README of a suite (a folder of code) right below the test folder. A README in
    a folder of data, or further down, may be a fixture."""
    write(tmp_path, {
        "test/e2e/README.md": "# E2E\n\nRun `make e2e`.\n",
        "test/e2e/advanced/job_test.go": "package advanced\n",
        "test/loadtest/README.md": "# Load tests\n\nRun `make loadtest`.\n",
        "test/loadtest/cmd/loadtest/main.go": "package main\n",
        "tests/fixtures/README.md": "# A fixture\n",
        "tests/fixtures/input.txt": "data\n",
        "tests/suite/cases/README.md": "# A case\n",
        "tests/suite/cases/run.py": "print(1)\n",
        "tests/suite/notes.md": "notes\n",
    })  # fmt: skip
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("test/e2e/README.md") is None
    assert noise.kind("test/loadtest/README.md") is None
    assert noise.kind("test/loadtest/cmd/loadtest/main.go") == "tests"
    assert noise.kind("tests/fixtures/README.md") == "tests"  # a folder of data
    assert noise.kind("tests/suite/cases/README.md") == "tests"  # further down
    assert noise.kind("tests/suite/notes.md") == "tests"  # a suite's README only


def noisy_project(root: Path) -> Path:
    changelog = "# Release notes\n\n" + "".join(
        f"## 1.{i}.0\n\nFixed bug {i}.\n\n" for i in range(50)
    )
    files = {
        "pyproject.toml": '[project]\nname = "shop"\n',
        "shop/__init__.py": '"""Shop."""\n',
        "shop/cart.py": '"""Carts."""\n\ndef checkout(cart):\n    """Pay."""\n    return 1\n',
        "shop/_vendor/LICENSE": "MIT",
        "shop/_vendor/left_pad.py": "def pad(s):\n    return s\n",
        "CHANGELOG.md": changelog,
    }
    files |= {
        f"docs_src/page{i}/tutorial00{i}.py": f"def main{i}():\n    pass\n" for i in range(30)
    }
    files |= {f"tests/test_{i}.py": f"def test_{i}():\n    assert True\n" for i in range(20)}
    return write(root, files)


def test_noise_is_one_summary_per_kind_and_place(tmp_path: Path) -> None:
    drafts = discovery_drafts(analyze(noisy_project(tmp_path)))
    titles = [d.section_title for d in drafts]
    assert "Examples: docs_src/" in titles
    assert "Tests: tests/" in titles
    assert "Vendored: shop/_vendor/" in titles
    assert "Release notes: CHANGELOG.md" in titles
    assert not any(d.file_path.startswith(("docs_src/", "tests/", "shop/_vendor/")) for d in drafts)
    examples = next(d for d in drafts if d.section_title == "Examples: docs_src/")
    assert "30 example files" in examples.content
    notes = next(d for d in drafts if d.section_title == "Release notes: CHANGELOG.md")
    assert "1.0.0" in notes.content and "50 of them for versions" in notes.content
    assert sum("CHANGELOG" in d.file_path for d in drafts) == 1
    # what the newest releases say, in the one entry: "what changed in 1.0?" finds it
    assert "Fixed bug 0." in notes.content and "Fixed bug 49." in notes.content


def test_release_notes_too_long_for_one_entry_keep_their_newest_releases(
    tmp_path: Path,
) -> None:
    root = noisy_project(tmp_path)
    sections = [
        f"## 9.{i}.0\n\n" + f"Fixed the {i}th thing in the parser. " * 20 for i in range(99, -1, -1)
    ]
    (root / "CHANGELOG.md").write_text("# Changes\n\n" + "\n\n".join(sections) + "\n")
    notes = next(d for d in discovery_drafts(analyze(root)) if d.file_path == "CHANGELOG.md")
    assert len(notes.content) <= MAX_CONTENT_LENGTH
    assert "## 9.99.0" in notes.content and "Fixed the 99th thing" in notes.content
    assert "## 9.0.0" not in notes.content  # the oldest: in the file, not in the entry
    assert notes.content.rstrip().endswith("parser.")  # cut after a whole paragraph


def test_release_notes_with_long_version_headings_stay_within_an_entry(tmp_path: Path) -> None:
    root = noisy_project(tmp_path)
    sections = [f"## 9.{i}.0 " + "codename " * 12 + "\n\n" + "Fixed. " * 60 for i in range(99)]
    (root / "CHANGELOG.md").write_text("# Changes\n\n" + "\n\n".join(sections) + "\n")
    notes = next(d for d in discovery_drafts(analyze(root)) if d.file_path == "CHANGELOG.md")
    assert len(notes.content) <= MAX_CONTENT_LENGTH and "## 9.0.0 codename" in notes.content


def test_release_notes_without_a_title_list_their_first_version(tmp_path: Path) -> None:
    """A changelog of version sections alone (``## v3.1.3`` first, no level-1 title): its
    outline takes the first heading for a title, and the newest version is still named."""
    root = noisy_project(tmp_path)
    sections = [f"## v3.1.{i}\n\n* Fixed the {i}th escape." for i in range(3, -1, -1)]
    (root / "CHANGELOG.md").write_text("\n\n".join(sections) + "\n")
    notes = next(d for d in discovery_drafts(analyze(root)) if d.file_path == "CHANGELOG.md")
    assert "4 sections, 4 of them for versions. Latest: v3.1.3; v3.1.2" in notes.content


@pytest.mark.parametrize("name", ["Changes", "NEWS", "ChangeLog", "CHANGES.txt", "History.rdoc"])
def test_release_notes_in_plain_text_hold_their_newest_releases(tmp_path: Path, name: str) -> None:
    """CPAN's ``Changes`` (CPAN::Changes::Spec), GNU's ``NEWS`` and ``ChangeLog``,
    ``CHANGES.txt``: release notes outside markdown are summarised like ``CHANGELOG.md``,
    so that "what changed in 9.47?" finds what changed, not nothing."""
    root = noisy_project(tmp_path)
    (root / "CHANGELOG.md").unlink()
    (root / name).write_text(
        "\n9.48  2026-07-14\n  - Masked CSRF tokens.\n\n"
        "9.47  2026-07-05\n  - Added support for the QUERY method.\n"
    )
    notes = [d for d in discovery_drafts(analyze(root)) if d.file_path == name]
    assert [d.section_title for d in notes] == [f"Release notes: {name}"]
    assert "9.47  2026-07-05" in notes[0].content and "QUERY method" in notes[0].content


def test_a_lead_is_cut_after_its_last_whole_paragraph() -> None:
    text = "# Changes\r\n\r\n## 2.0\r\n\r\nNew parser.\r\n\r\n## 1.0\r\n\r\nFirst."
    assert lead(text, 1_000) == "# Changes\n\n## 2.0\n\nNew parser.\n\n## 1.0\n\nFirst."
    assert lead(text, 30) == "# Changes\n\n## 2.0\n\nNew parser."
    assert lead("one long line\nand another", 15) == "one long line"  # no paragraph fits
    assert lead("x" * 50, 10) == "x" * 10
    newest = "Changes\n=======\n\nVersion 2.0\n-----------\n\nNew parser."
    assert lead(newest + "\n\nVersion 1.0\n-----------\n\nFirst.", 60) == newest


def test_definitions_cover_only_the_projects_own_code(tmp_path: Path) -> None:
    root = noisy_project(tmp_path)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    drafts = definition_drafts(root, files)
    assert {d.file_path for d in drafts} == {"shop/cart.py"}  # __init__ defines nothing
    cart = next(d for d in drafts if d.file_path == "shop/cart.py")
    assert "def checkout(cart):" in cart.content and "return 1" in cart.content
    assert (cart.line_start, cart.line_end) == (3, 5)


def big_class(methods: int) -> str:
    body = "".join(
        f'    def method_{i}(self, value):\n        """Step {i}."""\n'
        + "".join(f"        value = value + {j}  # arithmetic step {j}\n" for j in range(12))
        + "        return value\n\n"
        for i in range(methods)
    )
    return f'class Engine:\n    """Runs the steps."""\n\n    limit = 3\n\n{body}'


def test_a_long_class_is_split_into_head_and_methods_with_line_ranges() -> None:
    text = big_class(6)
    drafts = file_drafts("pkg/engine.py", text, "Python")
    # the small head (docstring, attributes) goes with the first method
    assert drafts[0].section_title == "Engine, Engine.method_0"
    assert "Runs the steps" in drafts[0].content
    titles = [d.section_title for d in drafts[1:]]
    assert titles == [f"Engine.method_{i}" for i in range(1, 6)]
    lines = text.splitlines()
    for draft in drafts:
        assert draft.content.startswith("Python code: ")
        assert len(draft.content) <= MAX_CHUNK_CHARS + 200
        first = lines[draft.line_start - 1].strip()
        assert first and first in draft.content


def test_small_definitions_are_merged_and_long_ones_split() -> None:
    small = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(5))
    merged = file_drafts("m.py", small, "Python")
    assert len(merged) == 1 and merged[0].section_title == "f0, f1, f2, f3, f4"
    long = "def huge():\n" + "".join(
        f"    x{i} = compute({i}, 'padding text here')\n" for i in range(200)
    )
    parts = file_drafts("h.py", long, "Python")
    assert len(parts) > 3
    assert parts[0].section_title == f"huge (part 1 of {len(parts)})"
    assert parts[-1].line_end == 201


def test_javascript_is_cut_at_top_level_declarations_with_their_comment() -> None:
    text = (
        "'use strict';\n\n"
        "/**\n * Send a response.\n */\n"
        "res.send = function send(body) {\n" + "  var chunk = body;\n" * 40 + "};\n\n"
        "/**\n * Set status.\n */\n"
        "res.status = function status(code) {\n" + "  this.statusCode = code;\n" * 40 + "};\n"
    )
    drafts = file_drafts("lib/response.js", text, "JavaScript")
    titles = [d.section_title for d in drafts]
    assert "res.send" in titles[0] and "res.status" in titles[-1]
    status = drafts[-1]
    assert "Set status." in status.content
    assert text.splitlines()[status.line_start - 1] == "/**"


def test_a_chunk_is_fenced_as_code_even_when_its_body_holds_a_fence() -> None:
    text = 'def f():\n    """Example:\n\n    ```python\n    f()\n    ```\n    """\n    return 1\n'
    [draft] = file_drafts("m.py", text, "Python")
    header, opening, *_, closing = draft.content.splitlines()
    assert header.startswith("Python code: f in m.py")
    assert opening == "````python" and closing == "````"
