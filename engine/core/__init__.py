"""The engine's vocabulary: entries, categories, search results, errors, configuration.

Owns: the domain types (:mod:`.models`), the error hierarchy (:mod:`.errors`), content
hashing, reading names and keywords callers give (:mod:`.validation`) and the project
configuration (:mod:`.config`). Nothing here runs threads or waits for them.
May import: the standard library and small parsers only; nothing else of the engine.
"""
