"""One registry of running processes (app/pid_records.py) for the HTTP servers' records
(``status``, ``doctor``) and the prompt hook's endpoints: one rule for a live process,
the same for both. A process of another user is alive (the system refuses to signal
it, it exists); a record whose process is gone is removed by whichever reads it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app import pid_records
from app.hook_client import FOLDER, PROTOCOL, endpoints
from app.mcp.serving import RECORDS, HttpServer, running

NOBODY = 65534


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _as_another_user(check: Callable[[int], bool]) -> bool:
    """``check(pid)`` where ``pid`` is a live process of another user: run as root, in a
    forked child that became ``nobody`` (``pid``: this test's process); otherwise here
    (``pid`` 1, init, which is root's)."""
    if os.geteuid() != 0:
        return check(1)
    parent = os.getpid()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's result comes back through the pipe)
        ok = False
        try:
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            ok = check(parent)
        finally:
            os.write(write, b"1" if ok else b"0")
            os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    answer = os.read(read, 1)
    os.close(read)
    return answer == b"1"


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder the other user can write (pytest's own are this user's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="pid-records-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_process_of_another_user_is_alive_and_a_finished_one_is_not() -> None:
    assert pid_records.alive(os.getpid())
    assert _as_another_user(pid_records.alive)
    assert not pid_records.alive(_dead_pid())
    assert not pid_records.alive(0) and not pid_records.alive(-1)


def test_both_registries_keep_another_users_live_process_and_remove_a_finished_ones(
    shared_folder: Path,
) -> None:
    dead = _dead_pid()

    def check(other: int) -> bool:
        root = shared_folder / "project"
        memory_dir = root / ".claude" / "memory"
        memory_dir.mkdir(parents=True)
        for pid in (other, dead):
            endpoint = {"pid": pid, "port": 5, "token": "t", "root": str(root.resolve()),
                        "protocol": PROTOCOL}  # fmt: skip
            pid_records.write_private(memory_dir / FOLDER / f"{pid}.json", json.dumps(endpoint))
            server = {"pid": pid, "host": "127.0.0.1", "port": 8765, "token": True}
            pid_records.write_private(memory_dir / RECORDS / f"{pid}.json", json.dumps(server))
        found_endpoints = [e.pid for e in endpoints(memory_dir, root)]
        found_servers = running(memory_dir)
        left = sorted(p.name for p in memory_dir.rglob("*.json"))
        return (
            found_endpoints == [other]
            and found_servers == [HttpServer(other, "127.0.0.1", 8765, True)]
            and left == [f"{other}.json", f"{other}.json"]
        )

    assert _as_another_user(check)


def test_a_record_that_is_not_one_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "junk.json").write_text("not json", encoding="utf-8")
    pid_records.write_private(folder / "1.json", json.dumps({"pid": os.getpid()}))

    def read(path: Path) -> int | None:
        try:
            return int(json.loads(path.read_text(encoding="utf-8"))["pid"])
        except ValueError:
            return None

    assert pid_records.live(folder, read, lambda pid: pid) == [os.getpid()]
    assert (folder / "junk.json").exists()
    assert pid_records.live(tmp_path / "missing", read, lambda pid: pid) == []


def test_a_private_record_is_written_for_this_user_alone_and_never_through_a_symlink(
    tmp_path: Path,
) -> None:
    path = tmp_path / "records" / "7.json"
    pid_records.write_private(path, '{"pid": 7}')
    assert path.stat().st_mode & 0o777 == 0o600
    assert pid_records.read_private(path) is not None
    path.chmod(0o644)  # another could read it: not trusted
    assert pid_records.read_private(path) is None
    target = tmp_path / "elsewhere.json"
    target.write_text('{"pid": 7}', encoding="utf-8")
    target.chmod(0o600)
    link = tmp_path / "records" / "8.json"
    link.symlink_to(target)
    assert pid_records.read_private(link) is None
