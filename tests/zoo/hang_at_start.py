"""Hangs at start-up: never answers hello."""

import os
import sys
import time

sys.stderr.write(f"zoo hang_at_start pid {os.getpid()} run {os.urandom(4).hex()} started\n")
sys.stderr.flush()
time.sleep(3600)
