#!/usr/bin/env python3
"""headless.py — one page of a web app in headless Chromium, captured once it shows a text.

Usage: headless.py --chrome BIN --profile DIR --url URL --text TEXT --html OUT --png OUT [--timeout S] [--regex]
                   [--absent REGEX]
(--regex: TEXT is a JavaScript regular expression the page's HTML must match; --absent: the page
counts as showing TEXT only while its HTML does not also match REGEX, e.g. a placeholder that
some parts of the page still show)
Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ended
by NUL on file descriptors 3 and 4, no extra library): opens URL, polls the page's HTML until it
contains TEXT (real time, up to --timeout seconds, default 120), then writes the HTML that matched
(taken by the same evaluation, as the page redraws on its own timers) and a screenshot. Exit 0 when TEXT appeared, 1 when it
did not (HTML and screenshot are written anyway), 2 when Chromium could not be driven.
"""
import argparse
import base64
import json
import os
import select
import subprocess
import sys
import time


class Browser:
    def __init__(self, chrome, profile, deadline):
        self.deadline = deadline
        spare = [os.open(os.devnull, os.O_RDONLY) for _ in range(3)]   # keep the pipes above fd 4
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        for f in spare:
            os.close(f)

        def child():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        self.proc = subprocess.Popen(
            [chrome, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--user-data-dir=" + profile,
             "--window-size=1400,1000", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child, pass_fds=(3, 4))
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                left = self.deadline - time.time()
                if left <= 0 or not select.select([self.from_r], [], [], left)[0]:
                    raise TimeoutError(method)
                chunk = os.read(self.from_r, 1 << 16)
                if not chunk:
                    raise EOFError("Chromium closed the pipe")
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            m = json.loads(raw)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})

    def close(self):
        try:
            os.write(self.to_w, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def main():
    ap = argparse.ArgumentParser()
    for k in ("chrome", "profile", "url", "text", "html", "png"):
        ap.add_argument("--" + k, required=True)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--regex", action="store_true")
    ap.add_argument("--absent")
    a = ap.parse_args()
    deadline = time.time() + a.timeout + 60          # start-up and captures on a loaded machine
    b = Browser(a.chrome, a.profile, deadline)
    found = False
    try:
        page = next(t for t in b.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        s = b.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        b.call("Page.navigate", {"url": a.url}, s)
        want = json.dumps(a.text)
        until = time.time() + a.timeout
        # the HTML is taken by the same evaluation that tests it: the page redraws on its own
        # timers, and a later capture may show a state the test never saw
        test = ("new RegExp(%s).test(h)" if a.regex else "h.includes(%s)") % want
        if a.absent:
            test += " && !new RegExp(%s).test(h)" % json.dumps(a.absent)
        probe = "(() => { const h = document.documentElement.outerHTML; return (%s) ? h : null; })()" % test
        html = None
        while time.time() < until:
            r = b.call("Runtime.evaluate", {"expression": probe, "returnByValue": True}, s)
            v = r.get("result", {}).get("value")
            if isinstance(v, str):
                found = True
                html = v
                break
            time.sleep(0.5)
        if html is None:
            time.sleep(1)
            html = b.call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                               "returnByValue": True}, s)["result"]["value"]
        with open(a.html, "w") as f:
            f.write(html)
        png = b.call("Page.captureScreenshot", {"format": "png"}, s)["data"]
        with open(a.png, "wb") as f:
            f.write(base64.b64decode(png))
    except (TimeoutError, EOFError, RuntimeError, StopIteration, KeyError) as e:
        sys.stderr.write("headless.py: %s: %r\n" % (a.url, e))
        return 2
    finally:
        b.close()
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
