"""Issue 34: what is the project's own code comes from its own declarations (manifests,
go.mod, .gitattributes, .gitmodules), not from folder names or licence files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from project_files import write

from engine import Indexer, Memory, run_discovery
from engine.analyzer import analyze, discovery_drafts
from engine.analyzer.noise import NoiseClassifier, classify_path
from engine.analyzer.ownership import read_ownership

LIB_RS = (
    "//! {what}\n\n/// Walks {what}.\n"
    "pub fn walk_{name}(path: &str) -> usize {{\n    path.len()\n}}\n"
)


JAVA = (
    "package acme;\n\n/** Parses requests. */\npublic class Core {\n"
    "    public int parse(String text) {\n        return text.length();\n    }\n}\n"
)
KOTLIN = (
    "/** Parses requests. */\nclass Core {\n    fun parse(text: String): Int = text.length\n}\n"
)
CSHARP = (
    "namespace Acme;\n\n/// <summary>Parses requests.</summary>\npublic class Core\n{\n"
    "    public int Parse(string text) => text.Length;\n}\n"
)


def crate(folder: str, name: str, licence: str = "LICENSE-MIT") -> dict[str, str]:
    """A library crate that ships its own licence and README, as published crates do."""
    return {
        f"{folder}/Cargo.toml": f'[package]\nname = "{name}"\nversion = "0.1.0"\n',
        f"{folder}/{licence}": "Permission is hereby granted, free of charge...\n",
        f"{folder}/README.md": f"# {name}\n\nThe {name} crate walks directories in parallel.\n",
        f"{folder}/src/lib.rs": LIB_RS.format(what=f"the {name} tree", name=name),
    }


def cargo_workspace(root: Path) -> Path:
    files = {
        "Cargo.toml": (
            '[package]\nname = "rg"\nversion = "1.0.0"\n\n'
            '[[bin]]\nname = "rg"\npath = "crates/core/main.rs"\n\n'
            '[dependencies]\ngrep-searcher = { path = "crates/searcher" }\n\n'
            '[workspace]\nmembers = ["crates/*"]\nexclude = ["crates/legacy"]\n'
        ),
        "LICENSE-MIT": "MIT\n",
        "README.md": "# rg\n\nSearches files.\n",
        "src/main.rs": 'fn main() {\n    println!("rg");\n}\n',
        "crates/core/main.rs": "/// The binary.\nfn main() {\n    run();\n}\n",
        "crates/core/LICENSE-MIT": "MIT\n",  # a target's folder: no crate of its own
    }
    files |= crate("crates/ignore", "ignore") | crate("crates/searcher", "searcher", "COPYING")
    files |= crate("crates/legacy", "legacy")
    return write(root, files)


def entry_paths(memory: Memory) -> set[str]:
    return {e.file_path for e in memory.list()}


def memory_paths(root: Path) -> set[str]:
    """The files entries of the memory come from, after indexing the docs and analysing
    the code through the public entry points."""
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        Indexer(memory).run()
        run_discovery(memory)
        return entry_paths(memory)


def test_cargo_workspace_members_are_the_projects_own_code_and_reach_the_memory(
    tmp_path: Path,
) -> None:
    root = cargo_workspace(tmp_path)
    noise = NoiseClassifier(root)
    assert noise.kind("crates/ignore/src/lib.rs") is None  # a member (crates/*) with a licence
    assert noise.kind("crates/searcher/src/lib.rs") is None  # a path dependency too
    assert noise.kind("crates/ignore/README.md") is None
    assert noise.kind("crates/core/main.rs") is None  # the [[bin]]'s folder
    assert read_ownership(root).member("crates/legacy") is None  # workspace.exclude

    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        Indexer(memory).run()
        run_discovery(memory)
        paths = entry_paths(memory)
        titles = {e.section_title for e in memory.list()}
    assert {"crates/ignore/src/lib.rs", "crates/searcher/src/lib.rs"} <= paths
    assert {"crates/ignore/README.md", "crates/searcher/README.md"} <= paths
    assert not any(t.startswith("Vendored: crates/ignore") for t in titles)
    assert not any(t.startswith("Vendored: crates/searcher") for t in titles)


GO_TEST = 'package doc\n\nimport "testing"\n\nfunc TestX(t *testing.T) {}\n'


def go_module(root: Path) -> Path:
    files = {
        "go.mod": "module github.com/acme/cmdkit\n\ngo 1.21\n",
        "LICENSE": "Apache\n",
        "command.go": "// Package cmdkit builds commands.\npackage cmdkit\n\ntype Cmd struct{}\n",
        "doc/README.md": "# Generating documentation\n\nMan pages and markdown from commands.\n",
        "examples/hello/main.go": "package main\n\nfunc main() {}\n",
        "_examples/old/main.go": "package main\n\nfunc main() {}\n",
        "internal/parse/testdata/input.go": "package input\n",
        "tools/docgen/go.mod": "module github.com/acme/cmdkit/tools/docgen\n",
        "tools/docgen/LICENSE": "MIT\n",
        "tools/docgen/gen.go": "package docgen\n\nfunc Generate() {}\n",
    }
    for doc in ("man_docs", "md_docs", "rest_docs", "yaml_docs", "util"):
        files[f"doc/{doc}.go"] = (
            f"/*\nCopyright 2024.\n*/\n\n// {doc} writes the docs of a command.\npackage doc\n\n"
            f"// Gen{doc.title().replace('_', '')} writes a command's {doc}.\n"
            f"func Gen{doc.title().replace('_', '')}(cmd string) error {{\n\treturn nil\n}}\n"
        )
        files[f"doc/{doc}_test.go"] = GO_TEST
    return write(root, files)


def test_a_go_modules_doc_package_is_source_and_its_examples_stay_examples(
    tmp_path: Path,
) -> None:
    root = go_module(tmp_path)
    noise = NoiseClassifier(root)
    assert noise.kind("doc/man_docs.go") is None  # package doc: the man-page generator
    assert noise.kind("doc/man_docs_test.go") == "tests"
    assert noise.kind("examples/hello/main.go") == "examples"  # package main: a program
    assert noise.kind("_examples/old/main.go") == "examples"
    assert noise.kind("internal/parse/testdata/input.go") == "tests"
    assert noise.kind("tools/docgen/gen.go") is None  # a nested module with its own licence

    drafts = discovery_drafts(analyze(root), noise)
    titles = [d.section_title for d in drafts]
    assert not any(t.startswith("Examples: doc") for t in titles)
    assert "Examples: examples/" in titles
    architecture = next(d.content for d in drafts if d.section_title.startswith("Architecture"))
    doc_line = next(line for line in architecture.splitlines() if line.startswith("- doc/"))
    assert "source code" in doc_line and "the test suite" not in doc_line
    overview = next(d.content for d in drafts if d.section_title == "Project overview")
    assert "doc" in overview.split("Source directories:")[1].splitlines()[0]

    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        run_discovery(memory)
        paths = entry_paths(memory)
    assert {"doc/man_docs.go", "doc/md_docs.go", "tools/docgen/gen.go"} <= paths
    assert "examples/hello/main.go" not in paths


@pytest.mark.parametrize("declaration", ["package.json", "pnpm-workspace.yaml"])
def test_npm_and_pnpm_workspaces_are_the_projects_own(tmp_path: Path, declaration: str) -> None:
    files = {
        "package.json": '{"name": "mono", "private": true}',
        "packages/core/package.json": '{"name": "@mono/core"}',
        "packages/core/LICENSE": "MIT\n",
        "packages/core/README.md": "# core\n\nThe core store.\n",
        "packages/core/index.js": "// Stores.\nexport function createStore(state) {\n"
        "  return { state, listeners: [] }\n}\n",
        "packages/skip/LICENSE": "MIT\n",
        "packages/skip/index.js": "export const x = 1\n",
    }
    if declaration == "package.json":
        files["package.json"] = (
            '{"name": "mono", "workspaces": {"packages": ["packages/*", "!packages/skip"]}}'
        )
    else:
        files["pnpm-workspace.yaml"] = 'packages:\n  - "packages/*"\n  - "!packages/skip"\n'
    root = write(tmp_path, files)
    noise = NoiseClassifier(root)
    assert noise.kind("packages/core/index.js") is None
    assert noise.kind("packages/core/README.md") is None
    assert noise.kind("packages/skip/index.js") == "vendored"  # negated: nothing claims it
    assert read_ownership(root).member("packages/core") is not None
    assert {"packages/core/index.js", "packages/core/README.md"} <= memory_paths(root)


def test_maven_modules_are_the_projects_own(tmp_path: Path) -> None:
    pom = (
        '<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "<modules>{}</modules>\n</project>\n"
    )
    root = write(
        tmp_path,
        {
            "pom.xml": pom.format("<module>modules/core</module>"),
            "modules/core/pom.xml": pom.format("<module>codec</module>"),
            "modules/core/LICENSE": "Apache\n",
            "modules/core/src/main/java/acme/Core.java": JAVA,
            "modules/core/codec/LICENSE.txt": "Apache\n",
            "modules/core/codec/src/Codec.java": "public class Codec {}\n",
        },
    )
    noise = NoiseClassifier(root)
    assert noise.kind("modules/core/src/main/java/acme/Core.java") is None
    assert noise.kind("modules/core/codec/src/Codec.java") is None  # a module's module
    assert "modules/core/src/main/java/acme/Core.java" in memory_paths(root)


def test_an_unparsable_pom_declares_nothing(tmp_path: Path) -> None:
    root = write(tmp_path, {"pom.xml": "<project><modules>", "lib/x/LICENSE": "MIT"})
    assert read_ownership(root).declared.members == {}


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("settings.gradle", "rootProject.name = 'acme'\ninclude ':lib:core', ':app'\n"),
        (
            "settings.gradle.kts",
            'include(":app")\ninclude("corelib")\n'
            'project(":corelib").projectDir = file("lib/core")\n',
        ),
    ],
)
def test_gradle_included_projects_are_the_projects_own(
    tmp_path: Path, name: str, text: str
) -> None:
    root = write(
        tmp_path,
        {
            name: text,
            "lib/core/LICENSE": "Apache\n",
            "lib/core/src/main/kotlin/Core.kt": KOTLIN,
            "app/src/Main.kt": "fun main() {}\n",
        },
    )
    assert NoiseClassifier(root).kind("lib/core/src/main/kotlin/Core.kt") is None
    assert "lib/core/src/main/kotlin/Core.kt" in memory_paths(root)


def test_dotnet_solution_projects_are_the_projects_own(tmp_path: Path) -> None:
    sln = (
        "Microsoft Visual Studio Solution File, Format Version 12.00\n"
        'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Core", '
        '"src\\Core\\Core.csproj", "{11111111-1111-1111-1111-111111111111}"\nEndProject\n'
        'Project("{2150E333-8FDC-42A3-9474-1A3956D46DE8}") = "lib", "lib", '
        '"{22222222-2222-2222-2222-222222222222}"\nEndProject\n'
    )
    root = write(
        tmp_path,
        {
            "Acme.sln": sln,
            "src/Core/Core.csproj": "<Project/>",
            "src/Core/LICENSE": "MIT\n",
            "src/Core/Core.cs": CSHARP,
            "lib/Other/LICENSE": "MIT\n",
            "lib/Other/Other.cs": "public class Other {}\n",
        },
    )
    noise = NoiseClassifier(root)
    assert noise.kind("src/Core/Core.cs") is None
    assert noise.kind("lib/Other/Other.cs") == "vendored"  # a solution folder is no project
    assert "src/Core/Core.cs" in memory_paths(root)


def test_python_declared_packages_are_the_projects_own(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "shop"\n\n[tool.setuptools]\n'
            'packages = ["shop", "shop.plugins"]\npackage-dir = {"" = "src"}\n',
            "src/shop/__init__.py": "",
            "src/shop/plugins/__init__.py": "",
            "src/shop/plugins/LICENSE": "MIT\n",
            "src/shop/plugins/pay.py": 'def pay(cart):\n    """Charge the cart."""\n'
            "    return sum(cart)\n",
        },
    )
    assert NoiseClassifier(root).kind("src/shop/plugins/pay.py") is None
    assert "src/shop/plugins/pay.py" in memory_paths(root)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("setup.cfg", "[options]\npackages = acme, acme.ext\npackage_dir =\n    = src\n"),
        (
            "setup.py",
            'from setuptools import setup\nsetup(name="acme", '
            'packages=["acme", "acme.ext"], package_dir={"": "src"})\n',
        ),
    ],
)
def test_setup_cfg_and_setup_py_packages(tmp_path: Path, name: str, text: str) -> None:
    files = {name: text, "src/acme/__init__.py": "", "src/acme/ext/x.py": ""}
    root = write(tmp_path, files | {"src/acme/ext/LICENSE": "MIT"})
    assert set(read_ownership(root).declared.members) == {"src/acme", "src/acme/ext"}
    assert NoiseClassifier(root).kind("src/acme/ext/x.py") is None


def test_gitattributes_linguist_attributes_and_their_false_overrides(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            ".gitattributes": (
                "# linguist overrides\n"
                "lib/bundled/** linguist-vendored\n"
                "third_party/ours/** -linguist-vendored\n"
                "api/*.go linguist-generated=true\n"
                "docs/** linguist-documentation=false\n"
                "guide/** linguist-documentation\n"
            ),
            "lib/bundled/jquery.js": "var $ = 1\n",
            "third_party/ours/tool.c": "int main() { return 0; }\n",
            "third_party/zlib/zlib.c": "int z;\n",
            "api/service.go": "package api\n",
            "docs/conf.py": "project = 'acme'\n",
            "guide/walkthrough.py": "print('step 1')\n",
            "guide/index.md": "# Guide\n",
        },
    )
    noise = NoiseClassifier(root)
    assert noise.kind("lib/bundled/jquery.js") == "vendored"
    assert noise.kind("third_party/ours/tool.c") is None  # =false undoes the folder name
    assert noise.kind("third_party/zlib/zlib.c") == "vendored"
    assert noise.kind("api/service.go") == "generated"
    assert noise.kind("docs/conf.py") is None
    assert noise.kind("guide/walkthrough.py") == "examples"
    assert noise.kind("guide/index.md") is None  # documentation pages are indexed


def test_git_submodules_are_vendored(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            ".gitmodules": '[submodule "zlib"]\n\tpath = deps/zlib\n\turl = https://x/z.git\n',
            "deps/zlib/zlib.c": "int z;\n",
            "deps/own.c": "int own;\n",
        },
    )
    noise = NoiseClassifier(root)
    assert noise.kind("deps/zlib/zlib.c") == "vendored"
    assert noise.kind("deps/own.c") is None
    drafts = {d.section_title: d for d in discovery_drafts(analyze(root), noise)}
    assert "a git submodule" in drafts["Vendored: deps/zlib/"].content


def test_a_vendor_folder_is_vendored_unless_a_manifest_claims_it(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["crates/*", "third_party/patched"]\n',
        "third_party/zlib/zlib.c": "int z;\n",
        "vendor/left-pad/index.js": "module.exports = 1\n",
        "third_party/patched/tests/t.rs": "#[test]\nfn t() {}\n",
    }
    files |= crate("third_party/patched", "patched")
    root = write(tmp_path, files)
    noise = NoiseClassifier(root)
    assert noise.kind("third_party/zlib/zlib.c") == "vendored"  # no manifest claims it
    assert noise.kind("vendor/left-pad/index.js") == "vendored"
    assert noise.kind("third_party/patched/src/lib.rs") is None  # a workspace member
    assert noise.kind("third_party/patched/tests/t.rs") == "tests"  # its tests stay tests
    drafts = {d.section_title: d for d in discovery_drafts(analyze(root), noise)}
    assert "no manifest declares" in drafts["Vendored: third_party/"].content
    assert not any("patched" in t for t in drafts if t.startswith("Vendored"))
    paths = memory_paths(root)
    assert {"third_party/patched/src/lib.rs", "third_party/patched/README.md"} <= paths
    assert "third_party/zlib/zlib.c" not in paths


def test_a_path_dependency_in_a_test_named_folder_is_a_library(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["tokio", "tokio-test", "stress-test"]\n\n'
        '[patch.crates-io]\ntokio-test = { path = "tokio-test" }\n',
        "stress-test/Cargo.toml": '[package]\nname = "stress-test"\n',
        "stress-test/src/main.rs": "fn main() {}\n",
    }
    files |= crate("tokio", "tokio") | crate("tokio-test", "tokio_test")
    noise = NoiseClassifier(write(tmp_path, files))
    assert noise.kind("tokio-test/src/lib.rs") is None  # published, depended on by path
    assert noise.kind("stress-test/src/main.rs") == "tests"  # a member only: its name rules
    analysis = analyze(tmp_path, noise=noise)  # the analysis asks the classifier too
    assert analysis.stats["test_files"] == 1
    assert "tokio-test/src/lib.rs" in analysis.summaries  # parsed as the project's code


def test_a_crate_only_the_examples_depend_on_stays_an_example(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["core", "examples/*"]\n',
        "examples/hello/Cargo.toml": '[package]\nname = "hello"\n\n'
        '[dependencies]\nshared = { path = "../shared" }\n',
        "examples/hello/src/main.rs": "fn main() {}\n",
    }
    files |= crate("core", "core") | crate("examples/shared", "shared")
    noise = NoiseClassifier(write(tmp_path, files))
    assert noise.kind("examples/shared/src/lib.rs") == "examples"
    assert noise.kind("examples/hello/src/main.rs") == "examples"


def test_workspace_globs_take_package_folders_and_never_enter_node_modules(
    tmp_path: Path,
) -> None:
    files = {
        "package.json": '{"workspaces": ["packages/**"]}',
        "packages/ui/button/package.json": "{}",
        "packages/ui/button/LICENSE": "MIT",
        "packages/ui/button/index.js": "export const b = 1\n",
        "packages/ui/button/vendor/LICENSE": "MIT",
        "packages/ui/button/vendor/lib.js": "var x\n",
        "packages/ui/node_modules/dep/package.json": "{}",
    }
    root = write(tmp_path, files)
    assert set(read_ownership(root).declared.members) == {"packages/ui/button"}
    noise = NoiseClassifier(root)
    assert noise.kind("packages/ui/button/index.js") is None
    assert noise.kind("packages/ui/button/vendor/lib.js") == "vendored"


def test_a_license_folder_or_source_file_is_code_not_a_licence(tmp_path: Path) -> None:
    files = {"pkg/cmd/repo/license/license.py": "", "pkg/cmd/repo/a.py": "",
             "src/node/plugins/license.ts": "", "src/node/plugins/css.ts": ""}  # fmt: skip
    root = write(tmp_path, files)
    assert NoiseClassifier(root).kind("pkg/cmd/repo/a.py") is None
    assert NoiseClassifier(root).kind("src/node/plugins/css.ts") is None


def test_without_declarations_a_nested_licensed_folder_is_still_vendored(tmp_path: Path) -> None:
    root = write(tmp_path, {"pkg/core.py": "", "pkg/_click/LICENSE": "x", "pkg/_click/a.py": ""})
    assert NoiseClassifier(root).kind("pkg/_click/a.py") == "vendored"


@pytest.mark.parametrize(
    ("rel", "kind"),
    [
        ("_examples/chi/main.go", "examples"),
        ("pkg/parse/testdata/case.go", "tests"),
        ("third-party/lib/a.c", "vendored"),
        ("scripts/changes/publish.ts", None),  # release tooling, not release notes
        ("changes/1.2.md", "release-notes"),
    ],
)
def test_go_and_vendor_folder_names(rel: str, kind: str) -> None:
    assert classify_path(rel) == kind


def test_the_prompt_hooks_classify_path_loads_none_of_the_manifest_parsers() -> None:
    code = (
        "import json, sys\nfrom engine import classify_path\n"
        "assert classify_path('CHANGELOG.md') == 'release-notes'\n"
        "assert classify_path('src/app/router.py') is None\n"
        "watched = ('engine.analyzer.ownership', 'engine.analyzer.workspaces', 'yaml',"
        " 'defusedxml', 'pathspec', 'engine.analyzer.languages')\n"
        "print(json.dumps([m for m in watched if m in sys.modules]))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == []
