"""The system calls a bot may not make: the seccomp filter of its box.

bubblewrap loads the filter (``bwrap --seccomp FD``, the way Flatpak gives
it one) as the last thing before it runs the bot's command, so bubblewrap
itself still makes the box's namespaces and mounts. The filter lets every
call through but those of ``DENIED``: what no bot needs and what widens the
kernel's attack surface (the list is Flatpak's, less what a box without a
terminal or a network does not need, plus what the issue that asked for it
named). A denied call fails with ``EPERM``, as for a call the box has no
privilege for, rather than killing the bot: runtimes probe for features
(io_uring, say) and fall back when refused. Two calls fail otherwise, as
they do in Flatpak: ``clone3`` with ``ENOSYS`` (its flags lie in memory,
where a filter cannot read them; libc then falls back to ``clone``, whose
flags the filter checks), and ``socket`` of a family not allowed with
``EAFNOSUPPORT`` (as for a family this kernel lacks).

The filter is for the machine's own system-call ABI: a call through another
(i386 or x32 on x86_64, 32-bit Arm on aarch64), whose numbers mean other
calls, fails with ``EPERM`` whatever it is.

libseccomp compiles it (through pyseccomp, a ctypes binding of the C
library Debian ships as libseccomp2, which apt itself needs), once per
process; each bot gets the compiled program in a memory file of its own.
``DENIED`` is the one list: the documentation's table is generated from it
(docs/generate.py) and the tests make each call from a bot in its box.
"""

from __future__ import annotations

import errno
import functools
import os
import platform
from dataclasses import dataclass

from arena.errors import ArenaError

# A condition on one argument of a call, as libseccomp compares it:
# (argument index, operator, datum, second datum for a masked comparison).
Condition = tuple[int, str, int, int]

NAMESPACE_FLAGS = {"CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000, "CLONE_NEWUTS": 0x04000000,
                   "CLONE_NEWIPC": 0x08000000, "CLONE_NEWUSER": 0x10000000, "CLONE_NEWPID": 0x20000000,
                   "CLONE_NEWNET": 0x40000000}
SOCKET_FAMILIES = {"AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10, "AF_NETLINK": 16}
PER_LINUX = 0
# s390 passes clone's flags second (CONFIG_CLONE_BACKWARDS2); every other
# architecture first.
_CLONE_FLAGS = 1 if platform.machine().startswith("s390") else 0


@dataclass(frozen=True)
class Rule:
    """Calls a bot may not make, why, what they return instead, and when
    (always, unless ``conditions``: then whenever any one of them holds)."""

    calls: tuple[str, ...]
    why: str
    error: str = "EPERM"
    when: str = ""
    conditions: tuple[Condition, ...] = ()


def _families_refused() -> tuple[Condition, ...]:
    """socket()'s first argument outside SOCKET_FAMILIES (0, AF_UNSPEC, is
    refused by the kernel itself): the gaps between them, and above."""
    allowed = sorted(SOCKET_FAMILIES.values())
    gaps = [(0, "EQ", family, 0) for family in range(1, allowed[-1]) if family not in allowed]
    return (*gaps, (0, "GE", allowed[-1] + 1, 0))


DENIED: tuple[Rule, ...] = (
    Rule(("add_key", "keyctl", "request_key"),
         "the kernel's keyrings hold the secrets of every process of the user, and are a frequent source of "
         "kernel bugs"),
    Rule(("ptrace",), "tracing other processes: a bot has none to debug, and the call has a long history of "
         "kernel bugs"),
    Rule(("perf_event_open",), "profiling: perf has been the source of many kernel bugs"),
    Rule(("userfaultfd",), "page faults handled by the bot: the tool of choice for winning a kernel race"),
    Rule(("io_uring_setup", "io_uring_enter", "io_uring_register"),
         "io_uring: a second way to make system calls, which filters do not see, and many kernel bugs"),
    Rule(("bpf",), "programs loaded into the kernel"),
    Rule(("mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount", "fsopen", "fsconfig",
          "fsmount", "fspick", "mount_setattr"),
         "new mounts: the box's file system is made once, by bubblewrap"),
    Rule(("unshare", "setns"), "new namespaces, or joining others"),
    Rule(("clone",), "new namespaces", when="with a flag for a new namespace (" + ", ".join(NAMESPACE_FLAGS) + ")",
         conditions=tuple((_CLONE_FLAGS, "MASKED_EQ", flag, flag) for flag in NAMESPACE_FLAGS.values())),
    Rule(("clone3",), "its flags lie in memory, where the filter cannot see a new namespace; libc falls back "
         "to clone", error="ENOSYS"),
    Rule(("kexec_load", "kexec_file_load"), "loading another kernel"),
    Rule(("init_module", "finit_module", "delete_module"), "loading and unloading kernel modules"),
    Rule(("personality",), "execution domains and their quirks (no address randomisation, say)",
         when="to anything but PER_LINUX (0)", conditions=((0, "NE", PER_LINUX, 0),)),
    Rule(("socket",), "address families beyond these widen the kernel's attack surface (AF_ALG, AF_PACKET, "
         "AF_VSOCK...); the box has no network anyway", error="EAFNOSUPPORT",
         when="of a family but " + ", ".join(SOCKET_FAMILIES), conditions=_families_refused()),
    Rule(("syslog",), "reading the kernel's log"),
    Rule(("acct", "quotactl"), "process accounting and disk quotas"),
    Rule(("uselib",), "an obsolete way to load libraries"),
    Rule(("modify_ldt",), "16-bit code, a historic source of kernel information leaks"),
    Rule(("move_pages", "mbind", "get_mempolicy", "set_mempolicy", "migrate_pages"),
         "NUMA memory placement, a frequent source of kernel bugs"),
)


def denied_calls() -> list[str]:
    """Every call ``DENIED`` names, in its order."""
    return [call for rule in DENIED for call in rule.calls]


def _errno(name: str) -> int:
    return int(getattr(errno, name))


@functools.cache
def program() -> bytes:
    """The compiled filter (classic BPF, as the kernel loads it) for this
    machine's system-call ABI. Raises ArenaError, in one line, where
    libseccomp is missing."""
    try:
        import pyseccomp as scmp
    except ModuleNotFoundError as exc:  # a Python that has arena but not its dependencies
        raise ArenaError(f"cannot build the bots' system-call filter: {exc} (install arena with pip, "
                         "which brings it)") from None
    except (ImportError, RuntimeError, OSError) as exc:  # pyseccomp raises RuntimeError without the library
        raise ArenaError(f"cannot build the bots' system-call filter: {exc} (install libseccomp2: "
                         "apt-get install libseccomp2)") from None
    rules = scmp.SyscallFilter(scmp.ALLOW)
    # Another ABI's numbers mean other calls: refuse them all, as a denied call.
    rules.set_attr(scmp.Attr.ACT_BADARCH, scmp.ERRNO(errno.EPERM))
    for rule in DENIED:
        action = scmp.ERRNO(_errno(rule.error))
        for call in rule.calls:
            number = scmp.resolve_syscall(scmp.Arch.NATIVE, call)
            if number == -1:  # a call newer than this libseccomp; the kernel may have it all the same
                raise ArenaError(f"cannot build the bots' system-call filter: this libseccomp does not know "
                                 f"{call!r} (upgrade libseccomp2)")
            if not rule.conditions:
                rules.add_rule(action, number)
            for argument, operator, datum, second in rule.conditions:
                # Exactly: libseccomp must not rewrite a comparison (it would, for socket on i386).
                rules.add_rule_exactly(action, number, scmp.Arg(argument, getattr(scmp, operator), datum, second))
    fd = os.memfd_create("arena-seccomp-build")
    try:
        with os.fdopen(os.dup(fd), "wb") as sink:
            rules.export_bpf(sink)
        return os.pread(fd, os.fstat(fd).st_size, 0)
    finally:
        os.close(fd)


def program_file() -> int:
    """A file descriptor (a memory file, at its start, closed on exec)
    holding the compiled filter, for one bot's ``bwrap --seccomp FD``: pass
    it on with ``pass_fds``, and close it once bubblewrap has started."""
    fd = os.memfd_create("arena-seccomp")
    try:
        os.write(fd, program())
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd
