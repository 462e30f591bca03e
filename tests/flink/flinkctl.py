#!/usr/bin/env python3
"""flinkctl.py — real Apache Flink beside weir: one Flink cluster (and its SQL gateway) on loopback
for a whole test run, and the ways tests talk to it.

Contract: `start` installs Flink (scripts/install-flink.sh, the version pinned in FLINK_VERSION),
writes a private configuration (free loopback ports, 4 task slots, private log and pid folders)
into the run folder, starts a JobManager, a TaskManager and the SQL gateway from the installed
distribution and waits until they answer; `stop` stops exactly those processes. Everything a test
needs afterwards is in <run>/flink.json (FLINK_HOME, FLINK_CONF_DIR, REST and gateway ports).
Exit status 77 (and the reason on stderr) when Flink cannot be installed here, so callers report
their suites as skipped rather than failed.

As a library: FlinkRun(run_dir) gives
  - sql_client(job, init=None, cwd=None) -> (exit status, stdout, stderr): Flink's own
    `bin/sql-client.sh [-i init] -f job` against the cluster (the transcript a user sees);
  - gateway(): a Gateway with open_session(conf) / execute(session, statement) returning
    ("ok", columns, rows-with-kinds) or ("error", message), through Flink's SQL Gateway REST API;
  - rest(path): a JSON response of the cluster's REST API.

CLI:  flinkctl.py start|stop|status --run-dir D
      flinkctl.py sql --run-dir D [-i init.sql] -f job.sql
      flinkctl.py exec --run-dir D -f job.sql     (each statement through the gateway, JSON lines)
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77


def flink_version():
    with open(os.path.join(ROOT, "FLINK_VERSION")) as f:
        return f.read().strip()


def install():
    """FLINK_HOME of the pinned release, installing it when needed; None (reason printed) when it
    cannot be installed here."""
    p = subprocess.run([os.path.join(ROOT, "scripts", "install-flink.sh")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        return None
    return p.stdout.strip().splitlines()[-1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_json(url, body=None, timeout=30):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, {"errors": [raw.decode(errors="replace")]}


def split_statements(text):
    """Statements of a script, split at ';' outside quotes and comments (as Flink's client)."""
    out, cur, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n:
                if text[j] == c:
                    if j + 1 < n and text[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            cur.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            cur.append(text[i:j])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            cur.append(text[i:j])
            i = j
        elif c == ";":
            s = "".join(cur).strip()
            if re.sub(r"--[^\n]*|/\*.*?\*/", "", s, flags=re.S).strip():
                out.append(s)
            cur = []
            i += 1
        else:
            cur.append(c)
            i += 1
    s = "".join(cur).strip()
    if re.sub(r"--[^\n]*|/\*.*?\*/", "", s, flags=re.S).strip():
        out.append(s)
    return out


def root_cause(errors):
    """The message a user reads from a gateway error: the last 'Caused by:' of the stack trace
    (Flink's client prints the same chain; the root is what tests compare)."""
    text = "\n".join(e for e in errors if isinstance(e, str))
    causes = re.findall(r"Caused by: ([^\n]*(?:\n(?!\s+at |\s*\.\.\. |Caused by:)[^\n]*)*)", text)
    msg = causes[-1] if causes else text.strip().splitlines()[0] if text.strip() else "unknown error"
    return re.sub(r"^[\w.$]+(?:Exception|Error): ", "", msg.strip())


class Gateway:
    def __init__(self, port):
        self.base = "http://127.0.0.1:%d/v3" % port

    def open_session(self, conf=None):
        st, r = http_json(self.base + "/sessions", {"properties": conf or {}})
        if st != 200:
            raise RuntimeError("gateway: cannot open a session: %s" % r)
        return r["sessionHandle"]

    def close_session(self, sess):
        req = urllib.request.Request(self.base + "/sessions/" + sess, method="DELETE")
        try:
            urllib.request.urlopen(req, timeout=30).read()
        except urllib.error.URLError:
            pass

    def execute(self, sess, statement, timeout=120):
        """('ok', columns, [(kind, [field strings or None])]) or ('error', message)."""
        st, r = http_json(self.base + "/sessions/%s/statements" % sess,
                          {"statement": statement})
        if st != 200:
            return ("error", root_cause(r.get("errors", [])))
        op = r["operationHandle"]
        uri = "/v3/sessions/%s/operations/%s/result/0?rowFormat=PLAIN_TEXT" % (sess, op)
        cols, rows, deadline = None, [], time.time() + timeout
        while uri:
            uri = re.sub(r"rowFormat=\w+", "rowFormat=PLAIN_TEXT", uri)
            st, r = http_json(self.base + uri[3:] if uri.startswith("/v") else self.base + uri,
                              timeout=timeout)
            if st != 200:
                return ("error", root_cause(r.get("errors", [])))
            res = r.get("results") or {}
            if res.get("columns") and cols is None:
                cols = [(c["name"], c["logicalType"]["type"]) for c in res["columns"]]
            for d in res.get("data", []):
                rows.append((d.get("kind", "INSERT"), d.get("fields", [])))
            if r.get("resultType") == "EOS":
                break
            uri = r.get("nextResultUri")
            if r.get("resultType") == "NOT_READY":
                if time.time() > deadline:
                    self._cancel(sess, op)
                    return ("error", "timed out after %d s" % timeout)
                time.sleep(0.05)
        return ("ok", cols or [], rows)

    def _cancel(self, sess, op):
        http_json(self.base + "/sessions/%s/operations/%s/cancel" % (sess, op), {})


class FlinkRun:
    def __init__(self, run_dir):
        self.run_dir = os.path.abspath(run_dir)
        self.info_path = os.path.join(self.run_dir, "flink.json")
        self.info = None
        if os.path.exists(self.info_path):
            with open(self.info_path) as f:
                self.info = json.load(f)

    # ------------------------------------------------------------------ lifecycle
    def env(self):
        e = dict(os.environ)
        e.update(FLINK_HOME=self.info["home"], FLINK_CONF_DIR=self.info["conf"],
                 FLINK_LOG_DIR=self.info["log"], FLINK_PID_DIR=self.info["pid"])
        return e

    def running(self):
        if not self.info:
            return False
        try:   # a JobManager that is still starting may accept the connection and answer late
            st, r = http_json("http://127.0.0.1:%d/overview" % self.info["rest_port"], timeout=10) \
                if self._port_open(self.info["rest_port"]) else (0, None)
        except (OSError, ValueError):
            return False
        return st == 200 and r.get("taskmanagers", 0) >= self.info.get("taskmanagers", 1) and \
            self._port_open(self.info["gateway_port"])

    @staticmethod
    def _port_open(port):
        with socket.socket() as s:
            s.settimeout(1)
            return s.connect_ex(("127.0.0.1", port)) == 0

    def start(self, taskmanagers=1, tm_memory="2048m", extra_conf=None):
        """Starts a JobManager, `taskmanagers` TaskManager processes (Flink's workers file, each
        with `tm_memory` of process memory) and the SQL gateway; True when they are up (or already
        were). extra_conf: more Flink configuration (key -> value), over the defaults below."""
        if self.running():
            return True
        home = install()
        if not home:
            return False
        os.makedirs(self.run_dir, exist_ok=True)
        conf, log, pid = (os.path.join(self.run_dir, d) for d in ("conf", "log", "pid"))
        for d in (conf, log, pid):
            os.makedirs(d, exist_ok=True)
        dist_conf = os.path.join(home, "conf")
        for name in os.listdir(dist_conf):
            if name != "config.yaml":
                with open(os.path.join(dist_conf, name), "rb") as src, \
                        open(os.path.join(conf, name), "wb") as dst:
                    dst.write(src.read())
        java_opts = ""
        with open(os.path.join(dist_conf, "config.yaml")) as f:
            m = re.search(r"^\s+all: (--add-exports.*)$", f.read(), re.M)
            java_opts = m.group(1) if m else ""
        rest, rpc, gw = free_port(), free_port(), free_port()
        settings = {
            # Flink's pekko.startup-timeout does not reach the classic remoting's own 10 s start-up
            # limit, which a loaded machine exceeds; Pekko reads that one from a system property
            "env.java.opts.all": (java_opts + " -Dpekko.remote.classic.startup-timeout=120s").strip(),
            "jobmanager.rpc.address": "localhost", "jobmanager.rpc.port": rpc,
            "jobmanager.bind-host": "localhost", "jobmanager.memory.process.size": "1600m",
            "taskmanager.bind-host": "localhost", "taskmanager.host": "localhost",
            "taskmanager.numberOfTaskSlots": 4, "taskmanager.memory.process.size": tm_memory,
            "parallelism.default": 1,
            "rest.address": "localhost", "rest.bind-address": "localhost", "rest.port": rest,
            "sql-gateway.endpoint.rest.address": "localhost",
            "sql-gateway.endpoint.rest.bind-address": "localhost",
            "sql-gateway.endpoint.rest.port": gw,
            "execution.checkpointing.interval": "0",
            "pekko.ask.timeout": "60 s",     # RPCs on a loaded machine (default 10 s)
            "io.tmp.dirs": os.path.join(self.run_dir, "tmp"),
            "web.tmpdir": os.path.join(self.run_dir, "tmp"),
        }
        settings.update(extra_conf or {})
        if taskmanagers > 1:
            # one slot per TaskManager: a job at parallelism N runs on N TaskManager processes
            # (with several slots each, Flink may place all subtasks of a job in one of them)
            settings["taskmanager.numberOfTaskSlots"] = 1
        os.makedirs(settings["io.tmp.dirs"], exist_ok=True)
        with open(os.path.join(conf, "config.yaml"), "w") as f:
            for k, v in settings.items():
                if k == "execution.checkpointing.interval":
                    continue
                f.write("%s: %s\n" % (k, json.dumps(v) if isinstance(v, str) else v))
        with open(os.path.join(conf, "workers"), "w") as f:
            f.write("localhost\n" * taskmanagers)
        self.info = dict(home=home, conf=conf, log=log, pid=pid, rest_port=rest, gateway_port=gw,
                         version=flink_version(), taskmanagers=taskmanagers)
        with open(self.info_path, "w") as f:
            json.dump(self.info, f, indent=1)
        env = self.env()
        subprocess.run([os.path.join(home, "bin", "start-cluster.sh")], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        subprocess.run([os.path.join(home, "bin", "sql-gateway.sh"), "start"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wait = int(os.environ.get("WEIR_FLINK_START_TIMEOUT", "300"))   # JVM start-up on a busy machine
        deadline = time.time() + wait
        while time.time() < deadline:
            if self.running():
                return True
            time.sleep(0.5)
        sys.stderr.write("flinkctl: Flink did not come up within %d s; logs in %s\n" % (wait, log))
        return False

    def stop(self):
        if not self.info:
            return
        env = self.env()
        home = self.info["home"]
        subprocess.run([os.path.join(home, "bin", "sql-gateway.sh"), "stop"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        subprocess.run([os.path.join(home, "bin", "stop-cluster.sh")], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    # ------------------------------------------------------------------ clients
    def sql_client(self, job, init=None, cwd=None, timeout=600):
        args = [os.path.join(self.info["home"], "bin", "sql-client.sh")]
        if init:
            args += ["-i", init]
        args += ["-f", job]
        env = self.env()
        env["HOME"] = os.path.join(self.run_dir, "home")   # the client's history file goes there
        os.makedirs(env["HOME"], exist_ok=True)
        try:
            p = subprocess.run(args, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "", "timed out after %d s\n" % timeout
        return (p.returncode, p.stdout.decode("utf-8", "replace"),
                p.stderr.decode("utf-8", "replace"))

    def gateway(self):
        return Gateway(self.info["gateway_port"])

    def rest(self, path):
        return http_json("http://127.0.0.1:%d%s" % (self.info["rest_port"], path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cmd", choices=["start", "stop", "status", "sql", "exec"])
    ap.add_argument("--run-dir", default=os.path.join(ROOT, "build-test", "flink-run"))
    ap.add_argument("-i", dest="init")
    ap.add_argument("-f", dest="job")
    ap.add_argument("--taskmanagers", type=int, default=1, help="start: TaskManager processes")
    a = ap.parse_args()
    run = FlinkRun(a.run_dir)
    if a.cmd == "start":
        if not run.start(a.taskmanagers):
            return SKIP if run.info is None else 1
        print(json.dumps(run.info))
        return 0
    if a.cmd == "stop":
        run.stop()
        return 0
    if a.cmd == "status":
        print("running" if run.running() else "stopped")
        return 0 if run.running() else 1
    if not run.running():
        sys.stderr.write("flinkctl: no Flink cluster in %s (flinkctl.py start first)\n" % a.run_dir)
        return 1
    if a.cmd == "sql":
        st, out, err = run.sql_client(a.job, a.init)
        sys.stdout.write(out)
        sys.stderr.write(err)
        return st
    gw = run.gateway()
    sess = gw.open_session()
    with open(a.job) as f:
        for stmt in split_statements(f.read()):
            r = gw.execute(sess, stmt)
            print(json.dumps({"statement": stmt, "result": r}, ensure_ascii=False))
    gw.close_session(sess)
    return 0


if __name__ == "__main__":
    sys.exit(main())
