"""The wheel, not the checkout: build it, install it into a fresh virtual environment, and
run what a user runs first (``--version``, ``init``, ``search``, the MCP server).

Offline, the fresh environment cannot download the dependencies, so it borrows them from
the running interpreter's site-packages through a ``.pth`` line (which adds the folder
but runs none of its ``.pth`` files, so the checkout's editable install stays out). The
wheel itself is installed for real, and the test checks that ``app`` and ``engine`` are
imported from the fresh environment, never from the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from cli_support import clean_env, git_repo
from mcp import Client, StdioServerParameters

CHECKOUT = Path(__file__).resolve().parents[2]
PACKAGE_DATA = (
    "app/templates/knowledge/README.md",
    "app/templates/knowledge/gotchas.md",
    "app/templates/skills/memory-query/SKILL.md",
    "app/templates/skills/memory-save/SKILL.md",
    "app/templates/skills/memory-discover/SKILL.md",
    "tui_styles/app.tcss",
    "tui_styles/dialogs.tcss",
    "engine/guards/rules/gitleaks.toml",
    "engine/guards/rules/LICENSE",
    "engine/guards/rules/UPSTREAM",
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="copies the checkout with git"),
]


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def _source_copy(target: Path) -> Path:
    """The checkout's files (tracked, and new ones git does not ignore) copied to ``target``:
    the build writes its egg-info and build folders there, not in the checkout."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=CHECKOUT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        source = CHECKOUT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """(the fresh environment's ``bin`` folder, an environment to run it with)."""
    work = tmp_path_factory.mktemp("wheel")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    source = _source_copy(work / "source")
    built = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(work / "dist"), str(source)],
        work, env,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    [wheel] = (work / "dist").glob("memory_tui-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(PACKAGE_DATA) <= names, sorted(set(PACKAGE_DATA) - names)
    assert not any(n.startswith(("tests/", "bench/")) for n in names)

    fresh = work / "fresh"
    assert (
        _run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], work, env).returncode == 0
    )
    python = fresh / "bin" / "python"
    purelib = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        work, env,
    ).stdout.strip()  # fmt: skip
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib) / "borrowed_dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    done = _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", str(wheel)],
        work, env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    env["PATH"] = f"{fresh / 'bin'}:/usr/bin:/bin"
    return fresh / "bin", clean_env(Path(work / "home")) | {"PATH": env["PATH"]}


def test_the_installed_wheel_imports_from_the_fresh_environment(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_dir, env = installed
    env.pop("PYTHONPATH", None)
    code = "import app, engine, tui_styles; print(app.__file__, engine.__file__)"

    found = _run([str(bin_dir / "python"), "-c", code], tmp_path, env)

    assert found.returncode == 0, found.stderr
    site = str(bin_dir.parent / "lib")
    assert all(p.startswith(site) for p in found.stdout.split()), found.stdout
    assert str(CHECKOUT) not in found.stdout


async def test_the_installed_wheel_inits_searches_and_serves_mcp(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_dir, env = installed
    env.pop("PYTHONPATH", None)
    cli = str(bin_dir / "memory-tui")
    root = git_repo(tmp_path / "shop")
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "billing.md").write_text(
        "# Billing\n\nInvoices are generated nightly by the zephyr job.\n"
    )

    version = _run([cli, "--version"], root, env)
    init = _run([cli, "init", "--no-hooks", "--skip-analyze"], root, env)
    found = _run([cli, "search", "when are invoices generated", "--json"], root, env)

    assert version.returncode == 0 and version.stdout.startswith("memory-tui 0."), version
    assert init.returncode == 0, init.stderr
    assert (root / ".claude" / "skills" / "memory-query" / "SKILL.md").is_file()
    assert found.returncode == 0, found.stderr
    rows = json.loads(found.stdout)
    assert rows and "zephyr" in rows[0]["content"]
    params = StdioServerParameters(command=cli, args=["serve-mcp"], cwd=str(root), env=env)
    async with Client(params, mode="legacy", cache=None) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
    assert {"memory_search", "memory_add"} <= tools
