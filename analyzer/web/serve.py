"""Start the web application on a socket the caller has bound (``belote serve``)."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import uvicorn

from analyzer.errors import BeloteError, not_a_file
from analyzer.output.deallog import read_log
from analyzer.web.app import make_app

MAX_LOG_BYTES = 64 << 20  # a deal log the server holds in memory: about 20,000 deals


def is_loopback(host: str) -> bool:
    """Whether ``--host`` answers this machine only: ``localhost`` or a loopback address, any of
    127.0.0.0/8 (``127.0.0.2`` as much as ``127.0.0.1``), ``::1`` or ``::ffff:127.x.y.z``. Such a
    server checks each request's Host (against DNS rebinding) and says nothing; any other warns."""
    if host.lower() == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:  # a host name (other than localhost), or no address at all
        return False
    if ip.version == 6 and ip.ipv4_mapped is not None:  # Python 3.11's is_loopback does not look inside
        ip = ip.ipv4_mapped
    return ip.is_loopback


def read_logs(paths) -> list:
    """``[(path, records)]``: each log read and checked once, at start (``read_log``), one line
    naming the file when it is missing, too large or not a deal log."""
    out = []
    for p in paths:
        p = Path(p)
        kind = not_a_file(p)
        if kind:
            raise BeloteError(f"--log {p} is {kind}, not a deal log")
        if p.is_file() and os.path.getsize(p) > MAX_LOG_BYTES:
            raise BeloteError(f"--log {p} is larger than {MAX_LOG_BYTES >> 20} MB: log fewer deals "
                              "(belote simulate --log-deals)")
        out.append((p, read_log(p)))
    return out


def run(sock, host: str, reports: Path, logs: list, limits, quiet: bool = False) -> None:
    """Serve until interrupted; every running question is stopped on the way out."""
    own = f"[{host}]" if ":" in host else host  # a Host header writes an IPv6 address in brackets
    hosts = list(dict.fromkeys(["127.0.0.1", "localhost", "[::1]", own.lower()])) if is_loopback(host) else None
    app = make_app(reports=Path(reports), logs=logs, limits=limits, hosts=hosts)
    config = uvicorn.Config(app, log_level="warning" if quiet else "info", access_log=not quiet,
                            timeout_graceful_shutdown=5, limit_concurrency=200)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        app.state.jobs.cancel_all("the server stopped")
