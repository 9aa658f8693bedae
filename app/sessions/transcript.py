"""A Claude Code session's transcript, read into what its digest is made of.

The transcript is JSON Lines, one entry per line, as Claude Code writes it under
``~/.claude/projects/<the project's folder, every other character than a letter or a
digit written "-">/<session id>.jsonl`` (``$CLAUDE_CONFIG_DIR`` in place of ``~/.claude``
where set). The entries read here:

* ``{"type": "user", "message": {"role": "user", "content": "…" | [blocks]}}``: a prompt
  (text, or ``text`` blocks), or the results of tools (``tool_result`` blocks with
  ``tool_use_id``, ``content`` and ``is_error``); entries marked ``isMeta`` (what Claude
  Code adds itself), ``isCompactSummary`` (a compaction's summary) or ``isSidechain``
  (a subagent's) are not the user's prompts, nor a slash command's printed output;
* ``{"type": "assistant", "message": {"content": [blocks]}}``: ``text`` blocks (the
  answer; the last one of a turn is its answer) and ``tool_use`` blocks (``id``,
  ``name``, ``input``: ``Write``/``Edit``/``MultiEdit`` name a ``file_path``,
  ``NotebookEdit`` a ``notebook_path``, ``Bash`` a ``command``);
  one marked ``isApiErrorMessage`` is Claude Code's own ("Not logged in"), not an answer;
* every entry's ``timestamp``, ``sessionId`` and ``gitBranch``.

Other entry types (``summary``, ``system``, ``file-history-snapshot``…) are skipped, and
so is a line that is not a JSON object (counted in :attr:`SessionLog.bad_lines`). Nothing
is kept of what tools printed unless asked (``tool_output``).

The path comes from the hook's input, so it is checked like any path the project reads
(:func:`engine.resolve_inside`): it must lie, symlinks resolved, in this project's
transcript folder or in the project itself; then it must be a regular file of at most
:data:`MAX_TRANSCRIPT_BYTES`, opened without following a link and without blocking.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import FileRefusedError, resolve_inside

MAX_TRANSCRIPT_BYTES = 512 * 1024 * 1024
"""Largest transcript read (a day-long session with large tool outputs is tens of MB)."""
OFF_MARKER = "#no-memory"
"""Written anywhere in a prompt (any case), the session is not kept."""
EDIT_TOOLS = {"Write": "created", "Edit": "changed", "MultiEdit": "changed"}
NOTEBOOK_TOOL = "NotebookEdit"
SHELL_TOOL = "Bash"
MAX_DECISIONS = 64
"""Decisions remembered while reading (the latest); the digest shows fewer."""
_DECISION = re.compile(
    r"\b(?:because|since|so that|instead of|rather than|decided|decide to|chose|chosen|"
    r"in order to|trade-?offs?|the reason|which means|otherwise)\b",
    re.IGNORECASE,
)
"""Words that give a reason or weigh a choice: a sentence holding one states a decision."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_INJECTED = re.compile(
    r"<(system-reminder|project-memory|project-memory-sessions|local-command-stdout"
    r"|local-command-stderr)\b[^>]*>.*?</\1>",
    re.DOTALL,
)
"""Blocks hooks and Claude Code add to a prompt (and a slash command's output): not what
the user asked."""
_EXIT_CODE = re.compile(r"Exit code \d+")
"""How Claude Code's Bash result of a failed command starts (the status, not the output)."""


@dataclass(slots=True)
class Exchange:
    """One prompt and the answer that ended its turn."""

    prompt: str
    answer: str = ""


@dataclass(slots=True)
class Failure:
    """A command that failed, and what came after it."""

    command: str
    output: str = ""
    """The first line of what it printed (only with ``tool_output``)."""
    fix: str = ""
    """The next command of the same program that succeeded."""
    edited: list[str] = field(default_factory=list)
    """Files written between the failure and that command."""


@dataclass(slots=True)
class SessionLog:
    """What a transcript holds that a digest keeps (raw text: redacted when written)."""

    session_id: str = ""
    branch: str = ""
    started: str = ""
    ended: str = ""
    exchanges: list[Exchange] = field(default_factory=list)
    decisions: deque[str] = field(default_factory=lambda: deque(maxlen=MAX_DECISIONS))
    files: dict[str, str] = field(default_factory=dict)
    """Path (relative to the project where inside it) → ``created`` or ``changed``."""
    failures: list[Failure] = field(default_factory=list)
    entries: int = 0
    """Lines read as entries."""
    bad_lines: int = 0
    """Lines that are not a JSON object."""
    opted_out: bool = False
    """A prompt holds :data:`OFF_MARKER`."""


def transcript_folders(root: Path, cwd: str | None = None) -> list[Path]:
    """Where a transcript of the project at ``root`` may be read from: Claude Code's
    transcript folder of the project (and of the session's ``cwd`` where that lies in the
    project: Claude Code started in a subfolder), and the project."""
    home = os.environ.get("CLAUDE_CONFIG_DIR") or str(Path.home() / ".claude")
    inside = bool(cwd) and Path(str(cwd)).resolve().is_relative_to(root.resolve())
    places = [root, *([Path(str(cwd))] if inside else [])]
    names = dict.fromkeys(re.sub(r"[^A-Za-z0-9]", "-", str(p)) for p in places)
    names.update(dict.fromkeys(re.sub(r"[^A-Za-z0-9]", "-", str(p.resolve())) for p in places))
    return [Path(home) / "projects" / name for name in names] + [root]


def checked_path(path: Path, folders: list[Path]) -> Path:
    """The real location of the transcript at ``path``, inside one of ``folders``.

    Raises:
        FileRefusedError: outside them (symlinks resolved), hidden inside the project.
        NotFoundError: nothing is there.
    """
    if not path.is_absolute():
        raise FileRefusedError(str(path), "not an absolute path")
    for folder in folders:
        if path.is_relative_to(folder):
            return resolve_inside(folder, path)
    raise FileRefusedError(str(path), "outside this project and its Claude Code transcripts")


def read_transcript(path: Path, root: Path, *, tool_output: bool = False) -> SessionLog:
    """Read the transcript at ``path`` (already :func:`checked_path`).

    Raises:
        FileRefusedError: not a regular file, or larger than :data:`MAX_TRANSCRIPT_BYTES`.
        OSError: it cannot be read.
    """
    reader = _Reader(root, tool_output)
    for raw in _lines(path):
        try:
            entry: Any = json.loads(raw)
        except ValueError:  # not JSON, or not UTF-8
            reader.log.bad_lines += 1
            continue
        if not isinstance(entry, dict):
            reader.log.bad_lines += 1
            continue
        reader.read(entry)
    return reader.log


def _lines(path: Path) -> Iterator[bytes]:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError(path.name, "not a regular file")
        if info.st_size > MAX_TRANSCRIPT_BYTES:
            raise FileRefusedError(path.name, f"{info.st_size:,} bytes, over the limit")
        for raw in stream:
            if raw.strip():
                yield raw


class _Reader:
    """Reads entries in order into a :class:`SessionLog`."""

    def __init__(self, root: Path, tool_output: bool) -> None:
        self.log = SessionLog()
        self.root = root
        self.tool_output = tool_output
        self.tools: dict[str, tuple[str, dict[str, Any]]] = {}
        """Tool uses waiting for their result, by id: name and input."""

    def read(self, entry: dict[str, Any]) -> None:
        log = self.log
        kind = entry.get("type")
        if kind not in ("user", "assistant"):
            return
        log.entries += 1
        stamp = entry.get("timestamp")
        if isinstance(stamp, str) and stamp:
            log.started = log.started or stamp
            log.ended = stamp
        for key, attr in (("sessionId", "session_id"), ("gitBranch", "branch")):
            value = entry.get(key)
            if isinstance(value, str) and value:
                setattr(log, attr, value)
        message = entry.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list) or entry.get("isSidechain") is True:
            return
        blocks = [b for b in content if isinstance(b, dict)]
        if kind == "user":
            meta = entry.get("isMeta") is True or entry.get("isCompactSummary") is True
            self._user(blocks, meta=meta)
        elif entry.get("isApiErrorMessage") is not True:  # Claude Code's, not an answer
            self._assistant(blocks)

    def _user(self, blocks: list[dict[str, Any]], *, meta: bool) -> None:
        for block in blocks:
            if block.get("type") == "tool_result":
                self._result(block)
        text = _text(blocks)
        if meta or not text:
            return
        prompt = _INJECTED.sub("", text).strip()
        if not prompt:
            return
        if OFF_MARKER in prompt.lower():
            self.log.opted_out = True
        self.log.exchanges.append(Exchange(prompt))

    def _assistant(self, blocks: list[dict[str, Any]]) -> None:
        text = _text(blocks)
        if text and self.log.exchanges:
            self.log.exchanges[-1].answer = text
        if text:
            for sentence in _SENTENCE.split(text):
                sentence = sentence.strip(" -*#>\t")
                if _DECISION.search(sentence) and sentence not in self.log.decisions:
                    self.log.decisions.append(sentence)
        for block in blocks:
            if block.get("type") != "tool_use":
                continue
            name, given = block.get("name"), block.get("input")
            if not isinstance(name, str) or not isinstance(given, dict):
                continue
            self.tools[str(block.get("id", ""))] = (name, given)
            self._edit(name, given)

    def _edit(self, name: str, given: dict[str, Any]) -> None:
        target = given.get("notebook_path" if name == NOTEBOOK_TOOL else "file_path")
        how = "changed" if name == NOTEBOOK_TOOL else EDIT_TOOLS.get(name)
        if how is None or not isinstance(target, str) or not target:
            return
        rel = self._relative(target)
        if self.log.files.get(rel) != "created":
            self.log.files[rel] = how
        for failure in self.log.failures:
            if not failure.fix and rel not in failure.edited:
                failure.edited.append(rel)

    def _relative(self, target: str) -> str:
        path = Path(target)
        try:
            return path.relative_to(self.root).as_posix() if path.is_absolute() else target
        except ValueError:
            return target

    def _result(self, block: dict[str, Any]) -> None:
        name, given = self.tools.pop(str(block.get("tool_use_id", "")), ("", {}))
        command = given.get("command")
        if name != SHELL_TOOL or not isinstance(command, str) or not command.strip():
            return
        command = command.strip()
        if block.get("is_error") is True:
            output = _first_line(block.get("content")) if self.tool_output else ""
            self.log.failures.append(Failure(command, output))
            return
        program = _program(command)
        for failure in self.log.failures:
            if not failure.fix and _program(failure.command) == program:
                failure.fix = command


def _text(blocks: list[dict[str, Any]]) -> str:
    parts = [b.get("text") for b in blocks if b.get("type") == "text"]
    return "\n".join(p for p in parts if isinstance(p, str) and p.strip()).strip()


def _program(command: str) -> str:
    """The program a shell command runs (its first word that is not a variable setting)."""
    for word in command.split():
        if "=" not in word:
            return word
    return ""


def _first_line(content: object) -> str:
    if isinstance(content, list):
        content = "\n".join(
            str(b.get("text", "")) for b in content if isinstance(b, dict) and "text" in b
        )
    if not isinstance(content, str):
        return ""
    lines = [line.strip() for line in content.splitlines() if line.strip()]
    said = [line for line in lines if not _EXIT_CODE.fullmatch(line)]
    return (said or lines or [""])[0]
