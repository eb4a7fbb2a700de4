/* cm-history-index.c: an SQLite index of what lists show of the history
 * documents, kept beside them and brought up to date from them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "cm-history-index.h"
#include "cm-batch-report.h"
#include "cm-card-info.h"
#include "cm-result.h"
#include "cm-job.h"
#include "cm-outcome.h"
#include "cm-summary.h"

/* The index keeps the words lists show (the card's title, the run, the
 * verdict) in the language they were written in: one index a language,
 * ".index-ja.sqlite", so a table read in Japanese is never in Spanish. */
static char *
dup_index_name (void)
{
  g_autofree char *language = g_strdup (g_get_language_names ()[0]);

  g_strcanon (language, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-@", '_');
  return g_strdup_printf (".index-%s.sqlite", language);
}

struct _CmHistoryIndex
{
  GFile   *folder;
  char    *db_path;
  sqlite3 *db;
};

static const char schema[] =
  "CREATE TABLE IF NOT EXISTS docs ("
  " path TEXT PRIMARY KEY, mtime INTEGER, bytes INTEGER, damaged INTEGER,"
  " kind TEXT, serial TEXT, name TEXT, brand TEXT, size INTEGER, started INTEGER,"
  " title TEXT, run TEXT, verdict TEXT, write REAL, read REAL, rand_write REAL, rand_read REAL,"
  " problem TEXT,"
  /* What the batch report (history --csv) takes: cm_batch_facts_new_for_result(). */
  " card_key TEXT, card_label TEXT, report_size INTEGER, answer TEXT, status INTEGER,"
  " capacity_real INTEGER, usable INTEGER, lost INTEGER,"
  /* The start to the microsecond, for the order: a batch's checks of
   * two cards start in the same second. */
  " started_us INTEGER,"
  /* What History's rows show: the outcome's badge in the kind's words,
   * a benchmark's method, the figures line (cm_history_entry_new_for_result()). */
  " outcome INTEGER, badge TEXT, method TEXT, figures_text TEXT);"
  "CREATE INDEX IF NOT EXISTS docs_started ON docs (started DESC);"
  /* The order lists read, so no list sorts 100 000 rows. */
  "CREATE INDEX IF NOT EXISTS docs_list ON docs (damaged, started_us, path);"
  "CREATE INDEX IF NOT EXISTS docs_serial ON docs (serial, started DESC);";

void
cm_history_entry_free (CmHistoryEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->path);
  g_free (entry->kind);
  g_free (entry->serial);
  g_free (entry->name);
  g_free (entry->brand);
  g_free (entry->title);
  g_free (entry->run);
  g_free (entry->verdict);
  g_free (entry->problem);
  g_free (entry->machine);
  g_free (entry->answer);
  g_free (entry->badge);
  g_free (entry->method);
  g_free (entry->figures_text);
  g_free (entry);
}

/**
 * cm_history_entry_is_of_card:
 * @serial: (nullable): the card's CID serial, %NULL or "" when its
 *   registers tell none (a loop device, a card behind a USB reader)
 * @size_bytes: the card's size: its block device's
 *
 * Whether @entry's document is of that card: the same CID serial where
 * both tell one, else the same size (a card without registers is told
 * by its size, which every document records). A document that knows
 * neither is of no card: what starts again from it may write over
 * whichever card is in the reader.
 */
gboolean
cm_history_entry_is_of_card (const CmHistoryEntry *entry,
                             const char           *serial,
                             guint64               size_bytes)
{
  g_return_val_if_fail (entry != NULL, FALSE);

  if (entry->serial != NULL && *entry->serial != '\0' && serial != NULL && *serial != '\0')
    return g_str_equal (entry->serial, serial);
  return entry->size_bytes != 0 && entry->size_bytes == size_bytes;
}

static gboolean
set_error (CmHistoryIndex *self, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s",
               self->db_path, sqlite3_errmsg (self->db));
  return FALSE;
}

/* Bumped when the columns change: an index of another version is rebuilt. */
#define SCHEMA_VERSION 5

static int
schema_version (CmHistoryIndex *self)
{
  sqlite3_stmt *stmt = NULL;
  int version = -1;

  if (sqlite3_prepare_v2 (self->db, "PRAGMA user_version", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  return version;
}

static gboolean
open_db (CmHistoryIndex *self, GError **error)
{
  int version;

  if (sqlite3_open (self->db_path, &self->db) != SQLITE_OK)
    return set_error (self, error);
  /* Another thread (the app's look-ups) or process (the CLI) may be
   * bringing the index up to date: wait for it rather than fail. */
  sqlite3_busy_timeout (self->db, 30000);
  version = schema_version (self);
  if (version != 0 && version != SCHEMA_VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: version %d", self->db_path, version);
      return FALSE;
    }
  if (version == 0 &&
      sqlite3_exec (self->db, "PRAGMA user_version = " G_STRINGIFY (SCHEMA_VERSION), NULL, NULL, NULL) != SQLITE_OK)
    return set_error (self, error);
  return sqlite3_exec (self->db, schema, NULL, NULL, NULL) == SQLITE_OK ||
         set_error (self, error);
}

CmHistoryIndex *
cm_history_index_open (GFile *folder, GError **error)
{
  g_autoptr(CmHistoryIndex) self = g_new0 (CmHistoryIndex, 1);
  g_autofree char *dir = g_file_get_path (folder);
  g_autofree char *name = dup_index_name ();

  self->folder = g_object_ref (folder);
  self->db_path = g_build_filename (dir, name, NULL);
  if (!open_db (self, NULL))
    {
      /* A damaged index is rebuilt from the documents. */
      g_clear_pointer (&self->db, sqlite3_close);
      g_unlink (self->db_path);
      if (!open_db (self, error))
        return NULL;
    }
  return g_steal_pointer (&self);
}

/* Whether the folder has an index beside its documents. */
gboolean
cm_history_index_exists (GFile *folder)
{
  g_autofree char *name = dup_index_name ();
  g_autoptr(GFile) file = g_file_get_child (folder, name);

  return g_file_query_exists (file, NULL);
}

/* The index's file, in the history folder. */
const char *
cm_history_index_get_path (CmHistoryIndex *self)
{
  return self->db_path;
}

void
cm_history_index_free (CmHistoryIndex *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->db, sqlite3_close);
  g_clear_object (&self->folder);
  g_free (self->db_path);
  g_free (self);
}

typedef struct { gint64 mtime; gint64 bytes; } Stamp;

static GHashTable *
known_stamps (CmHistoryIndex *self)
{
  GHashTable *known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sqlite3_stmt *stmt = NULL;

  sqlite3_prepare_v2 (self->db, "SELECT path, mtime, bytes FROM docs", -1, &stmt, NULL);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      Stamp *stamp = g_new (Stamp, 1);
      stamp->mtime = sqlite3_column_int64 (stmt, 1);
      stamp->bytes = sqlite3_column_int64 (stmt, 2);
      g_hash_table_insert (known, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), stamp);
    }
  sqlite3_finalize (stmt);
  return known;
}

static double
figure (CmResult *result, const char *test_name, gboolean iops)
{
  CmTestResult *test = cm_result_lookup_test (result, test_name);

  if (test == NULL || test->error != NULL)
    return -1;
  return iops ? test->iops : test->mb_per_s;
}

/**
 * cm_history_entry_new_for_result:
 *
 * What the CLI's table and the app's History show of a result: its card,
 * its run, its verdict and its key figures. The index keeps these, and so
 * does the shared store (cm-store.c).
 */
CmHistoryEntry *
cm_history_entry_new_for_result (CmResult *result)
{
  CmHistoryEntry *entry = g_new0 (CmHistoryEntry, 1);
  gboolean bench = cm_job_kind_measures_speed (cm_result_get_kind (result));
  gboolean verify = cm_result_get_verify (result) != NULL;
  CmCardInfo *card = cm_result_get_card (result);
  GDateTime *started = cm_result_get_started (result);
  g_autoptr(CmOutcome) outcome = NULL;
  CmStatus status;

  entry->kind = g_strdup (cm_result_get_kind (result));
  entry->name = g_strdup (cm_result_get_name (result));
  entry->started = started != NULL ? g_date_time_to_unix (started) : 0;
  if (card != NULL)
    {
      entry->serial = g_strdup (cm_card_info_get_serial (card));
      entry->brand = g_strdup (cm_card_info_get_brand (card));
      entry->size_bytes = cm_card_info_get_capacity_bytes (card);
    }
  /* A card whose registers can't be read (behind a USB reader, a loop
   * device) is still as big as its block device, which every job
   * records: without it such a card could not be told from another one
   * in the same reader. */
  if (entry->size_bytes == 0)
    entry->size_bytes = cm_result_get_device_bytes (result);
  entry->verdict = bench ? g_strdup (cm_result_get_summary (result)) : cm_summary_dup_answer (result, &status);
  g_free (cm_summary_dup_answer (result, &status));
  entry->tone = status;
  entry->title = cm_summary_dup_card_title (result);
  /* A benchmark by its profile, every other job by its kind. */
  entry->run = g_strdup (bench ? cm_result_get_profile (result)
                               : cm_job_kind_get_title (cm_result_get_kind (result)));
  /* A full verify has no sequential tests: its write and read-back
   * rates stand in for them. */
  entry->figures[0] = figure (result, verify ? CM_TEST_VERIFY_WRITE : CM_TEST_SEQ_WRITE, FALSE);
  entry->figures[1] = figure (result, verify ? CM_TEST_VERIFY_READ : CM_TEST_SEQ_READ, FALSE);
  entry->figures[2] = figure (result, CM_TEST_RAND_WRITE_4K, TRUE);
  entry->figures[3] = figure (result, CM_TEST_RAND_READ_4K, TRUE);

  outcome = cm_result_dup_outcome (result);
  entry->outcome = outcome->status;
  entry->badge = g_strdup (outcome->badge);
  entry->answer = cm_summary_dup_answer (result, &status);
  /* A benchmark's method changes what it can judge: History says it. */
  entry->method = bench ? g_strdup (cm_summary_method_label (cm_result_get_target_mode (result))) : NULL;
  entry->figures_text = cm_summary_dup_list_figures (result);
  return entry;
}

static void
bind_row (sqlite3_stmt *insert, CmResult *result)
{
  g_autoptr(CmHistoryEntry) entry = cm_history_entry_new_for_result (result);
  g_autoptr(CmBatchFacts) facts = NULL;

  sqlite3_bind_text (insert, 5, entry->kind, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 6, entry->serial, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 7, entry->name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 8, entry->brand, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (insert, 9, (sqlite3_int64) entry->size_bytes);
  sqlite3_bind_int64 (insert, 10, entry->started);
  sqlite3_bind_text (insert, 11, entry->title, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 12, entry->run, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 13, entry->verdict, -1, SQLITE_TRANSIENT);
  for (guint i = 0; i < G_N_ELEMENTS (entry->figures); i++)
    sqlite3_bind_double (insert, 14 + i, entry->figures[i]);

  facts = cm_batch_facts_new_for_result (result);
  sqlite3_bind_text (insert, 19, facts->key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 20, facts->card, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (insert, 21, (sqlite3_int64) facts->size_bytes);
  sqlite3_bind_text (insert, 22, facts->answer, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int (insert, 23, facts->status);
  sqlite3_bind_int64 (insert, 24, facts->capacity_real_bytes);
  sqlite3_bind_int64 (insert, 25, facts->usable_bytes);
  sqlite3_bind_int64 (insert, 26, facts->lost_bytes);
  sqlite3_bind_int64 (insert, 27, facts->started);

  sqlite3_bind_int (insert, 28, entry->outcome);
  sqlite3_bind_text (insert, 29, entry->badge, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 30, entry->method, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 31, entry->figures_text, -1, SQLITE_TRANSIENT);
}

static void
index_document (CmHistoryIndex *self, sqlite3_stmt *insert, gboolean regular,
                const char *path, const Stamp *stamp)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = NULL;

  /* A FIFO named like a result would block the reader: named, not read. */
  if (!regular)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("it is not a regular file."));
  else
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);

      result = cm_result_new_from_file (file, &error);
    }

  sqlite3_reset (insert);
  sqlite3_clear_bindings (insert);
  sqlite3_bind_text (insert, 1, path, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (insert, 2, stamp->mtime);
  sqlite3_bind_int64 (insert, 3, stamp->bytes);
  sqlite3_bind_int (insert, 4, result == NULL);
  if (result != NULL)
    bind_row (insert, result);
  else
    sqlite3_bind_text (insert, 18, error != NULL ? error->message : "", -1, SQLITE_TRANSIENT);
  sqlite3_step (insert);
}

static void
forget_document (CmHistoryIndex *self, const char *path)
{
  sqlite3_stmt *stmt = NULL;

  sqlite3_prepare_v2 (self->db, "DELETE FROM docs WHERE path = ?", -1, &stmt, NULL);
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  sqlite3_step (stmt);
  sqlite3_finalize (stmt);
}

/* Brings the index up to date: documents added, changed (other mtime or
 * size) or removed since it was last refreshed. The folder is read with
 * readdir() and fstatat(): GIO's enumerator, a GFileInfo and a GFile a
 * document, took a quarter of listing 100 000 of them. */
gboolean
cm_history_index_refresh (CmHistoryIndex *self, GError **error)
{
  g_autoptr(GHashTable) known = known_stamps (self);
  g_autofree char *dir_path = g_file_get_path (self->folder);
  g_autoptr(GString) file_path = g_string_new (dir_path);
  gsize dir_length;
  sqlite3_stmt *insert = NULL;
  GHashTableIter iter;
  const char *path;
  struct dirent *dirent;
  DIR *dir;

  if (dir_path == NULL || (dir = opendir (dir_path)) == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", dir_path != NULL ? dir_path : "?", g_strerror (saved_errno));
      return FALSE;
    }
  g_string_append_c (file_path, G_DIR_SEPARATOR);
  dir_length = file_path->len;
  if (sqlite3_exec (self->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->db,
                          "INSERT OR REPLACE INTO docs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                          -1, &insert, NULL) != SQLITE_OK)
    {
      closedir (dir);
      return set_error (self, error);
    }

  for (errno = 0; (dirent = readdir (dir)) != NULL; errno = 0)
    {
      struct stat st;
      Stamp stamp, *seen;

      if (!g_str_has_suffix (dirent->d_name, ".json"))
        continue;
      /* Gone since it was listed: forgotten below, as if never seen. */
      if (fstatat (dirfd (dir), dirent->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        continue;

      g_string_truncate (file_path, dir_length);
      g_string_append (file_path, dirent->d_name);
      stamp.mtime = (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
      stamp.bytes = st.st_size;
      seen = g_hash_table_lookup (known, file_path->str);
      if (seen == NULL || seen->mtime != stamp.mtime || seen->bytes != stamp.bytes)
        index_document (self, insert, S_ISREG (st.st_mode), file_path->str, &stamp);
      g_hash_table_remove (known, file_path->str);
    }
  if (errno != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", dir_path, g_strerror (saved_errno));
      closedir (dir);
      sqlite3_finalize (insert);
      sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  closedir (dir);
  sqlite3_finalize (insert);

  g_hash_table_iter_init (&iter, known);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    forget_document (self, path);

  return sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ||
         set_error (self, error);
}

guint
cm_history_index_count (CmHistoryIndex *self)
{
  sqlite3_stmt *stmt = NULL;
  guint count = 0;

  sqlite3_prepare_v2 (self->db, "SELECT count(*) FROM docs", -1, &stmt, NULL);
  if (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    count = (guint) sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return count;
}

static char *
column_dup (sqlite3_stmt *stmt, int column)
{
  return g_strdup ((const char *) sqlite3_column_text (stmt, column));
}

static CmHistoryEntry *
entry_from_row (sqlite3_stmt *stmt)
{
  CmHistoryEntry *entry = g_new0 (CmHistoryEntry, 1);

  entry->path = column_dup (stmt, 0);
  entry->damaged = sqlite3_column_int (stmt, 3) != 0;
  entry->kind = column_dup (stmt, 4);
  entry->serial = column_dup (stmt, 5);
  entry->name = column_dup (stmt, 6);
  entry->brand = column_dup (stmt, 7);
  entry->size_bytes = (guint64) sqlite3_column_int64 (stmt, 8);
  entry->started = sqlite3_column_int64 (stmt, 9);
  entry->title = column_dup (stmt, 10);
  entry->run = column_dup (stmt, 11);
  entry->verdict = column_dup (stmt, 12);
  for (guint i = 0; i < G_N_ELEMENTS (entry->figures); i++)
    entry->figures[i] = sqlite3_column_type (stmt, 13 + i) == SQLITE_NULL ? -1 : sqlite3_column_double (stmt, 13 + i);
  entry->problem = column_dup (stmt, 17);
  entry->tone = sqlite3_column_type (stmt, 22) == SQLITE_NULL ? CM_STATUS_NOT_JUDGED : sqlite3_column_int (stmt, 22);
  entry->tone = CLAMP (entry->tone, CM_STATUS_MEETS, CM_STATUS_NOT_JUDGED);
  entry->answer = column_dup (stmt, 21);
  entry->outcome = sqlite3_column_type (stmt, 27) == SQLITE_NULL ? CM_OUTCOME_NOT_JUDGED
                                                                 : CLAMP (sqlite3_column_int (stmt, 27), CM_OUTCOME_PASS,
                                                                          CM_OUTCOME_STOPPED);
  entry->badge = column_dup (stmt, 28);
  entry->method = column_dup (stmt, 29);
  entry->figures_text = column_dup (stmt, 30);
  return entry;
}

/**
 * cm_history_index_foreach:
 * @damaged: %TRUE for the documents that could not be read, %FALSE for
 *   the others
 * @oldest_first: the order
 * @func: called with each entry, which it borrows; returns %FALSE to stop
 *
 * Every entry, one at a time, never all of them in memory.
 */
void
cm_history_index_foreach (CmHistoryIndex     *self,
                          gboolean            damaged,
                          gboolean            oldest_first,
                          CmHistoryIndexFunc  func,
                          gpointer            user_data)
{
  sqlite3_stmt *stmt = NULL;

  sqlite3_prepare_v2 (self->db,
                      oldest_first ? "SELECT * FROM docs WHERE damaged = ? ORDER BY damaged, started_us, path"
                                   : "SELECT * FROM docs WHERE damaged = ? ORDER BY damaged DESC, started_us DESC, path DESC",
                      -1, &stmt, NULL);
  sqlite3_bind_int (stmt, 1, damaged != FALSE);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_autoptr(CmHistoryEntry) entry = entry_from_row (stmt);

      if (!func (entry, user_data))
        break;
    }
  sqlite3_finalize (stmt);
}

/**
 * cm_history_index_build_batch_report:
 *
 * Returns: (transfer full) (element-type CmBatchRow): the batch report of
 *   every readable document, oldest first, from the index's columns
 */
GPtrArray *
cm_history_index_build_batch_report (CmHistoryIndex *self)
{
  g_autoptr(CmBatchReport) report = cm_batch_report_new ();
  sqlite3_stmt *stmt = NULL;

  sqlite3_prepare_v2 (self->db,
                      "SELECT card_key, card_label, kind, started_us, report_size, answer, status,"
                      " capacity_real, usable, lost FROM docs WHERE damaged = 0"
                      " ORDER BY damaged, started_us, path", -1, &stmt, NULL);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      CmBatchFacts *facts = g_new0 (CmBatchFacts, 1);

      facts->key = column_dup (stmt, 0);
      facts->card = column_dup (stmt, 1);
      facts->kind = column_dup (stmt, 2);
      facts->started = sqlite3_column_int64 (stmt, 3);
      facts->size_bytes = (guint64) sqlite3_column_int64 (stmt, 4);
      facts->answer = column_dup (stmt, 5);
      facts->status = CLAMP (sqlite3_column_int (stmt, 6), CM_STATUS_MEETS, CM_STATUS_NOT_JUDGED);
      facts->capacity_real_bytes = sqlite3_column_int64 (stmt, 7);
      facts->usable_bytes = sqlite3_column_int64 (stmt, 8);
      facts->lost_bytes = sqlite3_column_int64 (stmt, 9);
      if (facts->key == NULL)
        facts->key = g_strdup ("");
      cm_batch_report_add (report, facts);
    }
  sqlite3_finalize (stmt);
  return cm_batch_report_get_rows (report);
}

/* Entries newest first; damaged documents last. */
GPtrArray *
cm_history_index_query (CmHistoryIndex *self, guint offset, guint limit)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_history_entry_free);
  sqlite3_stmt *stmt = NULL;

  sqlite3_prepare_v2 (self->db,
                      "SELECT * FROM docs ORDER BY damaged, started DESC, path DESC"
                      " LIMIT ? OFFSET ?", -1, &stmt, NULL);
  sqlite3_bind_int64 (stmt, 1, limit);
  sqlite3_bind_int64 (stmt, 2, offset);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (entries, entry_from_row (stmt));
  sqlite3_finalize (stmt);
  return entries;
}

/**
 * cm_history_index_query_kinds:
 * @serial: (nullable): a card's CID serial; %NULL for any card
 * @kinds: (nullable): the documents' kinds, %NULL-terminated; %NULL for
 *   every kind
 * @limit: at most this many
 *
 * The newest readable documents of @kinds (of the card with @serial),
 * newest first.
 */
GPtrArray *
cm_history_index_query_kinds (CmHistoryIndex     *self,
                              const char         *serial,
                              const char * const *kinds,
                              guint               limit)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_history_entry_free);
  g_autoptr(GString) sql = g_string_new ("SELECT * FROM docs WHERE damaged = 0");
  sqlite3_stmt *stmt = NULL;
  guint n = kinds != NULL ? g_strv_length ((char **) kinds) : 0;
  int column = 1;

  g_return_val_if_fail (kinds == NULL || n > 0, entries);

  if (serial != NULL)
    g_string_append (sql, " AND serial = ?");
  for (guint i = 0; i < n; i++)
    g_string_append (sql, i == 0 ? " AND kind IN (?" : ", ?");
  g_string_append (sql, n > 0 ? ") ORDER BY started DESC, path DESC LIMIT ?" : " ORDER BY started DESC, path DESC LIMIT ?");
  sqlite3_prepare_v2 (self->db, sql->str, -1, &stmt, NULL);
  if (serial != NULL)
    sqlite3_bind_text (stmt, column++, serial, -1, SQLITE_STATIC);
  for (guint i = 0; i < n; i++)
    sqlite3_bind_text (stmt, column++, kinds[i], -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, column, limit);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (entries, entry_from_row (stmt));
  sqlite3_finalize (stmt);
  return entries;
}

/* The newest result for a card with this CID serial, or NULL. */
CmHistoryEntry *
cm_history_index_last_for_serial (CmHistoryIndex *self, const char *serial)
{
  CmHistoryEntry *entry = NULL;
  sqlite3_stmt *stmt = NULL;

  sqlite3_prepare_v2 (self->db,
                      "SELECT * FROM docs WHERE serial = ? AND damaged = 0"
                      " ORDER BY started DESC LIMIT 1", -1, &stmt, NULL);
  sqlite3_bind_text (stmt, 1, serial, -1, SQLITE_STATIC);
  if (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    entry = entry_from_row (stmt);
  sqlite3_finalize (stmt);
  return entry;
}

/* Every result for a card with this CID serial, newest first (at most
 * @limit): what "tested before" and the cloned-card check look at. */
GPtrArray *
cm_history_index_list_for_serial (CmHistoryIndex *self, const char *serial, guint limit)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_history_entry_free);
  sqlite3_stmt *stmt = NULL;

  sqlite3_prepare_v2 (self->db,
                      "SELECT * FROM docs WHERE serial = ? AND damaged = 0"
                      " ORDER BY started DESC LIMIT ?", -1, &stmt, NULL);
  sqlite3_bind_text (stmt, 1, serial, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, limit);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (entries, entry_from_row (stmt));
  sqlite3_finalize (stmt);
  return entries;
}
