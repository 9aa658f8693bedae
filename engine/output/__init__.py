"""Entries and results as data for the outside world.

Owns: the one ``Entry`` → dict serializer every face uses (:mod:`.serialize`) and the
export formats text, json, csv, md and xml (:mod:`.export`).
May import: :mod:`engine.core`. It never prints: the faces decide where output goes.
"""
