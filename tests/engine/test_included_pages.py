"""A docs page that only includes another file of the project is that file shown again:
left out as made from it, the file indexed (Sphinx's ``docs/changes.rst`` over
``CHANGES.rst``, MyST's ``{include}``, MkDocs' snippets and include-markdown)."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_files import sources, write

from engine.analyzer.includes import MAX_STUB_BYTES, included_file
from engine.analyzer.noise import NoiseClassifier

CHANGES = "Version 2.1.0\n-------------\n\n-   Drop support for Python 3.7.\n"
CONTRIBUTING = "How to contribute\n=================\n\nRun ``tox`` before a pull request.\n"


@pytest.mark.parametrize(
    ("page", "text", "included"),
    [
        ("docs/changes.rst", "Changes\n=======\n\n.. include:: ../CHANGES.rst\n", "CHANGES.rst"),
        (
            "docs/contributing.rst",
            ".. _contributing:\n\n.. include:: ../CONTRIBUTING.rst\n   :start-after: ====\n",
            "CONTRIBUTING.rst",
        ),
        ("docs/changelog.md", "# Changelog\n\n```{include} ../CHANGES.rst\n```\n", "CHANGES.rst"),
        (
            "docs/changelog.md",
            "(changelog)=\n\n:::{include} ../CHANGES.rst\n:relative-docs: docs/\n:::\n",
            "CHANGES.rst",
        ),
        ("docs/changelog.md", '# Changes\n\n--8<-- "CHANGES.rst"\n', "CHANGES.rst"),
        (
            "docs/contributing.md",
            '{% include-markdown "../CONTRIBUTING.rst" %}\n',
            "CONTRIBUTING.rst",
        ),
    ],
)
def test_a_page_that_only_includes_a_project_file_is_made_from_it(
    tmp_path: Path, page: str, text: str, included: str
) -> None:
    write(tmp_path, {"CHANGES.rst": CHANGES, "CONTRIBUTING.rst": CONTRIBUTING, page: text})
    write(tmp_path, {"docs/index.rst": "Project\n=======\n\nWhat it does, in a sentence.\n"})
    assert NoiseClassifier(tmp_path).decide(page) == ("generated", f"from {included}")
    assert page not in sources(tmp_path)
    assert "docs/index.rst" in sources(tmp_path)


@pytest.mark.parametrize(
    "text",
    [
        # its own words beside the include
        "Contributing\n============\n\nWe welcome help.\n\n.. include:: ../CONTRIBUTING.rst\n",
        "Contributing\n============\n\n.. include:: ../MISSING.rst\n",  # not in the project
        "Contributing\n============\n\n.. include:: ../../outside.rst\n",  # outside it
        "Contributing\n============\n\nNothing included here.\n",
        ".. toctree::\n\n   usage\n\n.. include:: ../CONTRIBUTING.rst\n",  # a page of its own
        "Contributing\n============\n\n"
        + ".. include:: ../CONTRIBUTING.rst\n" * (MAX_STUB_BYTES // 20),
    ],
)
def test_a_page_that_says_more_or_includes_nothing_of_the_project_stays(
    tmp_path: Path, text: str
) -> None:
    write(tmp_path, {"CONTRIBUTING.rst": CONTRIBUTING, "docs/contributing.rst": text})
    assert NoiseClassifier(tmp_path).decide("docs/contributing.rst") is None


def test_the_include_path_is_resolved_from_the_page_and_snippets_from_the_root() -> None:
    exists = {"CHANGES.rst", "docs/snippets/intro.md"}.__contains__
    assert included_file("docs/a.rst", ".. include:: ../CHANGES.rst\n", exists) == "CHANGES.rst"
    assert included_file("docs/a.rst", ".. include:: CHANGES.rst\n", exists) is None
    assert included_file("docs/a.md", '--8<-- "snippets/intro.md"\n', exists) == (
        "docs/snippets/intro.md"  # not under the root: the page's own folder
    )


def test_an_include_of_a_link_out_of_the_project_names_none_of_its_files(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "elsewhere.rst"
    outside.write_text(CONTRIBUTING)
    project = tmp_path / "project"
    write(project, {"docs/contributing.rst": ".. include:: ../CONTRIBUTING.rst\n"})
    (project / "CONTRIBUTING.rst").symlink_to(outside)
    assert NoiseClassifier(project).decide("docs/contributing.rst") is None
    (project / "CONTRIBUTING.rst").unlink()
    (project / "CONTRIBUTING.rst").write_text(CONTRIBUTING)
    assert NoiseClassifier(project).decide("docs/contributing.rst") == (
        "generated",
        "from CONTRIBUTING.rst",
    )
