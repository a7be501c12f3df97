"""Where the driver's chunks run: Python threads on this machine, or a Dask cluster.

Design. Every analysis reaches its hands through ``analyzer.runs.driver._run`` (one call per
batch of units), so the backend is chosen there and nowhere else: ``_run`` asks
``current()`` for the backend in use and hands it the batch (``current``, ``use`` and the default
``ThreadBackend`` live in the driver, below this module, and are imported here). The CLI opens a backend for the
length of a command with ``open_backend(cluster, scheduler)`` (a context manager: it starts
and stops a ``LocalCluster``, or connects to and leaves a scheduler) and makes it current with
``use(backend)``; library callers do the same, or use nothing and get threads. The analyses
themselves (``simulate``, ``table``, ``take``, ``balance``, ``report``, ...) know nothing of
backends and keep their own batching, so their numbers cannot depend on one.

- ``ThreadBackend`` (the default): the chunks of a batch on ``numba.get_num_threads()``
  Python threads over the nogil chunk kernel.
- ``DaskBackend``: a batch's units are cut into tasks of consecutive units; each task runs
  on a worker (one thread) and returns its int64 rows: one per unit for ``per_unit`` runs,
  else one per chunk it touches, summed over its units in that chunk; the client adds them
  into the batch's rows in chunk order. A unit's row depends only on the seed and its index,
  so the chunk rows, and every sum of them, are the threads' whatever the number of workers,
  the task size (tasks need not fall on chunk boundaries) or a task run twice (a worker that
  dies mid-run has its tasks rescheduled by the scheduler; a task's result does not depend
  on where or how often it ran).

Workers load the kernels once per process: the task function lives in this module, so the
first task a worker unpickles imports ``analyzer`` (which points numba at the kernel cache,
``analyzer/__init__.py``: on this machine the folder the parent filled, on another machine
its own) and the compiled dispatchers then stay in the worker for every later task.
``_warm`` (registered by ``DaskBackend`` on every worker, including ones that join later)
does that import before the first task arrives.

Task size: a task costs the scheduler a roughly fixed round trip (``task_overhead``
measures it), so a task should carry at least 20 times that
in work to keep the overhead under 5%; but a batch must also be cut into enough tasks to keep
every worker busy to its end. ``DaskBackend.task_units`` cuts each batch into
``TASKS_PER_WORKER`` tasks per worker, none smaller than ``MIN_TASK_UNITS`` of its kind;
``units_per_task`` sets a fixed size instead. The analyses keep their own batches (one
``_run`` call each, a barrier): a cluster far wider than a batch's tasks waits at each batch.
An analysis whose numbers do not depend on its batching may ask ``batch_units`` for a batch
wide enough for the cluster (``analyzer.questions.table`` does: a 100-worker cluster gets batches of
100 x 4 x 32,768 deals instead of 65,536).
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import logging
import os
import re
import signal
import time
import zipfile
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

import numba.core.config
import numpy as np

from analyzer import code_digest
from analyzer.errors import BeloteError
from analyzer.runs import driver

# the backend in use and the default one (threads) live with the driver that runs on them
from analyzer.runs.driver import ThreadBackend, _progress_for, current, unit_progress, use  # noqa: F401
from analyzer.runs.limits import CONNECT_SECONDS, kernel_seed
from analyzer.runs.signals import signals_blocked

TASKS_PER_WORKER = 4  # tasks per worker and batch: enough to even out the end of a batch
# the smallest task, in units, by kind (driver.SIMULATE, SEATS, TAKE, TABLE, GAMES, DUEL, SUITS): at least
# 20 times the per-task overhead of work. Measured on this 2-core machine (shared, load ~5):
# 7-9 ms per task (task_overhead), a heuristic hand ~1.9 us on one worker, so 2**17 hands
# (~0.25 s) keep it near 3%; a take unit plays 3-6 hands, a table unit 2-4, a game 10-20, a duel unit 2-4,
# a suits unit 0-4.
MIN_TASK_UNITS = {0: 1 << 17, 1: 1 << 17, 2: 1 << 15, 3: 1 << 15, 4: 1 << 13, 5: 1 << 15, 6: 1 << 15}
_INSTALL_HINT = "pip install 'belote-analyzer[dask]'"


def _task(kind, seed, first, start, cnt, chunk, kernel_args, cfg, per_unit):
    """Run on a worker, one thread: units first+start .. first+start+cnt-1 of a batch cut
    into chunks of ``chunk``. Returns their rows (per unit), or one row per chunk the range
    touches, each the sum over the range's units in that chunk (the client adds the pieces
    of a chunk cut between tasks: integer sums, so the chunk's row is the same)."""
    if per_unit:
        return driver._run_local(kind, seed, first + start, cnt, chunk, kernel_args, cfg, True, threads=1)
    parts = []
    a, end = start, start + cnt
    while a < end:
        b = min(end, (a // chunk + 1) * chunk)  # to the end of a's chunk
        parts.append(driver._run_local(kind, seed, first + a, b - a, b - a, kernel_args, cfg, False, threads=1))
        a = b
    return np.concatenate(parts)


def _warm(dask_worker=None):
    """Load the simulate chunk kernel (with the hand) into a worker process before its first task: the
    package imported (which sets numba's cache folder), compile it, which reads it from the
    on-disk cache once per worker, never per task (``driver.compile_kind``; the other kinds load at a
    worker's first task of that kind). Returns the cache folder."""
    driver.compile_kind(driver.SIMULATE)
    return numba.core.config.CACHE_DIR


def _noop(i):
    return i


class DaskBackend:
    """The chunks as tasks on a ``distributed.Client``'s workers."""

    name = "dask"

    def __init__(self, client, units_per_task: int | None = None, label: str = ""):
        self.client = client
        self.units_per_task = units_per_task
        self.label = label or str(getattr(client.scheduler, "address", ""))
        self._warmed = False

    def workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def _warm_workers(self):
        if not self._warmed:
            try:
                # lazy: distributed is optional (the [dask] extra)
                from distributed.diagnostics.plugin import WorkerPlugin

                class _Warm(WorkerPlugin):
                    name = "belote-warm"

                    def setup(self, worker):
                        _warm(worker)

                self.client.register_plugin(_Warm(), name="belote-warm")
            except Exception:  # an old distributed: the first task imports instead
                self.client.run(_warm)
            self._warmed = True

    def task_units(self, kind: int, n: int) -> int:
        """Units per task for a batch of ``n`` units of ``kind``: ``units_per_task`` when
        set, else the batch cut into ``TASKS_PER_WORKER`` tasks per worker but no task under
        ``MIN_TASK_UNITS[kind]`` units (about 20 times the per-task overhead of work)."""
        if self.units_per_task:
            return max(1, self.units_per_task)
        even = -(-n // (TASKS_PER_WORKER * self.workers()))
        return max(1, min(n, max(even, MIN_TASK_UNITS.get(kind, 1))))

    def batch_units(self, kind: int, batch: int) -> int:
        """At least ``TASKS_PER_WORKER`` smallest tasks for every worker: a batch is a barrier,
        so a smaller one leaves workers idle (for analyses whose numbers do not depend on it)."""
        return max(batch, self.workers() * TASKS_PER_WORKER * MIN_TASK_UNITS.get(kind, 1))

    def run(self, kind, seed, first, n, chunk, kernel_args, cfg, per_unit, progress=None):
        # lazy: distributed is optional (the [dask] extra)
        from distributed import as_completed

        if chunk <= 0:
            raise ValueError(f"chunk must be positive, not {chunk}")
        self._warm_workers()
        progress = _progress_for(first, progress)
        cfg_arr, _, n_row = driver._args(kind, cfg)
        n_chunks = (n + chunk - 1) // chunk
        rows = np.zeros((n if per_unit else n_chunks, n_row), np.int64)
        span = self.task_units(kind, n)
        futures = {}
        seed = kernel_seed(seed)  # the workers' kernels: the same signature as the threads'
        for start in range(0, n, span):
            cnt = min(span, n - start)
            f = self.client.submit(_task, kind, seed, first, start, cnt, chunk, kernel_args, cfg_arr, per_unit,
                                   pure=False)
            futures[f] = (start, cnt)
        done = 0
        try:
            for f in as_completed(list(futures)):
                start, cnt = futures[f]
                part = f.result()
                if per_unit:
                    rows[start:start + cnt] = part
                else:
                    c0 = start // chunk
                    rows[c0:c0 + part.shape[0]] += part
                done += cnt
                if progress is not None:
                    progress(done)
        finally:
            for f in futures:
                if not f.done():
                    f.cancel()
        return rows

    def describe(self) -> dict:
        return {"backend": self.name, "scheduler": self.label, "workers": self.workers()}


def _distributed():
    try:
        # lazy: distributed is optional (the [dask] extra)
        import distributed
    except ImportError:
        raise BeloteError(f"--cluster and --scheduler need Dask, which is not installed: {_INSTALL_HINT}") from None
    return distributed


def parse_cluster(spec: str, cores: int | None = None) -> int:
    """``local:N`` -> N (worker processes on this machine), at most ``cores`` (default
    ``os.cpu_count()``): each worker is a process with its own copy of the kernels (about
    60 MB) on one thread, so more workers than cores only share the cores and the memory
    (999 on 2 cores: 95 started before the machine stalled). ``local:N!`` forces N, for a
    machine whose core count Python misreads."""
    kind, _, num = spec.partition(":")
    forced = num.endswith("!")
    num = num.removesuffix("!")
    if kind != "local" or not num.isdigit() or int(num) < 1:
        raise BeloteError(f"--cluster takes local:N with N worker processes, e.g. --cluster local:2, not {spec!r}")
    cores = cores or os.cpu_count() or 1
    if int(num) > cores and not forced:
        raise BeloteError(f"--cluster {spec}: this machine has {cores} cores, so at most local:{cores} workers "
                          f"(local:{num}! forces {num})")
    return int(num)




def _ask_scheduler(address: str, seconds: float) -> None:
    """Check, within ``seconds``, that ``address`` is a Dask scheduler: connect and ask its
    identity. ``distributed.Client``'s own ``timeout`` bounds the connection but not the
    handshake, so a server that accepts and never answers (any non-Dask service) held it for
    good; here the whole exchange is cut at ``seconds``. A one-line error otherwise."""
    # lazy: distributed is optional (the [dask] extra)
    from distributed.core import rpc

    async def identity():
        r = rpc(address)
        try:
            return await r.identity()
        finally:
            await r.close_rpc()

    fix = "start it with 'dask scheduler' or check --scheduler / DASK_SCHEDULER_ADDRESS"
    try:
        who = asyncio.run(asyncio.wait_for(identity(), seconds))
    except ValueError as e:  # no port, an unknown protocol: not an address
        raise BeloteError(f'--scheduler "{address}" is not a scheduler address ({e}): give tcp://HOST:PORT, '
                          "e.g. tcp://localhost:8786") from None
    except (OSError, TimeoutError) as e:  # refused, unknown host, or no answer in time
        why = f"no answer within {seconds:g} s" if isinstance(e, TimeoutError) or not str(e) else str(e)
        raise BeloteError(f"cannot reach a Dask scheduler at {address} ({why}); {fix}") from None
    except Exception as e:  # answered, but not in Dask's protocol
        raise BeloteError(f"{address} does not answer as a Dask scheduler ({type(e).__name__}); {fix}") from None
    kind = who.get("type") if isinstance(who, dict) else None
    if kind != "Scheduler":
        raise BeloteError(f"{address} is a Dask {kind or 'server'}, not a scheduler: give the scheduler's address")


def dask_setup(worker=None):
    """Run in each worker process of a ``LocalCluster`` this module starts (its ``preload``):
    ignore SIGINT and SIGTERM. A signal to the whole process group (Ctrl-C in a terminal,
    ``kill -TERM -PGID``) killed the workers before the parent could stop them, leaving each
    one's ``dask-scratch-space/worker-*.dirlock`` in the temp folder; the parent alone handles
    it and stops them (closing the cluster: a worker that does not stop in time is killed by
    its nanny), and a worker whose parent died exits by itself (distributed watches the parent).
    Its log quiet below critical: stopped mid-task, a worker warned of each cancelled task on
    stderr, after ``belote: interrupted``, and a worker whose heartbeat fell between the
    scheduler's close and its own logged "Failed to communicate with scheduler during heartbeat"
    with a traceback (at ERROR, now and then). A task's own failure is not lost: it is raised
    in the parent, by the client that gathers the task."""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _start_workers(lc, client, n_workers: int) -> None:
    """Start a local cluster's workers a few at a time (as many as the cores), each few up before the
    next: a signal meanwhile closes the cluster once the few under way have started (a second or
    two), where closing it in the middle of all of them waited for every one to start (25 s for
    local:40! on 2 cores), and killing them instead made distributed print tracebacks."""
    step = os.cpu_count() or 1
    for n in range(min(step, n_workers), n_workers + step, step):
        lc.scale(min(n, n_workers))
        client.wait_for_workers(min(n, n_workers))


@contextmanager
def open_backend(cluster: str | None = None, scheduler: str | None = None, units_per_task: int | None = None):
    """The backend a command asked for, in use for the ``with`` block: threads (neither
    given), a new ``LocalCluster`` of N one-thread worker processes (``cluster="local:N"``,
    stopped at the end) or an existing scheduler (``scheduler="tcp://HOST:PORT"``)."""
    if cluster and scheduler:
        raise BeloteError("give --cluster or --scheduler, not both")
    if not cluster and not scheduler:
        yield current()
        return
    n_workers = parse_cluster(cluster) if cluster else 0
    distributed = _distributed()

    logging.getLogger("distributed").setLevel(logging.ERROR)  # no startup chatter on stderr
    if cluster:
        with ExitStack() as stack:
            # Signals held while the LocalCluster's scheduler starts, with no worker yet (a second or so):
            # interrupted inside its constructor there is no object to close, and distributed's atexit hook then
            # failed with a traceback (AssertionError: Status.init). The workers are started after, with the
            # cluster in the stack, so a signal while they start (minutes for local:999!) closes it at once.
            with signals_blocked():
                lc = stack.enter_context(distributed.LocalCluster(n_workers=0, threads_per_worker=1,
                                                                  processes=True, dashboard_address=":0",
                                                                  preload=[__name__]))  # dask_setup
                client = stack.enter_context(distributed.Client(lc))
            _start_workers(lc, client, n_workers)
            with use(DaskBackend(client, units_per_task, label=cluster)) as b:
                yield b
        return
    _ask_scheduler(scheduler, CONNECT_SECONDS)
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as e:
        raise BeloteError(f"cannot reach the Dask scheduler at {scheduler} ({e}); start it with "
                          f"'dask scheduler' or check --scheduler / DASK_SCHEDULER_ADDRESS") from None
    with client:
        with use(DaskBackend(client, units_per_task, label=scheduler)) as b:
            yield b


def task_overhead(client, tasks: int = 400) -> float:
    """Seconds of scheduling per task: the wall time of ``tasks`` trivial tasks over the
    client's workers, times the number of workers, divided by ``tasks``."""
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    client.gather(client.map(_noop, range(8), pure=False))  # warm the connections
    t0 = time.perf_counter()
    client.gather(client.map(_noop, range(tasks), pure=False))
    return (time.perf_counter() - t0) * workers / tasks


# --- resumable runs ----------------------------------------------------------------------
#
# A run folder (--run-dir) holds run.json (the command, its inputs and the digest of the code and data
# that produce its numbers, ``analyzer.code_digest``: all checked by --resume) and
# batches/NNNNNN-KEY.npz, one per finished batch, KEY covering that digest too. Nothing in it is trusted on reading:
# each batch file is an .npz of two members, ``rows`` (the batch's int64 rows) and ``record``
# (JSON: its format, its index NNNNNN, its inputs' digest KEY and the sha256 of the three with
# the rows), so a changed number, a file copied over another (renamed or not), a truncated or
# garbage file and a file of another run are each told apart and refused in one line naming the
# file. Refused, not recomputed: a file that does not verify was changed by something other
# than this tool, which the user should hear of; the fix is one command (remove the file, and
# the resumed run runs that batch again), and nothing the user put there is ever deleted.

RUN_FILE = "run.json"
# run.json's mark for a folder whose batch files carry their identity and checksum, both bound to the code that
# ran them (belote-run/2 folders recorded no code: a resume could mix the players of two versions)
RUN_FORMAT = "belote-run/3"
BATCH_FORMAT = "belote-batch/1"  # a batch file's record
_BATCHES = "batches"
_BATCH_NAME = re.compile(r"(\d{6,})-([0-9a-f]{20})\.npz")
_TMP_NAME = re.compile(r"(\d{6,})-([0-9a-f]{20})\.tmp")  # a write cut short by a kill: rewritten when its batch runs
_REDO = "remove it to run its batch again"


def _key(kind, seed, first, n, chunk, kernel_args, cfg, per_unit) -> str:
    """A digest of everything a batch's rows depend on: the code and data that ran it (its compiled
    players, the net weights frozen into them, the calibrated bidders) and its inputs."""
    h = hashlib.sha256(repr((code_digest(), kind, seed, first, n, chunk, per_unit, tuple(kernel_args[0]))).encode())
    for a in (*kernel_args[1:], cfg):
        if a is None:
            h.update(b"none")
            continue
        a = np.ascontiguousarray(a)
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:20]


def _checksum(seq: int, key: str, rows: np.ndarray) -> str:
    """The sha256 of a batch record: its index, its inputs' digest and its rows (type, shape, bytes)."""
    h = hashlib.sha256(f"{BATCH_FORMAT}:{seq}:{key}:{rows.dtype.str}:{rows.shape}".encode())
    h.update(np.ascontiguousarray(rows).tobytes())
    return h.hexdigest()


@contextmanager
def _removed_unless_renamed(tmp):
    """``tmp`` removed after the block if it is still there (the block failed or was interrupted)."""
    try:
        yield
    finally:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)


def _write_batch(path, seq: int, key: str, rows: np.ndarray) -> None:
    """Record a batch: written to a temporary name, flushed to disk and renamed, so the file
    is whole or absent (an interruption leaves nothing; only a kill can leave the temporary
    file, which the batch's next run overwrites). A folder that cannot take it (read-only,
    full) is one line."""
    record = {"format": BATCH_FORMAT, "seq": seq, "key": key, "sha256": _checksum(seq, key, rows)}
    tmp = path.with_suffix(".tmp")
    try:
        with _removed_unless_renamed(tmp):
            with open(tmp, "wb") as f:
                np.savez(f, rows=rows, record=np.array(json.dumps(record)))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
    except OSError as e:
        raise BeloteError(f"--run-dir: cannot write {path} ({e.strerror or e}): free some space or make the folder "
                          f"writable, then continue the run with --resume") from None


def _read_batch(path) -> tuple[int, str, np.ndarray]:
    """A batch file's (index, inputs' digest, rows), verified against its checksum and its
    name; any file that does not verify is refused in one line naming it."""
    try:
        z = np.load(path, allow_pickle=False)
        if not isinstance(z, np.lib.npyio.NpzFile):  # an .npy array, or a pickle refused by allow_pickle
            raise ValueError("not an .npz archive")
        with z:
            rows, record = z["rows"], json.loads(str(z["record"]))
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile):
        raise BeloteError(f"--resume: {path} is truncated or not a batch record of belote-analyzer: {_REDO}") from None
    if not (isinstance(record, dict) and record.get("format") == BATCH_FORMAT and type(record.get("seq")) is int
            and isinstance(record.get("key"), str) and rows.dtype == np.int64 and rows.ndim == 2):
        raise BeloteError(f"--resume: {path} is not a batch record of belote-analyzer: {_REDO}")
    seq, key = record["seq"], record["key"]
    if record.get("sha256") != _checksum(seq, key, rows):
        raise BeloteError(f"--resume: {path} does not match its checksum (its numbers were changed): {_REDO}")
    named = _BATCH_NAME.fullmatch(path.name)
    if named is None or (int(named[1]), named[2]) != (seq, key):
        raise BeloteError(f"--resume: {path} holds the record of batch {seq} ({key}), not the one its name says "
                          f"(a batch file copied over another): {_REDO}")
    return seq, key, rows


def _check_batches(folder) -> None:
    """Every file in the folder's batches/ verified up front (whole, its checksum, its name),
    so a resumed run refuses a bad folder before it runs anything."""
    for p in sorted((folder / _BATCHES).iterdir()):
        if _TMP_NAME.fullmatch(p.name):
            continue
        if not _BATCH_NAME.fullmatch(p.name) or not p.is_file():
            raise BeloteError(f"--resume: {p} is not a batch record of belote-analyzer: remove it")
        _read_batch(p)


class RecordingBackend:
    """Another backend whose every batch is recorded in a run folder as it finishes
    (``batches/NNNNNN-DIGEST.npz``, see above), and read back, verified, instead of run when
    the folder already holds it.

    An analysis asks for the same batches in the same order on every run with the same
    inputs, so a rerun with ``--resume`` replays the recorded batches and runs only the
    rest: it ends with exactly the numbers of an uninterrupted run. ``DIGEST`` covers
    everything the batch's rows depend on (seed, units, chunking, rules, policies,
    configuration), so a recorded batch is never used for another: a batch file whose index
    is asked for with another digest belongs to another run and is refused.
    ``units_replayed`` counts the units read back rather than run in this process."""

    def __init__(self, inner, folder):
        self.inner = inner
        self.folder = Path(folder)
        self.seq = 0
        self.replayed = 0
        self.units_replayed = 0
        self.name = inner.name

    def run(self, kind, seed, first, n, chunk, kernel_args, cfg, per_unit, progress=None):
        cfg_arr = None if cfg is None else np.ascontiguousarray(cfg, dtype=np.int64)
        seq, key = self.seq, _key(kind, seed, first, n, chunk, kernel_args, cfg_arr, per_unit)
        self.seq += 1
        path = self.folder / _BATCHES / f"{seq:06d}-{key}.npz"
        for other in sorted(path.parent.glob(f"{seq:06d}-*.npz")):
            if other != path:
                raise BeloteError(f"--resume: {other} records batch {seq} of other inputs than this run's (a file "
                                  f"of another run, or the run began on a cluster of another size): {_REDO}")
        if path.exists():
            rows = _read_batch(path)[2]
            self.replayed += 1
            self.units_replayed += n
            return rows
        rows = self.inner.run(kind, seed, first, n, chunk, kernel_args, cfg, per_unit, progress=progress)
        _write_batch(path, seq, key, rows)
        return rows

    def check_complete(self) -> None:
        """After the run's last batch: a recorded batch beyond it belongs to another run."""
        for p in sorted(self.folder.glob(f"{_BATCHES}/*.npz")):
            named = _BATCH_NAME.fullmatch(p.name)
            if named is None or int(named[1]) >= self.seq:
                raise BeloteError(f"--run-dir: {p} is not a batch of this run, which has {self.seq} batches: "
                                  f"remove it")

    def batch_units(self, kind: int, batch: int) -> int:
        return self.inner.batch_units(kind, batch)

    def describe(self) -> dict:
        return {**self.inner.describe(), "run_dir": str(self.folder), "batches_replayed": self.replayed,
                "units_replayed": self.units_replayed}


def _differing(recorded: dict, inputs: dict):
    for k in sorted(set(recorded) | set(inputs)):
        if recorded.get(k) != inputs.get(k):
            return k, recorded.get(k), inputs.get(k)
    return None


@contextmanager
def _locked(folder):
    """The run folder locked for the ``with`` block (an exclusive ``flock`` on the folder
    itself: no lock file to leave behind, and a read-only folder can still be locked); a
    second run of the folder at once is refused in one line. The lock goes with the
    process, so a killed run never leaves the folder locked."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BeloteError(f"--run-dir {folder} is in use by another belote run: wait for it to end, "
                              f"or choose another folder") from None
        except OSError as e:  # a filesystem without locks (some network mounts)
            raise BeloteError(f"--run-dir {folder} cannot be locked ({e.strerror or e}): choose a folder on a "
                              f"local disk") from None
        yield
    finally:
        os.close(fd)


def _check_run(folder, command: str, inputs: dict) -> None:
    """--resume: the folder's run.json must be this tool's, of this format, command and inputs."""
    meta = folder / RUN_FILE
    try:
        have = json.loads(meta.read_text())
    except (OSError, ValueError):
        have = None
    if not isinstance(have, dict) or have.get("tool") != "belote-analyzer":
        raise BeloteError(f"--resume: {meta} is not a run record of belote-analyzer")
    if have.get("format") != RUN_FORMAT:
        raise BeloteError(f"--resume: {folder} was recorded by an earlier belote-analyzer, which did not bind its "
                          f"batches to the code that ran them: start the run again in a new --run-dir")
    if have.get("code") != code_digest():
        raise BeloteError(f"--resume: {folder} was recorded by other code or data (digest {have.get('code')}, this "
                          f"install's {code_digest()}: a git pull, an edit or belote learn --write since): its batches "
                          f"would mix two versions' players; start the run again in a new --run-dir")
    if have.get("command") != command:
        raise BeloteError(f"--run-dir {folder} holds a '{have.get('command')}' run, not '{command}'")
    diff = _differing(have.get("inputs", {}), inputs)
    if diff:
        k, was, now = diff
        raise BeloteError(f"--run-dir {folder} was written with {k}={json.dumps(was)}, not {json.dumps(now)}: "
                          f"rerun with the same inputs or choose another --run-dir")


def _start_run(folder, command: str, inputs: dict) -> None:
    """A new run: the (locked) folder must be empty; run.json is written whole or not at all."""
    if any(folder.iterdir()):
        raise BeloteError(f"--run-dir {folder} is not empty: add --resume to continue its run, or choose a new folder")
    meta = folder / RUN_FILE
    tmp = meta.with_suffix(".tmp")
    try:
        with _removed_unless_renamed(tmp):
            tmp.write_text(json.dumps({"tool": "belote-analyzer", "format": RUN_FORMAT, "command": command,
                                       "code": code_digest(), "inputs": inputs}, indent=1) + "\n")
            os.replace(tmp, meta)
    except OSError as e:
        raise BeloteError(f"--run-dir: cannot write {meta} ({e.strerror or e}): choose a writable folder") from None


@contextmanager
def recording(folder, resume: bool, command: str, inputs: dict):
    """The backend in use, its batches recorded in ``folder`` (``--run-dir``) for the
    ``with`` block, the folder locked against a second run. A new run needs a new or empty
    folder; ``resume`` continues the run a folder holds and refuses one written by another
    command or other inputs (naming the first input that differs) or holding any batch file
    that does not verify (naming the file)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise BeloteError(f"--run-dir {folder} is a file: give a folder (a new or empty one to start a run, "
                          f"or with --resume the folder of the run to continue)")
    if resume and not (folder / RUN_FILE).is_file():
        raise BeloteError(f"--resume: {folder} holds no run to continue (no {RUN_FILE}); drop --resume to start one")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BeloteError(f"--run-dir: cannot create {folder} ({e.strerror or e}): choose a writable place") from None
    with _locked(folder):
        if resume:
            _check_run(folder, command, inputs)
        else:
            _start_run(folder, command, inputs)
        try:
            (folder / _BATCHES).mkdir(exist_ok=True)
        except OSError as e:
            raise BeloteError(f"--run-dir: {folder / _BATCHES} must be a writable folder ({e.strerror or e})") from None
        _check_batches(folder)
        with use(RecordingBackend(current(), folder)) as b:
            yield b
            b.check_complete()
