#!/usr/bin/env python3
"""measure.py CMD...: runs CMD, prints 'wall_s cpu_s maxrss_kb' of it (children's rusage)."""
import resource, subprocess, sys, time
t0 = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if r.returncode != 0:
    sys.exit(f"command failed ({r.returncode}): {' '.join(sys.argv[1:])}")
print(f"{wall:.3f} {ru.ru_utime + ru.ru_stime:.3f} {ru.ru_maxrss}")
