"""The Textual face of memory-tui: browse, search and curate a project's memory.

Build the app with :func:`app.tui.factory.build_app`; the CLI and the tests both use it.
"""
