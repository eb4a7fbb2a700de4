/* cm-summary.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A result in words a person knows, the same for the app, the CLI and
 * the clipboard: the figures people compare cards by, a banner that sums
 * up every class claimed, and the names of methods and criteria.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-date.h"
#include "cm-card-info.h"
#include "cm-job-kinds.h"
#include "cm-test-table.h"
#include "cm-outcome.h"
#include "cm-method.h"
#include "cm-verdict.h"
#include "cm-summary.h"

void
cm_headline_figure_free (CmHeadlineFigure *figure)
{
  if (figure == NULL)
    return;
  g_free (figure->label);
  g_free (figure->value);
  g_free (figure);
}

/* Three figures are enough to compare cards; more would be noise. */
char *
cm_summary_format_rate (double      value,
                        const char *unit)
{
  if (g_strcmp0 (unit, "IOPS") == 0 || value >= 100)
    return g_strdup_printf ("%.0f %s", value, unit);
  if (value >= 10)
    return g_strdup_printf ("%.1f %s", value, unit);
  return g_strdup_printf ("%.2f %s", value, unit);
}

/* Latencies in milliseconds, as people time a card: "0.23 ms", "12 ms". */
char *
cm_summary_format_latency (double us)
{
  double ms = us / 1000.0;

  if (ms >= 10)
    return g_strdup_printf (_("%.0f ms"), ms);
  if (ms >= 1)
    return g_strdup_printf (_("%.1f ms"), ms);
  return g_strdup_printf (_("%.2f ms"), ms);
}

static CmHeadlineFigure *
new_figure (CmResult         *result,
            const CmTestKind *kind,
            gboolean          latency)
{
  CmHeadlineFigure *figure = g_new0 (CmHeadlineFigure, 1);
  CmTestResult *test = cm_result_lookup_test (result, kind->name);

  figure->test = kind->name;
  figure->direction = kind->direction;
  figure->latency = latency;
  if (latency)
    /* Translators: the median time one small read or write takes; %s is
     * "Random 4K read" or "Random 4K write" */
    figure->label = g_strdup_printf (_("%s, median latency"), cm_test_table_get_label (kind->name));
  else
    figure->label = g_strdup (cm_test_table_get_label (kind->name));

  figure->measured = test != NULL && test->error == NULL;
  if (!figure->measured)
    figure->value = g_strdup ("—");
  else if (latency)
    figure->value = cm_summary_format_latency (test->latency_us[0]);
  else if (kind->headline == CM_FIGURE_IOPS)
    figure->value = cm_summary_format_rate (test->iops, "IOPS");
  else
    figure->value = cm_summary_format_rate (test->mb_per_s, "MB/s");

  return figure;
}

/**
 * cm_summary_dup_headline:
 *
 * The figures people compare cards by, from the tests the table marks as
 * a summary, then the median latency of one small read and write. A
 * full verify's are what is usable, what was lost and its speeds; a
 * capacity check's its real and its reported size. Only a benchmark's
 * can be "—" (not measured).
 *
 * Returns: (transfer full) (element-type CmHeadlineFigure): the figures
 */
/* A figure that is there: a size or a speed of a verify or a capacity
 * check, @test NULL when no test of the table measured it. A kind's
 * headline (its row's `headline`) is made of these. */
void
cm_summary_add_figure (GPtrArray   *figures,
            const char  *test,
            CmDirection  direction,
            const char  *label,
            char        *value)
{
  CmHeadlineFigure *figure = g_new0 (CmHeadlineFigure, 1);

  figure->test = test;
  figure->direction = direction;
  figure->label = g_strdup (label);
  figure->value = value;
  figure->measured = TRUE;
  g_ptr_array_add (figures, figure);
}

GPtrArray *
cm_summary_dup_headline (CmResult *result)
{
  GPtrArray *figures = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_headline_figure_free);
  const char *latency_tests[] = { CM_TEST_RAND_READ_4K, CM_TEST_RAND_WRITE_4K };
  const CmJobKind *job_kind;

  g_return_val_if_fail (CM_IS_RESULT (result), figures);

  job_kind = cm_job_kinds_lookup (cm_result_get_kind (result));
  if (job_kind != NULL && job_kind->headline != NULL)
    {
      job_kind->headline (result, figures);
      return figures;
    }

  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const CmTestKind *kind = cm_test_table_get_kind (i);

      if (kind->summary)
        g_ptr_array_add (figures, new_figure (result, kind, FALSE));
    }
  for (guint i = 0; i < G_N_ELEMENTS (latency_tests); i++)
    g_ptr_array_add (figures, new_figure (result, cm_test_table_lookup (latency_tests[i]), TRUE));

  return figures;
}

const char *
cm_summary_criterion_label (const char *criterion)
{
  if (g_strcmp0 (criterion, "random-read") == 0)
    return _("Random read");
  if (g_strcmp0 (criterion, "random-write") == 0)
    return _("Random write");
  return _("Sustained write");
}

/* The label of the method a result records as its target mode
 * (cm_method_get_label), a file test for a mode it does not know. */
const char *
cm_summary_method_label (const char *target_mode)
{
  CmMethod method = CM_METHOD_FILE;

  cm_method_from_string (target_mode, &method);
  return cm_method_get_label (method);
}

const char *
cm_summary_status_label (CmStatus status)
{
  switch (status)
    {
    case CM_STATUS_MEETS:
      return _("Meets");
    case CM_STATUS_MARGINAL:
      return _("Marginal");
    case CM_STATUS_BELOW:
      return _("Below");
    case CM_STATUS_NOT_JUDGED:
    default:
      return _("Not judged");
    }
}

/* "2612 IOPS measured, 1500 IOPS needed", or why it was not judged. */
char *
cm_summary_dup_criterion_text (const CmCriterion *c)
{
  g_autofree char *measured = NULL;

  g_return_val_if_fail (c != NULL, NULL);

  if (c->status == CM_STATUS_NOT_JUDGED && c->reason != NULL)
    return g_strdup (c->reason);

  measured = cm_summary_format_rate (c->measured, c->unit);
  /* Translators: "28.5 MB/s measured, 30 MB/s needed"; class figures are whole numbers */
  return g_strdup_printf (_("%s measured, %g %s needed"), measured, c->required, c->unit);
}

/* "U3", "U3 and A1", "U3, V30 and A1" */
static char *
join_classes (GPtrArray *classes)
{
  g_autoptr(GString) head = g_string_new (NULL);

  g_assert (classes->len > 0);
  if (classes->len == 1)
    return g_strdup (g_ptr_array_index (classes, 0));

  for (guint i = 0; i + 1 < classes->len; i++)
    {
      if (i > 0)
        /* Translators: the separator of all but the last class in a list, "U3, V30 and A1" */
        g_string_append (head, _(", "));
      g_string_append (head, g_ptr_array_index (classes, i));
    }
  /* Translators: the last two of a list of classes, "U3, V30 and A1" */
  return g_strdup_printf (_("%s and %s"), head->str, (char *) g_ptr_array_index (classes, classes->len - 1));
}

typedef enum
{
  CAUSE_READER,
  CAUSE_READ_ONLY,
  CAUSE_CACHE,
  CAUSE_NOT_RUN,
  N_CAUSES
} Cause;

/* Why a claim could not be judged, from the facts rather than the words
 * of its reason: the method, the cache, a test that did not run, or
 * else the reader. */
static Cause
not_judged_cause (CmResult      *result,
                  const CmClaim *claim)
{
  for (guint i = 0; claim->criteria != NULL && i < claim->criteria->len; i++)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, i);
      CmTestResult *test;

      if (c->status != CM_STATUS_NOT_JUDGED)
        continue;
      test = cm_result_lookup_test (result, c->test);
      if (test == NULL || test->error != NULL)
        return g_strcmp0 (cm_result_get_target_mode (result), "raw-read") == 0 ? CAUSE_READ_ONLY
                                                                               : CAUSE_NOT_RUN;
      if (!cm_result_get_direct_io (result))
        return CAUSE_CACHE;
    }
  return CAUSE_READER;
}

static char *
dup_not_judged (Cause      cause,
                GPtrArray *classes)
{
  g_autofree char *list = join_classes (classes);

  switch (cause)
    {
    case CAUSE_READ_ONLY:
      /* Translators: a part of the verdict banner; %s is one or more classes */
      return g_strdup_printf (ngettext ("%s can't be judged by a read-only test",
                                        "%s can't be judged by a read-only test", classes->len), list);
    case CAUSE_CACHE:
      return g_strdup_printf (ngettext ("%s can't be judged through the system cache",
                                        "%s can't be judged through the system cache", classes->len), list);
    case CAUSE_NOT_RUN:
      return g_strdup_printf (ngettext ("%s can't be judged: a test did not run",
                                        "%s can't be judged: a test did not run", classes->len), list);
    case CAUSE_READER:
    case N_CAUSES:
    default:
      return g_strdup_printf (ngettext ("%s can't be judged on this reader",
                                        "%s can't be judged on this reader", classes->len), list);
    }
}

/**
 * cm_summary_dup_banner:
 * @status: (out): the worst definite answer (below, then marginal, then
 *   meets); not judged only when no claimed class could be judged
 *
 * Every class claimed, in one line: "Meets U3, V30 and A1 · A2 can't be
 * judged on this reader". Classes added only to show what the figures
 * meet are left out. %NULL when nothing was claimed.
 */
char *
cm_summary_dup_banner (CmResult *result,
                       CmStatus *status)
{
  g_autoptr(GPtrArray) below = g_ptr_array_new ();
  g_autoptr(GPtrArray) marginal = g_ptr_array_new ();
  g_autoptr(GPtrArray) meets = g_ptr_array_new ();
  GPtrArray *unjudged[N_CAUSES];
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *claims;

  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  *status = CM_STATUS_NOT_JUDGED;
  claims = cm_result_get_claims (result);
  for (guint c = 0; c < N_CAUSES; c++)
    unjudged[c] = g_ptr_array_new ();

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->source, "figures") == 0)
        continue;
      switch (claim->status)
        {
        case CM_STATUS_BELOW:
          g_ptr_array_add (below, claim->klass);
          break;
        case CM_STATUS_MARGINAL:
          g_ptr_array_add (marginal, claim->klass);
          break;
        case CM_STATUS_MEETS:
          g_ptr_array_add (meets, claim->klass);
          break;
        case CM_STATUS_NOT_JUDGED:
        default:
          g_ptr_array_add (unjudged[not_judged_cause (result, claim)], claim->klass);
          break;
        }
    }

  if (below->len > 0)
    {
      g_autofree char *list = join_classes (below);

      *status = CM_STATUS_BELOW;
      /* Translators: a part of the verdict banner; %s is one or more classes */
      g_ptr_array_add (parts, g_strdup_printf (_("Below %s"), list));
    }
  if (marginal->len > 0)
    {
      g_autofree char *list = join_classes (marginal);

      if (*status == CM_STATUS_NOT_JUDGED)
        *status = CM_STATUS_MARGINAL;
      /* Translators: a part of the verdict banner; %s is one or more classes */
      g_ptr_array_add (parts, g_strdup_printf (_("Just under %s"), list));
    }
  if (meets->len > 0)
    {
      g_autofree char *list = join_classes (meets);

      if (*status == CM_STATUS_NOT_JUDGED)
        *status = CM_STATUS_MEETS;
      /* Translators: a part of the verdict banner; %s is one or more classes */
      g_ptr_array_add (parts, g_strdup_printf (_("Meets %s"), list));
    }
  for (guint c = 0; c < N_CAUSES; c++)
    {
      if (unjudged[c]->len > 0)
        g_ptr_array_add (parts, dup_not_judged (c, unjudged[c]));
      g_ptr_array_unref (unjudged[c]);
    }

  if (parts->len == 0)
    return NULL;

  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

/**
 * cm_summary_dup_answer:
 * @status: (out): the outcome's tone: meets for a good answer, below for
 *   a bad one, not judged when there is none or the job was stopped
 *
 * The document's answer in words (its outcome's, cm-outcome.h), for its
 * banner, its History row and its summary. %NULL for a benchmark that
 * judged no class.
 */
char *
cm_summary_dup_answer (CmResult *result,
                       CmStatus *status)
{
  g_autoptr(CmOutcome) outcome = NULL;

  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  outcome = cm_result_dup_outcome (result);
  *status = outcome->tone;
  return g_steal_pointer (&outcome->answer);
}

/* "SanDisk Ultra · 32 GB · Loop device on card": the card as people tell
 * cards apart, brand first. */
char *
cm_summary_dup_card_title (CmResult *result)
{
  CmCardInfo *card = cm_result_get_card (result);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  const char *name = cm_result_get_name (result);
  guint64 size = 0;

  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  if (card != NULL)
    {
      const char *brand = cm_card_info_get_brand (card);
      const char *product = cm_card_info_get_product_name (card);

      if (brand == NULL)
        brand = cm_card_info_get_manufacturer (card);
      if (brand != NULL && product != NULL)
        g_ptr_array_add (parts, g_strdup_printf ("%s %s", brand, product));
      else if (brand != NULL || product != NULL)
        g_ptr_array_add (parts, g_strdup (brand != NULL ? brand : product));
    }
  size = cm_job_kind_get_card_bytes (result);
  if (size > 0)
    g_ptr_array_add (parts, g_format_size (size));
  if (name == NULL)
    name = cm_result_get_device (result) != NULL ? cm_result_get_device (result)
                                                 : cm_result_get_target_path (result);
  if (name != NULL)
    g_ptr_array_add (parts, g_strdup (name));
  if (parts->len == 0)
    return g_strdup (_("Unnamed card"));

  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

/* @when in local time, in the reader's long form (cm-date.c):
 * "3 December 2026, 09:40". */
char *
cm_summary_format_date (GDateTime *when)
{
  return cm_date_format_time (when);
}

/* When the test started, in local time: "3 December 2026, 09:40". */
char *
cm_summary_dup_date (CmResult *result)
{
  return cm_summary_format_date (cm_result_get_started (result));
}

/* "Sequential read 45.1 MB/s · Sequential write 18.2 MB/s · …": the
 * figures people compare cards by, those that were measured, for a line
 * in a list (History); a verify's speeds. Compare shows them all. */
char *
cm_summary_dup_list_figures (CmResult *result)
{
  g_autoptr(GPtrArray) figures = cm_summary_dup_headline (result);
  gboolean bench = cm_job_kind_measures_speed (cm_result_get_kind (result));
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < figures->len; i++)
    {
      const CmHeadlineFigure *f = g_ptr_array_index (figures, i);
      const CmTestKind *kind = f->test != NULL ? cm_test_table_lookup (f->test) : NULL;

      /* A line has room for four. A verify's or a capacity check's
       * sizes are in its answer already. */
      if (!f->measured || f->latency || (kind != NULL && kind->queue_depth > 1) ||
          (f->test == NULL && !bench))
        continue;
      if (out->len > 0)
        g_string_append (out, " · ");
      g_string_append_printf (out, "%s %s", f->label, f->value);
    }
  return g_string_free (out, FALSE);
}

/* A plain-text summary for the clipboard, forums and bug reports. */
char *
cm_summary_dup_text (CmResult *result)
{
  GString *text = g_string_new (NULL);
  g_autoptr(GPtrArray) figures = NULL;
  g_autofree char *title = NULL;
  g_autofree char *date = NULL;
  g_autofree char *banner = NULL;
  g_autoptr(GPtrArray) no_tests = g_ptr_array_new ();
  GPtrArray *tests, *claims;
  CmStatus status;
  const CmJobKind *kind;
  gboolean bench;
  int width = 0;

  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  title = cm_summary_dup_card_title (result);
  date = cm_summary_dup_date (result);
  banner = cm_summary_dup_answer (result, &status);
  figures = cm_summary_dup_headline (result);
  kind = cm_job_kinds_lookup (cm_result_get_kind (result));
  bench = kind == NULL || kind->measures_speed;
  /* A verify's or a capacity check's figures are its headline; its
   * tests are no benchmark's and it judges no class. */
  tests = bench ? cm_result_get_tests (result) : no_tests;
  claims = bench ? cm_result_get_claims (result) : no_tests;

  g_string_append_printf (text, "CardMark %s — %s\n", PACKAGE_VERSION, title);
  if (bench)
    /* Translators: "Tested 3 Dec 2026, 09:40 · Raw test with writes · quick" */
    g_string_append_printf (text, _("Tested %s · %s · %s profile"), date != NULL ? date : "?",
                            cm_summary_method_label (cm_result_get_target_mode (result)),
                            g_strcmp0 (cm_result_get_profile (result), "full") == 0 ? _("full") : _("quick"));
  else
    /* Translators: "Full verify · 3 Dec 2026, 09:40" */
    g_string_append_printf (text, _("%s · %s"), cm_job_kind_get_title (cm_result_get_kind (result)),
                            date != NULL ? date : "?");
  g_string_append_c (text, '\n');
  if (banner != NULL)
    g_string_append_printf (text, "%s\n", banner);
  if (cm_result_get_summary (result) != NULL)
    g_string_append_printf (text, "%s\n", cm_result_get_summary (result));
  g_string_append_c (text, '\n');

  for (guint i = 0; i < figures->len; i++)
    width = MAX (width, (int) g_utf8_strlen (((CmHeadlineFigure *) g_ptr_array_index (figures, i))->label, -1));
  for (guint i = 0; i < tests->len; i++)
    width = MAX (width, (int) g_utf8_strlen (cm_test_table_get_label (((CmTestResult *) g_ptr_array_index (tests, i))->name), -1));

  for (guint i = 0; i < figures->len; i++)
    {
      const CmHeadlineFigure *f = g_ptr_array_index (figures, i);
      int pad = width - (int) g_utf8_strlen (f->label, -1);

      g_string_append_printf (text, "%s%*s  %s\n", f->label, pad, "", f->value);
    }
  if (bench)
    g_string_append_c (text, '\n');

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->source, "figures") == 0)
        continue;
      g_string_append_printf (text, "%-4s %s%s%s\n", claim->klass, cm_summary_status_label (claim->status),
                              claim->reason != NULL ? " — " : "",
                              claim->reason != NULL ? claim->reason : "");
    }

  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);
      const char *label = cm_test_table_get_label (t->name);
      int pad = width - (int) g_utf8_strlen (label, -1);
      g_autofree char *rate = NULL;
      g_autofree char *iops = NULL;

      if (i == 0)
        g_string_append_c (text, '\n');
      if (t->error != NULL)
        {
          g_string_append_printf (text, "%s%*s  %s\n", label, pad, "", t->error);
          continue;
        }
      rate = cm_summary_format_rate (t->mb_per_s, "MB/s");
      iops = cm_summary_format_rate (t->iops, "IOPS");
      g_string_append_printf (text, "%s%*s  %12s %12s\n", label, pad, "", rate, iops);
    }

  return g_string_free (text, FALSE);
}

/**
 * cm_summary_dup_method_warning:
 * @target_mode: "file", "raw-read" or "raw-write"
 * @claims: the classes ticked
 *
 * Before a run: which of @claims the method cannot judge, as a sentence,
 * or %NULL when it can judge them all. Every class has a write speed to
 * meet, so a method that writes nothing judges none.
 */
char *
cm_summary_dup_method_warning (const char         *target_mode,
                               const char * const *claims)
{
  g_autoptr(GPtrArray) unjudged = g_ptr_array_new ();
  g_autofree char *list = NULL;

  if (g_strcmp0 (target_mode, "raw-read") != 0 || claims == NULL)
    return NULL;

  for (guint i = 0; claims[i] != NULL; i++)
    {
      double write_mb_s = 0;

      if (cm_verdict_get_minimums (claims[i], &write_mb_s, NULL, NULL) && write_mb_s > 0)
        g_ptr_array_add (unjudged, (gpointer) claims[i]);
    }
  if (unjudged->len == 0)
    return NULL;

  list = join_classes (unjudged);
  /* Translators: %s is one or more classes, "U3 and A1" */
  return g_strdup_printf (ngettext ("A read-only test measures no writes, so it can't judge %s.",
                                    "A read-only test measures no writes, so it can't judge %s.",
                                    unjudged->len), list);
}

/* What a class promises, for its tooltip: "U3: writes at least 30 MB/s
 * without a break". */
char *
cm_summary_dup_class_promise (const char *klass)
{
  double write_mb_s = 0, read_iops = 0, write_iops = 0;

  if (!cm_verdict_get_minimums (klass, &write_mb_s, &read_iops, &write_iops))
    return NULL;
  if (read_iops > 0)
    /* Translators: "A1: writes at least 10 MB/s without a break, 1500 random 4K reads and 500 writes a second" */
    return g_strdup_printf (_("%s: writes at least %g MB/s without a break, %g random 4K reads and %g writes a second"),
                            klass, write_mb_s, read_iops, write_iops);
  /* Translators: "U3: writes at least 30 MB/s without a break" */
  return g_strdup_printf (_("%s: writes at least %g MB/s without a break"), klass, write_mb_s);
}

/* A plain-text summary for the clipboard, forums and bug reports. */
char *
cm_result_dup_text_summary (CmResult *result)
{
  g_return_val_if_fail (CM_IS_RESULT (result), NULL);
  return cm_summary_dup_text (result);
}
