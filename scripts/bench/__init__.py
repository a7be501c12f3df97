"""Benchmarks: speed, compile time and profiles, one checkout or two side by side."""
