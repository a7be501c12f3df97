"""belote-analyzer: a Monte-Carlo strategy analyser for the Belote family of card games."""

__version__ = "0.1.0"
