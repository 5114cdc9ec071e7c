"""Reading blocks one ahead in a background thread: :class:`BlockReader` and the prefetch thread."""

import contextlib
import queue
import threading


class BlockReader:
    """The iterator :meth:`Cache.blocks` returns: blocks, and ``close()`` to stop early.

    Closing (explicitly, by ``with``, by leaving a ``for`` loop over it, or by garbage
    collection) stops the prefetch thread, waits for it, and closes the file.

    Parameters
    ----------
    generator : generator
        The blocks.
    """

    def __init__(self, generator):
        self._generator = generator

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._generator)

    def close(self):
        """Stop reading: end the prefetch thread and close the file."""
        self._generator.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_BLOCK, _END, _ERROR = "block", "end", "error"
#: how often a producer blocked on a full slot looks whether the consumer has gone
_POLL_SECONDS = 0.05


def _prefetched(records):
    """``records`` read one ahead by a background thread (double buffering).

    The slot holds one block: the thread reads (and checks) block k + 1 while the consumer
    works on block k, then waits.  When the consumer stops, for whatever reason, the ``finally``
    tells the thread to stop, frees the slot, and joins it before the caller closes the file.
    """
    slot = queue.Queue(maxsize=1)
    stop = threading.Event()
    thread = threading.Thread(
        target=_produce, args=(records, slot, stop), name="perceptrons-cache-prefetch", daemon=True
    )
    try:
        thread.start()
    except RuntimeError:  # no thread to be had (a process at its limit): read in this one
        yield from records
        return
    try:
        while True:
            kind, item = slot.get()
            if kind == _END:
                return
            if kind == _ERROR:
                raise item  # the thread's exception, with its traceback
            yield item
    finally:
        stop.set()
        with contextlib.suppress(queue.Empty):
            slot.get_nowait()  # a producer waiting on the full slot can finish now
        thread.join()


def _produce(records, slot, stop):
    try:
        for block in records:
            if not _offer(slot, (_BLOCK, block), stop):
                return
        _offer(slot, (_END, None), stop)
    except BaseException as exc:  # re-raised in the consumer, never lost in this thread
        _offer(slot, (_ERROR, exc), stop)
    finally:
        records.close()


def _offer(slot, item, stop):
    """Put ``item`` in the slot unless the consumer has stopped; whether it was put."""
    while not stop.is_set():
        try:
            slot.put(item, timeout=_POLL_SECONDS)
            return True
        except queue.Full:
            continue
    return False
