"""The project's own documentation indexed as sources (issue 17), on real stores."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli

from engine.core.config import Config, load_config
from engine.core.config_file import set_config_value
from engine.core.errors import ConfigError, InvalidInputError
from engine.core.models import Source
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.source_report import explain_sources
from engine.services.sources import SourceSet, pattern_for


def write(root: Path, rel: str, text: str = "# Page\n\nSome words about quokkas.\n") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def sources(root: Path, config: Config | None = None) -> list[str]:
    cfg = config or load_config(root)
    return [rel for rel, _ in SourceSet(root, cfg, root / cfg.knowledge_dir).files()]


def test_default_sources_are_the_projects_own_docs_without_noise(tmp_path: Path) -> None:
    kept = ["README.md", "CONTRIBUTING.md", "docs/index.md", "docs/guide/setup.mdx",
            "packages/core/README.md", "docs/tutorial/first-steps.md",
            "site/content/user_guide.md", "website/docs/intro.mdx", "notes/ops.md",
            "examples/README.md", "samples/json/README.rst",
            "tests/README.md"]  # fmt: skip
    # tests/README.md: a folder's README, for its reader (how the tests run)
    left_out = [
        "CHANGELOG.md", "docs/release-notes.md", "examples/notes.md", "tests/notes.md",
        "tests/fixtures/README.md",
        "notes/ops.md", ".github/PULL_REQUEST_TEMPLATE.md", "node_modules/x/README.md",
        "docs/guide/notes.txt", "pkg/_vendor/lib/README.md", "build/README.md",
        ".claude/knowledge/gotchas.md", "docs/i18n/fr/intro.md", "docs/locales/de/x.md",
        "website/blog/2020-launch.md",
    ]  # fmt: skip
    for rel in kept + left_out:
        write(tmp_path, rel)
    assert sources(tmp_path) == sorted(kept)


def test_a_folder_named_for_specs_that_holds_no_code_holds_a_specification(
    tmp_path: Path,
) -> None:
    # A protocol's specification in specs/ (asgiref's ASGI spec): pages only, no test runs.
    for rel in ["specs/asgi.rst", "specs/www.rst", "specs/lifespan.rst"]:
        write(tmp_path, rel, "The protocol\n============\n\nWhat a server sends.\n")
    # RSpec's spec/ runs tests: its pages stay the tests', however deep the code is (its
    # own README aside, as any test folder's); a tests/ folder holds tests whatever it holds.
    write(tmp_path, "spec/guide.md")
    write(tmp_path, "spec/models/user_spec.rb", "describe User do\nend\n")
    write(tmp_path, "tests/notes.md")
    assert sources(tmp_path) == ["specs/asgi.rst", "specs/lifespan.rst", "specs/www.rst"]
    report = {f.decision.rel: f for f in explain_sources(tmp_path, load_config(tmp_path)).files}
    assert not report["tests/notes.md"].decision.included
    assert report["tests/notes.md"].decision.rule.startswith("tests")
    assert report["spec/guide.md"].decision.rule.startswith("tests")
    assert report["specs/asgi.rst"].decision.included


def test_gitignored_files_and_translations_are_left_out(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "docs/generated-api/\n")
    for rel in ["docs/en/index.md", "docs/de/index.md", "docs/pt-BR/index.md",
                "docs/generated-api/x.md"]:  # fmt: skip
        write(tmp_path, rel)
    assert sources(tmp_path) == ["docs/en/index.md"]


def test_a_two_letter_docs_folder_is_not_a_translation_without_docs_en(tmp_path: Path) -> None:
    write(tmp_path, "docs/js/usage.md")
    assert sources(tmp_path) == ["docs/js/usage.md"]


def test_excludes_win_and_named_paths_bypass_the_noise_rules(tmp_path: Path) -> None:
    write(tmp_path, "docs/a.md")
    write(tmp_path, "docs/internal/b.md")
    write(tmp_path, "CHANGELOG.md")
    write(tmp_path, "examples/guide/README.md")
    cfg = dataclasses.replace(
        load_config(tmp_path),
        sources=("/docs/**", "/CHANGELOG.md", "/examples/**"),
        sources_exclude=("docs/internal/",),
    )
    assert sources(tmp_path, cfg) == ["CHANGELOG.md", "docs/a.md", "examples/guide/README.md"]


def test_sources_are_indexed_searchable_and_kept_fresh(tmp_path: Path, memory: Memory) -> None:
    write(tmp_path, "docs/deploy.md", "# Deploy\n\n## Rollback\n\nRun the zephyr rollback.\n")
    write(tmp_path, "CHANGELOG.md", "# Changes\n\n## 1.0\n\nzephyr was added.\n")
    report = Indexer(memory).run()
    assert report.errors == []
    hits = memory.search("zephyr rollback", mode="keyword").results
    assert [(r.entry.file_path, r.entry.source) for r in hits] == [
        ("docs/deploy.md", Source.MARKDOWN)
    ]
    assert (hits[0].entry.line_start, hits[0].entry.section_title) == (3, "Deploy > Rollback")
    write(tmp_path, "docs/deploy.md", "# Deploy\n\nUse the quasar switch.\n")
    Indexer(memory).run()
    assert memory.search("zephyr", mode="keyword").results == ()
    assert memory.search("quasar", mode="keyword").results
    (tmp_path / "docs/deploy.md").unlink()
    Indexer(memory).run()
    assert memory.search("quasar", mode="keyword").results == ()


def test_pattern_for_names_files_and_folders_inside_the_project_only(tmp_path: Path) -> None:
    write(tmp_path, "notes/a.md")
    write(tmp_path, "notes/b.json")
    assert pattern_for(tmp_path, str(tmp_path / "notes")) == "/notes/**"
    assert pattern_for(tmp_path, str(tmp_path / "notes/a.md")) == "/notes/a.md"
    for bad in [str(tmp_path / "notes/b.json"), str(tmp_path / "nope"), str(tmp_path.parent)]:
        with pytest.raises(InvalidInputError):
            pattern_for(tmp_path, bad)


def test_set_config_value_keeps_comments_and_validates(tmp_path: Path) -> None:
    config = tmp_path / ".claude/memory.config.toml"
    config.parent.mkdir()
    config.write_text("# my comment\nchunk_size = 900\n", encoding="utf-8")
    set_config_value(tmp_path, "sources", ["/notes/**"])
    assert "# my comment" in config.read_text(encoding="utf-8")
    assert load_config(tmp_path, env={}).sources == ("/notes/**",)
    assert load_config(tmp_path, env={}).chunk_size == 900
    set_config_value(tmp_path, "sources", ["/notes/**", "/more/**"])
    assert load_config(tmp_path, env={}).sources == ("/notes/**", "/more/**")
    with pytest.raises(ConfigError):
        set_config_value(tmp_path, "sources", "not a list")
    assert load_config(tmp_path, env={}).sources == ("/notes/**", "/more/**")


def test_config_rejects_a_sources_value_that_is_not_a_list_of_strings(tmp_path: Path) -> None:
    config = tmp_path / ".claude/memory.config.toml"
    config.parent.mkdir()
    for bad in ['sources = "docs"', "sources = [1]", 'sources = [""]']:
        config.write_text(bad + "\n", encoding="utf-8")
        with pytest.raises(ConfigError, match="sources"):
            load_config(tmp_path, env={})


def test_cli_import_adds_a_folder_and_indexes_it(tmp_path: Path) -> None:
    project = git_repo(tmp_path / "p")
    home = tmp_path / "home"
    write(project, "notes/ops.md", "# Ops\n\nThe xylophone cache is rebuilt nightly.\n")
    env_args = ("--project", str(project))
    assert run_cli("add", "seed note", *env_args, cwd=project, home=home).returncode == 0
    done = run_cli("import", "notes", *env_args, cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    assert "/notes/**" in done.stdout
    found = run_cli("search", "xylophone", "--mode", "keyword", *env_args, cwd=project, home=home)
    assert "notes/ops.md" in found.stdout
    before = (project / ".claude/memory.config.toml").read_text(encoding="utf-8")
    bad = run_cli("import", str(tmp_path), *env_args, cwd=project, home=home)
    assert bad.returncode != 0
    assert "not inside the project" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert (project / ".claude/memory.config.toml").read_text(encoding="utf-8") == before


OLD_GOTCHAS = (
    "# Gotchas\n\nThings that surprised someone on this project, so they surprise nobody "
    "again.\nOne section per gotcha: what happens, why, and what to do instead.\n\n"
    "## Real one\n\nThe zanzibar cache must be flushed after a deploy.\n"
)


def test_template_guidance_is_never_indexed_old_or_new(tmp_path: Path, memory: Memory) -> None:
    from app.init import _template

    write(tmp_path, ".claude/knowledge/gotchas.md", _template("knowledge", "gotchas.md"))
    write(tmp_path, ".claude/knowledge/old/gotchas.md", OLD_GOTCHAS)
    Indexer(memory).run()
    texts = [e.content for e in memory.list()]
    assert not any("surprised someone" in t for t in texts)
    assert any("zanzibar cache" in t for t in texts)


def test_a_key_longer_than_a_chunk_is_redacted_in_every_chunk(tmp_path: Path) -> None:
    from fakes import FakeEmbedder

    from engine.core.config import Config

    body = "\n".join("".join(chr(65 + (i * 7 + j) % 26) for j in range(64)) for i in range(30))
    pem = "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----"
    escaped = pem.replace("\n", "\\n")
    text = (
        f"# Keys\n\nThe deploy key:\n\n{pem}\n\n"
        f'And in JSON: {{"key": "{escaped}"}}\n\nKeep the rotation runbook.\n'
    )
    write(tmp_path, ".claude/knowledge/keys.md", text)
    config = dataclasses.replace(Config(), chunk_size=300)
    with Memory.open(tmp_path, config=config, embedder=FakeEmbedder()) as memory:
        report = Indexer(memory).run()
        stored = " ".join(e.content for e in memory.list(limit=1000))
    assert len(stored) > 50 and "rotation runbook" in stored
    for line in body.splitlines():
        assert line[:40] not in stored
    assert any("likely secret" in message for _, message in report.warnings)
