#!/usr/bin/env python3
"""Turns `kernelscope-cli bench --json` files into the Markdown rows of docs/PERF.md.

For each (kernel, type, size, channels, variant) it keeps the best block, as a user sweeping blocks would.
Usage: tools/perf_table.py bench-a.json [bench-b.json ...]
"""
import json
import sys


def main(paths):
    best = {}
    params = {}
    for path in paths:
        doc = json.load(open(path))
        for r in doc["results"]:
            if r.get("status") != "ok":
                continue
            key = (r["kernel"], r["type"], r["size"], r["channels"], r["variant"])
            params[key[:4]] = ", ".join(f"{k}={v}" for k, v in r["params"].items() if not k.startswith("border"))
            if key not in best or r["median_ms"] < best[key]["median_ms"]:
                best[key] = r
    print("| kernel | params | type | size | ch | variant | best block | median ms | GB/s | % of copy BW | vs naive | vs cpu |")
    print("| --- | --- | --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(best, key=lambda k: (k[0], k[1], k[2], k[3], ["cpu", "naive", "tiled", "separable"].index(k[4]) if k[4] in ["cpu", "naive", "tiled", "separable"] else 9)):
        r = best[key]
        naive = best.get(key[:4] + ("naive",))
        block = f"{r['block']['x']}x{r['block']['y']}" if r.get("block") else "-"
        vs_naive = f"{naive['median_ms'] / r['median_ms']:.2f}x" if naive and r["variant"] != "cpu" else "-"
        cpu = best.get(key[:4] + ("cpu",))
        vs_cpu = f"{cpu['median_ms'] / r['median_ms']:.0f}x" if cpu and r["variant"] != "cpu" else "-"
        pct = f"{r['percent_of_copy']:.1f}%" if r.get("percent_of_copy") else "-"
        print(f"| {key[0]} | {params[key[:4]]} | {key[1]} | {key[2]}² | {key[3]} | {key[4]} | {block} | {r['median_ms']:.3f} | "
              f"{r['gbps']:.0f} | {pct} | {vs_naive} | {vs_cpu} |")


if __name__ == "__main__":
    main(sys.argv[1:])
