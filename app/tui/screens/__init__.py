"""Screens of the app: the main screen (composition and routing) and its modal dialogs
(which collect input and dismiss with it; the widgets that asked do the work)."""
