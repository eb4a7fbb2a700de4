/* cm-chart-kit-data.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What results say, as every chart and its text alternative read it:
 * a card's name, a test that ran without error, a class's verdict.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-date.h"
#include "cm-summary.h"
#include "cm-verdict.h"

#include "cm-chart-kit-private.h"

/* The card's name as the document gives it, in the reader's language
 * when CardMark made it from the device (cm_summary_dup_name()); made
 * once a document and kept with it, so that it is borrowed as before. */
const char *
cm_chart_result_name (CmResult *result)
{
  const char *name = g_object_get_data (G_OBJECT (result), "cm-chart-name");

  if (name == NULL)
    {
      char *made = cm_summary_dup_name (result);

      if (made != NULL)
        g_object_set_data_full (G_OBJECT (result), "cm-chart-name", made, g_free);
      name = made;
    }

  if (name != NULL && *name != '\0')
    return name;
  if (cm_result_get_device (result) != NULL)
    return cm_result_get_device (result);
  return _("Unnamed card");
}

/* A card's name in a chart of several: when two results carry the same
 * name (two runs of one card, or cards that only differ by their
 * device), the date tells them apart, and a number when even that is the
 * same. */
char *
cm_chart_dup_series_name (GPtrArray *results,
                          guint      index)
{
  CmResult *result = g_ptr_array_index (results, index);
  const char *name = cm_chart_result_name (result);
  GDateTime *started = cm_result_get_started (result);
  g_autofree char *when = NULL;
  gboolean same_name = FALSE, same_time = FALSE;

  for (guint i = 0; i < results->len; i++)
    {
      CmResult *other = g_ptr_array_index (results, i);
      GDateTime *other_started = cm_result_get_started (other);

      if (i == index || g_strcmp0 (cm_chart_result_name (other), name) != 0)
        continue;
      same_name = TRUE;
      if (started == NULL || other_started == NULL ||
          g_date_time_to_unix (started) / 60 == g_date_time_to_unix (other_started) / 60)
        same_time = TRUE;
    }
  if (!same_name)
    return g_strdup (name);
  if (same_time || started == NULL)
    /* Translators: a card's name and its place among the charted results */
    return g_strdup_printf (_("%s (%u)"), name, index + 1);
  when = cm_date_format_time (started);
  /* Translators: a card's name and when it was tested, "SanDisk Ultra · 3 December 2026, 09:40" */
  return g_strdup_printf (_("%s · %s"), name, when);
}

CmTestResult *
cm_chart_lookup_test (CmResult   *result,
                      const char *name)
{
  CmTestResult *test = cm_result_lookup_test (result, name);

  if (test == NULL || test->error != NULL)
    return NULL;
  return test;
}

/* Whether someone claims @claim's class: it is on the card's label or in
 * its registers. Without a claim every class is judged, only to show what
 * the figures would meet (source "figures"); those verdicts are not the
 * card's, so the charts neither emphasise their lines nor colour bars by
 * them. A result from before sources were recorded counts as labelled. */
gboolean
cm_chart_claim_is_stated (const CmClaim *claim)
{
  return g_strcmp0 (claim->source, "figures") != 0;
}

/* The worst status of the claimed classes' criteria that read @test. */
gboolean
cm_chart_test_status (CmResult   *result,
                      const char *test,
                      CmStatus   *status)
{
  GPtrArray *claims = cm_result_get_claims (result);
  gboolean found = FALSE;
  gboolean undecided = FALSE;

  for (guint i = 0; i < claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (claims, i);

      if (!cm_chart_claim_is_stated (claim))
        continue;
      for (guint j = 0; claim->criteria != NULL && j < claim->criteria->len; j++)
        {
          CmCriterion *c = g_ptr_array_index (claim->criteria, j);

          if (g_strcmp0 (c->test, test) != 0)
            continue;
          /* A figure that meets its part of a class that can't be judged
           * as a whole (a read-only run's A1 read) decides nothing: it is
           * not shown as met unless a class that was judged says so. */
          if (claim->status == CM_STATUS_NOT_JUDGED && c->status != CM_STATUS_NOT_JUDGED)
            {
              undecided = TRUE;
              continue;
            }
          if (!found || cm_verdict_status_rank (c->status) > cm_verdict_status_rank (*status))
            *status = c->status;
          found = TRUE;
        }
    }
  if (!found && undecided)
    {
      *status = CM_STATUS_NOT_JUDGED;
      return TRUE;
    }
  return found;
}

static int
compare_block_size (gconstpointer a,
                    gconstpointer b)
{
  const CmTestResult *ta = *(CmTestResult * const *) a;
  const CmTestResult *tb = *(CmTestResult * const *) b;

  return (ta->block_size > tb->block_size) - (ta->block_size < tb->block_size);
}

/* The sweep tests of one direction, smallest block first. The size comes
 * from block_size, never from the name. */
GPtrArray *
cm_chart_sweep_tests (CmResult   *result,
                      const char *prefix)
{
  GPtrArray *tests = cm_result_get_tests (result);
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < tests->len; i++)
    {
      CmTestResult *test = g_ptr_array_index (tests, i);

      if (g_str_has_prefix (test->name, prefix) && test->error == NULL && test->block_size > 0)
        g_ptr_array_add (found, test);
    }
  g_ptr_array_sort (found, compare_block_size);
  return found;
}

/* SD Association minimum write speeds (docs/methodology.md). */
/* The write minimum of a speed, UHS or video class; 0 for A1/A2, whose
 * 10 MB/s is not what their line on a chart stands for. */
double
cm_chart_class_write_mb_s (const char *klass)
{
  double write_mb_s, read_iops;

  if (!cm_verdict_get_minimums (klass, &write_mb_s, &read_iops, NULL) || read_iops > 0)
    return 0;

  return write_mb_s;
}

/* Each class and its verdict: " U3: meets." */
void
cm_chart_describe_claims (GString  *out,
                          CmResult *result)
{
  GPtrArray *claims = cm_result_get_claims (result);

  for (guint i = 0; i < claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (claims, i);

      /* Translators: "U3: meets." — a class and its verdict. */
      g_string_append_printf (out, _(" %s: %s."), claim->klass, cm_status_to_string (claim->status));
    }
}
