#!/usr/bin/env python3
"""Open a `geocampaign report` HTML page in headless Chromium and check it (issue 13).

The browser is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: no port,
no third-party package). Checks: no console error and no uncaught exception; no network request
of any kind (every request the page starts is recorded through Network.requestWillBeSent, and
Content-Security-Policy violations show as console errors); one SVG shape per region of every
campaign (the ids from `geocampaign regions --geojson`); per campaign the reach tables with a
row per rule and per offer, the decisions-per-day chart, and for a campaign with a goal the lift
table, the drawn 95% interval and, when enough_data is false, the words of measurement.md 3;
that the zoom buttons, a drag and the wheel change the map's viewBox and a click names the region
under it; that on a phone-sized screen the page does not
scroll sideways. Saves a laptop and a phone screenshot.

Usage:
  report_browser_check.py --chromium PATH --html FILE --regions GEOJSON --report JSON
                          [--screenshot PNG] [--phone-screenshot PNG]
  report_browser_check.py --chromium PATH --self-test
      proves the request detector: a page loading an image from 127.0.0.1 must be caught, with
      and without a Content-Security-Policy.
Prints one line per check and exits 0 only when all pass.
"""
import argparse, base64, fcntl, json, os, select, subprocess, sys, tempfile, time

TOO_FEW = "too few users to tell: at least 100 users and 25 conversions per group are needed"


class Browser:
    """Headless Chromium with the DevTools protocol on fds 3 (to the browser) and 4 (from it)."""

    def __init__(self, chromium):
        self.profile = tempfile.TemporaryDirectory()
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def child():
            # Copies above 4 first: either end may itself be fd 3 or 4.
            r, w = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        args = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-sync", "--disable-component-update", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--remote-debugging-pipe", "--user-data-dir=" + self.profile.name, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child, close_fds=False,
                                     stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.profile.name, 'chromium.log'), 'wb'))
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self.read(deadline)
            if m is None:
                raise RuntimeError(f"{method}: no answer in {timeout} s")
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.from_r], [], [], left)[0]:
                return None
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def wait_event(self, name, timeout=30):
        deadline = time.time() + timeout
        for e in self.events:
            if e.get("method") == name:
                return e
        while True:
            m = self.read(deadline)
            if m is None:
                return None
            self.events.append(m)
            if m.get("method") == name:
                return m

    def pump(self, seconds):
        deadline = time.time() + seconds
        while True:
            m = self.read(deadline)
            if m is None:
                return
            self.events.append(m)

    def open(self, url, width, height, mobile=False):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
            self.send(m)
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1, "mobile": mobile})
        if mobile:
            self.send("Emulation.setTouchEmulationEnabled", {"enabled": True})
        self.events = []
        self.send("Page.navigate", {"url": url})
        if self.wait_event("Page.loadEventFired") is None:
            raise RuntimeError("the page did not finish loading")
        self.pump(0.5)

    def evaluate(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"script failed: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def requests(self, page_url):
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent" and e["params"]["request"]["url"] != page_url]

    def errors(self):
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console." + p["type"] + ": " + json.dumps(p.get("args", []))[:300])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", "")[:300])
            elif m == "Network.loadingFailed":
                out.append("loading failed: " + json.dumps(p)[:300])
        return out

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)
        self.profile.cleanup()


failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


PAGE_FACTS = r"""(function () {
  var out = {campaigns: {}, shapes: document.querySelectorAll('svg#map .region').length};
  var groups = document.querySelectorAll('svg#map g.campaign');
  for (var i = 0; i < groups.length; i++) {
    var g = groups[i], ids = [], shapes = g.querySelectorAll('.region');
    for (var j = 0; j < shapes.length; j++) ids.push(shapes[j].getAttribute('data-region'));
    out.campaigns[g.getAttribute('data-campaign')] = {regions: ids};
  }
  var sections = document.querySelectorAll('section.campaign-report');
  for (var k = 0; k < sections.length; k++) {
    var s = sections[k], id = s.getAttribute('data-campaign'), c = out.campaigns[id] || (out.campaigns[id] = {regions: []});
    c.rules = s.querySelectorAll('table.reach-rules tbody tr').length;
    c.offers = s.querySelectorAll('table.reach-offers tbody tr').length;
    c.armRows = s.querySelectorAll('table.lift-arms tbody tr').length;
    var ci = s.querySelector('svg.lift-interval rect.ci');
    c.interval = ci ? ci.getBoundingClientRect().width : -1;
    c.estimate = !!s.querySelector('svg.lift-interval circle.estimate');
    c.dayChart = !!s.querySelector('svg.day-chart') || !!s.querySelector('p.empty');
    c.text = s.textContent;
  }
  out.overflow = document.documentElement.scrollWidth - window.innerWidth;
  return JSON.stringify(out);
})()"""


def interact(b):
    """Real mouse events on the map: a click names the region under it, a drag pans, the wheel zooms."""
    spot = json.loads(b.evaluate("""(function () {
      var shapes = document.querySelectorAll('svg#map .region'), best = null;
      for (var i = 0; i < shapes.length; i++) { var r = shapes[i].getBoundingClientRect();
        if (!best || r.width * r.height > best.w * best.h) best = {id: shapes[i].getAttribute('data-region'), w: r.width, h: r.height, el: shapes[i]}; }
      best.el.scrollIntoView({block: 'center'}); var r = best.el.getBoundingClientRect();
      return JSON.stringify({id: best.id, x: r.x + r.width / 2, y: r.y + r.height / 2});
    })()"""))
    x, y = spot["x"], spot["y"]

    def mouse(kind, px, py, **extra):
        b.send("Input.dispatchMouseEvent", dict({"type": kind, "x": px, "y": py, "button": "left", "clickCount": 1}, **extra))

    mouse("mousePressed", x, y)
    mouse("mouseReleased", x, y)
    b.pump(0.2)
    info = b.evaluate("document.getElementById('map-info').textContent")
    check(spot["id"] in info, f"a click on the region '{spot['id']}' names it: '{info}'")
    before = b.evaluate("document.getElementById('map').viewBox.baseVal.x")
    mouse("mousePressed", x, y)
    mouse("mouseMoved", x + 80, y + 10)
    mouse("mouseReleased", x + 80, y + 10)
    after = b.evaluate("document.getElementById('map').viewBox.baseVal.x")
    check(after < before, f"a drag pans the map (viewBox x {before:.0f} -> {after:.0f})")
    width = b.evaluate("document.getElementById('map').viewBox.baseVal.width")
    b.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": -120})
    b.pump(0.2)
    zoomed = b.evaluate("document.getElementById('map').viewBox.baseVal.width")
    check(zoomed < width, f"the wheel zooms in (viewBox width {width:.0f} -> {zoomed:.0f})")


def check_report(a):
    regions = {}
    for f in json.load(open(a.regions))["features"]:
        regions.setdefault(f["properties"]["campaign"], []).append(str(f["properties"]["id"]))
    report = json.load(open(a.report))
    url = "file://" + os.path.abspath(a.html)
    with open(a.html, encoding="utf-8") as f:
        text = f.read()
    check("http://" not in text and "https://" not in text and "//" + "cdn" not in text, "the file names no http(s) address")
    check("Content-Security-Policy" in text and "default-src 'none'" in text, "the file forbids every fetch (CSP default-src 'none')")
    b = Browser(a.chromium)
    try:
        b.open(url, 1280, 1000)
        facts = json.loads(b.evaluate(PAGE_FACTS))
        errors = b.errors()
        check(not errors, "no console error or exception" + ("" if not errors else ": " + "; ".join(errors[:3])))
        reqs = b.requests(url)
        check(not reqs, "no network request" + ("" if not reqs else ": " + ", ".join(reqs[:3])))
        total = sum(len(v) for v in regions.values())
        check(facts["shapes"] == total, f"one SVG shape per region: {facts['shapes']} shapes, {total} regions")
        for cid, ids in sorted(regions.items()):
            got = facts["campaigns"].get(cid, {}).get("regions", [])
            check(sorted(got) == sorted(ids), f"{cid}: the map holds its {len(ids)} regions, one shape each")
        for c in report["campaigns"]:
            cid, got = c["campaign"], facts["campaigns"].get(c["campaign"], {})
            check(got.get("rules") == len(c["rules"]), f"{cid}: reach table with one row per rule ({len(c['rules'])})")
            check(got.get("offers") == len(c["offers"]), f"{cid}: reach table with one row per offer ({len(c['offers'])})")
            check(got.get("dayChart"), f"{cid}: decisions per day chart")
            lift = c["lift"]
            if lift is None:
                continue
            check(got.get("armRows") == 2, f"{cid}: lift table with both groups")
            if lift["absolute_ci95"] is not None:
                check(got.get("interval", -1) > 0 and got.get("estimate"), f"{cid}: the 95% interval of the lift is drawn")
            if not lift["enough_data"]:
                check(TOO_FEW in got.get("text", ""), f"{cid}: says '{TOO_FEW}'")
                check("ignificant at the 5%" not in got.get("text", ""), f"{cid}: does not call the result significant")
        before = b.evaluate("document.getElementById('map').viewBox.baseVal.width")
        b.evaluate("document.getElementById('zoom-in').click()")
        after = b.evaluate("document.getElementById('map').viewBox.baseVal.width")
        check(after < before, f"the zoom button zooms the map (viewBox width {before:.0f} -> {after:.0f})")
        b.evaluate("document.getElementById('zoom-reset').click()")
        interact(b)
        b.evaluate("document.getElementById('zoom-reset').click()")
        if a.screenshot:
            b.screenshot(a.screenshot)
            check(os.path.getsize(a.screenshot) > 10000, f"laptop screenshot saved: {a.screenshot}")
        b.open(url, 390, 844, mobile=True)
        facts = json.loads(b.evaluate(PAGE_FACTS))
        check(facts["overflow"] <= 1, f"phone: the page does not scroll sideways (overflow {facts['overflow']} px)")
        check(not b.errors() and not b.requests(url), "phone: no console error, no request")
        if a.phone_screenshot:
            b.screenshot(a.phone_screenshot)
            check(os.path.getsize(a.phone_screenshot) > 5000, f"phone screenshot saved: {a.phone_screenshot}")
    finally:
        b.close()


def self_test(a):
    """The detector must see a request: an image from 127.0.0.1 (port 9, nothing listens)."""
    with tempfile.TemporaryDirectory() as d:
        for csp in (False, True):
            page = os.path.join(d, f"probe-{csp}.html")
            meta = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">" if csp else ""
            with open(page, "w") as f:
                f.write(f"<!DOCTYPE html><html><head>{meta}</head><body><img src=\"http://127.0.0.1:9/probe.png\"></body></html>")
            b = Browser(a.chromium)
            try:
                url = "file://" + page
                b.open(url, 800, 600)
                reqs, errors = b.requests(url), b.errors()
                check(bool(reqs) or (csp and bool(errors)),
                      f"self-test: a page {'with' if csp else 'without'} a CSP that loads an image is caught: requests {reqs}, errors {len(errors)}")
            finally:
                b.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--html")
    ap.add_argument("--regions")
    ap.add_argument("--report")
    ap.add_argument("--screenshot")
    ap.add_argument("--phone-screenshot")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        self_test(a)
    else:
        if not (a.html and a.regions and a.report):
            ap.error("--html, --regions and --report are required")
        check_report(a)
    print(f"{'all checks pass' if not failures else str(len(failures)) + ' checks failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
