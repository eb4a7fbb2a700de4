/* test-summary.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The words a person reads, shared by the app, the CLI and Copy Summary:
 * the banner sums up every claim and takes the worst definite answer, a
 * method that writes nothing is named as the reason, figures keep a
 * sensible precision, and no internal test name reaches the text.
 *
 * The claims' statuses are set by hand here: what is tested is how they
 * are put into words, not how they are judged (tests/test-verdict.c).
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include "cm-capacity-probe.h"
#include "cm-job.h"
#include "cm-method.h"
#include "cm-endurance.h"
#include "cm-date.h"
#include "cm-summary.h"
#include "cm-test-table.h"
#include "cm-verdict.h"

static void
add_claim (CmResult   *result,
           const char *klass,
           CmStatus    status,
           const char *test,
           const char *source)
{
  CmClaim *claim = cm_claim_new (klass);
  CmCriterion *c = cm_criterion_new ("sustained-write", test, "MB/s", 20, 30);

  c->status = status;
  claim->status = status;
  claim->source = g_strdup (source);
  g_ptr_array_add (claim->criteria, c);
  cm_result_take_claim (result, claim);
}

static CmResult *
new_result (const char *mode)
{
  CmResult *result = cm_result_new ();
  CmTestResult *read = cm_test_result_new (CM_TEST_SEQ_READ);

  cm_result_set_target (result, "/dev/sdx", mode, "/dev/sdx", "usb");
  cm_result_set_direct_io (result, TRUE);
  read->mb_per_s = 80;
  cm_result_take_test (result, read);
  if (g_strcmp0 (mode, "raw-read") != 0)
    {
      CmTestResult *write = cm_test_result_new (CM_TEST_SEQ_WRITE);

      write->mb_per_s = 20;
      cm_result_take_test (result, write);
    }
  return result;
}

static void
test_banner (void)
{
  g_autoptr(CmResult) result = new_result ("raw-write");
  g_autofree char *banner = NULL;
  g_autofree char *none = NULL;
  CmStatus status;

  /* Nothing claimed: no banner, not judged. */
  none = cm_summary_dup_banner (result, &status);
  g_assert_null (none);
  g_assert_cmpint (status, ==, CM_STATUS_NOT_JUDGED);

  add_claim (result, "U3", CM_STATUS_MEETS, CM_TEST_SEQ_WRITE, "label");
  add_claim (result, "V30", CM_STATUS_MEETS, CM_TEST_SEQ_WRITE, "label");
  add_claim (result, "A2", CM_STATUS_NOT_JUDGED, CM_TEST_SEQ_WRITE, "label");
  add_claim (result, "V90", CM_STATUS_BELOW, CM_TEST_SEQ_WRITE, "figures");
  banner = cm_summary_dup_banner (result, &status);
  g_assert_cmpstr (banner, ==, "Meets U3 and V30 · A2 can't be judged on this reader");
  /* A class nobody claimed does not count, and not judged never wins
   * over a definite answer. */
  g_assert_cmpint (status, ==, CM_STATUS_MEETS);

  add_claim (result, "A1", CM_STATUS_MARGINAL, CM_TEST_SEQ_WRITE, "label");
  add_claim (result, "C10", CM_STATUS_BELOW, CM_TEST_SEQ_WRITE, "card");
  g_clear_pointer (&banner, g_free);
  banner = cm_summary_dup_banner (result, &status);
  g_assert_cmpstr (banner, ==, "Below C10 · Just under A1 · Meets U3 and V30 · A2 can't be judged on this reader");
  g_assert_cmpint (status, ==, CM_STATUS_BELOW);
}

static void
test_banner_read_only (void)
{
  g_autoptr(CmResult) result = new_result ("raw-read");
  g_autofree char *banner = NULL;
  CmStatus status;

  add_claim (result, "U1", CM_STATUS_NOT_JUDGED, CM_TEST_SEQ_WRITE, "label");
  add_claim (result, "U3", CM_STATUS_NOT_JUDGED, CM_TEST_SEQ_WRITE, "label");
  add_claim (result, "A1", CM_STATUS_NOT_JUDGED, CM_TEST_SEQ_WRITE, "label");
  banner = cm_summary_dup_banner (result, &status);
  g_assert_cmpstr (banner, ==, "U1, U3 and A1 can't be judged by a read-only test");
  g_assert_cmpint (status, ==, CM_STATUS_NOT_JUDGED);
}

static void
test_method_warning (void)
{
  const char *claims[] = { "U3", "A1", NULL };
  const char *one[] = { "V30", NULL };
  const char *none[] = { NULL };
  g_autofree char *warning = cm_summary_dup_method_warning ("raw-read", claims);
  g_autofree char *single = cm_summary_dup_method_warning ("raw-read", one);
  g_autofree char *nothing = cm_summary_dup_method_warning ("raw-read", none);
  g_autofree char *writes = cm_summary_dup_method_warning ("raw-write", claims);
  g_autofree char *file = cm_summary_dup_method_warning ("file", claims);

  g_assert_nonnull (strstr (warning, "can't judge U3 and A1"));
  g_assert_nonnull (strstr (single, "can't judge V30."));
  g_assert_null (nothing);
  g_assert_null (writes);
  g_assert_null (file);
}

static void
test_precision (void)
{
  struct { double value; const char *unit; const char *text; } rates[] = {
    { 1579.4, "MB/s", "1579 MB/s" }, { 45.06, "MB/s", "45.1 MB/s" },
    { 3.691, "MB/s", "3.69 MB/s" }, { 2612.5, "IOPS", "2612 IOPS" },
  };
  struct { double us; const char *text; } latencies[] = {
    { 226415, "226 ms" }, { 1234, "1.2 ms" }, { 330, "0.33 ms" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rates); i++)
    {
      g_autofree char *text = cm_summary_format_rate (rates[i].value, rates[i].unit);

      g_assert_cmpstr (text, ==, rates[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (latencies); i++)
    {
      g_autofree char *text = cm_summary_format_latency (latencies[i].us);

      g_assert_cmpstr (text, ==, latencies[i].text);
    }
}

/* Every test of the table, measured or not, in the summary text: none
 * by its internal name, each by its label. */
static void
test_text_has_no_internal_names (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  g_autoptr(GDateTime) started = g_date_time_new_now_utc ();
  g_autofree char *text = NULL;
  g_autofree char *date = NULL;

  cm_result_set_started (result, started);
  cm_result_set_target (result, "/dev/sdx", "raw-write", "/dev/sdx", "usb");
  cm_result_set_direct_io (result, TRUE);
  cm_card_info_set_brand (card, "Lexar");
  cm_result_set_card (result, card);
  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      CmTestResult *t = cm_test_result_new (cm_test_table_get_kind (i)->name);

      t->mb_per_s = 10 + i;
      t->iops = 100 * (i + 1);
      cm_result_take_test (result, t);
    }
  cm_verdict_judge (result, (const char *[]) { "U3", "A2", NULL }, "label");

  text = cm_summary_dup_text (result);
  date = cm_summary_dup_date (result);
  g_test_message ("%s", text);
  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const CmTestKind *kind = cm_test_table_get_kind (i);

      g_assert_null (strstr (text, kind->name));
      g_assert_nonnull (strstr (text, cm_test_table_get_label (kind->name)));
    }
  g_assert_null (strstr (text, "sustained-write"));
  g_assert_null (strstr (text, "random-read"));
  g_assert_nonnull (strstr (text, date));
  g_assert_nonnull (strstr (text, "Lexar"));
  g_assert_nonnull (strstr (text, cm_summary_method_label ("raw-write")));
}

/* A full verify and a capacity check in words: each its own answer,
 * good or bad from its findings, figures that all exist, and a text
 * that says the kind, the answer and no internal test name. */
static void
check_kind_words (CmResult   *result,
                  CmStatus    expected,
                  const char *answer_start)
{
  g_autoptr(GPtrArray) figures = cm_summary_dup_headline (result);
  g_autofree char *answer = NULL;
  g_autofree char *text = NULL;
  CmStatus status;

  answer = cm_summary_dup_answer (result, &status);
  text = cm_summary_dup_text (result);
  g_test_message ("%s\n%s", answer, text);
  g_assert_cmpint (status, ==, expected);
  g_assert_true (g_str_has_prefix (answer, answer_start));
  g_assert_cmpuint (figures->len, >=, 2);
  for (guint i = 0; i < figures->len; i++)
    g_assert_true (((CmHeadlineFigure *) g_ptr_array_index (figures, i))->measured);
  g_assert_nonnull (strstr (text, answer));
  g_assert_nonnull (strstr (text, cm_job_kind_get_title (cm_result_get_kind (result))));
  g_assert_null (strstr (text, "  —\n"));  /* no figure "not measured" */
  g_assert_null (strstr (text, CM_TEST_VERIFY_WRITE));
  g_assert_null (strstr (text, CM_TEST_VERIFY_READ));
  /* Not a benchmark: no profile, no method. */
  g_assert_null (strstr (text, "profile"));
}

static void
test_kind_words (void)
{
  for (guint lost = 0; lost < 2; lost++)
    {
      g_autoptr(CmResult) result = cm_result_new ();
      g_autoptr(CmVerifySummary) verify = cm_verify_summary_new ();
      CmTestResult *write = cm_test_result_new (CM_TEST_VERIFY_WRITE);

      verify->mode = g_strdup ("device");
      verify->written_bytes = verify->checked_bytes = 1 << 26;
      verify->lost_bytes = lost ? 1 << 24 : 0;
      verify->usable_bytes = verify->checked_bytes - verify->lost_bytes;
      write->mb_per_s = 20;
      cm_result_take_test (result, write);
      cm_result_set_verify (result, verify);
      cm_result_set_target (result, "/dev/sdx", "raw-write", "/dev/sdx", NULL);
      check_kind_words (result, lost ? CM_STATUS_BELOW : CM_STATUS_MEETS, lost ? "Data lost" : "Every byte came back");
    }

  for (guint fake = 0; fake < 2; fake++)
    {
      g_autoptr(CmResult) result = cm_result_new ();
      g_autoptr(CmCapacityReport) report = cm_capacity_report_new ();
      g_autofree char *title = NULL;
      g_autofree char *size = NULL;

      report->reported_bytes = G_GUINT64_CONSTANT (64000000000);
      report->real_bytes = fake ? G_GUINT64_CONSTANT (8000000000) : report->reported_bytes;
      report->fake = fake;
      cm_result_set_capacity (result, report);
      cm_result_set_name (result, "Card reader");
      check_kind_words (result, fake ? CM_STATUS_BELOW : CM_STATUS_MEETS, fake ? "Fake capacity" : "Holds what it says");

      /* Without registers, the card's title has the size it reports. */
      title = cm_summary_dup_card_title (result);
      size = g_format_size (report->reported_bytes);
      g_assert_nonnull (strstr (title, size));
      g_assert_nonnull (strstr (title, "Card reader"));
    }
}

/* One word per method: the name a result records round-trips, and the
 * summary's label is the method's own. */
static void
test_method_words (void)
{
  const CmMethod all[] = { CM_METHOD_FILE, CM_METHOD_RAW_READ, CM_METHOD_RAW_WRITE };
  CmMethod back;

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      const char *name = cm_method_to_string (all[i]);

      g_assert_true (cm_method_from_string (name, &back));
      g_assert_cmpint (back, ==, all[i]);
      g_assert_cmpstr (cm_summary_method_label (name), ==, cm_method_get_label (all[i]));
      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (cm_method_get_label (all[j]), !=, cm_method_get_label (all[i]));
    }
  g_assert_false (cm_method_from_string ("raw", &back));
}

/* The picker's classes are the verdict's, in the table's order. */
static void
test_offered_classes (void)
{
  const char * const *offered = cm_verdict_get_offered_classes ();
  const char * const *all = cm_verdict_get_classes ();
  guint k = 0;

  g_assert_cmpuint (g_strv_length ((GStrv) offered), >, 0);
  for (guint i = 0; offered[i] != NULL; i++)
    {
      g_assert_true (cm_verdict_is_class (offered[i]));
      while (all[k] != NULL && !g_str_equal (all[k], offered[i]))
        k++;
      g_assert_nonnull (all[k]);
    }
  g_assert_true (g_strv_contains (offered, "A2"));
  g_assert_false (g_strv_contains (offered, "C2"));
}

/* A wear test's answer: whole while no round lost data, else the round
 * it was first lost in; and the kind's title in History and the CLI. */
static void
test_wear_answer (void)
{
  for (guint lost = 0; lost < 2; lost++)
    {
      g_autoptr(CmResult) result = cm_result_new ();
      CmEndurance *endurance = cm_endurance_new ();
      g_autofree char *answer = NULL;
      g_autofree char *first = NULL;
      CmStatus status;

      for (guint r = 1; r <= 3; r++)
        {
          CmWearRound round = { .round = r, .write_mb_per_s = 20, .read_mb_per_s = 40,
                                .sectors = 1 << 16, .bytes_written = (guint64) r << 25, .seconds = 5 };

          round.bad_sectors = lost && r >= 2 ? 10 * (r - 1) : 0;
          round.new_bad_sectors = lost && r >= 2 ? 10 : 0;
          g_array_append_val (endurance->rounds, round);
        }
      cm_result_set_kind (result, "wear");
      cm_result_set_endurance (result, endurance);
      cm_endurance_free (endurance);
      answer = cm_summary_dup_answer (result, &status);
      g_test_message ("%s", answer);
      g_assert_cmpint (status, ==, lost ? CM_STATUS_BELOW : CM_STATUS_MEETS);
      g_assert_true (g_str_has_prefix (answer, lost ? "Data lost from round 2" : "Every round came back whole"));
      first = g_strdup_printf ("%u rounds", 3);
      g_assert_nonnull (strstr (answer, first));
    }
}

/* Each step of a capacity check says what it works on, alone on its
 * line: "Pushing the signatures out of the card's cache", not "them". */
static void
test_capacity_phase_words (void)
{
  for (CmCapacityPhase phase = CM_CAPACITY_PHASE_SAVING; phase <= CM_CAPACITY_PHASE_RESTORING; phase++)
    {
      CmCapacityProgress progress = { phase, 0.4, 25 };
      g_autofree char *text = cm_capacity_progress_describe (&progress);
      g_autofree char *lower = g_utf8_strdown (text, -1);
      g_auto(GStrv) words = g_regex_split_simple ("[^a-z']+", lower, 0, 0);

      g_test_message ("%s", text);
      for (guint i = 0; words[i] != NULL; i++)
        g_assert_false (g_str_equal (words[i], "them") || g_str_equal (words[i], "it") ||
                        g_str_equal (words[i], "they"));
      if (phase == CM_CAPACITY_PHASE_FLUSHING || phase == CM_CAPACITY_PHASE_READING)
        g_assert_nonnull (strstr (lower, "signatures"));
    }
}

/* A date is the day, the month's name and the year, never "12/07/26":
 * 7 December and 12 July read apart, and a time follows the day. */
static void
test_dates (void)
{
  g_autoptr(GDateTime) december = g_date_time_new_local (2026, 12, 7, 9, 40, 0);
  g_autoptr(GDateTime) july = g_date_time_new_local (2026, 7, 12, 9, 40, 0);
  g_autofree char *dec_day = cm_date_format_day (december);
  g_autofree char *jul_day = cm_date_format_day (july);
  g_autofree char *dec_time = cm_summary_format_date (december);

  g_assert_cmpstr (dec_day, ==, "7 December 2026");
  g_assert_cmpstr (jul_day, ==, "12 July 2026");
  g_assert_cmpstr (dec_time, ==, "7 December 2026, 09:40");
  g_assert_null (cm_date_format_day (NULL));
}

int
main (int   argc,
      char *argv[])
{
  /* English words: the expectations are the untranslated strings. */
  g_setenv ("LANGUAGE", "C", TRUE);
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/summary/banner", test_banner);
  g_test_add_func ("/cardmark/summary/dates", test_dates);
  g_test_add_func ("/cardmark/summary/method-words", test_method_words);
  g_test_add_func ("/cardmark/summary/offered-classes", test_offered_classes);
  g_test_add_func ("/cardmark/summary/banner-read-only", test_banner_read_only);
  g_test_add_func ("/cardmark/summary/method-warning", test_method_warning);
  g_test_add_func ("/cardmark/summary/precision", test_precision);
  g_test_add_func ("/cardmark/summary/text-has-no-internal-names", test_text_has_no_internal_names);
  g_test_add_func ("/cardmark/summary/kind-words", test_kind_words);
  g_test_add_func ("/cardmark/summary/wear-answer", test_wear_answer);
  g_test_add_func ("/cardmark/summary/capacity-phase-words", test_capacity_phase_words);

  return g_test_run ();
}
