"""The one error type a user sees: a domain error printed as one line by the CLI (exit 2)."""


class BeloteError(ValueError):
    """Bad input or an impossible request; the message says what is wrong and how to fix it."""
