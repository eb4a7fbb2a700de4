/* cm-power-records.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A sector is: "CMPOWER1", the run, its own offset on the card, the
 * pass, filler drawn from those three, and a 64-bit FNV-1a checksum of
 * all that in its last eight bytes (little-endian throughout). The
 * checksum catches a torn or flipped sector; the offset a sector that
 * landed elsewhere; the run another card or an older run.
 */

#include "config.h"

#include <string.h>

#include "cm-power-records.h"

#define MAGIC "CMPOWER1"
#define SUM_AT (CM_POWER_SECTOR - 8)

static guint64
fnv1a (const guint8 *data,
       gsize         length)
{
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  for (gsize i = 0; i < length; i++)
    {
      h ^= data[i];
      h *= G_GUINT64_CONSTANT (0x100000001b3);
    }
  return h;
}

static void
put64 (guint8  *at,
       guint64  v)
{
  v = GUINT64_TO_LE (v);
  memcpy (at, &v, 8);
}

static guint64
get64 (const guint8 *at)
{
  guint64 v;

  memcpy (&v, at, 8);
  return GUINT64_FROM_LE (v);
}

/* splitmix64: filler and slots that a seed gives again, the same on
 * every host. */
static guint64
mix (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

void
cm_power_sector_fill (guint8  *sector,
                      guint64  run,
                      guint64  offset,
                      guint64  pass)
{
  guint64 seed = mix (run ^ mix (offset ^ mix (pass)));

  memcpy (sector, MAGIC, 8);
  put64 (sector + 8, run);
  put64 (sector + 16, offset);
  put64 (sector + 24, pass);
  for (gsize at = 32; at < SUM_AT; at += 8)
    put64 (sector + at, (seed = mix (seed)));
  put64 (sector + SUM_AT, fnv1a (sector, SUM_AT));
}

void
cm_power_record_fill (guint8  *record,
                      gsize    length,
                      guint64  run,
                      guint64  offset,
                      guint64  pass)
{
  g_return_if_fail (length % CM_POWER_SECTOR == 0);

  for (gsize at = 0; at < length; at += CM_POWER_SECTOR)
    cm_power_sector_fill (record + at, run, offset + at, pass);
}

CmPowerSector
cm_power_sector_check (const guint8 *sector,
                       guint64       run,
                       guint64       offset,
                       guint64      *pass)
{
  if (get64 (sector + SUM_AT) != fnv1a (sector, SUM_AT))
    {
      /* All zeros or all ones is a sector never written (or erased),
       * not a torn one: the checksum of a real sector is neither. */
      gboolean blank = TRUE;

      for (gsize i = 1; i < CM_POWER_SECTOR && blank; i++)
        blank = sector[i] == sector[0] && (sector[0] == 0 || sector[0] == 0xff);
      return blank ? CM_POWER_SECTOR_FOREIGN : CM_POWER_SECTOR_DAMAGED;
    }
  if (memcmp (sector, MAGIC, 8) != 0 || get64 (sector + 8) != run || get64 (sector + 16) != offset)
    return CM_POWER_SECTOR_FOREIGN;
  if (pass != NULL)
    *pass = get64 (sector + 24);
  return CM_POWER_SECTOR_VALID;
}

guint64
cm_power_write_pass (guint   cut,
                     guint64 index)
{
  return ((guint64) (cut + 1) << 32) | (index + 1);
}

guint64
cm_power_write_slot (guint64 run,
                     guint   cut,
                     guint64 index,
                     guint64 n_slots)
{
  guint64 burst = index / 8;
  g_return_val_if_fail (n_slots > 0, 0);

  if (burst % 2 == 0)
    return (mix (run ^ mix (cut ^ mix (burst))) + index % 8) % n_slots;
  return mix (run ^ mix (((guint64) cut << 40) ^ index ^ G_GUINT64_CONSTANT (0x5a5a))) % n_slots;
}
