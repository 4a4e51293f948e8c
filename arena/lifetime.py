"""No process that arena forks outlives it: every child of a fork dies,
SIGKILL from the kernel, when the thread that forked it ends, the whole
process with it (a crash, the OOM killer, ``kill -9``).

The tie is made in the child by a fork hook (``os.register_at_fork``), before
fork returns there: before multiprocessing's bootstrap, before any lock the
child inherited from its parent's other threads can be waited on. Then the
child checks that its parent is still the process that forked it: one that
died in between sent no signal, and the child leaves at once. Death is
SIGKILL, which runs nothing in the child (no handler, no exit hook that could
wait for a lock held by a thread that was not forked with it) and ends a
stopped process too. The executor's workers have nothing to clean up for it:
each bot's warden dies with the worker that started it, and kills the bot
(arena.bots.warden).

Every pool of processes arena runs takes its context from ``fork_context``.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.context
import os
import signal

PR_SET_PDEATHSIG = 1  # prctl(2)

_forker = 0  # the process about to fork, as the child must find it
_prctl = None  # libc's, loaded before the first fork: the child only calls it


def fork_context() -> multiprocessing.context.ForkContext:
    """multiprocessing's fork context, each process it (or anything else in
    this process) forks from now on bound to die with its parent."""
    global _prctl
    if _prctl is None:
        _prctl = ctypes.CDLL(None).prctl
        os.register_at_fork(before=_note_forker, after_in_child=_die_with_forker)
    return multiprocessing.get_context("fork")


def _note_forker() -> None:
    global _forker
    _forker = os.getpid()


def _die_with_forker() -> None:
    """In the child, first thing: SIGKILL when its parent's forking thread
    ends; and leave now if the parent is already gone."""
    assert _prctl is not None
    if _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != _forker:
        os._exit(1)
