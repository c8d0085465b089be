"""Benchmarks of the public API; see bench/search.py."""
