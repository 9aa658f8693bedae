"""Issue 17: project-wide topics, one per entry (build/test/run, CI, dependencies, entry
points, architecture, routes, patterns, naming) and short module and package summaries."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEmbedder
from project_files import write

from engine.analyzer import DiscoveryDraft, analyze, definitions, discovery_drafts
from engine.analyzer.definitions import budget_order, file_drafts
from engine.analyzer.noise import NoiseClassifier, classify_path
from engine.analyzer.topics import MAX_ENTRY_POINTS
from engine.core.models import Source
from engine.services import discovery
from engine.services.discovery import run_discovery
from engine.services.memory import Memory

PYPROJECT = """\
[project]
name = "shop"
requires-python = ">=3.11"
dependencies = ["fastapi>=0.110", "httpx"]

[project.optional-dependencies]
cli = ["rich>=13"]

[project.scripts]
shop = "shop.cli:main"
shop-admin = "shop.admin:run"

[build-system]
build-backend = "hatchling.build"

[tool.pytest.ini_options]
testpaths = ["tests"]
"""
WORKFLOW = """\
name: Test
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: echo "$GITHUB_CONTEXT"
      - run: pip install -e .[cli]
      - name: Test
        run: pytest -q
"""


def shop(root: Path) -> Path:
    files = {
        "pyproject.toml": PYPROJECT,
        "Makefile": ".PHONY: test\ntest:\n\tpytest\nlint: test\n\truff check .\n%.o: %.c\n",
        ".github/workflows/test.yml": WORKFLOW,
        "scripts/test.sh": "#!/bin/sh\nset -e\npytest --cov shop\n",
        "shop/__init__.py": '"""An online shop: carts, orders and payments."""\n',
        "shop/__main__.py": "from shop.cli import main\nmain()\n",
        "shop/cli.py": '"""The shop command."""\n\ndef main() -> None:\n    pass\n',
        "shop/api.py": (
            '"""HTTP API."""\nfrom fastapi import FastAPI\napp = FastAPI()\n\n'
            '@app.get("/carts/{cart_id}")\ndef get_cart(cart_id: int):\n    return {}\n\n'
            '@app.post("/orders")\nasync def create_order():\n    return {}\n'
        ),
        "shop/services/__init__.py": '"""Business rules."""\n',
        "shop/services/payments.py": (
            '"""Payments through the bank."""\n\nMAX_RETRIES = 3\n\n'
            "class PaymentGateway:\n"
            '    """Talks to the bank."""\n\n'
            "    def charge(self, amount: int) -> bool:\n        return True\n\n"
            "def refund_payment(payment_id: str) -> None:\n"
            '    """Give the money back."""\n'
        ),
        "web/server.js": (
            "const express = require('express');\nconst app = express();\n"
            "/**\n * app.get('/in/a/comment', h);\n */\n"
            "app.get('/health', (req, res) => res.send('ok'));\n"
            'router.post("/users/:id", update);\n'
        ),
        "shop/orders/__init__.py": "",
        "shop/orders/model.py": "class Order:\n    pass\n",
        "shop/orders/README.md": "# Orders\n\n[![badge](x.svg)](y)\n\nOrders and their\n"
        "states.\n\nMore.\n",
        "tests/test_api.py": "def test_api():\n    assert True\n",
        "tests/test_cart.py": "def test_cart():\n    assert True\n",
    }
    files |= {f"docs_src/page{i}/tutorial{i}.py": "main()\n" for i in range(30)}
    files |= {
        f"docs_src/page{i}/main.py": 'if __name__ == "__main__":\n    pass\n' for i in range(20)
    }
    return write(root, files)


def by_title(drafts: list[DiscoveryDraft], start: str) -> DiscoveryDraft:
    found = [d for d in drafts if d.section_title.startswith(start)]
    assert len(found) == 1, [d.section_title for d in drafts]
    return found[0]


def test_build_test_and_run_ci_and_dependencies_are_separate_entries(tmp_path: Path) -> None:
    drafts = discovery_drafts(analyze(shop(tmp_path)))
    build = by_title(drafts, "How to build, test and run the project").content
    assert "shop = shop.cli:main" in build
    assert "hatchling.build" in build
    assert "testpaths" in build
    assert "- make test" in build and "- make lint" in build
    assert ".PHONY" not in build and "%.o" not in build
    assert "scripts/test.sh: pytest --cov shop" in build
    ci = by_title(drafts, "Continuous integration: Test")
    assert ci.file_path == ".github/workflows/test.yml"
    assert "- pip install -e .[cli]" in ci.content and "- Test: pytest -q" in ci.content
    assert "GITHUB_CONTEXT" not in ci.content
    deps = by_title(drafts, "Dependencies").content
    assert "- fastapi>=0.110" in deps and "- httpx" in deps
    assert "Optional dependencies [cli]" in deps and "- rich>=13" in deps
    assert ">=3.11" in deps


BLOCK_WORKFLOW = """\
name: Release
'on':
  push:
    tags: ['*']
jobs:
  lint:
    steps:
      - name: Lint code.
        run: |
          # the linters
          yamllint .
          ansible-lint \\
            --strict
  release:
    steps:
      - name: Trigger a new import on Galaxy.
        run: >-
          ansible-galaxy role import --api-key ${{ secrets.GALAXY_API_KEY }}
          owner name
"""


def test_a_workflows_block_scalars_give_their_commands_not_their_indicators(
    tmp_path: Path,
) -> None:
    """A step's ``run`` written as a block scalar (``|`` keeps lines, ``>-`` folds them):
    the workflow is read as YAML, so its commands show, never ``>-`` or ``|``
    (geerlingguy/ansible-role-docker's release.yml said ``pip3 install ansible-core; >-``)."""
    write(tmp_path, {".github/workflows/release.yml": BLOCK_WORKFLOW, "main.py": "x = 1\n"})
    ci = by_title(discovery_drafts(analyze(tmp_path)), "Continuous integration: Release").content
    assert "- Lint code: yamllint .; ansible-lint --strict" in ci.splitlines()
    assert (
        "- Trigger a new import on Galaxy: ansible-galaxy role import --api-key "
        "${{ secrets.GALAXY_API_KEY }} owner name" in ci.splitlines()
    )
    assert ">-" not in ci and "the linters" not in ci


TASKFILE = """\
version: "3"

tasks:
  lint:
    desc: Run lint
    cmds:
      - golangci-lint run

  test:
    desc: 'Run tests'
    cmds:
      - go test ./... {{.CLI_ARGS}}
      - cmd: echo done
  setup:
    internal: true
    cmd: go mod download
  release:
    cmds:
      - task: test
      - git tag "{{.NEXT}}"
"""
JUSTFILE = """\
set shell := ["bash", "-c"]
version := "1.0"
alias t := test

# Run the test suite
test *ARGS:
    cargo test {{ARGS}}

[private]
helper:
    echo hidden

_hidden:
    echo no

@lint: test
    cargo clippy -- -D warnings
    -cargo fmt --check
"""


def test_taskfile_tasks_say_how_to_build_and_test(tmp_path: Path) -> None:
    """Task (taskfile.dev) reads the first of its supported file names at the root: its
    tasks, their descriptions and commands answer "how do I run the tests?" (bubbletea's
    Taskfile.yaml is its only record of the test and lint commands)."""
    write(tmp_path, {"Taskfile.yaml": TASKFILE, "main.go": "package main\n"})
    build = by_title(discovery_drafts(analyze(tmp_path)), "How to build, test and run")
    assert build.file_path == "Taskfile.yaml"
    lines = build.content.splitlines()
    assert "- task lint: Run lint -> golangci-lint run" in lines
    assert "- task test: Run tests -> go test ./... {{.CLI_ARGS}}; echo done" in lines
    assert '- task release -> task test; git tag "{{.NEXT}}"' in lines
    assert not any("setup" in line for line in lines)  # internal: not for the command line


def test_justfile_recipes_say_how_to_build_and_test(tmp_path: Path) -> None:
    """just's public recipes, each with its doc comment and body; settings, assignments,
    aliases and private recipes (``_name``, ``[private]``) are not recipes to run."""
    write(tmp_path, {"justfile": JUSTFILE, "src/main.rs": "fn main() {}\n"})
    build = by_title(discovery_drafts(analyze(tmp_path)), "How to build, test and run")
    assert build.file_path == "justfile"
    lines = build.content.splitlines()
    assert lines[2:] == [
        "- just test: Run the test suite -> cargo test {{ARGS}}",
        "- just lint -> cargo clippy -- -D warnings; cargo fmt --check",
    ]


def test_cargo_features_are_listed_and_each_explained_one_its_own_entry(tmp_path: Path) -> None:
    """A crate says what each of its features is for in comments above it (serde_json's
    ``float_roundtrip``): the manifest is no documentation source, so the "how do I keep
    floats exact" answer was only the ``#[cfg(feature = …)]`` code using it; then a line
    of the long "Dependencies" entry. Each explained feature is its own entry."""
    root = write(tmp_path, {
        "Cargo.toml": (
            '[package]\nname = "frob"\n\n### FEATURES ####\n\n[features]\ndefault = ["std"]\n\n'
            "# Keep the order of map keys as\n# they were read.\n"
            'preserve_order = ["indexmap", "std"]\n\n# unrelated\n\nraw = []\n\n'
            '[dependencies]\n# Not a feature.\nserde = "1"\n'
        ),
        "src/lib.rs": "pub fn frob() {}\n",
    })  # fmt: skip
    drafts = discovery_drafts(analyze(root))
    deps = by_title(drafts, "Dependencies").content
    assert '- default = ["std"]\n- preserve_order = ["indexmap", "std"]\n- raw = []' in deps
    assert "serde" not in deps and "FEATURES" not in deps and "map keys" not in deps
    feature = by_title(drafts, "Cargo feature ")
    assert feature.section_title == "Cargo feature preserve_order"
    assert feature.file_path == "Cargo.toml" and "preserve_order" in feature.keywords
    assert feature.content.startswith(
        "Cargo feature preserve_order (Cargo.toml): Keep the order of map keys as they were"
        ' read.\nEnables ["indexmap", "std"]; turned on with `cargo build --features'
    )


def test_a_go_module_says_which_go_release_and_modules_it_requires(tmp_path: Path) -> None:
    """gorilla/websocket: "which Go version does the package require?" is go.mod's ``go``
    line, which no entry held (go.mod is no documentation source and no code)."""
    root = write(tmp_path, {
        "go.mod": (
            "module github.com/acme/frob\n\ngo 1.20 // min\ntoolchain go1.22.4\n\n"
            "retract (\n    v1.5.2 // tag overwritten\n)\n\n"
            "require (\n\tgolang.org/x/net v0.26.0\n\tgithub.com/a/b v1.0.0 // indirect\n)\n"
            "replace github.com/a/b => ../b\n"
        ),
        "frob.go": "package frob\n\nfunc Frob() {}\n",
    })  # fmt: skip
    deps = by_title(discovery_drafts(analyze(root)), "Dependencies")
    assert deps.file_path == "go.mod"
    assert "- go 1.20\n- toolchain go1.22.4\n" in deps.content
    assert "- golang.org/x/net v0.26.0\n- github.com/a/b v1.0.0 (indirect)" in deps.content
    assert "v1.5.2" not in deps.content and "../b" not in deps.content


def test_a_dart_package_says_which_sdk_and_packages_it_requires(tmp_path: Path) -> None:
    """mobx.dart: "which Dart SDK version does the package need?" is the pubspec's
    ``environment``, which no entry held (pubspec.yaml is no documentation source and no
    code); a dependency is a constraint or a source map (pub's "The pubspec file")."""
    root = write(tmp_path, {
        "pubspec.yaml": (
            "name: frob\nversion: 2.6.1\nenvironment:\n  sdk: '>=3.7.0 <4.0.0'\n"
            "  flutter: '>=3.0.0'\n\ndependencies:\n  meta: ^1.3.0\n  flutter:\n"
            "    sdk: flutter\n  frob_core:\n    path: ../frob_core\n  any_pkg:\n\n"
            "dev_dependencies:\n  build_runner: ^2.4.9\n"
        ),
        "lib/frob.dart": "int frob() => 1;\n",
    })  # fmt: skip
    deps = by_title(discovery_drafts(analyze(root)), "Dependencies")
    assert deps.file_path == "pubspec.yaml"
    assert "- sdk >=3.7.0 <4.0.0\n- flutter >=3.0.0\n" in deps.content
    assert "- meta ^1.3.0\n- flutter (sdk: flutter)\n- frob_core (path: ../frob_core)\n" in (
        deps.content
    )
    assert "- any_pkg any\n" in deps.content and "- build_runner ^2.4.9" in deps.content


def test_a_php_package_says_which_php_release_and_packages_it_requires(tmp_path: Path) -> None:
    """FOSRestBundle: "which PHP and Symfony versions are supported?" is composer.json's
    ``require``, which no entry held (Composer's schema: ``php`` and ``ext-*`` are the
    platform, ``vendor/name`` the packages)."""
    root = write(tmp_path, {
        "composer.json": (
            '{"name": "acme/frob", "require": {"php": "^7.2|^8.0", "ext-json": "*",'
            ' "symfony/http-kernel": "^5.4|^6.0"}, "require-dev": {"phpunit/phpunit": "^9"},'
            ' "scripts": {"test": "phpunit"}}'
        ),
        "src/Frob.php": "<?php\nclass Frob {}\n",
    })  # fmt: skip
    drafts = discovery_drafts(analyze(root))
    deps = by_title(drafts, "Dependencies")
    assert deps.file_path == "composer.json"
    assert "- php ^7.2|^8.0\n- ext-json *\n" in deps.content
    assert "- symfony/http-kernel ^5.4|^6.0\n" in deps.content
    assert "- phpunit/phpunit ^9" in deps.content
    assert "composer test -> phpunit" in by_title(drafts, "How to build").content


def test_a_dotnet_solution_says_which_frameworks_its_libraries_target(tmp_path: Path) -> None:
    """AutoMapper: "which .NET version does the library target?" is its project's
    ``TargetFramework``, which no entry held; the solution's test projects and programs
    (``OutputType`` ``Exe``: a benchmark) are not what the package ships."""
    sln = "".join(
        f'Project("{{FAE04EC0}}") = "{name}", "src\\{name}\\{name}.csproj", "{{1}}"\nEndProject\n'
        for name in ("Frob", "Frob.UnitTests", "Bench", "Checks")
    )
    project = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>{}</PropertyGroup>{}</Project>'
    root = write(tmp_path, {
        "Frob.sln": sln,
        "src/Frob/Frob.csproj": "\ufeff" + project.format(
            "<TargetFrameworks>net8.0;netstandard2.1</TargetFrameworks>",
            '<ItemGroup><PackageReference Include="Microsoft.CSharp" Version="4.7.0" />'
            "</ItemGroup>",
        ),
        "src/Frob.UnitTests/Frob.UnitTests.csproj": project.format(
            "<TargetFramework>net9.0</TargetFramework>", ""
        ),
        "src/Bench/Bench.csproj": project.format(
            "<TargetFramework>net9.0</TargetFramework><OutputType>Exe</OutputType>", ""
        ),
        "src/Checks/Checks.csproj": project.format(
            "<TargetFramework>net9.0</TargetFramework>",
            '<ItemGroup><PackageReference Include="Microsoft.NET.Test.Sdk" /></ItemGroup>',
        ),
        "src/Frob/Frob.cs": "namespace Frob { public class Frob {} }\n",
    })  # fmt: skip
    deps = by_title(discovery_drafts(analyze(root)), "Dependencies")
    assert deps.file_path == "src/Frob/Frob.csproj"
    assert "- net8.0\n- netstandard2.1\n" in deps.content
    assert "- Microsoft.CSharp 4.7.0" in deps.content and "net9.0" not in deps.content


def test_a_gradle_version_catalog_says_which_versions_the_build_uses(tmp_path: Path) -> None:
    """LeakCanary: "what is the minimum Android SDK version?" is ``androidMinSdk`` in
    ``gradle/libs.versions.toml``, Gradle's default version catalog, which no entry held;
    the name is spelled out, one word to the keyword index."""
    root = write(tmp_path, {
        "gradle/libs.versions.toml": (
            '[versions]\nkotlin = "2.4.10"\nandroidMinSdk = "24"\n\n[libraries]\n'
            'okio = { module = "com.squareup.okio:okio", version = "3.9.0" }\n'
            'kotlin-stdlib = { module = "org.jetbrains.kotlin:kotlin-stdlib", '
            'version.ref = "kotlin" }\n\n[plugins]\n'
            'detekt = { id = "io.gitlab.arturbosch.detekt", version = "1.23.6" }\n'
        ),
        "src/main/kotlin/Frob.kt": "fun frob() = 1\n",
    })  # fmt: skip
    deps = by_title(discovery_drafts(analyze(root)), "Dependencies")
    assert deps.file_path == "gradle/libs.versions.toml"
    assert "- androidMinSdk = 24 (android min sdk)\n" in deps.content
    assert "- com.squareup.okio:okio 3.9.0\n- org.jetbrains.kotlin:kotlin-stdlib 2.4.10\n" in (
        deps.content
    )
    assert "- io.gitlab.arturbosch.detekt 1.23.6" in deps.content


def test_entry_points_are_ranked_capped_and_leave_examples_out(tmp_path: Path) -> None:
    drafts = discovery_drafts(analyze(shop(tmp_path)))
    entries = by_title(drafts, "Entry points").content.splitlines()[2:]
    assert entries[:2] == [
        "- command `shop` runs shop.cli:main",
        "- command `shop-admin` runs shop.admin:run",
    ]
    assert entries[2] == "- shop/__main__.py"
    assert "- shop/cli.py: The shop command." in entries
    assert not any("docs_src" in line for line in entries)
    assert len(entries) <= MAX_ENTRY_POINTS
    overview = drafts[0].content
    assert "docs_src" not in overview  # neither a source folder nor an entry point


def test_many_main_modules_are_capped_the_main_package_first(tmp_path: Path) -> None:
    files = {f"tool{i:02}/__main__.py": "pass\n" for i in range(40)}
    files |= {f"zpkg/m{i}.py": "pass\n" for i in range(10)}  # most code: the main folder
    files |= {"zpkg/sub/__main__.py": "pass\n", "zpkg/run.py": 'if __name__ == "__main__":\n  1\n'}
    drafts = discovery_drafts(analyze(write(tmp_path, files)))
    entries = by_title(drafts, "Entry points").content.splitlines()[2:]
    assert len(entries) == MAX_ENTRY_POINTS
    assert entries[:2] == ["- zpkg/sub/__main__.py", "- tool00/__main__.py"]
    assert "- zpkg/run.py" not in entries  # a plain script ranks below 41 __main__ modules


def test_routes_patterns_naming_and_architecture(tmp_path: Path) -> None:
    drafts = discovery_drafts(analyze(shop(tmp_path)))
    routes = by_title(drafts, "API routes").content
    assert "GET /carts/{cart_id} (shop/api.py, line 5)" in routes
    assert "POST /orders (shop/api.py, line 9)" in routes
    assert "GET /health (web/server.js, line 6)" in routes
    assert "POST /users/:id (web/server.js, line 7)" in routes
    assert "/in/a/comment" not in routes
    assert "docs_src" not in routes
    patterns = by_title(drafts, "Architecture patterns").content.splitlines()
    assert patterns[1].startswith("- Command-line application: confidence 1.00")
    web = next(line for line in patterns if "Web API" in line)
    assert "confidence 0.67" in web and "HTTP routes declared" in web
    naming = by_title(drafts, "Naming conventions").content
    assert "Functions and methods: snake_case 100%" in naming
    assert "Classes and types: PascalCase 100%" in naming
    assert "Constants: UPPER_CASE 100%" in naming
    assert "test_*.py (2)" in naming
    layout = by_title(drafts, "Architecture:").content
    assert "- docs_src/ (50 files): example programs" in layout
    assert "- shop/ (9 files): the package shop: An online shop" in layout
    assert "- tests/ (2 files): the test suite" in layout
    tests = by_title(drafts, "Tests: tests/").content
    assert "tests/ holds 2 test files: the test suite, using pytest." in tests


def test_modules_and_packages_are_short_summaries(tmp_path: Path) -> None:
    drafts = discovery_drafts(analyze(shop(tmp_path)))
    payments = by_title(drafts, "Module shop/services/payments.py").content
    assert payments.splitlines() == [
        "Module shop/services/payments.py (Python): Payments through the bank.",
        "Public API: 1 class, 1 function, 1 constant.",
        "- class PaymentGateway (line 5): Talks to the bank. (methods: charge)",
        "- function refund_payment(payment_id: str) -> None (line 11): Give the money back.",
        "Also: MAX_RETRIES.",
    ]
    package = next(d.content for d in drafts if d.section_title == "Package shop/")
    assert package.startswith("Package shop/: An online shop: carts, orders and payments.")
    assert "- cli.py: The shop command." in package
    assert "services/" not in package.splitlines()[0]
    packages = [d.section_title for d in drafts if d.section_title.startswith("Package ")]
    assert packages == ["Package shop/", "Package shop/orders/", "Package shop/services/"]
    orders = next(d.content for d in drafts if d.section_title == "Package shop/orders/")
    assert orders.startswith("Package shop/orders/: Orders and their states.\n")


def test_the_configuration_overrides_what_counts_as_the_projects_own(tmp_path: Path) -> None:
    write(tmp_path, {"examples/app/server.py": "", "shop/legacy/old.py": "", "shop/a.py": ""})
    noise = NoiseClassifier(tmp_path, own=["/examples/app/"], excluded=["legacy/"])
    assert noise.kind("examples/app/server.py") is None
    assert noise.kind("examples/other.py") == "examples"
    assert noise.kind("shop/legacy/old.py") == "excluded"
    assert noise.kind("shop/a.py") is None
    both = NoiseClassifier(tmp_path, own=["*.py"], excluded=["*.py"])
    assert both.kind("shop/a.py") is None  # own wins


def test_discovery_follows_the_analyzer_settings(tmp_path: Path) -> None:
    root = write(
        tmp_path / "shop",
        {
            ".claude/memory.config.toml": 'analyzer_include = ["/examples/"]\n'
            'analyzer_exclude = ["shop/legacy/"]\n',
            "shop/__init__.py": "",
            "shop/legacy/old.py": "def old_checkout():\n    return 1\n",
            "examples/shop_server.py": "def serve_the_shop():\n    return 2\n",
        },
    )
    (root / ".git").mkdir()
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        run_discovery(memory)
        entries = memory.list(source=Source.DISCOVERY)
    files = {e.file_path for e in entries}
    assert "examples/shop_server.py" in files  # its definitions are indexed
    assert not any(f.startswith("shop/legacy/old") for f in files)
    excluded = next(e for e in entries if e.section_title.startswith("Excluded: "))
    assert excluded.section_title == "Excluded: shop/legacy/"


def test_the_chunk_budget_goes_to_the_main_package_and_its_public_modules_first(
    tmp_path: Path,
) -> None:
    """Where even the largest cut is past the budget (eight files of one definition each,
    a budget of five), the files first in the budget's order keep theirs."""
    func = "def {0}():\n    return '{0}' * 400\n\n\n"
    files = {f"pkg/mod{i}.py": func.format(f"public_{i}") for i in range(4)}
    files |= {"pkg/_impl.py": func.format("private"), "pkg/sub/deep.py": func.format("deep")}
    files |= {"aaa_scripts/tool.py": func.format("tool"), "setup_helper.py": func.format("root")}
    analysis = analyze(write(tmp_path, files))
    order = [rel for rel in budget_order(analysis) if rel.endswith(".py")]
    assert order == [
        "pkg/mod0.py", "pkg/mod1.py", "pkg/mod2.py", "pkg/mod3.py", "pkg/sub/deep.py",
        "pkg/_impl.py", "aaa_scripts/tool.py", "setup_helper.py",
    ]  # fmt: skip
    drafts = definitions.definition_drafts(tmp_path, budget_order(analysis), budget=5)
    assert [d.file_path for d in drafts] == order[:5]


def test_a_js_package_main_an_example_manifest_and_one_word_names(tmp_path: Path) -> None:
    files = {
        "package.json": '{"name": "store", "main": "index.js", "bin": {"store": "bin/cli.js"},'
        ' "dependencies": {"react": "^18"}}',
        "index.js": "export function createStore() {}\nexport function persist() {}\n"
        "export function combine() {}\n",
        "bin/cli.js": "run()\n",
        "examples/demo/package.json": '{"name": "demo", "main": "demo.js",'
        ' "dependencies": {"three": "^1", "express": "^4"}}',
        "examples/demo/demo.js": "run()\n",
        "examples/other/package.json": '{"name": "other"}',
    }
    analysis = analyze(write(tmp_path, files))
    assert "three.js" not in analysis.frameworks and "express" not in analysis.frameworks
    drafts = discovery_drafts(analysis)
    entries = by_title(drafts, "Entry points").content.splitlines()[2:]
    assert entries[:2] == [
        "- command `store` runs bin/cli.js",
        "- the package's main module (package.json): index.js",
    ]
    naming = by_title(drafts, "Naming conventions").content
    assert "Functions and methods: camelCase 100%; 2 single lowercase words (of 3)" in naming
    patterns = by_title(drafts, "Architecture patterns").content
    assert "Monorepo" not in patterns  # the example's manifest is not a package of its own


def test_a_js_doc_comment_stays_with_its_declaration_across_a_blank_line() -> None:
    doc = "/**\n" + "".join(f" * Explains step {i} of the getter at length.\n" for i in range(12))
    text = (
        "'use strict';\n\n"
        f"{doc} */\n\nreq.get =\nreq.header = function header(name) {{\n"
        + "  return this.headers[name];\n"
        * 3
        + "};\n\n"
        f"{doc} */\n\ndefineGetter(req, 'protocol', function protocol() {{\n"
        + "  return 'https' + 'some more text';\n" * 12
        + "});\n"
    )
    drafts = file_drafts("lib/request.js", text, "JavaScript")
    assert [d.section_title for d in drafts] == ["req.get", "protocol"]
    assert all(d.content.count("Explains step 0") == 1 for d in drafts)
    assert "function header(name)" in drafts[0].content
    assert "function protocol()" in drafts[1].content


def test_the_analysis_summary_lists_ranked_entry_points_and_own_source_folders(
    tmp_path: Path,
) -> None:
    root = shop(tmp_path / "shop")
    (root / ".git").mkdir()
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        summary = run_discovery(memory).summary()
    entries, folders = summary["entryPoints"], summary["sourceDirs"]
    assert isinstance(entries, list) and isinstance(folders, list)
    assert entries[:3] == [
        "shop -> shop.cli:main",
        "shop-admin -> shop.admin:run",
        "shop/__main__.py",
    ]
    assert not any("docs_src" in e for e in entries)
    assert "docs_src" not in folders


def test_a_long_ts_class_is_cut_into_its_methods() -> None:
    body = "".join(
        f"    const step{i} = this.repo.compute({i}, 'some padding');\n" for i in range(8)
    )
    method = "  /** {doc} */\n  {head} {{\n" + body + "    doSomething(id);\n  }}\n\n"
    text = (
        "import { Injectable } from '@nestjs/common';\n\n/**\n * Keeps the users.\n */\n"
        "@Injectable()\nexport class UserService {\n"
        "  private readonly users = new Map<string, User>();\n\n"
        + method.format(doc="Builds it.", head="constructor(private readonly repo: Repo)")
        + method.format(doc="Finds one user.", head="async findOne(id: string): Promise<User>")
        + "  @Log()\n"
        + method.format(doc="Makes one.", head="static create<T>(input: T): UserService")
        + "}\n"
    )
    drafts = file_drafts("src/user.service.ts", text, "TypeScript")
    titles = [d.section_title for d in drafts]
    assert titles == [
        "UserService, UserService.constructor",  # the small head goes with the first method
        "UserService.findOne",
        "UserService.create",
    ]
    lines = text.splitlines()
    find, create = drafts[1], drafts[2]
    assert lines[find.line_start - 1] == "  /** Finds one user. */"
    assert lines[create.line_start - 1] == "  @Log()"  # decorator and comment come along
    assert "Makes one." in create.content and create.line_end == len(lines)


def test_tests_beside_the_code_are_one_summary_and_test_folders_are_recognised(
    tmp_path: Path,
) -> None:
    files = {f"src/part{i}/thing.ts": "export const a = 1\n" for i in range(8)}
    files |= {f"src/part{i}/thing.test.ts": "test('a', () => {})\n" for i in range(8)}
    files |= {"runtime-tests/deno/index.ts": "run()\n", "src/helper/testing/client.ts": "x\n"}
    drafts = discovery_drafts(analyze(write(tmp_path, files)))
    tests = [d for d in drafts if d.section_title.startswith("Tests: ")]
    assert [d.section_title for d in tests] == ["Tests: beside the code", "Tests: runtime-tests/"]
    assert (
        tests[0]
        .content.splitlines()[1]
        .startswith("8 test files live beside the code they test (8 folders): the test suite")
    )
    assert classify_path("e2e_specs/login.ts") == "tests"
    assert classify_path("src/helper/testing/client.ts") is None  # a package's test helpers
    assert classify_path("testing/conftest_helpers.py") == "tests"


def test_one_test_beside_the_code_is_told_in_the_singular(tmp_path: Path) -> None:
    files = {"src/a.ts": "export const a = 1\n", "src/a.test.ts": "test('a', () => {})\n"}
    drafts = discovery_drafts(analyze(write(tmp_path / "one", files)))
    summary = next(d for d in drafts if d.section_title == "Tests: beside the code")
    assert summary.content.splitlines()[1].startswith(
        "1 test file lives beside the code it tests (1 folder): the test suite"
    )
    files["src/b.test.ts"] = "test('b', () => {})\n"
    drafts = discovery_drafts(analyze(write(tmp_path / "two", files)))
    summary = next(d for d in drafts if d.section_title == "Tests: beside the code")
    assert summary.content.splitlines()[1].startswith(
        "2 test files live beside the code they test (1 folder): the test suite"
    )


def test_the_budget_counts_a_src_folder_whole(tmp_path: Path) -> None:
    files = {f"src/{unit}/m{i}.ts": "export const a = 1\n" for unit in "ab" for i in range(3)}
    files |= {f"scripts/b{i}.ts": "export const b = 1\n" for i in range(4)}
    analysis = analyze(write(tmp_path, files))
    assert analysis.source_dirs[0] == "scripts"  # src/ counts as two units there
    assert budget_order(analysis)[0].startswith("src/")


def test_ts_methods_with_generics_over_lines_and_arrow_properties_are_found() -> None:
    body = "".join(f"    const s{i} = this.router.add({i}, 'padding text');\n" for i in range(8))
    text = (
        "export class Hono {\n  routes: Route[] = []\n\n"
        + "  route<\n    SubPath extends string,\n  >(path: SubPath): Hono {\n"
        + body
        + "  }\n\n  onError = (handler: ErrorHandler): Hono => {\n"
        + body
        + "  }\n\n  fetch: (\n    request: Request,\n  ) => Response = (request) => {\n"
        + body
        + "  }\n}\n"
    )
    titles = [d.section_title for d in file_drafts("src/hono.ts", text, "TypeScript")]
    assert titles == ["Hono, Hono.route", "Hono.onError", "Hono.fetch"]


def test_the_library_pattern_needs_evidence_not_only_absences(tmp_path: Path) -> None:
    """Issue 45 item 14: a binary crate and an empty repository are no library."""
    binary = write(tmp_path / "bin", {"Cargo.toml": '[package]\nname = "fd"\n',
                                      "src/main.rs": "fn main() {}\n"})  # fmt: skip
    library = write(tmp_path / "lib", {"Cargo.toml": '[package]\nname = "x"\n',
                                       "src/lib.rs": "pub fn f() {}\n"})  # fmt: skip
    empty = write(tmp_path / "empty", {"README.md": "# Nothing yet\n"})
    for root, expected in ((binary, False), (library, True), (empty, False)):
        patterns = by_title(discovery_drafts(analyze(root)), "Architecture patterns").content
        assert ("Library (a package meant to be imported)" in patterns) is expected, patterns


def test_an_incremental_discovery_drafts_again_when_a_setting_or_the_analyzer_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No file changed, yet the entries were drafted under other settings or by another
    analyzer: an incremental run (the git hooks') drafts them again instead of keeping
    them."""
    root = write(
        tmp_path / "shop",
        {
            "shop/__init__.py": "",
            "shop/legacy/old.py": "def old_checkout():\n    return 1\n",
            "shop/cart.py": "def add_to_cart(item):\n    return [item]\n",
        },
    )
    (root / ".git").mkdir()

    def legacy_entries() -> set[str]:
        with Memory.open(root, embedder=FakeEmbedder()) as memory:
            run_discovery(memory, incremental=True)
            files = {e.file_path for e in memory.list(source=Source.DISCOVERY)}
        return {f for f in files if f.startswith("shop/legacy/") and f.endswith(".py")}

    assert legacy_entries() == {"shop/legacy/old.py"}
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        assert run_discovery(memory, incremental=True).skipped  # nothing moved
    config = root / ".claude" / "memory.config.toml"
    config.write_text('analyzer_exclude = ["shop/legacy/"]\n', encoding="utf-8")
    assert legacy_entries() == set()  # the setting alone: drafted again
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        assert run_discovery(memory, incremental=True).skipped
    monkeypatch.setattr(discovery, "analyzer_version", lambda: "a-newer-analyzer")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        assert not run_discovery(memory, incremental=True).skipped
    # doc comments are cut by the documentation chunker: its upgrade drafts again too
    monkeypatch.setattr(discovery, "chunker_version", lambda: "a-newer-chunker")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        assert not run_discovery(memory, incremental=True).skipped


def test_a_draft_past_the_entry_limit_is_cut_to_fit_and_init_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One draft too long for an entry (serde_json's table of numbers was one part of
    14,000 characters) used to stop the whole discovery: now it is stored in parts that
    fit, its text whole, beside the project's other entries."""
    root = write(tmp_path / "shop", {"shop/__init__.py": "def checkout():\n    return 1\n"})
    (root / ".git").mkdir()
    table = "\n".join(f"    0x{n:016x}, 0x{n * 7:016x}," for n in range(400))  # 15,600
    huge = DiscoveryDraft(f"Rust code: POW in src/pow.rs\n{table}", "POW", "src/pow.rs", ())
    real = discovery.definition_drafts
    monkeypatch.setattr(discovery, "definition_drafts", lambda *a: [*real(*a), huge])
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        run_discovery(memory)
        entries = memory.list(source=Source.DISCOVERY, limit=1_000)
    parts = sorted(
        (e for e in entries if e.file_path == "src/pow.rs"), key=lambda e: e.section_title
    )
    assert [p.section_title for p in parts] == ["POW (part 1 of 2)", "POW (part 2 of 2)"]
    assert " ".join(p.content for p in parts).split() == huge.content.split()  # all of it
    assert any(e.file_path == "shop/__init__.py" for e in entries)


def test_a_jvm_package_path_names_no_folder_role() -> None:
    """Below ``src/<source set>/<language>/`` the folders are a package's name: Spring
    Initializr's ``com/example/demo`` is the application, not an example folder; the
    source set's own name still says what it holds (``src/test/java``)."""
    app = "src/main/java/com/example/demo/DemoApplication.java"
    assert classify_path(app) is None
    assert classify_path("app/src/main/kotlin/org/acme/samples/Main.kt") is None
    assert classify_path("src/test/java/com/example/demo/DemoTests.java") == "tests"
    assert classify_path("examples/src/main/java/com/acme/App.java") == "examples"
    assert classify_path("docs/example/Main.java") == "examples"


def test_make_targets_described_in_the_makefile_come_first_with_what_they_do(
    tmp_path: Path,
) -> None:
    """stakater/Reloader: ``loadtest-quick: loadtest-build ## Run quick load tests`` was past
    the cap on listed targets, without its description (Kubebuilder's ``help`` convention)."""
    plain = "".join(f"t{i}:\n\techo {i}\n" for i in range(30))
    root = write(tmp_path, {
        "Makefile": plain + "##@ Load tests\n\n"
        "loadtest-quick: loadtest-build ## Run quick load tests\n\tgo run ./test/loadtest\n"
        "lint: ## Run golangci-lint\n\tgolangci-lint run\n",
        "main.go": "package main\n\nfunc main() {}\n",
    })  # fmt: skip
    build = by_title(discovery_drafts(analyze(root)), "How to build").content
    assert "Make targets (Makefile) (and 7 more):\n" in build
    assert (
        "- make loadtest-quick: Run quick load tests\n- make lint: Run golangci-lint\n- make t0\n"
        in (build)
    )


def test_r_reference_pages_are_documentation_not_r_code(tmp_path: Path) -> None:
    """Linguist's table counts ``.rd`` as R; the docs reader reads R's reference pages as
    documentation (``markdown.prose_markup``), so the analysis makes no module or code
    entry of them: stringr's 38 ``man/*.Rd`` pages were "modules" of R code besides."""
    rd = (
        "% Generated by roxygen2: do not edit by hand\n\\name{str_c}\n"
        '\\title{Join multiple strings into one string}\n\\usage{str_c(..., sep = "")}\n'
    )
    code = (
        "#' Join multiple strings into one string, separated by sep.\n#' @export\n"
        'str_c <- function(..., sep = "", collapse = NULL) {\n'
        "  check_dots_unnamed()\n  paste(..., sep = sep, collapse = collapse)\n}\n"
    )
    root = write(tmp_path, {"man/str_c.Rd": rd * 3, "R/str_c.R": code})
    analysis = analyze(root)
    assert "R/str_c.R" in analysis.files and "man/str_c.Rd" in analysis.files
    assert not [d for d in discovery_drafts(analysis) if d.file_path == "man/str_c.Rd"]
    pieces = definitions.definition_drafts(root, budget_order(analysis), None, [], {})
    assert {d.file_path for d in pieces} == {"R/str_c.R"}
    assert analysis.stats["source_files"] == 1
