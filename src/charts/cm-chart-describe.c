/* cm-chart-describe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A text alternative for every chart: the figures it shows, in sentences,
 * for screen readers and for the SVG and PDF metadata.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-test-table.h"
#include "cm-chart-private.h"

#include "cm-chart.h"

static void
describe_claims (GString  *out,
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

static void
describe_figure (GString    *out,
                 CmResult   *result,
                 const char *test_name,
                 const char *what,
                 gboolean    iops)
{
  CmTestResult *test = cm_chart_lookup_test (result, test_name);
  CmStatus status;

  if (test == NULL)
    return;
  if (iops)
    g_string_append_printf (out, _(" %s %.0f IOPS"), what, test->iops);
  else
    g_string_append_printf (out, _(" %s %.1f MB/s"), what, test->mb_per_s);
  if (cm_chart_test_status (result, test_name, &status))
    g_string_append_printf (out, _(" (%s)"), cm_status_to_string (status));
  g_string_append_c (out, '.');
}

static void
describe_summary (GString  *out,
                  CmResult *result)
{
  /* The figures people compare cards by, as the table of tests names them. */
  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const CmTestKind *kind = cm_test_table_get_kind (i);

      if (kind->summary)
        describe_figure (out, result, kind->name, cm_test_table_get_label (kind->name),
                         kind->headline == CM_FIGURE_IOPS);
    }
  g_string_append (out, _(" Class lines: C10/U1 10 MB/s, U3/V30 30 MB/s, A1 1500 read and 500 write IOPS, A2 4000 read and 2000 write IOPS."));
  describe_claims (out, result);
}

static void
describe_samples (GString    *out,
                  CmResult   *result,
                  const char *test_name,
                  const char *what)
{
  CmTestResult *test = cm_chart_lookup_test (result, test_name);
  double lo = G_MAXDOUBLE, hi = 0, end = 0;

  if (test == NULL || test->samples->len == 0)
    return;
  for (guint i = 0; i < test->samples->len; i++)
    {
      const CmSample *s = &g_array_index (test->samples, CmSample, i);
      double v = cm_stats_sample_mb_per_s (s);

      lo = MIN (lo, v);
      hi = MAX (hi, v);
      end = MAX (end, s->t_end);
    }
  g_string_append_printf (out, _(" %s over %.0f s: between %.1f and %.1f MB/s, %.1f MB/s on average"),
                          what, end, lo, hi, test->mb_per_s);
  if (cm_test_result_get_sustained_mb_per_s (test) > 0)
    g_string_append_printf (out, _(", %.1f MB/s sustained"), cm_test_result_get_sustained_mb_per_s (test));
  if (test->has_cliff && test->cliff.found)
    {
      g_autofree char *size = g_format_size (test->cliff.full_speed_bytes);

      /* Translators: after "…, 11.9 MB/s sustained"; %s is a size, "67.1 MB" */
      g_string_append_printf (out, _(", falling from %.1f to %.1f MB/s once %s was written (the card’s write cache ran out)"),
                              test->cliff.before_mb_per_s, test->cliff.after_mb_per_s, size);
    }
  g_string_append_c (out, '.');
}

static void
describe_write_over_time (GString  *out,
                          CmResult *result)
{
  describe_samples (out, result, CM_TEST_SEQ_WRITE, _("Sequential write"));
  describe_samples (out, result, CM_TEST_SEQ_WRITE_SUSTAINED, _("Long sustained write"));
  describe_claims (out, result);
}

static void
describe_latency (GString  *out,
                  CmResult *result)
{
  static const char * const tests[] = { CM_TEST_RAND_READ_4K, CM_TEST_RAND_WRITE_4K };
  const char *whats[] = { _("Random 4K read latency"), _("Random 4K write latency") };

  for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
    {
      CmTestResult *test = cm_chart_lookup_test (result, tests[i]);

      if (test == NULL)
        continue;
      g_string_append_printf (out, _(" %s: median %.2f ms, 90th percentile %.2f ms, 99th percentile %.2f ms, slowest %.2f ms."),
                              whats[i], test->latency_us[0] / 1000, test->latency_us[1] / 1000,
                              test->latency_us[2] / 1000, test->latency_us[3] / 1000);
    }
}

static void
describe_sweep (GString  *out,
                CmResult *result)
{
  static const char * const prefixes[] = { CM_TEST_SWEEP_READ_PREFIX, CM_TEST_SWEEP_WRITE_PREFIX };
  const char *whats[] = { _("Read"), _("Write") };

  for (guint d = 0; d < G_N_ELEMENTS (prefixes); d++)
    {
      g_autoptr(GPtrArray) tests = cm_chart_sweep_tests (result, prefixes[d]);

      if (tests->len == 0)
        continue;
      g_string_append_printf (out, " %s:", whats[d]);
      for (guint i = 0; i < tests->len; i++)
        {
          CmTestResult *test = g_ptr_array_index (tests, i);
          g_autofree char *size = g_format_size_full (test->block_size, G_FORMAT_SIZE_IEC_UNITS);

          g_string_append_printf (out, _(" %s blocks %.1f MB/s%s"), size, test->mb_per_s,
                                  i + 1 < tests->len ? "," : ".");
        }
    }
}

static void
describe_position (GString  *out,
                   CmResult *result)
{
  CmTestResult *test = cm_chart_lookup_test (result, CM_TEST_SURFACE_READ);
  double lo = G_MAXDOUBLE, hi = 0, at = 0;

  if (test == NULL || test->positions->len == 0)
    return;
  for (guint i = 0; i < test->positions->len; i++)
    {
      const CmPosition *p = &g_array_index (test->positions, CmPosition, i);

      if (p->mb_per_s < lo)
        at = p->offset;
      lo = MIN (lo, p->mb_per_s);
      hi = MAX (hi, p->mb_per_s);
    }
  g_string_append_printf (out, _(" Read speed at %u places: between %.1f and %.1f MB/s, slowest at %.1f GB."),
                          test->positions->len, lo, hi, at / 1e9);
}

static void
describe_verify (GString  *out,
                 CmResult *result)
{
  const CmVerifySummary *verify = cm_result_get_verify (result);
  g_autofree char *usable = NULL;

  if (verify == NULL)
    return;
  usable = g_format_size (verify->usable_bytes);
  for (guint i = 0; i < cm_result_get_tests (result)->len; i++)
    {
      CmTestResult *test = g_ptr_array_index (cm_result_get_tests (result), i);

      if (g_str_equal (test->name, CM_TEST_VERIFY_WRITE))
        g_string_append_printf (out, _(" Written at %.1f MB/s."), test->mb_per_s);
      else if (g_str_equal (test->name, CM_TEST_VERIFY_READ))
        g_string_append_printf (out, _(" Read back at %.1f MB/s."), test->mb_per_s);
    }
  g_string_append_printf (out, _(" %s came back intact."), usable);
  if (verify->bad_regions->len > 0)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, " %u region lost data, the first at %.2f GB.",
                                              " %u regions lost data, the first at %.2f GB.", verify->bad_regions->len),
                            verify->bad_regions->len, verify->first_bad_offset / 1e9);
}

char *
cm_chart_describe (CmChartKind  kind,
                   GPtrArray   *results)
{
  GString *out;

  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  g_return_val_if_fail (results != NULL, NULL);

  out = g_string_new (cm_chart_kind_get_title (kind));
  g_string_append_c (out, '.');
  if (!cm_chart_has_data (kind, results))
    {
      g_string_append (out, _(" No data for this chart."));
      return g_string_free (out, FALSE);
    }

  for (guint r = 0; r < results->len; r++)
    {
      CmResult *result = g_ptr_array_index (results, r);

      g_string_append_printf (out, "\n%s:", cm_chart_result_name (result));
      switch (kind)
        {
        case CM_CHART_SUMMARY:
          describe_summary (out, result);
          break;
        case CM_CHART_WRITE_OVER_TIME:
          describe_write_over_time (out, result);
          break;
        case CM_CHART_LATENCY:
          describe_latency (out, result);
          break;
        case CM_CHART_SWEEP:
          describe_sweep (out, result);
          break;
        case CM_CHART_POSITION:
          describe_position (out, result);
          break;
        case CM_CHART_VERIFY:
          describe_verify (out, result);
          break;
        case CM_CHART_CAPACITY_MAP:
        case CM_CHART_N_KINDS:
        default:
          break;
        }
    }
  return g_string_free (out, FALSE);
}
