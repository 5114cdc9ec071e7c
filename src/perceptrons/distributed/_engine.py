"""The Dask client a distributed fit runs on: one given, one at an address, or a LocalCluster
started for the fit and closed after it (also on an error or Ctrl-C)."""

import contextlib
import logging
import os
import re
import tempfile
import warnings

from perceptrons._core.errors import PerceptronsError
from perceptrons.distributed._inputs import check_n_workers, require_dask
from perceptrons.io.atomic import cleanup_on_signals


class SchedulerUnreachable(PerceptronsError):
    """The scheduler at the address given does not answer."""


class WorkerLostWarning(UserWarning):
    """A worker was lost during a fit and restarted, its shards sent again: the fit's result
    is unchanged (each epoch's tasks are pure), but the user may want to know.  Dask's own
    records of it go to the ``perceptrons.distributed`` logger, not to the terminal."""


#: where Dask's records go while a fit runs: silent unless the user configures logging
LOG = logging.getLogger("perceptrons.distributed")
LOG.addHandler(logging.NullHandler())


#: seconds to wait for a scheduler given by address before saying it is unreachable
CONNECT_TIMEOUT = 10


@contextlib.contextmanager
def connect(client=None, n_workers=None, dashboard=False):
    """Yield a ``distributed.Client``.

    ``client`` may be a Client (used as is, left open), a scheduler address such as
    ``"tcp://host:8786"`` (connected to, then disconnected), or None: a ``LocalCluster`` of
    ``n_workers`` single-threaded worker *processes* (default: the machine's cores) is started
    and closed afterwards.  Processes, not threads, so that each worker has its own interpreter
    and what goes to a worker really goes through pickling, as on a cluster.  The dashboard is
    off unless ``dashboard`` is true (then on Dask's default port, or ``dashboard`` as an address).
    """
    distributed = require_dask()
    if isinstance(client, distributed.Client):
        yield client
        return
    if client is not None:
        if not isinstance(client, str):
            raise PerceptronsError(f"client must be a dask.distributed.Client or a scheduler address; got {client!r}")
        with _quiet(), _connected(distributed, client) as c:
            yield c
        return
    n = _n_workers(n_workers)
    address = (dashboard if isinstance(dashboard, str) else ":8787") if dashboard else None
    # SIGTERM and SIGHUP close the cluster as Ctrl-C does (killed on the spot, the command left
    # its workers' semaphores to the resource tracker's warning, and their scratch directories);
    # the scratch directory is the fit's own, removed with it (Dask leaves its lock files in the
    # system's temporary directory even after a clean close)
    with _quiet(), cleanup_on_signals(), _scratch():
        with _sigint_held() as replay:
            cluster = distributed.LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=address,
                # without a dashboard the scheduler still serves HTTP (health checks), by default
                # on the dashboard's port 8787: a second cluster on the machine warned of a clash
                scheduler_kwargs=None if address else {"dashboard_address": ":0"},
            )
            with cluster, distributed.Client(cluster) as c:
                replay()
                c.run(_quiet_worker_logs)
                yield c


@contextlib.contextmanager
def _scratch():
    """Dask's scratch space (the scheduler's, the nannies' and the workers' directories and lock
    files) in a temporary directory of the fit's own, removed after it."""
    import dask

    with tempfile.TemporaryDirectory(prefix="perceptrons-dask-", ignore_cleanup_errors=True) as scratch:
        with dask.config.set({"temporary-directory": scratch}):
            yield


@contextlib.contextmanager
def _connected(distributed, address):
    try:
        _handshake(distributed, address)
        c = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, MemoryError) as e:
        # MemoryError: a server that answers but is no Dask scheduler (an HTTP server, say): its
        # reply read as a message header declares exabytes
        raise SchedulerUnreachable(
            f"cannot reach the Dask scheduler at {address!r} within {CONNECT_TIMEOUT} s "
            f"({type(e).__name__}); is `dask scheduler` running there?"
        ) from None
    try:
        yield c
    finally:
        c.close()


def _handshake(distributed, address):
    """Connect to ``address`` once and exchange Dask's handshake, all within
    :data:`CONNECT_TIMEOUT`.

    ``Client(address, timeout=...)`` bounds the TCP connection but then waits for the
    scheduler's handshake without a deadline, so a server that accepts and stays silent (a
    stopped process whose port is still open, a firewall's tarpit) hung the fit forever.  The
    probe runs on an event loop of its own in a short-lived thread, so that it also works where
    the caller's thread already runs one (a notebook).
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    async def once():
        comm = await asyncio.wait_for(distributed.comm.connect(address, timeout=CONNECT_TIMEOUT), CONNECT_TIMEOUT)
        await comm.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, once()).result()


@contextlib.contextmanager
def _sigint_held():
    """Start the worker processes with SIGINT blocked, and hold a Ctrl-C typed meanwhile until
    the cluster is up: ``replay()``, called inside the cluster's ``with`` block, gives it to the
    handler that was there before (the command's flag, or Python's ``KeyboardInterrupt``), so
    that the cluster is closed in order on the way out.

    A terminal's Ctrl-C reaches the whole process group; workers killed by it would lose their
    shards while the client, which handles the interrupt, stops the fit and closes them.  A
    thread inherits the signal mask of the thread that starts it, and a process that of the
    thread that spawns it, across ``exec`` too: Dask's threads, started here, and the worker
    processes they spawn (those a nanny starts again later too) keep SIGINT blocked for good.
    The handler is the process's, so a Ctrl-C taken meanwhile by a thread started before (a
    BLAS pool's) reaches it too.  Ignoring SIGINT instead, as this did before, also kept it from
    the workers, but dropped a Ctrl-C typed in those seconds: the fit ran on and wrote its model.
    """
    import signal
    import threading
    from multiprocessing import resource_tracker

    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    # started before the mask: launching it unblocks SIGINT in the launching thread (CPython's
    # resource tracker unblocks rather than restoring the mask), which Dask's thread would pass on
    resource_tracker.ensure_running()
    hit = threading.Event()
    previous = signal.getsignal(signal.SIGINT)
    if previous is not None:  # None: a handler not set from Python, left alone
        signal.signal(signal.SIGINT, lambda signum, frame: hit.set())
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    done = False

    def replay():
        nonlocal done
        if done:
            return
        done = True
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending Ctrl-C reaches hit here
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if hit.is_set():
            signal.raise_signal(signal.SIGINT)

    try:
        yield replay
    finally:
        replay()


def _n_workers(n):

    return (os.cpu_count() or 1) if check_n_workers(n) is None else int(n)


def _quiet_worker_logs():
    """Run in each worker of a LocalCluster this module started: drop the log records of what
    the client reports itself, and send the others to the worker's :data:`LOG`, not to the
    terminal the worker shares with the command.

    * A heartbeat that found the scheduler gone.  Closing the cluster closes the workers before
      the scheduler, but on a loaded machine a worker's closing can outlast its wait, and its
      next heartbeat then meets a closed stream and logs the ``CommClosedError`` with its
      traceback, into the user's terminal, after Ctrl-C.  The scheduler of a cluster started
      here only goes away when this module closes it, or with the client, which then reports
      the failure itself.
    * A task that failed on bad data (a :class:`~perceptrons.PerceptronsError`): the client
      raises that error, whose one line the command shows; the worker's "Compute Failed" record
      would add its traceback above it.  The other workers' tasks are then cancelled as the
      cluster closes, and each would log that too.
    """

    for name in ("distributed.worker", "distributed.worker.state_machine"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _ReportedByClient) for f in logger.filters):
            logger.addFilter(_ReportedByClient())
    # and the rest go to the worker's own log, as the client's records go to its (a worker that
    # fetched a shard from one just lost logs "Worker stream died" on the terminal otherwise)
    for lg in [logging.getLogger("distributed"), *_dask_loggers_with_handlers()]:
        lg.handlers, lg.propagate = [_Forward()], False


class _ReportedByClient:
    """A logging filter: False for the worker's records of what the client reports itself."""

    def filter(self, record):
        message = record.getMessage()
        if message.startswith("Failed to communicate with scheduler during heartbeat"):
            return False  # logged only for an OSError, of which CommClosedError is one
        if message.startswith("Async instruction for") and message.endswith("ended with CancelledError"):
            return False  # a task cancelled by the cluster's closing, which this module asked for
        return not (message.startswith("Compute Failed") and re.search(r"\bPerceptrons\w*Error\(", message))


@contextlib.contextmanager
def _quiet():
    """Keep Dask's records out of the user's terminal while a fit runs: the start/stop chatter
    (INFO) is dropped, and the warnings and errors (a worker lost, its tasks recomputed, with
    timestamps) go to :data:`LOG` instead of Dask's own handler on standard error.  A lost
    worker is then told once, after the fit, as a :class:`WorkerLostWarning`.
    """
    forward = _Forward()
    # Dask's configuration gives "distributed" and some of its children (the client's) their
    # own handler on standard error, and stops them from propagating: each such one is swapped
    loggers = [logging.getLogger("distributed"), logging.getLogger("distributed.scheduler")]
    loggers += [logging.getLogger("distributed.nanny"), *_dask_loggers_with_handlers()]
    loggers = list(dict.fromkeys(loggers))
    saved = [(lg, lg.handlers[:], lg.propagate, lg.level) for lg in loggers]
    for lg in loggers:
        if lg.handlers or lg.name == "distributed":
            lg.handlers, lg.propagate = [forward], False
        lg.setLevel(max(lg.level, logging.WARNING))
    try:
        yield
    finally:
        for lg, handlers, propagate, level in saved:
            lg.handlers, lg.propagate = handlers, propagate
            lg.setLevel(level)
    if forward.lost:
        n = forward.lost
        warnings.warn(
            f"{n} worker{'s were' if n > 1 else ' was'} lost during the fit and restarted; {'their' if n > 1 else 'its'} shards "
            f"were sent again and the epochs since the client's last copy of the state run again, so the model is "
            f"unchanged (Dask's records: the "
            f"{LOG.name!r} logger)",
            WorkerLostWarning,
            stacklevel=3,
        )


def _dask_loggers_with_handlers():
    """The loggers of Dask's tree that have handlers of their own."""
    names = [n for n in list(logging.root.manager.loggerDict) if n.startswith("distributed.")]
    return [lg for lg in map(logging.getLogger, names) if lg.handlers]


class _Forward(logging.Handler):
    """Dask's records, passed on to :data:`LOG`; the workers they say were lost, counted."""

    def __init__(self):
        super().__init__()
        self.removed, self.restarts = set(), 0

    @property
    def lost(self):
        """How many workers were lost: the scheduler names each one removed with its data, the
        nanny (of a cluster started here) says each restart; one loss may give both records."""
        return max(len(self.removed), self.restarts)

    def emit(self, record):
        message = record.getMessage()
        found = re.match(r"Removing worker '([^']+)' caused the cluster to lose", message)
        if found:
            self.removed.add(found[1])
        elif message.startswith("Restarting worker"):
            self.restarts += 1
        LOG.handle(record)
