"""CPU work spread over every core: drawing previews, reading colours, drawing demo files.

Workers are forked, so they start in milliseconds with the code already loaded. They
must only compute: the parent's database and cache connections are copied into them
and must stay untouched there, which is why the functions given here take bytes or
plain values and return them.
"""

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

# prctl(2): the signal a process gets when its parent dies (Linux).
PR_SET_PDEATHSIG = 1

T = TypeVar("T")
R = TypeVar("R")


def workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _die_with(parent: int) -> None:
    """A worker ends with the process that forked it, even one killed with kill -9: left
    alone it would wait for work for ever."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # already gone before the call above
        os._exit(1)


def worker_pool(count: int) -> ProcessPoolExecutor:
    """`count` forked workers, which end with this process."""
    return ProcessPoolExecutor(
        max_workers=count,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_die_with,
        initargs=(os.getpid(),),
    )


def parallel_map(
    function: Callable[[T], R], items: Iterable[T], *, window: int = 64
) -> Iterator[tuple[T, R]]:
    """(item, function(item)) for each item, in order, computed in worker processes.

    At most `window` items are in flight, so an endless iterable is fine and memory
    stays bounded. A worker's exception is raised here for its item. With one core the
    work is done in this process.
    """
    count = workers()
    if count < 2:
        for item in items:
            yield item, function(item)
        return
    with worker_pool(count) as pool:
        pending: deque = deque()
        for item in items:
            pending.append((item, pool.submit(function, item)))
            if len(pending) >= window:
                done, future = pending.popleft()
                yield done, future.result()
        while pending:
            done, future = pending.popleft()
            yield done, future.result()
