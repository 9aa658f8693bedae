"""What a running server answers the prompt hook (:mod:`app.hook_endpoint`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.hook_client import Injected
from app.hook_endpoint import Answer

if TYPE_CHECKING:
    from app.mcp.server import MemoryServer


def hook_answer(server: MemoryServer) -> Answer:
    """The entries ``server`` injects for a prompt: a hybrid search once the model is
    warm, the hook's keyword selection before (:func:`app.prompt_hook.served_entries`).
    The injected entries count as referenced, in the server's bookkeeping thread."""

    def answer(prompt: str) -> list[Injected]:
        from app.prompt_hook import injected, served_entries

        chosen = served_entries(server.state.memory(), prompt)
        server.state.count_references([r.entry.id for r in chosen])
        return [injected(r) for r in chosen]

    return answer
