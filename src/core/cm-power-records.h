/* cm-power-records.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The power-cut test's self-checking sectors: every 512-byte sector it
 * writes says which run wrote it, where it belongs and in which pass,
 * and carries a checksum of itself, so a sector read back after a cut
 * tells on its own whether it is whole and which write it holds.
 *
 * The test's area is a row of 8 KiB slots: the first 4 KiB of a slot
 * takes the records the test writes, the second 4 KiB is reference, written
 * once before the first cut (pass 0) and never again, so data a card
 * damages beside what it was writing lands in reference.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CM_POWER_SECTOR 512
#define CM_POWER_RECORD 4096
#define CM_POWER_SLOT   (2 * CM_POWER_RECORD)

typedef enum
{
  CM_POWER_SECTOR_VALID,     /* whole, of this run, in its place: @pass says which write */
  CM_POWER_SECTOR_FOREIGN,   /* whole, but not this run's, or not for this place */
  CM_POWER_SECTOR_DAMAGED,   /* its checksum does not match: torn or corrupt */
} CmPowerSector;

void          cm_power_sector_fill   (guint8       *sector,
                                      guint64       run,
                                      guint64       offset,
                                      guint64       pass);
void          cm_power_record_fill   (guint8       *record,
                                      gsize         length,
                                      guint64       run,
                                      guint64       offset,
                                      guint64       pass);
CmPowerSector cm_power_sector_check  (const guint8 *sector,
                                      guint64       run,
                                      guint64       offset,
                                      guint64      *pass);

/* Where the record of slot @slot lies, and its reference. */
static inline guint64 cm_power_record_offset    (guint64 slot) { return slot * CM_POWER_SLOT; }
static inline guint64 cm_power_reference_offset (guint64 slot) { return slot * CM_POWER_SLOT + CM_POWER_RECORD; }

/* The write number @index of cut @cut: its pass (never 0, the
 * reference's) and its slot, among @n_slots. Writes come in runs of
 * eight, alternately sequential (the next slots) and random. */
guint64       cm_power_write_pass    (guint         cut,
                                      guint64       index);
guint64       cm_power_write_slot    (guint64       run,
                                      guint         cut,
                                      guint64       index,
                                      guint64       n_slots);

G_END_DECLS
