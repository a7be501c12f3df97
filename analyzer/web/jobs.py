"""The computations of ``belote serve``: each question a job in a bounded table.

A page asks a question with one request and gets a job id at once; the question runs on a
thread of its own while the page polls the job for its progress and its partial results (the
heuristic's verdict first, the bracket after). Everything is bounded:

- at most ``running`` jobs compute at once; up to ``waiting`` more wait their turn (a place in
  the queue is shown as their progress); any more are refused with a message that says so
  (``Busy``, HTTP 503), so a burst of requests never starts an unbounded number of threads;
- a job stops at its next progress step once it is cancelled: by the page (closing it sends a
  cancel), by a page that stopped polling for ``idle`` seconds (closed without a word, or its
  network gone), or by running longer than ``seconds``;
- finished jobs are kept ``keep`` seconds for the page to collect, and at most ``table`` jobs
  are held in all (the oldest finished go first).

A job's function takes the job and calls ``job.step(stage, done, total)`` as it goes (which
raises ``Cancelled`` when the job must stop) and ``job.publish(key, value)`` for each part of
its result. A ``BeloteError`` ends it with its one line; anything else with a line naming the
error, its traceback printed on the server's terminal.
"""

from __future__ import annotations

import secrets
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

from analyzer.errors import BeloteError


class Busy(BeloteError):
    """Every place, running and waiting, is taken."""


class Cancelled(Exception):
    """Raised inside a job's function at its next step once it must stop; ``why`` says why."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass(frozen=True)
class Limits:
    running: int = 2  # jobs computing at once
    waiting: int = 8  # jobs waiting for a place; more are refused
    seconds: float = 600.0  # the longest a job may compute
    idle: float = 20.0  # a job whose page has not asked for it this long is stopped
    keep: float = 600.0  # a finished job is kept this long for its page
    table: int = 64  # jobs held at most, finished ones included

    def __post_init__(self):
        if self.running < 1 or self.waiting < 0 or self.seconds <= 0 or self.idle <= 0:
            raise BeloteError("the server's limits must be positive: --jobs at least 1, --max-seconds above 0")


WAITING, RUNNING, DONE, FAILED, CANCELLED = "waiting", "running", "done", "failed", "cancelled"


@dataclass
class Job:
    id: str
    kind: str
    limits: Limits
    state: str = WAITING
    stage: str = ""
    done: int = 0
    total: int = 0
    result: dict = field(default_factory=dict)
    error: str | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    seen: float = field(default_factory=time.monotonic)
    stop: str | None = None  # why the job must stop, once it must

    def step(self, stage: str, done: int, total: int) -> None:
        """Progress of the running job; raises ``Cancelled`` when it must stop."""
        self.stage, self.done, self.total = stage, int(done), int(total)
        self.check()

    def check(self) -> None:
        now = time.monotonic()
        if self.stop is None and now - self.seen > self.limits.idle:
            self.stop = f"its page stopped asking for it for {self.limits.idle:g} s (closed?)"
        if self.stop is None and self.started is not None and now - self.started > self.limits.seconds:
            self.stop = f"it ran longer than the server's limit of {self.limits.seconds:g} s (belote serve --max-seconds)"
        if self.stop is not None:
            raise Cancelled(self.stop)

    def publish(self, key: str, value) -> None:
        """One part of the result, shown by the page as soon as it is here."""
        self.result = {**self.result, key: value}

    def view(self, place: int | None = None) -> dict:
        """What the page polls: the state, the progress, the result so far, the error."""
        now = time.monotonic()
        d = {"id": self.id, "kind": self.kind, "state": self.state, "result": self.result}
        if self.state == WAITING:
            d["progress"] = {"stage": "waiting", "place": place}
        elif self.state == RUNNING:
            d["progress"] = {"stage": self.stage, "done": self.done, "total": self.total,
                             "seconds": round(now - self.started, 1)}
        if self.error is not None:
            d["error"] = self.error
        if self.finished is not None and self.started is not None:
            d["seconds"] = round(self.finished - self.started, 3)
        return d


class Jobs:
    """The server's table of jobs (thread-safe)."""

    def __init__(self, limits: Limits = Limits()):
        self.limits = limits
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._places = threading.Semaphore(limits.running)
        self._queue: list[str] = []  # waiting jobs, in order

    def submit(self, kind: str, work) -> Job:
        """Start ``work(job)`` when a place is free; ``Busy`` when every place is taken."""
        with self._lock:
            self._prune()
            active = [j for j in self._jobs.values() if j.state in (WAITING, RUNNING)]
            if len(active) >= self.limits.running + self.limits.waiting or len(self._jobs) >= self.limits.table:
                raise Busy(f"the server is busy: {len(active)} questions are running or waiting "
                           f"(at most {self.limits.running} at once, {self.limits.waiting} waiting); try again soon")
            job = Job(secrets.token_hex(8), kind, self.limits)
            self._jobs[job.id] = job
            self._queue.append(job.id)
        threading.Thread(target=self._run, args=(job, work), name=f"belote-{kind}-{job.id}", daemon=True).start()
        return job

    def _run(self, job: Job, work) -> None:
        while not self._places.acquire(timeout=0.25):
            if self._must_stop(job):
                return
        try:
            with self._lock:
                self._queue.remove(job.id)
            if self._must_stop(job, queued=False):
                return
            job.started = time.monotonic()
            job.state = RUNNING
            try:
                work(job)
                job.state = DONE
            except Cancelled as e:
                job.state, job.error = CANCELLED, f"stopped: {e.why}"
            except BeloteError as e:
                job.state, job.error = FAILED, str(e)
            except Exception as e:  # a bug: one line for the page, the traceback for whoever runs the server
                traceback.print_exc(file=sys.stderr)
                job.state, job.error = FAILED, f"internal error ({type(e).__name__}: {e}); the server's terminal has the traceback"
            job.finished = time.monotonic()
        finally:
            self._places.release()

    def _must_stop(self, job: Job, queued: bool = True) -> bool:
        try:
            job.check()
            return False
        except Cancelled as e:
            with self._lock:
                if queued and job.id in self._queue:
                    self._queue.remove(job.id)
            job.state, job.error, job.finished = CANCELLED, f"stopped before it started: {e.why}", time.monotonic()
            return True

    def get(self, job_id: str) -> dict | None:
        """The job's view for its page (which keeps it alive), None when there is no such job."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                return None
            job.seen = time.monotonic()
            place = self._queue.index(job_id) + 1 if job_id in self._queue else None
        return job.view(place)

    def cancel(self, job_id: str, why: str = "its page asked to stop it") -> bool:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            return False
        if job.stop is None and job.state in (WAITING, RUNNING):
            job.stop = why
        return True

    def cancel_all(self, why: str) -> None:
        for job_id in list(self._jobs):
            self.cancel(job_id, why)

    def counts(self) -> dict:
        with self._lock:
            out = {s: 0 for s in (WAITING, RUNNING, DONE, FAILED, CANCELLED)}
            for j in self._jobs.values():
                out[j.state] += 1
        return out

    def _prune(self) -> None:
        """Drop finished jobs older than ``keep``, then the oldest finished while the table is full."""
        now = time.monotonic()
        finished = sorted((j for j in self._jobs.values() if j.finished is not None), key=lambda j: j.finished)
        for j in finished:
            if now - j.finished > self.limits.keep or len(self._jobs) >= self.limits.table:
                del self._jobs[j.id]


__all__ = ["Job", "Jobs", "Limits", "Busy", "Cancelled"]
