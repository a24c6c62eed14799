"""The app's live speed in a real browser: from a click to the page settled and to its charts drawn.

Starts the app (``streamlit run app.py``) on a free loopback port, opens it in headless Chromium
(Debian's ``/usr/bin/chromium``, driven by Playwright) at 1920 x 1080, and times, each repeated:

(a) S1: the candidate algorithm changed in the sidebar. *Cold*: an algorithm not yet run in this
    server (its clustering, comparison and figures are computed), each of the sidebar's algorithms
    for S1 once (from a few milliseconds for k-means to 0.3-0.4 s for scipy's Ward, average and
    complete linkage, and seconds for random swap), so at least 8 runs; *warm*: back to
    k-means++, whose run is cached (only the page's rerun and the browser's drawing are left);
(b) the data set changed from S1 to Birch2 (100 000 points, k = 100). *Cold*: a seed not yet run
    on Birch2 (the first repeat also loads the file); *warm*: Birch2 again with a cached run;
(c) "Against chance, with intervals" switched on, on S1. *Cold*: a comparison not yet tested
    against chance (a new algorithm is chosen before, untimed); *warm*: off and on again;
(d) Many clusterings: "One algorithm over k (stability)" chosen (S1, k-means++, k = 2 to 20,
    10 subsets). *Cold*: a subset seed not yet used; *warm*: back to it after the seeds mode.

What is measured, in the page itself (``performance.now()``, no polling error):

- **click**: the ``pointerdown`` of the last click of the action (the option in a drop-down
  list, the toggle, the radio button);
- **settled**: the last time Streamlit's status widget (``[data-testid=stStatusWidget]``, the
  "Running..." sign) left the page after the click; when the rerun was too short for it to show,
  the last change of the page's main area or sidebar before the page fell quiet (a screen
  reader's announcement, ``[aria-live]``, does not count);
- **drawn**: the last change inside a chart (``.js-plotly-plot``) or a table
  (``[data-testid=stDataFrame]``) after the click, once the page shows the new values (each
  action names the text it must show: the new algorithm in the candidate's scatter title, the
  data set's K in the reference's, the chance columns' caption, the curve's seed) and nothing
  in a chart or table has changed for 2 s. A chart whose figure did not change is not redrawn,
  and counts as drawn at the click;
- **gap**: drawn - settled (positive: charts still being drawn after the sign is gone);
- **estimates**: every "about N s" or "about N min" a progress bar, spinner or caption shows
  while the page works. "About N s left" is checked against the time until its bar or spinner
  left the page (the end of the work it counts); any other "about N s" against the time from the
  first estimate its element showed to then. The ratio is the larger over the smaller (1.0 is
  exact; the target is within 1.5).

Targets (an idle 2-core machine; they are reported, not asserted): a click on S1 settles in
under 1 s, a switch to Birch2 in under 5 s, "Against chance" on S1 in under 2 s (medians), every
estimate within a factor of 1.5. On a busy machine the times are upper bounds: the load average
(``os.getloadavg``) is printed with each part. Needs the data sets (CLUVAL_DATA_DIR or the
cache), Playwright (``pip install playwright``, no browser download) and Chromium. Exits
non-zero only when it could not run.

    python benchmarks/bench_live.py                       # every part, 5 repeats (about 10 min idle)
    python benchmarks/bench_live.py --repeats 3 --parts s1,chance
    python benchmarks/bench_live.py --url http://127.0.0.1:8501   # a server already running
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
QUIET_MS = 2000  # nothing changed in a chart or table for this long: drawn
LONG_MS = 900_000  # the longest one action may take
PARTS = ("s1", "birch2", "chance", "many")
TARGETS = {("s1", "cold"): 1.0, ("s1", "warm"): 1.0, ("birch2", "cold"): 5.0, ("birch2", "warm"): 5.0,
           ("chance", "cold"): 2.0, ("chance", "warm"): 2.0}
S1_COLD = ["ward", "average", "complete", "single", "kmeans", "gmm", "fcm", "random_swap"]  # never run before
ESTIMATE = re.compile(r"about (\d+(?:\.\d+)?)\s*(s|min)\b")

# Recorded in the page from its first script on: clicks, the status widget's comings and goings,
# the last change in a chart or table, in the rest of the page, and every "about N s" shown.
RECORDER = r"""
(() => {
  const b = window.__bench = {click: null, status: [], plot: null, page: null, estimates: [], present: false};
  const holders = new Map();  // element -> {id, text, gone}
  b.reset = () => { b.click = null; b.status = []; b.plot = null; b.page = null; b.estimates = []; holders.clear(); };
  document.addEventListener('pointerdown', () => { b.click = performance.now(); }, true);
  const pattern = /about \d+(?:\.\d+)?\s*(?:s|min)\b/;
  const scan = () => {
    const now = performance.now();
    const present = !!document.querySelector('[data-testid=stStatusWidget]');
    if (present !== b.present) { b.status.push([present ? 'shown' : 'gone', now]); b.present = present; }
    for (const [el, h] of holders) {
      if (h.gone === null && !el.isConnected) h.gone = now;  // the bar or spinner is gone: its work is done
    }
    const shown = document.querySelectorAll(
      '[data-testid=stMain] :is([data-testid=stProgress], [data-testid=stSpinner], [data-testid=stCaptionContainer])');
    for (const el of shown) {
      const text = el.textContent;
      if (!pattern.test(text)) continue;
      let h = holders.get(el);
      if (!h) { h = {id: holders.size, text: null, gone: null}; holders.set(el, h); }
      h.gone = null;
      if (h.text !== text) { h.text = text; b.estimates.push({holder: h, text: text.slice(0, 300), shown: now}); }
    }
  };
  b.readEstimates = () => b.estimates.map(e => ({id: e.holder.id, text: e.text, shown: e.shown, gone: e.holder.gone}));
  new MutationObserver(records => {
    const now = performance.now();
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      // a screen reader's announcement (the drop-down's "10 options available", cleared seconds
      // after the list closes) is no work of the page
      if (node && node.closest && node.closest('[aria-live]')) continue;
      if (node && node.closest && node.closest('.js-plotly-plot, [data-testid=stDataFrame]')) b.plot = now;
      else b.page = now;
    }
    scan();
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""


@dataclass
class Timing:
    part: str
    case: str
    settled: float
    drawn: float
    load: float
    note: str = ""
    estimates: list = field(default_factory=list)  # (text, estimated s, took s, the element's first)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server():
    port = _free_port()
    log = tempfile.NamedTemporaryFile("w", prefix="bench_live_server_", suffix=".log", delete=False)  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                return proc, log, url
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    log.close()
    raise RuntimeError("the app did not answer /_stcore/health within 90 s")


def load() -> float:
    return os.getloadavg()[0]


# ---------------------------------------------------------------------- one timed action
def settle(page, timeout=LONG_MS):
    """Wait (untimed) until the run is over and nothing in a chart or table changed for QUIET_MS."""
    page.wait_for_timeout(300)
    page.wait_for_selector("[data-testid=stStatusWidget]", state="detached", timeout=timeout)
    page.wait_for_function(
        f"() => !document.querySelector('[data-testid=stStatusWidget]') && "
        f"performance.now() - Math.max(window.__bench.plot || 0, window.__bench.page || 0) > {QUIET_MS}",
        timeout=timeout, polling=200)


def timed(page, part: str, case: str, act, shows: str, note: str = "") -> Timing:
    """Run `act(page)` (ending with the click that starts the rerun), wait until the JavaScript
    condition `shows` holds, the status widget is gone and charts and tables are quiet."""
    settle(page)
    page.evaluate("window.__bench.reset()")
    before = load()
    act(page)
    page.wait_for_function("() => window.__bench.click !== null", timeout=10_000)
    page.wait_for_function(f"() => ({shows})", timeout=LONG_MS, polling=100)
    settle(page)
    b = page.evaluate("""() => { const b = window.__bench;
        return {click: b.click, status: b.status, plot: b.plot, page: b.page, estimates: b.readEstimates(),
                now: performance.now()}; }""")
    click = b["click"]
    gone = [t for kind, t in b["status"] if kind == "gone" and t >= click]
    settled = (max(gone) if gone else max(b["page"] or click, click)) - click
    drawn = max((b["plot"] or click) - click, 0.0)
    first = {}
    estimates = []
    for seen in b["estimates"]:
        match = ESTIMATE.search(seen["text"])
        value = float(match.group(1)) * (60 if match.group(2) == "min" else 1)
        end = seen["gone"] if seen["gone"] is not None else (max(gone) if gone else b["now"])
        start = first.setdefault(seen["id"], seen["shown"])
        # "about N s left" is the time to the end of the work its bar or spinner shows; any other
        # "about N s" the time of all that work, from the first estimate the element showed
        took = end - (seen["shown"] if " left" in seen["text"] else start)
        estimates.append((seen["text"].strip(), value, took / 1000, seen["shown"] == start))
    return Timing(part, case, settled / 1000, drawn / 1000, (before + load()) / 2, note, estimates)


def choose(page, label: str, option: str):
    """Pick the first option starting with `option` in the selectbox `label` (typed first: the
    list only draws the options in sight)."""
    box = page.get_by_role("combobox", name=label, exact=True)
    box.click()
    box.press_sequentially(option)
    page.get_by_role("option", name=re.compile(rf"^{re.escape(option)}")).first.click()


def set_number(page, label: str, value: int):
    box = page.get_by_role("spinbutton", name=label, exact=True)
    box.fill(str(value))
    box.press("Enter")


def title_has(key: str, text: str) -> str:
    """A JavaScript condition: the title of the chart in container `key` contains `text`."""
    return (f"[...document.querySelectorAll('.st-key-{key} .js-plotly-plot .gtitle')]"
            f".some(e => e.textContent.includes({text!r}))")


def chart_in(key: str) -> str:
    """A JavaScript condition: a chart is drawn in container `key`."""
    return f"!!document.querySelector('.st-key-{key} .js-plotly-plot .main-svg')"


def text_has(text: str) -> str:
    return f"(document.querySelector('[data-testid=stMain]') || document.body).innerText.includes({text!r})"


def no_status() -> str:
    return "!document.querySelector('[data-testid=stStatusWidget]')"


def algorithm_name(key: str) -> str:
    from cluval_core.algorithms.clustering import ALGORITHMS

    return ALGORITHMS[key].name


# ---------------------------------------------------------------------- the parts
def open_compare(page, url: str, query: str = ""):
    page.goto(f"{url}/{query}", wait_until="domcontentloaded")
    page.wait_for_selector(".st-key-scatter_candidate .js-plotly-plot .main-svg", timeout=LONG_MS)
    settle(page)


def part_s1(page, url: str, repeats: int) -> list[Timing]:
    open_compare(page, url, "?dataset=s1&algorithm=kmeans%2B%2B")
    out = []
    for r in range(max(repeats, len(S1_COLD))):  # every algorithm once: their costs differ tenfold
        key = S1_COLD[r % len(S1_COLD)]
        name = algorithm_name(key)
        out.append(timed(page, "s1", "cold", lambda p, n=name: choose(p, "Algorithm", n),
                         f"{title_has('scatter_candidate', 'Candidate: ' + name)} && {no_status()}", key))
        back = algorithm_name("kmeans++")
        out.append(timed(page, "s1", "warm", lambda p, n=back: choose(p, "Algorithm", n),
                         f"{title_has('scatter_candidate', 'Candidate: ' + back)} && {no_status()}", "kmeans++"))
    return out


def part_birch2(page, url: str, repeats: int) -> list[Timing]:
    open_compare(page, url, "?dataset=s1&algorithm=kmeans%2B%2B&seed=0")
    out = []
    for r in range(repeats):
        seed = 100 + r  # a seed not run on Birch2 before: its clustering is computed
        settle(page)
        set_number(page, "Seed", seed)
        page.wait_for_function(text_has(f"seed {seed}"), timeout=LONG_MS)
        out.append(timed(page, "birch2", "cold", lambda p: choose(p, "Data set", "Birch2"),
                         f"{title_has('scatter_reference', '(K=100)')} && {text_has(f'seed {seed}')} && "
                         f"{no_status()}", f"seed {seed}" + (", file loaded" if r == 0 else "")))
        timed(page, "birch2", "back", lambda p: choose(p, "Data set", "S1"),
              f"{title_has('scatter_reference', '(K=15)')} && {no_status()}")
        out.append(timed(page, "birch2", "warm", lambda p: choose(p, "Data set", "Birch2"),
                         f"{title_has('scatter_reference', '(K=100)')} && {no_status()}", f"seed {seed}"))
        timed(page, "birch2", "back", lambda p: choose(p, "Data set", "S1"),
              f"{title_has('scatter_reference', '(K=15)')} && {no_status()}")
    return out


def _toggle(page):
    page.get_by_text("Against chance, with intervals", exact=True).click()


def part_chance(page, url: str, repeats: int) -> list[Timing]:
    open_compare(page, url, "?dataset=s1&algorithm=kmeans%2B%2B")
    caption = "Expected: the mean over random tables"
    out = []
    for r in range(repeats):
        key = S1_COLD[(r + 3) % len(S1_COLD)] if r else "kmeans++"
        if r:  # a comparison not yet tested against chance (untimed)
            name = algorithm_name(key)
            timed(page, "chance", "setup", lambda p, n=name: choose(p, "Algorithm", n),
                  f"{title_has('scatter_candidate', 'Candidate: ' + name)} && {no_status()}")
        out.append(timed(page, "chance", "cold", _toggle, f"{text_has(caption)} && {no_status()}", key))
        timed(page, "chance", "off", _toggle, f"!{text_has(caption)} && {no_status()}")
        out.append(timed(page, "chance", "warm", _toggle, f"{text_has(caption)} && {no_status()}", key))
        timed(page, "chance", "off", _toggle, f"!{text_has(caption)} && {no_status()}")
    return out


def part_many(page, url: str, repeats: int) -> list[Timing]:
    out = []
    stability = "One algorithm over k (stability)"
    for r in range(repeats):
        seed = 10 * r + 1  # subsets not drawn before: the curve is computed
        page.goto(f"{url}/many_clusterings?dataset=s1&many_mode=seeds&many_seed={seed}",
                  wait_until="domcontentloaded")
        page.wait_for_selector(".st-key-many_heatmap_psi .js-plotly-plot .main-svg", timeout=LONG_MS)
        shows = f"{chart_in('many_curve')} && {text_has(f'(seed {seed})')} && {no_status()}"
        out.append(timed(page, "many", "cold",
                         lambda p: p.get_by_test_id("stRadioGroup").get_by_text(stability, exact=True).click(),
                         shows, f"seed {seed}"))
        timed(page, "many", "back",
              lambda p: p.get_by_test_id("stRadioGroup").get_by_text("One algorithm over seeds", exact=True).click(),
              f"{chart_in('many_heatmap_psi')} && {no_status()}")
        out.append(timed(page, "many", "warm",
                         lambda p: p.get_by_test_id("stRadioGroup").get_by_text(stability, exact=True).click(),
                         shows, f"seed {seed}"))
    return out


# ---------------------------------------------------------------------- report
def _spread(values) -> str:
    return f"{min(values):.2f}-{max(values):.2f}"


def report(timings: list[Timing]) -> None:
    print()
    print(f"{'part':<8} {'case':<5} {'n':>2}  {'settled s':>9} {'(spread)':>13}  {'drawn s':>8} {'(spread)':>13}  "
          f"{'gap s':>6}  {'load':>5}  target")
    for part in PARTS:
        for case in ("cold", "warm"):
            rows = [t for t in timings if t.part == part and t.case == case]
            if not rows:
                continue
            settled = [t.settled for t in rows]
            drawn = [max(t.drawn, t.settled) for t in rows]
            gap = statistics.median(t.drawn - t.settled for t in rows)
            target = TARGETS.get((part, case))
            verdict = ""
            if target is not None:
                worst = max(statistics.median(settled), statistics.median(drawn))
                verdict = f"< {target:g} s: {'met' if worst < target else 'NOT met'}"
            print(f"{part:<8} {case:<5} {len(rows):>2}  {statistics.median(settled):>9.2f} {_spread(settled):>13}  "
                  f"{statistics.median(drawn):>8.2f} {_spread(drawn):>13}  {gap:>6.2f}  "
                  f"{statistics.median(t.load for t in rows):>5.2f}  {verdict}")
    print("\nEvery run (s): part case note settled drawn")
    for t in timings:
        print(f"  {t.part:<7} {t.case:<5} {t.note:<24} {t.settled:7.2f} {max(t.drawn, t.settled):7.2f}")
    print("\nEstimates the app showed, each against the time the work it describes took (target: within a "
          "factor of 1.5):")
    shown = False
    for part in PARTS:
        for case in ("cold", "warm"):
            rows = [e for t in timings if t.part == part and t.case == case for e in t.estimates]
            if not rows:
                continue
            shown = True
            ratios = sorted(max(v, took) / max(min(v, took), 1e-9) for _, v, took, _ in rows)
            within = sum(r <= 1.5 for r in ratios)
            print(f"  {part:<7} {case:<5} {len(rows):>3} estimates, median ratio {statistics.median(ratios):.2f}, "
                  f"worst {ratios[-1]:.2f}, {within} of {len(rows)} within 1.5")
            for text, value, took, first in rows:
                if first:
                    ratio = max(value, took) / max(min(value, took), 1e-9)
                    print(f"    first shown: estimated {value:.1f} s, took {took:.1f} s, ratio {ratio:.2f}: "
                          f"{text[-90:]!r}")
    if not shown:
        print("  none shown")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--parts", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    parser.add_argument("--url", help="a running app instead of a fresh server (cold cases then may be warm)")
    args = parser.parse_args(argv)
    parts = [p for p in args.parts.split(",") if p]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts {sorted(unknown)}")
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}; "
          f"{os.cpu_count()} cores")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped benchmark stops its server too
    proc = log = None
    url = args.url
    if url is None:
        proc, log, url = start_server()
    timings = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            for part in parts:
                context = browser.new_context(viewport={"width": 1920, "height": 1080})
                context.add_init_script(RECORDER)
                page = context.new_page()
                start = time.perf_counter()
                got = globals()[f"part_{part}"](page, url, args.repeats)
                timings += got
                print(f"{part}: {len(got)} timed runs in {time.perf_counter() - start:.0f} s, load {load():.2f}",
                      flush=True)
                context.close()
            browser.close()
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()
            Path(log.name).unlink(missing_ok=True)
    report(timings)
    print(f"\nuptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
