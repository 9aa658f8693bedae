"""What a project's CI runs: one entry per workflow file, citing it (``engine.analyzer.ci_config``).

A newcomer's "how is a release published?" is answered by one workflow file; the entry
that answers names that file, its triggers, its jobs' matrices and its steps' names."""

from __future__ import annotations

import time
from pathlib import Path

from project_files import write

from engine.analyzer.ci_config import MAX_LINES, ci_drafts

CI = """\
name: CI
on:
  pull_request:
  push:
    branches: [main]
jobs:
  test:
    name: Molecule
    runs-on: ubuntu-latest
    strategy:
      matrix:
        distro: [rockylinux9, ubuntu2404, debian12]
        python-version: [3.9, 3.10]
    steps:
      - uses: actions/checkout@v4
      - name: Run Molecule tests.
        run: molecule test
"""
RELEASE = """\
name: Release
'on':
  push:
    tags: ['*']
jobs:
  release:
    steps:
      - name: Publish to PyPI
        uses: pypa/gh-action-pypi-publish@release/v1
"""


def test_each_workflow_is_its_own_entry_citing_its_file(tmp_path: Path) -> None:
    write(tmp_path, {".github/workflows/ci.yml": CI, ".github/workflows/release.yml": RELEASE})
    drafts = {d.file_path: d for d in ci_drafts(tmp_path)}
    assert set(drafts) == {".github/workflows/ci.yml", ".github/workflows/release.yml"}
    ci = drafts[".github/workflows/ci.yml"]
    assert ci.section_title == "Continuous integration: CI"
    lines = ci.content.splitlines()
    assert "runs on: pull_request, push (branches main)." in lines[1]
    # the matrix as written: 3.10 is not the number 3.1
    assert (
        "Job test (Molecule), on ubuntu-latest; distro: rockylinux9, ubuntu2404, debian12; "
        "python-version: 3.9, 3.10:" in lines
    )
    assert "- uses actions/checkout" in lines and "- Run Molecule tests: molecule test" in lines
    release = drafts[".github/workflows/release.yml"].content
    assert "push (tags *)" in release
    assert "- Publish to PyPI: uses pypa/gh-action-pypi-publish" in release
    assert "release" in drafts[".github/workflows/release.yml"].keywords


def test_other_services_give_the_commands_of_their_one_file(tmp_path: Path) -> None:
    gitlab = (
        "stages: [test]\n.base: &base\n  before_script: [pip install -e .]\n"
        "test:\n  <<: *base\n  stage: test\n  script:\n    - pytest -q\n    - ./check.sh\n"
    )
    write(
        tmp_path, {".gitlab-ci.yml": gitlab, ".travis.yml": "language: go\nscript: go test ./...\n"}
    )
    drafts = {d.file_path: d.content for d in ci_drafts(tmp_path)}
    assert set(drafts) == {".gitlab-ci.yml", ".travis.yml"}
    assert drafts[".gitlab-ci.yml"].splitlines() == [
        "Continuous integration: GitLab CI pipeline",
        "GitLab CI pipeline (.gitlab-ci.yml). Commands:",
        "- pip install -e .",
        "- pytest -q",
        "- ./check.sh",
    ]
    assert "- go test ./..." in drafts[".travis.yml"]


def test_files_that_are_no_configuration_give_no_entry(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            ".github/workflows/broken.yml": "jobs: [unclosed\n",
            ".github/workflows/list.yml": "- a\n- b\n",
            ".github/workflows/notes.txt": "not a workflow\n",
            ".gitlab-ci.yml": "variables:\n  X: 1\n",  # no commands
        },
    )
    assert ci_drafts(tmp_path) == []


def test_aliases_that_multiply_a_file_are_read_within_a_bound(tmp_path: Path) -> None:
    """A billion-laughs file: nine aliases of nine aliases… Reading it as a tree would
    visit 9**10 nodes; the entry is built from a bounded part of it, at once."""
    rows = ["a0: &a0 {script: [make]}"]
    rows += [f"a{i}: &a{i} [{', '.join(['*a' + str(i - 1)] * 9)}]" for i in range(1, 11)]
    steps = ", ".join(["*a9"] * 9)
    workflow = "jobs:\n" + "".join(
        f"  j{n}:\n    steps: &s{n} [{{run: make}}]\n" for n in range(60)
    )
    write(
        tmp_path,
        {
            ".gitlab-ci.yml": "\n".join(rows) + f"\nall: [{steps}]\n",
            ".github/workflows/w.yml": workflow,
        },
    )
    started = time.process_time()
    drafts = {d.file_path: d.content for d in ci_drafts(tmp_path)}
    assert time.process_time() - started < 5  # a bound, not a benchmark: unbounded is hours
    assert drafts[".gitlab-ci.yml"].splitlines()[2:] == ["- make"]
    assert len(drafts[".github/workflows/w.yml"].splitlines()) == MAX_LINES + 2
    assert "(more lines in .github/workflows/w.yml" in drafts[".github/workflows/w.yml"]
