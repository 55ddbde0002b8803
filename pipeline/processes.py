"""Worker processes: how many a command keeps busy, and that they end with the process that
started them."""

from __future__ import annotations

import os
import signal


def default_workers() -> int:
    """Every core this process may run on."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def die_with_parent(signum: int = signal.SIGKILL) -> None:
    """Linux: this process gets `signum` when the one that started it ends, even by SIGKILL,
    so that nothing waits forever for a parent that is gone. SIGKILL by default: a SIGTERM
    that relic's caller ignores stays ignored in its children. (A no-op elsewhere.)"""
    import contextlib
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signum))  # PR_SET_PDEATHSIG
