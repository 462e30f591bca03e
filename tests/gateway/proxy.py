#!/usr/bin/env python3
"""proxy.py — a logging HTTP proxy between a Flink client and a SQL gateway, so that the tests list
every endpoint Flink's own clients call and the status the gateway answered.

Usage: proxy.py --target PORT --port-file F --log L [--query] [--static DIR]
listens on a free 127.0.0.1 port (written to F), forwards each request to 127.0.0.1:PORT unchanged
and appends "METHOD /path/with/ids/replaced STATUS" to L (session, operation handles become :sh /
:oh, result tokens :token; in Flink's REST paths job, vertex, trigger and task manager ids become
:jid, :vid, :triggerid, :tmid and checkpoint numbers :cid). --query keeps the query string in the
log. --static DIR answers a GET of a file under DIR itself ("/" = DIR/index.html; logged with the
prefix "static"): the web dashboard's files served beside the REST API they call. Runs until killed.
"""
import argparse
import http.client
import http.server
import mimetypes
import os
import re
import threading
import urllib.parse

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def shape(path):
    path = path.split("?", 1)[0]
    path = re.sub(r"/sessions/" + UUID.pattern, "/sessions/:sh", path)
    path = re.sub(r"/operations/" + UUID.pattern, "/operations/:oh", path)
    path = re.sub(r"/result/\d+$", "/result/:token", path)
    path = re.sub(r"/jobs/[0-9a-fA-F]{32}", "/jobs/:jid", path)
    path = re.sub(r"/vertices/[0-9a-fA-F]{32}", "/vertices/:vid", path)
    path = re.sub(r"/(savepoints|checkpoints|stop)/[0-9a-fA-F]{32}", r"/\1/:triggerid", path)
    path = re.sub(r"/checkpoints/details/\d+", "/checkpoints/details/:cid", path)
    return re.sub(r"/taskmanagers/[^/?]+", "/taskmanagers/:tmid", path)


def static_file(root, path):
    """The file under root a GET of path names, or None."""
    path = urllib.parse.unquote(path.split("?", 1)[0])
    rel = "index.html" if path in ("", "/") else path.lstrip("/")
    full = os.path.realpath(os.path.join(root, rel))
    if not full.startswith(os.path.realpath(root) + os.sep) or not os.path.isfile(full):
        return None
    return full


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", type=int, required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--query", action="store_true")
    ap.add_argument("--static")
    a = ap.parse_args()
    lock = threading.Lock()

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def log_call(self, prefix, status):
            shown = shape(self.path)
            if a.query and "?" in self.path:
                shown += "?" + self.path.split("?", 1)[1]
            with lock, open(a.log, "a") as f:
                f.write("%s%s %s %d\n" % (prefix, self.command, shown, status))

        def forward(self):
            f = static_file(a.static, self.path) if a.static and self.command == "GET" else None
            if f:
                with open(f, "rb") as fh:
                    data = fh.read()
                self.log_call("static ", 200)
                self.send_response(200)
                self.send_header("Content-Type", mimetypes.guess_type(f)[0] or "application/octet-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else None
            c = http.client.HTTPConnection("127.0.0.1", a.target, timeout=120)
            hdrs = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
            hdrs["Host"] = "127.0.0.1:%d" % a.target
            c.request(self.command, self.path, body=body, headers=hdrs)
            r = c.getresponse()
            data = r.read()
            self.log_call("", r.status)
            self.send_response(r.status)
            for k, v in r.getheaders():
                if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            c.close()

        do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = forward

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    with open(a.port_file, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
