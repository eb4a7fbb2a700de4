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

/* Takes @entry. */
static CmHistoryItem *
cm_history_item_new (CmHistoryEntry *entry)
{
  CmHistoryItem *self = g_object_new (CM_TYPE_HISTORY_ITEM, NULL);

  self->entry = entry;
  return self;
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
  if (e->kind != NULL)
    g_ptr_array_add (parts, g_strdup (cm_job_kind_get_title (e->kind)));
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

typedef struct
{
  GPtrArray *items;     /* CmHistoryItem, newest first */
  GPtrArray *problems;  /* char *: the damaged documents, named */
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_clear_pointer (&data->items, g_ptr_array_unref);
  g_clear_pointer (&data->problems, g_ptr_array_unref);
  g_free (data);
}

static gboolean
add_item_cb (CmHistoryEntry *entry,
             gpointer        user_data)
{
  LoadData *data = user_data;

  /* The index frees its entry after this: the item takes its fields. */
  CmHistoryEntry *copy = g_new (CmHistoryEntry, 1);

  *copy = *entry;
  memset (entry, 0, sizeof *entry);
  g_ptr_array_add (data->items, cm_history_item_new (copy));
  return TRUE;
}

static gboolean
add_problem_cb (CmHistoryEntry *entry,
                gpointer        user_data)
{
  LoadData *data = user_data;
  g_autofree char *base = g_path_get_basename (entry->path);
  /* A file's name and a parser's words are text from outside. */
  g_autofree char *name = cm_text_dup_clean (base, CM_TEXT_LINE_MAX);
  g_autofree char *problem = cm_text_dup_clean (entry->problem != NULL ? entry->problem : _("not a result"),
                                                CM_TEXT_FIELD_MAX);

  /* A damaged document is named, and the rest still listed. */
  g_ptr_array_add (data->problems, g_strdup_printf (_("%s could not be read: %s"), name, problem));
  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  CmHistory *history = source;
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  LoadData *data;

  /* Built from the documents when missing, brought up to date when stale. */
  if ((index = cm_history_index_open (cm_history_get_folder (history), &error)) == NULL ||
      !cm_history_index_refresh (index, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  data = g_new0 (LoadData, 1);
  data->items = g_ptr_array_new_with_free_func (g_object_unref);
  data->problems = g_ptr_array_new_with_free_func (g_free);
  cm_history_index_foreach (index, FALSE, FALSE, add_item_cb, data);
  cm_history_index_foreach (index, TRUE, FALSE, add_problem_cb, data);
  g_task_return_pointer (task, data, (GDestroyNotify) load_data_free);
}

/* Reads the history's index in a worker thread, never the documents. */
void
cm_history_items_load_async (CmHistory           *history,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CM_IS_HISTORY (history));

  task = g_task_new (history, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_history_items_load_async);
  g_task_run_in_thread (task, load_thread);
}

/* A list of CmHistoryItem, newest first; @problems names the damaged
 * documents. */
GListModel *
cm_history_items_load_finish (CmHistory     *history,
                              GAsyncResult  *result,
                              GPtrArray    **problems,
                              GError       **error)
{
  LoadData *data;
  GListStore *store;

  g_return_val_if_fail (g_task_is_valid (result, history), NULL);

  data = g_task_propagate_pointer (G_TASK (result), error);
  if (data == NULL)
    return NULL;
  store = g_list_store_new (CM_TYPE_HISTORY_ITEM);
  g_list_store_splice (store, 0, 0, data->items->pdata, data->items->len);
  if (problems != NULL)
    *problems = g_steal_pointer (&data->problems);
  load_data_free (data);
  return G_LIST_MODEL (store);
}
