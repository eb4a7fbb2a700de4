/* cm-verdict-host.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the reader or card slot does to a verdict: the speed it cannot go
 * past (tests/data/reference/sd-cards.md § Host ceilings), whether it
 * queues commands, and how an A2 claim is judged against A1 when it does
 * not (§ A2). The class rules themselves are in cm-verdict.c.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-test-table.h"
#include "cm-verdict-private.h"

/* Queue depth 32 must be this much faster than depth 1 for us to believe
 * the host queues commands. */
#define QUEUEING_GAIN 1.3

/* The ceiling of a native slot from the timing it negotiated with the
 * card, when the computer told it (root reads debugfs). */
static gboolean
find_timing_ceiling (CmJudge *judge)
{
  const char *timing = cm_result_get_bus_timing (judge->result);
  g_autofree char *what = NULL;

  if (!cm_bus_timing_get_ceiling (timing, &judge->ceiling_low, &judge->ceiling_high))
    return FALSE;

  /* Translators: %s is a bus mode such as "DDR50" or "SDR104". */
  what = g_strdup_printf (_("this card slot, which runs the card at %s"), timing);
  judge->ceiling_what = g_intern_string (what);
  return TRUE;
}

/* Ceilings of the reader or host slot, from tests/data/reference/sd-cards.md § Host ceilings.
 * The low end is what the slot delivers in practice. */
void
cm_verdict_find_ceiling (CmJudge *judge)
{
  const char *reader = cm_result_get_reader (judge->result);
  const char *host = cm_result_get_host (judge->result);
  guint usb = cm_result_get_usb_speed_mbps (judge->result);

  if (g_strcmp0 (reader, "usb") == 0 && usb > 0 && usb < 5000)
    {
      judge->ceiling_low = 35;
      judge->ceiling_high = 40;
      judge->ceiling_what = _("this USB 2.0 reader");
    }
  else if (g_strcmp0 (reader, "sd-slot") == 0 && find_timing_ceiling (judge))
    return;
  else if (g_strcmp0 (reader, "sd-slot") == 0 && host != NULL &&
           g_str_has_prefix (host, "Raspberry Pi"))
    {
      if (strstr (host, "Raspberry Pi 5") != NULL || strstr (host, "Compute Module 5") != NULL)
        {
          judge->ceiling_low = 85;
          judge->ceiling_high = 90;
          judge->ceiling_what = _("the Raspberry Pi 5 card slot (SDR104)");
        }
      else if (strstr (host, "Raspberry Pi 4") != NULL || strstr (host, "Compute Module 4") != NULL)
        {
          judge->ceiling_low = 45;
          judge->ceiling_high = 50;
          judge->ceiling_what = _("the Raspberry Pi 4 card slot (DDR50)");
        }
      else
        {
          judge->ceiling_low = 20;
          judge->ceiling_high = 25;
          judge->ceiling_what = _("this Raspberry Pi’s card slot (High Speed)");
        }
    }
}

static gboolean
test_usable (const CmTestResult *test)
{
  return test != NULL && test->error == NULL && test->iops > 0;
}

/* Queue depth 32 that is hardly faster than depth 1 means the host (or
 * USB reader) sends one command at a time. */
void
cm_verdict_find_queueing (CmJudge *judge)
{
  static const char * const pairs[][2] = {
    { CM_TEST_RAND_READ_4K, CM_TEST_RAND_READ_4K_QD32 },
    { CM_TEST_RAND_WRITE_4K, CM_TEST_RAND_WRITE_4K_QD32 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      CmTestResult *qd1 = cm_result_lookup_test (judge->result, pairs[i][0]);
      CmTestResult *qd32 = cm_result_lookup_test (judge->result, pairs[i][1]);

      if (test_usable (qd1) && test_usable (qd32))
        {
          judge->qd1_iops = qd1->iops;
          judge->qd32_iops = qd32->iops;
          judge->no_queueing = qd32->iops < QUEUEING_GAIN * qd1->iops;
          break;
        }
    }

  /* A slot that says it has no command queue engine can't queue, even
   * where the figures are noisy enough to suggest it does. */
  if (g_strcmp0 (cm_result_get_reader (judge->result), "sd-slot") == 0 &&
      cm_result_get_host_queueing (judge->result) == CM_QUEUEING_NO)
    judge->no_queueing = TRUE;
}

/* What the user can do to get A2 judged: where command queueing can be
 * switched on, how (tests/data/reference/sd-cards.md § A2). */
static const char *
queueing_advice (CmResult *result)
{
  const char *host = cm_result_get_host (result);
  const char *reader = cm_result_get_reader (result);
  gboolean pi5 = host != NULL && (strstr (host, "Raspberry Pi 5") != NULL ||
                                  strstr (host, "Compute Module 5") != NULL);

  if (g_strcmp0 (reader, "sd-slot") == 0 && pi5)
    return _("The Raspberry Pi 5 queues commands only for cards on its allow-list: add dtparam=sd_cqe=2 to /boot/firmware/config.txt, restart, and test again.");
  if (g_strcmp0 (reader, "sd-slot") == 0 && host != NULL && g_str_has_prefix (host, "Raspberry Pi"))
    return _("This Raspberry Pi’s card slot can’t queue commands; a Raspberry Pi 5 can.");
  if (g_strcmp0 (reader, "usb") == 0)
    return _("USB card readers don’t queue commands; a Raspberry Pi 5’s card slot can.");
  return NULL;
}

/* Without command queueing an A2 card is judged against A1
 * (tests/data/reference/sd-cards.md § A2); the A2 claim says so, how A1 went, and what the
 * user can do about it. */
void
cm_verdict_fall_back_to_a1 (CmResult *result,
                            CmClaim  *a2,
                            CmClaim  *a1)
{
  const char *advice = queueing_advice (result);

  const char *how = NULL;

  if (a2->status == CM_STATUS_BELOW)
    return;

  switch (a1->status)
    {
    case CM_STATUS_MEETS:
      how = _("Can't judge A2 on this reader: it doesn't queue commands. Judged against A1 instead, it meets A1.");
      break;
    case CM_STATUS_MARGINAL:
      how = _("Can't judge A2 on this reader: it doesn't queue commands. Judged against A1 instead, it is just under A1; run the test again.");
      break;
    case CM_STATUS_BELOW:
      how = _("Can't judge A2 on this reader: it doesn't queue commands. Judged against A1 instead, it misses A1.");
      break;
    case CM_STATUS_NOT_JUDGED:
    default:
      how = _("Can't judge A2 on this reader: it doesn't queue commands, and A1 can't be judged either.");
      break;
    }

  g_free (a2->reason);
  a2->reason = advice != NULL ? g_strconcat (how, " ", advice, NULL) : g_strdup (how);
}
