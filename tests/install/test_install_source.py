"""How this copy was installed decides the install advice ``init`` gives (issue 45 item 5):
the tool from the environment's receipt, the source from PEP 610's direct_url.json."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from app.install_source import PLACEHOLDER, InstallSource, from_direct_url, installer


def _git_repo(path: Path, remote: str | None) -> Path:
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    if remote:
        subprocess.run(["git", "-C", str(path), "remote", "add", "origin", remote], check=True)
    return path


def test_the_tool_is_read_from_the_environments_receipt(tmp_path: Path) -> None:
    assert installer(tmp_path) is None  # a plain venv: make install, pip install
    (tmp_path / "pipx_metadata.json").write_text("{}")
    assert installer(tmp_path) == "pipx"
    (tmp_path / "uv-receipt.toml").write_text("[tool]\n")
    assert installer(tmp_path) == "uv"


def test_a_git_url_is_given_back_with_its_revision() -> None:
    revision = {"vcs": "git", "commit_id": "abc", "requested_revision": "v1"}
    direct = {"url": "https://git.example.com/team/memory-tui.git", "vcs_info": revision}
    source = from_direct_url("uv", json.dumps(direct))
    assert source == InstallSource("uv", "git+https://git.example.com/team/memory-tui.git@v1", True)
    assert (
        source.command()
        == "uv tool install --compile-bytecode git+https://git.example.com/team/memory-tui.git@v1"
    )
    assert source.teammate_advice() == (
        "`uv tool install --compile-bytecode "
        "git+https://git.example.com/team/memory-tui.git@v1` or "
        "`pipx install git+https://git.example.com/team/memory-tui.git@v1`"
    )


def test_a_source_only_this_machine_has_is_never_committed() -> None:
    for direct in (
        {"url": "file:///home/me/clone", "vcs_info": {"vcs": "git", "commit_id": "abc"}},
        {"url": "file:///tmp/dist/memory_tui-0.1.0-py3-none-any.whl", "archive_info": {}},
        {"url": "file:///nowhere/at/all", "dir_info": {}},
    ):
        source = from_direct_url("pipx", json.dumps(direct))
        assert not source.portable
        assert (
            source.teammate_advice()
            == f"`pipx install {PLACEHOLDER}` or `uv tool install --compile-bytecode {PLACEHOLDER}`"
        )
        assert "pipx install memory-tui`" not in source.teammate_advice()


def test_a_wheel_on_a_server_is_portable() -> None:
    url = "https://files.example.com/memory_tui-0.1.0-py3-none-any.whl"
    source = from_direct_url(None, json.dumps({"url": url, "archive_info": {}}))
    assert source == InstallSource(None, url, True)
    assert source.command() == f"pipx install {url}"


@pytest.mark.parametrize(
    ("remote", "spec"),
    [
        (
            "https://git.example.com/team/memory-tui.git",
            "git+https://git.example.com/team/memory-tui.git",
        ),
        (
            "git@git.example.com:team/memory-tui.git",
            "git+ssh://git@git.example.com/team/memory-tui.git",
        ),
        ("https://user:secret@git.example.com/team/memory-tui.git", None),
        ("/srv/git/memory-tui.git", None),
        (None, None),
    ],
)
def test_a_checkout_stands_for_its_origin_remote(
    tmp_path: Path, remote: str | None, spec: str | None
) -> None:
    checkout = _git_repo(tmp_path / "memory-tui", remote)
    direct = {"url": checkout.as_uri(), "dir_info": {"editable": True}}
    source = from_direct_url(None, json.dumps(direct))
    if spec is None:  # no remote another machine can use, or one with a password
        assert source == InstallSource(None, str(checkout), False)
        assert "secret" not in source.teammate_advice()
    else:
        assert source == InstallSource(None, spec, True)


def test_unreadable_direct_url_gives_the_placeholder() -> None:
    source = from_direct_url("uv", "{not json")
    assert not source.portable and source.spec == PLACEHOLDER


def test_path_advice_follows_the_tool() -> None:
    assert "pipx ensurepath" in InstallSource("pipx", "x", True).path_advice()
    assert "uv tool update-shell" in InstallSource("uv", "x", True).path_advice()
    plain = InstallSource(None, "x", True).path_advice()
    assert "activate its virtual environment" in plain and "pipx install x" in plain
