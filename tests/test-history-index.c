/* test-history-index.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cm-card-same.h"
#include "cm-history.h"
#include "cm-history-index.h"
#include "cm-card-info.h"
#include "cm-batch-report.h"

static GFile *
save_at (CmHistory *history, int hour, const char *name)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 12, 2, hour, 0, 0);
  g_autoptr(GError) error = NULL;
  GFile *file;

  cm_result_set_started (result, when);
  cm_result_set_name (result, name);
  cm_result_set_target (result, "/media/card", "file", NULL, NULL);
  file = cm_history_save (history, result, &error);
  g_assert_no_error (error);
  return file;
}

static CmHistoryIndex *
open_refreshed (GFile *folder)
{
  g_autoptr(GError) error = NULL;
  CmHistoryIndex *index = cm_history_index_open (folder, &error);

  g_assert_no_error (error);
  cm_history_index_refresh (index, &error);
  g_assert_no_error (error);
  return index;
}

static void
assert_names (CmHistoryIndex *index, const char *const *names)
{
  g_autoptr(GPtrArray) entries = cm_history_index_query (index, 0, 100);

  g_assert_cmpuint (entries->len, ==, g_strv_length ((char **) names));
  for (guint i = 0; i < entries->len; i++)
    {
      CmHistoryEntry *entry = g_ptr_array_index (entries, i);
      g_assert_cmpstr (entry->damaged ? "damaged" : entry->name, ==, names[i]);
    }
}

static void
test_index (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-index-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(GFile) first = save_at (history, 8, "first");
  g_autoptr(GFile) second = save_at (history, 9, "second");
  g_autoptr(GFile) damaged = g_file_get_child (folder, "damaged.json");
  g_autofree char *db_path = NULL;
  g_autoptr(GPtrArray) page = NULL;

  {
    g_autoptr(CmHistoryIndex) index = open_refreshed (folder);
    db_path = g_strdup (cm_history_index_get_path (index));
    g_assert_true (g_file_test (db_path, G_FILE_TEST_IS_REGULAR));
    g_assert_cmpuint (cm_history_index_count (index), ==, 2);
    assert_names (index, (const char *[]) { "second", "first", NULL });
    page = cm_history_index_query (index, 1, 1);
    g_assert_cmpuint (page->len, ==, 1);
  }

  /* Behind the index's back: one document added, one removed, a damaged one. */
  {
    g_autoptr(GFile) third = save_at (history, 10, "third");
  }
  g_assert_true (g_file_delete (first, NULL, &error));
  g_assert_true (g_file_replace_contents (damaged, "{ not json", 10, NULL, FALSE,
                                          G_FILE_CREATE_NONE, NULL, NULL, &error));
  {
    g_autoptr(CmHistoryIndex) index = open_refreshed (folder);
    assert_names (index, (const char *[]) { "third", "second", "damaged", NULL });
  }

  /* A document changed: other size, so indexed again. */
  g_assert_true (g_file_replace_contents (damaged, "{ still not json }", 18, NULL, FALSE,
                                          G_FILE_CREATE_NONE, NULL, NULL, &error));
  {
    g_autoptr(CmHistoryIndex) index = open_refreshed (folder);
    assert_names (index, (const char *[]) { "third", "second", "damaged", NULL });
  }

  /* A damaged index file is rebuilt from the documents. */
  g_assert_true (g_file_set_contents (db_path, "garbage, not a database at all", -1, &error));
  {
    g_autoptr(CmHistoryIndex) index = open_refreshed (folder);
    assert_names (index, (const char *[]) { "third", "second", "damaged", NULL });
    g_assert_null (cm_history_index_last_for_serial (index, "0x1234"));
  }
  g_assert_no_error (error);
}

static void
save_card (CmHistory *history, int hour, const char *json)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 12, 3, hour, 0, 0);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardInfo) card = cm_card_info_new_from_json (node, &error);
  g_autoptr(GFile) file = NULL;

  g_assert_no_error (error);
  cm_result_set_started (result, when);
  cm_result_set_target (result, "/media/card", "file", NULL, NULL);
  cm_result_set_card (result, card);
  file = cm_history_save (history, result, &error);
  g_assert_no_error (error);
}

/* Tested before: the newest result of a card with the same CID serial,
 * with its size and brand, for a cloned-card warning. */
static void
test_tested_before (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-index-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(CmHistoryEntry) last = NULL;
  g_autoptr(GDateTime) nine = g_date_time_new_utc (2026, 12, 3, 9, 0, 0);

  save_card (history, 8, "{\"registers_available\": true, \"serial\": \"0x00001234\", \"brand\": \"SanDisk\", \"capacity_bytes\": 32000000000}");
  save_card (history, 9, "{\"registers_available\": true, \"serial\": \"0x00001234\", \"brand\": \"Kingston\", \"capacity_bytes\": 64000000000}");
  save_card (history, 10, "{\"registers_available\": true, \"serial\": \"0x00005678\", \"brand\": \"SanDisk\", \"capacity_bytes\": 32000000000}");
  index = open_refreshed (folder);
  last = cm_history_index_last_for_serial (index, "0x00001234");
  g_assert_nonnull (last);
  g_assert_cmpstr (last->brand, ==, "Kingston");
  g_assert_cmpuint (last->size_bytes, ==, 64000000000);
  g_assert_cmpint (last->started, ==, g_date_time_to_unix (nine));

  /* A save updates the index itself: no refresh needed to see it. */
  g_clear_pointer (&index, cm_history_index_free);
  save_card (history, 11, "{\"registers_available\": true, \"serial\": \"0x00001234\", \"brand\": \"SanDisk\", \"capacity_bytes\": 32000000000}");
  index = cm_history_index_open (folder, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cm_history_index_count (index), ==, 4);
}

static void
save_loop_card (CmHistory *history, int hour, const char *name, const char *device, guint64 device_bytes)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 12, 4, hour, 0, 0);
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;

  cm_result_set_kind (result, "verify");
  cm_result_set_started (result, when);
  cm_result_set_name (result, name);
  cm_result_set_target (result, device, "device", device, NULL);
  cm_result_set_device_bytes (result, device_bytes);
  cm_result_set_sighting (result, "test-boot/3");
  /* Behind a USB reader or a loop device: a brand given, no registers. */
  cm_card_info_set_brand (card, "Kingston");
  cm_result_set_card (result, card);
  file = cm_history_save (history, result, &error);
  g_assert_no_error (error);
}

static char *
dup_last_name (CmHistory *history, const char *device, guint64 device_bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) last = cm_history_find_last (history, "verify", NULL, device, device_bytes, &error);

  g_assert_no_error (error);
  return last != NULL ? g_strdup (cm_result_get_name (last)) : NULL;
}

/* A card without registers (no CID serial, no size of its own) is told
 * by its reader's device and the size of its block device, which the
 * document records, and only while it never left its reader since
 * (cm-card-same.h): two cards in one reader are two cards, and a
 * document that knows no size is no card's. */
static void
test_last_by_device_size (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-index-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  const guint64 mib = 1024 * 1024;
  char *name;

  g_assert_no_error (error);
  cm_card_set_sighting_for_testing ("/dev/sdx", "test-boot/3");
  save_loop_card (history, 9, "small", "/dev/sdx", 64 * mib);
  save_loop_card (history, 10, "big", "/dev/sdx", 128 * mib);
  save_loop_card (history, 11, "no size", "/dev/sdx", 0);

  name = dup_last_name (history, "/dev/sdx", 64 * mib);
  g_assert_cmpstr (name, ==, "small");
  g_free (name);
  name = dup_last_name (history, "/dev/sdx", 128 * mib);
  g_assert_cmpstr (name, ==, "big");
  g_free (name);
  /* A card put in the reader since, of the same size: not the same. */
  cm_card_set_sighting_for_testing ("/dev/sdx", "test-boot/4");
  name = dup_last_name (history, "/dev/sdx", 128 * mib);
  g_assert_null (name);
  cm_card_set_sighting_for_testing (NULL, NULL);
  /* Another size, another reader: none of these. */
  g_assert_null (dup_last_name (history, "/dev/sdx", 32 * mib));
  g_assert_null (dup_last_name (history, "/dev/sdy", 64 * mib));
}

/* Which card a document is of, as the history finds a card's last
 * result and Test Again tells it from another card in the reader: by
 * its CID serial where the document and the card both tell one, else
 * by its size; a document that knows neither is of no card. */
static void
test_is_of_card (void)
{
  const guint64 mib = 1024 * 1024;
  CmHistoryEntry with_serial = { .serial = (char *) "0x1234abcd", .size_bytes = 64 * mib };
  CmHistoryEntry without_serial = { .serial = NULL, .size_bytes = 64 * mib };
  CmHistoryEntry empty_serial = { .serial = (char *) "", .size_bytes = 64 * mib };
  CmHistoryEntry knows_nothing = { 0 };

  /* Both tell a serial: it decides, whatever the sizes. */
  g_assert_true (cm_history_entry_is_of_card (&with_serial, "0x1234abcd", 64 * mib));
  g_assert_true (cm_history_entry_is_of_card (&with_serial, "0x1234abcd", 128 * mib));
  g_assert_false (cm_history_entry_is_of_card (&with_serial, "0x5678ef01", 64 * mib));
  /* One of them tells none (the card now behind a USB reader, or the
   * document of a loop device): the size. */
  g_assert_true (cm_history_entry_is_of_card (&with_serial, NULL, 64 * mib));
  g_assert_true (cm_history_entry_is_of_card (&with_serial, "", 64 * mib));
  g_assert_false (cm_history_entry_is_of_card (&with_serial, NULL, 128 * mib));
  g_assert_true (cm_history_entry_is_of_card (&without_serial, "0x5678ef01", 64 * mib));
  g_assert_true (cm_history_entry_is_of_card (&empty_serial, "0x5678ef01", 64 * mib));
  g_assert_false (cm_history_entry_is_of_card (&without_serial, NULL, 32 * mib));
  /* No serial, no size: no card, not even one that tells no size. */
  g_assert_false (cm_history_entry_is_of_card (&knows_nothing, NULL, 0));
  g_assert_false (cm_history_entry_is_of_card (&knows_nothing, NULL, 64 * mib));
  g_assert_false (cm_history_entry_is_of_card (&knows_nothing, "0x1234abcd", 64 * mib));
}

/* "start name": the walk's order can be checked by sorting. */
static gboolean
collect_name_cb (CmHistoryEntry *entry, gpointer user_data)
{
  g_ptr_array_add (user_data, g_strdup_printf ("%012" G_GINT64_FORMAT " %s", entry->started,
                                               entry->damaged ? "damaged" : entry->name));
  return TRUE;
}

/* history --csv from the index's columns says what the batch report built
 * from the documents themselves says, and --json's walk gives the
 * documents oldest first, the damaged apart. */
static void
test_batch_from_index (void)
{
  const char *names[] = { "fake-bench", "good-bench", "fake-capacity", "good-capacity", "fake-verify", "good-wear" };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-index-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = cm_history_new (folder);
  g_autoptr(GFile) damaged = g_file_get_child (folder, "damaged.json");
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) from_documents = NULL;
  g_autoptr(GPtrArray) from_index = NULL;
  g_autoptr(GPtrArray) walked = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *csv_documents = NULL;
  g_autofree char *csv_index = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.json", names[i]);
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "batch", name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(CmResult) result = cm_result_new_from_file (file, &error);
      g_autoptr(GFile) saved = NULL;

      g_assert_no_error (error);
      saved = cm_history_save (history, result, &error);
      g_assert_no_error (error);
    }
  g_assert_true (g_file_replace_contents (damaged, "{ not json", 10, NULL, FALSE,
                                          G_FILE_CREATE_NONE, NULL, NULL, &error));

  results = cm_history_load (history, &problems, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, G_N_ELEMENTS (names));
  from_documents = cm_batch_report_build (results);
  csv_documents = cm_batch_report_dup_csv (from_documents);

  index = open_refreshed (folder);
  from_index = cm_history_index_build_batch_report (index);
  csv_index = cm_batch_report_dup_csv (from_index);
  g_assert_cmpuint (from_index->len, ==, 2);
  g_assert_cmpstr (csv_index, ==, csv_documents);

  cm_history_index_foreach (index, TRUE, TRUE, collect_name_cb, walked);
  g_assert_cmpuint (walked->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (walked, 0), " damaged"));
  g_ptr_array_set_size (walked, 0);
  cm_history_index_foreach (index, FALSE, TRUE, collect_name_cb, walked);
  g_assert_cmpuint (walked->len, ==, G_N_ELEMENTS (names));
  /* Oldest first. */
  for (guint i = 1; i < walked->len; i++)
    g_assert_cmpint (strncmp (g_ptr_array_index (walked, i - 1), g_ptr_array_index (walked, i), 12), <=, 0);
  for (guint i = 0; i < results->len; i++)
    {
      const char *name = cm_result_get_name (g_ptr_array_index (results, i));
      gboolean found = FALSE;

      for (guint j = 0; j < walked->len && !found; j++)
        found = g_str_has_suffix (g_ptr_array_index (walked, j), name);
      g_assert_true (found);
    }
}

/* A history of @n documents a second apart, written with no index:
 * straight into the folder, as many saves would take long. */
static GFile *
make_history (guint n)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-index-XXXXXX", &error);
  GFile *folder = g_file_new_for_path (dir);
  g_autoptr(GDateTime) start = g_date_time_new_utc (2026, 12, 2, 8, 0, 0);

  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmResult) result = cm_result_new ();
      g_autoptr(GDateTime) when = g_date_time_add_seconds (start, i);
      g_autofree char *name = g_strdup_printf ("card %u", i);
      g_autofree char *file_name = g_strdup_printf ("%06u.json", i);
      g_autoptr(GFile) file = g_file_get_child (folder, file_name);

      cm_result_set_started (result, when);
      cm_result_set_name (result, name);
      cm_result_set_target (result, "/media/card", "file", NULL, NULL);
      g_assert_true (cm_result_save_compact (result, file, &error));
      g_assert_no_error (error);
    }
  return folder;
}

/* The folder make_history() wrote, with its documents and index. */
static void
remove_history (GFile *folder)
{
  g_autofree char *path = g_file_get_path (folder);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_unlink (child);
    }
  g_rmdir (path);
}

typedef struct
{
  GArray *done;      /* each call's figures */
  guint   total;
  guint   stop_after; /* stop once this many are done; 0 never */
} Progress;

static gboolean
record_progress_cb (guint done, guint total, gpointer user_data)
{
  Progress *progress = user_data;

  g_array_append_val (progress->done, done);
  progress->total = total;
  return progress->stop_after == 0 || done < progress->stop_after;
}

/* The build is a transaction a batch: stopped after the first, it keeps
 * that batch, and the next refresh reads only the rest, telling so. */
static void
test_batches (void)
{
  guint n = 2 * CM_HISTORY_INDEX_BATCH_SIZE + 10;
  g_autoptr(GFile) folder = make_history (n);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) first = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) second = g_array_new (FALSE, FALSE, sizeof (guint));
  Progress stopped = { first, 0, 1 };
  Progress resumed = { second, 0, 0 };

  {
    g_autoptr(CmHistoryIndex) index = cm_history_index_open (folder, &error);

    g_assert_no_error (error);
    cm_history_index_set_progress_func (index, record_progress_cb, &stopped);
    g_assert_false (cm_history_index_refresh (index, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    g_assert_cmpuint (stopped.total, ==, n);
    g_assert_cmpuint (first->len, ==, 2);
    g_assert_cmpuint (g_array_index (first, guint, 0), ==, 0);
    g_assert_cmpuint (g_array_index (first, guint, 1), ==, CM_HISTORY_INDEX_BATCH_SIZE);
  }
  {
    g_autoptr(CmHistoryIndex) index = cm_history_index_open (folder, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (cm_history_index_count (index), ==, CM_HISTORY_INDEX_BATCH_SIZE);
    cm_history_index_set_progress_func (index, record_progress_cb, &resumed);
    g_assert_true (cm_history_index_refresh (index, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (resumed.total, ==, n - CM_HISTORY_INDEX_BATCH_SIZE);
    g_assert_cmpuint (second->len, ==, 3);
    g_assert_cmpuint (g_array_index (second, guint, 1), ==, CM_HISTORY_INDEX_BATCH_SIZE);
    g_assert_cmpuint (g_array_index (second, guint, 2), ==, n - CM_HISTORY_INDEX_BATCH_SIZE);
    g_assert_cmpuint (cm_history_index_count (index), ==, n);

    /* Up to date: nothing to tell. */
    g_array_set_size (second, 0);
    g_assert_true (cm_history_index_refresh (index, &error));
    g_assert_cmpuint (second->len, ==, 0);
  }
  remove_history (folder);
}

typedef struct
{
  guint   seen;
  gint64  last;
  gboolean in_order;
} Walk;

static gboolean
walk_cb (CmHistoryEntry *entry, gpointer user_data)
{
  Walk *walk = user_data;

  walk->in_order = walk->in_order && (walk->seen == 0 || entry->started < walk->last);
  walk->last = entry->started;
  walk->seen++;
  return TRUE;
}

/* A list is read a page at a time: every entry once, in order, however
 * many pages it spans. */
static void
test_foreach_pages (void)
{
  guint n = 2 * CM_HISTORY_INDEX_BATCH_SIZE + 10;
  g_autoptr(GFile) folder = make_history (n);
  g_autoptr(CmHistoryIndex) index = open_refreshed (folder);
  Walk walk = { 0, 0, TRUE };

  cm_history_index_foreach (index, FALSE, FALSE, walk_cb, &walk);
  g_assert_cmpuint (walk.seen, ==, n);
  g_assert_true (walk.in_order);
  g_clear_pointer (&index, cm_history_index_free);
  remove_history (folder);
}

/* Noise in the middle of the index, found when it is opened: it is
 * built again from the documents, every one of them. */
static void
test_heals (void)
{
  guint n = CM_HISTORY_INDEX_BATCH_SIZE;
  g_autoptr(GFile) folder = make_history (n);
  g_autofree char *db_path = NULL;
  g_autoptr(GError) error = NULL;
  char noise[4096];
  FILE *file;

  {
    g_autoptr(CmHistoryIndex) index = open_refreshed (folder);

    db_path = g_strdup (cm_history_index_get_path (index));
  }
  for (guint i = 0; i < sizeof noise; i++)
    noise[i] = (char) g_random_int ();
  file = fopen (db_path, "r+b");
  g_assert_nonnull (file);
  g_assert_cmpint (fseek (file, 8192, SEEK_SET), ==, 0);
  g_assert_cmpuint (fwrite (noise, 1, sizeof noise, file), ==, sizeof noise);
  fclose (file);
  {
    g_autoptr(CmHistoryIndex) index = open_refreshed (folder);

    g_assert_cmpuint (cm_history_index_count (index), ==, n);
  }
  remove_history (folder);
}

static void
copy_into (GFile *folder, const char *path, const char *name)
{
  g_autoptr(GFile) from = g_file_new_for_path (path);
  g_autoptr(GFile) to = g_file_get_child (folder, name);
  g_autoptr(GError) error = NULL;

  g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
}

static gboolean
compare_with_document_cb (CmHistoryEntry *entry, gpointer user_data)
{
  g_autoptr(GFile) file = g_file_new_for_path (entry->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_file (file, &error);
  g_autoptr(CmHistoryEntry) whole = NULL;
  guint *seen = user_data;

  g_assert_no_error (error);
  whole = cm_history_entry_new_for_result (result);
  g_assert_cmpstr (entry->kind, ==, whole->kind);
  g_assert_cmpstr (entry->name, ==, whole->name);
  g_assert_cmpstr (entry->title, ==, whole->title);
  g_assert_cmpstr (entry->run, ==, whole->run);
  g_assert_cmpstr (entry->verdict, ==, whole->verdict);
  g_assert_cmpstr (entry->badge, ==, whole->badge);
  g_assert_cmpstr (entry->answer, ==, whole->answer);
  g_assert_cmpstr (entry->figures_text, ==, whole->figures_text);
  g_assert_cmpint (entry->outcome, ==, whole->outcome);
  for (guint i = 0; i < G_N_ELEMENTS (entry->figures); i++)
    g_assert_cmpfloat (entry->figures[i], ==, whole->figures[i]);
  (*seen)++;
  return TRUE;
}

/* The index reads a document without its series (samples, latency
 * scatter): what it keeps is what the whole document gives, for every
 * kind, and a name that looks like a series' key is only a name. */
static void
test_reads_what_lists_show (void)
{
  const char *names[] = { "fake-bench.json", "fake-capacity.json", "fake-verify.json",
                          "good-bench.json", "good-capacity.json", "good-wear.json" };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-index-XXXXXX", &error);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autofree char *small = g_test_build_filename (G_TEST_DIST, "data", "result-small.json", NULL);
  g_autoptr(GFile) small_file = g_file_new_for_path (small);
  g_autoptr(CmResult) tricky = cm_result_new_from_file (small_file, &error);
  g_autoptr(GFile) tricky_file = g_file_get_child (folder, "tricky.json");
  g_autoptr(CmHistoryIndex) index = NULL;
  guint seen = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "batch", names[i], NULL);

      copy_into (folder, path, names[i]);
    }
  copy_into (folder, small, "small.json");
  cm_result_set_name (tricky, "\"samples\": [ \"latency_scatter\":[");
  g_assert_true (cm_result_save_compact (tricky, tricky_file, &error));
  g_assert_no_error (error);

  index = open_refreshed (folder);
  cm_history_index_foreach (index, FALSE, TRUE, compare_with_document_cb, &seen);
  g_assert_cmpuint (seen, ==, G_N_ELEMENTS (names) + 2);
  g_clear_pointer (&index, cm_history_index_free);
  remove_history (folder);
}

/* How many documents a refresh in the language @language reads. */
static guint
refresh_in (GFile *folder, const char *language)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) done = g_array_new (FALSE, FALSE, sizeof (guint));
  Progress progress = { done, 0, 0 };
  g_autoptr(CmHistoryIndex) index = NULL;

  g_setenv ("LANGUAGE", language, TRUE);
  index = cm_history_index_open (folder, &error);
  g_assert_no_error (error);
  cm_history_index_set_progress_func (index, record_progress_cb, &progress);
  g_assert_true (cm_history_index_refresh (index, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cm_history_index_count (index), ==, 3);
  return progress.total;
}

/* One index serves every language: a language's words are made once,
 * a language seen before reads no document again, and the index files
 * of earlier versions, one a language, are deleted. */
static void
test_one_index_for_every_language (void)
{
  g_autoptr(GFile) folder = make_history (3);
  g_autoptr(GFile) old = g_file_get_child (folder, ".index-C_UTF-8.sqlite");
  g_autofree char *language = g_strdup (g_getenv ("LANGUAGE"));
  g_autoptr(GError) error = NULL;
  guint files = 0;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_file_replace_contents (old, "x", 1, NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (refresh_in (folder, "es"), ==, 3);
  g_assert_false (g_file_query_exists (old, NULL));
  g_assert_cmpuint (refresh_in (folder, "ja"), ==, 3);
  g_assert_cmpuint (refresh_in (folder, "es"), ==, 0);
  g_assert_cmpuint (refresh_in (folder, "ja"), ==, 0);

  {
    g_autofree char *path = g_file_get_path (folder);

    dir = g_dir_open (path, 0, &error);
    g_assert_no_error (error);
    while ((name = g_dir_read_name (dir)) != NULL)
      files += g_str_has_prefix (name, ".index") && g_str_has_suffix (name, ".sqlite");
    g_assert_cmpuint (files, ==, 1);
  }
  if (language != NULL)
    g_setenv ("LANGUAGE", language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  remove_history (folder);
}

static CmCardInfo *
card_from_json (const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  CmCardInfo *card = cm_card_info_new_from_json (node, &error);

  g_assert_no_error (error);
  return card;
}

/* The one rule (cm-card-same.h): the CID where both tell it — a serial
 * with another name is another card — else the same device seen with
 * the same disk sequence number, else not the same. */
static void
test_same_card_rule (void)
{
  g_autoptr(CmResult) was = cm_result_new ();
  g_autoptr(CmCardInfo) cid = card_from_json ("{\"registers_available\": true, \"serial\": \"0x00001234\", "
                                              "\"product_name\": \"SD32G\", \"manufacture_date\": \"2024-03\"}");
  g_autoptr(CmCardInfo) same = card_from_json ("{\"registers_available\": true, \"serial\": \"0x00001234\", "
                                               "\"product_name\": \"SD32G\", \"manufacture_date\": \"2024-03\"}");
  g_autoptr(CmCardInfo) clone = card_from_json ("{\"registers_available\": true, \"serial\": \"0x00001234\", "
                                                "\"product_name\": \"XY64G\", \"manufacture_date\": \"2024-03\"}");

  cm_result_set_target (was, "/dev/sdx", "raw-write", "/dev/sdx", NULL);
  cm_result_set_card (was, cid);
  g_assert_cmpint (cm_card_same (was, same, "/dev/sdy"), ==, CM_CARD_PROOF_CID);
  g_assert_cmpint (cm_card_same (was, clone, "/dev/sdx"), ==, CM_CARD_PROOF_NONE);

  /* No CID now: only the reader can tell, and only while the card never
   * left it. */
  cm_result_set_sighting (was, "test-boot/5");
  g_assert_cmpint (cm_card_same (was, NULL, "/dev/sdx"), ==, CM_CARD_PROOF_NONE);
  cm_card_set_sighting_for_testing ("/dev/sdx", "test-boot/5");
  g_assert_cmpint (cm_card_same (was, NULL, "/dev/sdx"), ==, CM_CARD_PROOF_READER);
  g_assert_cmpint (cm_card_same (was, NULL, "/dev/sdy"), ==, CM_CARD_PROOF_NONE);
  cm_card_set_sighting_for_testing ("/dev/sdx", "test-boot/6");
  g_assert_cmpint (cm_card_same (was, NULL, "/dev/sdx"), ==, CM_CARD_PROOF_NONE);
  cm_result_set_sighting (was, NULL);
  cm_card_set_sighting_for_testing ("/dev/sdx", NULL);
  g_assert_cmpint (cm_card_same (was, NULL, "/dev/sdx"), ==, CM_CARD_PROOF_NONE);
  cm_card_set_sighting_for_testing (NULL, NULL);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cardmark/history-index/index", test_index);
  g_test_add_func ("/cardmark/history-index/tested-before", test_tested_before);
  g_test_add_func ("/cardmark/history-index/batch-from-index", test_batch_from_index);
  g_test_add_func ("/cardmark/history-index/last-by-device-size", test_last_by_device_size);
  g_test_add_func ("/cardmark/history-index/is-of-card", test_is_of_card);
  g_test_add_func ("/cardmark/history-index/batches", test_batches);
  g_test_add_func ("/cardmark/history-index/foreach-pages", test_foreach_pages);
  g_test_add_func ("/cardmark/history-index/heals", test_heals);
  g_test_add_func ("/cardmark/history-index/reads-what-lists-show", test_reads_what_lists_show);
  g_test_add_func ("/cardmark/history-index/one-index-for-every-language", test_one_index_for_every_language);
  g_test_add_func ("/cardmark/history-index/same-card-rule", test_same_card_rule);
  return g_test_run ();
}
