/* fuzz-wear-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test's state file reader (cm-wear-state.c), which --resume
 * believes only when it proves itself: the input is read as a whole
 * state file (nearly always refused by its seal), then again as the body
 * of one, with the seal it should end with, so the reader's bounds are
 * what the fuzzer meets. Whatever it accepts fits the card.
 */

#include "config.h"

#include <string.h>

#include "cm-verify.h"
#include "cm-wear-state.h"

#include "fuzz-common.h"

/* 36 MiB: nine 4 MiB regions. */
#define CARD_BYTES (36 * 1024 * 1024)
#define REGIONS 9

static void
parse (const char *data,
       gsize       length)
{
  g_autoptr(CmWearState) state = cm_wear_state_new ("/dev/null", CARD_BYTES, "/nonexistent");
  g_autoptr(GError) error = NULL;
  CmWearPlace place;

  cm_wear_place_init (&place, CARD_BYTES / 512);
  if (cm_wear_state_parse (state, data, length, &place, &error))
    {
      g_assert (place.round == place.endurance->rounds->len + 1);
      g_assert (place.place <= REGIONS);
      g_assert (place.round_new_bad <= place.round_bad && place.round_bad <= CARD_BYTES / 512);
      g_assert (!place.reading || place.place <= REGIONS);
      for (guint i = 0; i < place.failed->len; i++)
        g_assert (g_array_index (place.failed, guint64, i) < REGIONS);
      for (guint i = 0; i < place.endurance->rounds->len; i++)
        {
          const CmWearRound *r = &g_array_index (place.endurance->rounds, CmWearRound, i);

          g_assert (r->round == i + 1 && r->new_bad_sectors <= r->bad_sectors && r->bad_sectors <= r->sectors);
        }
    }
  else
    g_assert (error != NULL && error->domain == CM_VERIFY_ERROR);
  cm_wear_place_clear (&place);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
  g_autofree char *whole = g_malloc (size + 100);
  gsize length;

  parse ((const char *) data, size);

  memcpy (whole, data, size);
  length = size + g_snprintf (whole + size, 100, "[checksum]\nsha256=%s\n", sum);
  parse (whole, length);
  return 0;
}
