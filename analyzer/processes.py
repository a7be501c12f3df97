"""Whether a process still runs: how a command tells the leftovers of a killed run (a temporary
file or folder named after its PID) from the work of a run still going (``analyzer.output.outdir``'s
folders and files, ``analyzer.runs.learn``'s weights files)."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (another user's included); this process counts as gone, since
    what it left of itself is not in use while it holds the lock of what it writes."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


__all__ = ["alive"]
