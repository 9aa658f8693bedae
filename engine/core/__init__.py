"""The engine's vocabulary: entries, categories, search results, errors, configuration.

Owns: the domain types (:mod:`.models`), the error hierarchy (:mod:`.errors`), content
hashing, reading names and keywords callers give (:mod:`.validation`) and the project
configuration (:mod:`.config`), and the count of adds in progress that searches step
aside for (:mod:`.writes_first`).
May import: the standard library and small parsers only; nothing else of the engine.
"""
