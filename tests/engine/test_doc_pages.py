"""Issue 50: a doc page the project's manifest lists by name is a source wherever it sits.

dashbitco/broadway lists its guides in ``mix.exs`` (ex_doc's ``extras``); six of them live
in ``guides/examples/``, and ``init`` left them out as "examples 6" by the folder's name.
"""

from __future__ import annotations

from pathlib import Path

from project_files import sources, write

from engine.analyzer.doc_pages import declared_pages, listed
from engine.core.config import load_config
from engine.services.source_report import explain_sources
from engine.services.sources import LISTED_BY_MANIFEST

MIX_EXS = """\
defmodule Broadway.MixProject do
  defp docs do
    [
      main: "introduction",
      extras: [
        "guides/examples/introduction.md",
        "guides/examples/amazon-sqs.md": [title: "Amazon SQS"],
        "guides/internals/architecture.md"
      ],
      groups_for_extras: [Examples: Path.wildcard("guides/examples/*.md")]
    ]
  end
end
"""
CABAL = """\
name:                optparse-applicative
extra-doc-files:     README.md
                     CHANGELOG.md,
                     examples/*.md -- the tutorial pages
build-type:          Simple
"""


def test_the_manifests_name_their_doc_pages() -> None:
    assert declared_pages("", "mix.exs", MIX_EXS) == [
        "guides/examples/introduction.md",
        "guides/examples/amazon-sqs.md",
        "Amazon SQS",  # a keyword option: names no file, matches none
        "guides/internals/architecture.md",
    ]
    one_line = 'extras: Path.wildcard("pages/*.md") ++ ["README.md"]\n'
    assert declared_pages("apps/web", "mix.exs", one_line) == [
        "apps/web/pages/*.md",
        "apps/web/README.md",
    ]
    assert declared_pages("", "x.cabal", CABAL) == ["README.md", "CHANGELOG.md", "examples/*.md"]
    assert declared_pages("", ".yardopts", "--markup markdown lib/**/*.rb - docs/*.md LICENSE") == [
        "docs/*.md",
        "LICENSE",
    ]
    assert declared_pages("", ".yardopts", "lib/**/*.rb") == []
    assert declared_pages("sub", "mix.exs", 'extras: ["../../etc/passwd", "/abs.md"]') == []
    assert declared_pages("", "Cargo.toml", "extras = ['a.md']") == []


def test_a_listed_page_matches_by_name_or_glob() -> None:
    pages = ["guides/x.md", "docs/*.md", "book/**/*.md"]
    assert listed(pages, "guides/x.md")
    assert listed(pages, "docs/a.md")
    assert not listed(pages, "docs/deep/a.md")  # * stays in its folder
    assert listed(pages, "book/part/one/a.md")
    assert not listed(pages, "guides/y.md")
    assert not listed([], "guides/x.md")


def test_pages_a_manifest_lists_are_sources_whatever_their_folder_is_called(
    tmp_path: Path,
) -> None:
    write(tmp_path, {
        "mix.exs": MIX_EXS,
        "guides/examples/introduction.md": "# Introduction\n\nProducers and processors.\n",
        "guides/examples/amazon-sqs.md": "# Amazon SQS\n\nConsume an SQS queue.\n",
        "guides/examples/unlisted.md": "# Not listed\n\nAn example's notes.\n",
        "guides/internals/architecture.md": "# Architecture\n\nThe pipeline.\n",
        "tests/fixtures/listed.md": "# A fixture\n",
        "lib/pipeline.ex": "defmodule Pipeline do\nend\n",
    })  # fmt: skip
    assert sources(tmp_path) == [
        "guides/examples/amazon-sqs.md",
        "guides/examples/introduction.md",
        "guides/internals/architecture.md",
    ]
    report = explain_sources(tmp_path, load_config(tmp_path))
    rules = {f.decision.rel: f.decision for f in report.files}
    assert rules["guides/examples/amazon-sqs.md"].included
    # The rule that decided is the project's declaration, and it names the manifest.
    listed_page = rules["guides/examples/amazon-sqs.md"]
    assert (listed_page.rule, listed_page.detail) == (LISTED_BY_MANIFEST, "mix.exs")
    assert not rules["guides/examples/unlisted.md"].included
    assert rules["guides/examples/unlisted.md"].rule == "examples"
    assert rules["tests/fixtures/listed.md"].rule == "tests"


def test_a_yard_or_cabal_listed_page_in_a_test_folder_is_a_source(tmp_path: Path) -> None:
    write(tmp_path, {
        ".yardopts": "--markup markdown - examples/guide.md\n",
        "examples/guide.md": "# Guide\n\nHow the gem is used.\n",
        "pkg/pkg.cabal": "name: pkg\nextra-doc-files: test/README.md\n",
        "pkg/test/README.md": "# How the tests run\n",
        "pkg/test/other.md": "# Not listed\n",
    })  # fmt: skip
    assert sources(tmp_path) == ["examples/guide.md", "pkg/test/README.md"]
    report = explain_sources(tmp_path, load_config(tmp_path))
    manifests = {f.decision.rel: f.decision.detail for f in report.files if f.decision.included}
    assert manifests == {"examples/guide.md": ".yardopts", "pkg/test/README.md": "pkg/pkg.cabal"}


def test_a_manifest_inside_a_test_fixture_declares_nothing(tmp_path: Path) -> None:
    write(tmp_path, {
        "tests/fixtures/app/mix.exs": 'defp docs, do: [extras: ["guide.md"]]\n',
        "tests/fixtures/app/guide.md": "# A fixture's guide\n",
        "README.md": "# The project\n",
    })  # fmt: skip
    assert sources(tmp_path) == ["README.md"]
