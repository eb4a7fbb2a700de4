#!/usr/bin/env python3
# read-layout.py DEVICE — a formatted card's MBR's first partition and its
# boot sector, as shell lines: start (bytes), length (bytes), type, fs,
# cluster (bytes), hidden (the boot sector's own idea of where it starts,
# bytes), label, data (where the first cluster starts, bytes from the
# card's start). Read by cli-format.sh and cli-format-user.sh.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import struct, sys
with open(sys.argv[1], 'rb') as f:
    mbr = f.read(512)
    assert mbr[510:512] == b'\x55\xaa', 'no MBR signature'
    status, ptype, lba, sectors = mbr[446], mbr[450], *struct.unpack_from('<II', mbr, 454)
    others = mbr[462:510]
    f.seek(lba * 512)
    bs = f.read(512)
if bs[3:11] == b'EXFAT   ':
    fs = 'exfat'
    hidden = struct.unpack_from('<Q', bs, 64)[0] * 512
    cluster = (1 << bs[108]) * (1 << bs[109])
    data = struct.unpack_from('<I', bs, 88)[0] << bs[108]
    label = ''
else:
    per_sector, spc = struct.unpack_from('<HB', bs, 11)
    cluster = per_sector * spc
    hidden = struct.unpack_from('<I', bs, 28)[0] * per_sector
    reserved, fats, root, fat16 = struct.unpack_from('<HBHxxxH', bs, 14)
    data = (reserved + fats * (fat16 or struct.unpack_from('<I', bs, 36)[0])) * per_sector + root * 32
    if bs[82:90] == b'FAT32   ':
        fs, label = 'fat32', bs[71:82]
    else:
        fs, label = bs[54:62].decode().strip().lower(), bs[43:54]
    label = label.decode().strip()
print(f"start={lba * 512} length={sectors * 512} type={ptype} fs={fs} cluster={cluster} hidden={hidden} "
      f"label='{label}' others_empty={int(not any(others))} data={lba * 512 + data}")
