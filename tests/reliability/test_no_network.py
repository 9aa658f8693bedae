"""No network at run time: index, add and search with the real model while every Internet
socket operation raises (and is logged), in real ``memory-tui`` processes.

A ``sitecustomize`` module on PYTHONPATH patches :mod:`socket` in each process before
anything else runs; a control run shows that the patch really blocks and records a
connection attempt, so the test could fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_support import CLI, clean_env

SITECUSTOMIZE = textwrap.dedent(
    """
    import os
    import socket

    _LOG = os.environ["NO_NETWORK_LOG"]
    _INTERNET = (socket.AF_INET, socket.AF_INET6)
    with open(_LOG + ".loaded", "a", encoding="utf-8") as _fh:
        _fh.write(f"{os.getpid()}\\n")  # proves the patch is active in this process


    def _record(what):
        with open(_LOG, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()} {what}\\n")
        raise OSError(f"network disabled by the test: {what}")


    _connect, _connect_ex, _sendto = (
        socket.socket.connect, socket.socket.connect_ex, socket.socket.sendto
    )


    def connect(self, address):
        if self.family in _INTERNET:
            _record(f"connect {address!r}")
        return _connect(self, address)


    def connect_ex(self, address):
        if self.family in _INTERNET:
            _record(f"connect_ex {address!r}")
        return _connect_ex(self, address)


    def sendto(self, data, *args):
        if self.family in _INTERNET:
            _record(f"sendto {args[-1]!r}")
        return _sendto(self, data, *args)


    def getaddrinfo(host, *args, **kwargs):
        _record(f"getaddrinfo {host!r}")


    socket.socket.connect = connect
    socket.socket.connect_ex = connect_ex
    socket.socket.sendto = sendto
    socket.getaddrinfo = getaddrinfo
    """
)


def _env(tmp_path: Path, log: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = clean_env(home)
    # Keep the user's model cache (the ONNX export), so only run time is under test;
    # a missing export is made from the packaged weights, offline too.
    env["XDG_CACHE_HOME"] = os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))
    env["PYTHONPATH"] = str(site)
    env["NO_NETWORK_LOG"] = str(log)
    for proxy in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "NO_PROXY"):
        env.pop(proxy, None)
    return env


def test_the_socket_patch_blocks_and_records(tmp_path: Path) -> None:
    log = tmp_path / "network.log"
    code = "import urllib.request; urllib.request.urlopen('http://example.com', timeout=5)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=_env(tmp_path, log),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode != 0
    assert "network disabled by the test" in out.stderr
    assert "example.com" in log.read_text(encoding="utf-8")


@pytest.mark.slow
def test_index_add_and_search_with_the_real_model_use_no_network(tmp_path: Path) -> None:
    log = tmp_path / "network.log"
    env = _env(tmp_path, log)
    project = tmp_path / "project"
    knowledge = project / ".claude" / "knowledge" / "architecture"
    knowledge.mkdir(parents=True)
    (knowledge / "payments.md").write_text(
        "# Payments\n\n## Refunds\n\nRefunds are issued to the original card within five "
        "business days; the ledger records a negative charge.\n\n## Currency\n\nPrices are "
        "stored in minor units as integers, never as floats.\n",
        encoding="utf-8",
    )
    assert CLI is not None

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [CLI, *args, "--project", str(project)],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    indexed = cli("index")
    assert indexed.returncode == 0, indexed.stderr[-2000:]
    assert "entries: 2 created" in indexed.stdout
    added = cli("add", "Webhooks from the payment provider are retried for three days")
    assert added.returncode == 0, added.stderr[-2000:]
    for mode in ("hybrid", "vector", "keyword"):
        found = cli("search", "how long until a refund reaches the card", "--mode", mode)
        assert found.returncode == 0, found.stderr[-2000:]
        assert "Refunds are issued" in found.stdout, (mode, found.stdout)
        assert "warning" not in found.stderr  # no retriever fell back
    assert not log.exists(), log.read_text(encoding="utf-8")
    loaded = Path(f"{log}.loaded").read_text(encoding="utf-8").split()
    assert len(set(loaded)) >= 5  # every CLI process ran with the patch
