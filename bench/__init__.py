"""Benchmarks: run on demand (``make bench`` / ``python -m bench.<name>``), never in tests."""
