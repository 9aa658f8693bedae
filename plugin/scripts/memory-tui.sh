#!/bin/sh
# Runs the memory-tui found on PATH (or $MEMORY_TUI_BIN) for the plugin's MCP server and
# prompt hook. The plugin holds no copy of memory-tui: it is installed once per machine
# (README, "Install"). Without it, the hook says so in Claude Code (a system message,
# the prompt goes on) and the server exits with the same words on stderr, which
# Claude Code shows as the server's failure (/mcp, `claude mcp get memory-tui`).
bin="${MEMORY_TUI_BIN:-memory-tui}"
advice="the memory-tui command is not on PATH, so the memory-tui plugin is off. Install it once from the repository this plugin came from: uv tool install git+<repository URL>, or pipx install git+<repository URL> (then pipx ensurepath if it is still not found), and restart Claude Code."

if [ "$1" = "hook" ]; then
    # A project set up by `memory-tui init` runs the prompt hook from its own
    # .claude/settings.json: the plugin's stands aside, so a prompt gets its notes once.
    for settings in "${CLAUDE_PROJECT_DIR:-.}/.claude/settings.json" \
        "${CLAUDE_PROJECT_DIR:-.}/.claude/settings.local.json"; do
        if [ -f "$settings" ] && grep -Eq 'memory-tui[^,]*[" ]hook([" ;]|$)' "$settings"; then
            exit 0
        fi
    done
    if ! command -v "$bin" >/dev/null 2>&1; then
        printf '{"systemMessage": "%s"}\n' "$advice"
        exit 0
    fi
elif ! command -v "$bin" >/dev/null 2>&1; then
    echo "memory-tui: $advice" >&2
    exit 127
fi
exec "$bin" "$@"
