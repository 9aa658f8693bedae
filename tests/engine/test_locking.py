"""The cross-process write lock (flock on .claude/memory/write.lock)."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.errors import LockTimeoutError
from engine.storage import locking
from engine.storage.locking import WriteLock

HOLDER = """
import sys, time
from pathlib import Path
from engine.storage.locking import WriteLock
lock = WriteLock(Path(sys.argv[1]))
with lock.hold():
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


@pytest.fixture
def lock_path(tmp_path: Path) -> Path:
    return tmp_path / "memory" / "write.lock"


def spawn_holder(lock_path: Path, seconds: float) -> subprocess.Popen[str]:
    """Start another process that holds the lock; returns once it does."""
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock_path), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


@pytest.fixture
def holder(lock_path: Path) -> Iterator[subprocess.Popen[str]]:
    proc = spawn_holder(lock_path, 60)
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)


def test_creates_the_file_and_folder(lock_path: Path) -> None:
    with WriteLock(lock_path).hold():
        assert lock_path.exists()


def test_reentrant_within_a_thread(lock_path: Path) -> None:
    lock = WriteLock(lock_path)
    with lock.hold(), lock.hold(timeout=0.1), lock.hold(timeout=0):
        pass
    assert lock.try_hold()


def test_released_after_the_block_and_after_an_error(lock_path: Path) -> None:
    lock, other = WriteLock(lock_path), WriteLock(lock_path)
    with lock.hold():
        assert not other.try_hold()
    assert other.try_hold()
    with pytest.raises(RuntimeError), lock.hold():
        raise RuntimeError("boom")
    assert other.try_hold()


def test_other_thread_waits_for_the_lock(lock_path: Path) -> None:
    lock = WriteLock(lock_path)
    order: list[str] = []
    asking, entered = threading.Event(), threading.Event()

    def second() -> None:
        asking.set()
        with lock.hold(timeout=20):
            order.append("second")
            entered.set()

    thread = threading.Thread(target=second, daemon=True)
    with lock.hold():
        thread.start()
        assert asking.wait(10), "the second thread never asked for the lock"
        # It asks while the first holds the lock: it must still be outside a while later.
        assert not entered.wait(0.3), "the second thread went in while the first held the lock"
        order.append("first")
    thread.join(timeout=20)
    assert not thread.is_alive(), "the second thread never got the lock once it was free"
    assert order == ["first", "second"]


def test_other_thread_times_out(lock_path: Path) -> None:
    lock = WriteLock(lock_path)
    errors: list[Exception] = []

    def second() -> None:
        try:
            with lock.hold(timeout=0.2):
                pass
        except LockTimeoutError as exc:
            errors.append(exc)

    with lock.hold():
        thread = threading.Thread(target=second)
        thread.start()
        thread.join(timeout=10)
    assert len(errors) == 1
    assert errors[0].code == "STORAGE_BUSY"


def test_another_process_holding_it_times_out(
    lock_path: Path, holder: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = WriteLock(lock_path)
    refusals: list[int] = []
    real_flock = fcntl.flock

    def flock(fd: int, operation: int) -> None:
        try:
            real_flock(fd, operation)
        except BlockingIOError:
            refusals.append(fd)
            raise

    monkeypatch.setattr(locking.fcntl, "flock", flock)
    errors: list[LockTimeoutError] = []
    went_in: list[bool] = []

    def attempt() -> None:
        try:
            with lock.hold(timeout=0.5):
                went_in.append(True)
        except LockTimeoutError as exc:
            errors.append(exc)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(timeout=20)
    assert not thread.is_alive(), "the attempt never timed out while another process held it"
    # It gave up while the holder still held the lock, having been refused and tried again
    # (it waited) rather than failing at the first refusal.
    assert not went_in, "took a lock another process held"
    assert holder.poll() is None, "the holder had gone before the attempt gave up"
    assert len(errors) == 1
    assert re.search(r"busy.*0\.5 s", str(errors[0]))
    assert len(refusals) >= 2, f"refused {len(refusals)} time(s): it did not wait"
    assert not lock.try_hold()
    # A timed-out attempt leaves the lock object usable (no leaked depth or descriptor).
    holder.kill()
    holder.wait(timeout=10)
    with lock.hold(timeout=5):
        pass


def test_released_when_the_holder_is_killed(lock_path: Path, holder: subprocess.Popen[str]) -> None:
    lock = WriteLock(lock_path)
    assert not lock.try_hold()
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    with lock.hold(timeout=5):
        pass


HOLD_UNTIL_TOLD = """
import sys
from pathlib import Path
from engine.storage.locking import WriteLock
lock = WriteLock(Path(sys.argv[1]))
with lock.hold():
    print("held", flush=True)
    sys.stdin.readline()
    Path(sys.argv[2]).write_text("releasing")
"""


def test_waits_for_a_holder_that_finishes(
    lock_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(__file__).resolve().parents[2]
    releasing = tmp_path / "releasing"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_UNTIL_TOLD, str(lock_path), str(releasing)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert holder.stdin is not None and holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    # Seen from here: the waiter found the lock taken and tried again (it is waiting), or
    # it took the lock; whichever comes first moves the test on.
    refusals: list[int] = []
    acquired, moved = threading.Event(), threading.Event()
    real_flock = fcntl.flock

    def flock(fd: int, operation: int) -> None:
        try:
            real_flock(fd, operation)
        except BlockingIOError:
            refusals.append(fd)
            if len(refusals) >= 2:
                moved.set()
            raise

    monkeypatch.setattr(locking.fcntl, "flock", flock)
    saw_release: list[bool] = []

    def waiter() -> None:
        with WriteLock(lock_path).hold(timeout=20):
            saw_release.append(releasing.exists())
            acquired.set()
            moved.set()

    thread = threading.Thread(target=waiter)
    thread.start()
    try:
        assert moved.wait(10), "the waiter neither waited nor took the lock"
        assert not acquired.is_set(), "the waiter took a lock another process held"
        holder.stdin.write("release\n")
        holder.stdin.flush()
        thread.join(timeout=20)
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
    # The waiter got the lock, and only once the holder had begun to let it go.
    assert saw_release == [True]
