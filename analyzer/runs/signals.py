"""Interruptions held off where a step must not be cut in two.

``signals_blocked`` holds SIGINT and SIGTERM in this thread for a ``with`` block and delivers them
when it ends (held, not lost): around the renames that swap an output folder into place
(``analyzer.output.outdir``) and around the start of a Dask ``LocalCluster``
(``analyzer.runs.backends``: its scheduler, without workers), which cannot be closed if interrupted inside
its constructor.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager


@contextmanager
def signals_blocked():
    """Hold SIGINT and SIGTERM until the block ends (they are delivered then, not lost)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


__all__ = ["signals_blocked"]
