"""A docs site that keeps the manual of each major version beside the current one: the
earlier versions' pages are summarised, not indexed (issue 34)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from project_files import sources, write

from engine.analyzer.noise import NoiseClassifier

MKDOCS = "site_name: tool\nnav:\n  - v3 Manual: v3/index.md\n  - v2 Manual: v2/index.md\n"
PAGES = ("docs/index.md", "docs/v1/flags.md", "docs/v2/flags.md", "docs/v3/flags.md")


def site(root: Path, manifest: dict[str, str]) -> NoiseClassifier:
    write(root, {"mkdocs.yml": MKDOCS, **manifest})
    write(root, {rel: f"# {rel}\n\nHow the flags of this version work.\n" for rel in PAGES})
    return NoiseClassifier(root)


@pytest.mark.parametrize(
    "manifest",
    [
        {"go.mod": "module github.com/acme/tool/v3\n\ngo 1.22\n"},
        {"package.json": '{"name": "tool", "version": "3.1.0"}'},
        {"Cargo.toml": '[package]\nname = "tool"\nversion = "3.0.2"\n'},
        {},  # nothing declared: the highest version is the current one
    ],
)
def test_pages_of_earlier_versions_are_left_out(tmp_path: Path, manifest: dict[str, str]) -> None:
    noise = site(tmp_path, manifest)
    assert noise.decide("docs/v1/flags.md") == ("old-versions", "docs/v1/")
    assert noise.decide("docs/v2/flags.md") == ("old-versions", "docs/v2/")
    assert noise.kind("docs/v3/flags.md") is None
    assert sources(tmp_path) == ["docs/index.md", "docs/v3/flags.md"]


def test_the_declared_version_wins_over_a_newer_draft(tmp_path: Path) -> None:
    noise = site(tmp_path, {"go.mod": "module github.com/acme/tool/v2\n"})
    assert noise.kind("docs/v1/flags.md") == "old-versions"
    assert noise.kind("docs/v2/flags.md") is None
    assert noise.kind("docs/v3/flags.md") is None  # the next version's draft stays


def test_one_version_folder_or_an_undeclared_folder_is_not_a_versioned_site(
    tmp_path: Path,
) -> None:
    write(tmp_path, {"mkdocs.yml": MKDOCS, "docs/v2/flags.md": "# Flags\n\nText here.\n"})
    write(tmp_path, {"notes/v1/a.md": "# A\n\nOld text.\n", "notes/v2/a.md": "# A\n\nNew.\n"})
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("docs/v2/flags.md") is None
    assert noise.kind("notes/v1/a.md") is None  # no docs tool declares notes/


def test_docusaurus_versioned_docs_are_the_releases_copies(tmp_path: Path) -> None:
    page = "# Intro\n\nInstall the tool and configure it for your project.\n"
    write(tmp_path, {
        "website/docusaurus.config.js": "module.exports = {};\n",
        "website/versions.json": '["2.0", "1.0"]\n',
        "website/docs/intro.md": page,
        "website/versioned_docs/version-2.0/intro.md": page,
        "website/versioned_docs/version-1.0/intro.md": page,
        "website/api_versions.json": '["1.0"]\n',  # a second docs plugin, id "api"
        "website/api_versioned_docs/version-1.0/client.md": page,
        "other/versioned_docs/version-1.0/intro.md": page,  # no versions.json: no such site
    })  # fmt: skip
    noise = NoiseClassifier(tmp_path)
    for rel in ("website/versioned_docs/version-2.0/intro.md",
                "website/versioned_docs/version-1.0/intro.md"):  # fmt: skip
        assert noise.decide(rel) == ("old-versions", "website/versioned_docs/")
    assert noise.kind("website/api_versioned_docs/version-1.0/client.md") == "old-versions"
    assert noise.kind("other/versioned_docs/version-1.0/intro.md") is None
    assert "website/docs/intro.md" in sources(tmp_path)


def test_a_versioned_copy_beside_the_current_document_is_an_older_version(
    tmp_path: Path,
) -> None:
    manual = "".join(f"- title: Section {n}\n  body: What option {n} does.\n" for n in range(40))
    older = manual.replace("option 3 ", "the old option 3 ")  # one line differs
    write(tmp_path, {
        "docs/manual/manual.yml": manual,
        "docs/manual/v1.7/manual.yml": older,
        "docs/manual/v1.8/manual.yml": manual,
        # the same name, another document: the v3 manual's index beside the site's home
        "guide/index.md": "# Welcome\n\nThe project's home page.\n",
        "guide/v3/index.md": "# Version 3\n\nWhat changed in version 3.\n",
        # code is never a copy: each API version is a package of its own
        "api/types.py": "class User:\n    name: str\n",
        "api/v1/types.py": "class User:\n    name: str\n",
    })  # fmt: skip
    noise = NoiseClassifier(tmp_path)
    assert noise.decide("docs/manual/v1.7/manual.yml") == ("old-versions", "docs/manual/v1.7/")
    assert noise.decide("docs/manual/v1.8/manual.yml") == ("old-versions", "docs/manual/v1.8/")
    assert noise.kind("docs/manual/manual.yml") is None
    assert noise.kind("guide/v3/index.md") is None
    assert noise.kind("api/v1/types.py") is None


def test_a_versioned_copy_is_read_through_the_file_guard(tmp_path: Path) -> None:
    # A FIFO where a copy would be is refused before it is opened (opening it would block).
    write(tmp_path, {"docs/manual.md": "# Manual\n\nWhat it does.\n"})
    (tmp_path / "docs/v1.0").mkdir()
    os.mkfifo(tmp_path / "docs/v1.0/manual.md")
    assert NoiseClassifier(tmp_path).kind("docs/v1.0/manual.md") is None


def _rockspec(version: str, summary: str = "Lua table visualizer, ideal for debugging") -> str:
    tag = version.rsplit("-", 1)[0]
    return (
        f'package = "inspect"\nversion = "{version}"\nsource = {{\n'
        f'  url = "https://example.org/inspect/archive/v{tag}.tar.gz",\n}}\n'
        f'description = {{\n  summary = "{summary}",\n  license = "MIT"\n}}\n'
        'dependencies = {\n  "lua >= 5.1"\n}\n'
        'build = {\n  type = "builtin",\n  modules = {\n    inspect = "inspect.lua"\n  }\n}\n'
    )


def test_a_files_copies_for_earlier_releases_are_older_versions(tmp_path: Path) -> None:
    """LuaRocks keeps a ``<package>-<version>-<revision>.rockspec`` per release: the
    highest version is the current one, the others repeat it (inspect.lua's nine)."""
    versions = ("1.2-2", "3.0-1", "3.1.3-0", "3.1.10-0")
    write(tmp_path, {f"rockspecs/inspect-{v}.rockspec": _rockspec(v) for v in versions})
    write(tmp_path, {"inspect.lua": "local inspect = {}\nreturn inspect\n"})
    noise = NoiseClassifier(tmp_path)
    newest = "rockspecs/inspect-3.1.10-0.rockspec"  # numbers, not characters, compared
    for version in versions[:-1]:
        assert noise.decide(f"rockspecs/inspect-{version}.rockspec") == ("old-versions", newest)
    assert noise.kind(newest) is None
    assert "rockspecs/inspect-3.0-1.rockspec" not in sources(tmp_path)


def test_files_named_by_version_that_say_other_things_all_stay(tmp_path: Path) -> None:
    """Names that differ by a version are copies only where the text is the newest's:
    a migration guide per major version says something else each time; a name with one
    number (``step2.lua``) names no version."""
    write(tmp_path, {
        "docs/migrating-to-2.0.md": "# Migrating to 2.0\n\nRename `open` to `connect`.\n",
        "docs/migrating-to-3.0.md": "# Migrating to 3.0\n\nThe pool is now async.\n",
        "steps/step1.lua": "return 1\n", "steps/step2.lua": "return 1\n",
        "inspect-2.0-1.rockspec": _rockspec("2.0-1", "An older summary of it"),
        "inspect-3.0-1.rockspec": _rockspec("3.0-1"),
    })  # fmt: skip
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("docs/migrating-to-2.0.md") is None
    assert noise.kind("steps/step1.lua") is None
    assert noise.decide("inspect-2.0-1.rockspec") == ("old-versions", "inspect-3.0-1.rockspec")
