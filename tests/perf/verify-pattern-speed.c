/* verify-pattern-speed.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How fast one core makes and checks the full verify's pattern
 * (cm_verify_fill, cm_verify_check), so that the computer, a Raspberry
 * Pi's too, is never what limits a card. Run by tests/perf/verify-speed.
 *
 * Usage: verify-pattern-speed [MIB]   (default 2048)
 * Prints fill, check and fill+check rates in GB/s (10^9 bytes).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cm-engine.h"
#include "cm-verify.h"

#define BUFFER (4 * 1024 * 1024)

int
main (int   argc,
      char *argv[])
{
  guint64 total = (argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 2048) * 1024 * 1024;
  g_autofree guint8 *buffer = cm_engine_alloc (BUFFER);
  CmVerifyCounts counts = { 0 };
  gint64 fill_us = 0, check_us = 0;

  for (guint64 offset = 0; offset < total; offset += BUFFER)
    {
      gint64 t0 = g_get_monotonic_time (), t1;

      cm_verify_fill (buffer, BUFFER, offset);
      t1 = g_get_monotonic_time ();
      if (!cm_verify_check (buffer, BUFFER, offset, &counts))
        {
          fprintf (stderr, "verify-pattern-speed: the pattern did not check at %" G_GUINT64_FORMAT "\n", offset);
          return 1;
        }
      fill_us += t1 - t0;
      check_us += g_get_monotonic_time () - t1;
    }

  printf ("fill %.2f GB/s\ncheck %.2f GB/s\nfill+check %.2f GB/s\n",
          total / 1e3 / fill_us, total / 1e3 / check_us, total / 1e3 / (fill_us + check_us));
  return 0;
}
