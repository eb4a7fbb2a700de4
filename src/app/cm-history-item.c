/* cm-history-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * History as the index knows it: one small object a saved result, read
 * from the history index in a worker thread, never from the documents.
 * History's list view (cm-history-page.c) makes rows for what is on
 * screen only, so a history of 100 000 results is a few dozen widgets.
 * The document is read when one result is opened or compared.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-job.h"
#include "cm-summary.h"
#include "cm-text.h"

#include "cm-history-item.h"

struct _CmHistoryItem
{
  GObject         parent_instance;

  CmHistoryEntry *entry;
  char           *haystack; /* what a search looks in, case-folded */
  gboolean        picked;
};

enum {
  PROP_0,
  PROP_PICKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CmHistoryItem, cm_history_item, G_TYPE_OBJECT)

static void
cm_history_item_finalize (GObject *object)
{
  CmHistoryItem *self = CM_HISTORY_ITEM (object);

  g_clear_pointer (&self->entry, cm_history_entry_free);
  g_clear_pointer (&self->haystack, g_free);
  G_OBJECT_CLASS (cm_history_item_parent_class)->finalize (object);
}

static void
cm_history_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  CmHistoryItem *self = CM_HISTORY_ITEM (object);

  switch (prop_id)
    {
    case PROP_PICKED:
      g_value_set_boolean (value, self->picked);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_history_item_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  CmHistoryItem *self = CM_HISTORY_ITEM (object);

  switch (prop_id)
    {
    case PROP_PICKED:
      cm_history_item_set_picked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_history_item_class_init (CmHistoryItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cm_history_item_finalize;
  object_class->get_property = cm_history_item_get_property;
  object_class->set_property = cm_history_item_set_property;

  /* Ticked to be compared: kept on the item, not on a row that a
   * scroll recycles. */
  properties[PROP_PICKED] =
    g_param_spec_boolean ("picked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cm_history_item_init (CmHistoryItem *self)
{
}

/* @text without case or accents to tell apart: what a search compares. */
char *
cm_history_item_dup_folded (const char *text)
{
  g_autofree char *normal = g_utf8_normalize (text != NULL ? text : "", -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normal != NULL ? normal : "", -1);
}

static void
add_words (GString    *haystack,
           const char *words)
{
  if (words == NULL || *words == '\0')
    return;
  g_string_append (haystack, words);
  g_string_append_c (haystack, '\n');
}

/* Everything a person may search a result by, in the words the row
 * shows them: the card's name, brand, title and CID serial, the kind of
 * check, its outcome and answer, and the date, both as shown and as
 * 2026-12-03. Made once, in the thread that reads the index. */
static char *
dup_haystack (const CmHistoryEntry *e)
{
  g_autoptr(GString) haystack = g_string_new (NULL);

  add_words (haystack, e->title);
  add_words (haystack, e->name);
  add_words (haystack, e->brand);
  add_words (haystack, e->serial);
  if (e->kind != NULL)
    {
      add_words (haystack, e->kind);
      add_words (haystack, cm_job_kind_get_title (e->kind));
    }
  add_words (haystack, e->run);
  add_words (haystack, cm_history_entry_get_run_label (e));
  add_words (haystack, e->badge);
  add_words (haystack, e->answer);
  add_words (haystack, e->verdict);
  add_words (haystack, e->method);
  if (e->started > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (e->started);
      g_autoptr(GDateTime) local = g_date_time_to_local (when);
      g_autofree char *shown = cm_summary_format_date (when);
      g_autofree char *iso = g_date_time_format (local, "%Y-%m-%d");

      add_words (haystack, shown);
      add_words (haystack, iso);
    }
  return cm_history_item_dup_folded (haystack->str);
}

/* Takes @entry. */
static CmHistoryItem *
cm_history_item_new (CmHistoryEntry *entry)
{
  CmHistoryItem *self = g_object_new (CM_TYPE_HISTORY_ITEM, NULL);

  self->entry = entry;
  self->haystack = dup_haystack (entry);
  return self;
}

/* Whether every one of @words (folded: cm_history_item_dup_folded())
 * is found in what the row says of its result. */
gboolean
cm_history_item_matches (CmHistoryItem      *self,
                         const char * const *words)
{
  g_return_val_if_fail (CM_IS_HISTORY_ITEM (self), FALSE);

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (strstr (self->haystack, words[i]) == NULL)
      return FALSE;
  return TRUE;
}

const CmHistoryEntry *
cm_history_item_get_entry (CmHistoryItem *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_ITEM (self), NULL);
  return self->entry;
}

gboolean
cm_history_item_get_picked (CmHistoryItem *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_ITEM (self), FALSE);
  return self->picked;
}

void
cm_history_item_set_picked (CmHistoryItem *self,
                            gboolean       picked)
{
  g_return_if_fail (CM_IS_HISTORY_ITEM (self));

  picked = !!picked;
  if (self->picked == picked)
    return;
  self->picked = picked;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PICKED]);
}

/* "3 Dec 2026, 09:40 · Benchmark · Raw device · Meets U3 and A1", "… ·
 * Full verify · Data lost · 16 MB lost, 48 MB usable": when, what was
 * done and its answer in words, from the index. */
char *
cm_history_item_dup_facts (CmHistoryItem *self)
{
  const CmHistoryEntry *e;
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (CM_IS_HISTORY_ITEM (self), NULL);
  e = self->entry;

  if (e->started > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (e->started);

      g_ptr_array_add (parts, cm_summary_format_date (when));
    }
  if (cm_history_entry_get_run_label (e) != NULL)
    g_ptr_array_add (parts, g_strdup (cm_history_entry_get_run_label (e)));
  /* A benchmark's method changes what it can judge: it is said too. */
  if (e->method != NULL)
    g_ptr_array_add (parts, g_strdup (e->method));
  g_ptr_array_add (parts, g_strdup (e->answer != NULL ? e->answer : _("No class judged")));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

/* The document itself, read now: to open or compare this one result. */
CmResult *
cm_history_item_load_result (CmHistoryItem  *self,
                             GError        **error)
{
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (CM_IS_HISTORY_ITEM (self), NULL);

  file = g_file_new_for_path (self->entry->path);
  return cm_result_new_from_file (file, error);
}

/* The first batch fills a screen; later ones grow, so that 100 000
 * results are a few dozen batches, each a short turn of the main loop. */
#define FIRST_BATCH 50
#define MAX_BATCH   4000

typedef struct
{
  CmHistoryBatchFunc  func;       /* NULL: everything in one go (load_async) */
  gpointer            func_data;
  GMainContext       *context;
  GCancellable       *cancellable;
  GPtrArray          *items;      /* CmHistoryItem, newest first */
  GPtrArray          *problems;   /* char *: the damaged documents, named */
  guint               n_read;
  guint               n_total;
  guint               batch_size;
} Stream;

static void
stream_free (Stream *stream)
{
  g_clear_pointer (&stream->items, g_ptr_array_unref);
  g_clear_pointer (&stream->problems, g_ptr_array_unref);
  g_clear_object (&stream->cancellable);
  g_clear_pointer (&stream->context, g_main_context_unref);
  g_free (stream);
}

typedef struct
{
  CmHistoryBatchFunc  func;
  gpointer            func_data;
  GCancellable       *cancellable;
  CmHistoryBatch      batch;
} Delivery;

static void
delivery_free (Delivery *delivery)
{
  g_clear_pointer (&delivery->batch.items, g_ptr_array_unref);
  g_clear_pointer (&delivery->batch.problems, g_ptr_array_unref);
  g_clear_object (&delivery->cancellable);
  g_free (delivery);
}

/* In the main context: a load that was cancelled has no one to tell (the
 * page that asked may be gone). */
static gboolean
deliver_cb (gpointer data)
{
  Delivery *delivery = data;

  if (delivery->cancellable == NULL || !g_cancellable_is_cancelled (delivery->cancellable))
    delivery->func (&delivery->batch, delivery->func_data);
  return G_SOURCE_REMOVE;
}

/* Hands what was read since the last batch to the main context, at the
 * load's priority, below drawing: the window keeps drawing between two
 * batches, and they arrive in order, before the load's end. */
static void
stream_flush (Stream *stream,
              guint   n_documents)
{
  Delivery *delivery;

  if (stream->func == NULL)
    return;
  delivery = g_new0 (Delivery, 1);
  delivery->func = stream->func;
  delivery->func_data = stream->func_data;
  delivery->cancellable = stream->cancellable != NULL ? g_object_ref (stream->cancellable) : NULL;
  delivery->batch.items = g_steal_pointer (&stream->items);
  delivery->batch.problems = g_steal_pointer (&stream->problems);
  delivery->batch.n_read = stream->n_read;
  delivery->batch.n_total = stream->n_total;
  delivery->batch.n_documents = n_documents;
  stream->items = g_ptr_array_new_with_free_func (g_object_unref);
  stream->problems = g_ptr_array_new_with_free_func (g_free);
  g_main_context_invoke_full (stream->context, G_PRIORITY_DEFAULT_IDLE, deliver_cb, delivery,
                              (GDestroyNotify) delivery_free);
  /* The count of documents before a first build brings no results:
   * the first batch still fills a screen. */
  if (n_documents == 0)
    stream->batch_size = MIN (stream->batch_size * 2, MAX_BATCH);
}

static gboolean
add_item_cb (CmHistoryEntry *entry,
             gpointer        user_data)
{
  Stream *stream = user_data;

  /* The index frees its entry after this: the item takes its fields. */
  CmHistoryEntry *copy = g_new (CmHistoryEntry, 1);

  *copy = *entry;
  memset (entry, 0, sizeof *entry);
  g_ptr_array_add (stream->items, cm_history_item_new (copy));
  stream->n_read++;
  if (stream->func != NULL && stream->items->len >= stream->batch_size)
    stream_flush (stream, 0);
  return !g_cancellable_is_cancelled (stream->cancellable);
}

static gboolean
add_problem_cb (CmHistoryEntry *entry,
                gpointer        user_data)
{
  Stream *stream = user_data;
  g_autofree char *base = g_path_get_basename (entry->path);
  /* A file's name and a parser's words are text from outside. */
  g_autofree char *name = cm_text_dup_clean (base, CM_TEXT_LINE_MAX);
  g_autofree char *problem = cm_text_dup_clean (entry->problem != NULL ? entry->problem : _("not a result"),
                                                CM_TEXT_FIELD_MAX);

  /* A damaged document is named, and the rest still listed. */
  g_ptr_array_add (stream->problems, g_strdup_printf (_("%s could not be read: %s"), name, problem));
  stream->n_read++;
  return !g_cancellable_is_cancelled (stream->cancellable);
}

/* How many documents the folder holds, told while their index is first
 * built (cm-history-index.c offers no progress of its own yet). */
static guint
count_documents (GFile *folder)
{
  g_autofree char *path = g_file_get_path (folder);
  g_autoptr(GDir) dir = path != NULL ? g_dir_open (path, 0, NULL) : NULL;
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    n += g_str_has_suffix (name, ".json");
  return n;
}

static void
stream_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  CmHistory *history = source;
  Stream *stream = task_data;
  GFile *folder = cm_history_get_folder (history);
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  /* A first build reads every document: say how many there are. */
  if (stream->func != NULL && !cm_history_index_exists (folder))
    stream_flush (stream, count_documents (folder));

  /* Built from the documents when missing, brought up to date when stale. */
  if ((index = cm_history_index_open (folder, &error)) == NULL ||
      !cm_history_index_refresh (index, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  stream->n_total = cm_history_index_count (index);
  cm_history_index_foreach (index, FALSE, FALSE, add_item_cb, stream);
  cm_history_index_foreach (index, TRUE, FALSE, add_problem_cb, stream);
  if (g_task_return_error_if_cancelled (task))
    return;
  stream_flush (stream, 0);
  g_task_return_boolean (task, TRUE);
}

static GTask *
stream_task_new (CmHistory           *history,
                 CmHistoryBatchFunc   func,
                 gpointer             func_data,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  GTask *task = g_task_new (history, cancellable, callback, user_data);
  Stream *stream = g_new0 (Stream, 1);

  stream->func = func;
  stream->func_data = func_data;
  stream->context = g_main_context_ref_thread_default ();
  stream->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  stream->items = g_ptr_array_new_with_free_func (g_object_unref);
  stream->problems = g_ptr_array_new_with_free_func (g_free);
  stream->batch_size = FIRST_BATCH;
  g_task_set_task_data (task, stream, (GDestroyNotify) stream_free);
  /* The end comes after the last batch: both wait below drawing. */
  g_task_set_priority (task, G_PRIORITY_DEFAULT_IDLE);
  return task;
}

/**
 * cm_history_items_stream_async:
 * @func: called in this thread's main context with each batch of
 *   results read, newest first, never once @cancellable is cancelled
 *
 * Reads the history's index in a worker thread (built or brought up to
 * date from the folder first), never the documents, and hands the
 * results on in batches as they are read: the first few dozen at once,
 * so a long history shows its newest results before the rest is read.
 * Nothing that grows with the history runs in this thread but adding
 * each batch.
 */
void
cm_history_items_stream_async (CmHistory           *history,
                               CmHistoryBatchFunc   func,
                               gpointer             func_data,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CM_IS_HISTORY (history));
  g_return_if_fail (func != NULL);

  task = stream_task_new (history, func, func_data, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_history_items_stream_async);
  g_task_run_in_thread (task, stream_thread);
}

/* Whether every batch was handed on. */
gboolean
cm_history_items_stream_finish (CmHistory     *history,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, history), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Reads the history's index in a worker thread, never the documents:
 * every result in one go. */
void
cm_history_items_load_async (CmHistory           *history,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CM_IS_HISTORY (history));

  task = stream_task_new (history, NULL, NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_history_items_load_async);
  g_task_run_in_thread (task, stream_thread);
}

/* A list of CmHistoryItem, newest first; @problems names the damaged
 * documents. */
GListModel *
cm_history_items_load_finish (CmHistory     *history,
                              GAsyncResult  *result,
                              GPtrArray    **problems,
                              GError       **error)
{
  Stream *stream;
  GListStore *store;

  g_return_val_if_fail (g_task_is_valid (result, history), NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  stream = g_task_get_task_data (G_TASK (result));
  store = g_list_store_new (CM_TYPE_HISTORY_ITEM);
  g_list_store_splice (store, 0, 0, stream->items->pdata, stream->items->len);
  if (problems != NULL)
    *problems = g_steal_pointer (&stream->problems);
  return G_LIST_MODEL (store);
}
