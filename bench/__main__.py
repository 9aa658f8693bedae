"""``python -m bench``: the speed suite (:mod:`bench.suite`)."""

from bench.suite import main

main()
