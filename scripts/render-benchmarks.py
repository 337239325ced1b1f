#!/usr/bin/python3
"""Renders BENCHMARKS.md's status table and its plots from a benchmark results file.

    scripts/render-benchmarks.py [DOCUMENT] [--results FILE|DIR] [--no-plots] [--print]

DOCUMENT (default: BENCHMARKS.md beside this script's folder) keeps its hand-written text;
only what lies between the two marker comments (BEGIN, END below) is replaced: the run's
machine and command, one row per figure with ours, the floor and the peers measured in the
same run, the ratio, the target, met or not, and the spread over rounds. The results come
from FILE, or the latest *.json in DIR (default: benchmarks/results beside DOCUMENT), as
quickactions-bench writes them (Sources/quickactions-bench/Results.swift). With matplotlib
(Debian's python3-matplotlib) it also draws benchmarks/throughput-depth.png and
benchmarks/launch-latency.png beside DOCUMENT; without it, it says so and draws nothing.
--print writes the rendered region to stdout and leaves DOCUMENT alone.

Exit status: 0 rendered, 1 a file could not be read or written or has no markers, 2 usage.
"""

import argparse
import json
import os
import statistics
import sys

BEGIN = "<!-- status: begin. Rendered by scripts/render-benchmarks.py from benchmarks/results; do not edit by hand. -->"
END = "<!-- status: end -->"

MIB = 1024 * 1024

# The broker's apps and what each is held against (Sources/quickactions-bench/main.swift).
# The floor-message and relay floors answer with the very reply the message apps send.
IN_PROCESS = [
    ("broker-c-message", "C plugin with a message", "floor-message"),
    ("broker-swift-message", "Swift SDK plugin with a message", "floor-message"),
    ("broker", "C plugin without a message", "floor"),
]
IN_HOSTS = [
    ("broker-host-c-message", "C plugin with a message"),
    ("broker-host-swift-message", "Swift SDK plugin with a message"),
]
PEERS = ["dbus-python", "gdbus"]

PEER_HEADERS = {"dbus-python": "dbus-python", "gdbus": "GDBus"}

# One command per group of rows (the Reproduce column names the group). Each writes its
# own results file; `render-benchmarks.py --results FILE --print` shows its rows.
BENCH = ".build/release/quickactions-bench"
REPRODUCE = {
    "perform": f"{BENCH} --no-listing-contention --no-providers --launches 50 --results /tmp/qa",
    "launch": f"{BENCH} --no-listing-contention --no-providers --results /tmp/qa",
    "listing": f"{BENCH} --listing-contention-only --results /tmp/qa",
    "providers": f"{BENCH} --providers-only --results /tmp/qa",
}


class RenderError(Exception):
    pass


# ── numbers ─────────────────────────────────────────────────────────────


def median(values):
    return statistics.median(values) if values else None


def number(value, decimals=0):
    if value is None:
        return "?"
    return f"{value:,.{decimals}f}"


def millis(micros, decimals=2):
    return "?" if micros is None else f"{micros / 1000:,.{decimals}f} ms"


def mebibytes(value):
    return "?" if value is None else f"{value / MIB:,.1f} MiB"


def spread(values, decimals=2, unit=""):
    """'min–max' of values, or '—' for none."""
    if not values:
        return "—"
    return f"{number(min(values), decimals)}–{number(max(values), decimals)}{unit}"


def yes_no(met):
    return "—" if met is None else ("yes" if met else "**no**")


# ── the figures ─────────────────────────────────────────────────────────


class Run:
    """One results file, with the look-ups the rows need."""

    def __init__(self, results):
        self.results = results
        self.perform = results.get("perform") or {}
        self.subjects = {s["name"]: s for s in self.perform.get("subjects", [])}

    @property
    def depth(self):
        return self.perform.get("depth", 64)

    def runs(self, subject, mode):
        """The per-round runs of `subject` in 'sequential' or 'pipelined'; [] if absent."""
        found = self.subjects.get(subject)
        return found[mode]["runs"] if found else []

    def values(self, subject, mode, key):
        return [run[key] for run in self.runs(subject, mode)]

    def round_ratios(self, subject, other, mode, key="callsPerSecond"):
        """subject's `key` over other's, round by round (runs of one round are measured together)."""
        pairs = zip(self.values(subject, mode, key), self.values(other, mode, key))
        return [mine / theirs for mine, theirs in pairs if theirs > 0]


class Row:
    def __init__(self, figure, ours, floor="—", peers=None, ratio="—", target="—", met=None, spread="—", group=""):
        self.figure = figure
        self.ours = ours
        self.floor = floor
        self.peers = peers or {}
        self.ratio = ratio
        self.target = target
        self.met = met
        self.spread = spread
        self.group = group

    def cells(self):
        return [self.figure, self.ours, self.floor] + [self.peers.get(p, "—") for p in PEERS] + [
            self.ratio, self.target, yes_no(self.met), self.spread, self.group]


def perform_rows(run):
    rows = []
    if not run.subjects:
        return rows
    depth = run.depth
    modes = [("sequential", "sequential"), ("pipelined", f"depth {depth}")]

    def peers(mode):
        return {p: f"{number(median(run.values(p, mode, 'callsPerSecond')))}/s" for p in PEERS if p in run.subjects}

    for subject, who, _ in [(s, w, None) for s, w in IN_HOSTS]:
        if subject not in run.subjects or "relay" not in run.subjects:
            continue
        for mode, label in modes:
            ratios = run.round_ratios(subject, "relay", mode)
            bar = 0.90 if mode == "sequential" else 1.0
            ratio = median(ratios)
            rows.append(Row(
                f"Perform in hosts, {label}, {who}: calls/s",
                f"{number(median(run.values(subject, mode, 'callsPerSecond')))}/s",
                f"relay {number(median(run.values('relay', mode, 'callsPerSecond')))}/s",
                peers(mode), f"{number(ratio, 3)} ×", f"≥ {bar:.2f} × relay floor",
                ratio is not None and ratio >= bar, spread(ratios, 3), "perform"))
            if mode == "sequential":
                p99s = run.round_ratios(subject, "relay", mode, "p99")
                p99 = median(p99s)
                rows.append(Row(
                    f"Perform in hosts, sequential, {who}: p99",
                    f"{number(median(run.values(subject, mode, 'p99')))} µs",
                    f"relay {number(median(run.values('relay', mode, 'p99')))} µs",
                    {}, f"{number(p99, 3)} ×", "≤ 1.2 × relay floor",
                    p99 is not None and p99 <= 1.2, spread(p99s, 3), "perform"))
    for subject, who, floor in IN_PROCESS:
        if subject not in run.subjects or floor not in run.subjects:
            continue
        for mode, label in modes:
            ratios = run.round_ratios(subject, floor, mode)
            ratio = median(ratios)
            ahead = [median(run.round_ratios(subject, p, mode)) for p in PEERS if p in run.subjects]
            met = ratio is not None and ratio >= 0.95 and all(a is not None and a > 1 for a in ahead)
            rows.append(Row(
                f"Perform in process, {label}, {who}: calls/s",
                f"{number(median(run.values(subject, mode, 'callsPerSecond')))}/s",
                f"{floor} {number(median(run.values(floor, mode, 'callsPerSecond')))}/s",
                peers(mode), f"{number(ratio, 3)} ×", "≥ 0.95 × raw floor, ahead of dbus-python and GDBus",
                met, spread(ratios, 3), "perform"))
    return rows


def launch_rows(run):
    hosts = run.results.get("hosts")
    if not hosts:
        return []
    rows = []
    for key, who in [("cLaunch", "C plugin"), ("swiftLaunch", "Swift SDK plugin")]:
        launch = hosts[key]
        samples = sorted(launch.get("latencies") or [])
        count = len(samples) or launch.get("samples", 0)
        p50, p99, slowest = launch["p50"], launch["p99"], launch["max"]
        if samples:
            p50, p99, slowest = percentile(samples, 50), percentile(samples, 99), samples[-1]
        over = sum(1 for s in samples if s > 15_000)
        met = (p99 <= 15_000 and slowest <= 30_000) if count >= 1000 else None
        rows.append(Row(
            f"First Perform of an app (launch), {who}, {count:,} launches",
            f"p99 {millis(p99)}, max {millis(slowest)}", "—", {}, "—",
            "p99 ≤ 15 ms and max ≤ 30 ms over 1,000 launches"
            + ("" if count >= 1000 else f" (not judged: {count:,} launches)"),
            met, f"p50 {millis(p50)}; {over} over 15 ms" if samples else f"p50 {millis(p50)}", "launch"))
    for key, who in [("cHosts", "C plugin"), ("swiftHosts", "Swift SDK plugin")]:
        memory = [use["proportional"] for use in hosts.get(key, [])]
        if not memory:
            continue
        pss = median(memory)
        rows.append(Row(
            f"Idle host's own cost, {who}: PSS, median of {len(memory)}", mebibytes(pss), "—", {}, "—",
            "PSS ≤ 2 MiB", pss <= 2 * MIB, f"{mebibytes(min(memory))}–{mebibytes(max(memory))}", "launch"))
    total = hosts["total"]["proportional"]
    apps = hosts["apps"]
    rows.append(Row(
        f"{apps} apps loaded: PSS of the broker and its {apps} hosts", mebibytes(total), "—", {}, "—",
        "≤ 100 MiB PSS in all (50 apps)", total <= 100 * MIB if apps >= 50 else None,
        f"RSS summed {mebibytes(hosts['total']['resident'])}", "launch"))
    return rows


def percentile(sorted_samples, p):
    """Nearest rank, as Sources/quickactions-bench/Statistics.swift takes it."""
    rank = -(-p * len(sorted_samples) // 100)  # ceiling
    return sorted_samples[min(max(int(rank), 1), len(sorted_samples)) - 1]


def startup_rows(run):
    broker = run.results.get("broker")
    if not broker or len(broker.get("startup", [])) < 2:
        return []
    none = broker["startup"][0]
    most = broker["startup"][-1]
    bundles = most["bundles"] - none["bundles"]
    if bundles <= 0:
        return []
    per_bundle = (median(most["runsMilliseconds"]) - median(none["runsMilliseconds"])) / bundles
    pairs = [(m - n) / bundles for m, n in zip(most["runsMilliseconds"], none["runsMilliseconds"])]
    return [Row(
        f"Start-up per bundle, {most['bundles']:,} bundles against {none['bundles']:,}",
        f"{number(per_bundle, 3)} ms", "—", {}, "—", "≤ 0.2 ms per bundle at 1,000 bundles",
        per_bundle <= 0.2 if most["bundles"] >= 1000 else None, spread(pairs, 3, " ms"), "perform")]


def listing_rows(run):
    listing = run.results.get("listingContention")
    if not listing:
        return []
    ours = listing["performDuringListingsP99"] / max(listing["performAloneP99"], 1e-9)
    floor = listing["floorDuringListingsP99"] / max(listing["floorAloneP99"], 1e-9)
    ratio = ours / max(floor, 1e-9)
    rounds = listing.get("roundP99s") or {}

    def stalls(during, alone):
        return [d / a for d, a in zip(rounds.get(during, []), rounds.get(alone, [])) if a > 0]

    mine, theirs = stalls("during", "alone"), stalls("floorDuring", "floorAlone")
    spread_text = (f"ours ×{spread(mine, 1)}, floor ×{spread(theirs, 1)}" if mine and theirs
                   else f"medians of {listing['rounds']} rounds")
    return [Row(
        f"{listing['bundles']:,} bundles: Perform p99 during GetManagedObjects loops, against alone",
        f"×{number(ours, 2)} ({millis(listing['performDuringListingsP99'])})",
        f"×{number(floor, 2)} ({millis(listing['floorDuringListingsP99'])}), the floor sending the same reply",
        {}, f"{number(ratio, 2)} ×", "no worse than the floor sending the same reply", ratio <= 1.0,
        spread_text, "listing")]


def provider_rows(run):
    providers = run.results.get("providers")
    if not providers:
        return []
    rows = []
    startup = providers["startup"]
    off, on = startup["offNameMilliseconds"], startup["onListedMilliseconds"]
    if off and on:
        added = median(on) - median(off)
        rows.append(Row(
            f"Providers: {startup['entries']:,} installed entries, start-up to every app listed, against none",
            f"+{number(added, 1)} ms", f"off {number(median(off), 1)} ms", {}, "—",
            "≤ +50 ms start-up (1,000 entries)", added <= 50 if startup["entries"] >= 1000 else None,
            f"on {spread(on, 1)} ms, off {spread(off, 1)} ms", "providers"))
    off_memory, on_memory = startup.get("offMemory", []), startup.get("onMemory", [])
    if off_memory and on_memory:
        rss = median([m["resident"] for m in on_memory]) - median([m["resident"] for m in off_memory])
        pss = median([m["proportional"] for m in on_memory]) - median([m["proportional"] for m in off_memory])
        added = max(rss, pss)
        rows.append(Row(
            f"Providers: {startup['entries']:,} installed entries, memory added (larger of RSS, PSS)",
            f"+{mebibytes(added)}", f"off {mebibytes(median([m['proportional'] for m in off_memory]))} PSS", {},
            "—", "≤ +10 MiB (1,000 entries)", added <= 10 * MIB if startup["entries"] >= 1000 else None,
            f"on RSS {mebibytes(min(m['resident'] for m in on_memory))}–{mebibytes(max(m['resident'] for m in on_memory))}",
            "providers"))
    parse = providers["parse"]
    if parse.get("parseMilliseconds"):
        value = median(parse["parseMilliseconds"])
        rows.append(Row(
            f"Providers: {parse['bookmarks']:,}-bookmark file parse", f"{number(value, 1)} ms", "—", {}, "—",
            "≤ 100 ms (20,000 bookmarks)", value <= 100 if parse["bookmarks"] >= 20_000 else None,
            spread(parse["parseMilliseconds"], 1, " ms"), "providers"))
    idle = providers["idle"]
    if idle.get("on"):
        ticks = idle["on"]["cpuTicks"]
        rows.append(Row(
            f"Providers: idle broker over {idle['seconds']} s, CPU", f"{ticks} ticks of 10 ms",
            f"off {idle['off']['cpuTicks']} ticks" if idle.get("off") else "—", {}, "—", "0 CPU",
            ticks == 0, f"{idle['on']['contextSwitches']} context switches", "providers"))
    return rows


def all_rows(run):
    return perform_rows(run) + launch_rows(run) + startup_rows(run) + listing_rows(run) + provider_rows(run)


# ── the document ────────────────────────────────────────────────────────


def machine_line(results, source):
    machine = results["machine"]
    memory = f", {machine['memoryBytes'] / (1024 ** 3):.1f} GiB" if machine.get("memoryBytes") else ""
    kernel = f", Linux {machine['kernel']}" if machine.get("kernel") else ""
    perform = results.get("perform") or {}
    lines = [
        f"Run of {machine['date']}, commit {machine.get('commit') or 'unknown'}: {machine['cores']} cores, "
        f"{machine['cpuModel']}{memory}{kernel}; load average {machine['loadAverage']} at the start. "
        f"Results: `{source}`, from `{results['command']}`."
        + (f" Perform: {perform['rounds']} alternating rounds of {perform['sequentialCalls']:,} sequential "
           f"and {perform['pipelinedCalls']:,} pipelined calls ({perform['depth']} in flight) per subject."
           if perform.get("rounds") else ""),
    ]
    return lines


def render_region(results, source, plots):
    run = Run(results)
    rows = all_rows(run)
    header = (["Figure", "Ours", "Limit (same run)"] + [PEER_HEADERS[p] for p in PEERS]
              + ["Ratio", "Target", "Met", "Spread", "Reproduce"])
    lines = machine_line(results, source) + [""]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join(["---"] * len(header)) + "|")
    for row in rows:
        lines.append("| " + " | ".join(str(cell).replace("|", "\\|") for cell in row.cells()) + " |")
    lines.append("")
    met = [row.met for row in rows if row.met is not None]
    lines.append(f"{sum(met)} of {len(met)} judged targets met. Reproduce a row (after `make bench`'s release "
                 "build) with its group's command, then `scripts/render-benchmarks.py --results /tmp/qa --print`:")
    lines.append("")
    groups = []
    for row in rows:
        if row.group and row.group not in groups:
            groups.append(row.group)
    for group in groups:
        lines.append(f"- {group}: `{REPRODUCE[group]}`")
    if plots:
        lines += ["", " ".join(f"![{caption}](benchmarks/{name})" for name, caption in plots)]
    return "\n".join(lines)


def replace_region(document, region):
    start = document.find(BEGIN)
    end = document.find(END)
    if start < 0 or end < start:
        raise RenderError(f"the document has no status markers ({BEGIN} … {END})")
    return document[:start + len(BEGIN)] + "\n\n" + region + "\n\n" + document[end:]


def latest_results(directory):
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
    except OSError as error:
        raise RenderError(f"cannot list {directory}: {error.strerror}")
    if not names:
        raise RenderError(f"no results file (*.json) in {directory}")
    return os.path.join(directory, names[-1])


def read_results(path):
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError) as error:
        raise RenderError(f"cannot read the results {path}: {error}")


# ── the plots ───────────────────────────────────────────────────────────

# Subject → (label, line style): floors dashed, peers dotted, ours solid.
PLOTTED = [
    ("floor", "raw libdbus floor", "--"),
    ("floor-message", "raw floor, same reply as the message apps", "--"),
    ("relay", "C relay floor (hosts)", "--"),
    ("broker-c-message", "broker in process, C plugin", "-"),
    ("broker-swift-message", "broker in process, Swift plugin", "-"),
    ("broker-host-c-message", "broker, C plugin in a host", "-"),
    ("broker-host-swift-message", "broker, Swift plugin in a host", "-"),
    ("gdbus", "GDBus (python3-gi)", ":"),
    ("dbus-python", "dbus-python", ":"),
]


PLOTS = [("throughput-depth.png", "Perform throughput against pipeline depth"),
         ("launch-latency.png", "Launch latency distribution")]


def depth_series(run):
    """subject → [(depth, median calls/s, min, max)], depths ascending."""
    series = {}
    for subject, _, _ in PLOTTED:
        if subject not in run.subjects:
            continue
        points = []
        for depth, mode_runs in [(1, run.runs(subject, "sequential")), (run.depth, run.runs(subject, "pipelined"))]:
            rates = [r["callsPerSecond"] for r in mode_runs]
            if rates:
                points.append((depth, median(rates), min(rates), max(rates)))
        for sweep in run.perform.get("depthSweep", []):
            rates = [r["callsPerSecond"] for r in sweep["runs"].get(subject, [])]
            if rates:
                points.append((sweep["depth"], median(rates), min(rates), max(rates)))
        series[subject] = sorted(points)
    return series


def draw_plots(run, folder):
    """Draws the PNGs into `folder`; returns [(file name, caption)], [] without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        print("render-benchmarks: matplotlib is missing (apt-get install python3-matplotlib): no plots drawn",
              file=sys.stderr)
        return []
    os.makedirs(folder, exist_ok=True)
    drawn = []
    series = depth_series(run)
    if series:
        figure, axes = pyplot.subplots(figsize=(8, 5))
        for subject, label, style in PLOTTED:
            points = series.get(subject)
            if not points:
                continue
            depths = [p[0] for p in points]
            rates = [p[1] for p in points]
            errors = [[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]]
            axes.errorbar(depths, rates, yerr=errors, linestyle=style, marker="o", capsize=3, label=label)
        axes.set_xscale("log", base=2)
        depths = sorted({p[0] for points in series.values() for p in points})
        axes.set_xticks(depths)
        axes.set_xticklabels([str(d) for d in depths])
        axes.set_ylim(bottom=0)
        axes.set_xlabel("calls in flight (pipeline depth)")
        axes.set_ylabel("Perform calls per second (median, bars: range over rounds)")
        axes.set_title("Perform throughput against pipeline depth")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize="small")
        figure.tight_layout()
        figure.savefig(os.path.join(folder, "throughput-depth.png"), dpi=100)
        pyplot.close(figure)
        drawn.append(PLOTS[0])
    hosts = run.results.get("hosts")
    if hosts and (hosts["cLaunch"].get("latencies") or hosts["swiftLaunch"].get("latencies")):
        figure, axes = pyplot.subplots(figsize=(8, 4.5))
        for key, label in [("cLaunch", "C plugin"), ("swiftLaunch", "Swift SDK plugin")]:
            samples = [s / 1000 for s in hosts[key].get("latencies", [])]
            if samples:
                axes.hist(samples, bins=60, histtype="step", linewidth=1.5, label=f"{label} ({len(samples):,} launches)")
        axes.set_yscale("log")
        axes.set_ylim(bottom=0.7)
        for limit, text in [(15, "p99 target"), (30, "max target")]:
            axes.axvline(limit, color="grey", linestyle="--", linewidth=1)
            axes.text(limit, axes.get_ylim()[1], f" {text}", va="top", fontsize="small", color="grey")
        axes.set_xlabel("first Perform of an app in a fresh plugin host (ms)")
        axes.set_ylabel("launches")
        axes.set_title("Launch latency distribution")
        axes.legend(fontsize="small")
        figure.tight_layout()
        figure.savefig(os.path.join(folder, "launch-latency.png"), dpi=100)
        pyplot.close(figure)
        drawn.append(PLOTS[1])
    return drawn


# ── the command ─────────────────────────────────────────────────────────


def main(arguments):
    parser = argparse.ArgumentParser(
        prog="render-benchmarks.py", description="Render BENCHMARKS.md's status table and plots from a results file.")
    default_document = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "BENCHMARKS.md")
    parser.add_argument("document", nargs="?", default=default_document)
    parser.add_argument("--results", help="a results file, or a folder whose latest *.json is used")
    parser.add_argument("--no-plots", action="store_true", help="leave the PNGs alone")
    parser.add_argument("--print", action="store_true", help="print the region instead of writing the document")
    options = parser.parse_args(arguments)
    folder = os.path.dirname(os.path.abspath(options.document))
    try:
        source = options.results or os.path.join(folder, "benchmarks", "results")
        if os.path.isdir(source):
            source = latest_results(source)
        results = read_results(source)
        shown = os.path.relpath(os.path.abspath(source), folder)
        pictures = os.path.join(folder, "benchmarks")
        if options.no_plots or options.print:
            # The document still shows the plots drawn before.
            plots = [(name, caption) for name, caption in PLOTS if os.path.exists(os.path.join(pictures, name))]
        else:
            plots = draw_plots(Run(results), pictures)
        region = render_region(results, shown, plots)
        if options.print:
            print(region)
            return 0
        try:
            with open(options.document, encoding="utf-8") as file:
                document = file.read()
        except OSError as error:
            raise RenderError(f"cannot read {options.document}: {error.strerror}")
        updated = replace_region(document, region)
        try:
            with open(options.document + ".tmp", "w", encoding="utf-8") as file:
                file.write(updated)
            os.replace(options.document + ".tmp", options.document)
        except OSError as error:
            raise RenderError(f"cannot write {options.document}: {error.strerror}")
        return 0
    except RenderError as error:
        print(f"render-benchmarks: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
