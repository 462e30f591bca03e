#!/usr/bin/env python3
"""proxy.py — a logging HTTP proxy between a Flink client and a SQL gateway, so that the tests list
every endpoint Flink's own clients call and the status the gateway answered.

Usage: proxy.py --target PORT --port-file F --log L   listens on a free 127.0.0.1 port (written to F),
forwards each request to 127.0.0.1:PORT unchanged and appends "METHOD /path/with/ids/replaced STATUS"
to L (session, operation handles become :sh / :oh, result tokens :token). Runs until killed.
"""
import argparse
import http.client
import http.server
import re
import threading

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def shape(path):
    path = path.split("?", 1)[0]
    path = re.sub(r"/sessions/" + UUID.pattern, "/sessions/:sh", path)
    path = re.sub(r"/operations/" + UUID.pattern, "/operations/:oh", path)
    return re.sub(r"/result/\d+$", "/result/:token", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", type=int, required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    a = ap.parse_args()
    lock = threading.Lock()

    class H(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def forward(self):
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else None
            c = http.client.HTTPConnection("127.0.0.1", a.target, timeout=120)
            hdrs = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
            hdrs["Host"] = "127.0.0.1:%d" % a.target
            c.request(self.command, self.path, body=body, headers=hdrs)
            r = c.getresponse()
            data = r.read()
            with lock, open(a.log, "a") as f:
                f.write("%s %s %d\n" % (self.command, shape(self.path), r.status))
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
