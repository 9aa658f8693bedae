"""What a Claude Code session did, kept without asking, and given back to the next one.

* :mod:`.transcript` reads a session's transcript (Claude Code's JSONL, where its hook
  input's ``transcript_path`` says, refused outside this project's transcript folders)
  into what a digest is made of: the prompts and the answers, the decisions stated with
  their reasons, the files written, the commands that failed and what came after;
* :mod:`.digest` writes that down as one deterministic note, cut to a size, every piece
  redacted (``<private>``, likely secrets) before it is cut;
* :mod:`.capture` is the ``Stop`` / ``SessionEnd`` / ``PreCompact`` hook: one personal note
  (source ``session``) per session, updated as the session goes on;
* :mod:`.summarize` runs the user's own summariser, where one is named, for a digest in
  prose;
* :mod:`.recall` is the ``SessionStart`` hook: the last sessions' digests of this project
  and branch and the notes matching their work, within a token budget;
* :mod:`.hook` routes one hook invocation by its ``hook_event_name``.

Every hook here exits 0 and never blocks Claude Code: a problem is one line in
``.claude/memory/memory-tui.log``.
"""
