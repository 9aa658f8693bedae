"""How to build, test and run a project, and what it depends on, from its own files.

A newcomer's first questions ("how do I run the tests?", "which extras are there?") are
answered by a handful of files at the root: ``pyproject.toml``, ``package.json``,
``Cargo.toml``, ``go.mod`` (Dart's, PHP's and .NET's manifests:
:mod:`engine.analyzer.manifest_sections`), the ``Makefile`` or another task runner's file
(Task's ``Taskfile.yml``, just's ``justfile``) and the helper scripts; what CI runs is
:mod:`engine.analyzer.ci_config`'s. Each answer is its own short entry (one topic per
entry keeps search precise). TOML through :mod:`tomllib`, JSON through :mod:`json`,
Taskfiles through PyYAML, Makefiles and justfiles by their lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.analyzer.ci_config import ci_drafts
from engine.analyzer.manifest_files import (
    one_line,
    read_json,
    read_text,
    read_toml,
    read_yaml,
    sub_table,
)
from engine.analyzer.manifest_sections import manifest_sections
from engine.analyzer.model import DiscoveryDraft

MAX_ITEMS = 25
"""Scripts, targets, steps or dependencies named per section."""
MAX_COMMAND_CHARS = 160

_MAKE_TARGET = re.compile(r"^([A-Za-z0-9][\w.-]*)\s*:(?!=)")
_MAKE_HELP = re.compile(r"(?<!#)##(?!@)\s*(.*)$")
"""A rule line's ``## description`` (not ``##@``, Kubebuilder's section banner)."""
_TOML_TABLE = re.compile(r"^\[[^\[\]]+\]\s*(?:#.*)?$")
_TOML_KEY = re.compile(r"^['\"]?([\w.-]+)['\"]?\s*=")
_SCRIPT_SUFFIXES = (".sh", ".bash", ".ps1", ".py", ".js", ".mjs", ".ts")
TASKFILE_NAMES = (
    "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
    "Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml",
)  # fmt: skip
"""The names Task (taskfile.dev) looks for at a project's root, in its order of priority
("Supported file names" in its guide): the first one there is the project's Taskfile."""
_JUSTFILE_NAMES = ("justfile", "Justfile", "JUSTFILE", ".justfile", ".Justfile")
"""just looks for a file named ``justfile`` whatever its case, or ``.justfile`` (its
manual); the usual spellings are tried, first found wins."""
_JUST_RECIPE = re.compile(r"^@?([A-Za-z_][\w-]*)\b[^:=]*:(?!=)")
_JUST_NOT_RECIPES = frozenset({"set", "alias", "export", "import", "mod"})


@dataclass(slots=True)
class _Topic:
    """Lines of one topic entry, grouped under the file they come from."""

    lines: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def add(self, file: str, heading: str, items: list[str]) -> None:
        if not items:
            return
        shown = items[:MAX_ITEMS]
        more = f" (and {len(items) - MAX_ITEMS} more)" if len(items) > MAX_ITEMS else ""
        self.lines.append(f"{heading} ({file}){more}:")
        self.lines += [f"- {item}" for item in shown]
        if file not in self.files:
            self.files.append(file)


def project_file_drafts(root: Path, name: str) -> list[DiscoveryDraft]:
    """The "build, test and run", "continuous integration" and "dependencies" entries of
    the project at ``root``."""
    build, deps = _Topic(), _Topic()
    pyproject = read_toml(root / "pyproject.toml")
    if pyproject:
        _pyproject(pyproject, build, deps)
    package = read_json(root / "package.json")
    if isinstance(package, dict):
        _package_json(package, build, deps)
    features = _cargo_features(root)
    listed = [f"{name} = {enables}" for name, enables, _ in features]
    deps.add("Cargo.toml", "Cargo features (`cargo build --features NAME`)", listed)
    _go_mod(root, deps)
    for topic, file, heading, items in manifest_sections(root):
        (build if topic == "build" else deps).add(file, heading, items)
    build.add("Makefile", "Make targets", _make_targets(root))
    taskfile = next((n for n in TASKFILE_NAMES if (root / n).is_file()), None)
    if taskfile:
        build.add(taskfile, "Task tasks (run with `task NAME`)", _task_tasks(root / taskfile))
    justfile = next((n for n in _JUSTFILE_NAMES if (root / n).is_file()), None)
    if justfile:
        build.add(justfile, "just recipes (run with `just NAME`)", _just_recipes(root / justfile))
    build.add("scripts", "Helper scripts", _scripts(root))
    drafts = []
    if build.lines:
        title = "How to build, test and run the project"
        drafts.append(_draft(title, build, ("build", "test", "run", "scripts", "ci")))
    drafts += ci_drafts(root)
    drafts += _feature_drafts(features)
    if deps.lines:
        title = "Dependencies"
        drafts.append(_draft(title, deps, ("dependencies", "requirements", "install")))
    return drafts


def _draft(title: str, topic: _Topic, keywords: tuple[str, ...]) -> DiscoveryDraft:
    text = "\n".join([title, *topic.lines])[:8_000]
    file_path = topic.files[0] if len(topic.files) == 1 else ""
    return DiscoveryDraft(text, title, file_path, keywords)


def _pyproject(doc: dict[str, Any], build: _Topic, deps: _Topic) -> None:
    project = sub_table(doc, "project")
    tool = sub_table(doc, "tool")
    scripts = {**sub_table(project, "scripts"), **sub_table(sub_table(tool, "poetry"), "scripts")}
    build.add(
        "pyproject.toml",
        "Console scripts (installed commands)",
        [f"{k} = {v}" for k, v in scripts.items()],
    )
    backend = sub_table(doc, "build-system").get("build-backend")
    if isinstance(backend, str):
        build.add("pyproject.toml", "Build backend", [f"{backend} (build with `python -m build`)"])
    hatch_envs = sub_table(sub_table(tool, "hatch"), "envs")
    build.add("pyproject.toml", "Hatch environment scripts", _hatch_scripts(hatch_envs))
    pytest = sub_table(sub_table(tool, "pytest"), "ini_options")
    if pytest:
        opts = [f"{k} = {_short(v)}" for k, v in pytest.items()]
        build.add("pyproject.toml", "pytest settings (run the tests with `pytest`)", opts)
    tools = [k for k in tool if k not in {"pytest", "hatch", "poetry", "setuptools"}]
    build.add("pyproject.toml", "Tools configured", tools)
    python = project.get("requires-python")
    if isinstance(python, str):
        deps.add("pyproject.toml", "Python version", [python])
    deps.add("pyproject.toml", "Runtime dependencies", _strings(project.get("dependencies")))
    for extra, items in sub_table(project, "optional-dependencies").items():
        deps.add("pyproject.toml", f"Optional dependencies [{extra}]", _strings(items))
    for group, items in sub_table(doc, "dependency-groups").items():
        deps.add("pyproject.toml", f"Dependency group {group}", _strings(items))


def _hatch_scripts(envs: dict[str, Any]) -> list[str]:
    found = []
    for env, table in envs.items():
        if isinstance(table, dict):
            for script, command in sub_table(table, "scripts").items():
                found.append(f"hatch run {env}:{script} -> {_short(command)}")
    return found


def _package_json(doc: dict[str, Any], build: _Topic, deps: _Topic) -> None:
    scripts = doc.get("scripts")
    if isinstance(scripts, dict):
        items = [f"npm run {k} -> {_short(v)}" for k, v in scripts.items()]
        build.add("package.json", "npm scripts", items)
    for key in ("bin", "main", "module", "exports"):
        if isinstance(doc.get(key), str):
            build.add("package.json", f"Package {key}", [doc[key]])
    for key, heading in (
        ("engines", "Engines"),
        ("dependencies", "Runtime dependencies"),
        ("peerDependencies", "Peer dependencies"),
        ("devDependencies", "Development dependencies"),
    ):
        table = doc.get(key)
        if isinstance(table, dict):
            deps.add("package.json", heading, [f"{k} {v}" for k, v in table.items()])


def _cargo_features(root: Path) -> list[tuple[str, str, str]]:
    """The ``[features]`` of the root ``Cargo.toml`` (the Cargo Book's "Features"), each
    as its name, what it enables and the comment lines written right above it, which is
    where a crate says what a feature is for (docs.rs shows no more)."""
    text = read_text(root / "Cargo.toml")
    if text is None:
        return []
    features = sub_table(read_toml(root / "Cargo.toml"), "features")
    found: list[tuple[str, str, str]] = []
    comment: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if _TOML_TABLE.match(stripped):
            inside, comment = stripped.replace(" ", "") == "[features]", []
        elif stripped.startswith("#"):
            comment.append(stripped.lstrip("#").strip())
        elif inside and (key := _TOML_KEY.match(stripped)) and key.group(1) in features:
            name = key.group(1)
            found.append((name, _short(features[name]), " ".join(c for c in comment if c)))
            comment = []
        elif not stripped:
            comment = []
    return found


def _feature_drafts(features: list[tuple[str, str, str]]) -> list[DiscoveryDraft]:
    """One entry per feature its comment explains: a question about what a feature does
    ("how do I keep floats exact?") is answered by that feature alone."""
    drafts = []
    for name, enables, said in features[:MAX_ITEMS]:
        if said:
            title = f"Cargo feature {name}"
            text = (
                f"{title} (Cargo.toml): {said}\nEnables {enables}; turned on with "
                f'`cargo build --features {name}`, or `features = ["{name}"]` on the '
                "dependency in another crate's Cargo.toml."
            )
            drafts.append(DiscoveryDraft(text, title, "Cargo.toml", ("cargo", "feature", name)))
    return drafts


def _go_mod(root: Path, deps: _Topic) -> None:
    """The Go release a module asks for and the modules it requires, from the ``go``,
    ``toolchain`` and ``require`` directives of its root ``go.mod``; ``// indirect`` marks
    a requirement the main module does not import itself."""
    text = read_text(root / "go.mod")
    if text is None:
        return
    directives = _go_directives(text)
    versions = [f"{verb} {args}" for verb, args, _ in directives if verb in ("go", "toolchain")]
    heading = "Go version (`go`: the oldest Go release it supports; `toolchain`: the one to use)"
    deps.add("go.mod", heading, versions)
    requires = [
        args + (" (indirect)" if note == "indirect" else "")
        for verb, args, note in directives
        if verb == "require"
    ]
    deps.add("go.mod", "Required modules", requires)


def _go_directives(text: str) -> list[tuple[str, str, str]]:
    """``(verb, arguments, comment)`` per directive of a ``go.mod`` file, as the Go Modules
    Reference writes its grammar: one directive a line, or a verb's block (``require (``
    … ``)``) holding one set of arguments a line; ``//`` starts a comment."""
    found: list[tuple[str, str, str]] = []
    block = ""
    for raw in text.splitlines():
        code, _, comment = raw.partition("//")
        line = " ".join(code.split())
        if not line:
            continue
        if block:
            if line == ")":
                block = ""
            else:
                found.append((block, line, comment.strip()))
            continue
        verb, _, args = line.partition(" ")
        if args == "(":
            block = verb
        elif args:
            found.append((verb, args, comment.strip()))
    return found


def _make_targets(root: Path) -> list[str]:
    """``make NAME`` per target of the root Makefile, those its author described first.

    A target whose rule line ends in a ``## description`` is documented for the people
    who run it: the self-documenting Makefile that Kubebuilder scaffolds, whose ``help``
    target prints each such target with its description (``/^[a-zA-Z_0-9-]+:.*?##/``).
    Those come first, with what they do, so that the cap on listed items keeps them."""
    text = read_text(root / "Makefile") or read_text(root / "makefile") or ""
    described: dict[str, str] = {}
    plain: dict[str, str] = {}
    for line in text.splitlines():
        match = _MAKE_TARGET.match(line)
        if match and not match.group(1).startswith(".") and "%" not in match.group(1):
            said = _MAKE_HELP.search(line)
            target = f"make {match.group(1)}"
            if said and said.group(1).strip():
                described.setdefault(target, f"{target}: {said.group(1).strip()}")
            else:
                plain.setdefault(target, target)
    return list(described.values()) + [t for k, t in plain.items() if k not in described]


def _task_tasks(path: Path) -> list[str]:
    """``task NAME: description -> commands`` for each task of a Taskfile's ``tasks:`` map,
    read by PyYAML's safe loader as Task reads its YAML (a task written as a command or a
    list of them; ``cmds`` items as commands, ``cmd:`` or ``task:`` maps), internal ones
    (``internal: true``) left out."""
    data = read_yaml(path)
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, dict):
        return []
    found = []
    for name, task in tasks.items():
        if isinstance(task, dict) and task.get("internal") is True:
            continue
        spec = task if isinstance(task, dict) else {"cmds": task}
        said = next((v for k in ("desc", "summary") if isinstance(v := spec.get(k), str)), "")
        runs = [c for c in map(_task_command, _listed(spec.get("cmds"), spec.get("cmd"))) if c]
        found.append(_said(f"task {name}", said.strip(), runs))
    return found


def _listed(*values: object) -> list[object]:
    """The items of each value that is a list, and each other value that is set."""
    out: list[object] = []
    for value in values:
        if isinstance(value, list):
            out += value
        elif value is not None:
            out.append(value)
    return out


def _task_command(item: object) -> str:
    """What one item of a Task task's ``cmds`` runs: a command, ``cmd: …`` or another
    task (``task: test`` → ``task test``)."""
    if isinstance(item, dict):
        if isinstance(item.get("task"), str):
            return f"task {item['task']}"
        item = item.get("cmd")
    return " ".join(item.split()) if isinstance(item, str) else ""


def _just_recipes(path: Path) -> list[str]:
    """``just NAME: comment -> body`` for each public recipe of a justfile: a line at the
    margin naming a recipe and ending its header with ``:`` (not ``:=``, an assignment),
    its doc comment the ``#`` line right above it, its body the indented lines below.
    Recipes whose name starts with ``_`` or marked ``[private]`` are left out, as
    ``just --list`` leaves them out."""
    found: list[tuple[str, str, list[str]]] = []
    body: list[str] | None = None  # the body lines of the recipe being read, if kept
    comment, private = "", False
    for line in (read_text(path) or "").splitlines():
        if not line.strip():  # a blank line: a doc comment must touch its recipe
            comment = ""
            continue
        if line[:1] in (" ", "\t"):
            if body is not None and not line.strip().startswith("#"):
                body.append(line.strip().lstrip("@-"))
            continue
        body = None
        stripped = line.strip()
        if stripped.startswith("#"):
            comment = stripped.lstrip("#").strip() if not stripped.startswith("#!") else comment
            continue
        if stripped.startswith("["):
            private = private or "private" in stripped
            continue
        match = _JUST_RECIPE.match(stripped)
        first = stripped.lstrip("@").split(maxsplit=1)[0] if stripped else ""
        name = match.group(1) if match else "_"
        if first not in _JUST_NOT_RECIPES and not name.startswith("_") and not private:
            body = []
            found.append((name, comment, body))
        comment, private = "", False
    return [_said(f"just {name}", said, body) for name, said, body in found]


def _said(command: str, description: str, runs: list[str]) -> str:
    """One line for a task runner's task: ``command: description -> what it runs``."""
    line = command + (f": {description}" if description else "")
    return _short(line + (f" -> {'; '.join(runs)}" if runs else ""))


def _scripts(root: Path) -> list[str]:
    folder = root / "scripts"
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in _SCRIPT_SUFFIXES)
    except OSError:
        return []
    found = []
    for path in files:
        lines = [ln.strip() for ln in (read_text(path) or "").splitlines()]
        commands = [ln for ln in lines if ln and not ln.startswith(("#", "set ", '"""'))]
        if path.suffix in (".sh", ".bash", ".ps1"):
            found.append(f"scripts/{path.name}: {_short('; '.join(commands[:4]))}")
        else:
            found.append(f"scripts/{path.name}")
    return found


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _short(value: Any, limit: int = MAX_COMMAND_CHARS) -> str:
    return one_line(value, limit)
