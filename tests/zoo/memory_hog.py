"""Tries to allocate far more memory than allowed at its second decision:
64 MiB at a time, every page touched, kept for ever. The address-space limit
makes an allocation fail (MemoryError, exit code 1) long before the machine
notices."""

from _zoo import run

CHUNK = 64 << 20
PAGE = 4096


def hog(message):
    kept = []
    while True:
        chunk = bytearray(CHUNK)
        chunk[::PAGE] = b"\x01" * (CHUNK // PAGE)
        kept.append(chunk)


run("memory_hog", hog)
