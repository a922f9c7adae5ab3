#!/usr/bin/env python3
"""The CPU backend against OpenCV on the same threads, in one run.

For each case, `kernelscope-cli --threads T bench --backends cpu` times the kernel (its own warm-up, then the
median of the timed runs) and OpenCV's Python bindings time the equivalent call on an image of the same size
and type (cv2.setNumThreads(T), warm-up, median). Several kernelscope builds can be compared in the same run
(--cli before=OLD --cli after=NEW). With --rounds N every tool is timed N times in turn and each figure is the
median of its N medians, so that a machine shared with other work loads all of them alike. Prints a table with
each build's ratio to OpenCV and the Highway target the build's CPU backend reports (bench JSON
devices.cpu_simd); --json keeps the figures.

Needs numpy and OpenCV's bindings, for the comparison only (Debian: apt-get install python3-opencv; run with
/usr/bin/python3 if another python3 comes first on PATH). Used by scripts/gpu-check's "CPU against OpenCV"
step and for docs/PERF.md's CPU table:
  tests/perf/cpu_vs_opencv.py --cli build/app/kernelscope-cli --size 4096 --threads 2
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

try:
    import cv2
    import numpy as np
except ImportError as e:
    sys.exit(f"cpu_vs_opencv: {e}; needs numpy and OpenCV's Python bindings (Debian: apt-get install "
             "python3-opencv; run it with /usr/bin/python3 if another python3 comes first on PATH)")


def sobel_magnitude(src, dst, scratch):
    """sqrt(dx^2 + dy^2) of the 3x3 Sobel derivatives, in float; u8 results rounded and saturated, as
    kernelscope's sobel magnitude does."""
    dx, dy, mag = scratch
    cv2.Sobel(src, cv2.CV_32F, 1, 0, dst=dx)
    cv2.Sobel(src, cv2.CV_32F, 0, 1, dst=dy)
    if dst.dtype == np.float32:
        cv2.magnitude(dx, dy, dst)
    else:
        cv2.magnitude(dx, dy, mag)
        cv2.convertScaleAbs(mag, dst)


# name: (kernelscope kernel, type, parameters, OpenCV's equivalent as f(src, dst, scratch)[, kernelscope's CPU
# variant, default "cpu"]). OpenCV's default
# border is BORDER_REFLECT_101, kernelscope's reflect101 (medianBlur replicates; the timing does not depend on
# it). The gaussians' windows: kernelscope's radius ceil(3 sigma), so 13x13 for sigma 2 and 49x49 for 8.
def gaussian(ksize, sigma):
    return lambda s, d, _: cv2.GaussianBlur(s, (ksize, ksize), sigma, dst=d)


CASES = {
    "box3_u8": ("box", "u8", ["radius=1"], lambda s, d, _: cv2.blur(s, (3, 3), dst=d)),
    "median3_u8": ("median", "u8", ["radius=1"], lambda s, d, _: cv2.medianBlur(s, 3, dst=d)),
    "median5_u8": ("median", "u8", ["radius=2"], lambda s, d, _: cv2.medianBlur(s, 5, dst=d)),
    "gaussian2_f32": ("gaussian", "f32", ["sigma=2"], gaussian(13, 2)),
    "gaussian8_f32": ("gaussian", "f32", ["sigma=8"], gaussian(49, 8)),
    "gaussian2_u8": ("gaussian", "u8", ["sigma=2"], gaussian(13, 2)),
    # The recursive Gaussian against OpenCV's window at the same sigma: ksize (0, 0) lets OpenCV size it (8 sigma
    # + 1 taps for f32: 129 for sigma 16).
    "recursive4_f32": ("gaussian", "f32", ["sigma=4"], gaussian(0, 4), "cpu_recursive"),
    "recursive16_f32": ("gaussian", "f32", ["sigma=16"], gaussian(0, 16), "cpu_recursive"),
    "recursive32_f32": ("gaussian", "f32", ["sigma=32"], gaussian(0, 32), "cpu_recursive"),
    "sobel_f32": ("sobel", "f32", ["output=magnitude"], sobel_magnitude),
    "sobel_u8": ("sobel", "u8", ["output=magnitude"], sobel_magnitude),
    "sobel_dx_u8": ("sobel", "u8", ["output=dx"], lambda s, d, _: cv2.Sobel(s, -1, 1, 0, dst=d)),
    "laplacian_u8": ("laplacian", "u8", ["neighbours=4"], lambda s, d, _: cv2.Laplacian(s, -1, dst=d)),
}
DEFAULT_CASES = "median3_u8,gaussian2_f32,gaussian8_f32,sobel_f32,sobel_u8,sobel_dx_u8,box3_u8"


def time_kernelscope(cli, case, size, threads, repeat, warmup):
    kernel, typ, params, _ = CASES[case][:4]
    variant = CASES[case][4] if len(CASES[case]) > 4 else "cpu"
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.json")
        cmd = [cli, "--threads", str(threads), "bench", "--backends", "cpu", "--kernels", kernel,
               "--types", typ, "--sizes", str(size), "--repeat", str(repeat), "--warmup", str(warmup),
               "--json", out]
        for p in params:
            cmd += ["-p", p]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            j = json.load(f)
    result = next((r for r in j["results"] if r["variant"] == variant), None)
    if result is None:
        raise RuntimeError(f"{cli} {case}: no result of the {variant} variant (a build without it?)")
    if result["status"] != "ok":
        raise RuntimeError(f"{cli} {case}: {result['status']} {result['note']}")
    return result["median_ms"], j["devices"].get("cpu_simd")  # builds before Highway have no cpu_simd


def time_opencv(case, size, threads, repeat, warmup):
    _, typ, _, run = CASES[case][:4]
    rng = np.random.default_rng(1)
    src = rng.integers(0, 256, (size, size), dtype=np.uint8)
    if typ == "f32":
        src = src.astype(np.float32) / 255.0
    dst = np.empty_like(src)
    scratch = tuple(np.empty((size, size), np.float32) for _ in range(3))
    cv2.setNumThreads(threads)
    for _ in range(warmup):
        run(src, dst, scratch)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(src, dst, scratch)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", action="append", required=True,
                    help="kernelscope-cli to time, as PATH or LABEL=PATH; repeat to compare builds")
    ap.add_argument("--size", type=int, default=4096, help="square image side (default 4096)")
    ap.add_argument("--threads", default="2", help="thread counts, comma-separated (default 2)")
    ap.add_argument("--repeat", type=int, default=10, help="timed runs per case (default 10)")
    ap.add_argument("--warmup", type=int, default=2, help="untimed runs first (default 2)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="time every tool this many times in turn; report the median of medians (default 1)")
    ap.add_argument("--cases", default=DEFAULT_CASES, help=f"comma-separated, of: {', '.join(CASES)}")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()

    clis = [c.split("=", 1) if "=" in c else [os.path.basename(c), c] for c in args.cli]
    cases = args.cases.split(",")
    for c in cases:
        if c not in CASES:
            sys.exit(f"cpu_vs_opencv: unknown case '{c}'; known: {', '.join(CASES)}")
    rows = []
    for threads in [int(t) for t in args.threads.split(",")]:
        for case in cases:
            row = {"case": case, "threads": threads, "size": args.size}
            rounds = {label: [] for label, _ in clis}
            rounds["opencv"] = []
            for _ in range(args.rounds):
                for label, path in clis:
                    ms, row[label + " simd"] = time_kernelscope(path, case, args.size, threads, args.repeat,
                                                                args.warmup)
                    rounds[label].append(ms)
                rounds["opencv"].append(time_opencv(case, args.size, threads, args.repeat, args.warmup))
            for label, values in rounds.items():
                row[label] = statistics.median(values)
            row["rounds"] = rounds
            rows.append(row)
            cells = [f"{label} {row[label]:8.2f} ms ({row[label] / row['opencv']:.2f}x)" for label, _ in clis]
            print(f"{case:14} {threads:2} threads  " + "  ".join(cells) + f"  opencv {row['opencv']:8.2f} ms",
                  flush=True)

    print(f"\n{args.size}x{args.size}, medians of {args.repeat} runs after {args.warmup} warm-ups"
          + (f", median of {args.rounds} rounds" if args.rounds > 1 else "")
          + f"; OpenCV {cv2.__version__}; ratio = kernelscope / OpenCV (below 1: kernelscope is faster)")
    header = ["case", "threads"] + [f"{label} ms" for label, _ in clis] + ["OpenCV ms"] + \
             [f"{label} / OpenCV" for label, _ in clis]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for r in rows:
        cells = [r["case"], str(r["threads"])] + [f"{r[label]:.2f}" for label, _ in clis] + \
                [f"{r['opencv']:.2f}"] + [f"{r[label] / r['opencv']:.2f}x" for label, _ in clis]
        print("| " + " | ".join(cells) + " |")
    for label, _ in clis:
        simd = next((r[label + " simd"] for r in rows if r[label + " simd"]), None)
        print(f"{label}: CPU SIMD {simd or 'not reported (a build before Highway)'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"size": args.size, "repeat": args.repeat, "warmup": args.warmup, "rounds": args.rounds,
                       "opencv_version": cv2.__version__, "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
