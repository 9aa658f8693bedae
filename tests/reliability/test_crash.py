"""kill -9 at random points: the indexer, a writer, ``memory-tui init``.

Each trial kills a real process with SIGKILL at a point drawn from a seeded random
generator (a delay; for init, a file it has written or a stage it has begun), then checks
that the memory opens, that the keyword mirror was repaired to agree with the store (ids
and every field), that nothing acknowledged was lost, and that the next run completes with
the counts a clean run gives. The writer and init trials also check that the kill landed
mid-run: the process was still working and the SIGKILL is what ended it. Trial outcomes
are printed (``pytest -s``) as the rows of the reliability table.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli, tree
from fakes import FakeEmbedder
from reliability_support import mutate_tree, reference_markdown, snapshot, spawn, write_tree

from engine.embedding.base import DIMENSION
from engine.services.entries import NewEntry
from engine.services.indexing import Indexer
from engine.services.memory import Memory

SEED = 20261122
WRITER_ADDS = 5000
"""Adds the killed writer is asked for: more than it can make before the kill."""


def _wait_for_line(proc: subprocess.Popen[str], prefix: str) -> list[str]:
    """Read ``proc``'s stdout up to the first line starting with ``prefix``."""
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith(prefix):
            break
    return lines


def _kill_after(proc: subprocess.Popen[str], delay: float) -> bool:
    """SIGKILL ``proc`` after ``delay`` seconds; True if it was still running."""
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
        return True
    proc.communicate(timeout=30)
    return False


def _timed_index_run(root: Path) -> float:
    """Seconds a complete worker index run of ``root`` takes (process start excluded)."""
    proc = spawn("index", root)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stdout + stderr[-2000:]
    return float(json.loads(stdout.splitlines()[-1])["seconds"])


@pytest.mark.slow
def test_indexer_killed_at_random_points_repairs_and_completes(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    root = tmp_path / "p"
    write_tree(root, 40, rng)
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        notes = memory.add_many(
            [NewEntry(f"hand-written note {n} about quorum") for n in range(20)]
        )
    told = {r.entry.id for r in notes}
    full = _timed_index_run(tmp_path / "p")  # calibrates the kill window
    trials, killed_mid_run, failures = 10, 0, []
    for trial in range(trials):
        mutate_tree(root, rng, trial)
        force = trial % 3 == 2
        proc = spawn("index", root, *(["--force"] if force else []))
        _wait_for_line(proc, "READY")
        delay = rng.uniform(0.0, full * 0.6)
        killed_mid_run += _kill_after(proc, delay)
        state = snapshot(root)  # opening repairs the mirror
        problems = []
        if not (state.mirror_matches_store and state.integrity_ok):
            problems.append("mirror differs from store after reopening")
        if not told <= state.store_ids:
            problems.append(f"lost {len(told - state.store_ids)} acknowledged notes")
        with Memory.open(root, embedder=FakeEmbedder()) as memory:
            report = Indexer(memory).run()
        if report.errors:
            problems.append(f"next index failed: {report.errors}")
        after = snapshot(root)
        expected = reference_markdown(root, tmp_path / "reference")
        if after.markdown != expected:
            problems.append(
                f"markdown entries differ from a clean index: {len(after.markdown - expected)} "
                f"extra, {len(expected - after.markdown)} missing"
            )
        if not after.mirror_matches_store or not told <= after.store_ids:
            problems.append("inconsistent after the next index")
        print(f"trial {trial}: kill after {delay:.2f} s (force={force}): {problems or 'ok'}")
        failures += [f"trial {trial}: {p}" for p in problems]
    print(f"indexer SIGKILL: {trials} trials, {killed_mid_run} killed mid-run, {failures=}")
    assert failures == []
    assert killed_mid_run >= trials // 2  # most kills really interrupted a run


@pytest.mark.slow
def test_writer_killed_mid_add_loses_nothing_it_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(SEED + 1)
    root = tmp_path / "p"
    Memory.open(root, embedder=FakeEmbedder()).close()
    told: set[str] = set()
    trials, lost_total = 6, 0
    for trial in range(trials):
        # More adds than fit in the kill window: the writer is always busy when it is killed.
        proc = spawn("add", root, f"t{trial}", str(WRITER_ADDS))
        first = _wait_for_line(proc, "ACK ")
        time.sleep(rng.uniform(0.0, 1.5))
        assert proc.poll() is None, f"the writer stopped before the kill: {first}"
        proc.send_signal(signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=30)
        lines = first + stdout.splitlines()
        acked = {line.split()[1] for line in lines if line.startswith("ACK ")}
        # The kill ended a writer in the middle of its adds (not one that had failed).
        assert proc.returncode == -signal.SIGKILL, (proc.returncode, stdout, stderr[-2000:])
        assert 1 <= len(acked) < WRITER_ADDS
        assert not any(line.startswith("ERROR") for line in lines), stdout
        told |= acked
        state = snapshot(root)
        lost = told - state.store_ids
        lost_total += len(lost)
        # At most the one add in flight may be stored without its acknowledgement.
        unacked = len(state.store_ids) - len(told)
        print(f"trial {trial}: {len(acked)} acked, {len(lost)} lost, {unacked} stored unacked")
        assert state.mirror_matches_store and state.integrity_ok
        assert not lost
        assert 0 <= unacked <= trial + 1
    print(f"writer SIGKILL: {trials} trials, {len(told)} acknowledged entries, lost {lost_total}")


def _interrupted_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every Path.write_text write half its text and then die, like a kill would."""
    real = Path.write_text

    def half_then_die(self: Path, data: str, *args: object, **kwargs: object) -> int:
        real(self, data[: len(data) // 2], encoding="utf-8")
        raise SystemExit("killed mid-write")

    monkeypatch.setattr(Path, "write_text", half_then_die)


def test_a_write_interrupted_by_a_kill_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.init import InitReport, scaffold

    root = git_repo(tmp_path / "repo")
    original = "node_modules/\n# the user's own ignore rules\n*.log\n"
    (root / ".gitignore").write_text(original, encoding="utf-8")
    clean = git_repo(tmp_path / "clean")
    (clean / ".gitignore").write_text(original, encoding="utf-8")
    scaffold(clean, InitReport())
    with monkeypatch.context() as patch:
        _interrupted_write(patch)
        with pytest.raises(SystemExit):
            scaffold(root, InitReport())
    # The user's file is whole; no template was left half-written.
    assert (root / ".gitignore").read_text(encoding="utf-8") == original
    scaffold(root, InitReport())
    assert tree(root) == tree(clean)


INIT_MEMORY_STAGES = (
    ".claude/memory/fts.sqlite",  # the memory is open: the model loads, then indexing
    ".claude/memory/vectors",  # the indexed entries are being written to the store
    ".claude/memory/meta.json",  # the index is recorded; init is closing the memory
)
"""Paths init creates after its files, in order: reaching one marks a point of the run."""


def indexed_files(memory: Memory) -> set[str]:
    """Every file some entry of ``memory`` comes from."""
    return {e.file_path for e in memory.list() if e.file_path}


def _kill_at(proc: subprocess.Popen[str], marker: Path, extra: float) -> bool:
    """SIGKILL ``proc`` once ``marker`` exists and ``extra`` more seconds have passed.

    Returns False if ``proc`` ended first or the marker never appeared.
    """
    deadline = time.monotonic() + 120
    while not marker.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    time.sleep(extra)
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGKILL)
    return True


def _harmless_leftovers(root: Path, clean: dict[str, str]) -> list[str]:
    """The ``*.tmp`` files an interrupted init left under ``root``, checked to be harmless.

    init writes every file through ``.<name>.<pid>.tmp`` and renames it; a kill between
    the two leaves that file behind (the ``finally`` that removes it never runs, and the
    next run has another pid). Such a file must be an unfinished copy of a file init
    writes, next to it, and no knowledge file: nothing ever reads it.
    """
    leftovers = []
    for rel, text in tree(root).items():
        if not rel.endswith(".tmp"):
            continue
        folder, _, name = rel.rpartition("/")
        written = re.fullmatch(r"\.(.+)\.\d+\.tmp", name)
        assert written, f"{rel} is not a temporary file of init"
        target = f"{folder}/{written[1]}" if folder else written[1]
        assert target in clean, f"{rel} belongs to no file init writes"
        assert clean[target].startswith(text), f"{rel} is not a partial copy of {target}"
        leftovers.append(rel)
    return leftovers


README = "# App\n\nRun it with `python app.py`; it prints nothing and exits.\n"


@pytest.mark.slow
def test_init_killed_at_random_points_can_be_run_again(tmp_path: Path) -> None:
    rng = random.Random(SEED + 2)
    home = tmp_path / "home"
    home.mkdir()
    clean = git_repo(tmp_path / "clean")
    (clean / "app.py").write_text("def main() -> None:\n    pass\n", encoding="utf-8")
    (clean / "README.md").write_text(README, encoding="utf-8")  # something to index
    expected = run_cli("init", "--skip-analyze", cwd=clean, home=home)
    assert expected.returncode == 0, expected.stderr
    assert CLI is not None
    clean_tree = tree(clean)
    with Memory.open(clean, embedder=FakeEmbedder(DIMENSION)) as memory:
        clean_indexed = indexed_files(memory)
    # Kill points: once one of the files init writes exists, or one of its later stages
    # has begun; every kill must land while init is still running.
    written_files = sorted(set(clean_tree) - {"app.py", "README.md"})
    trials, failures, leftovers_seen = 6, [], 0
    for trial in range(trials):
        root = git_repo(tmp_path / f"repo{trial}")
        (root / "app.py").write_text("def main() -> None:\n    pass\n", encoding="utf-8")
        (root / "README.md").write_text(README, encoding="utf-8")
        if trial % 2 == 0:
            marker, extra = rng.choice(written_files), 0.0
        else:
            marker = INIT_MEMORY_STAGES[(trial // 2) % len(INIT_MEMORY_STAGES)]
            extra = rng.uniform(0.0, 0.3) if marker.endswith("fts.sqlite") else 0.0
        proc = subprocess.Popen(
            [CLI, "init", "--skip-analyze"],
            cwd=root,
            env=clean_env(home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        killed = _kill_at(proc, root / marker, extra)
        _, stderr = proc.communicate(timeout=60)
        assert killed, f"trial {trial}: init ended before reaching {marker}: {stderr[-1000:]}"
        assert proc.returncode == -signal.SIGKILL, (trial, proc.returncode, stderr[-1000:])
        again = run_cli("init", "--skip-analyze", cwd=root, home=home)
        leftovers = _harmless_leftovers(root, clean_tree)
        leftovers_seen += len(leftovers)
        now = {k: v for k, v in tree(root).items() if k not in leftovers}
        differs = sorted(
            k for k in now.keys() | clean_tree.keys() if now.get(k) != clean_tree.get(k)
        )
        same = not differs
        json_ok = all(
            isinstance(json.loads((root / rel).read_text(encoding="utf-8")), dict)
            for rel in (".mcp.json", ".claude/settings.json")
        )
        with Memory.open(root, embedder=FakeEmbedder(DIMENSION)) as memory:
            indexed_ok = indexed_files(memory) == clean_indexed
        ok = again.returncode == 0 and same and json_ok and indexed_ok
        print(
            f"trial {trial}: killed once {marker} existed (+{extra:.2f} s), "
            f"{len(leftovers)} .tmp left: {'ok' if ok else 'FAIL'}"
        )
        if not ok:
            failures.append(
                (trial, marker, again.returncode, again.stderr[-500:], differs, json_ok, indexed_ok)
            )
    print(f"init SIGKILL: {trials} trials, all mid-run, {leftovers_seen} harmless .tmp files")
    assert failures == []
    assert os.path.exists(clean / ".mcp.json")
