"""What a Julia, R or Nim package requires, read from the manifest its package manager reads.

"Which Julia (R, Nim) version does it need?" and "what does it depend on?" are answered by
one file at the root that is neither documentation nor code, so no entry held it:

- Julia: ``Project.toml`` (or ``JuliaProject.toml``), as Pkg's "Project and Manifest" page
  declares it: ``[deps]`` names the dependencies, ``[weakdeps]`` those only package
  extensions load, ``[compat]`` the versions of each it works with and, under ``julia``,
  of Julia itself (caret specifiers: ``"1.6"`` is 1.6 up to, not including, 2.0).
- R: ``DESCRIPTION``, a Debian Control File ("Writing R Extensions", 1.1.1): ``Depends``
  (R's own version among them), ``Imports``, ``LinkingTo``, ``Suggests``, ``Enhances``;
  a field's value goes on over the indented lines after it. A file without a ``Package``
  field is no package's.
- Haskell: the root's ``NAME.cabal`` ("Package Description" in the Cabal User Guide):
  each ``flag NAME`` stanza is a build option, with its ``description``, its ``default``
  and whether it is ``manual``; ``cabal build -f NAME`` turns it on, ``-f -NAME`` off.
  Field names are case-insensitive; a field's value goes on over its more indented lines.
- Nim: the root's ``NAME.nimble`` (Nimble's "Creating packages"): each ``requires`` call
  lists its packages as string literals, ``nim`` naming the compiler; a call goes on to
  the next line after a trailing comma or inside its parentheses.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.analyzer.manifest_files import read_text, read_toml, sub_table

Requirement = tuple[str, str, list[str]]
"""``(file, heading, items)``: one list of the Dependencies entry."""

_JULIA_PROJECTS = ("JuliaProject.toml", "Project.toml")
"""Pkg reads ``JuliaProject.toml`` first where both are present."""
_DCF_FIELD = re.compile(r"^([A-Za-z][\w.@-]*):[ \t]*(.*)$")
_R_FIELDS = ("Imports", "LinkingTo", "Suggests", "Enhances")
_CABAL_FLAG = re.compile(r"^flag\s+([\w.-]+)\s*$", re.IGNORECASE)
_CABAL_FIELD = re.compile(r"^(\s+)([\w-]+)\s*:\s*(.*)$")
_NIM_REQUIRES = re.compile(r"^\s*requires\b\s*\(?(.*)$")
_NIM_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_NIM_NAME = re.compile(r"^nim\b(?![\w-])", re.IGNORECASE)


def package_requirements(root: Path) -> list[Requirement]:
    """The Julia, R and Nim requirements the manifests at ``root`` declare."""
    return [*_julia(root), *_r_description(root), *_cabal_flags(root), *_nimble(root)]


def _julia(root: Path) -> list[Requirement]:
    name = next((n for n in _JULIA_PROJECTS if (root / n).is_file()), None)
    doc = read_toml(root / name) if name else {}
    if name is None or not doc:
        return []
    compat, deps = sub_table(doc, "compat"), sub_table(doc, "deps")
    found: list[Requirement] = []
    if isinstance(julia := compat.get("julia"), str):
        heading = 'Julia version (`[compat]` julia; "1.6" is 1.6 up to, not including, 2.0)'
        found.append((name, heading, [julia]))
    for table, heading in (("deps", "Dependencies"), ("weakdeps", "Weak dependencies")):
        named = [_with_compat(dep, compat) for dep in sub_table(doc, table)]
        found.append((name, f"{heading} (`[{table}]`, compat from `[compat]`)", named))
    extras = [dep for dep in sub_table(doc, "extras") if dep not in deps]
    found.append((name, "Test and extra dependencies (`[extras]`)", extras))
    return [item for item in found if item[2]]


def _with_compat(dep: str, compat: dict[str, Any]) -> str:
    bound = compat.get(dep)
    return f"{dep} {bound}" if isinstance(bound, str) else dep


def _r_description(root: Path) -> list[Requirement]:
    text = read_text(root / "DESCRIPTION")
    fields = dcf_fields(text) if text is not None else {}
    if "Package" not in fields:
        return []
    depends = _r_list(fields.get("Depends", ""))
    r_version = [item for item in depends if re.match(r"R\b(?![.\w])", item)]
    found: list[Requirement] = [
        ("DESCRIPTION", "R version (`Depends`)", r_version),
        ("DESCRIPTION", "Depends (attached packages)", [d for d in depends if d not in r_version]),
    ]
    found += [("DESCRIPTION", name, _r_list(fields.get(name, ""))) for name in _R_FIELDS]
    return [item for item in found if item[2]]


def dcf_fields(text: str) -> dict[str, str]:
    """The fields of the first paragraph of a Debian Control File: ``Name: value``, the
    value continued on the indented lines after it."""
    fields: dict[str, str] = {}
    current = ""
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break
            continue
        if line[0] in " \t" and current:
            fields[current] += " " + line.strip()
        elif field := _DCF_FIELD.match(line):
            current = field.group(1)
            fields[current] = field.group(2).strip()
    return fields


def _r_list(value: str) -> list[str]:
    return [" ".join(item.split()) for item in value.split(",") if item.strip()]


def _only(root: Path, pattern: str) -> Path | None:
    """The one file at ``root`` matching ``pattern``; none where there are several (the
    package manager would refuse them too)."""
    files = [p for p in root.glob(pattern) if p.is_file()]
    return files[0] if len(files) == 1 else None


def _cabal_flags(root: Path) -> list[Requirement]:
    path = _only(root, "*.cabal")
    text = read_text(path) if path else None
    if path is None or text is None:
        return []
    flags = [_cabal_flag(name, fields) for name, fields in _cabal_stanzas(text).items()]
    heading = "Cabal flags (`cabal build -f NAME` turns one on, `-f -NAME` off)"
    return [(path.name, heading, flags)] if flags else []


def _cabal_flag(name: str, fields: dict[str, str]) -> str:
    said = ", ".join(f"{key} {fields[key]}" for key in ("default", "manual") if key in fields)
    described = fields.get("description", "")
    return name + (f" ({said})" if said else "") + (f": {described}" if described else "")


def _cabal_stanzas(text: str) -> dict[str, dict[str, str]]:
    """The fields of each ``flag`` stanza, by flag name; field names lowercased."""
    flags: dict[str, dict[str, str]] = {}
    fields: dict[str, str] | None = None
    key, indent = "", 0
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("--"):
            continue
        if not line[0].isspace():
            stanza = _CABAL_FLAG.match(line)
            fields = flags.setdefault(stanza.group(1), {}) if stanza else None
            key = ""
        elif fields is not None and (field := _CABAL_FIELD.match(line)):
            if key and len(field.group(1)) > indent:
                fields[key] += " " + line.strip()
                continue
            key, indent = field.group(2).lower(), len(field.group(1))
            fields[key] = field.group(3).strip()
        elif fields is not None and key:
            fields[key] += " " + line.strip()
    return flags


def _nimble(root: Path) -> list[Requirement]:
    path = _only(root, "*.nimble")
    text = read_text(path) if path else None
    if path is None or text is None:
        return []
    required = _nim_requires(text)
    nim = [item for item in required if _NIM_NAME.match(item)]
    name = path.name
    return [
        item
        for item in (
            (name, 'Nim version (`requires "nim …"`)', nim),
            (name, "Required packages (`requires`)", [r for r in required if r not in nim]),
        )
        if item[2]
    ]


def _nim_requires(text: str) -> list[str]:
    """The string literals of every ``requires`` call, over the lines a trailing comma or
    an open parenthesis carries it to."""
    found: list[str] = []
    going = False
    depth = 0
    for line in text.splitlines():
        code = line.split("#", 1)[0].rstrip()
        if not going:
            start = _NIM_REQUIRES.match(code)
            if start is None:
                continue
            depth = 1 if "(" in code[: start.start(1)] else 0
            code = start.group(1)
        found += _NIM_STRING.findall(code)
        depth += code.count("(") - code.count(")")
        going = code.endswith(",") or depth > 0
    return found
