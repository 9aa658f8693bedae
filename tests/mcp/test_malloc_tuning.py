"""Issue 38: the server gives large freed blocks back to the system. glibc raises its
mmap threshold each time a large mmapped block is freed, after which blocks of a few MiB
came from the heap, where fragmentation kept them, and the server's RSS rose for minutes
under load. ``_few_malloc_arenas`` fixes the threshold; checked in a child process (the
setting is process-wide) through glibc's own counters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import ctypes, json, sys
    from app.mcp.run import _few_malloc_arenas

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

    libc = ctypes.CDLL("libc.so.6")
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    libc.mallinfo2.restype = MallInfo2
    if sys.argv[1] == "tuned":
        _few_malloc_arenas()
    libc.free(libc.malloc(8 * 1024 * 1024))  # glibc's dynamic threshold would rise to 8 MiB
    before = libc.mallinfo2().hblks
    block = libc.malloc(4 * 1024 * 1024)
    print(json.dumps({"mmapped": libc.mallinfo2().hblks - before}))
    libc.free(block)
    """
)


def _mmapped_blocks(mode: str) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode], capture_output=True, text=True, env=env, check=True
    )
    return int(json.loads(done.stdout)["mmapped"])


@pytest.mark.skipif(
    sys.platform != "linux" or os.confstr("CS_GNU_LIBC_VERSION") is None,
    reason="glibc only",
)
def test_a_block_of_a_few_mib_is_mmapped_after_a_larger_one_was_freed() -> None:
    assert _mmapped_blocks("default") == 0  # glibc alone: the 4 MiB block is on the heap
    assert _mmapped_blocks("tuned") == 1
