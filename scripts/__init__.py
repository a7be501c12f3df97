"""The project's scripts (scripts/README.md): run each as a file; the tests import the maintainer tools
they check as ``scripts.maintainer.NAME`` (pytest puts the checkout on the path: ``pythonpath`` in
pyproject.toml)."""
