"""Soak: bench/load.py's mix at about 70% of the capacity measured in the same run, for
thirty minutes, watching each worker's memory and the latency for drift.

Usage (from the project root, with the project venv; run by hand, not in CI):

    .venv/bin/python bench/soak.py [--duration 1800] [--share 0.7] [--capacity-seconds 60]
        [--pg-port 54330] [--redis-port 56390]

1. Servers and data as bench/chaos.py has them (bench/longrun.py), nothing restarted.
2. Capacity: the mix as bench/load.py sends it (32 connections, each sending as soon
   as it is answered) for --capacity-seconds against two gunicorn instances of 3 sync
   workers; its requests per second are the capacity.
3. Soak, against the same two instances: the same connections, each paced to its
   share of --share x capacity (bench/load.lua's delay), for --duration seconds.
   Every 10 s the resident memory (VmRSS) of each worker is read.
4. Figures per minute: requests per second, p50 and p99 latency, 5xx; memory per
   worker. Checks: each worker's memory at the end less than 10% above its memory at
   five minutes; the p99 of the last five minutes not above the p99 of minutes five
   to ten by more than the run-to-run noise (20%), and the slope of the per-minute
   p99 over minutes 5 to the end; no 5xx.

Output: a report on stdout, bench/results/soak-<date>.json and soak-<date>.svg (the
curve: requests per second, p99 and memory per worker over time).
"""

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import RESULTS, ROOT, ensure_wrk, start_instances, write_results
from bench.load_data import build_plan, prepare
from bench.load_wrk import failed, run_wrk, warm_up, write_wrk_plan
from bench.longrun import (
    MAX_SEARCHES,
    Sampler,
    Servers,
    add_arguments,
    ensure_database,
    instances,
    pace,
    slices,
    with_servers,
    worker_rss,
)

SLICE_SECONDS = 60
SETTLE_MINUTES = 5


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (x, y) points."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def svg_plot(minutes: list[dict], memory: list[tuple[float, dict[int, int]]], title: str) -> str:
    """Three panels sharing the time axis: requests/s, p99 ms, MiB per worker."""
    width, panel, left, top, gap = 720, 150, 70, 50, 40
    end = max([m["t"] + SLICE_SECONDS for m in minutes] + [t for t, _ in memory] + [1])
    workers = sorted({pid for _, sample in memory for pid in sample})
    series = [
        ("requests/s", [[(m["t"] + SLICE_SECONDS / 2, m["rps"]) for m in minutes]]),
        ("p99 ms", [[(m["t"] + SLICE_SECONDS / 2, m["p99_ms"]) for m in minutes]]),
        (
            "RSS MiB, one line per worker",
            [[(t, sample[pid] / 1024) for t, sample in memory if pid in sample] for pid in workers],
        ),
    ]
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
    height = top + len(series) * (panel + gap) + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        ' font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="18" font-size="13">{title}</text>',
    ]
    plot_width = width - left - 20
    for index, (label, lines) in enumerate(series):
        y0 = top + index * (panel + gap)
        values = [y for line in lines for _, y in line] or [0, 1]
        # Memory from a little under its lowest, so that a few percent of growth shows.
        low = 0.0 if index < 2 else min(values) * 0.95
        high = max(values) * 1.1 if index < 2 else max(values) * 1.05
        out.append(
            f'<rect x="{left}" y="{y0}" width="{plot_width}" height="{panel}"'
            ' fill="none" stroke="#999"/>'
        )
        out.append(f'<text x="{left}" y="{y0 - 4}">{label}</text>')
        for tick in range(5):
            value = low + (high - low) * tick / 4
            y = y0 + panel - panel * tick / 4
            out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{value:.0f}</text>')
        for minute in range(0, int(end // 60) + 1, 5):
            x = left + plot_width * minute * 60 / end
            out.append(
                f'<text x="{x:.1f}" y="{y0 + panel + 13}" text-anchor="middle">{minute} min</text>'
            )
        for number, line in enumerate(lines):
            points = " ".join(
                f"{left + plot_width * x / end:.1f},"
                f"{y0 + panel - panel * (y - low) / (high - low):.1f}"
                for x, y in line
            )
            colour = colours[number % len(colours)]
            out.append(
                f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.5"/>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=1800, help="seconds of soak (1800)")
    parser.add_argument("--share", type=float, default=0.7, help="of the measured capacity")
    parser.add_argument("--capacity-seconds", type=int, default=60)
    add_arguments(parser)
    args = parser.parse_args()
    return with_servers(args, run)


def run(args: argparse.Namespace, servers: Servers) -> int:
    url = ensure_database(servers)
    ports, hosts, envs = instances(url, args.redis_port)
    prepared = prepare(envs[0], 2000)
    plan = build_plan(url, prepared, MAX_SEARCHES)
    ensure_wrk()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    RESULTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        folder = Path(folder)
        masters = start_instances(stack, envs, ports, args.workers, f"soak-{stamp}")
        warm_up(hosts, plan["warm_up"])
        write_wrk_plan(folder, plan, ports, args.connections)
        print(f"==> capacity: {args.connections} connections, {args.capacity_seconds} s")
        capacity_results, _, _, window = run_wrk(
            folder,
            ports,
            args.connections,
            args.capacity_seconds,
            RESULTS / f"soak-{stamp}-capacity-wrk.txt",
            masters,
        )
        inside = [a for a in capacity_results["answers"] if window[0] <= a[4] <= window[1]]
        capacity = len(inside) / (window[1] - window[0])
        rate = args.share * capacity
        print(f"    {capacity:.1f} requests/s; soak at {rate:.1f} for {args.duration} s")

        pace(folder, rate, args.connections)
        memory = Sampler(lambda: worker_rss(masters), 10)
        memory.start()
        started = time.monotonic()
        results, _, _, _ = run_wrk(
            folder,
            ports,
            args.connections,
            args.duration,
            RESULTS / f"soak-{stamp}-wrk.txt",
            masters,
        )
        samples = [(t - started, sample) for t, sample in memory.stop()]

    count = args.duration // SLICE_SECONDS
    minutes = slices(results["answers"], started, SLICE_SECONDS, count)
    settled = [(t, sample) for t, sample in samples if t >= SETTLE_MINUTES * 60]
    growth = {}
    if settled:
        first, last = settled[0][1], settled[-1][1]
        growth = {str(pid): (last[pid] - first[pid]) / first[pid] for pid in first if pid in last}
    after = [m for m in minutes if m["t"] >= SETTLE_MINUTES * 60]
    early = [m["p99_ms"] for m in after[:5]]
    late = [m["p99_ms"] for m in after[-5:]]
    p99_ratio = statistics.fmean(late) / statistics.fmean(early) if early and late else 0.0
    p99_slope = slope([(m["t"] / 60, m["p99_ms"]) for m in after]) if len(after) > 1 else 0.0
    server_errors = sum(a[1] >= 500 for a in results["answers"])
    failures = sum(failed(*a[:3]) for a in results["answers"])
    checks = {
        "each worker's memory grows < 10% after 5 min": (
            bool(growth) and max(growth.values()) < 0.10,
            f"largest {max(growth.values(), default=0):+.1%}",
        ),
        "p99 does not drift upward (last 5 min within 20% of min 5-10)": (
            p99_ratio <= 1.2,
            f"ratio {p99_ratio:.2f}, slope {p99_slope:+.2f} ms/min",
        ),
        "no 5xx": (server_errors == 0, str(server_errors)),
    }
    for minute in minutes:
        print(
            f"  {minute['t'] / 60:4.0f} min  {minute['rps']:6.1f} req/s"
            f"  p50 {minute['p50_ms']:5.0f}  p99 {minute['p99_ms']:5.0f} ms"
            f"  5xx {minute['server_errors']}"
        )
    for t, sample in samples[:: max(1, len(samples) // 12)]:
        print(
            f"  {t / 60:5.1f} min  RSS MiB " + " ".join(f"{v / 1024:.1f}" for v in sample.values())
        )
    for what, (met, measured) in checks.items():
        print(f"{'PASS' if met else 'FAIL'}  {what}: {measured}")
    svg = RESULTS / f"soak-{stamp}.svg"
    svg.write_text(
        svg_plot(
            minutes,
            samples,
            f"Soak {stamp}: {rate:.0f} req/s offered ({args.share:.0%} of {capacity:.0f} measured)",
        )
    )
    print(f"plot: {svg.relative_to(ROOT)}")
    write_results(
        "soak",
        {
            "arguments": vars(args),
            "capacity_rps": capacity,
            "offered_rps": rate,
            "minutes": minutes,
            "memory_kib": [(round(t, 1), sample) for t, sample in samples],
            "memory_growth_after_settling": growth,
            "p99_ratio_late_to_early": p99_ratio,
            "p99_slope_ms_per_min": p99_slope,
            "server_errors": server_errors,
            "failures": failures,
            "socket_errors": results["socket_errors"],
            "search_pools_exhausted": results["search_pools_exhausted"],
            "checks": {what: {"met": met, "measured": m} for what, (met, m) in checks.items()},
            "plot": str(svg.relative_to(ROOT)),
        },
    )
    return 0 if all(met for met, _ in checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
