/* test-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format's document: its "format" member written and read back
 * through a whole result document, a damaged one refused, text from it
 * cleaned, and its outcome (Formatted, or Not clean with status 1). A
 * format made through UDisks (not root) keeps what the specification
 * asked for beside what mkfs chose, and one nothing checked is never a
 * pass.
 */

#include "config.h"

#include <glib.h>
#include <string.h>

#include "cm-format.h"
#include "cm-outcome.h"
#include "cm-result.h"

static CmFormatReport *
new_report (guint64  size,
            gboolean clean)
{
  CmFormatReport *report = g_new0 (CmFormatReport, 1);

  g_assert_true (cm_format_layout_plan (size, 0, &report->layout, NULL));
  report->device_bytes = size;
  report->used_bytes = size;
  report->label = g_strdup ("CARD");
  report->partition = g_strdup ("/dev/sdz1");
  report->discard = CM_FORMAT_DISCARD_IGNORED;
  report->discard_seconds = 1.5;
  report->discard_samples = 16;
  report->fsck_ran = TRUE;
  report->fsck_clean = clean;
  report->fsck_output = g_strdup ("fsck says\nthis");
  return report;
}

/* Through a whole document and back, as the history reads it. */
static CmResult *
round_trip (const CmFormatReport *report)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(JsonNode) member = cm_format_report_to_json (report);
  g_autoptr(JsonNode) document = NULL;
  g_autoptr(GError) error = NULL;
  CmResult *back;

  cm_result_set_kind (result, "format");
  cm_result_set_target (result, "/dev/sdz", "raw-write", "/dev/sdz", NULL);
  cm_result_set_part (result, member);
  document = cm_result_to_json (result);
  back = cm_result_new_from_json (document, &error);
  g_assert_no_error (error);
  return back;
}

static void
test_round_trip (void)
{
  g_autoptr(CmFormatReport) report = new_report (G_GUINT64_CONSTANT (34) << 30, TRUE);
  g_autoptr(CmResult) back = round_trip (report);
  g_autoptr(CmFormatReport) read = cm_format_report_from_json (cm_result_get_part (back), NULL);

  g_assert_nonnull (read);
  g_assert_cmpint (read->layout.fs, ==, report->layout.fs);
  g_assert_cmpuint (read->layout.start, ==, report->layout.start);
  g_assert_cmpuint (read->layout.length, ==, report->layout.length);
  g_assert_cmpuint (read->layout.cluster, ==, report->layout.cluster);
  g_assert_cmpuint (read->layout.boundary, ==, report->layout.boundary);
  g_assert_cmpuint (read->device_bytes, ==, report->device_bytes);
  g_assert_cmpuint (read->used_bytes, ==, report->used_bytes);
  g_assert_cmpstr (read->label, ==, report->label);
  g_assert_cmpstr (read->partition, ==, report->partition);
  g_assert_cmpint (read->discard, ==, report->discard);
  g_assert_cmpfloat (read->discard_seconds, ==, report->discard_seconds);
  g_assert_cmpuint (read->discard_samples, ==, report->discard_samples);
  g_assert_true (read->fsck_clean);
  g_assert_cmpstr (read->fsck_output, ==, report->fsck_output);
}

static void
test_outcome (void)
{
  g_autoptr(CmFormatReport) clean = new_report (G_GUINT64_CONSTANT (4) << 30, TRUE);
  g_autoptr(CmFormatReport) faulty = new_report (G_GUINT64_CONSTANT (4) << 30, FALSE);
  g_autoptr(CmResult) good = round_trip (clean);
  g_autoptr(CmResult) bad = round_trip (faulty);
  g_autoptr(CmOutcome) pass = cm_result_dup_outcome (good);
  g_autoptr(CmOutcome) fail = cm_result_dup_outcome (bad);

  g_assert_cmpint (pass->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpint (pass->exit_status, ==, 0);
  g_assert_nonnull (strstr (pass->answer, "FAT32"));
  g_assert_nonnull (strstr (pass->answer, "32 KiB"));
  g_assert_cmpint (fail->status, ==, CM_OUTCOME_FAIL);
  g_assert_cmpint (fail->exit_status, ==, 1);
}

/* A damaged member is refused; text from outside is cleaned. */
static void
test_damaged (void)
{
  g_autoptr(CmFormatReport) report = new_report (256 << 20, TRUE);
  g_autoptr(JsonNode) node = cm_format_report_to_json (report);
  JsonObject *o = json_node_get_object (node);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmFormatReport) read = NULL;
  g_autoptr(CmFormatReport) bad = NULL;

  json_object_set_string_member (o, "fsck_output", "ok\033[2J\x07 done");
  json_object_set_string_member (o, "label", "A\tB");
  read = cm_format_report_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (read->fsck_output, ==, "ok[2J done");
  g_assert_cmpstr (read->label, ==, "AB");

  json_object_set_string_member (o, "file_system", "ntfs");
  bad = cm_format_report_from_json (node, &error);
  g_assert_null (bad);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  json_object_set_string_member (o, "file_system", "fat16");
  json_object_set_int_member (o, "cluster_bytes", 0);
  g_assert_null (cm_format_report_from_json (node, &error));
  g_clear_error (&error);
  json_object_set_int_member (o, "cluster_bytes", 16384);
  json_object_remove_member (o, "fsck_clean");
  g_assert_null (cm_format_report_from_json (node, &error));
}

/* Made through UDisks: mkfs chose 4 KiB clusters where the specification
 * asks for 32 KiB, and nothing could check it. */
static void
test_not_checked (void)
{
  g_autoptr(CmFormatReport) report = new_report (G_GUINT64_CONSTANT (4) << 30, TRUE);
  g_autoptr(CmResult) back = NULL;
  g_autoptr(CmFormatReport) read = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autofree char *check = NULL;
  g_autofree char *choice = NULL;
  guint32 planned = report->layout.cluster;

  g_assert_cmpuint (planned, !=, 4096);
  report->asked_fs = report->layout.fs;
  report->asked_cluster = report->layout.cluster;
  report->layout.cluster = 4096;
  report->data_start = report->layout.start + 4096;
  report->through_udisks = TRUE;
  report->fsck_ran = FALSE;
  report->fsck_clean = FALSE;
  g_free (report->fsck_output);
  report->fsck_output = g_strdup ("UDisks cannot check vfat file systems on this computer");
  back = round_trip (report);
  read = cm_format_report_from_json (cm_result_get_part (back), NULL);
  g_assert_nonnull (read);
  g_assert_true (read->through_udisks);
  g_assert_false (read->fsck_ran);
  g_assert_false (read->fsck_clean);
  g_assert_cmpuint (read->layout.cluster, ==, 4096);
  g_assert_cmpuint (read->asked_cluster, ==, planned);
  g_assert_cmpint (read->asked_fs, ==, CM_FORMAT_FS_FAT32);

  outcome = cm_result_dup_outcome (back);
  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_NOT_JUDGED);
  g_assert_cmpint (outcome->tone, !=, CM_STATUS_MEETS);
  g_assert_cmpint (outcome->exit_status, ==, 0);
  g_assert_nonnull (strstr (outcome->answer, "not checked"));
  g_assert_nonnull (strstr (outcome->answer, "4 KiB"));

  check = cm_format_report_dup_check_text (read);
  g_assert_true (g_str_has_prefix (check, "not checked: UDisks cannot check"));
  g_assert_null (strstr (check, "clean"));
  choice = cm_format_report_dup_choice_text (read);
  g_assert_nonnull (strstr (choice, "not the SD specification's (FAT32, 32 KiB clusters)"));
  g_assert_nonnull (strstr (choice, "does not start on the card's boundary unit"));
}

/* Made on an image as a user who is not root: the specification's
 * layout, checked and read back; the document says so and reads back
 * so, and it is a pass like root's. */
static void
test_through_image (void)
{
  g_autoptr(CmFormatReport) report = new_report (G_GUINT64_CONSTANT (4) << 30, TRUE);
  g_autoptr(CmResult) back = NULL;
  g_autoptr(CmFormatReport) read = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autofree char *check = NULL;
  g_autoptr(JsonNode) node = NULL;

  report->through_image = TRUE;
  report->copied_bytes = 8 << 20;
  node = cm_format_report_to_json (report);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "made_by"), ==, "image");
  back = round_trip (report);
  read = cm_format_report_from_json (cm_result_get_part (back), NULL);
  g_assert_nonnull (read);
  g_assert_true (read->through_image);
  g_assert_false (read->through_udisks);
  g_assert_cmpuint (read->copied_bytes, ==, 8 << 20);
  g_assert_true (read->fsck_ran && read->fsck_clean);
  g_assert_null (cm_format_report_dup_choice_text (read));
  check = cm_format_report_dup_check_text (read);
  g_assert_nonnull (strstr (check, "the card read back what was written"));
  outcome = cm_result_dup_outcome (back);
  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_PASS);

  /* A damaged count is no document. */
  json_object_set_string_member (json_node_get_object (node), "copied_bytes", "many");
  g_assert_null (cm_format_report_from_json (node, NULL));
}

/* A document from before the UDisks route: made by mkfs as asked, and
 * checked; its own words on the check stand. */
static void
test_older_document (void)
{
  g_autoptr(CmFormatReport) report = new_report (G_GUINT64_CONSTANT (4) << 30, TRUE);
  g_autoptr(JsonNode) node = cm_format_report_to_json (report);
  JsonObject *o = json_node_get_object (node);
  g_autoptr(CmFormatReport) read = NULL;
  g_autofree char *choice = NULL;

  json_object_remove_member (o, "fsck_ran");
  json_object_remove_member (o, "made_by");
  read = cm_format_report_from_json (node, NULL);
  g_assert_nonnull (read);
  g_assert_true (read->fsck_ran);
  g_assert_true (read->fsck_clean);
  g_assert_false (read->through_udisks);
  g_assert_cmpuint (read->asked_cluster, ==, read->layout.cluster);
  choice = cm_format_report_dup_choice_text (read);
  g_assert_null (choice);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cardmark/format/round-trip", test_round_trip);
  g_test_add_func ("/cardmark/format/outcome", test_outcome);
  g_test_add_func ("/cardmark/format/damaged", test_damaged);
  g_test_add_func ("/cardmark/format/not-checked", test_not_checked);
  g_test_add_func ("/cardmark/format/older-document", test_older_document);
  g_test_add_func ("/cardmark/format/through-image", test_through_image);
  return g_test_run ();
}
