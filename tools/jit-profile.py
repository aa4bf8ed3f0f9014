#!/usr/bin/env python3
"""Per-instruction execution counts of softgl's generated code, from a callgrind profile.

Usage:
  SOFTGL_DUMP=bin valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=P.cg PROGRAM
  tools/jit-profile.py P.cg [--per N] [--min C]

`SOFTGL_DUMP=bin` writes each compiled function's bytes to $TMPDIR/softgl-jit-ADDR.bin
(ADDR: where it ran). This script disassembles each file with objdump at its address and
prints, per function, the instructions with their execution counts divided by --per (for
example the number of quads, to read instructions per quad), skipping those below --min.
The total per function comes first.
"""
import argparse
import glob
import os
import re
import subprocess
import tempfile


def counts_by_address(path):
    """Instruction address -> Ir count, over every function of the profile."""
    counts = {}
    addr = None
    skip_next = False
    with open(path) as f:
        for line in f:
            if line.startswith("calls="):
                # The next cost line is the inclusive cost of a call, not an instruction's.
                skip_next = True
                continue
            m = re.match(r"^(0x[0-9a-f]+|\+\d+|-\d+|\*)\s+(\d+)(?:\s+(\d+))?", line)
            if not m:
                continue
            a = m.group(1)
            if a.startswith("0x"):
                addr = int(a, 16)
            elif a.startswith("+"):
                addr += int(a[1:])
            elif a.startswith("-"):
                addr -= int(a[1:])
            if skip_next:
                skip_next = False
                continue
            # With --dump-instr=yes and no line numbers, a line is "addr Ir" or "addr line Ir".
            ir = int(m.group(3) if m.group(3) is not None else m.group(2))
            counts[addr] = counts.get(addr, 0) + ir
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("profile")
    ap.add_argument("--per", type=float, default=1.0, help="divide counts by this")
    ap.add_argument("--min", type=float, default=0.0, help="hide instructions below this")
    ap.add_argument("--dir", default=tempfile.gettempdir(), help="where the .bin files are")
    args = ap.parse_args()
    counts = counts_by_address(args.profile)
    for path in sorted(glob.glob(os.path.join(args.dir, "softgl-jit-*.bin"))):
        base = int(re.search(r"softgl-jit-([0-9a-f]+)\.bin", path).group(1), 16)
        size = os.path.getsize(path)
        dis = subprocess.run(
            ["objdump", "-D", "-b", "binary", "-mi386:x86-64", "--no-show-raw-insn",
             "--adjust-vma=0x%x" % base, path],
            capture_output=True, text=True, check=True).stdout
        rows = []
        for line in dis.splitlines():
            m = re.match(r"^\s*([0-9a-f]+):\s*(.*)", line)
            if m:
                a = int(m.group(1), 16)
                rows.append((a, counts.get(a, 0) / args.per, m.group(2).strip()))
        total = sum(c for _, c, _ in rows)
        if total == 0:
            continue
        print("== %s (%d bytes at 0x%x): %.1f instructions" % (path, size, base, total))
        for a, c, text in rows:
            if c >= args.min and c > 0:
                print("%9.2f  %x  %s" % (c, a, text))


if __name__ == "__main__":
    main()
