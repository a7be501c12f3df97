"""Shared fixtures: the rule tests run over both implementations of the rules."""

import importlib

import pytest


@pytest.fixture(params=["reference", "engine"])
def impl(request):
    """``analyzer.rules.reference`` (plain Python) or ``analyzer.rules.engine`` (numba), same API."""
    return importlib.import_module("analyzer.rules." + request.param)
