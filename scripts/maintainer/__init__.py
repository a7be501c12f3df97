"""Maintainer tools: the examples of the docs, the fingerprint, the weights' layout, the calibration tables."""
