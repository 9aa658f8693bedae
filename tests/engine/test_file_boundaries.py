"""File boundaries (issue 15): nothing outside the project is read or served, and no file
in it (hidden, a FIFO, a symlink loop, a 2 GB file) is read unchecked or can hang a reader.

Real files throughout: FIFOs from ``os.mkfifo``, sparse 2 GB files from ``truncate``,
symlinks out of the project and in loops. A reader that blocks on a FIFO would hang the
test, so those reads run under :func:`finishes`, a deadlock guard (it fails the test
rather than hanging it; it measures no speed).
"""

from __future__ import annotations

import os
import resource
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from fakes import FakeEmbedder
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.config import load_config
from engine.core.errors import ConfigError, NotFoundError
from engine.guards.files import (
    FileRefusedError,
    project_files,
    read_project_bytes,
    read_project_text,
    write_project_file,
)
from engine.services.health import Status, diagnose
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.watch import FileChange, KnowledgeWatcher

T = TypeVar("T")
TWO_GB = 2 * 1024**3


def finishes(call: Callable[[], T]) -> T:
    """``call()``, failing the test (instead of hanging it) if it never returns."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout=120)  # a deadlock guard, not a speed check
    assert not thread.is_alive(), "blocked (on a FIFO?)"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def sparse(path: Path, size: int) -> None:
    """A file of ``size`` zero bytes that takes no disk space (``truncate``)."""
    path.touch()
    os.truncate(path, size)


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@pytest.fixture
def knowledge(memory: Memory) -> Path:
    """A knowledge folder with one good file and every hostile kind of entry beside it."""
    folder = memory.paths.knowledge_dir
    (folder / "sub").mkdir(parents=True)
    (folder / "good.md").write_text("# Good\n\nPelicans nest on the pier.\n", encoding="utf-8")
    (folder / ".env").write_text("API_TOKEN=hunter2\n", encoding="utf-8")
    (folder / ".drafts").mkdir()
    (folder / ".drafts" / "wip.md").write_text("# Draft\n\nHidden walrus.\n", encoding="utf-8")
    (folder / ".hidden.md").write_text("# Hidden\n\nHidden walrus.\n", encoding="utf-8")
    os.mkfifo(folder / "pipe.md")
    (folder / "loop.md").symlink_to(folder / "loop.md")
    (folder / "sub" / "up").symlink_to(folder, target_is_directory=True)
    sparse(folder / "huge.md", TWO_GB)
    return folder


# --- configured folders ------------------------------------------------------------------------


def _toml(root: Path, text: str) -> Path:
    path = root / ".claude" / "memory.config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("value", ["../x", "/etc", "docs/../../x"])
def test_a_knowledge_dir_outside_the_project_is_a_config_error_naming_the_key(
    tmp_path: Path, value: str
) -> None:
    path = _toml(tmp_path, f'knowledge_dir = "{value}"\n')

    with pytest.raises(ConfigError) as info:
        load_config(tmp_path, env={})

    assert f"{path}: key 'knowledge_dir'" in info.value.message
    assert "outside the project" in info.value.message


def test_the_knowledge_dir_variable_is_checked_too(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^CLAUDE_MEMORY_KNOWLEDGE_DIR: '\.\./x' leads to"):
        load_config(tmp_path, env={"CLAUDE_MEMORY_KNOWLEDGE_DIR": "../x"})


def test_a_knowledge_folder_symlinked_out_of_the_project_is_refused(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "home-ssh"
    outside.mkdir()
    (outside / "id_rsa.md").write_text("PRIVATE KEY", encoding="utf-8")
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "knowledge").symlink_to(outside, target_is_directory=True)

    with pytest.raises(ConfigError) as info:
        Memory.open(project, embedder=FakeEmbedder())

    message = info.value.message
    assert message.startswith("knowledge_dir (default '.claude/knowledge'): ")
    assert "through a symlink" in message and str(outside) in message


def test_a_memory_folder_symlinked_out_of_the_project_is_refused(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "elsewhere"
    outside.mkdir()
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "memory").symlink_to(outside, target_is_directory=True)

    with pytest.raises(ConfigError, match=r"the memory folder \.claude/memory: "):
        Memory.open(project, embedder=FakeEmbedder())

    assert list(outside.iterdir()) == []  # nothing written there


def test_folders_inside_the_project_are_accepted_through_symlinks_too(tmp_path: Path) -> None:
    (tmp_path / "docs" / "kb").mkdir(parents=True)
    _toml(tmp_path, 'knowledge_dir = "docs/kb"\n')
    (tmp_path / "kb-link").symlink_to(tmp_path / "docs" / "kb", target_is_directory=True)

    assert load_config(tmp_path, env={}).knowledge_dir == "docs/kb"
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.paths.knowledge_dir == tmp_path.resolve() / "docs" / "kb"
    load_config(tmp_path, env={"CLAUDE_MEMORY_KNOWLEDGE_DIR": "kb-link"})


def test_doctor_reports_a_folder_outside_as_a_problem(tmp_path: Path) -> None:
    _toml(tmp_path, 'knowledge_dir = "../x"\n')

    report = finishes(lambda: diagnose(tmp_path, FakeEmbedder()))

    config = next(c for c in report.checks if c.part == "config")
    assert config.status is Status.PROBLEM and "knowledge_dir" in config.detail
    assert not report.healthy


@pytest.fixture(scope="module")
def fuzz_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with a folder inside, a symlink out of it and a symlink back into it."""
    base = tmp_path_factory.mktemp("fuzz")
    root, outside = base / "project", base / "outside"
    (root / "docs").mkdir(parents=True)
    outside.mkdir()
    (root / "out").symlink_to(outside, target_is_directory=True)
    (root / "back").symlink_to(root / "docs", target_is_directory=True)
    return root


PARTS = st.sampled_from(["..", ".", "docs", "out", "back", "", "~", "é", " ", "\\", "x"])


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(PARTS, max_size=6), absolute=st.booleans())
def test_fuzzed_knowledge_dirs_are_inside_the_project_or_a_config_error(
    fuzz_project: Path, parts: list[str], absolute: bool
) -> None:
    value = ("/" if absolute else "") + "/".join(parts)
    try:
        config = load_config(fuzz_project, env={"CLAUDE_MEMORY_KNOWLEDGE_DIR": value})
    except ConfigError as exc:
        assert exc.message.startswith("CLAUDE_MEMORY_KNOWLEDGE_DIR")
        return
    folder = (fuzz_project / config.knowledge_dir).resolve()
    assert folder.is_relative_to(fuzz_project.resolve()), value


# --- the guard ----------------------------------------------------------------------------------


def test_the_guard_refuses_each_hostile_kind_with_its_reason(knowledge: Path) -> None:
    def refusal(name: str) -> str:
        with pytest.raises(FileRefusedError) as info:
            finishes(lambda: read_project_bytes(knowledge, knowledge / name))
        return info.value.reason

    assert refusal(".env").startswith("hidden (.env)")
    assert refusal(".drafts/wip.md").startswith("hidden (.drafts)")
    assert refusal("pipe.md") == "a FIFO, not a regular file"
    assert refusal("loop.md") == "cannot be resolved (a symlink loop)"
    assert refusal("huge.md") == "over 2,000,000 bytes"
    assert refusal("sub") == "a folder, not a regular file"
    (knowledge.parent / "secret.md").write_text("beside the folder", encoding="utf-8")
    assert refusal("../secret.md").startswith("leads outside knowledge/")
    with pytest.raises(NotFoundError):
        read_project_bytes(knowledge, knowledge / "nope.md")
    assert read_project_text(knowledge, knowledge / "good.md").startswith("# Good")
    assert read_project_bytes(knowledge, knowledge / ".env", allow_hidden=True)


def test_a_socket_is_neither_listed_nor_read(
    knowledge: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(knowledge)  # a relative name keeps the socket path under its length limit
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind("sock.md")

        with pytest.raises(FileRefusedError) as info:
            read_project_bytes(knowledge, knowledge / "sock.md")
        listed = sorted(p.name for p in project_files(knowledge))

    assert info.value.reason == "a socket, not a regular file"
    assert "sock.md" not in listed


def test_the_guard_decodes_or_says_why_not(tmp_path: Path) -> None:
    (tmp_path / "bom.md").write_bytes(b"\xef\xbb\xbf# Caf\xc3\xa9\n")
    (tmp_path / "latin.md").write_bytes("# Café\n".encode("latin-1"))
    (tmp_path / "nul.md").write_bytes(b"# x\x00y\n")

    assert read_project_text(tmp_path, tmp_path / "bom.md") == "# Café\n"
    with pytest.raises(FileRefusedError, match="not UTF-8; invalid byte at offset 5"):
        read_project_text(tmp_path, tmp_path / "latin.md")
    with pytest.raises(FileRefusedError, match="binary"):
        read_project_text(tmp_path, tmp_path / "nul.md")


def test_listing_skips_hidden_fifos_loops_and_links_out(knowledge: Path, tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-out.md"
    outside.write_text("# Out\n", encoding="utf-8")
    (knowledge / "out.md").symlink_to(outside)
    (knowledge / "alias.md").symlink_to(knowledge / "good.md")

    found = finishes(lambda: sorted(p.name for p in project_files(knowledge)))

    assert found == ["alias.md", "good.md", "huge.md"]  # huge.md is refused when read


def test_writing_refuses_links_and_fifos_and_replaces_whole(tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-target.md"
    (tmp_path / "link.md").symlink_to(outside)  # dangling
    os.mkfifo(tmp_path / "pipe.md")

    with pytest.raises(FileRefusedError, match="is a symlink"):
        write_project_file(tmp_path, tmp_path / "link.md", "x")
    with pytest.raises(FileRefusedError, match="a FIFO, not a regular file"):
        write_project_file(tmp_path, tmp_path / "pipe.md", "x")
    write_project_file(tmp_path, tmp_path / "new.md", "# New\n")

    assert not outside.exists()
    assert (tmp_path / "new.md").read_text(encoding="utf-8") == "# New\n"
    assert (tmp_path / "new.md").stat().st_mode & 0o777 == 0o644
    (tmp_path / "new.md").chmod(0o664)
    write_project_file(tmp_path, tmp_path / "new.md", "# Newer\n")
    assert (tmp_path / "new.md").stat().st_mode & 0o777 == 0o664
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.md", "new.md", "pipe.md"]


# --- every reader goes through it ---------------------------------------------------------------


def test_indexing_skips_hidden_fifo_loop_and_2gb_file_and_indexes_the_rest(
    memory: Memory, knowledge: Path
) -> None:
    before = peak_rss_bytes()

    report = finishes(lambda: Indexer(memory).run())

    assert peak_rss_bytes() - before < 500 * 1024**2  # the 2 GB file was never loaded
    rel = knowledge.relative_to(memory.paths.root).as_posix()
    assert report.errors == [
        (
            f"{rel}/huge.md",
            "over 2,000,000 bytes; it is 2,147,483,648 bytes; split it, or raise "
            "max_file_bytes in the config",
        )
    ]
    assert {e.file_path for e in memory.list()} == {f"{rel}/good.md"}
    assert memory.search("walrus", mode="keyword").results == ()


def test_the_size_cap_is_configurable(memory: Memory, knowledge: Path) -> None:
    _toml(memory.paths.root, "max_file_bytes = 1000\n")
    (knowledge / "huge.md").unlink()
    (knowledge / "medium.md").write_text("# Medium\n\n" + "otter " * 300, encoding="utf-8")

    with Memory.open(memory.paths.root, embedder=FakeEmbedder()) as small:
        report = finishes(lambda: Indexer(small).run())

    assert [(p.rsplit("/", 1)[-1], m.split(";")[0]) for p, m in report.errors] == [
        ("medium.md", "over 1,000 bytes")
    ]


def test_doctor_counts_what_index_reads_and_never_loads_a_2gb_file(
    memory: Memory, knowledge: Path
) -> None:
    Indexer(memory).run()
    before = peak_rss_bytes()

    report = finishes(lambda: diagnose(memory.paths.root, FakeEmbedder()))

    assert peak_rss_bytes() - before < 500 * 1024**2
    check = next(c for c in report.checks if c.part == "knowledge")
    assert check.detail == (
        "2 knowledge files, 0 documentation files; .claude/knowledge/huge.md: over 2,000,000 bytes"
    )
    (knowledge / "huge.md").unlink()
    check = next(
        c for c in diagnose(memory.paths.root, FakeEmbedder()).checks if c.part == "knowledge"
    )
    assert (check.status, check.detail) == (
        Status.OK,
        "1 knowledge file, 0 documentation files, all indexed",
    )


def test_watch_reindexes_a_folder_holding_a_fifo_and_a_loop(
    memory: Memory, knowledge: Path
) -> None:
    (knowledge / "huge.md").unlink()
    watcher = KnowledgeWatcher(memory)
    rel = knowledge.relative_to(memory.paths.root).as_posix()

    batch = finishes(lambda: watcher.apply([FileChange("added", rel)]))

    assert batch.error == "" and batch.report is not None and batch.report.errors == []
    assert batch.entries_by_file == {f"{rel}/good.md": 1}


def test_a_fifo_named_gitignore_hangs_neither_sources_nor_the_analyzer(memory: Memory) -> None:
    from engine.analyzer import analyze

    root = memory.paths.root
    os.mkfifo(root / ".gitignore")
    (root / "README.md").write_text("# Readme\n\nHerons fish at dawn.\n", encoding="utf-8")

    report = finishes(lambda: Indexer(memory).run())
    analysis = finishes(lambda: analyze(root))

    assert report.errors == [] and "README.md" in {e.file_path for e in memory.list()}
    assert "README.md" in {d.file for d in analysis.docs}


def test_a_cited_file_turned_into_a_fifo_or_2gb_is_stale_without_hanging(memory: Memory) -> None:
    code = memory.paths.root / "calc.py"
    code.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    note = memory.add("compute_total() in calc.py rounds down", source="session").entry
    code.unlink()
    os.mkfifo(code)

    stale = finishes(lambda: memory.stale_reasons([note.id]))
    assert stale == {note.id: "calc.py no longer exists"}

    code.unlink()
    sparse(code, TWO_GB)
    with Memory.open(memory.paths.root, embedder=FakeEmbedder()) as fresh:  # hashes anew
        before = peak_rss_bytes()
        stale = finishes(lambda: fresh.stale_reasons([note.id]))
    assert stale == {note.id: "calc.py changed since this was written"}
    assert peak_rss_bytes() - before < 500 * 1024**2
