"""Attack: the kernel's wider surface. At its second decision it makes every
system call the box's filter denies (arena.bots.seccomp.DENIED), and one
through the x32 ABI, each with arguments that make it fail harmlessly
(EFAULT, EINVAL, EBADF...) where nothing filters it; it writes what each
returned on stderr (``syscall NAME: ERRNO``, or ``0`` for a success), then
forfeits. ``syscalls.py --probe`` makes the calls and exits, for a box
without the filter.

It succeeds if any call returned something other than what the filter
returns for it (EPERM; ENOSYS for clone3; EAFNOSUPPORT for socket)."""

import ctypes
import errno
import platform
import sys

from _zoo import FORFEIT, report, run

# The calls' numbers (libseccomp's, checked by tests/test_seccomp.py).
NUMBERS = {
    "x86_64": {"add_key": 248, "keyctl": 250, "request_key": 249, "ptrace": 101, "perf_event_open": 298,
               "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
               "bpf": 321, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "open_tree": 428,
               "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
               "mount_setattr": 442, "unshare": 272, "setns": 308, "clone": 56, "clone3": 435, "kexec_load": 246,
               "kexec_file_load": 320, "init_module": 175, "finit_module": 313, "delete_module": 176,
               "personality": 135, "socket": 41, "syslog": 103, "acct": 163, "quotactl": 179, "uselib": 134,
               "modify_ldt": 154, "move_pages": 279, "mbind": 237, "get_mempolicy": 239, "set_mempolicy": 238,
               "migrate_pages": 256, "getpid": 39},
    "aarch64": {"add_key": 217, "keyctl": 219, "request_key": 218, "ptrace": 117, "perf_event_open": 241,
                "userfaultfd": 282, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
                "bpf": 280, "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51, "open_tree": 428,
                "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
                "mount_setattr": 442, "unshare": 97, "setns": 268, "clone": 220, "clone3": 435, "kexec_load": 104,
                "kexec_file_load": 294, "init_module": 105, "finit_module": 273, "delete_module": 106,
                "personality": 92, "socket": 198, "syslog": 116, "acct": 89, "quotactl": 60, "move_pages": 239,
                "mbind": 235, "get_mempolicy": 236, "set_mempolicy": 237, "migrate_pages": 238, "getpid": 172},
}
CLONE_THREAD = 0x10000  # without CLONE_SIGHAND: EINVAL before anything else looks at the flags
NAMESPACES = {"newns": 0x20000, "newcgroup": 0x2000000, "newuts": 0x4000000, "newipc": 0x8000000,
              "newuser": 0x10000000, "newpid": 0x20000000, "newnet": 0x40000000}
AF_PACKET, SOCK_RAW = 17, 3
X32_SYSCALL_BIT = 0x40000000
EXPECTED = {"clone3": "ENOSYS", "socket": "EAFNOSUPPORT"}

# Each call's arguments: ones that fail without doing anything, unfiltered.
ARGUMENTS = {
    "ptrace": (0xFFFF, 0x7FFFFFFF),  # no such request, no such process
    "keyctl": (0xFFFF,),  # no such operation
    "userfaultfd": (0x3,),  # user-mode only (allowed to anyone) and an unknown flag
    "io_uring_setup": (1, 0),  # no parameters
    "io_uring_enter": (-1,),
    "io_uring_register": (-1,),
    "bpf": (0xFFFF, 0, 0),  # no such command
    "unshare": (0x1,),  # not a flag unshare takes
    "setns": (-1, 0),
    "fsconfig": (-1, 0xFFFF),
    "mount_setattr": (-1, 0, 0xFFFFFFFF),
    "clone3": (0, 0),  # too small to be a struct clone_args
    "personality": (0x0040000,),  # ADDR_NO_RANDOMIZE: it would succeed
    "socket": (AF_PACKET, SOCK_RAW, 0),  # needs CAP_NET_RAW: EPERM without the filter
    "syslog": (3, 0, -1),
    "quotactl": (0, 0, 0, 0),
    "modify_ldt": (99, 0, 0),  # no such function
    "move_pages": (0, 1, 0, 0, 0, 0xFF),  # unknown flags
    "mbind": (1, 4096, 0, 0, 0, 0),  # an address not on a page
    "get_mempolicy": (0, 0, 0, 0, 0xFF),  # unknown flags
    "set_mempolicy": (0xFF, 0, 0),  # no such mode
    "migrate_pages": (0x7FFFFFFF, 0, 0, 0),  # no such process
}


def call(libc, number, arguments):
    """What the call returned: 0 for a success, else its errno's name."""
    arguments = [ctypes.c_long(value) for value in arguments] + [ctypes.c_long(0)] * (6 - len(arguments))
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *arguments)
    return "0" if result != -1 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def results():
    """Each call's name and what it returned."""
    libc = ctypes.CDLL(None, use_errno=True)
    numbers = NUMBERS[platform.machine()]
    found = {}
    for name, number in numbers.items():
        if name == "getpid":
            continue
        if name == "clone":
            for flag_name, flag in NAMESPACES.items():
                found[f"clone({flag_name})"] = call(libc, number, (flag | CLONE_THREAD, 0, 0, 0, 0))
        else:
            found[name] = call(libc, number, ARGUMENTS.get(name, ()))  # no arguments: null pointers
    if platform.machine() == "x86_64":
        found["x32 getpid"] = call(libc, X32_SYSCALL_BIT | numbers["getpid"], ())
    return found


def attack(message):
    found = results()
    for name, result in found.items():
        sys.stderr.write(f"syscall {name}: {result}\n")
    report("syscalls", [f"{name}: {result}" for name, result in found.items()
                        if result != EXPECTED.get(name.split("(")[0], "EPERM")])
    return FORFEIT


if sys.argv[1:] == ["--probe"]:
    for name, result in results().items():
        print(f"syscall {name}: {result}")
else:
    run("syscalls", attack)
