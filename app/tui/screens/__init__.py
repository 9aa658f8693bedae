"""Screens of the app: the main screen and its modal dialogs."""
