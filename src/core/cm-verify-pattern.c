/* cm-verify-pattern.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's data, F3's: every 512-byte sector starts with its own
 * offset as a 64-bit little-endian number and goes on with 63 numbers of a
 * linear congruential sequence seeded with that offset, so it names its
 * place. A sector that reads back as written is ok; one with its own
 * offset and a few words off is changed; one holding another place's
 * intact sector is overwritten (a fake card's wrap-around); anything else
 * is corrupted. The files it is written in, F3's N.h2w. The findings
 * in words are cm-verify-facts.c's.
 */

#include "config.h"

#include "cm-verify-private.h"

#define WORDS (CM_VERIFY_SECTOR / 8)
#define TOLERANCE 2            /* words off for "changed", as f3read 8 counts */

/* The files. */

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

/* The numbers of the N.h2w files in the folder, sorted. */
GArray *
cm_verify_list_h2w (const char *folder)
{
  GArray *numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      const char *p = name;
      guint64 n = 0;

      while (g_ascii_isdigit (*p) && n < G_MAXUINT)
        n = n * 10 + (guint64) (*p++ - '0');
      if (p != name && g_str_equal (p, ".h2w") && n >= 1 && n < G_MAXUINT)
        {
          guint number = (guint) n;
          g_array_append_val (numbers, number);
        }
    }
  g_array_sort (numbers, compare_uint);
  return numbers;
}

/* The pattern. */

static inline guint64
next_number (guint64 n)
{
  return n * G_GUINT64_CONSTANT (4294967311) + 17;
}

/* Sectors are made LANES at a time: each sector's sequence depends on
 * its previous number, so one alone keeps the multiplier waiting; eight
 * side by side keep it busy (3–4 times faster on one core). */
#define LANES 8

static inline void
fill_sector (guint64 *words,
             guint64  offset)
{
  guint64 n = offset;

  words[0] = GUINT64_TO_LE (offset);
  for (guint i = 1; i < WORDS; i++)
    words[i] = GUINT64_TO_LE (n = next_number (n));
}

void
cm_verify_fill (guint8  *buffer,
                gsize    length,
                guint64  offset)
{
  gsize s = 0;

  g_return_if_fail (length % CM_VERIFY_SECTOR == 0);

  for (; s + LANES * CM_VERIFY_SECTOR <= length; s += LANES * CM_VERIFY_SECTOR)
    {
      guint64 *words = (guint64 *) (buffer + s);
      guint64 n[LANES];

      for (guint l = 0; l < LANES; l++)
        words[l * WORDS] = GUINT64_TO_LE (n[l] = offset + s + l * CM_VERIFY_SECTOR);
      for (guint i = 1; i < WORDS; i++)
        for (guint l = 0; l < LANES; l++)
          words[l * WORDS + i] = GUINT64_TO_LE (n[l] = next_number (n[l]));
    }
  for (; s < length; s += CM_VERIFY_SECTOR)
    fill_sector ((guint64 *) (buffer + s), offset + s);
}

/* Whether LANES sectors from @offset are exactly as written. */
static inline gboolean
lanes_intact (const guint64 *words,
              guint64        offset)
{
  guint64 n[LANES];
  guint64 diff = 0;

  for (guint l = 0; l < LANES; l++)
    diff |= words[l * WORDS] ^ GUINT64_TO_LE (n[l] = offset + l * CM_VERIFY_SECTOR);
  for (guint i = 1; i < WORDS; i++)
    for (guint l = 0; l < LANES; l++)
      diff |= words[l * WORDS + i] ^ GUINT64_TO_LE (n[l] = next_number (n[l]));
  return diff == 0;
}

typedef enum
{
  SECTOR_OK,
  SECTOR_CHANGED,
  SECTOR_OVERWRITTEN,
  SECTOR_CORRUPTED,
} SectorState;

static inline SectorState
check_sector (const guint64 *words,
              guint64        expected)
{
  guint64 found = GUINT64_FROM_LE (words[0]);
  guint64 n = found;
  guint off = 0;

  for (guint i = 1; i < WORDS; i++)
    off += GUINT64_FROM_LE (words[i]) != (n = next_number (n));

  if (found == expected)
    return off == 0 ? SECTOR_OK : off <= TOLERANCE ? SECTOR_CHANGED : SECTOR_CORRUPTED;
  return off <= TOLERANCE ? SECTOR_OVERWRITTEN : SECTOR_CORRUPTED;
}

static void
count_sector (CmVerifyCounts *counts,
              SectorState     state)
{
  switch (state)
    {
    case SECTOR_OK:
      counts->ok++;
      break;
    case SECTOR_CHANGED:
      counts->changed++;
      break;
    case SECTOR_OVERWRITTEN:
      counts->overwritten++;
      break;
    case SECTOR_CORRUPTED:
    default:
      counts->corrupted++;
      break;
    }
}

gboolean
cm_verify_check (const guint8   *buffer,
                 gsize           length,
                 guint64         offset,
                 CmVerifyCounts *counts)
{
  guint64 before;
  gsize s = 0;

  g_return_val_if_fail (length % CM_VERIFY_SECTOR == 0, FALSE);
  g_return_val_if_fail (counts != NULL, FALSE);

  before = counts->ok;
  for (; s + LANES * CM_VERIFY_SECTOR <= length; s += LANES * CM_VERIFY_SECTOR)
    {
      if (lanes_intact ((const guint64 *) (buffer + s), offset + s))
        {
          counts->ok += LANES;
          continue;
        }
      /* Something is off here: sort each sector. */
      for (guint l = 0; l < LANES; l++)
        count_sector (counts, check_sector ((const guint64 *) (buffer + s + l * CM_VERIFY_SECTOR),
                                            offset + s + l * CM_VERIFY_SECTOR));
    }
  for (; s < length; s += CM_VERIFY_SECTOR)
    count_sector (counts, check_sector ((const guint64 *) (buffer + s), offset + s));
  return counts->ok - before == length / CM_VERIFY_SECTOR;
}

gboolean
cm_verify_sector_found (const guint8 *sector,
                        guint64      *found)
{
  const guint64 *words = (const guint64 *) sector;
  SectorState state;

  *found = GUINT64_FROM_LE (words[0]);
  state = check_sector (words, *found);
  return state == SECTOR_OK;
}

gboolean
cm_verify_sector_is_ok (const guint8 *sector,
                        guint64       offset)
{
  return check_sector ((const guint64 *) sector, offset) == SECTOR_OK;
}

/* Findings in words. */

gboolean
cm_verify_summary_lost_data (const CmVerifySummary *v)
{
  g_return_val_if_fail (v != NULL, FALSE);

  return v->lost_bytes > 0 || !v->complete;
}
