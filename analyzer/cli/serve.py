"""``belote serve``: a local web page over the analyser (the web extra).
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import List, Optional

import typer

from analyzer.cli.options import Quiet
from analyzer.errors import BeloteError
from analyzer.web.jobs import Limits


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on. The default answers this "
                             "machine only, as any loopback address (127.x.y.z, ::1, localhost) does; any other "
                             "(0.0.0.0: every network) lets others use your CPU and read your reports and logs."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="The port (0: a free one, printed)."),
    reports: Path = typer.Option(Path("reports"), "--reports", help="The folder of reports the Reports page shows."),
    log: Optional[List[Path]] = typer.Option(None, "--log", help="A deal log (belote simulate --log) whose deals the "
                                             "Review page offers (repeatable)."),
    jobs: int = typer.Option(2, "--jobs", min=1, max=64, help="Questions computed at once; the next ones wait."),
    queue: int = typer.Option(8, "--queue", min=0, max=1000, help="Questions that may wait; more are refused."),
    max_seconds: float = typer.Option(600.0, "--max-seconds", min=1.0, max=86400.0,
                                      help="The longest one question may compute before it is stopped."),
    warm: bool = typer.Option(True, "--warmup/--no-warmup", help="Compile the kernels before listening "
                              "(belote warmup; under a second when compiled), so the first question answers at once."),
    quiet: Quiet = False,
):
    """A local web page over the analyser: should I take? (click your cards), a deal reviewed card
    by card, and the reports. Needs the web extra: pip install 'belote-analyzer[web]'.

    Examples:

      belote serve

      belote simulate --deals 100 --log deals.jsonl && belote serve --log deals.jsonl

      belote serve --port 0 --jobs 1 --max-seconds 120
    """
    # lazy: loads when the command runs, not for belote --help (0.3 s)
    from analyzer.web.serve import is_loopback, read_logs, run

    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise BeloteError("belote serve needs the web extra: pip install 'belote-analyzer[web]' (make install "
                          "and make test install it)") from None

    logs = read_logs(log or [])
    limits = Limits(running=jobs, waiting=queue, seconds=max_seconds)
    if warm:
        # lazy: loads when the command runs, not for belote --help (0.3 s)
        from analyzer.questions.warmup import warmup as compile_kernels

        compile_kernels(say=lambda line: quiet or typer.echo(line, err=True))
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as e:
        raise BeloteError(f"cannot listen on {host}:{port} ({e.strerror}): choose another --port, or --port 0") from None
    if not is_loopback(host):
        typer.echo(f"belote: WARNING: listening on {host}, not only this machine: anyone who reaches it can run "
                   f"questions on your CPU and read the reports in {reports} and the logs given", err=True)
    url_host = f"[{host}]" if ":" in host else host
    typer.echo(f"belote serve: http://{url_host}:{sock.getsockname()[1]}/  (should I take? · /review · /reports; "
               "Ctrl-C stops)", err=False)
    sys.stdout.flush()
    run(sock, host, reports, logs, limits, quiet)
