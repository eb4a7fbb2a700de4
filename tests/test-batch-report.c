/* test-batch-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The batch report, from documents the CLI saved for two simulated
 * cards (tests/data/batch): one row per card whatever kinds of check it
 * had, its real capacity from its capacity check, its lost data from its
 * verify or wear test, its verdict the words of each check; the newest
 * document of a kind counts; the CSV quotes what needs quoting. Every
 * expected figure is read from the documents themselves.
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include "cm-batch-report.h"
#include "cm-job-kinds.h"
#include "cm-summary.h"

static CmResult *
load (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "batch", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  CmResult *result = cm_result_new_from_file (file, &error);

  g_assert_no_error (error);
  return result;
}

static GPtrArray *
load_all (const char * const *names)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; names[i] != NULL; i++)
    g_ptr_array_add (results, load (names[i]));
  return results;
}

static void
assert_has_answer (const CmBatchRow *row,
                   CmResult         *result)
{
  CmStatus status;
  g_autofree char *answer = cm_summary_dup_answer (result, &status);

  if (answer != NULL)
    g_assert_nonnull (strstr (row->verdict, answer));
}

static void
test_two_cards (void)
{
  const char *names[] = { "fake-bench.json", "good-bench.json", "good-capacity.json", "fake-capacity.json",
                          "fake-verify.json", "good-wear.json", NULL };
  g_autoptr(GPtrArray) results = load_all (names);
  g_autoptr(GPtrArray) rows = cm_batch_report_build (results);
  const CmBatchRow *fake, *good;
  CmResult *fake_capacity = g_ptr_array_index (results, 3);
  CmResult *fake_verify = g_ptr_array_index (results, 4);
  CmResult *good_capacity = g_ptr_array_index (results, 2);
  CmResult *good_wear = g_ptr_array_index (results, 5);
  const CmWearRound *last;

  /* Two cards, in the order their first document came. */
  g_assert_cmpuint (rows->len, ==, 2);
  fake = g_ptr_array_index (rows, 0);
  good = g_ptr_array_index (rows, 1);
  g_assert_nonnull (strstr (fake->card, cm_result_get_device (fake_capacity)));
  g_assert_nonnull (strstr (good->card, cm_result_get_device (good_capacity)));
  g_assert_cmpstr (fake->kinds, ==, "bench, capacity, verify");
  g_assert_cmpstr (good->kinds, ==, "bench, capacity, wear");

  /* The fake card: what it says, what it holds, what the verify lost. */
  g_assert_cmpuint (fake->size_bytes, ==, cm_result_get_capacity (fake_capacity)->reported_bytes);
  g_assert_cmpint (fake->real_bytes, ==, cm_result_get_capacity (fake_capacity)->real_bytes);
  g_assert_cmpint (fake->real_bytes, <, (gint64) fake->size_bytes);
  g_assert_cmpint (fake->lost_bytes, ==, cm_result_get_verify (fake_verify)->lost_bytes);
  g_assert_cmpint (fake->lost_bytes, >, 0);
  g_assert_cmpint (fake->status, ==, CM_STATUS_BELOW);
  assert_has_answer (fake, fake_capacity);
  assert_has_answer (fake, fake_verify);

  /* The good card: all it says, nothing lost in its wear test's last round. */
  last = &g_array_index (cm_result_get_endurance (good_wear)->rounds, CmWearRound,
                         cm_result_get_endurance (good_wear)->rounds->len - 1);
  g_assert_cmpint (good->real_bytes, ==, cm_result_get_capacity (good_capacity)->real_bytes);
  g_assert_cmpint (good->real_bytes, ==, (gint64) good->size_bytes);
  g_assert_cmpint (good->lost_bytes, ==, (gint64) last->bad_sectors * 512);
  g_assert_cmpint (good->status, ==, CM_STATUS_MEETS);
  assert_has_answer (good, good_wear);
}

/* A card with nothing but a benchmark: no real capacity, no lost data. */
static void
test_unknown_figures (void)
{
  const char *names[] = { "good-bench.json", NULL };
  g_autoptr(GPtrArray) results = load_all (names);
  g_autoptr(GPtrArray) rows = cm_batch_report_build (results);
  const CmBatchRow *row = g_ptr_array_index (rows, 0);
  g_autofree char *real = cm_batch_row_dup_size (row, CM_BATCH_REAL);
  g_autofree char *csv = cm_batch_report_dup_csv (rows);
  g_auto(GStrv) lines = g_strsplit (csv, "\r\n", -1);
  g_auto(GStrv) fields = NULL;

  g_assert_cmpint (row->real_bytes, ==, -1);
  g_assert_cmpint (row->lost_bytes, ==, -1);
  g_assert_cmpstr (real, ==, "—");
  g_assert_cmpuint (g_strv_length (lines), ==, 3);   /* heading, the card, "" after the last line end */
  fields = g_strsplit (lines[1], ",", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, 7);
  g_assert_cmpstr (fields[4], ==, "");
  g_assert_cmpstr (fields[5], ==, "");
}

/* Two capacity checks of one card: the newer one's answer counts. */
static void
test_newest_counts (void)
{
  g_autoptr(CmResult) older = load ("fake-capacity.json");
  g_autoptr(CmResult) newer = load ("fake-capacity.json");
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GDateTime) later = g_date_time_add_hours (cm_result_get_started (older), 1);
  CmCapacityReport *report = (CmCapacityReport *) cm_result_get_capacity (newer);
  const CmBatchRow *row;

  cm_result_set_started (newer, later);
  report->real_bytes = report->reported_bytes;
  report->fake = FALSE;
  g_ptr_array_add (results, newer);
  g_ptr_array_add (results, older);
  rows = cm_batch_report_build (results);
  g_assert_cmpuint (rows->len, ==, 1);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpint (row->real_bytes, ==, (gint64) report->reported_bytes);
  g_assert_cmpint (row->status, ==, CM_STATUS_MEETS);
}

static void
add_from (CmBatchReport *report,
          CmResult      *result,
          const char    *machine)
{
  CmBatchFacts *facts = cm_batch_facts_new_for_result (result);

  facts->machine = g_strdup (machine);
  cm_batch_report_add (report, facts);
}

/* Documents from the lab's store: each line names the machine of each
 * check it was built from, in the order of its checks, the newest
 * document's machine where a card had two of a kind. */
static void
test_machines (void)
{
  g_autoptr(CmResult) older = load ("fake-capacity.json");
  g_autoptr(CmResult) newer = load ("fake-capacity.json");
  g_autoptr(CmResult) verify = load ("fake-verify.json");
  g_autoptr(CmResult) other = load ("good-capacity.json");
  g_autoptr(GDateTime) later = g_date_time_add_hours (cm_result_get_started (older), 1);
  g_autoptr(CmBatchReport) report = cm_batch_report_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  const CmBatchRow *row;

  cm_result_set_started (newer, later);
  add_from (report, newer, "lab-b");
  add_from (report, older, "lab-a");
  add_from (report, verify, "lab-c");
  add_from (report, other, "lab-a");
  rows = cm_batch_report_get_rows (report);
  g_assert_cmpuint (rows->len, ==, 2);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->kinds, ==, "capacity, verify");
  g_assert_cmpstr (row->machines, ==, "lab-b, lab-c");
  row = g_ptr_array_index (rows, 1);
  g_assert_cmpstr (row->machines, ==, "lab-a");

  csv = cm_batch_report_dup_csv (rows);
  lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_true (g_str_has_suffix (lines[0], ",checks,machines"));
  g_assert_true (g_str_has_suffix (lines[1], ",\"capacity, verify\",\"lab-b, lab-c\""));
  g_assert_true (g_str_has_suffix (lines[2], ",capacity,lab-a"));
}

/* A name with a comma and quotes stays one field. */
static void
test_csv_quoting (void)
{
  g_autoptr(CmResult) result = load ("good-capacity.json");
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *csv = NULL;

  cm_result_set_name (result, "The \"1 TB\" card, from the bag");
  g_ptr_array_add (results, result);
  rows = cm_batch_report_build (results);
  csv = cm_batch_report_dup_csv (rows);
  g_assert_true (g_str_has_prefix (csv, "card,size_bytes,verdict,status,real_capacity_bytes,lost_bytes,checks\r\n"));
  g_assert_nonnull (strstr (csv, "\r\n\"The \"\"1 TB\"\" card, from the bag · "));
  g_assert_nonnull (strstr (csv, ",meets,"));
}

/* A name from a hostile document: no control character or bidi override
 * reaches the file, and a spreadsheet does not run it as a formula. */
static void
test_csv_hostile (void)
{
  g_autoptr(CmResult) result = load ("good-capacity.json");
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;

  cm_result_set_name (result, "=HYPERLINK(\"x\")\x1b]0;t\x07\r\n\u202e");
  g_ptr_array_add (results, result);
  rows = cm_batch_report_build (results);
  csv = cm_batch_report_dup_csv (rows);
  g_assert_nonnull (strstr (csv, "\r\n\"'=HYPERLINK(\"\"x\"\")]0;t · "));
  g_assert_null (strchr (csv, '\x1b'));
  g_assert_null (strstr (csv, "\u202e"));
  lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
}

/* A full verify of a 134.2 MB card (128 MiB) that stopped answering at
 * 58.7 MB (56 MiB), 62.9 MB (60 MiB) into its run. */
static CmResult *
new_died_verify (void)
{
  CmResult *result = cm_result_new ();
  g_autoptr(CmVerifySummary) verify = cm_verify_summary_new ();

  verify->mode = g_strdup ("device");
  verify->complete = FALSE;
  verify->written_bytes = verify->checked_bytes = 60 * 1024 * 1024;
  verify->usable_bytes = 56 * 1024 * 1024;
  verify->lost_bytes = verify->checked_bytes - verify->usable_bytes;
  verify->sectors_ok = verify->usable_bytes / 512;
  verify->sectors_unreadable = verify->lost_bytes / 512;
  verify->first_bad_offset = (gint64) verify->usable_bytes;
  cm_result_set_kind (result, cm_job_kind_verify.name);
  cm_result_set_target (result, "/dev/sdx", "raw-write", "/dev/sdx", "usb");
  cm_result_set_device_bytes (result, 128 * 1024 * 1024);
  cm_result_set_verify (result, verify);
  return result;
}

/* The figure of the summary's headline called @label, or NULL. */
static const char *
find_figure (GPtrArray  *figures,
             const char *label)
{
  for (guint i = 0; i < figures->len; i++)
    {
      const CmHeadlineFigure *figure = g_ptr_array_index (figures, i);

      if (g_str_equal (figure->label, label))
        return figure->value;
    }
  return NULL;
}

/* The batch report and the summary ask the kind for the card's bytes
 * and the bytes lost, so they tell one story of a card that died. */
static void
test_verify_died_same_facts (void)
{
  g_autoptr(CmResult) result = new_died_verify ();
  const CmVerifySummary *verify = cm_result_get_verify (result);
  g_autoptr(CmBatchFacts) facts = cm_batch_facts_new_for_result (result);
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) figures = cm_summary_dup_headline (result);
  g_autofree char *title = cm_summary_dup_card_title (result);
  g_autofree char *lost = NULL;
  g_autofree char *size = NULL;
  const CmBatchRow *row;

  /* What the kind says is what its document holds. */
  g_assert_cmpint (cm_job_kind_get_lost_bytes (result), ==, (gint64) verify->lost_bytes);
  g_assert_cmpuint (cm_job_kind_get_card_bytes (result), ==, cm_result_get_device_bytes (result));

  /* The batch report: the facts the index keeps, and its row. */
  g_assert_cmpint (facts->lost_bytes, ==, cm_job_kind_get_lost_bytes (result));
  g_assert_cmpuint (facts->size_bytes, ==, cm_job_kind_get_card_bytes (result));
  g_ptr_array_add (results, result);
  rows = cm_batch_report_build (results);
  g_assert_cmpuint (rows->len, ==, 1);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpint (row->lost_bytes, ==, facts->lost_bytes);
  g_assert_cmpuint (row->size_bytes, ==, facts->size_bytes);

  /* The summary: its Lost figure and the size in the card's title. */
  lost = g_format_size ((guint64) facts->lost_bytes);
  size = g_format_size (facts->size_bytes);
  g_assert_cmpstr (find_figure (figures, "Lost"), ==, lost);
  g_assert_nonnull (strstr (title, size));
}

/* A kind without the facts (a benchmark) says none. */
static void
test_bench_has_no_lost (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmBatchFacts) facts = NULL;

  cm_result_set_kind (result, cm_job_kind_bench.name);
  facts = cm_batch_facts_new_for_result (result);
  g_assert_cmpint (cm_job_kind_get_lost_bytes (result), ==, -1);
  g_assert_cmpint (facts->lost_bytes, ==, -1);
  g_assert_cmpuint (facts->size_bytes, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/batch-report/two-cards", test_two_cards);
  g_test_add_func ("/cardmark/batch-report/unknown-figures", test_unknown_figures);
  g_test_add_func ("/cardmark/batch-report/newest-counts", test_newest_counts);
  g_test_add_func ("/cardmark/batch-report/machines", test_machines);
  g_test_add_func ("/cardmark/batch-report/csv-quoting", test_csv_quoting);
  g_test_add_func ("/cardmark/batch-report/csv-hostile", test_csv_hostile);
  g_test_add_func ("/cardmark/batch-report/verify-died-same-facts", test_verify_died_same_facts);
  g_test_add_func ("/cardmark/batch-report/bench-has-no-lost", test_bench_has_no_lost);

  return g_test_run ();
}
