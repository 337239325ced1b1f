"""Tests of scripts/render-benchmarks.py on a small hand-made results file (fixtures/small-run.json).

Run from the package's root: python3 -m unittest discover -s scripts/tests
(Tests/BenchmarkTests/RenderScriptTests.swift runs them in `swift test`.)
"""

import copy
import importlib.util
import io
import json
import os
import shutil
import tempfile
import unittest
from contextlib import redirect_stderr

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(HERE), "render-benchmarks.py")
FIXTURE = os.path.join(HERE, "fixtures", "small-run.json")

spec = importlib.util.spec_from_file_location("render_benchmarks", SCRIPT)
render = importlib.util.module_from_spec(spec)
spec.loader.exec_module(render)

try:
    import matplotlib  # noqa: F401
    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False


def load():
    with open(FIXTURE, encoding="utf-8") as file:
        return json.load(file)


def rows_by_figure(results):
    return {row.figure: row for row in render.all_rows(render.Run(results))}


class PerformRowsTests(unittest.TestCase):
    def setUp(self):
        self.rows = rows_by_figure(load())

    def test_a_ratio_is_the_median_of_the_rounds_ratios_not_the_ratio_of_medians(self):
        # Rounds: 7,000/10,000, 9,500/9,000, 12,000/12,500 → 0.700, 1.056, 0.960; medians would give 0.950.
        row = self.rows["Perform in hosts, sequential, C plugin with a message: calls/s"]
        self.assertEqual(row.ratio, "0.960 ×")
        self.assertEqual(row.target, "≥ 0.90 × relay floor")
        self.assertIs(row.met, True)
        self.assertEqual(row.spread, "0.700–1.056")
        self.assertEqual(row.ours, "9,500/s")
        self.assertEqual(row.floor, "relay 10,000/s")
        self.assertEqual(row.peers, {"dbus-python": "6,000/s", "gdbus": "7,000/s"})

    def test_a_p99_over_1_2_times_the_relay_misses(self):
        row = self.rows["Perform in hosts, sequential, C plugin with a message: p99"]
        self.assertEqual(row.ratio, "1.250 ×")
        self.assertIs(row.met, False)
        self.assertEqual(row.spread, "1.100–1.300")

    def test_hosts_at_depth_64_must_reach_the_relay(self):
        row = self.rows["Perform in hosts, depth 64, C plugin with a message: calls/s"]
        self.assertEqual(row.ratio, "0.900 ×")
        self.assertEqual(row.target, "≥ 1.00 × relay floor")
        self.assertIs(row.met, False)

    def test_in_process_is_held_against_the_floor_sending_the_same_reply_and_the_peers(self):
        sequential = self.rows["Perform in process, sequential, C plugin with a message: calls/s"]
        self.assertEqual(sequential.floor, "floor-message 19,000/s")
        self.assertEqual(sequential.ratio, "0.950 ×")
        self.assertIs(sequential.met, True)
        pipelined = self.rows["Perform in process, depth 64, C plugin with a message: calls/s"]
        self.assertEqual(pipelined.ratio, "0.980 ×")
        self.assertEqual(pipelined.spread, "0.960–1.000")

    def test_behind_a_peer_misses_even_above_the_floor_bar(self):
        results = load()
        for subject in results["perform"]["subjects"]:
            if subject["name"] == "gdbus":
                for run in subject["sequential"]["runs"]:
                    run["callsPerSecond"] = 18_100
        row = rows_by_figure(results)["Perform in process, sequential, C plugin with a message: calls/s"]
        self.assertEqual(row.ratio, "0.950 ×")
        self.assertIs(row.met, False)

    def test_a_subject_not_measured_has_no_row(self):
        self.assertNotIn("Perform in hosts, sequential, Swift SDK plugin with a message: calls/s", self.rows)


class OtherRowsTests(unittest.TestCase):
    def test_launches_are_not_judged_below_1000_and_judged_on_p99_and_max_at_1000(self):
        results = load()
        row = rows_by_figure(results)["First Perform of an app (launch), C plugin, 4 launches"]
        self.assertIsNone(row.met)
        self.assertIn("not judged: 4 launches", row.target)
        self.assertEqual(row.ours, "p99 31.00 ms, max 31.00 ms")
        self.assertEqual(row.spread, "p50 10.00 ms; 1 over 15 ms")

        # 1,000 launches, one slow: p99 fine, the slowest over 30 ms.
        tail = copy.deepcopy(results)
        tail["hosts"]["cLaunch"]["latencies"] = [10_000.0 + i for i in range(999)] + [31_000.0]
        row = rows_by_figure(tail)["First Perform of an app (launch), C plugin, 1,000 launches"]
        self.assertEqual(row.ours, "p99 10.99 ms, max 31.00 ms")
        self.assertIs(row.met, False)
        tail["hosts"]["cLaunch"]["latencies"][-1] = 29_000.0
        self.assertIs(rows_by_figure(tail)["First Perform of an app (launch), C plugin, 1,000 launches"].met, True)

    def test_idle_host_pss_is_the_median_with_its_range(self):
        rows = rows_by_figure(load())
        c = rows["Idle host's own cost, C plugin: PSS, median of 2"]
        self.assertEqual((c.ours, c.met), ("1.8 MiB", True))
        swift = rows["Idle host's own cost, Swift SDK plugin: PSS, median of 2"]
        self.assertEqual((swift.ours, swift.met, swift.spread), ("3.5 MiB", False, "3.0 MiB–4.0 MiB"))
        # Four apps are no judgement of the 50-app bar.
        self.assertIsNone(rows["4 apps loaded: PSS of the broker and its 4 hosts"].met)

    def test_startup_per_bundle_from_the_medians_with_the_repeats_spread(self):
        row = rows_by_figure(load())["Start-up per bundle, 1,000 bundles against 0"]
        self.assertEqual(row.ours, "0.251 ms")
        self.assertIs(row.met, False)
        self.assertEqual(row.spread, "0.200–0.300 ms")

    def test_listing_contention_is_held_against_the_floor_sending_the_same_reply(self):
        rows = rows_by_figure(load())
        row = rows["10,000 bundles: Perform p99 during GetManagedObjects loops, against alone"]
        self.assertEqual(row.ours, "×6.00 (3.00 ms)")
        self.assertEqual(row.ratio, "0.80 ×")
        self.assertEqual(row.target, "no worse than the floor sending the same reply")
        self.assertIs(row.met, True)
        # Round by round: 2,000/400, 3,000/500, 4,800/600; the floor 1,500/200, 1,400/200, 1,500/250.
        self.assertEqual(row.spread, "ours ×5.0–8.0, floor ×6.0–7.5")

    def test_providers(self):
        rows = rows_by_figure(load())
        startup = rows["Providers: 1,000 installed entries, start-up to every app listed, against none"]
        self.assertEqual((startup.ours, startup.met), ("+49.0 ms", True))
        memory = rows["Providers: 1,000 installed entries, memory added (larger of RSS, PSS)"]
        self.assertEqual((memory.ours, memory.met), ("+9.0 MiB", True))
        parse = rows["Providers: 20,000-bookmark file parse"]
        self.assertEqual((parse.ours, parse.met, parse.spread), ("45.0 ms", True, "40.0–120.0 ms"))
        idle = rows["Providers: idle broker over 10 s, CPU"]
        self.assertIs(idle.met, False)


class DocumentTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="render-benchmarks-test")
        self.document = os.path.join(self.folder, "BENCHMARKS.md")
        results = os.path.join(self.folder, "benchmarks", "results")
        os.makedirs(results)
        shutil.copy(FIXTURE, os.path.join(results, "2026-01-02T030405Z-abc1234.json"))
        with open(os.path.join(results, "2025-01-01T000000Z-old.json"), "w", encoding="utf-8") as file:
            file.write("not the latest, and not JSON")
        with open(self.document, "w", encoding="utf-8") as file:
            file.write(f"# Benchmarks\n\nHand-written.\n\n{render.BEGIN}\nstale table\n{render.END}\n\nAfter.\n")

    def tearDown(self):
        shutil.rmtree(self.folder)

    def read(self):
        with open(self.document, encoding="utf-8") as file:
            return file.read()

    def test_the_table_between_the_markers_is_rendered_from_the_latest_results_and_the_rest_kept(self):
        self.assertEqual(render.main([self.document, "--no-plots"]), 0)
        text = self.read()
        self.assertTrue(text.startswith("# Benchmarks\n\nHand-written.\n\n" + render.BEGIN))
        self.assertTrue(text.endswith(render.END + "\n\nAfter.\n"))
        self.assertNotIn("stale table", text)
        self.assertIn("commit abc1234", text)
        self.assertIn("benchmarks/results/2026-01-02T030405Z-abc1234.json", text)
        self.assertIn("| Perform in hosts, sequential, C plugin with a message: calls/s | 9,500/s | relay 10,000/s "
                      "| 6,000/s | 7,000/s | 0.960 × | ≥ 0.90 × relay floor | yes | 0.700–1.056 | perform |", text)
        self.assertIn("| **no** |", text)
        # Rendering twice changes nothing.
        render.main([self.document, "--no-plots"])
        self.assertEqual(self.read(), text)

    def test_a_document_without_markers_is_refused_and_left_alone(self):
        with open(self.document, "w", encoding="utf-8") as file:
            file.write("# No markers\n")
        with redirect_stderr(io.StringIO()) as errors:
            self.assertEqual(render.main([self.document, "--no-plots"]), 1)
        self.assertIn("no status markers", errors.getvalue())
        self.assertEqual(self.read(), "# No markers\n")

    def test_the_depth_series_has_the_sweep_between_depth_1_and_64(self):
        series = render.depth_series(render.Run(load()))
        self.assertEqual([point[0] for point in series["floor"]], [1, 8, 64])
        self.assertEqual(series["floor"][1][1], 60_000)
        self.assertEqual(series["relay"][0], (1, 10_000, 9_000, 12_500))

    @unittest.skipUnless(HAVE_MATPLOTLIB, "python3-matplotlib is not installed")
    def test_the_plots_are_drawn_beside_the_document_and_shown_in_it(self):
        self.assertEqual(render.main([self.document]), 0)
        for name in ["throughput-depth.png", "launch-latency.png"]:
            with open(os.path.join(self.folder, "benchmarks", name), "rb") as file:
                self.assertEqual(file.read(8), b"\x89PNG\r\n\x1a\n", name)
            self.assertIn(f"(benchmarks/{name})", self.read())


if __name__ == "__main__":
    unittest.main()
