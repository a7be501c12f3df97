"""Shared fixtures: the rule tests run over both implementations of the rules."""

import importlib

import pytest


@pytest.fixture(params=["reference", "engine"])
def impl(request):
    """``analyzer.reference`` (plain Python) or ``analyzer.engine`` (numba), same API."""
    return importlib.import_module("analyzer." + request.param)
