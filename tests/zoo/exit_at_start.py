"""Exits at start, before the hello, with code 3."""

import os
import sys

sys.stderr.write(f"zoo exit_at_start pid {os.getpid()} run {os.urandom(4).hex()} started\n")
sys.exit(3)
