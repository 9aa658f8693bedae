"""A test file is told by the words of its name and of the folders above it, one rule for
every language: both the noise rules (:func:`classify_path`, what the indexer leaves out)
and the analyzer's :func:`is_test_path` (test counts) use it, and the ``analyzer_include``
setting takes any of them back as the project's own.

eradman/entr, a C tool, had ``system_test.sh`` indexed as the project's code: the names
were a list of languages' patterns, and shell and C were not on it. The folders were two
lists that disagreed (``benches/`` a test folder to one, ``benchmarks/`` to the other)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder
from project_files import write

from engine.analyzer.definitions import definition_drafts
from engine.analyzer.noise import NoiseClassifier, classify_path
from engine.analyzer.testing_names import is_test_path, named_for_specs
from engine.core.config import load_config
from engine.core.models import Source
from engine.services.discovery import run_discovery
from engine.services.memory import Memory
from engine.services.source_report import explain_sources

OLD_LISTS = [
    # every kind of name the two hand-written patterns caught, each still a test
    "test_cli.py", "cli_test.py", "conftest.py", "util_test.go", "client_test.rb",
    "client_spec.rb", "lexer_test.rs", "parser_unittest.rs", "router.test.ts",
    "router.spec.js", "view.test.tsx", "api.spec.mjs", "store_test.cts", "RouterTest.java",
    "RouterTests.java", "CacheTest.kt", "ParserTests.cs", "PlayerTests.swift",
    "RouterTest.php", "SessionSpec.kt", "ParserSpec.scala", "ClientSpec.groovy",
    "list_test.c", "parser_unittest.cc", "test.c", "tests.cpp", "test_list.cxx",
]  # fmt: skip
NEW_LANGUAGES = [
    "system_test.sh", "test_watch.sh", "format_test.cc", "test_format.c", "foo_unittest.cpp",
    "test_helpers.h", "LoginTest.php", "worker_test.exs", "parser_test.dart",
    "ParserTest.scala", "config_spec.lua", "test_lexer.ml", "ParserSpec.hs", "Spec.hs",
    "lexer_test.zig", "ParserTests.kt", "HTTPServerTest.java", "Router.test.vue",
    "tests.rs", "tests.py", "test.lua", "run_tests.sh", "test-cov.sh", "console_tests.rs",
    "Test1.java", "test_01.sh", "test_helper.rb", "spec_helper.rb", "TestUtils.java",
    "index.test-d.ts", "ABTest.java",
]  # fmt: skip
NOT_TESTS = [
    # the test word inside another word, in the middle of the name, or not code at all
    "contest.py", "latest.go", "attestation.rs", "testify.go", "Tester.java", "fastest.c",
    "Contest.java", "specification.py", "Respect.kt", "Package.swift", "unittest.py",
    "my_test_utils.py", "latest_release.rb", "protest.ts", "testing.go", "unittesting.py",
    "testing.md", "test-plan.md", "spec.md", "TESTING.rst", "openapi-spec.yaml",
    "test.json", "tests.toml", "conftest.txt",
]  # fmt: skip


@pytest.mark.parametrize("name", OLD_LISTS + NEW_LANGUAGES)
def test_a_test_file_is_told_by_the_first_or_last_word_of_its_name(name: str) -> None:
    assert classify_path(f"src/{name}") == "tests"
    assert is_test_path(f"src/{name}")


@pytest.mark.parametrize("name", NOT_TESTS)
def test_a_word_that_only_holds_test_and_docs_and_data_are_not_tests(name: str) -> None:
    assert classify_path(f"src/{name}") is None
    assert not is_test_path(f"src/{name}")


def test_a_name_is_cut_into_words_at_separators_case_changes_and_numbers() -> None:
    from engine.analyzer.testing_names import name_words

    assert name_words("HTTPServerTests.kt") == ["http", "server", "tests"]
    assert name_words("router.test.ts") == ["router", "test"]
    assert name_words("foo-bar_baz2qux.c") == ["foo", "bar", "baz", "qux"]
    assert name_words("run-tests") == ["run", "tests"]  # no extension: the whole name
    assert name_words(".test") == ["test"]
    assert name_words("index.test-d.ts") == ["index", "test"]  # a letter is not a word


ENTR = {
    "entr.c": "/* entr: run arbitrary commands when files change */\n"
    "int\nmain(int argc, char *argv[])\n{\n\treturn watch_files(argc, argv);\n}\n",
    "status.c": "/* status: report a child's exit */\nvoid\nprint_status(int s)\n{\n}\n",
    "system_test.sh": "#!/bin/sh\n# this is a functional test of entr\n"
    "try() { echo \"$1\"; }\ntry 'exec single utility when an entire stdin list is '\n",
    "README.md": "# entr\n\nRun arbitrary commands when files change.\n",
}


def test_a_c_projects_shell_test_is_left_out_of_its_code(tmp_path: Path) -> None:
    """eradman/entr: ``system_test.sh`` beside ``entr.c`` was indexed as its code."""
    write(tmp_path, ENTR)
    drafts = definition_drafts(tmp_path, sorted(ENTR))
    assert {d.file_path for d in drafts} == {"entr.c", "status.c"}
    report = explain_sources(tmp_path, load_config(tmp_path))
    assert "left out: tests 1" in report.summary()


def test_cli_sources_explains_the_shell_test_as_a_test(tmp_path: Path) -> None:
    project = write(git_repo(tmp_path / "entr"), ENTR)
    done = run_cli("sources", "--explain", "system_test.sh", cwd=project, home=tmp_path / "h")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "out  system_test.sh  (code, tests)"


IN_TEST_FOLDERS = [
    # a folder whose first or last word is a test word, in any language's layout
    "tests/cli.py", "test/router.js", "spec/models/user.rb", "__tests__/store.ts",
    "Tests/ParserTests/Split.swift", "integration_tests/run.py", "runtime-tests/deno/index.ts",
    "e2e-specs/login.ts", "src/androidTest/java/Main.kt", "src/commonTest/kotlin/Main.kt",
    "test-shrinker/src/main/java/com/example/Main.java", "pkg/unit_tests/io.c",
    # the one-word conventions
    "testdata/input.go", "pkg/testdata/x.go", "fixtures/user.js", "src/__fixtures__/a.js",
    "__mocks__/fs.js", "e2e/login.ts", "benches/parse.rs", "benchmarks/routers/bench.mts",
    "pkgs/shelf/benchmark/pipeline.dart", "testing/python/approx.py",
    "t/dsl/route.t", "xt/perlcritic.t", "t/t0001-init.sh",  # Perl's and sharness' suites
    "regress/new-session-size.sh", "regress/conf/99749670.conf",  # OpenBSD's, tmux's
]  # fmt: skip
NOT_IN_TEST_FOLDERS = [
    # a package's test helpers below the top, a test word inside a folder's word or among
    # other words, and folders that are not tests by any convention
    "src/helper/testing/index.ts", "pkg/testing/helpers.go", "latest/main.go",
    "pkgs/shelf_test_handler/lib/handler.dart", "internal/testutil/x.go", "contest/a.py",
    "Sources/ArgumentParserTestHelpers/Helpers.swift", "src/my_test_tools/a.py",
    "bench/repo_qa/run.py", "Lib/unittest/case.py", "src/main/java/Main.kt",
    "lib/t/helper.pm",  # a one-letter folder below the top is nobody's convention
    "src/regress/plan.c",  # a regression module (a type checker's), not OpenBSD's suite
]  # fmt: skip


@pytest.mark.parametrize("rel", IN_TEST_FOLDERS)
def test_a_test_folder_is_one_rule_for_the_noise_and_the_test_count(rel: str) -> None:
    assert classify_path(rel) == "tests"
    assert is_test_path(rel)


@pytest.mark.parametrize("rel", NOT_IN_TEST_FOLDERS)
def test_a_folder_that_is_not_a_test_folder_holds_the_projects_code(rel: str) -> None:
    assert classify_path(rel) is None
    assert not is_test_path(rel)


FSSPEC = {
    # fsspec's core is a module named for a spec: a test by its name, the project's own code
    "fsspec/__init__.py": "from .spec import AbstractFileSystem\n",
    "fsspec/spec.py": "class AbstractFileSystem:\n"
    '    """An abstract super-class for pythonic file-systems."""\n\n'
    "    def open(self, path):\n        return path\n",
    "fsspec/tests/test_spec.py": "def test_open():\n    assert True\n",
}
INCLUDE_SPEC = 'analyzer_include = ["fsspec/spec.py"]\n'


def test_cli_sources_takes_a_test_named_file_back_with_analyzer_include(tmp_path: Path) -> None:
    project = write(git_repo(tmp_path / "fsspec"), FSSPEC)
    home = tmp_path / "h"
    done = run_cli("sources", "--explain", "fsspec", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    assert "out  fsspec/spec.py  (code, tests)" in done.stdout.splitlines()
    write(project, {".claude/memory.config.toml": INCLUDE_SPEC})
    done = run_cli("sources", "--explain", "fsspec", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "in   fsspec/spec.py  (code, Python)" in lines
    assert "out  fsspec/tests/test_spec.py  (code, tests: fsspec/tests/)" in lines


def test_analyzer_include_takes_a_test_named_file_into_the_definitions(tmp_path: Path) -> None:
    write(tmp_path, FSSPEC)
    own = NoiseClassifier(tmp_path, own=["fsspec/spec.py"])
    assert "fsspec/spec.py" in {d.file_path for d in definition_drafts(tmp_path, FSSPEC, own)}
    assert "fsspec/spec.py" not in {d.file_path for d in definition_drafts(tmp_path, FSSPEC)}


def test_analyzer_include_makes_a_test_named_file_a_module_of_the_discovery(
    tmp_path: Path,
) -> None:
    """The analysis parses it as the project's code (a module entry), not as a test."""
    titles: dict[str, set[str]] = {}
    for setting in ("", INCLUDE_SPEC):
        root = write(git_repo(tmp_path / str(len(setting))), FSSPEC)
        write(root, {".claude/memory.config.toml": setting})
        with Memory.open(root, embedder=FakeEmbedder()) as memory:
            run_discovery(memory)
            titles[setting] = {e.section_title for e in memory.list(source=Source.DISCOVERY)}
    assert "Module fsspec/spec.py" not in titles[""]
    assert "Tests: beside the code" in titles[""]
    assert {"Module fsspec/spec.py", "AbstractFileSystem"} <= titles[INCLUDE_SPEC]
    assert "Tests: beside the code" not in titles[INCLUDE_SPEC]


EXAMPLE_NAMES = [
    # a code file whose first or last word names an example, outside any example folder
    "shell/completion-examples.nu", "flask_example.py", "src/ExampleServer.java",
    "cmd/example-cli.go", "lib/examples.rb",
]  # fmt: skip
NOT_EXAMPLE_NAMES = [
    # pages, data, the word inside another word or among others, and sampling code
    "docs/examples.md", "examples.json", "counterexample.py", "src/load_example_data.py",
    "stats/sample.go", "demo_mode.rs", "src/main.rs",
]  # fmt: skip


@pytest.mark.parametrize("rel", EXAMPLE_NAMES)
def test_an_example_program_is_told_by_its_name_as_a_test_is(rel: str) -> None:
    """fzf's ``shell/completion-examples.nu``, once ``.nu`` files were code, answered "What
    is a monad?" as the project's own: an example program is named so."""
    assert classify_path(rel) == "examples"


@pytest.mark.parametrize("rel", NOT_EXAMPLE_NAMES)
def test_a_page_data_or_a_word_inside_a_name_is_not_an_example(rel: str) -> None:
    assert classify_path(rel) is None


def test_cli_sources_explains_an_example_named_program(tmp_path: Path) -> None:
    files = {"README.md": "# Tool\n\nFinds files.\n", "shell/completion.nu": "def main [] { }\n"}
    files["shell/completion-examples.nu"] = "# how to wire it\ndef example [] { main }\n"
    project = write(git_repo(tmp_path / "tool"), files)
    done = run_cli("sources", "--explain", cwd=project, home=tmp_path / "h")
    assert done.returncode == 0, done.stderr
    assert "out  shell/completion-examples.nu  (code, examples" in done.stdout
    assert "in   shell/completion.nu  (code, Nu/Nushell)" in done.stdout


@pytest.mark.parametrize(
    ("folder", "expected"),
    [("specs", True), ("spec", True), ("api-specs", True), ("SpecFiles", True),
     ("tests", False), ("spec-tests", False), ("test_specs", False), ("inspect", False)],
)  # fmt: skip
def test_a_folder_named_for_specs_alone_is_told_apart(folder: str, expected: bool) -> None:
    assert named_for_specs(folder) is expected


@pytest.mark.parametrize(
    ("manifest", "api", "tests"),
    [
        ("mix.exs", ["lib/plug/test.ex", "lib/plug/adapters/test/conn.ex"], "test/conn_test.exs"),
        ("shard.yml", ["src/spec.cr"], "spec/db_spec.cr"),
        ("rack-test.gemspec", ["lib/rack/test.rb"], "spec/rack/test_spec.rb"),
        ("apps/web/mix.exs", ["apps/web/lib/web/test/helpers.ex"], "apps/web/test/web_test.exs"),
    ],
)  # fmt: skip
def test_what_a_package_manager_ships_whole_is_code_whatever_its_name(
    tmp_path: Path, manifest: str, api: list[str], tests: str
) -> None:
    write(tmp_path, {manifest: "", tests: "", **dict.fromkeys(api, "")})
    noise = NoiseClassifier(tmp_path)
    assert [noise.kind(rel) for rel in api] == [None] * len(api)
    assert noise.kind(tests) == "tests"


def test_a_lib_folder_no_manifest_ships_keeps_its_tests(tmp_path: Path) -> None:
    # Python ships tests inside packages (numpy/tests/); a lib/ of its own says nothing.
    write(tmp_path, {"pyproject.toml": "", "lib/tests/test_core.py": "", "lib/test.py": ""})
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("lib/tests/test_core.py") == "tests"
    assert noise.kind("lib/test.py") == "tests"


def test_a_cucumber_suite_is_tests_and_a_features_folder_of_code_is_code(tmp_path: Path) -> None:
    write(tmp_path, {
        "features/digest_authentication.feature": "Feature: Digest authentication\n",
        "features/steps/httparty_steps.rb": "When /the request/ do\nend\n",
        "features/support/env.rb": "require 'httparty'\n",
        "src/features/cart/slice.ts": "export const cart = 1;\n",  # an app's feature module
        "acceptance/login.feature": "Feature: Login\n",
        "lib/httparty/request.rb": "class Request\nend\n",
    })  # fmt: skip
    noise = NoiseClassifier(tmp_path)
    assert noise.decide("features/steps/httparty_steps.rb") == ("tests", "features/")
    assert noise.kind("features/support/env.rb") == "tests"
    assert noise.kind("features/digest_authentication.feature") == "tests"
    assert noise.kind("acceptance/login.feature") == "tests"
    assert noise.kind("src/features/cart/slice.ts") is None
    assert noise.kind("lib/httparty/request.rb") is None


def test_a_features_folder_too_big_to_look_through_stays_code(tmp_path: Path) -> None:
    # An app's features/ of 2,001 modules: past the files looked through, nothing changes.
    write(tmp_path, {f"src/features/f{n}.ts": "" for n in range(2_001)})
    write(
        tmp_path, {"specs/big/a.md": "# A\n", **{f"specs/data{n}.json": "" for n in range(2_001)}}
    )
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("src/features/f0.ts") is None
    assert noise.kind("specs/big/a.md") == "tests"  # not looked through: stays the tests'


def test_a_binary_file_named_like_code_is_no_code(tmp_path: Path) -> None:
    """django-debug-toolbar: its 23 compiled gettext catalogs (``LC_MESSAGES/django.mo``,
    Modelica's and Motoko's extension) were reported as code the memory holds; the
    analyzer's walk skips them, a NUL byte in their start."""
    write(tmp_path, {"app.py": "def run():\n    return 1\n"})
    catalog = tmp_path / "locale/de/LC_MESSAGES/django.mo"
    catalog.parent.mkdir(parents=True)
    catalog.write_bytes(b"\xde\x12\x04\x95\x00\x00\x00\x00\x02\x00\x00\x00msgid")
    report = explain_sources(tmp_path, load_config(tmp_path))
    assert "code 1 (Python 1)" in report.summary(), report.summary()
