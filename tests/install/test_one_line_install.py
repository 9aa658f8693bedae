"""The README's one-line installs, from clean folders: ``uv tool install`` of the
repository's URL and ``pipx install`` of a built wheel give a working ``memory-tui``
without torch, and ``init`` run by each gives advice that fits how it was installed.

Package caches are shared with the machine's (they hold downloads, not environments),
so a second run does not fetch every wheel again; each environment is new.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import git_repo

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Read at import, before the tests' own HOME is set: the machine's download caches.
UV_CACHE = Path(os.environ.get("UV_CACHE_DIR") or Path.home() / ".cache" / "uv")
PIP_CACHE = Path(os.environ.get("PIP_CACHE_DIR") or Path.home() / ".cache" / "pip")
HEAVY = ("torch", "transformers", "sentence_transformers", "triton", "nvidia")

pytestmark = pytest.mark.slow


def _run(args: list[str], env: dict[str, str], cwd: Path, timeout: int = 900) -> str:
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)  # fmt: skip
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-4000:])
    return done.stdout + done.stderr


def _clean_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    keep = ("PATH", "LANG", "PIP_FIND_LINKS", "PIP_CERT", "PIP_DEFAULT_TIMEOUT", "SSL_CERT_FILE")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    return env | {"HOME": str(home), "PATH": "/usr/bin:/bin",
                  "UV_CACHE_DIR": str(UV_CACHE), "PIP_CACHE_DIR": str(PIP_CACHE)}  # fmt: skip


def _site_packages(env_dir: Path) -> Path:
    [site] = env_dir.glob("lib/python3*/site-packages")
    return site


def _check_installed(env_dir: Path, command: Path, env: dict[str, str], cwd: Path) -> None:
    assert _run([str(command), "--version"], env, cwd).startswith("memory-tui ")
    site = _site_packages(env_dir)
    heavy = sorted(p.name for p in site.iterdir() if p.name.lower().startswith(HEAVY))
    assert heavy == []
    assert not (site / "onnx").exists()  # the graphs ship built: onnx is for building them
    model = site / "engine" / "embedding" / "model"
    shipped = {p.name for p in model.iterdir()}
    assert {"model.safetensors", "model.onnx", "model-int8.onnx", "model-int8.json"} <= shipped
    # Both shipped graphs run in the installed environment (fp32 reads the weights in place).
    code = (
        "from engine.embedding.default import default_embedder; e = default_embedder();"
        "print(e.embed_query('a').shape, e.embed_documents(['b', 'c']).shape)"
    )
    shapes = _run([str(env_dir / "bin" / "python"), "-c", code], env, cwd)
    assert shapes.strip() == "(384,) (2, 384)"


def _init_advice(command: Path, env: dict[str, str], tmp_path: Path) -> tuple[str, str]:
    """``init``'s note (memory-tui is not on PATH here) and the committed README's text."""
    project = git_repo(tmp_path / "shop")
    out = _run([str(command), "init", "--skip-analyze", "--no-hooks", "--no-embed"], env, project)
    readme = (project / ".claude" / "knowledge" / "README.md").read_text()
    return out, " ".join(readme.split())  # the advice may wrap


def test_uv_tool_install_of_the_repository_url(tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    clone = tmp_path / "memory-tui"
    _run(["git", "clone", "-q", str(REPO), str(clone)], env, tmp_path)
    tools, bins = tmp_path / "tools", tmp_path / "bin"
    env |= {"UV_TOOL_DIR": str(tools), "UV_TOOL_BIN_DIR": str(bins)}
    _run([str(BIN / "uv"), "tool", "install", "--quiet", "--compile-bytecode", "--python",
          sys.executable, f"git+{clone.as_uri()}"], env, tmp_path)  # fmt: skip

    _check_installed(tools / "memory-tui", bins / "memory-tui", env, tmp_path)
    note, line = _init_advice(bins / "memory-tui", env, tmp_path)
    assert "uv tool update-shell" in note
    assert (
        "`uv tool install --compile-bytecode git+<your team's memory-tui repository URL>`" in line
    )
    site = _site_packages(tools / "memory-tui")  # compiled at install, not by the first commands
    assert list((site / "engine" / "services" / "__pycache__").glob("memory.*.pyc"))


def test_pipx_install_of_a_built_wheel(tmp_path: Path) -> None:
    env = _clean_env(tmp_path)
    dist = tmp_path / "dist"
    _run([str(BIN / "uv"), "build", "--wheel", "--quiet", "--out-dir", str(dist), str(REPO)],
         env, tmp_path)  # fmt: skip
    [wheel] = dist.glob("memory_tui-*.whl")
    home, bins = tmp_path / "pipx", tmp_path / "bin"
    env |= {"PIPX_HOME": str(home), "PIPX_BIN_DIR": str(bins)}
    _run([str(BIN / "pipx"), "install", "--python", sys.executable, str(wheel)], env, tmp_path)

    _check_installed(home / "venvs" / "memory-tui", bins / "memory-tui", env, tmp_path)
    receipt = json.loads((home / "venvs" / "memory-tui" / "pipx_metadata.json").read_text())
    assert receipt["main_package"]["package"] == "memory-tui"
    note, line = _init_advice(bins / "memory-tui", env, tmp_path)
    assert "pipx ensurepath" in note
    assert "`pipx install git+<your team's memory-tui repository URL>`" in line
    assert "pipx install memory-tui`" not in line
    shutil.rmtree(home)  # a large folder: not kept for the whole session
