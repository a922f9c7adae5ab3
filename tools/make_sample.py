#!/usr/bin/env python3
"""Writes assets/sample.png, the test card kernelscope opens when given nothing.

Made by the project (public domain): a zone plate (shows aliasing and blur), colour gradients, sharp-edged shapes
(for Sobel and Laplacian), a checkerboard, and a patch of salt-and-pepper noise (for median). Standard library only.
Usage: tools/make_sample.py [OUT.png]
"""
import math
import random
import struct
import sys
import zlib

W, H = 1024, 768


def pixel(x, y, rng_noise):
    # Left half: zone plate, radial chirp in gray.
    if x < 512:
        cx, cy = 256, 384
        r2 = (x - cx) ** 2 + (y - cy) ** 2
        v = 0.5 + 0.5 * math.cos(math.pi * r2 / 900.0)
        g = int(round(255 * v))
        return (g, g, g)
    # Right top: colour gradient with shapes.
    if y < 384:
        u, t = (x - 512) / 511.0, y / 383.0
        r, g, b = int(255 * u), int(255 * t), int(255 * (1 - u))
        if (x - 640) ** 2 + (y - 150) ** 2 < 70 ** 2:
            return (250, 250, 250)
        if 780 <= x < 940 and 60 <= y < 200:
            return (20, 20, 20)
        if abs((x - 860) - (y - 300)) < 6 and 250 < y < 370:
            return (255, 255, 0)
        return (r, g, b)
    # Right bottom: checkerboard with a noisy patch.
    check = ((x // 32) + (y // 32)) % 2
    base = 200 if check else 55
    if 700 <= x < 900 and 480 <= y < 680:
        n = rng_noise.random()
        if n < 0.08:
            return (255, 255, 255)
        if n < 0.16:
            return (0, 0, 0)
    return (base, base, base - 20 if check else base + 20)


def write_png(path, rows):
    raw = b"".join(b"\x00" + bytes(row) for row in rows)

    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "assets/sample.png"
    rng = random.Random(20261122)
    rows = []
    for y in range(H):
        row = []
        for x in range(W):
            row.extend(pixel(x, y, rng))
        rows.append(row)
    write_png(out, rows)


if __name__ == "__main__":
    main()
