/* cm-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Past results, one JSON document per run in the user's data folder, so
 * cards can be compared side by side. A file that cannot be read is
 * reported and left alone, never deleted.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-card-same.h"
#include "cm-history.h"
#include "cm-history-index.h"
#include "cm-store.h"

/* Documents not yet in the shared store: a file each in this folder of
 * the history, named as the document, holding the key of the store it is
 * for (cm_store_get_key()); empty, from before, for whichever store. */
#define QUEUE_FOLDER ".store-queue"

/* The results of one CID serial "tested before" looks at. */
#define SEEN_LIMIT 200

struct _CmHistory
{
  GObject  parent_instance;

  GFile   *folder;
  CmStore *store;
  char    *store_url;     /* as given, for a sender in another thread */
  GError  *store_error;
  gboolean send_in_background;
  guint    sending;       /* sends under way in other threads */
  gboolean send_again;    /* a document was queued while one was */
};

enum
{
  STORE_SENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (CmHistory, cm_history, G_TYPE_OBJECT)

static void
cm_history_finalize (GObject *object)
{
  CmHistory *self = (CmHistory *) object;

  g_clear_object (&self->folder);
  g_clear_pointer (&self->store, cm_store_free);
  g_clear_pointer (&self->store_url, g_free);
  g_clear_error (&self->store_error);

  G_OBJECT_CLASS (cm_history_parent_class)->finalize (object);
}

static void
cm_history_class_init (CmHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cm_history_finalize;

  /**
   * CmHistory::store-sent:
   * @waiting: how many documents still wait for the store
   *
   * A send in the background (cm_history_set_send_in_background()) is
   * done; cm_history_get_store_error() says why some still wait.
   */
  signals[STORE_SENT] = g_signal_new ("store-sent", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
cm_history_init (CmHistory *self)
{
}

CmHistory *
cm_history_new (GFile *folder)
{
  CmHistory *self;

  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  self = g_object_new (CM_TYPE_HISTORY, NULL);
  self->folder = g_object_ref (folder);

  return self;
}

/* $XDG_DATA_HOME/cardmark/history; a development build keeps its own, so
 * it never mixes with an installed CardMark. */
CmHistory *
cm_history_new_default (void)
{
  const char *name = DEVELOPMENT ? "cardmark-devel" : "cardmark";
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), name, "history", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (path);

  return cm_history_new (folder);
}

GFile *
cm_history_get_folder (CmHistory *self)
{
  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);

  return self->folder;
}

/* Only regular files of a sensible size are read: a FIFO or a device
 * named *.json would block the reader or never end, and a huge file
 * would fill the memory. */
static gboolean
check_history_file (GFile      *file,
                    GFileInfo  *info,
                    GError    **error)
{
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("it is not a regular file."));
      return FALSE;
    }

  if (g_file_info_get_size (info) > CM_HISTORY_MAX_FILE_BYTES)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));
      g_autofree char *limit = g_format_size (CM_HISTORY_MAX_FILE_BYTES);

      /* Translators: "it is 2.1 GB, more than a result can be (64.0 MB)." */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("it is %s, more than a result can be (%s)."), size, limit);
      return FALSE;
    }

  return TRUE;
}

/* "20261204-130512-": every file of a result started then begins so. */
static char *
stamp_for (CmResult *result)
{
  return g_date_time_format (cm_result_get_started (result), "%Y%m%d-%H%M%S-");
}

static char *
file_name_for (CmResult *result)
{
  g_autofree char *stamp = stamp_for (result);

  return g_strdup_printf ("%s%06x.json", stamp, g_random_int () & 0xffffff);
}

/* Whether @a and @b are one test's: cm_result_dup_run_key(). */
static gboolean
same_test (CmResult *a,
           CmResult *b)
{
  g_autofree char *key_a = cm_result_dup_run_key (a);
  g_autofree char *key_b = cm_result_dup_run_key (b);

  return key_a != NULL && g_strcmp0 (key_a, key_b) == 0;
}

/* Deletes the documents @result, saved as @saved, takes the place of:
 * files named for the same start that hold the same test. */
static void
drop_earlier (CmHistory *self,
              CmResult  *result,
              GFile     *saved)
{
  g_autofree char *stamp = stamp_for (result);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  GFileInfo *info;

  enumerator = g_file_enumerate_children (self->folder,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  while (enumerator != NULL && (info = g_file_enumerator_next_file (enumerator, NULL, NULL)) != NULL)
    {
      g_autoptr(GFileInfo) owned = info;
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) file = NULL;
      g_autoptr(CmResult) earlier = NULL;

      if (!g_str_has_prefix (name, stamp) || !g_str_has_suffix (name, ".json"))
        continue;
      file = g_file_get_child (self->folder, name);
      if (g_file_equal (file, saved) || !check_history_file (file, info, NULL))
        continue;
      earlier = cm_result_new_from_file (file, NULL);
      if (earlier != NULL && same_test (earlier, result))
        g_file_delete (file, NULL, NULL);
    }
}

#define FILE_KEY "cm-history-file"

static void
remember_file (CmResult *result,
               GFile    *file)
{
  g_object_set_data_full (G_OBJECT (result), FILE_KEY, g_object_ref (file), g_object_unref);
}

/* The file of a result saved in or loaded from a history, or NULL. */
GFile *
cm_history_get_file (CmResult *result)
{
  g_return_val_if_fail (CM_IS_RESULT (result), NULL);
  return g_object_get_data (G_OBJECT (result), FILE_KEY);
}

/* Brings the index beside the documents up to date after a save or a
 * delete, if there is one: it only looks again at what changed. */
static void
update_index (CmHistory *self)
{
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  if (!cm_history_index_exists (self->folder))
    return;
  if ((index = cm_history_index_open (self->folder, &error)) == NULL ||
      !cm_history_index_refresh (index, &error))
    g_debug ("History index not updated: %s", error->message);
}

/* Deletes a result loaded from this history: its file only, never
 * anything else in the folder. */
gboolean
cm_history_delete (CmHistory  *self,
                   CmResult   *result,
                   GError    **error)
{
  GFile *file;

  g_return_val_if_fail (CM_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (CM_IS_RESULT (result), FALSE);

  file = cm_history_get_file (result);
  if (file == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("This result is not in the history, so there is nothing to delete."));
      return FALSE;
    }
  return cm_history_delete_file (self, file, error);
}

/**
 * cm_history_delete_file:
 *
 * Deletes the saved document @file, which must be in the history's
 * folder, without reading it (History lists from the index), and brings
 * the index up to date.
 */
gboolean
cm_history_delete_file (CmHistory  *self,
                        GFile      *file,
                        GError    **error)
{
  g_autoptr(GFile) parent = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  parent = g_file_get_parent (file);
  if (parent == NULL || !g_file_equal (parent, self->folder))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("This result is not in the history, so there is nothing to delete."));
      return FALSE;
    }

  if (!g_file_delete (file, NULL, error))
    return FALSE;
  update_index (self);
  return TRUE;
}

/**
 * cm_history_set_store:
 * @url: (nullable): a postgresql:// URL, or %NULL for none
 *
 * Every document saved from now on also goes to the store at @url, a
 * PostgreSQL database several test machines share; one saved while it
 * cannot be reached waits in the history and goes with a later save or
 * cm_history_send_queued(). Nothing is connected here.
 */
gboolean
cm_history_set_store (CmHistory   *self,
                      const char  *url,
                      GError     **error)
{
  CmStore *store = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), FALSE);

  if (url != NULL && (store = cm_store_new (url, error)) == NULL)
    return FALSE;
  g_clear_pointer (&self->store, cm_store_free);
  g_clear_error (&self->store_error);
  g_free (self->store_url);
  self->store_url = g_strdup (url);
  self->store = store;
  return TRUE;
}

/**
 * cm_history_set_send_in_background:
 *
 * For an app: documents go to the store in another thread, so a store
 * that does not answer never holds the window; CmHistory::store-sent
 * says when each send is done.
 */
void
cm_history_set_send_in_background (CmHistory *self,
                                   gboolean   background)
{
  g_return_if_fail (CM_IS_HISTORY (self));
  self->send_in_background = background;
}

typedef struct
{
  guint   waiting;
  GError *error;
} Sent;

static void
sent_free (Sent *sent)
{
  g_clear_error (&sent->error);
  g_free (sent);
}

/* In the sender's thread: a history of its own for the same folder and
 * store, so nothing of @source's is touched from two threads. */
static void
send_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *folder_path = task_data;
  g_autoptr(GFile) folder = g_file_new_for_path (folder_path);
  g_autoptr(CmHistory) sender = cm_history_new (folder);
  const char *url = g_object_get_data (G_OBJECT (task), "url");
  Sent *sent = g_new0 (Sent, 1);

  if (cm_history_set_store (sender, url, &sent->error))
    {
      sent->waiting = cm_history_send_queued (sender);
      if (sender->store_error != NULL)
        sent->error = g_error_copy (sender->store_error);
      /* With nothing to send, nothing was connected: whether the store
       * answers is still measured, so no one is told it holds every
       * result before it was ever reached. */
      else
        cm_store_reach (sender->store, &sent->error);
    }
  else
    sent->waiting = cm_history_count_queued (sender);
  g_task_return_pointer (task, sent, (GDestroyNotify) sent_free);
}

static void send_in_background (CmHistory *self);

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  CmHistory *self = CM_HISTORY (object);
  Sent *sent = g_task_propagate_pointer (G_TASK (result), NULL);

  self->sending--;
  /* A document queued while this send ran goes now; the news waits for
   * that send, which says it for both. */
  if (self->send_again)
    {
      self->send_again = FALSE;
      g_clear_pointer (&sent, sent_free);
      send_in_background (self);
      return;
    }
  /* The store may have changed while the send ran: only its own news. */
  if (sent != NULL && g_strcmp0 (g_object_get_data (G_OBJECT (result), "url"), self->store_url) == 0)
    {
      g_clear_error (&self->store_error);
      self->store_error = g_steal_pointer (&sent->error);
      g_signal_emit (self, signals[STORE_SENT], 0, sent->waiting);
    }
  g_clear_pointer (&sent, sent_free);
}

static void
send_in_background (CmHistory *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->store_url == NULL)
    return;
  /* One sender at a time; what was queued meanwhile goes next. */
  if (self->sending > 0)
    {
      self->send_again = TRUE;
      return;
    }
  self->sending++;
  task = g_task_new (self, NULL, sent_cb, NULL);
  g_task_set_source_tag (task, send_in_background);
  g_task_set_task_data (task, g_file_get_path (self->folder), g_free);
  g_object_set_data_full (G_OBJECT (task), "url", g_strdup (self->store_url), g_free);
  g_task_run_in_thread (task, send_thread);
}

/**
 * cm_history_send_queued_in_background:
 *
 * Sends what waits for the store in another thread (see
 * cm_history_set_send_in_background()); CmHistory::store-sent says
 * when it is done. Does nothing without a store.
 */
void
cm_history_send_queued_in_background (CmHistory *self)
{
  g_return_if_fail (CM_IS_HISTORY (self));
  send_in_background (self);
}

/* The store set with cm_history_set_store(), or NULL. */
CmStore *
cm_history_get_store (CmHistory *self)
{
  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);
  return self->store;
}

/* Why the last send to the store failed, or NULL if it did not. */
const GError *
cm_history_get_store_error (CmHistory *self)
{
  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);
  return self->store_error;
}

static GFile *
queue_folder (CmHistory *self)
{
  return g_file_get_child (self->folder, QUEUE_FOLDER);
}

static void
queue_add (CmHistory  *self,
           const char *name)
{
  g_autoptr(GFile) folder = queue_folder (self);
  g_autoptr(GFile) entry = g_file_get_child (folder, name);
  g_autofree char *path = g_file_get_path (entry);
  g_autoptr(GError) error = NULL;

  if (!g_file_make_directory (folder, NULL, &error) && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    g_warning ("Cannot keep %s for the store: %s", name, error->message);
  g_clear_error (&error);
  /* Atomic: a half-written entry never names half a document, nor
   * half a store. It goes to this store only. */
  if (!g_file_set_contents (path, cm_store_get_key (self->store), -1, &error))
    g_warning ("Cannot keep %s for the store: %s", name, error->message);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Whether the queue's entry @name waits for this history's store: it
 * names it, or no store (an entry made before entries named theirs). */
static gboolean
queued_for_store (CmHistory  *self,
                  GFile      *folder,
                  const char *name)
{
  g_autoptr(GFile) entry = g_file_get_child (folder, name);
  g_autofree char *path = g_file_get_path (entry);
  g_autofree char *key = NULL;

  if (self->store == NULL)
    return TRUE;
  if (!g_file_get_contents (path, &key, NULL, NULL))
    return FALSE;
  return *key == '\0' || g_str_equal (key, cm_store_get_key (self->store));
}

/* The names in the queue for this history's store (all, without one),
 * oldest first: their names begin with the document's start. */
static GPtrArray *
queue_list (CmHistory *self)
{
  g_autoptr(GFile) folder = queue_folder (self);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GFileInfo *info;

  enumerator = g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  while (enumerator != NULL && (info = g_file_enumerator_next_file (enumerator, NULL, NULL)) != NULL)
    {
      const char *name = g_file_info_get_name (info);

      if (g_str_has_suffix (name, ".json") && strchr (name, '/') == NULL &&
          g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR && queued_for_store (self, folder, name))
        g_ptr_array_add (names, g_strdup (name));
      g_object_unref (info);
    }
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* The text of a document of this history, read as the index reads one:
 * a regular file of a sensible size, never through a link. */
static char *
read_document (CmHistory   *self,
               const char  *name,
               gsize       *length,
               GError     **error)
{
  g_autoptr(GFile) file = g_file_get_child (self->folder, name);
  g_autoptr(GFileInfo) info = NULL;
  char *contents = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, error);
  if (info == NULL || !check_history_file (file, info, error))
    return NULL;
  if (!g_file_load_contents (file, NULL, &contents, length, NULL, error))
    return NULL;
  return contents;
}

/* Sends one queued document; FALSE when the store is unreachable and
 * the rest of the queue may as well wait. */
static gboolean
send_one (CmHistory  *self,
          GFile      *queue,
          const char *name)
{
  g_autoptr(GFile) entry = g_file_get_child (queue, name);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  contents = read_document (self, name, &length, &error);
  if (contents == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      /* Deleted from the history, or taken over by a carried-on wear
       * test's newer document (queued itself): nothing left to send. */
      g_file_delete (entry, NULL, NULL);
      return TRUE;
    }
  if (contents != NULL && cm_store_send (self->store, contents, length, &error))
    {
      g_file_delete (entry, NULL, NULL);
      return TRUE;
    }
  g_prefix_error (&error, "%s: ", name);
  g_clear_error (&self->store_error);
  self->store_error = g_steal_pointer (&error);
  return !g_error_matches (self->store_error, CM_STORE_ERROR, CM_STORE_ERROR_UNREACHABLE);
}

/**
 * cm_history_send_queued:
 *
 * Sends the documents that wait for the store, oldest first, and
 * returns how many still wait (cm_history_get_store_error() says why).
 * Each is sent once: the store keeps a document by its checksum, so one
 * sent twice (two commands at once, a crash before its entry went) is
 * still one.
 */
guint
cm_history_send_queued (CmHistory *self)
{
  g_autoptr(GFile) queue = NULL;
  g_autoptr(GPtrArray) names = NULL;
  guint waiting = 0;

  g_return_val_if_fail (CM_IS_HISTORY (self), 0);

  if (self->store == NULL)
    return 0;
  g_clear_error (&self->store_error);
  queue = queue_folder (self);
  names = queue_list (self);
  for (guint i = 0; i < names->len; i++)
    if (!send_one (self, queue, g_ptr_array_index (names, i)))
      {
        waiting = names->len - i;
        break;
      }
  if (waiting == 0)
    waiting = cm_history_count_queued (self);
  return waiting;
}

/* How many documents wait for the store. */
guint
cm_history_count_queued (CmHistory *self)
{
  g_autoptr(GPtrArray) names = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), 0);
  names = queue_list (self);
  return names->len;
}

/* A store that did not answer a look-up is not asked again for a
 * minute: the look-ups meanwhile answer from this computer's index at
 * once instead of each waiting out the connect timeout. An app makes a
 * history of its own for each look-up, in a thread of its own (the card
 * page, the result page, each brand picked), so this is the process's. */
#define UNREACHABLE_USEC (60 * G_USEC_PER_SEC)
G_LOCK_DEFINE_STATIC (unreachable);
static char *unreachable_url;
static gint64 unreachable_until;

static gboolean
store_lately_unreachable (const char *url)
{
  gboolean lately;

  G_LOCK (unreachable);
  lately = g_strcmp0 (url, unreachable_url) == 0 && g_get_monotonic_time () < unreachable_until;
  G_UNLOCK (unreachable);
  return lately;
}

static void
remember_store_answer (const char *url,
                       gboolean    answered)
{
  G_LOCK (unreachable);
  if (!answered)
    {
      g_free (unreachable_url);
      unreachable_url = g_strdup (url);
      unreachable_until = g_get_monotonic_time () + UNREACHABLE_USEC;
    }
  else if (g_strcmp0 (url, unreachable_url) == 0)
    g_clear_pointer (&unreachable_url, g_free);
  G_UNLOCK (unreachable);
}

/* What is known of @card from before: from the store when one is set
 * and can be reached, else from this computer's index. @file is the
 * document of the result @card was read from, which is not "before", or
 * NULL. */
static CmStoreSeen *
dup_seen (CmHistory             *self,
          const CmHistoryEntry  *card,
          GFile                 *file,
          GError               **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autofree char *itself = NULL;
  gboolean from_store;

  if (card->serial == NULL || *card->serial == '\0')
    return NULL;
  /* A store that could not be reached a moment ago is not waited for
   * again: this computer's own results answer instead. */
  from_store = self->store != NULL &&
               !g_error_matches (self->store_error, CM_STORE_ERROR, CM_STORE_ERROR_UNREACHABLE) &&
               !store_lately_unreachable (self->store_url);
  if (from_store)
    {
      g_autoptr(GError) store_error = NULL;

      entries = cm_store_list_for_serial (self->store, card->serial, SEEN_LIMIT, &store_error);
      /* Nor is one that cannot be reached now: an app's look-up in
       * another thread has sent nothing before it. */
      from_store = !g_error_matches (store_error, CM_STORE_ERROR, CM_STORE_ERROR_UNREACHABLE);
      remember_store_answer (self->store_url, from_store);
      if (from_store && store_error != NULL)
        g_propagate_error (error, g_steal_pointer (&store_error));
    }
  if (!from_store && g_file_query_exists (self->folder, NULL))
    {
      /* Made if missing, as the history's list makes it. */
      g_autoptr(CmHistoryIndex) index = cm_history_index_open (self->folder, error);

      if (index != NULL && cm_history_index_refresh (index, error))
        entries = cm_history_index_list_for_serial (index, card->serial, SEEN_LIMIT);
    }
  else if (!from_store)
    entries = g_ptr_array_new ();
  if (entries == NULL)
    return NULL;
  if (file != NULL && from_store)
    {
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (g_file_load_contents (file, NULL, &contents, &length, NULL, NULL))
        itself = cm_store_dup_id (contents, length);
    }
  else if (file != NULL)
    itself = g_file_get_path (file);
  return cm_store_seen_new_for_card (entries, card, itself);
}

/* A card in a reader now: every result of its serial is from before. */
static CmHistoryEntry *
entry_new_for_card (CmCardInfo *card,
                    const char *brand)
{
  CmHistoryEntry *entry = g_new0 (CmHistoryEntry, 1);

  entry->serial = g_strdup (cm_card_info_get_serial (card));
  entry->brand = g_strdup (brand != NULL ? brand : cm_card_info_get_brand (card));
  entry->size_bytes = cm_card_info_get_capacity_bytes (card);
  entry->started = G_MAXINT64;
  return entry;
}

/**
 * cm_history_dup_seen:
 *
 * What is known of @result's card from before @result: from the store
 * when one is set (and was reachable at the last send), else from this
 * computer's index. NULL when the card has no CID serial; on an error
 * (the store unreachable) NULL and @error set.
 */
CmStoreSeen *
cm_history_dup_seen (CmHistory  *self,
                     CmResult   *result,
                     GError    **error)
{
  g_autoptr(CmHistoryEntry) card = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);
  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  card = cm_history_entry_new_for_result (result);
  return dup_seen (self, card, cm_history_get_file (result), error);
}

/**
 * cm_history_dup_seen_for_card:
 * @brand: (nullable): the brand the user says is on the card's label;
 *   %NULL for the card's own, if it knows one
 *
 * What is known of @card, as it is in a reader now, from every result of
 * its CID serial: cm_history_dup_seen() before any check of it.
 */
CmStoreSeen *
cm_history_dup_seen_for_card (CmHistory   *self,
                              CmCardInfo  *card,
                              const char  *brand,
                              GError     **error)
{
  g_autoptr(CmHistoryEntry) entry = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);
  g_return_val_if_fail (CM_IS_CARD_INFO (card), NULL);

  entry = entry_new_for_card (card, brand);
  return dup_seen (self, entry, NULL, error);
}

/* What a look-up in another thread takes: copies, so the caller's
 * objects are not read there. */
typedef struct
{
  CmHistoryEntry *card;
  GFile          *file;
  char           *url;
} SeenLookup;

static void
seen_lookup_free (SeenLookup *lookup)
{
  cm_history_entry_free (lookup->card);
  g_clear_object (&lookup->file);
  g_free (lookup->url);
  g_free (lookup);
}

static void
seen_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  CmHistory *self = source;
  SeenLookup *lookup = task_data;
  g_autoptr(CmHistory) looker = cm_history_new (self->folder);
  GError *error = NULL;
  CmStoreSeen *seen;

  if (lookup->url != NULL && !cm_history_set_store (looker, lookup->url, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  seen = dup_seen (looker, lookup->card, lookup->file, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, seen, (GDestroyNotify) cm_store_seen_free);
}

static void
look_up_seen (CmHistory           *self,
              CmHistoryEntry      *card,
              GFile               *file,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  SeenLookup *lookup = g_new0 (SeenLookup, 1);

  lookup->card = card;
  lookup->file = file != NULL ? g_object_ref (file) : NULL;
  lookup->url = g_strdup (self->store_url);
  g_task_set_source_tag (task, cm_history_dup_seen_async);
  g_task_set_task_data (task, lookup, (GDestroyNotify) seen_lookup_free);
  g_task_run_in_thread (task, seen_thread);
}

/**
 * cm_history_dup_seen_async:
 *
 * cm_history_dup_seen() in another thread, for an app: the store may
 * take seconds to answer, or not answer.
 */
void
cm_history_dup_seen_async (CmHistory           *self,
                           CmResult            *result,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (CM_IS_HISTORY (self));
  g_return_if_fail (CM_IS_RESULT (result));

  look_up_seen (self, cm_history_entry_new_for_result (result), cm_history_get_file (result),
                cancellable, callback, user_data);
}

/**
 * cm_history_dup_seen_for_card_async:
 *
 * cm_history_dup_seen_for_card() in another thread; finished by
 * cm_history_dup_seen_finish().
 */
void
cm_history_dup_seen_for_card_async (CmHistory           *self,
                                    CmCardInfo          *card,
                                    const char          *brand,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (CM_IS_HISTORY (self));
  g_return_if_fail (CM_IS_CARD_INFO (card));

  look_up_seen (self, entry_new_for_card (card, brand), NULL, cancellable, callback, user_data);
}

/* Returns: (transfer full) (nullable): as cm_history_dup_seen() */
CmStoreSeen *
cm_history_dup_seen_finish (CmHistory     *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* How many of a kind's newest documents are looked at for a card told
 * by its device (no CID serial): enough for a few other cards between. */
#define LAST_CANDIDATES 50

/**
 * cm_history_find_last:
 * @kind: (nullable): a job kind's name ("verify", "wear", …); %NULL for
 *   any kind
 * @serial: (nullable): the card's CID serial; without one the card is
 *   told by its device and the size it says it has
 * @device: (nullable): the card's device now; %NULL finds nothing
 * @device_bytes: its size: the block device's, which is what a
 *   document records when the card's registers tell none
 *
 * The newest document of @kind for this card, so that a card's page
 * shows each kind's last result after the app starts again, and the
 * card list the card's last result of any kind.
 *
 * Returns: (transfer full) (nullable): it, or %NULL when there is none
 *   (@error set when the history could not be read)
 */
CmResult *
cm_history_find_last (CmHistory   *self,
                      const char  *kind,
                      const char  *serial,
                      const char  *device,
                      guint64      device_bytes,
                      GError     **error)
{
  const char *kinds[] = { kind, NULL };
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);

  /* A folder on a card with no device known: no card to tell by. */
  if (device == NULL || !g_file_query_exists (self->folder, NULL))
    return NULL;
  if ((index = cm_history_index_open (self->folder, error)) == NULL || !cm_history_index_refresh (index, error))
    return NULL;
  if (serial != NULL && *serial == '\0')
    serial = NULL;
  entries = cm_history_index_query_kinds (index, serial, kind != NULL ? kinds : NULL, serial != NULL ? 1 : LAST_CANDIDATES);
  for (guint i = 0; i < entries->len; i++)
    {
      CmHistoryEntry *entry = g_ptr_array_index (entries, i);
      g_autoptr(GFile) file = NULL;
      g_autoptr(CmResult) result = NULL;

      /* By its CID serial (the index found these by it), else by the
       * size it says it has and, below, its reader's device: a document
       * that knows no size could be of any card that was in that reader. */
      if (!cm_history_entry_is_of_card (entry, serial, device_bytes))
        continue;
      file = g_file_new_for_path (entry->path);
      result = cm_result_new_from_file (file, NULL);
      /* Without a CID serial, only a card that never left its reader
       * since (cm_card_same()) is this one. */
      if (result == NULL || (serial == NULL && cm_card_same (result, NULL, device) == CM_CARD_PROOF_NONE))
        continue;
      remember_file (result, file);
      return g_steal_pointer (&result);
    }
  return NULL;
}

typedef struct
{
  char    *kind;
  char    *serial;
  char    *device;
  guint64  device_bytes;
} FindLast;

static void
find_last_free (FindLast *find)
{
  g_free (find->kind);
  g_free (find->serial);
  g_free (find->device);
  g_free (find);
}

static void
find_last_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  FindLast *find = task_data;
  g_autoptr(CmHistory) looker = cm_history_new (CM_HISTORY (source)->folder);
  GError *error = NULL;
  CmResult *result = cm_history_find_last (looker, find->kind, find->serial, find->device, find->device_bytes, &error);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

/* cm_history_find_last() in another thread, for an app. */
void
cm_history_find_last_async (CmHistory           *self,
                            const char          *kind,
                            const char          *serial,
                            const char          *device,
                            guint64              device_bytes,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FindLast *find;

  g_return_if_fail (CM_IS_HISTORY (self));

  find = g_new0 (FindLast, 1);
  find->kind = g_strdup (kind);
  find->serial = g_strdup (serial);
  find->device = g_strdup (device);
  find->device_bytes = device_bytes;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_history_find_last_async);
  g_task_set_task_data (task, find, (GDestroyNotify) find_last_free);
  g_task_run_in_thread (task, find_last_thread);
}

/* Returns: (transfer full) (nullable): as cm_history_find_last() */
CmResult *
cm_history_find_last_finish (CmHistory     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GFile *
cm_history_save (CmHistory  *self,
                 CmResult   *result,
                 GError    **error)
{
  g_autofree char *name = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);
  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  if (!g_file_make_directory_with_parents (self->folder, NULL, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  name = file_name_for (result);
  file = g_file_get_child (self->folder, name);
  if (!cm_result_save_compact (result, file, error))
    return NULL;
  remember_file (result, file);
  drop_earlier (self, result, file);
  update_index (self);
  if (self->store != NULL)
    {
      /* Queued first: a crash or a lost network before the send leaves
       * the document for the next command, not nowhere. */
      queue_add (self, name);
      if (self->send_in_background)
        send_in_background (self);
      else
        cm_history_send_queued (self);
    }

  return g_steal_pointer (&file);
}

static int
compare_started (gconstpointer a,
                 gconstpointer b)
{
  CmResult *ra = *(CmResult **) a;
  CmResult *rb = *(CmResult **) b;

  return g_date_time_compare (cm_result_get_started (ra), cm_result_get_started (rb));
}

/* Every readable result, oldest first. Files that are not results are
 * listed in @problems as sentences, and left where they are. */
GPtrArray *
cm_history_load (CmHistory  *self,
                 GPtrArray **problems,
                 GError    **error)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GError) local_error = NULL;
  GFileInfo *info;

  g_return_val_if_fail (CM_IS_HISTORY (self), NULL);

  enumerator = g_file_enumerate_children (self->folder,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                          G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (enumerator == NULL)
    {
      /* No history yet is an empty history. */
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }

  while (enumerator != NULL &&
         (info = g_file_enumerator_next_file (enumerator, NULL, error)) != NULL)
    {
      g_autoptr(GFileInfo) owned = info;
      const char *name = g_file_info_get_name (info);
      g_autoptr(GFile) file = NULL;
      g_autoptr(GError) file_error = NULL;
      CmResult *result;

      if (!g_str_has_suffix (name, ".json"))
        continue;

      file = g_file_get_child (self->folder, name);
      if (!check_history_file (file, info, &file_error))
        {
          g_ptr_array_add (bad, g_strdup_printf (_("Skipped %s: %s"), g_file_peek_path (file), file_error->message));
          continue;
        }

      result = cm_result_new_from_file (file, &file_error);
      if (result != NULL)
        {
          remember_file (result, file);
          g_ptr_array_add (results, result);
        }
      else
        g_ptr_array_add (bad, g_strdup_printf (_("Skipped %s: %s"), g_file_peek_path (file), file_error->message));
    }

  g_ptr_array_sort (results, compare_started);

  if (problems != NULL)
    *problems = g_steal_pointer (&bad);

  return g_steal_pointer (&results);
}
