#!/usr/bin/env python3
"""bench/peer/flink.py — real Flink (the version in FLINK_VERSION) as the peer of weir's benchmarks.

Contract: one local Flink session cluster (tests/flink/flinkctl.py: a JobManager and one TaskManager
with 4 slots and 2048m process memory (start --tm-memory: another size), on free loopback ports, in a private run folder) is started
once per benchmark run; each job is submitted with Flink's own SQL client (`bin/sql-client.sh -i
init -f job`, with 'table.dml-sync' so the client returns when the job has finished). The figures of
one job:
  - cpu_s: user+system CPU seconds of the TaskManager and JobManager processes (all their threads,
    /proc/<pid>/stat) from the moment the job is first listed by the REST API until the client
    returns. JVM start-up of the cluster is outside (it is started before and reported by `start`),
    and so is the client's own JVM (start-up, parsing, planning, submission: reported as client_s).
  - wall_s: the job's duration as Flink's REST API reports it (scheduled to finished).
  - rss_kb: the TaskManager's peak resident set during the job (VmHWM, reset before the job
    through /proc/<pid>/clear_refs).
CLI:
  flink.py start --run-dir D [--tm-memory 8g] [--conf KEY=VALUE]...
                                      start the cluster; prints 'startup_s' (wall seconds until ready)
  flink.py stop --run-dir D
  flink.py run --run-dir D -i init.sql -f job.sql [--log F]
      prints 'ok cpu_s wall_s rss_kb client_s' or 'FAILED <reason>' (exit status 0 either way; 2 on
      misuse or when the cluster is not running).
"""
import argparse
import glob
import os
import re
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "flink"))
import flinkctl  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cluster_pids(run):
    """(taskmanager pid, jobmanager pid) from the cluster's pid folder."""
    def one(kind):
        for f in glob.glob(os.path.join(run.info["pid"], "flink-*-%s.pid" % kind)):
            with open(f) as fh:
                for line in fh:
                    if line.strip().isdigit() and os.path.exists("/proc/%s" % line.strip()):
                        return int(line.strip())
        return None
    return one("taskexecutor"), one("standalonesession")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK     # utime, stime (fields 14, 15)


def peak_rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def job_ids(run):
    st, r = run.rest("/jobs/overview")
    if st != 200:
        raise RuntimeError("REST /jobs/overview answered %s" % st)
    return {j["jid"]: j for j in r.get("jobs", [])}


def failure_reason(out):
    """The first line after Flink's client '[ERROR] ... Reason:' (the cause a user reads)."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", l) for l in out.splitlines()]
    for i, l in enumerate(lines):
        if l.startswith("[ERROR]"):
            for nxt in lines[i + 1:i + 4]:
                if nxt.strip() and not nxt.startswith("Reason"):
                    return nxt.strip()[:200]
            return l[:200]
    return ""


def run_job(run, init, job, log):
    tm, jm = cluster_pids(run)
    if not tm or not jm:
        return "FAILED no TaskManager/JobManager process in %s" % run.info["pid"]
    before = set(job_ids(run))
    try:
        with open("/proc/%d/clear_refs" % tm, "w") as f:
            f.write("5")                                  # reset the peak RSS (VmHWM)
    except OSError:
        pass
    result = {}
    t0 = time.monotonic()
    th = threading.Thread(target=lambda: result.update(
        r=run.sql_client(os.path.abspath(job), os.path.abspath(init), timeout=3600)))
    th.start()
    cpu0, jid = None, None
    while th.is_alive() and jid is None:                  # the job appears: CPU counting starts
        new = [j for j in job_ids(run) if j not in before]
        if new:
            jid = new[0]
            cpu0 = cpu_seconds(tm) + cpu_seconds(jm)
            break
        time.sleep(0.05)
    th.join()
    client_s = time.monotonic() - t0
    cpu1 = cpu_seconds(tm) + cpu_seconds(jm)
    st, out, err = result["r"]
    if log:
        with open(log, "w") as f:
            f.write(out + err)
    reason = failure_reason(out)
    if reason or st != 0:
        return "FAILED " + (reason or "exit status %d" % st)
    if jid is None:                                       # finished between two polls
        new = [j for j in job_ids(run) if j not in before]
        if not new:
            return "FAILED no job was submitted"
        return "FAILED the job finished before it could be measured (too few events)"
    j = job_ids(run)[jid]
    if j.get("state") != "FINISHED":
        return "FAILED job state %s" % j.get("state")
    wall = j.get("duration", 0) / 1000.0
    return "ok %.3f %.3f %d %.3f" % (cpu1 - cpu0, wall, peak_rss_kb(tm), client_s - wall)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cmd", choices=["start", "stop", "run"])
    ap.add_argument("--run-dir", required=True)
    ap.add_argument("-i", dest="init")
    ap.add_argument("-f", dest="job")
    ap.add_argument("--log")
    ap.add_argument("--tm-memory", default="2048m",
                    help="the TaskManager's taskmanager.memory.process.size (default 2048m)")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                    help="more Flink configuration for start (repeatable)")
    a = ap.parse_args()
    run = flinkctl.FlinkRun(a.run_dir)
    if a.cmd == "start":
        t0 = time.monotonic()
        conf = dict(kv.split("=", 1) for kv in a.conf if "=" in kv)
        if not run.start(tm_memory=a.tm_memory, extra_conf=conf):
            return flinkctl.SKIP if run.info is None else 1
        print("%.1f" % (time.monotonic() - t0))
        return 0
    if a.cmd == "stop":
        run.stop()
        return 0
    if not (a.init and a.job):
        ap.error("run needs -i init.sql and -f job.sql")
    if not run.running():
        sys.stderr.write("no Flink cluster in %s (start it first)\n" % a.run_dir)
        return 2
    print(run_job(run, a.init, a.job, a.log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
