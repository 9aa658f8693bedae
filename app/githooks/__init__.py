"""Git hooks that keep the memory in step with the knowledge files.

:mod:`app.githooks.install` writes, removes and inspects the hook scripts
(``memory-tui hooks install|uninstall|status``); :mod:`app.githooks.run` is what they call
(``memory-tui hooks run``): it finds the knowledge files a commit, merge or checkout changed
and re-indexes only those.
"""

HOOK_NAMES = ("pre-commit", "post-merge", "post-checkout")
"""The hooks memory-tui installs: commits, pulls and branch switches are followed."""
