"""One hook invocation of a session event, routed by the input's ``hook_event_name``.

``memory-tui hook`` is the one command Claude Code runs for every event memory-tui
handles (:data:`app.init.HOOK_EVENTS`); this module takes the session events:
``SessionStart`` prints the recall block (:mod:`.recall`) as the hook's JSON output
``{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": …}}``;
``Stop``, ``SessionEnd`` and ``PreCompact`` capture the session (:mod:`.capture`) and
print nothing. ``UserPromptSubmit`` (and an input without an event name) stays with
:mod:`app.prompt_hook`. Every one exits 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CAPTURE_EVENTS = frozenset({"Stop", "SessionEnd", "PreCompact"})
RECALL_EVENT = "SessionStart"
SESSION_EVENTS = CAPTURE_EVENTS | {RECALL_EVENT}


def event_of(payload: object) -> str:
    """The hook's event name ('' when the input names none)."""
    name = payload.get("hook_event_name") if isinstance(payload, dict) else None
    return name if isinstance(name, str) else ""


def session_hook(payload: dict[str, Any], project: Path | None) -> str:
    """What the hook prints for a session event of ``payload``."""
    from app.project import config_or_defaults, find_project_root
    from app.sessions.summarize import summarizing

    if summarizing():  # a summariser's own Claude Code session: not the user's
        return ""
    cwd = payload.get("cwd")
    root = project or find_project_root(Path(cwd) if isinstance(cwd, str) and cwd else None)
    config = config_or_defaults(root, "hook")
    if event_of(payload) == RECALL_EVENT:
        from app.sessions.recall import recall_block

        block = recall_block(root, config)
        if not block:
            return ""
        output = {"hookSpecificOutput": {"hookEventName": RECALL_EVENT, "additionalContext": block}}
        return json.dumps(output) + "\n"
    from app.sessions.capture import capture

    capture(payload, root, config)
    return ""
