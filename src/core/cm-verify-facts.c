/* cm-verify-facts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A full verify's facts, worked out in one place from its document:
 * what the card took, what came back, what was lost and what was never
 * reached because the card stopped first. The answer, the sentence
 * under it, the CLI's report, the batch report and the chart read
 * them here, so that none of them can tell another story.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-verify.h"

/**
 * cm_verify_facts_init:
 * @card_bytes: the whole device's size for a verify of the device, else 0
 *
 * Fills @facts from @summary.
 */
void
cm_verify_facts_init (CmVerifyFacts         *facts,
                      const CmVerifySummary *summary,
                      guint64                card_bytes)
{
  g_return_if_fail (facts != NULL && summary != NULL);

  *facts = (CmVerifyFacts) { 0 };
  facts->card_bytes = g_strcmp0 (summary->mode, "device") == 0 ? card_bytes : 0;
  facts->written_bytes = summary->written_bytes;
  facts->read_bytes = summary->checked_bytes - MIN (summary->checked_bytes, summary->sectors_unreadable * 512);
  facts->usable_bytes = summary->usable_bytes;
  facts->lost_bytes = summary->lost_bytes;
  facts->stopped = !summary->complete;
  facts->first_bad = summary->first_bad_offset;
  /* A run that ended early did not reach the rest of the card. */
  if (facts->stopped && facts->card_bytes > summary->checked_bytes)
    facts->unreached_bytes = facts->card_bytes - summary->checked_bytes;
}

/**
 * cm_verify_facts_for_result:
 *
 * Fills @facts from @result's verify.
 *
 * Returns: FALSE when @result is not a verify's
 */
gboolean
cm_verify_facts_for_result (CmResult      *result,
                            CmVerifyFacts *facts)
{
  const CmVerifySummary *summary;

  g_return_val_if_fail (CM_IS_RESULT (result), FALSE);

  if ((summary = cm_result_get_verify (result)) == NULL)
    return FALSE;
  cm_verify_facts_init (facts, summary, cm_result_get_device_bytes (result));
  return TRUE;
}

/* Where a card stopped answering, and how much of it was never reached. */
static char *
describe_stopped (const CmVerifyFacts *facts)
{
  g_autofree char *first = g_format_size (MAX (facts->first_bad, 0));
  g_autofree char *lost = g_format_size (facts->lost_bytes);
  g_autofree char *unreached = g_format_size (facts->unreached_bytes);

  if (facts->unreached_bytes > 0)
    /* Translators: the first %s is a place on the card, "58.7 MB", the
     * second the size lost, the third the size after it never written */
    return g_strdup_printf (_("The card stopped working at %s: %s could not be written or read back, and the "
                              "%s after it were never reached. Copy anything you need off it now, and don't use it again."),
                            first, lost, unreached);
  return g_strdup_printf (_("The card stopped working at %s: %s could not be written or read back. "
                            "Copy anything you need off it now, and don't use it again."),
                          first, lost);
}

/* The finding in one paragraph a person can act on. */
char *
cm_verify_describe (const CmVerifyFacts   *facts,
                    const CmVerifySummary *v)
{
  g_autofree char *usable = NULL;
  g_autofree char *checked = NULL;
  g_autofree char *lost = NULL;
  g_autofree char *first = NULL;

  g_return_val_if_fail (facts != NULL && v != NULL, NULL);

  usable = g_format_size (facts->usable_bytes);
  checked = g_format_size (v->checked_bytes);
  lost = g_format_size (facts->lost_bytes);
  first = g_format_size (MAX (facts->first_bad, 0));

  if (!cm_verify_summary_lost_data (v))
    return g_strdup_printf (_("Every byte came back as written: %s checked, all of it usable. This card keeps what you store on it."),
                            checked);

  /* Most of what was lost holds other places' data: the card wraps. */
  if (v->sectors_overwritten > v->sectors_corrupted + v->sectors_changed + v->sectors_unreadable)
    return g_strdup_printf (_("Fake capacity: only %s of the %s written came back; data written later overwrote earlier data. "
                              "Don't keep photos or anything you can't lose on this card: use it as a %s card at most, or better, return it."),
                            usable, checked, usable);

  if (facts->stopped)
    return describe_stopped (facts);

  return g_strdup_printf (_("Data was lost: %s of %s came back wrong, the first bad region at %s. "
                            "Don't keep photos or anything you can't lose on this card."),
                          lost, checked, first);
}
