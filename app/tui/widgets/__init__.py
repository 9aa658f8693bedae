"""Widgets of the main screen. Each owns its state and the behaviour on it (the engine
calls it needs run in its own thread workers), receives what the screen decides as
attributes or method calls, and posts the messages nested in its class up to the screen;
none reaches into a sibling."""
