"""A docs site that keeps the manual of each major version beside the current one: the
earlier versions' pages are summarised, not indexed (issue 34)."""

from __future__ import annotations

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
