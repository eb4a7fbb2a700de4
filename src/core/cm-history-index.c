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
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "cm-history-index.h"
#include "cm-batch-report.h"
#include "cm-card-info.h"
#include "cm-result.h"
#include "cm-job-kinds.h"
#include "cm-json.h"
#include "cm-outcome.h"
#include "cm-summary.h"

/* One index for every language, in the history folder. */
#define INDEX_NAME ".index.sqlite"

/* The language the words of a list are in: a key of the words table. */
static char *
dup_language (void)
{
  char *language = g_strdup (g_get_language_names ()[0]);

  return g_strcanon (language, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-@.", '_');
}

struct _CmHistoryIndex
{
  GFile   *folder;
  char    *db_path;
  char    *language;
  sqlite3 *db;
  CmHistoryIndexProgressFunc progress;
  gpointer progress_data;
  gboolean healed;  /* built again once already: not again */
};

/* The index keeps each document's facts once (docs), and the words its
 * lists show (the card's title, the run, the verdict, the badge) once a
 * language they were shown in (words): the same index serves a table in
 * Japanese and one in Spanish, and a language seen before is not read
 * again from the documents. A words row counts for the document as it
 * was (its mtime and size): a changed document is read again. */
static const char schema[] =
  "CREATE TABLE IF NOT EXISTS docs ("
  " path TEXT PRIMARY KEY, mtime INTEGER, bytes INTEGER, damaged INTEGER,"
  " kind TEXT, serial TEXT, name TEXT, brand TEXT, size INTEGER, started INTEGER,"
  " write REAL, read REAL, rand_write REAL, rand_read REAL,"
  /* What the batch report (history --csv) takes: cm_batch_facts_new_for_result(). */
  " card_key TEXT, report_size INTEGER, status INTEGER,"
  " capacity_real INTEGER, usable INTEGER, lost INTEGER,"
  /* The start to the microsecond, for the order: a batch's checks of
   * two cards start in the same second. 0 for a damaged document, so
   * that the lists page through every row by (started_us, path). */
  " started_us INTEGER NOT NULL DEFAULT 0,"
  " outcome INTEGER);"
  "CREATE TABLE IF NOT EXISTS words ("
  " path TEXT, language TEXT, mtime INTEGER, bytes INTEGER,"
  " title TEXT, run TEXT, verdict TEXT, problem TEXT, card_label TEXT, answer TEXT,"
  /* What History's rows show: the outcome's badge in the kind's words,
   * a benchmark's method, the figures line (cm_history_entry_new_for_result()). */
  " badge TEXT, method TEXT, figures_text TEXT,"
  " PRIMARY KEY (path, language));"
  "CREATE TRIGGER IF NOT EXISTS docs_gone AFTER DELETE ON docs"
  " BEGIN DELETE FROM words WHERE path = old.path; END;"
  "CREATE INDEX IF NOT EXISTS docs_started ON docs (started DESC);"
  /* The order lists read, so no list sorts 100 000 rows. */
  "CREATE INDEX IF NOT EXISTS docs_list ON docs (damaged, started_us, path);"
  "CREATE INDEX IF NOT EXISTS docs_serial ON docs (serial, started DESC);";

/* What the lists read: each document's facts and its words in this
 * connection's language, in the columns' order of earlier versions. */
static const char rows_view[] =
  "CREATE TEMP VIEW rows AS SELECT"
  " d.path, d.mtime, d.bytes, d.damaged, d.kind, d.serial, d.name, d.brand, d.size, d.started,"
  " w.title, w.run, w.verdict, d.write, d.read, d.rand_write, d.rand_read, w.problem,"
  " d.card_key, w.card_label, d.report_size, w.answer, d.status, d.capacity_real, d.usable, d.lost,"
  " d.started_us, d.outcome, w.badge, w.method, w.figures_text"
  " FROM docs d LEFT JOIN words w ON w.path = d.path AND w.language = %Q";

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

/* Whether SQLite found the file not to be a sound database: the index
 * is then a cache to throw away, never a reason to fail. */
static gboolean
is_damage (int code)
{
  code &= 0xff;
  return code == SQLITE_CORRUPT || code == SQLITE_NOTADB;
}

/* G_IO_ERROR_INVALID_DATA for a damaged index, G_IO_ERROR_BUSY when
 * another connection held it too long, else G_IO_ERROR_FAILED. */
static gboolean
set_error (CmHistoryIndex *self, GError **error)
{
  int code = sqlite3_errcode (self->db) & 0xff;

  g_set_error (error, G_IO_ERROR,
               is_damage (code) ? G_IO_ERROR_INVALID_DATA
               : code == SQLITE_BUSY || code == SQLITE_LOCKED ? G_IO_ERROR_BUSY
               : G_IO_ERROR_FAILED,
               "%s: %s", self->db_path, sqlite3_errmsg (self->db));
  return FALSE;
}

/* A statement on the index; none when it could not be opened again. */
static int
prepare (CmHistoryIndex *self, const char *sql, sqlite3_stmt **stmt)
{
  *stmt = NULL;
  if (self->db == NULL)
    return SQLITE_MISUSE;
  return sqlite3_prepare_v2 (self->db, sql, -1, stmt, NULL);
}

/* Bumped when the columns change: an index of another version is rebuilt. */
#define SCHEMA_VERSION 7

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

/* SQLite's quick check reads every page (half a second at 100 000
 * documents: not at each opening): it says whether an error other than
 * SQLITE_CORRUPT or SQLITE_NOTADB came from damage. */
static gboolean
check_sound (CmHistoryIndex *self, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  const char *answer;

  if (prepare (self, "PRAGMA quick_check(1)", &stmt) != SQLITE_OK ||
      sqlite3_step (stmt) != SQLITE_ROW)
    {
      set_error (self, error);
      sqlite3_finalize (stmt);
      return FALSE;
    }
  answer = (const char *) sqlite3_column_text (stmt, 0);
  if (g_strcmp0 (answer, "ok") != 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", self->db_path, answer);
  sqlite3_finalize (stmt);
  return error == NULL || *error == NULL;
}

static gboolean
create_rows_view (CmHistoryIndex *self)
{
  char *sql = sqlite3_mprintf (rows_view, self->language);
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

  sqlite3_free (sql);
  return rc == SQLITE_OK;
}

static gboolean
open_db (CmHistoryIndex *self, GError **error)
{
  int version;

  if (g_file_test (self->db_path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: a folder", self->db_path);
      return FALSE;
    }
  if (sqlite3_open (self->db_path, &self->db) != SQLITE_OK)
    return set_error (self, error);
  /* Two writers (a save and a list) wait for each other's batch; a
   * reader waits for no one and holds no one (write-ahead log). */
  sqlite3_busy_timeout (self->db, 30000);
  version = schema_version (self);
  if (version != 0 && version != SCHEMA_VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: version %d", self->db_path, version);
      return FALSE;
    }
  /* A cache needs no sync at each batch: a batch lost to a power cut
   * is read again from its documents. */
  if (sqlite3_exec (self->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec (self->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK)
    return set_error (self, error);
  if (version == 0 &&
      sqlite3_exec (self->db, "PRAGMA user_version = " G_STRINGIFY (SCHEMA_VERSION), NULL, NULL, NULL) != SQLITE_OK)
    return set_error (self, error);
  return (sqlite3_exec (self->db, schema, NULL, NULL, NULL) == SQLITE_OK &&
          create_rows_view (self)) ||
         set_error (self, error);
}

/* Deletes @file, and what is in it if it is a folder (without following
 * links): whatever took the index's place. */
static void
delete_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children = NULL;

  children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  while (children != NULL)
    {
      GFile *child = NULL;

      if (!g_file_enumerator_iterate (children, NULL, &child, NULL, NULL) || child == NULL)
        break;
      delete_tree (child);
    }
  g_file_delete (file, NULL, NULL);
}

/* The index is a cache of the documents: a damaged one is thrown away,
 * with its log, and built again. */
static void
throw_away (CmHistoryIndex *self)
{
  static const char * const suffixes[] = { "", "-wal", "-shm", "-journal" };

  g_clear_pointer (&self->db, sqlite3_close);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *path = g_strconcat (self->db_path, suffixes[i], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);

      delete_tree (file);
    }
}

/* The index files of earlier versions, one a language
 * (".index-C_UTF-8.sqlite"): a cache no longer read, deleted. */
static void
delete_language_indexes (GFile *folder)
{
  g_autofree char *dir_path = g_file_get_path (folder);
  g_autoptr(GDir) dir = dir_path != NULL ? g_dir_open (dir_path, 0, NULL) : NULL;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_prefix (name, ".index-") &&
          (g_str_has_suffix (name, ".sqlite") || g_str_has_suffix (name, ".sqlite-journal")))
        {
          g_autofree char *path = g_build_filename (dir_path, name, NULL);

          g_unlink (path);
        }
    }
}

CmHistoryIndex *
cm_history_index_open (GFile *folder, GError **error)
{
  g_autoptr(CmHistoryIndex) self = g_new0 (CmHistoryIndex, 1);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = g_file_get_path (folder);

  self->folder = g_object_ref (folder);
  self->db_path = g_build_filename (dir, INDEX_NAME, NULL);
  self->language = dup_language ();
  /* Once, when this version's index is first made. */
  if (!g_file_test (self->db_path, G_FILE_TEST_EXISTS))
    delete_language_indexes (folder);
  if (!open_db (self, &local_error))
    {
      /* Held too long by another: not damaged, not to throw away. */
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_BUSY))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_debug ("History index thrown away: %s", local_error->message);
      throw_away (self);
      if (!open_db (self, error))
        return NULL;
    }
  return g_steal_pointer (&self);
}

/* Whether the folder has an index beside its documents. */
gboolean
cm_history_index_exists (GFile *folder)
{
  g_autoptr(GFile) file = g_file_get_child (folder, INDEX_NAME);

  return g_file_query_exists (file, NULL);
}

/* The index's file, in the history folder. */
const char *
cm_history_index_get_path (CmHistoryIndex *self)
{
  return self->db_path;
}

/**
 * cm_history_index_set_progress_func:
 * @func: (nullable): called while cm_history_index_refresh() builds
 * @user_data: for @func
 *
 * Asks cm_history_index_refresh() to tell how far it is: see
 * #CmHistoryIndexProgressFunc.
 */
void
cm_history_index_set_progress_func (CmHistoryIndex             *self,
                                    CmHistoryIndexProgressFunc  func,
                                    gpointer                    user_data)
{
  g_return_if_fail (self != NULL);
  self->progress = func;
  self->progress_data = user_data;
}

void
cm_history_index_free (CmHistoryIndex *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->db, sqlite3_close);
  g_clear_object (&self->folder);
  g_free (self->db_path);
  g_free (self->language);
  g_free (self);
}

typedef struct { gint64 mtime; gint64 bytes; } Stamp;

/* A document to index: new, or changed since it was indexed. */
typedef struct
{
  char    *path;
  Stamp    stamp;
  gboolean regular;
} Change;

static void
change_free (Change *change)
{
  g_free (change->path);
  g_free (change);
}

static GHashTable *
known_stamps (CmHistoryIndex *self, GError **error)
{
  g_autoptr(GHashTable) known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sqlite3_stmt *stmt = NULL;
  int rc;

  /* A document without words in this language, or with words of an
   * earlier version of it, is as good as changed: read again. */
  if (prepare (self,
               "SELECT d.path, CASE WHEN w.path IS NULL THEN -1 ELSE d.mtime END, d.bytes"
               " FROM docs d LEFT JOIN words w ON w.path = d.path AND w.language = ?"
               " AND w.mtime = d.mtime AND w.bytes = d.bytes", &stmt) != SQLITE_OK)
    {
      set_error (self, error);
      return NULL;
    }
  sqlite3_bind_text (stmt, 1, self->language, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      Stamp *stamp = g_new (Stamp, 1);
      stamp->mtime = sqlite3_column_int64 (stmt, 1);
      stamp->bytes = sqlite3_column_int64 (stmt, 2);
      g_hash_table_insert (known, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), stamp);
    }
  if (rc != SQLITE_DONE)
    {
      set_error (self, error);
      sqlite3_finalize (stmt);
      return NULL;
    }
  sqlite3_finalize (stmt);
  return g_steal_pointer (&known);
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

/* A document read by a worker: what its row of the index holds. */
typedef struct
{
  const Change   *change;  /* the refresh's */
  CmHistoryEntry *entry;   /* NULL when it could not be read */
  CmBatchFacts   *facts;
  char           *problem;
} Read;

static void
read_free (Read *read)
{
  g_clear_pointer (&read->entry, cm_history_entry_free);
  g_clear_pointer (&read->facts, cm_batch_facts_free);
  g_free (read->problem);
  g_free (read);
}

/* What the workers share: the changes to read and where each read goes. */
typedef struct
{
  GPtrArray   *changes;
  GAsyncQueue *reads;
} Reading;

/* The end of the array that starts at @data[@start] ('['): the index of
 * its ']', or 0 when the text ends first. Strings are stepped over, so
 * a bracket in a card's name is no bracket. */
static gsize
array_end (const char *data, gsize length, gsize start)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  for (gsize i = start; i < length; i++)
    {
      if (in_string)
        {
          if (data[i] == '\\')
            i++;
          else if (data[i] == '"')
            in_string = FALSE;
        }
      else if (data[i] == '"')
        in_string = TRUE;
      else if (data[i] == '[')
        depth++;
      else if (data[i] == ']' && --depth == 0)
        return i;
    }
  return 0;
}

/* Where the value of the key whose quoted name ends before @data[@at]
 * starts, if it is an array: past the ':' and the blanks; else 0. */
static gsize
array_value_at (const char *data, gsize length, gsize at)
{
  while (at < length && g_ascii_isspace (data[at]))
    at++;
  if (at >= length || data[at] != ':')
    return 0;
  for (at++; at < length && g_ascii_isspace (data[at]); at++)
    ;
  return at < length && data[at] == '[' ? at : 0;
}

/* Each test's samples and latency scatter are most of a document's
 * bytes, and most of what parsing it costs, and no list shows them:
 * their arrays are emptied in @data before it is parsed (in place, it
 * only gets shorter). json-glib parses a whole tree or nothing, so this
 * scan of strings and brackets is what reads only what the index needs;
 * whatever it cannot follow it leaves as it was. Returns the new length. */
static gsize
drop_series (char *data, gsize length)
{
  static const char * const keys[] = { "\"samples\"", "\"latency_scatter\"" };
  gboolean in_string = FALSE;
  gsize in = 0, out = 0;

  while (in < length)
    {
      char c = data[in];
      gboolean dropped = FALSE;

      if (!in_string && c == '"')
        {
          for (guint k = 0; k < G_N_ELEMENTS (keys) && !dropped; k++)
            {
              gsize key_length = strlen (keys[k]);
              gsize start, end;

              if (length - in < key_length || memcmp (data + in, keys[k], key_length) != 0 ||
                  (start = array_value_at (data, length, in + key_length)) == 0 ||
                  (end = array_end (data, length, start)) == 0)
                continue;
              memmove (data + out, keys[k], key_length);
              out += key_length;
              memcpy (data + out, ":[]", 3);
              out += 3;
              in = end + 1;
              dropped = TRUE;
            }
          if (dropped)
            continue;
          in_string = TRUE;
        }
      else if (in_string && c == '\\' && in + 1 < length)
        data[out++] = data[in++];
      else if (in_string && c == '"')
        in_string = FALSE;
      data[out++] = data[in++];
    }
  return out;
}

/* A document as the index reads it: whole, but for its series. */
static CmResult *
read_for_index (const char *path, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *data = NULL;
  gsize length;

  if ((data = cm_json_read_file_bounded (file, &length, error)) == NULL)
    return NULL;
  length = drop_series (data, length);
  return cm_result_new_from_data (data, length, error);
}

/* In a worker: parsing a document is most of a build, so every core
 * parses while the refresh's own thread writes the rows. */
static void
read_document_cb (gpointer data,
                  gpointer user_data)
{
  Reading *reading = user_data;
  Read *read = g_new0 (Read, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = NULL;

  read->change = g_ptr_array_index (reading->changes, GPOINTER_TO_UINT (data) - 1);
  /* A FIFO named like a result would block the reader: named, not read. */
  if (!read->change->regular)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("it is not a regular file."));
  else
    result = read_for_index (read->change->path, &error);
  if (result != NULL)
    {
      read->entry = cm_history_entry_new_for_result (result);
      read->facts = cm_batch_facts_new_for_result (result);
    }
  else
    read->problem = g_strdup (error != NULL ? error->message : "");
  g_async_queue_push (reading->reads, read);
}

/* The statements a refresh writes a document with: its facts, and its
 * words in this language. */
typedef struct
{
  sqlite3_stmt *doc;
  sqlite3_stmt *words;
} Inserts;

static void
bind_facts (sqlite3_stmt *insert, const CmHistoryEntry *entry, const CmBatchFacts *facts)
{
  sqlite3_bind_text (insert, 5, entry->kind, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 6, entry->serial, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 7, entry->name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 8, entry->brand, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (insert, 9, (sqlite3_int64) entry->size_bytes);
  sqlite3_bind_int64 (insert, 10, entry->started);
  for (guint i = 0; i < G_N_ELEMENTS (entry->figures); i++)
    sqlite3_bind_double (insert, 11 + i, entry->figures[i]);
  sqlite3_bind_text (insert, 15, facts->key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (insert, 16, (sqlite3_int64) facts->size_bytes);
  sqlite3_bind_int (insert, 17, facts->status);
  sqlite3_bind_int64 (insert, 18, facts->capacity_real_bytes);
  sqlite3_bind_int64 (insert, 19, facts->usable_bytes);
  sqlite3_bind_int64 (insert, 20, facts->lost_bytes);
  sqlite3_bind_int64 (insert, 21, facts->started);
  sqlite3_bind_int (insert, 22, entry->outcome);
}

static void
bind_words (sqlite3_stmt *insert, const CmHistoryEntry *entry, const CmBatchFacts *facts)
{
  sqlite3_bind_text (insert, 5, entry->title, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 6, entry->run, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 7, entry->verdict, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 9, facts->card, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 10, facts->answer, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 11, entry->badge, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 12, entry->method, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 13, entry->figures_text, -1, SQLITE_TRANSIENT);
}

/* Both tables' rows start with the document and its stamp. */
static void
bind_stamp (sqlite3_stmt *insert, const Change *change, int mtime_column)
{
  sqlite3_reset (insert);
  sqlite3_clear_bindings (insert);
  sqlite3_bind_text (insert, 1, change->path, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert, mtime_column, change->stamp.mtime);
  sqlite3_bind_int64 (insert, mtime_column + 1, change->stamp.bytes);
}

static int
insert_read (CmHistoryIndex *self, const Inserts *inserts, const Read *read)
{
  int rc;

  bind_stamp (inserts->doc, read->change, 2);
  sqlite3_bind_int (inserts->doc, 4, read->entry == NULL);
  sqlite3_bind_int64 (inserts->doc, 21, 0);
  bind_stamp (inserts->words, read->change, 3);
  sqlite3_bind_text (inserts->words, 2, self->language, -1, SQLITE_STATIC);
  if (read->entry != NULL)
    {
      bind_facts (inserts->doc, read->entry, read->facts);
      bind_words (inserts->words, read->entry, read->facts);
    }
  else
    sqlite3_bind_text (inserts->words, 8, read->problem, -1, SQLITE_STATIC);
  if ((rc = sqlite3_step (inserts->doc)) != SQLITE_DONE)
    return rc;
  return sqlite3_step (inserts->words);
}

static gboolean
forget_documents (CmHistoryIndex *self, GHashTable *gone, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  GHashTableIter iter;
  const char *path;

  if (g_hash_table_size (gone) == 0)
    return TRUE;
  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->db, "DELETE FROM docs WHERE path = ?", -1, &stmt, NULL) != SQLITE_OK)
    goto failed;
  g_hash_table_iter_init (&iter, gone);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    {
      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        goto failed;
    }
  sqlite3_finalize (stmt);
  if (sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
    return TRUE;

failed:
  set_error (self, error);
  sqlite3_finalize (stmt);
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* The documents added or changed (other mtime or size) since the index
 * was last refreshed; what is left in @known is gone. The folder is read
 * with readdir() and fstatat(): GIO's enumerator, a GFileInfo and a
 * GFile a document, took a quarter of listing 100 000 of them. */
static GPtrArray *
list_changes (CmHistoryIndex *self, GHashTable *known, GError **error)
{
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) change_free);
  g_autofree char *dir_path = g_file_get_path (self->folder);
  g_autoptr(GString) file_path = g_string_new (dir_path);
  struct dirent *dirent;
  gsize dir_length;
  int saved_errno;
  DIR *dir;

  if (dir_path == NULL || (dir = opendir (dir_path)) == NULL)
    {
      saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", dir_path != NULL ? dir_path : "?", g_strerror (saved_errno));
      return NULL;
    }
  g_string_append_c (file_path, G_DIR_SEPARATOR);
  dir_length = file_path->len;
  for (errno = 0; (dirent = readdir (dir)) != NULL; errno = 0)
    {
      struct stat st;
      Stamp *seen;

      if (!g_str_has_suffix (dirent->d_name, ".json"))
        continue;
      /* Gone since it was listed: forgotten, as if never seen. */
      if (fstatat (dirfd (dir), dirent->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        continue;

      g_string_truncate (file_path, dir_length);
      g_string_append (file_path, dirent->d_name);
      seen = g_hash_table_lookup (known, file_path->str);
      if (seen == NULL ||
          seen->mtime != (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000 ||
          seen->bytes != st.st_size)
        {
          Change *change = g_new0 (Change, 1);

          change->path = g_strdup (file_path->str);
          change->stamp.mtime = (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
          change->stamp.bytes = st.st_size;
          change->regular = S_ISREG (st.st_mode);
          g_ptr_array_add (changes, change);
        }
      g_hash_table_remove (known, file_path->str);
    }
  saved_errno = errno;
  closedir (dir);
  if (saved_errno != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", dir_path, g_strerror (saved_errno));
      return NULL;
    }
  return g_steal_pointer (&changes);
}

static gboolean
tell_progress (CmHistoryIndex *self, guint done, guint total, GError **error)
{
  if (self->progress == NULL || self->progress (done, total, self->progress_data))
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Stopped building the history’s index."));
  return FALSE;
}

/* One transaction: the next @n documents the workers read. */
static gboolean
index_batch (CmHistoryIndex *self,
             const Inserts  *inserts,
             GAsyncQueue    *reads,
             guint           n,
             GError        **error)
{
  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return set_error (self, error);
  for (guint i = 0; i < n; i++)
    {
      Read *read = g_async_queue_pop (reads);
      int rc = insert_read (self, inserts, read);

      read_free (read);
      if (rc != SQLITE_DONE)
        {
          set_error (self, error);
          sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
          return FALSE;
        }
    }
  return sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ||
         set_error (self, error);
}

/* Workers read the documents, as many as there are cores; this thread
 * writes them a batch a transaction, in the order they are read. */
static gboolean
index_changes (CmHistoryIndex *self,
               const Inserts  *inserts,
               GPtrArray      *changes,
               GError        **error)
{
  g_autoptr(GAsyncQueue) reads = g_async_queue_new_full ((GDestroyNotify) read_free);
  Reading reading = { changes, reads };
  GThreadPool *pool;
  guint done, pushed = 0;
  gboolean ok;

  pool = g_thread_pool_new (read_document_cb, &reading, (int) g_get_num_processors (), FALSE, NULL);
  ok = tell_progress (self, 0, changes->len, error);
  for (done = 0; ok && done < changes->len; )
    {
      guint n = MIN (changes->len - done, CM_HISTORY_INDEX_BATCH_SIZE);

      /* The workers read a batch ahead, no more: while a commit waits
       * for another writer, what they read waits in memory. */
      for (; pushed < MIN (changes->len, done + 2 * CM_HISTORY_INDEX_BATCH_SIZE); pushed++)
        g_thread_pool_push (pool, GUINT_TO_POINTER (pushed + 1), NULL);
      ok = index_batch (self, inserts, reads, n, error);
      done += n;
      ok = ok && tell_progress (self, done, changes->len, error);
    }
  /* Stopped: what the workers have not begun is dropped, what they
   * read meanwhile is freed with the queue. */
  g_thread_pool_free (pool, TRUE, TRUE);
  return ok;
}

/* Each batch is its own transaction, kept however the build ends: the
 * next refresh finds those documents indexed and goes on from there. */
static gboolean
refresh_once (CmHistoryIndex *self, GError **error)
{
  g_autoptr(GHashTable) known = NULL;
  g_autoptr(GPtrArray) changes = NULL;
  Inserts inserts = { NULL, NULL };
  gboolean ok;

  if ((known = known_stamps (self, error)) == NULL ||
      (changes = list_changes (self, known, error)) == NULL ||
      !forget_documents (self, known, error))
    return FALSE;
  if (changes->len == 0)
    return TRUE;
  ok = (sqlite3_prepare_v2 (self->db,
                            "INSERT OR REPLACE INTO docs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            -1, &inserts.doc, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2 (self->db,
                            "INSERT OR REPLACE INTO words VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            -1, &inserts.words, NULL) == SQLITE_OK) ||
       set_error (self, error);
  ok = ok && index_changes (self, &inserts, changes, error);
  sqlite3_finalize (inserts.doc);
  sqlite3_finalize (inserts.words);
  return ok;
}

/* Thrown away, opened anew and built again from the documents. */
static gboolean
rebuild (CmHistoryIndex *self, GError **error)
{
  throw_away (self);
  return open_db (self, error) && refresh_once (self, error);
}

/**
 * cm_history_index_refresh:
 *
 * Brings the index up to date with the documents beside it: those added,
 * changed or removed since it was last refreshed, in batches of
 * %CM_HISTORY_INDEX_BATCH_SIZE documents, each kept once done (see
 * cm_history_index_set_progress_func()). An index found damaged on the
 * way is built again from the documents, without a word.
 *
 * Returns: %FALSE on an error: the folder can't be read, the index
 *   can't be written, or the progress function stopped it
 *   (%G_IO_ERROR_CANCELLED)
 */
gboolean
cm_history_index_refresh (CmHistoryIndex *self, GError **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (refresh_once (self, &local_error))
    return TRUE;
  if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) &&
      (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
       g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_BUSY) ||
       check_sound (self, NULL)))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  g_debug ("History index thrown away: %s", local_error->message);
  return rebuild (self, error);
}

/* Whether a read that ended with @rc found the index damaged, and it was
 * built again from the documents (once a connection): the caller then
 * reads again. */
static gboolean
heal (CmHistoryIndex *self, int rc)
{
  g_autoptr(GError) error = NULL;

  if (!is_damage (rc) || self->healed)
    return FALSE;
  self->healed = TRUE;
  g_debug ("History index thrown away: %s", self->db != NULL ? sqlite3_errmsg (self->db) : "");
  if (rebuild (self, &error))
    return TRUE;
  g_debug ("History index not built again: %s", error->message);
  return FALSE;
}

guint
cm_history_index_count (CmHistoryIndex *self)
{
  sqlite3_stmt *stmt = NULL;
  guint count = 0;
  int rc;

  if ((rc = prepare (self, "SELECT count(*) FROM docs", &stmt)) == SQLITE_OK &&
      (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    count = (guint) sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  if (heal (self, rc))
    return cm_history_index_count (self);
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

/* Every row of @stmt (prepared with @rc) into @entries; finalizes it.
 * Returns SQLITE_OK, or the error that ended it. */
static int
collect_entries (sqlite3_stmt *stmt, int rc, GPtrArray *entries)
{
  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_ptr_array_add (entries, entry_from_row (stmt));
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* How many rows a list reads at a time. */
#define PAGE_ROWS 256

/* The rows after the key (@after_us, @after_path) in the list's order,
 * at most a page of them, read in a short transaction of their own. */
static int
read_page (CmHistoryIndex *self,
           gboolean        damaged,
           gboolean        oldest_first,
           gint64         *after_us,
           char          **after_path,
           GPtrArray      *page)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = prepare (self,
                oldest_first ? "SELECT * FROM rows WHERE damaged = ? AND (started_us, path) > (?, ?)"
                               " ORDER BY damaged, started_us, path LIMIT ?"
                             : "SELECT * FROM rows WHERE damaged = ? AND (started_us, path) < (?, ?)"
                               " ORDER BY damaged DESC, started_us DESC, path DESC LIMIT ?",
                &stmt);
  if (rc != SQLITE_OK)
    return rc;
  sqlite3_bind_int (stmt, 1, damaged != FALSE);
  sqlite3_bind_int64 (stmt, 2, *after_us);
  sqlite3_bind_text (stmt, 3, *after_path, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int (stmt, 4, PAGE_ROWS);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_ptr_array_add (page, entry_from_row (stmt));
      *after_us = sqlite3_column_int64 (stmt, 26);
      g_free (*after_path);
      *after_path = column_dup (stmt, 0);
    }
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/**
 * cm_history_index_foreach:
 * @damaged: %TRUE for the documents that could not be read, %FALSE for
 *   the others
 * @oldest_first: the order
 * @func: called with each entry, which it borrows; returns %FALSE to stop
 *
 * Every entry, one at a time, never all of them in memory. The index is
 * read a page at a time and never held while @func runs: a slow reader
 * (history --json | less) makes no writer wait. An index found damaged on
 * the way is built again and read on from where it was.
 */
void
cm_history_index_foreach (CmHistoryIndex     *self,
                          gboolean            damaged,
                          gboolean            oldest_first,
                          CmHistoryIndexFunc  func,
                          gpointer            user_data)
{
  g_autoptr(GPtrArray) page = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_history_entry_free);
  g_autofree char *after_path = g_strdup ("");
  gint64 after_us = oldest_first ? G_MININT64 : G_MAXINT64;

  for (;;)
    {
      gint64 page_us = after_us;
      g_autofree char *page_path = g_strdup (after_path);
      int rc;

      g_ptr_array_set_size (page, 0);
      rc = read_page (self, damaged, oldest_first, &after_us, &after_path, page);
      if (heal (self, rc))
        {
          after_us = page_us;
          g_free (after_path);
          after_path = g_steal_pointer (&page_path);
          continue;
        }
      for (guint i = 0; i < page->len; i++)
        if (!func (g_ptr_array_index (page, i), user_data))
          return;
      if (rc != SQLITE_OK || page->len < PAGE_ROWS)
        return;
    }
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
  int rc;

  rc = prepare (self,
                "SELECT card_key, card_label, kind, started_us, report_size, answer, status,"
                " capacity_real, usable, lost FROM rows WHERE damaged = 0"
                " ORDER BY damaged, started_us, path", &stmt);
  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
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
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  if (heal (self, rc))
    return cm_history_index_build_batch_report (self);
  return cm_batch_report_get_rows (report);
}

/* Entries newest first; damaged documents last. */
GPtrArray *
cm_history_index_query (CmHistoryIndex *self, guint offset, guint limit)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_history_entry_free);
  sqlite3_stmt *stmt = NULL;

  int rc;

  rc = prepare (self, "SELECT * FROM rows ORDER BY damaged, started DESC, path DESC LIMIT ? OFFSET ?", &stmt);
  sqlite3_bind_int64 (stmt, 1, limit);
  sqlite3_bind_int64 (stmt, 2, offset);
  rc = collect_entries (stmt, rc, entries);
  if (heal (self, rc))
    {
      g_ptr_array_unref (entries);
      return cm_history_index_query (self, offset, limit);
    }
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
  g_autoptr(GString) sql = g_string_new ("SELECT * FROM rows WHERE damaged = 0");
  sqlite3_stmt *stmt = NULL;
  guint n = kinds != NULL ? g_strv_length ((char **) kinds) : 0;
  int column = 1;
  int rc;

  g_return_val_if_fail (kinds == NULL || n > 0, entries);

  if (serial != NULL)
    g_string_append (sql, " AND serial = ?");
  for (guint i = 0; i < n; i++)
    g_string_append (sql, i == 0 ? " AND kind IN (?" : ", ?");
  if (n > 0)
    g_string_append_c (sql, ')');
  g_string_append (sql, " ORDER BY started DESC, path DESC LIMIT ?");
  rc = prepare (self, sql->str, &stmt);
  if (serial != NULL)
    sqlite3_bind_text (stmt, column++, serial, -1, SQLITE_STATIC);
  for (guint i = 0; i < n; i++)
    sqlite3_bind_text (stmt, column++, kinds[i], -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, column, limit);
  rc = collect_entries (stmt, rc, entries);
  if (heal (self, rc))
    {
      g_ptr_array_unref (entries);
      return cm_history_index_query_kinds (self, serial, kinds, limit);
    }
  return entries;
}

/* The newest result for a card with this CID serial, or NULL. */
CmHistoryEntry *
cm_history_index_last_for_serial (CmHistoryIndex *self, const char *serial)
{
  g_autoptr(GPtrArray) entries = cm_history_index_list_for_serial (self, serial, 1);

  return entries->len > 0 ? g_ptr_array_steal_index (entries, 0) : NULL;
}

/* Every result for a card with this CID serial, newest first (at most
 * @limit): what "tested before" and the cloned-card check look at. */
GPtrArray *
cm_history_index_list_for_serial (CmHistoryIndex *self, const char *serial, guint limit)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_history_entry_free);
  sqlite3_stmt *stmt = NULL;

  int rc;

  rc = prepare (self, "SELECT * FROM rows WHERE serial = ? AND damaged = 0 ORDER BY started DESC LIMIT ?", &stmt);
  sqlite3_bind_text (stmt, 1, serial, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, limit);
  rc = collect_entries (stmt, rc, entries);
  if (heal (self, rc))
    {
      g_ptr_array_unref (entries);
      return cm_history_index_list_for_serial (self, serial, limit);
    }
  return entries;
}
