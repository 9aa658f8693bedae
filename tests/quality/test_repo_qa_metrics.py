"""The repo_qa benchmark's metrics, classifier and question files (no model)."""

from __future__ import annotations

import fnmatch
import gzip
import json
import subprocess
from pathlib import Path

import pytest

from app.prompt_hook import format_context
from bench.repo_qa import (
    REPOSITORIES,
    Question,
    QuestionSet,
    hit_at,
    injected_files,
    is_noise,
    is_test_code,
    load,
    off_topic,
    off_topic_groups,
    pack_paths,
    paths_file,
    question_kind,
    reciprocal_rank,
    summary_kind,
    tracked_paths,
    word_count,
)
from bench.repo_qa.__main__ import MODES, main, report, store_figures, unanswering_summaries
from bench.repo_qa.baselines import BASELINES, bm25_baseline
from bench.repo_qa.repos import (
    default_repos_dir,
    ensure_clone,
    listed_paths,
    present_repo,
    source_repo,
)
from engine import Category, Entry, SearchResult


def test_hit_and_reciprocal_rank_count_file_level_matches() -> None:
    ranked = ["a.md", "b.py", "c.py", "d.md", "e.md", "f.md"]
    assert hit_at(ranked, ["e.md"]) == 1.0
    assert hit_at(ranked, ["f.md"]) == 0.0
    assert reciprocal_rank(ranked, ["c.py", "f.md"]) == pytest.approx(1 / 3)
    assert reciprocal_rank(ranked, ["zzz"]) == 0.0


@pytest.mark.parametrize(
    ("path", "noise"),
    [
        ("docs/release-notes.md", True),
        ("History.md", True),
        ("docs_src/a/tutorial001.py", True),
        ("examples/mvc/index.js", True),
        ("tests/test_cli.py", True),
        ("test/app.router.js", True),
        ("typer/_click/core.py", True),
        ("typer/main.py", False),
        ("lib/response.js", False),
        ("docs/tutorial/testing.md", False),
        ("src/router/trie-router/node.test.ts", True),
        ("runtime-tests/lambda/mock.ts", True),
        ("benchmarks/routers/src/koa-router.mts", True),
        ("src/middleware/cors/index.ts", False),
        ("docs/reference/migrations/migrating-to-v5.md", False),
        ("docs/learn/guides/testing.md", False),
        ("flag_test.go", True),
        ("testdata/expected-fish-full.fish", True),
        ("gson/src/test/java/com/google/gson/GsonTest.java", True),
        ("test-shrinker/src/main/java/com/example/Main.java", True),
        ("test/gtest/gtest.h", True),
        ("doc/ChangeLog-old.md", True),
        ("etc/examples/189-merge-conflict.diff", True),
        ("command.go", False),
        ("src/handlers/merge_conflict.rs", False),
        ("gson/src/main/java/com/google/gson/Gson.java", False),
        ("include/fmt/format.h", False),
        ("contest/main.go", False),
        ("", False),
    ],
)
def test_noise_classifier(path: str, noise: bool) -> None:
    assert is_noise(path) is noise


def test_injected_files_are_read_from_the_hook_block() -> None:
    block = (
        "<project-memory>\nPossibly relevant notes from this project's memory:\n"
        "- [general] docs/tutorial/testing.md:12 (id abc): Testing...\n"
        "- [discovery] typer/main.py (id def): Module...\n"
        "- [gotcha] session (id 123): a note\n</project-memory>\n"
    )
    assert injected_files(block) == ["docs/tutorial/testing.md", "typer/main.py", "session"]


@pytest.mark.parametrize("name", REPOSITORIES)
def test_question_sets_are_complete(name: str) -> None:
    qs = load(name)
    assert len(qs.commit) == 40 and int(qs.commit, 16) >= 0
    assert len(qs.questions) >= 30 and qs.kind and qs.source_globs
    assert all(1 <= len(q.files) <= 3 for q in qs.questions)
    assert len({q.q for q in qs.questions}) == len(qs.questions)
    # the BM25 baselines read only files matching the globs: each question must be answerable
    for question in qs.questions:
        assert any(
            fnmatch.fnmatch(Path(f).name, glob) for f in question.files for glob in qs.source_globs
        ), question.q
    groups = off_topic_groups()
    assert set(groups) == {"nonsense", "everyday", "programming"}
    assert len(off_topic()) >= 60 and all(len(g) >= 20 for g in groups.values())


@pytest.mark.parametrize("name", REPOSITORIES)
def test_answer_files_are_tracked_at_the_pinned_commit(name: str) -> None:
    # runs everywhere: the set's tracked paths are shipped beside it (no clone, no network)
    qs = load(name)
    commit, tree = tracked_paths(name)
    assert commit == qs.commit, f"{paths_file(name).name} lists {commit[:12]}, not the set's"
    missing = sorted({f for q in qs.questions for f in q.files} - tree)
    assert not missing, f"{name}: answer files not in {qs.commit[:12]}: {missing}"


def test_shipped_paths_are_the_commit_trees_of_the_clones_present() -> None:
    # where this machine has a set's repository (the mirror or a `--repos-dir` clone), the
    # shipped list must be exactly its tree at the commit
    present = {name: present_repo(load(name), default_repos_dir()) for name in REPOSITORIES}
    checked = {name: git_dir for name, git_dir in present.items() if git_dir is not None}
    if not checked:
        pytest.skip("no set's repository here (python -m bench.repo_qa --repo NAME clones it)")
    for name, git_dir in checked.items():
        commit = load(name).commit
        assert paths_file(name).read_bytes() == pack_paths(commit, listed_paths(git_dir, commit))


def test_pack_paths_is_sorted_without_duplicates_and_the_same_bytes_each_time() -> None:
    packed = pack_paths("a" * 40, ["src/b.ml", "doc/a.mld", "src/b.ml"])
    assert packed == pack_paths("a" * 40, ["doc/a.mld", "src/b.ml"])
    data = json.loads(gzip.decompress(packed))
    assert data == {"commit": "a" * 40, "paths": ["doc/a.mld", "src/b.ml"]}


def _origin(root: Path, files: dict[str, str]) -> tuple[Path, str]:
    """A git repository at ``root`` with one commit holding ``files``; the commit's hash."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "c"], check=True)
    done = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    return root, done.stdout.strip()


def _set(commit: str) -> QuestionSet:
    question = Question("How?", ("docs/a.md",))
    return QuestionSet("t", "owner/name", commit, "test", ("*.md",), (question,))


def test_a_missing_repository_is_cloned_into_the_cache_once(tmp_path: Path) -> None:
    origin, commit = _origin(tmp_path / "origin", {"docs/a.md": "# A\n", "src/b.py": "x = 1\n"})
    cache = tmp_path / "cache"
    clone = ensure_clone(_set(commit), cache, url=str(origin))
    assert clone == cache / "owner+name.git"
    assert sorted(listed_paths(clone, commit)) == ["docs/a.md", "src/b.py"]
    subprocess.run(["rm", "-rf", str(origin)], check=True)  # the cache alone answers now
    assert ensure_clone(_set(commit), cache, url=str(origin)) == clone
    assert [p.name for p in cache.iterdir()] == ["owner+name.git"]  # no leftovers


def test_a_clone_lacking_the_commit_fetches_it(tmp_path: Path) -> None:
    origin, first = _origin(tmp_path / "origin", {"docs/a.md": "# A\n"})
    cache = tmp_path / "cache"
    ensure_clone(_set(first), cache, url=str(origin))
    _, second = _origin(origin, {"docs/a.md": "# A, later\n"})
    assert ensure_clone(_set(second), cache, url=str(origin)) == cache / "owner+name.git"
    assert listed_paths(cache / "owner+name.git", second) == ["docs/a.md"]


def test_a_clone_that_fails_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with pytest.raises(SystemExit, match=r"git clone .*nowhere failed"):
        ensure_clone(_set("0" * 40), cache, url=str(tmp_path / "nowhere"))
    assert list(cache.iterdir()) == []
    origin, _ = _origin(tmp_path / "origin", {"docs/a.md": "# A\n"})
    with pytest.raises(SystemExit, match="git fetch 000000000000"):
        ensure_clone(_set("0" * 40), cache, url=str(origin))


def test_the_source_is_the_given_git_dir_else_the_mirror_else_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    origin, commit = _origin(tmp_path / "origin", {"docs/a.md": "# A\n"})
    qs, cache = _set(commit), tmp_path / "cache"
    monkeypatch.setattr("bench.repo_qa.repos.MIRRORS", tmp_path / "mirrors")
    assert source_repo(qs, origin / ".git", cache, url="unused") == origin / ".git"
    with pytest.raises(SystemExit, match=r"--git-dir .*given holds no commit"):
        source_repo(qs, tmp_path / "given", cache, url=str(origin))
    assert present_repo(qs, cache) is None
    assert source_repo(qs, None, cache, url=str(origin)) == cache / "owner+name.git"
    mirrored = tmp_path / "mirrors" / "owner+name" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(origin), str(mirrored)], check=True)
    assert source_repo(qs, None, cache) == present_repo(qs, cache) == mirrored


def test_the_command_clones_into_repos_dir_and_saves_the_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    origin, commit = _origin(tmp_path / "origin", {"docs/a.md": "# A\n", "lib/b.dart": "x\n"})
    monkeypatch.setattr("bench.repo_qa.repos.MIRRORS", tmp_path / "mirrors")
    monkeypatch.setattr("bench.repo_qa.repos.repo_url", lambda qs: str(origin))
    monkeypatch.setattr("bench.repo_qa.repos.paths_file", lambda name: tmp_path / "t.paths.gz")
    monkeypatch.setattr("bench.repo_qa.__main__.load", lambda name: _set(commit))
    cache = tmp_path / "cache"
    assert main(["--repo", "shelf", "--repos-dir", str(cache), "--save-paths"]) == 0
    assert (cache / "owner+name.git").is_dir()
    data = json.loads(gzip.decompress((tmp_path / "t.paths.gz").read_bytes()))
    assert data == {"commit": commit, "paths": ["docs/a.md", "lib/b.dart"]}
    assert capsys.readouterr().out.strip() == str(tmp_path / "t.paths.gz")


def test_question_kind_follows_the_first_answer_file() -> None:
    assert question_kind(Question("How?", ("docs/a.md", "src/a.rs"))) == "doc"
    assert question_kind(Question("Where?", ("src/a.rs", "docs/a.md"))) == "source"
    assert question_kind(Question("Exit?", ("man/man1/fzf.1",))) == "doc"  # a man page
    assert question_kind(Question("Terms?", ("doc/tutorial.mld",))) == "doc"  # an odoc page
    assert question_kind(Question("Trie?", ("src/cmdliner_trie.ml",))) == "source"


@pytest.mark.parametrize(
    ("text", "test"),
    [
        ("#[cfg(test)]\nmod tests {\n    use super::*;", True),
        ("    #[test]\n    fn parses_a_hunk() {}", True),
        ("func TestFlagParsing(t *testing.T) {", True),
        ("def test_version_option(tmp_path):", True),
        ("  @Test\n  public void testNulls() {", True),
        ("TEST(format_test, width) {", True),
        ("pub fn parse_hunk_header(line: &str) -> Option<Hunk> {", False),
        ("func Testify(x int) int {", False),
        ("@TestInstance(PER_CLASS)", False),
        ("A guide to testing your app: write a test for each command.", False),
    ],
)
def test_test_code_is_recognised_by_its_markers(text: str, test: bool) -> None:
    assert is_test_code(text) is test


def test_word_count_counts_letter_runs() -> None:
    assert word_count("}\n}") == 0
    assert word_count("#[derive(Debug)]") == 2
    assert word_count("Defines all of the flags") == 5


def test_store_figures_find_the_largest_file_short_entries_and_tests_in_source() -> None:
    def entry(i: int, path: str, content: str) -> Entry:
        return Entry(id=str(i), content=content, file_path=path)

    entries = [entry(i, "src/flags.rs", f"Flag number {i} takes a value") for i in range(5)]
    entries += [
        entry(5, "src/flags.rs", "#[cfg(test)]\nmod tests { fn parses() {} }"),
        entry(6, "src/main.rs", "}\n}"),
        entry(7, "tests/cli.rs", "#[test]\nfn runs_the_binary() {}"),
        entry(8, "docs/guide.md", "How to use the flags in a config file"),
        entry(9, "", "A note without a file, about release steps"),
    ]
    figures = store_figures(entries)
    assert figures["entries"] == 10
    assert figures["largest_file"] == figures["largest_source_file"] == "src/flags.rs"
    assert figures["largest_file_share"] == pytest.approx(0.6)
    assert figures["entries_under_3_words"] == 1
    assert figures["test_in_source_share"] == pytest.approx(0.1)  # tests/cli.rs is a test path
    assert figures["noise_share"] == pytest.approx(0.1)


def test_injected_files_reads_what_the_real_hook_prints() -> None:
    def result(entry_id: str, path: str, line: int) -> SearchResult:
        entry = Entry(id=entry_id, content="Use is_eager (id 9).", file_path=path, line_start=line)
        return SearchResult(entry=entry, score=0.5)

    block = format_context(
        [result("a1", "docs/tutorial/options/version.md", 7), result("b2", "typer/main.py", 0)]
    )
    assert injected_files(block) == ["docs/tutorial/options/version.md", "typer/main.py"]


def test_bm25_baselines_rank_the_answer_and_leave_noise_out_of_whole_files(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "version.md").write_text("# Version\nAdd a --version option.\n")
    (tmp_path / "CHANGELOG.md").write_text("# 0.2\nThe release changed the flag.\n")
    (tmp_path / "app.py").write_text("\n".join(f"x{i} = {i}" for i in range(400)) + "\n")
    question = Question("How do I add a version option?", ("docs/version.md",))
    noisy = Question("Which release changed the flag?", ("CHANGELOG.md",))
    qs = QuestionSet("t", "o/t", "0" * 40, "test", ("*.py", "*.md"), (question, noisy))
    figures = bm25_baseline(qs, tmp_path)
    assert figures["bm25_windows_hit@5"] == figures["bm25_windows_mrr"] == 1.0  # answers first
    assert figures["bm25_whole_hit@5"] == figures["bm25_whole_mrr"] == 1.0
    assert figures["bm25_clean_hit@5"] == 0.5  # CHANGELOG.md is noise: left out


@pytest.mark.parametrize(
    ("category", "title", "kind"),
    [
        ("discovery", "Module src/marshmallow/fields.py", "module"),
        ("discovery", "Modules in lua/oil/adapters (part 2 of 3)", "module"),
        ("discovery", "Package pkgs/shelf/lib/src/", "package"),
        ("discovery", "Project overview", "overview"),
        ("discovery", "Module documentation of src/cmdliner_arg.ml", ""),
        ("discovery", "function createStaticHandler", ""),
        ("general", "Module src/a.py", ""),  # a page's heading, not the analysis
        ("general", "Nesting Schemas > Two-way Nesting", ""),
    ],
)
def test_summary_entries_are_told_by_their_title(category: str, title: str, kind: str) -> None:
    assert summary_kind(category, title) == kind


def _summary(i: int, title: str, path: str) -> Entry:
    content = f"{title}: what it does"
    return Entry(str(i), content, Category.DISCOVERY, file_path=path, section_title=title)


def test_summaries_count_in_the_store_and_in_the_top_five_only_when_not_answers() -> None:
    entries = [
        _summary(1, "Module src/a.py", "src/a.py"),
        _summary(2, "Package src/", "src"),
        _summary(3, "Project overview", ""),
        Entry(id="4", content="How to nest schemas", file_path="docs/nesting.rst"),
    ]
    figures = store_figures(entries)
    assert figures["summary_share"] == pytest.approx(0.75)
    assert figures["summaries"] == {"module": 1, "package": 1, "overview": 1}
    results = [SearchResult(entry=e, score=1.0) for e in [entries[3], *entries[:3]]]
    assert unanswering_summaries(results, ["src/a.py"]) == 2  # the package and the overview
    assert unanswering_summaries(results, ["docs/nesting.rst"]) == 3
    assert unanswering_summaries(results[:1], ["x.py"]) == 0
    sixth = [SearchResult(entry=entries[3], score=1.0)] * 5 + results[1:2]
    assert unanswering_summaries(sixth, ["x.py"]) == 0  # past the fifth place


def test_report_puts_the_three_bm25_baselines_beside_each_figure() -> None:
    figures: dict[str, object] = {"repository": "o/r", "commit": "abc", "questions": 4}
    figures |= {"doc_questions": 3, "init_s": 1.5, "hook_hit": 0.25, "hook_silent_off_topic": 1.0}
    figures |= {
        "hook_p50_s": 0.2,
        "hook_p95_s": 0.4,
        "hook_by_kind": {"doc": "1/3", "source": "0/1"},
    }
    for number, mode in enumerate(MODES):
        figures |= {f"{mode}_hit@5": 0.5, f"{mode}_mrr": 0.4}
        figures[f"{mode}_by_kind"] = {"doc": "2/3", "source": "0/1"}
        figures |= {f"{mode}_summary_top5": number / 4, f"{mode}_summary_places": number * 2}
    for number, baseline in enumerate(BASELINES, start=1):
        figures |= {f"{baseline}_hit@5": number / 10, f"{baseline}_mrr": number / 100}
    figures |= store_figures([Entry(id="1", content="One two three", file_path="a.rs")])
    figures |= store_figures(
        [_summary(1, "Package src/", "src"), _summary(2, "Module a.rs", "a.rs")]
    )
    lines = report(figures).splitlines()
    rows = [line for line in lines if line.split()[:1] in (["hybrid"], ["keyword"], ["vector"])]
    assert len(rows) == 3
    assert all("0.100 / 0.200 / 0.300" in row and "0.010 / 0.020 / 0.030" in row for row in rows)
    assert any("hook hit" in line and "0.100 / 0.200 / 0.300" in line for line in lines)
    assert any("p50 0.200 s, p95 0.400 s" in line for line in lines)
    summary = next(line for line in lines if "summary entries" in line)
    assert "1.000" in summary and "(module 1, package 1, overview 0)" in summary
    assert "keyword 0/4 (0 places), vector 1/4 (2 places), hybrid 2/4 (4 places)" in summary
