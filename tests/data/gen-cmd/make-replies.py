#!/usr/bin/env python3
# make-replies.py — writes the saved CMD56 replies the tests read: one
# 512-byte reply per documented vendor layout (docs/methodology.md,
# "Health"), into this folder (for cli-health.sh and decode --gen-cmd)
# and, with a leading argument byte, into tests/fuzz/corpus/health.
# Run it again after changing a layout: python3 make-replies.py
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, '..', '..', 'fuzz', 'corpus', 'health')

# The order of cm_health_arguments(): the fuzz target's first byte.
ARGUMENTS = ['sandisk', 'innodisk', 'adata', 'transcend', 'micron', 'swissbit', 'two-step']


def reply(signature):
    r = bytearray(b'\x20' * 512)
    r[0:len(signature)] = signature
    return r


def sandisk():
    r = reply(b'DS')
    r[2:8] = b'240315'
    r[8] = 13                            # 12-12.99 % of its life used
    r[23:26] = (4321).to_bytes(3, 'big')  # power-on count
    return 'sandisk', r


def longsys():
    r = reply(b'\x70\x58')
    struct.pack_into('<IIIIIII', r, 16, 30, 5, 0, 0, 120, 42500, 0)
    struct.pack_into('<I', r, 44, 88)    # 88 % of its life remains
    struct.pack_into('<I', r, 56, 700)   # GiB written to flash
    return 'sandisk', r


def swissbit():
    r = reply(b'Sw')
    struct.pack_into('>I', r, 52, 900)
    struct.pack_into('>I', r, 60, 310)
    r[80] = 97
    struct.pack_into('>III', r, 88, 64, 0, 2)
    struct.pack_into('>I', r, 116, 1234)
    return 'swissbit', r


def two_step():
    r = bytearray(512)
    r[0:2] = b'\x98\x3e'
    struct.pack_into('>H', r, 16, 80)
    struct.pack_into('>H', r, 64, 9950)
    struct.pack_into('>HHHHHHH', r, 96, 9650, 16, 2, 48, 0, 0, 1)
    struct.pack_into('>I', r, 112, 77)
    return 'two-step', r


def main():
    os.makedirs(corpus, exist_ok=True)
    for name, make in [('sandisk', sandisk), ('longsys', longsys), ('swissbit', swissbit),
                       ('two-step', two_step)]:
        argument, r = make()
        assert len(r) == 512
        with open(os.path.join(here, name + '.bin'), 'wb') as f:
            f.write(r)
        with open(os.path.join(corpus, name), 'wb') as f:
            f.write(bytes([ARGUMENTS.index(argument)]) + r)
    with open(os.path.join(here, 'zeros.bin'), 'wb') as f:
        f.write(bytes(512))
    with open(os.path.join(corpus, 'zeros'), 'wb') as f:
        f.write(bytes(513))


main()
