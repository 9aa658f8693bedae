"""Documentation translated into another language is summarised beside its original, not
indexed a second time (a README in five languages held five copies of every section)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.analyzer.noise import NoiseClassifier
from engine.analyzer.translations import language_of, translation_of
from engine.core.config import load_config
from engine.services.sources import SourceSet

PAGE = "# Tool\n\nHow to install the tool and run it on a folder of files.\n"


def write(root: Path, rels: list[str]) -> None:
    for rel in rels:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PAGE, encoding="utf-8")


def sources(root: Path) -> list[str]:
    cfg = load_config(root)
    return sorted(rel for rel, _ in SourceSet(root, cfg, root / cfg.knowledge_dir).files())


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("zh-CN", "zh"), ("pt_BR", "pt"), ("ja", "ja"), ("zh-Hans", "zh"), ("CN", "cn"),
        ("german", "german"), ("中文", "中文"), ("日本語", "日本語"), ("en-US", "en"),
        ("dev", None), ("api", None), ("v2", None), ("started", None), ("faq", None),
        ("1.2", None),
    ],
)  # fmt: skip
def test_a_tag_names_a_language_from_the_locale_tables(tag: str, language: str | None) -> None:
    assert language_of(tag) == language


def test_translated_readmes_beside_the_original_are_summarised(tmp_path: Path) -> None:
    names = ["README.md", "README.zh-CN.md", "README_ja.md", "README.中文.md", "README-en.md"]
    write(tmp_path, [*names, "CONTRIBUTING.md", "docs/getting-started.md", "docs/api-v2.md"])
    noise = NoiseClassifier(tmp_path)
    for rel in ("README.zh-CN.md", "README_ja.md", "README.中文.md"):
        assert noise.decide(rel) == ("translations", rel)
    for rel in ("README.md", "README-en.md", "docs/getting-started.md", "docs/api-v2.md"):
        assert noise.kind(rel) is None  # the original, English, and names that are no tag
    assert sources(tmp_path) == [
        "CONTRIBUTING.md", "README-en.md", "README.md", "docs/api-v2.md",
        "docs/getting-started.md",
    ]  # fmt: skip


def test_a_translated_readme_in_a_folder_below_the_original_is_summarised(
    tmp_path: Path,
) -> None:
    """sharkdp/bat keeps ``doc/README-ja.md`` and three more below the root's ``README.md``:
    the page without the tag in a folder above is its original. A tagged page with no
    original anywhere above stays the project's own."""
    write(tmp_path, ["README.md", "doc/README-ja.md", "doc/README-zh.md", "doc/guide-ko.md"])
    noise = NoiseClassifier(tmp_path)
    assert noise.decide("doc/README-ja.md") == ("translations", "doc/README-ja.md")
    assert noise.decide("doc/README-zh.md") == ("translations", "doc/README-zh.md")
    assert noise.kind("doc/guide-ko.md") is None
    assert sources(tmp_path) == ["README.md", "doc/guide-ko.md"]


def test_language_folders_beside_their_original_are_summarised(tmp_path: Path) -> None:
    write(
        tmp_path,
        [
            "docs/en/guide.md", "docs/ja/guide.md", "docs/pt-br/guide.md",
            "site/index.md", "site/de/index.md",
            "i18n/zh-Hans/docs/intro.md",
        ],
    )  # fmt: skip
    noise = NoiseClassifier(tmp_path)
    assert noise.decide("docs/ja/guide.md") == ("translations", "docs/ja/")
    assert noise.decide("docs/pt-br/guide.md") == ("translations", "docs/pt-br/")
    assert noise.decide("site/de/index.md") == ("translations", "site/de/")
    assert noise.decide("i18n/zh-Hans/docs/intro.md") == ("translations", "i18n/zh-Hans/")
    assert noise.kind("docs/en/guide.md") is None
    assert noise.kind("site/index.md") is None


def test_a_project_written_in_one_language_keeps_all_of_it(tmp_path: Path) -> None:
    """No original beside it: a page or folder named by a language is the project's own."""
    write(tmp_path, ["README.ja.md", "docs/zh/guide.md", "docs/zh/install.md"])
    assert translation_of(tmp_path, "README.ja.md") is None
    assert translation_of(tmp_path, "docs/zh/guide.md") is None
    assert sources(tmp_path) == ["README.ja.md", "docs/zh/guide.md", "docs/zh/install.md"]


def test_code_in_a_folder_named_like_a_language_is_not_a_translation(tmp_path: Path) -> None:
    write(tmp_path, ["docs/en/guide.md", "docs/it/guide.md"])
    (tmp_path / "docs/it/run.py").write_text("print(1)\n", encoding="utf-8")
    assert translation_of(tmp_path, "docs/it/run.py") is None
    assert translation_of(tmp_path, "docs/it/guide.md") == "docs/it/"


def test_a_family_of_module_pages_is_no_translation(tmp_path: Path) -> None:
    """uwiger/gproc's edown pages: ``doc/gproc_ps.md`` (publish/subscribe) and
    ``doc/gproc_pt.md`` (a parse transform) beside ``doc/gproc.md`` are modules among
    ``gproc_pool``, ``gproc_dist``…, not Pashto and Portuguese. ``README-ja.md`` with one
    ``README-dev.md`` beside it stays a translation."""
    modules = ["app", "bcast", "dist", "info", "init", "lib", "monitor", "pool", "ps", "pt"]
    write(tmp_path, ["doc/gproc.md", *(f"doc/gproc_{m}.md" for m in modules)])
    write(tmp_path, ["README.md", "README-dev.md", "README-ja.md"])
    noise = NoiseClassifier(tmp_path)
    assert noise.kind("doc/gproc_ps.md") is None
    assert noise.kind("doc/gproc_pt.md") is None
    assert noise.decide("README-ja.md") == ("translations", "README-ja.md")
    assert "doc/gproc_ps.md" in sources(tmp_path)
