"""What a project's continuous integration runs, one entry per file that declares it.

A newcomer asks "how are the tests run in CI?", "which versions are tested?", "how is a
release published?"; each answer is one file the project keeps: a GitHub Actions workflow
(``.github/workflows/*.yml``, one file a workflow), or the one configuration file other
services read at the paths their documentation gives (GitLab CI, CircleCI, Travis CI,
Azure Pipelines, Bitbucket Pipelines, AppVeyor, Drone, Woodpecker). Each becomes its own
entry citing that file, so that a search answers with the file to open. A workflow is read
with PyYAML's base loader, every value kept as written (``3.10`` stays ``3.10``, ``on``
stays a key), by GitHub's workflow syntax: ``name``, ``on``,
``jobs.<id>.strategy.matrix``, ``jobs.<id>.steps[*].name/run/uses``); the other services'
files give the commands under their keys for commands (``script``, ``run``, ``command``…).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.analyzer.manifest_files import read_yaml
from engine.analyzer.model import DiscoveryDraft

MAX_WORKFLOWS = 25
"""Workflow files read, in name order (each is its own entry)."""
MAX_LINES = 40
"""Lines of one entry past its heading."""
MAX_LINE_CHARS = 300
MAX_NODES = 5_000
"""Mappings and lists read in one service file."""
KEYWORDS = ("ci", "continuous integration", "workflow", "pipeline")

SERVICE_FILES = (
    (".gitlab-ci.yml", "GitLab CI pipeline"),
    (".circleci/config.yml", "CircleCI configuration"),
    (".travis.yml", "Travis CI configuration"),
    ("azure-pipelines.yml", "Azure Pipelines configuration"),
    ("bitbucket-pipelines.yml", "Bitbucket Pipelines configuration"),
    ("appveyor.yml", "AppVeyor configuration"),
    (".appveyor.yml", "AppVeyor configuration"),
    (".drone.yml", "Drone pipeline"),
    (".woodpecker.yml", "Woodpecker pipeline"),
)
"""Where each service reads its one configuration file, from its own documentation."""
_COMMAND_KEYS = frozenset(
    {"script", "before_script", "after_script", "run", "command", "commands", "install",
     "before_install", "build_script", "test_script", "deploy_script"}
)  # fmt: skip
"""Keys whose values are commands in those files (GitLab's ``script``, Travis' and
AppVeyor's phases, CircleCI's ``run``, Azure's ``script``, Drone's ``commands``)."""


def ci_drafts(root: Path) -> list[DiscoveryDraft]:
    """One entry per GitHub Actions workflow, then one per other service's file."""
    drafts = []
    folder = root / ".github" / "workflows"
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix in (".yml", ".yaml"))
    except OSError:
        files = []
    for path in files[:MAX_WORKFLOWS]:
        spec = _load(path)
        if spec is not None:
            drafts.append(_workflow_draft(path.relative_to(root).as_posix(), path.stem, spec))
    for rel, kind in SERVICE_FILES:
        spec = _load(root / rel)
        commands = list(dict.fromkeys(_commands(spec))) if spec is not None else []
        if commands:
            lines = [f"{kind} ({rel}). Commands:", *(f"- {c}" for c in commands)]
            drafts.append(_draft(f"Continuous integration: {kind}", rel, lines, ()))
    return drafts


def _workflow_draft(rel: str, stem: str, spec: dict[str, Any]) -> DiscoveryDraft:
    name = spec["name"] if isinstance(spec.get("name"), str) else stem
    lines = [f"GitHub Actions workflow {name!r} ({rel}), runs on: {_triggers(spec)}."]
    jobs = spec.get("jobs")
    for job_id, job in jobs.items() if isinstance(jobs, dict) else ():
        if len(lines) > MAX_LINES:
            break  # the rest is said to be there (aliases can repeat a job's steps)
        if isinstance(job, dict):
            lines += _job_lines(str(job_id), job)
    return _draft(f"Continuous integration: {name}", rel, lines, (stem, name))


def _job_lines(job_id: str, job: dict[str, Any]) -> list[str]:
    """The job's heading (its name, where it runs, its matrix) and one line per step that
    runs commands or uses an action, its name first."""
    title = job.get("name") if isinstance(job.get("name"), str) else ""
    heading = f"Job {job_id}" + (f" ({title})" if title and title != job_id else "")
    where = job.get("runs-on")
    if isinstance(where, (str, list)):
        heading += f", on {_listed(where)}"
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    if isinstance(matrix, dict):
        heading += "".join(
            f"; {key}: {_listed(values)}"
            for key, values in matrix.items()
            if key not in ("include", "exclude") and isinstance(values, list)
        )
    steps = job.get("steps")
    lines = [heading + ":"]
    for step in steps[:MAX_LINES] if isinstance(steps, list) else ():
        if isinstance(step, dict) and (said := _step_line(step)):
            lines.append(f"- {said}")
    return lines


def _step_line(step: dict[str, Any]) -> str:
    """``name: commands`` or ``name: uses owner/action``; "" for a step with neither."""
    run, uses = step.get("run"), step.get("uses")
    if isinstance(run, str):
        done = "; ".join(_run_commands(run))
    elif isinstance(uses, str):
        done = f"uses {uses.partition('@')[0]}"
    else:
        return ""
    name = step.get("name")
    said = f"{name.strip().rstrip('.')}: {done}" if isinstance(name, str) and done else done
    return _clip(said)


def _run_commands(run: str) -> list[str]:
    """The commands of one ``run``: one per line of a block, a line ending in a backslash
    joined to the next, comments and ``echo``/``exit`` lines left out."""
    commands, pending = [], ""
    for line in run.splitlines():
        line = pending + line.strip()
        pending = line[:-1].rstrip() + " " if line.endswith("\\") else ""
        if not pending and line and not line.startswith(("#", "echo ", "exit ")):
            commands.append(line)
    return commands


def _triggers(spec: dict[str, Any]) -> str:
    """The events of ``on``, with the branches or tags an event is limited to."""
    on = spec.get("on")
    if isinstance(on, str):
        return on
    if isinstance(on, list):
        return _listed(on)
    if not isinstance(on, dict):
        return "not said"
    events = []
    for event, filters in on.items():
        limits = [
            f"{key} {_listed(filters[key])}"
            for key in ("branches", "tags")
            if isinstance(filters, dict) and isinstance(filters.get(key), (str, list))
        ]
        events.append(f"{event} ({'; '.join(limits)})" if limits else str(event))
    return ", ".join(events)


def _commands(spec: dict[str, Any]) -> list[str]:
    """Every command under a command key anywhere in the file, read breadth-first over at
    most :data:`MAX_NODES` nodes (YAML's aliases can make a small file a huge tree)."""
    found: list[str] = []
    queue: list[Any] = [spec]
    for node in queue:
        if len(queue) > MAX_NODES or len(found) > MAX_LINES:  # the entry says there is more
            break
        children = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in children:
            if key in _COMMAND_KEYS and isinstance(value, (str, list)):
                for item in value if isinstance(value, list) else [value]:
                    found += (
                        [_clip(c) for c in _run_commands(item)] if isinstance(item, str) else []
                    )
            if isinstance(value, (dict, list)):
                queue.append(value)
    return found


def _draft(title: str, rel: str, lines: list[str], names: tuple[str, ...]) -> DiscoveryDraft:
    body = lines[:MAX_LINES]
    if len(lines) > MAX_LINES:  # read no further than one line past the bound
        body.append(f"(more lines in {rel})")
    keywords = tuple(dict.fromkeys((*KEYWORDS, *(n.lower() for n in names))))
    return DiscoveryDraft("\n".join([title, *body]), title, rel, keywords)


def _load(path: Path) -> dict[str, Any] | None:
    """The file's top-level mapping as written, or None (absent, refused or not YAML)."""
    data = read_yaml(path, as_written=True)
    return data if isinstance(data, dict) else None


def _listed(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(v for v in value if isinstance(v, str))
    return str(value)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 3] + "..."
