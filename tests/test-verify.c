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
#include <unistd.h>

#include "cm-target.h"
#include "cm-verify-private.h"
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

static char *
describe (const CmVerifySummary *v)
{
  CmVerifyFacts facts;

  cm_verify_facts_init (&facts, v, v->checked_bytes);
  return cm_verify_describe (&facts, v);
}

static void
test_describe (void)
{
  g_autoptr(CmVerifySummary) clean = summary_new (1000, 0, 0, TRUE);
  g_autoptr(CmVerifySummary) fake = summary_new (1000, 1000, 0, TRUE);
  g_autoptr(CmVerifySummary) bad = summary_new (1000, 0, 10, TRUE);
  g_autoptr(CmVerifySummary) dead = summary_new (1000, 0, 10, FALSE);
  g_autofree char *clean_text = describe (clean);
  g_autofree char *fake_text = describe (fake);
  g_autofree char *bad_text = describe (bad);
  g_autofree char *dead_text = describe (dead);
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
  g_assert_nonnull (strstr (error->message, "Carry on with the stopped verify"));
  g_clear_error (&error);

  /* Neither a folder nor a device. */
  g_assert_false (cm_verify_prepare (file, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED);

  g_assert_cmpint (g_remove (h2w), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

/* The state file (cm-verify-state.c): a verify prepared on an empty
 * folder, so it knows its card's identity and size. */
typedef struct
{
  char     *folder;
  CmVerify *verify;
} Prepared;

static void
prepared_init (Prepared      *p,
               CmVerifyFlags  flags)
{
  g_autofree char *states = NULL;
  g_autoptr(GError) error = NULL;

  p->folder = g_dir_make_tmp ("cardmark-verify-XXXXXX", NULL);
  states = g_build_filename (p->folder, "states", NULL);
  p->verify = cm_verify_new (p->folder, flags);
  cm_verify_set_state_folder (p->verify, states);
  g_assert_true (cm_verify_prepare (p->verify, &error));
  g_assert_no_error (error);
}

static void
prepared_clear (Prepared *p)
{
  g_autofree char *states = g_build_filename (p->folder, "states", NULL);

  if (p->verify != NULL)
    g_remove (cm_verify_get_state_path (p->verify));
  g_clear_object (&p->verify);
  g_rmdir (states);
  g_rmdir (p->folder);
  g_free (p->folder);
}

/* A run three files in, stopped at the start of a fourth it had named. */
static CmVerifyRun *
stopped_run (CmVerify *verify)
{
  CmVerifyRun *run = cm_verify_run_new (verify, NULL);
  guint64 length = verify->file_bytes;

  for (guint n = 1; n <= 4; n++)
    g_array_append_val (run->numbers, n);
  for (guint i = 0; i < 3; i++)
    g_array_append_val (run->lengths, length);
  run->n_files = 3;
  run->cur_file = 3;
  run->written_bytes = 3 * length;
  run->write_seconds = 1.5;
  run->planned_bytes = 3 * length;
  return run;
}

static gboolean
parse_back (CmVerify    *verify,
            const char  *data,
            gsize        length,
            CmVerifyRun **out,
            GError     **error)
{
  CmVerifyRun *run = cm_verify_run_new (verify, NULL);
  gboolean ok = cm_verify_state_parse (run, data, length, error);

  if (out != NULL)
    *out = run;
  else
    cm_verify_run_free (run);
  return ok;
}

static void
test_state_round_trip (void)
{
  Prepared p;
  CmVerifyRun *run, *back = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_test_summary ("A run stopped between two files (issue 23 case 7) saves a state that reads back whole");
  prepared_init (&p, CM_VERIFY_FLAGS_NONE);
  run = stopped_run (p.verify);
  data = cm_verify_state_to_data (run, &length);
  g_assert_true (parse_back (p.verify, data, length, &back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back->n_files, ==, 3);
  g_assert_cmpuint (back->numbers->len, ==, 3);
  g_assert_cmpuint (back->cur_file, ==, 3);
  g_assert_cmpuint (back->written_bytes, ==, run->written_bytes);
  g_assert_cmpfloat (back->write_seconds, ==, 1.5);
  cm_verify_run_free (back);
  cm_verify_run_free (run);
  prepared_clear (&p);
}

static void
test_state_checksum (void)
{
  Prepared p;
  CmVerifyRun *run;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  char *at;

  g_test_summary ("A state with one byte changed fails its checksum and is refused as damaged");
  prepared_init (&p, CM_VERIFY_FLAGS_NONE);
  run = stopped_run (p.verify);
  data = cm_verify_state_to_data (run, &length);
  at = strstr (data, "written-bytes=");
  g_assert_nonnull (at);
  at[strlen ("written-bytes=")] = '1';
  g_assert_false (parse_back (p.verify, data, length, NULL, &error));
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, "delete"));
  cm_verify_run_free (run);
  prepared_clear (&p);
}

static void
test_state_other_card (void)
{
  Prepared p;
  CmVerifyRun *run;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_test_summary ("A state that names another card (issue 23 case 5) is refused, with what to do");
  prepared_init (&p, CM_VERIFY_FLAGS_NONE);
  run = stopped_run (p.verify);
  data = cm_verify_state_to_data (run, &length);
  g_free (p.verify->identity);
  p.verify->identity = g_strdup ("files-268435456-another");
  g_assert_false (parse_back (p.verify, data, length, NULL, &error));
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD);
  g_assert_nonnull (strstr (error->message, "a new verify"));
  cm_verify_run_free (run);
  prepared_clear (&p);
}

static void
test_peek_stopped (void)
{
  Prepared p;
  CmVerifyRun *run;
  g_autofree char *data = NULL;
  g_autofree char *states = NULL;
  gsize length = 0;
  double expected;
  char *at;

  g_test_summary ("Where a stopped verify got, as the app says it before carrying on: from its state, "
                  "and nothing from a state that fails its checksum or is not there");
  prepared_init (&p, CM_VERIFY_FLAGS_NONE);
  states = g_build_filename (p.folder, "states", NULL);
  g_assert_cmpfloat (cm_verify_peek_stopped (p.folder, CM_VERIFY_MODE_FILES, 0, states), <, 0);

  run = stopped_run (p.verify);
  /* Written, none read back: half of the run. */
  expected = (double) run->written_bytes / (2.0 * run->planned_bytes);
  data = cm_verify_state_to_data (run, &length);
  g_assert_cmpint (g_mkdir_with_parents (states, 0700), ==, 0);
  g_assert_true (g_file_set_contents (cm_verify_get_state_path (p.verify), data, length, NULL));
  g_assert_cmpfloat_with_epsilon (cm_verify_peek_stopped (p.folder, CM_VERIFY_MODE_FILES, 0, states), expected, 1e-9);
  /* And the phase it stopped in, for the carry-on question's words. */
  {
    CmVerifyPhase phase = CM_VERIFY_PHASE_READ + 1;

    cm_verify_peek_stopped_in (p.folder, CM_VERIFY_MODE_FILES, 0, states, &phase);
    g_assert_cmpint (phase, ==, run->phase == CM_VERIFY_PHASE_WRITE ? CM_VERIFY_PHASE_WRITE : CM_VERIFY_PHASE_READ);
  }

  at = strstr (data, "written-bytes=");
  g_assert_nonnull (at);
  at[strlen ("written-bytes=")] = '1';
  g_assert_true (g_file_set_contents (cm_verify_get_state_path (p.verify), data, length, NULL));
  g_assert_cmpfloat (cm_verify_peek_stopped (p.folder, CM_VERIFY_MODE_FILES, 0, states), <, 0);

  cm_verify_run_free (run);
  prepared_clear (&p);
}

static void
test_state_bounds (void)
{
  Prepared p;
  CmVerifyRun *run;
  guint64 card = 0;

  g_test_summary ("Numbers a state holds beyond the card it names (issue 23 case 10) are refused as damaged, "
                  "checksum or not");
  prepared_init (&p, CM_VERIFY_FLAGS_NONE);
  card = p.verify->card_bytes;
  for (guint c = 0; c < 6; c++)
    {
      g_autofree char *data = NULL;
      g_autoptr(GError) error = NULL;
      gsize length = 0;

      run = stopped_run (p.verify);
      switch (c)
        {
        case 0: run->written_bytes = card + 1; break;
        case 1: run->counts.ok = card; break;
        case 2: g_array_index (run->numbers, guint, 1) = 1; break;  /* not rising */
        case 3: g_array_index (run->lengths, guint64, 0) = p.verify->file_bytes + CM_VERIFY_SECTOR; break;
        case 4: run->cur_offset = 4096; break;  /* past what file 3 holds */
        default: run->phase = CM_VERIFY_PHASE_DONE; break;  /* "finished" with nothing counted */
        }
      data = cm_verify_state_to_data (run, &length);
      g_assert_false (parse_back (p.verify, data, length, NULL, &error));
      g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED);
      cm_verify_run_free (run);
    }

  /* Finished, with every sector of its files counted: taken back as it
   * was, so a stop after the verdict resumes to the same verdict. */
  {
    g_autofree char *data = NULL;
    g_autoptr(GError) error = NULL;
    CmVerifyRun *back = NULL;
    gsize length = 0;

    run = stopped_run (p.verify);
    run->phase = CM_VERIFY_PHASE_DONE;
    run->read_bytes = run->planned_bytes;
    run->counts.ok = run->planned_bytes / CM_VERIFY_SECTOR - 3;
    run->counts.corrupted = 3;
    data = cm_verify_state_to_data (run, &length);
    g_assert_true (parse_back (p.verify, data, length, &back, &error));
    g_assert_no_error (error);
    g_assert_cmpint (back->phase, ==, CM_VERIFY_PHASE_DONE);
    g_assert_cmpuint (back->counts.ok, ==, run->counts.ok);
    g_assert_cmpuint (back->counts.corrupted, ==, 3);
    cm_verify_run_free (back);
    cm_verify_run_free (run);
  }
  prepared_clear (&p);
}

static void
test_read_only_keeps_no_state (void)
{
  Prepared p;
  CmVerifyRun *run;

  g_test_summary ("A --read-only run saves no state for a later --resume to replay (issue 23 case 9)");
  prepared_init (&p, CM_VERIFY_FLAGS_NONE);
  run = stopped_run (p.verify);
  cm_verify_run_save_state (run);
  g_assert_true (g_file_test (cm_verify_get_state_path (p.verify), G_FILE_TEST_IS_REGULAR));
  g_remove (cm_verify_get_state_path (p.verify));
  p.verify->flags |= CM_VERIFY_FLAGS_READ_ONLY;
  cm_verify_run_save_state (run);
  g_assert_false (g_file_test (cm_verify_get_state_path (p.verify), G_FILE_TEST_EXISTS));
  cm_verify_run_free (run);
  prepared_clear (&p);
}

static void
test_one_at_a_time (void)
{
  Prepared p;
  g_autoptr(CmVerify) second = NULL;
  g_autoptr(CmVerify) third = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A second verify of a folder a first one holds is refused (issue 23 case 6)");
  prepared_init (&p, CM_VERIFY_FLAGS_NONE);
  second = cm_verify_new (p.folder, CM_VERIFY_FLAGS_NONE);
  g_assert_false (cm_verify_prepare (second, &error));
  g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "already running"));
  g_clear_error (&error);
  g_clear_object (&p.verify);
  third = cm_verify_new (p.folder, CM_VERIFY_FLAGS_NONE);
  cm_verify_set_state_folder (third, "/nonexistent");
  g_assert_true (cm_verify_prepare (third, &error));
  g_assert_no_error (error);
  g_rmdir (p.folder);
  g_free (p.folder);
}

static void
test_empty_path (void)
{
  g_autoptr(CmVerify) verify = cm_verify_new ("", CM_VERIFY_FLAGS_NONE);
  g_autoptr(GError) error = NULL;

  g_test_summary ("An empty path is no target, never the working folder (issue 23 case 4)");
  g_assert_false (cm_verify_prepare (verify, &error));
  g_assert_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED);
  g_assert_null (cm_verify_get_folder (verify));
}

/* The verify's and the wear test's I/O (cm-verify-io.c) writes the
 * pattern each place names, whatever it was told would come next, and
 * sorts what it reads back the same whether the place was read ahead or
 * not. */
#define PLACE_BYTES (64 * 1024)
#define PATTERN_BASE (G_GUINT64_CONSTANT (3) << 30)

static CmVerifyPlace
io_place (guint i)
{
  CmVerifyPlace place = { (guint64) i * PLACE_BYTES, PLACE_BYTES, PATTERN_BASE + (guint64) i * PLACE_BYTES };

  return place;
}

static void
test_io_round_trip (void)
{
  g_autofree char *path = NULL;
  g_autofree guint8 *expected = g_malloc (4 * PLACE_BYTES);
  g_autofree guint8 *found = g_malloc (4 * PLACE_BYTES);
  guint8 garbage[CM_VERIFY_SECTOR];
  CmVerifyPlace places[5], half;
  guint order[] = { 3, 1, 0, 2 };
  guint nexts[] = { 1, 2, 2, 4 };  /* wrong guesses too: 1 is followed by 0, not 2 */
  CmVerifyCounts total = { 0 };
  CmVerifyIo *io;
  int fd, errsv;

  fd = g_file_open_tmp ("cardmark-verify-io-XXXXXX", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  for (guint i = 0; i < G_N_ELEMENTS (places); i++)
    places[i] = io_place (i);
  places[4].length = 0;  /* past the end: no next */

  /* Written out of order, with a guess that does not come true and a
   * retry of the second half of a place. */
  io = cm_verify_io_new (fd);
  g_assert_cmpint (cm_verify_io_write (io, &places[0], &places[1], &errsv), ==, PLACE_BYTES);
  g_assert_cmpint (cm_verify_io_write (io, &places[2], &places[1], &errsv), ==, PLACE_BYTES);
  g_assert_cmpint (cm_verify_io_write (io, &places[1], &places[3], &errsv), ==, PLACE_BYTES);
  half = places[1];
  half.offset += PLACE_BYTES / 2;
  half.pattern += PLACE_BYTES / 2;
  half.length = PLACE_BYTES / 2;
  g_assert_cmpint (cm_verify_io_write (io, &half, &places[3], &errsv), ==, PLACE_BYTES / 2);
  g_assert_cmpint (cm_verify_io_write (io, &places[3], &places[4], &errsv), ==, PLACE_BYTES);
  cm_verify_io_free (io);

  cm_verify_fill (expected, 4 * PLACE_BYTES, PATTERN_BASE);
  g_assert_cmpint (pread (fd, found, 4 * PLACE_BYTES, 0), ==, 4 * PLACE_BYTES);
  g_assert_cmpmem (found, 4 * PLACE_BYTES, expected, 4 * PLACE_BYTES);

  /* One sector of place 1 goes bad. */
  memset (garbage, 0x5a, sizeof garbage);
  g_assert_cmpint (pwrite (fd, garbage, sizeof garbage, PLACE_BYTES + 7 * CM_VERIFY_SECTOR), ==, sizeof garbage);

  io = cm_verify_io_new (fd);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      CmVerifyRead r;

      cm_verify_io_read (io, &places[order[i]], &places[nexts[i]], &r);
      g_assert_cmpint (r.done, ==, PLACE_BYTES);
      g_assert_cmpint (r.intact, ==, order[i] != 1);
      g_assert_true (cm_verify_sector_is_ok (r.data, places[order[i]].pattern));
      g_assert_cmpint (cm_verify_sector_is_ok (r.data + 7 * CM_VERIFY_SECTOR,
                                               places[order[i]].pattern + 7 * CM_VERIFY_SECTOR), ==, order[i] != 1);
      total.ok += r.counts.ok;
      total.corrupted += r.counts.corrupted;
      total.changed += r.counts.changed;
      total.overwritten += r.counts.overwritten;
    }
  g_assert_cmpuint (total.ok, ==, 4 * PLACE_BYTES / CM_VERIFY_SECTOR - 1);
  g_assert_cmpuint (total.corrupted, ==, 1);
  g_assert_cmpuint (total.changed + total.overwritten, ==, 0);

  /* Past the end of the file: nothing comes back, and it says so. */
  {
    CmVerifyPlace beyond = io_place (9);
    CmVerifyRead r;

    cm_verify_io_read (io, &beyond, NULL, &r);
    g_assert_cmpint (r.done, ==, 0);
    g_assert_false (r.intact);
    g_assert_cmpuint (r.counts.ok, ==, 0);
  }
  cm_verify_io_free (io);
  close (fd);
  g_unlink (path);
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
  g_test_add_func ("/cardmark/verify/io-round-trip", test_io_round_trip);
  g_test_add_func ("/cardmark/verify/describe", test_describe);
  g_test_add_func ("/cardmark/verify/result-round-trip", test_result_round_trip);
  g_test_add_func ("/cardmark/verify/result-damaged", test_result_damaged);
  g_test_add_func ("/cardmark/verify/prepare-refuses", test_prepare_refuses);
  g_test_add_func ("/cardmark/verify/state-round-trip", test_state_round_trip);
  g_test_add_func ("/cardmark/verify/state-checksum", test_state_checksum);
  g_test_add_func ("/cardmark/verify/state-other-card", test_state_other_card);
  g_test_add_func ("/cardmark/verify/state-bounds", test_state_bounds);
  g_test_add_func ("/cardmark/verify/peek-stopped", test_peek_stopped);
  g_test_add_func ("/cardmark/verify/read-only-keeps-no-state", test_read_only_keeps_no_state);
  g_test_add_func ("/cardmark/verify/one-at-a-time", test_one_at_a_time);
  g_test_add_func ("/cardmark/verify/empty-path", test_empty_path);

  return g_test_run ();
}
