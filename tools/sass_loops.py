#!/usr/bin/env python3
"""Static instruction counts of a kernel's loops in an sm_90 CUBIN, without nvdisasm (docs/PERF.md, "instructions
a visit, SASS sm_90").

Reads the kernel's .text section (16-byte instructions), finds its loops from the backward branches (BRA: the low
12 bits 0x947, the offset in 4-byte units with its low 8 bits at bit 16 and the rest from bit 34), and for each
innermost loop longer than --min prints its size and its size less the instructions that predicated forward
branches skip (the rare paths: the new-minimum block of a visit, a range check's code), with the opcode classes
(low 9 bits; names where known) of what remains. These are static counts of the code, not measured times.

Usage: tools/sass_loops.py CUBIN KERNEL_NAME_PART [--per N] [--min M]
  e.g. nvcc -cubin -arch=sm_90 ... gpu/topo/cuda/topo_cuda.cu -o topo.cubin
       tools/sass_loops.py topo.cubin walk_kernelINS0_13ExactFloatingIfEELi0ELb1E --per 24
"""
import argparse
import collections
import struct

NAMES = {0x21: 'FADD', 0x23: 'FFMA', 0x09: 'FMNMX', 0x0b: 'FSETP', 0x184: 'LDS', 0x183: 'LDL', 0x187: 'STL',
         0x10: 'IADD3', 0x02: 'MOV', 0x12: 'LOP3', 0x145: 'BSSY', 0x141: 'BSYNC', 0x147: 'BRA', 0x24: 'IMAD',
         0x19: 'SHF', 0x0c: 'ISETP', 0x07: 'SEL', 0x08: 'FSEL', 0x11: 'LEA', 0x111: 'F2I', 0x29: 'DADD',
         0x2b: 'DFMA'}


def sections(data):
    shoff = struct.unpack_from('<Q', data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3A)
    secs = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
    stroff = secs[shstrndx][4]
    for name, _typ, _flags, _addr, off, size in secs:
        end = data.index(b'\0', stroff + name)
        yield data[stroff + name:end].decode(), off, size


def branch_target(lo, hi, k):
    """Target index of the BRA at index k, or None when the instruction is not a BRA."""
    if lo & 0xfff != 0x947:
        return None
    full = lo | (hi << 64)
    units = ((full >> 16) & 0xff) | (((full >> 34) & ((1 << 48) - 1)) << 8)
    if units >> 55:
        units -= 1 << 56
    return k + 1 + units // 4


def census(words, start, end):
    """Instructions of [start, end] outside what predicated forward branches skip, by opcode class."""
    skipped, covered = set(), -1
    for k in range(start, end + 1):
        lo, hi = words[k]
        target = branch_target(lo, hi, k)
        always = (lo >> 12) & 0xf == 7  # guard PT
        if target is not None and not always and target > k and k > covered:
            skipped.update(range(k + 1, target))
            covered = target
    kinds = collections.Counter()
    for k in range(start, end + 1):
        if k not in skipped:
            op = words[k][0] & 0x1ff
            kinds[NAMES.get(op, hex(op))] += 1
    return kinds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('cubin')
    parser.add_argument('kernel')
    parser.add_argument('--per', type=int, default=1, help='placements (or iterations) one pass of the loop does')
    parser.add_argument('--min', type=int, default=400, help='smallest loop reported, in instructions')
    args = parser.parse_args()
    data = open(args.cubin, 'rb').read()
    found = False
    for name, off, size in sections(data):
        if not name.startswith('.text.') or args.kernel not in name:
            continue
        found = True
        words = [struct.unpack_from('<QQ', data, off + 16 * k) for k in range(size // 16)]
        loops = []
        for k, (lo, hi) in enumerate(words):
            target = branch_target(lo, hi, k)
            if target is not None and target <= k:
                loops.append((target, k))
        innermost = [l for l in loops if not any(o != l and l[0] <= o[0] and o[1] <= l[1] for o in loops)]
        print(f'{name[6:]}: {len(words)} instructions')
        for start, end in innermost:
            if end - start + 1 < args.min:
                continue
            kinds = census(words, start, end)
            common = sum(kinds.values())
            print(f'  loop [{start}, {end}]: {end - start + 1} instructions ({(end - start + 1) / args.per:.1f} a '
                  f'pass of {args.per}); without the skipped rare paths {common} ({common / args.per:.1f})')
            print('    ' + ' '.join(f'{kind} {count}' for kind, count in kinds.most_common()))
    if not found:
        raise SystemExit(f'no kernel named like {args.kernel} in {args.cubin}')


if __name__ == '__main__':
    main()
