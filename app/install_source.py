"""How this copy of memory-tui was installed, and so how to install it again.

``init`` tells a teammate how to install memory-tui (in the committed
``.claude/knowledge/README.md``) and tells this machine how to put it on PATH. Both
follow what the installation itself records, never a guess:

- the tool: ``uv tool install`` leaves ``uv-receipt.toml`` in the environment it made,
  ``pipx install`` leaves ``pipx_metadata.json``; anything else is a plain virtual
  environment (``make install``, ``pip install``);
- the source: PEP 610's ``direct_url.json`` names the git repository, folder or wheel it
  was installed from; without one it came from a package index, by name.

A source only this machine can reach (a folder, a wheel file, a ``file://`` clone) is
never written into a committed file: a checkout's ``origin`` remote stands in for it
when there is one, else the teammate is told to use the team's repository URL.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlparse

Tool = Literal["uv", "pipx"]
DISTRIBUTION = "memory-tui"
PLACEHOLDER = "git+<your team's memory-tui repository URL>"


@dataclass(frozen=True, slots=True)
class InstallSource:
    """Where this copy came from: ``spec`` is what ``pipx install`` / ``uv tool install``
    take to install it again; ``portable`` whether another machine can use it."""

    tool: Tool | None
    spec: str
    portable: bool

    def command(self, tool: Tool | None = None) -> str:
        """The install command with ``tool`` (default: the one that installed this copy,
        pipx for a plain virtual environment)."""
        chosen = tool or self.tool or "pipx"
        # (uv compiles bytecode only when told; pipx's pip compiles the wheels)
        prefix = "uv tool install --compile-bytecode" if chosen == "uv" else "pipx install"
        return f"{prefix} {self.spec}"

    def teammate_advice(self) -> str:
        """Markdown for a committed file: both tools' commands, this copy's tool first;
        a placeholder for the team's URL when this copy's source is this machine's."""
        spec = self.spec if self.portable else PLACEHOLDER
        first: Tool = self.tool or "pipx"
        second: Tool = "pipx" if first == "uv" else "uv"
        portable = InstallSource(first, spec, True)
        return f"`{portable.command(first)}` or `{portable.command(second)}`"

    def path_advice(self) -> str:
        """What puts the installed command on PATH, for the way it was installed."""
        if self.tool == "pipx":
            return "run `pipx ensurepath` and open a new shell"
        if self.tool == "uv":
            return "run `uv tool update-shell` and open a new shell"
        return (
            f"activate its virtual environment ({sys.prefix}) or install it with `{self.command()}`"
        )


def installer(prefix: Path | None = None) -> Tool | None:
    """The tool that made the environment at ``prefix`` (this interpreter's by default)."""
    where = prefix or Path(sys.prefix)
    if (where / "uv-receipt.toml").is_file():
        return "uv"
    if (where / "pipx_metadata.json").is_file():
        return "pipx"
    return None


def install_source() -> InstallSource:
    """This copy's :class:`InstallSource` (see the module's docstring)."""
    tool = installer()
    try:
        direct = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        direct = None
    if direct is None:
        checkout = Path(__file__).resolve().parents[1]
        if (checkout / "pyproject.toml").is_file():
            return _from_folder(tool, checkout)
        return InstallSource(tool, DISTRIBUTION, True)  # from an index, by name
    return from_direct_url(tool, direct)


def from_direct_url(tool: Tool | None, text: str) -> InstallSource:
    """The source a PEP 610 ``direct_url.json`` records."""
    try:
        data = json.loads(text)
        url = str(data["url"])
    except (ValueError, KeyError, TypeError):
        return InstallSource(tool, PLACEHOLDER, False)
    parsed = urlparse(url)
    if "vcs_info" in data:
        vcs = data["vcs_info"]
        revision = vcs.get("requested_revision") if isinstance(vcs, dict) else None
        spec = f"{vcs.get('vcs', 'git') if isinstance(vcs, dict) else 'git'}+{url}"
        if revision:
            spec += f"@{revision}"
        return InstallSource(tool, shlex.quote(spec), parsed.scheme != "file")
    if parsed.scheme == "file":
        local = Path(unquote(parsed.path))
        if "dir_info" in data:
            return _from_folder(tool, local)
        return InstallSource(tool, shlex.quote(str(local)), False)
    return InstallSource(tool, shlex.quote(url), True)  # an archive on a server


def _from_folder(tool: Tool | None, folder: Path) -> InstallSource:
    """A checkout: its ``origin`` remote when it has one another machine can reach."""
    remote = _origin(folder)
    if remote:
        return InstallSource(tool, shlex.quote(f"git+{remote}"), True)
    return InstallSource(tool, shlex.quote(str(folder)), False)


def _origin(folder: Path) -> str | None:
    """``git+``-able address of the checkout's ``origin`` remote (scp-like ssh addresses
    rewritten as ``ssh://``); ``None`` without one, or for one with a password in it."""
    try:
        url = subprocess.run(
            ["git", "-C", str(folder), "remote", "get-url", "origin"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    if url.startswith("git@"):
        host, _, path = url.removeprefix("git@").partition(":")
        return f"ssh://git@{host}/{path}"
    scheme, sep, rest = url.partition("://")
    user, at, _host = rest.partition("/")[0].rpartition("@")
    if not sep or scheme == "file" or (at and user != "git"):
        return None  # a local path, or credentials that must not be committed
    return url
