"""Widgets of the main screen; each receives state as attributes and posts messages up."""
