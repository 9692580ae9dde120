#!/usr/bin/python3
"""Writes expf.txt, the C library's expf on sample float32 inputs.

Run from this folder on Linux (glibc 2.27 or later, x86-64 with FMA):

    /usr/bin/python3 make_expf.py

Each line of expf.txt is "XXXXXXXX YYYYYYYY": the bits of a float32 x and
of expf(x), in hexadecimal. The inputs: special values and the bounds of
expf's special cases with their neighbours; every input, among a regular
sample of one in 499 of the finite floats in [-104, 89], where expf(x)
differs from the float64 exp rounded to float32 (the cases that rounding a
float64 exp cannot reproduce); and every 2000th input of that sample. The
output is deterministic.
"""

import ctypes
import math
import os
import struct

libm = ctypes.CDLL("libm.so.6")
libm.expf.restype = ctypes.c_float
libm.expf.argtypes = [ctypes.c_float]


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def expf_bits(b):
    return bits(libm.expf(f32(b)))


def naive_bits(b):
    x = f32(b)
    try:
        y = math.exp(x)
    except OverflowError:
        y = math.inf
    try:
        return bits(y)  # struct rounds the double to float32
    except OverflowError:
        return 0x7f800000


H = float.fromhex


def main():
    inputs = set()
    for v in (0.0, -0.0, math.inf, -math.inf, 1.0, -1.0, 88.0, -88.0, H("0x1.62e42ep6"), H("0x1.62e42cp6"),
              H("0x1.62e430p6"), H("-0x1.9fe368p6"), H("-0x1.9fe366p6"), H("-0x1.9fe36ap6"), H("-0x1.9d1d9ep6"),
              H("-0x1.9d1d9cp6"), H("-0x1.9d1da0p6"), 1e-30, -1e-30, 1.5e-45, -1.5e-45, 3.4028234e38,
              -3.4028234e38):
        inputs.add(bits(v))
    sample = []
    for lo, hi in ((0x00000000, bits(89.0)), (0x80000000, bits(-104.0))):
        sample.extend(range(lo, hi + 1, 499))
    for i, b in enumerate(sample):
        if i % 2000 == 0 or expf_bits(b) != naive_bits(b):
            inputs.add(b)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "expf.txt"), "w") as f:
        for b in sorted(inputs):
            f.write("%08x %08x\n" % (b, expf_bits(b)))


if __name__ == "__main__":
    main()
