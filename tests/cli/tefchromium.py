#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tefchromium.py - load a --perfetto trace into headless Chromium's own
# trace importer: the trace engine of its bundled DevTools (the Performance
# panel's, models/trace), which reads Trace Event Format JSON. Driven over
# the DevTools protocol on a pipe (--remote-debugging-pipe: file
# descriptors 3 and 4, NUL-terminated JSON), so only the standard library
# is needed and nothing listens on a port. chrome://tracing, the older
# viewer, is gone from this Chromium (it is not among chrome://chrome-urls).
#
# usage: tefchromium.py TRACE
# Prints one line per thread the importer made, "PID<TAB>TID<TAB>NAME<TAB>SLICES",
# after a first line "processes<TAB>NAME,...". Exit 0 when the import
# succeeded, 1 with the error on stderr otherwise, 77 when Chromium or its
# DevTools trace engine cannot be run here.
import json
import os
import select
import subprocess
import sys
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--remote-debugging-pipe"]
PAGE = "devtools://devtools/bundled/trace_app.html"

IMPORT = """(async () => {
  const T = await import("./models/trace/trace.js");
  const model = T.TraceModel.Model.createWithAllHandlers();
  await model.parse(window.ljTrace.traceEvents, {metadata: {}, isFreshRecording: false});
  const d = model.parsedTrace(0).data;
  const threads = [];
  for (const [pid, proc] of d.Renderer.processes)
    for (const [tid, th] of proc.threads)
      threads.push([pid, tid, th.name || "", (th.entries || []).length]);
  const procs = [...d.Meta.processNames.values()].map(e => e.args.name);
  return JSON.stringify({procs, threads});
})()"""


class Browser:
    def __init__(self, binary):
        self.udd = tempfile.mkdtemp(prefix="ljtef-")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def fds():
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.proc = subprocess.Popen([binary] + FLAGS + ["--user-data-dir=" + self.udd, "about:blank"],
                                     preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf, self.id = b"", 0

    def call(self, method, params=None, session=None, timeout=60):
        self.id += 1
        msg = {"id": self.id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        end = time.time() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self.id:
                    if "error" in reply:
                        raise RuntimeError("%s: %s" % (method, reply["error"]))
                    return reply["result"]
            if time.time() > end or not select.select([self.from_r], [], [], end - time.time())[0]:
                raise TimeoutError(method)
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium exited")
            self.buf += chunk

    def evaluate(self, session, expr, timeout=60):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True},
                      session, timeout)
        if "exceptionDetails" in r:
            raise RuntimeError(r["exceptionDetails"].get("exception", {}).get("description", str(r)))
        return r["result"].get("value")

    def close(self):
        self.proc.kill()
        self.proc.wait()
        subprocess.run(["rm", "-rf", self.udd])


def main():
    binary = next((b for b in ("chromium", "chromium-browser") if any(
        os.access(os.path.join(d, b), os.X_OK) for d in os.environ.get("PATH", "").split(":"))), None)
    if not binary:
        print("no chromium", file=sys.stderr)
        return 77
    trace = open(sys.argv[1]).read()
    b = Browser(binary)
    try:
        target = b.call("Target.createTarget", {"url": PAGE})["targetId"]
        session = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for _ in range(300):
            if b.evaluate(session, "document.readyState") == "complete":
                break
            time.sleep(0.1)
        if b.evaluate(session, "location.href") != PAGE:
            print("the DevTools page did not load", file=sys.stderr)
            return 77
        b.evaluate(session, "window.ljTrace = %s; 0" % trace)
        try:
            out = json.loads(b.evaluate(session, IMPORT, timeout=120))
        except RuntimeError as e:
            if "Failed to fetch dynamically imported module" in str(e):
                print("no DevTools trace engine in this Chromium: %s" % e, file=sys.stderr)
                return 77
            raise
    except (RuntimeError, TimeoutError, OSError) as e:
        print("import failed: %s" % e, file=sys.stderr)
        return 1
    finally:
        b.close()
    print("processes\t" + ",".join(out["procs"]))
    for pid, tid, name, n in out["threads"]:
        print("%d\t%d\t%s\t%d" % (pid, tid, name, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
