"""A ``belote serve`` process for the web tests: started on a free port of 127.0.0.1, stopped
after; requests through ``urllib`` with no proxy (the machine's proxy must not see them)."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from belote_command import Belote

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Server:
    def __init__(self, *args, cwd=None):
        cmd = [Belote.path, "serve", "--port", "0", "--no-warmup", "-q", *map(str, args)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
        line = self.proc.stdout.readline()
        m = re.search(r"http://(\S+?):(\d+)/", line)
        if not m:
            self.proc.kill()
            raise AssertionError(f"belote serve did not start: {line!r} {self.proc.stderr.read()[-2000:]}")
        self.host, self.port = m.group(1), int(m.group(2))
        self.url = f"http://{self.host}:{self.port}/"

    def request(self, path: str, data=None, method: str | None = None, headers: dict | None = None,
                raw: bytes | None = None, timeout: float = 60):
        """(status, decoded JSON or text) of one request. ``data`` is sent as JSON (``Content-Type:
        application/json``, as the pages send it), ``raw`` as it is with ``headers`` only (urllib
        adds ``application/x-www-form-urlencoded`` to a body without a type)."""
        body = raw if raw is not None else (None if data is None else json.dumps(data).encode())
        headers = {**({"Content-Type": "application/json"} if data is not None else {}), **(headers or {})}
        r = urllib.request.Request(self.url.rstrip("/") + path, data=body, method=method, headers=headers)
        try:
            with _OPENER.open(r, timeout=timeout) as f:
                status, text, kind = f.status, f.read(), f.headers.get("content-type", "")
        except urllib.error.HTTPError as e:
            status, text, kind = e.code, e.read(), e.headers.get("content-type", "")
        return status, (json.loads(text) if "json" in kind else text.decode(errors="replace"))

    def wait(self, job: str, timeout: float = 600) -> dict:
        """Poll a job until it ends (as a page does, which keeps it alive)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            status, v = self.request(f"/api/jobs/{job}")
            assert status == 200, v
            if v["state"] in ("done", "failed", "cancelled"):
                return v
            time.sleep(0.2)
        raise AssertionError(f"job {job} did not end in {timeout} s")

    def stop(self, sig=None) -> tuple[int, str]:
        import signal

        if self.proc.poll() is None:
            self.proc.send_signal(sig or signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.returncode, self.proc.stderr.read()


def write_log(folder: Path, deals: int = 6, variant: str = "classic", players: int | None = None) -> Path:
    """A small deal log written by the CLI (``belote simulate --log``)."""
    path = folder / f"{variant}{players or ''}.jsonl"
    cmd = [Belote.path, "simulate", "--variant", variant, "--deals", str(deals),
           "--log", str(path), "-q"] + (["--players", str(players)] if players else [])
    subprocess.run(cmd, check=True, capture_output=True)
    return path

