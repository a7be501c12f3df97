"""The one error type a user sees: a domain error printed as one line by the CLI (exit 2)."""


import os
import stat


class BeloteError(ValueError):
    """Bad input or an impossible request; the message says what is wrong and how to fix it."""


_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device", stat.S_IFIFO: "a named pipe",
          stat.S_IFSOCK: "a socket"}


def not_a_file(path) -> str | None:
    """What ``path`` names when it exists and is no regular file (``"a device"``, ``"a named
    pipe"``, ...), for the one-line refusals of every file the tool reads or replaces; None for a
    regular file or nothing. Asked before anything opens it: reading ``/dev/full`` never ends,
    and a named pipe waits forever."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _KINDS.get(stat.S_IFMT(mode), "not a regular file")
