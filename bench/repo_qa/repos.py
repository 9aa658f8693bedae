"""Where a set's repository comes from, and the copy its questions are asked in.

The repository is read from a bare git directory holding the set's commit: ``--git-dir``
when given; else the tool library's mirror (``/work/.mirror/<owner>+<name>/repo``) when
this machine has one holding the commit; else a bare clone kept in a cache folder
(``--repos-dir``, by default ``$REPO_QA_REPOS_DIR`` or ``~/.cache/memory-tui-bench/repos``),
cloned from GitHub the first time and fetched again only when it lacks the commit.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from bench.repo_qa import QuestionSet, pack_paths, paths_file

MIRRORS = Path("/work/.mirror")
"""The tool library's mirrors on the machine the sets were written on."""


def default_repos_dir() -> Path:
    """The cache folder of clones: ``$REPO_QA_REPOS_DIR``, else the user's cache folder."""
    if os.environ.get("REPO_QA_REPOS_DIR"):
        return Path(os.environ["REPO_QA_REPOS_DIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "memory-tui-bench" / "repos"


def repo_url(qs: QuestionSet) -> str:
    """The public address of the set's repository."""
    return f"https://github.com/{qs.repo}.git"


def mirror(qs: QuestionSet) -> Path:
    """The tool library's bare mirror of the set's repository (present or not)."""
    owner, _, repo = qs.repo.partition("/")
    return MIRRORS / f"{owner}+{repo}" / "repo"


def cached_clone(qs: QuestionSet, repos_dir: Path) -> Path:
    """Where the set's bare clone lives in ``repos_dir`` (present or not)."""
    owner, _, repo = qs.repo.partition("/")
    return repos_dir / f"{owner}+{repo}.git"


def has_commit(git_dir: Path, commit: str) -> bool:
    """Whether ``git_dir`` is a git directory holding ``commit``."""
    if not git_dir.is_dir():
        return False
    found = subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "-e", f"{commit}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return found.returncode == 0


def _git(args: list[str], what: str) -> None:
    done = subprocess.run(["git", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed:\n{done.stderr.strip()[-2000:]}")


def ensure_clone(qs: QuestionSet, repos_dir: Path, url: str | None = None) -> Path:
    """A bare clone of the set's repository holding its commit, in ``repos_dir``: the one
    already there, else cloned from ``url`` (by default the repository's public address);
    a clone lacking the commit fetches it. A clone that fails leaves nothing behind."""
    url = url or repo_url(qs)
    dest = cached_clone(qs, repos_dir)
    if has_commit(dest, qs.commit):
        return dest
    if not dest.exists():
        repos_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=repos_dir, prefix=".clone-") as tmp:
            partial = Path(tmp) / "repo.git"
            _git(["clone", "--bare", "--quiet", url, str(partial)], f"git clone {url}")
            partial.rename(dest)
    if not has_commit(dest, qs.commit):  # a commit no branch holds, or a stale clone
        _git(
            [f"--git-dir={dest}", "fetch", "--quiet", url, qs.commit],
            f"git fetch {qs.commit[:12]} from {url}",
        )
    if not has_commit(dest, qs.commit):
        raise SystemExit(f"{url} has no commit {qs.commit} (set {qs.name})")
    return dest


def source_repo(
    qs: QuestionSet, git_dir: Path | None, repos_dir: Path, url: str | None = None
) -> Path:
    """The git directory to read the set's commit from: ``git_dir``, the mirror when it
    holds the commit, else the clone in ``repos_dir`` (cloned when absent)."""
    if git_dir is not None:
        if not has_commit(git_dir, qs.commit):
            raise SystemExit(f"--git-dir {git_dir} holds no commit {qs.commit} (set {qs.name})")
        return git_dir
    if has_commit(mirror(qs), qs.commit):
        return mirror(qs)
    return ensure_clone(qs, repos_dir, url)


def present_repo(qs: QuestionSet, repos_dir: Path) -> Path | None:
    """A git directory on this machine holding the set's commit (the mirror or a cached
    clone), without cloning; ``None`` when there is none."""
    for candidate in (mirror(qs), cached_clone(qs, repos_dir)):
        if has_commit(candidate, qs.commit):
            return candidate
    return None


def listed_paths(git_dir: Path, commit: str) -> list[str]:
    """Every path git tracks at ``commit`` (submodules as one path)."""
    listed = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", "-z", commit],
        capture_output=True,
        text=True,
        check=True,
    )
    return [path for path in listed.stdout.split("\0") if path]


def save_paths(qs: QuestionSet, git_dir: Path) -> Path:
    """Write the set's shipped list of tracked paths from ``git_dir``; its path."""
    target = paths_file(qs.name)
    target.write_bytes(pack_paths(qs.commit, listed_paths(git_dir, qs.commit)))
    return target


def checkout(qs: QuestionSet, git_dir: Path, into: Path) -> Path:
    """A fresh copy of the repository at the recorded commit, as a new git repository."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", qs.commit], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    subprocess.run(["git", "init", "-q", str(into)], check=True)
    return into
