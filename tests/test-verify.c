/* test-verify.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's pattern and how it sorts what comes back, the words
 * it finds for a card, and its summary in the result document. Whole
 * runs on simulated cards, and against F3 itself, are in cli-verify.sh.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cm-target.h"
#include "cm-verify.h"

#define SECTORS 64
#define SIZE (SECTORS * CM_VERIFY_SECTOR)

static guint8 *
filled (guint64 offset)
{
  guint8 *buffer = g_malloc (SIZE);

  cm_verify_fill (buffer, SIZE, offset);
  return buffer;
}

static void
test_pattern_round_trip (void)
{
  g_autofree guint8 *buffer = filled (G_GUINT64_CONSTANT (5) << 30);
  CmVerifyCounts counts = { 0 };

  g_assert_true (cm_verify_check (buffer, SIZE, G_GUINT64_CONSTANT (5) << 30, &counts));
  g_assert_cmpuint (counts.ok, ==, SECTORS);
  g_assert_cmpuint (counts.corrupted + counts.changed + counts.overwritten, ==, 0);
}

/* Sectors are made and checked eight at a time; the ones past the last
 * eight go one by one, the same. */
static void
test_pattern_odd_length (void)
{
  gsize length = 67 * CM_VERIFY_SECTOR;
  g_autofree guint8 *buffer = g_malloc (length);
  g_autofree guint8 *one = g_malloc (CM_VERIFY_SECTOR);
  CmVerifyCounts counts = { 0 };

  cm_verify_fill (buffer, length, 4096);
  cm_verify_fill (one, CM_VERIFY_SECTOR, 4096 + 65 * CM_VERIFY_SECTOR);
  g_assert_cmpmem (buffer + 65 * CM_VERIFY_SECTOR, CM_VERIFY_SECTOR, one, CM_VERIFY_SECTOR);
  g_assert_true (cm_verify_check (buffer, length, 4096, &counts));
  buffer[66 * CM_VERIFY_SECTOR + 9] ^= 0x80;
  g_assert_false (cm_verify_check (buffer, length, 4096, &counts));
  g_assert_cmpuint (counts.ok, ==, 67 + 66);
  g_assert_cmpuint (counts.changed, ==, 1);
}

/* Every sector differs from every other (it names its own place), so a
 * card that returns another place's data cannot pass. */
static void
test_pattern_names_its_place (void)
{
  g_autofree guint8 *buffer = filled (0);

  for (guint i = 1; i < SECTORS; i++)
    g_assert_true (memcmp (buffer, buffer + i * CM_VERIFY_SECTOR, CM_VERIFY_SECTOR) != 0);
  /* The first 8 bytes are the offset, little-endian, as F3 reads them. */
  g_assert_cmpuint (GUINT64_FROM_LE (((guint64 *) buffer)[3 * CM_VERIFY_SECTOR / 8]), ==, 3 * CM_VERIFY_SECTOR);
}

static void
test_sorting (void)
{
  g_autofree guint8 *buffer = filled (0);
  g_autofree guint8 *elsewhere = filled (G_GUINT64_CONSTANT (128) << 20);
  CmVerifyCounts counts = { 0 };

  buffer[1 * CM_VERIFY_SECTOR + 100] ^= 0x01;                       /* one bit: changed */
  memset (buffer + 2 * CM_VERIFY_SECTOR + 64, 0, 256);              /* many words: corrupted */
  memset (buffer + 3 * CM_VERIFY_SECTOR, 0, CM_VERIFY_SECTOR);       /* zeros: corrupted */
  memcpy (buffer + 4 * CM_VERIFY_SECTOR, elsewhere, CM_VERIFY_SECTOR); /* another place: overwritten */
  memset (buffer + 5 * CM_VERIFY_SECTOR, 0xff, CM_VERIFY_SECTOR);    /* erased flash: corrupted */

  g_assert_false (cm_verify_check (buffer, SIZE, 0, &counts));
  g_assert_cmpuint (counts.ok, ==, SECTORS - 5);
  g_assert_cmpuint (counts.changed, ==, 1);
  g_assert_cmpuint (counts.corrupted, ==, 3);
  g_assert_cmpuint (counts.overwritten, ==, 1);
}

static CmVerifySummary *
summary_new (guint64 ok,
             guint64 overwritten,
             guint64 corrupted,
             gboolean complete)
{
  CmVerifySummary *v = cm_verify_summary_new ();
  CmRegion region = { ok * 512, (ok + overwritten + corrupted) * 512 };

  v->mode = g_strdup ("device");
  v->n_files = 1;
  v->sectors_ok = ok;
  v->sectors_overwritten = overwritten;
  v->sectors_corrupted = corrupted;
  v->written_bytes = v->checked_bytes = (ok + overwritten + corrupted) * 512;
  v->usable_bytes = ok * 512;
  v->lost_bytes = (overwritten + corrupted) * 512;
  v->complete = complete;
  if (v->lost_bytes > 0)
    {
      g_array_append_val (v->bad_regions, region);
      v->first_bad_offset = region.start;
    }
  return v;
}

static void
test_describe (void)
{
  g_autoptr(CmVerifySummary) clean = summary_new (1000, 0, 0, TRUE);
  g_autoptr(CmVerifySummary) fake = summary_new (1000, 1000, 0, TRUE);
  g_autoptr(CmVerifySummary) bad = summary_new (1000, 0, 10, TRUE);
  g_autoptr(CmVerifySummary) dead = summary_new (1000, 0, 10, FALSE);
  g_autofree char *clean_text = cm_verify_describe (clean);
  g_autofree char *fake_text = cm_verify_describe (fake);
  g_autofree char *bad_text = cm_verify_describe (bad);
  g_autofree char *dead_text = cm_verify_describe (dead);
  g_autofree char *usable = g_format_size (fake->usable_bytes);
  g_autofree char *first = g_format_size (bad->first_bad_offset);

  g_assert_false (cm_verify_summary_lost_data (clean));
  g_assert_true (cm_verify_summary_lost_data (fake));
  g_assert_true (cm_verify_summary_lost_data (dead));
  g_assert_true (g_str_has_prefix (clean_text, "Every byte came back"));
  g_assert_true (g_str_has_prefix (fake_text, "Fake capacity"));
  g_assert_nonnull (strstr (fake_text, usable));
  g_assert_true (g_str_has_prefix (bad_text, "Data was lost"));
  g_assert_nonnull (strstr (bad_text, first));
  g_assert_nonnull (strstr (bad_text, "photos"));
  g_assert_nonnull (strstr (dead_text, "stopped working"));
}

static void
test_result_round_trip (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmVerifySummary) v = summary_new (1000, 24, 8, FALSE);
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  const CmVerifySummary *w;

  cm_result_set_target (result, "/dev/sdz", "raw-write", "/dev/sdz", NULL);
  cm_result_set_profile (result, "verify");
  cm_result_set_verify (result, v);
  data = cm_result_to_data (result, NULL);
  g_assert_nonnull (strstr (data, "\"verify\" : {"));
  back = cm_result_new_from_data (data, -1, &error);
  g_assert_no_error (error);

  w = cm_result_get_verify (back);
  g_assert_nonnull (w);
  g_assert_cmpstr (w->mode, ==, "device");
  g_assert_cmpuint (w->sectors_ok, ==, v->sectors_ok);
  g_assert_cmpuint (w->sectors_overwritten, ==, v->sectors_overwritten);
  g_assert_cmpuint (w->sectors_corrupted, ==, v->sectors_corrupted);
  g_assert_cmpuint (w->usable_bytes, ==, v->usable_bytes);
  g_assert_cmpuint (w->lost_bytes, ==, v->lost_bytes);
  g_assert_cmpint (w->first_bad_offset, ==, v->first_bad_offset);
  g_assert_false (w->complete);
  g_assert_cmpuint (w->bad_regions->len, ==, 1);
  g_assert_cmpuint (g_array_index (w->bad_regions, CmRegion, 0).end, ==, g_array_index (v->bad_regions, CmRegion, 0).end);

  /* A benchmark's document has none. */
  g_clear_object (&back);
  cm_result_set_verify (result, NULL);
  g_free (data);
  data = cm_result_to_data (result, NULL);
  g_assert_null (strstr (data, "\"verify\" : {"));
  back = cm_result_new_from_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_null (cm_result_get_verify (back));
}

static void
test_result_damaged (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmVerifySummary) v = summary_new (10, 0, 0, TRUE);
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *damaged = NULL;
  g_auto(GStrv) parts = NULL;

  cm_result_set_target (result, "/media/card", "file", NULL, NULL);
  cm_result_set_verify (result, v);
  data = cm_result_to_data (result, NULL);
  parts = g_strsplit (data, "\"complete\" : true", 2);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  damaged = g_strjoin ("\"complete\" : \"yes\"", parts[0], parts[1], NULL);

  back = cm_result_new_from_data (damaged, -1, &error);
  g_assert_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "complete"));
  g_assert_null (back);
}

/* What the faces check before anything is written. */
static void
test_prepare_refuses (void)
{
  g_autofree char *folder = g_dir_make_tmp ("cardmark-verify-XXXXXX", NULL);
  g_autofree char *h2w = g_build_filename (folder, "1.h2w", NULL);
  g_autofree char *state = g_build_filename (folder, "state", NULL);
  g_autoptr(CmVerify) resume = cm_verify_new (folder, CM_VERIFY_FLAGS_RESUME);
  g_autoptr(CmVerify) read_only = cm_verify_new (folder, CM_VERIFY_FLAGS_READ_ONLY);
  g_autoptr(CmVerify) again = NULL;
  g_autoptr(CmVerify) file = cm_verify_new (h2w, CM_VERIFY_FLAGS_NONE);
  g_autoptr(GError) error = NULL;

  cm_verify_set_state_folder (resume, state);
  g_assert_false (cm_verify_prepare (resume, &error));
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING);
  g_clear_error (&error);

  g_assert_false (cm_verify_prepare (read_only, &error));
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING);
  g_assert_nonnull (strstr (error->message, "f3write"));
  g_clear_error (&error);

  /* Files from an earlier run are never overwritten unasked. */
  g_assert_true (g_file_set_contents (h2w, "", 0, NULL));
  again = cm_verify_new (folder, CM_VERIFY_FLAGS_NONE);
  cm_verify_set_state_folder (again, state);
  g_assert_false (cm_verify_prepare (again, &error));
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_FILES_EXIST);
  g_assert_nonnull (strstr (error->message, "--resume"));
  g_clear_error (&error);

  /* Neither a folder nor a device. */
  g_assert_false (cm_verify_prepare (file, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED);

  g_assert_cmpint (g_remove (h2w), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/verify/pattern-round-trip", test_pattern_round_trip);
  g_test_add_func ("/cardmark/verify/pattern-odd-length", test_pattern_odd_length);
  g_test_add_func ("/cardmark/verify/pattern-names-its-place", test_pattern_names_its_place);
  g_test_add_func ("/cardmark/verify/sorting", test_sorting);
  g_test_add_func ("/cardmark/verify/describe", test_describe);
  g_test_add_func ("/cardmark/verify/result-round-trip", test_result_round_trip);
  g_test_add_func ("/cardmark/verify/result-damaged", test_result_damaged);
  g_test_add_func ("/cardmark/verify/prepare-refuses", test_prepare_refuses);

  return g_test_run ();
}
