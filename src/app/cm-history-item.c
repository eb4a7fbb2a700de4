/* cm-history-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * History as the index knows it: one small object a saved result, read
 * from the history index in a worker thread, never from the documents.
 * A list view over them makes rows for what is on screen only, so a
 * history of 100 000 results is a few dozen widgets. The document is
 * read when one result is opened or compared.
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

/* "3 Dec 2026, 09:40 · Benchmark · quick · Write 18.2 MB/s · Read
 * 45.1 MB/s": when, what was done and the figures the index keeps; the
 * verdict has a line of its own. */
char *
cm_history_item_dup_facts (CmHistoryItem *self)
{
  const CmHistoryEntry *e;
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  const char *labels[] = { N_("Write"), N_("Read"), N_("4K write"), N_("4K read") };

  g_return_val_if_fail (CM_IS_HISTORY_ITEM (self), NULL);
  e = self->entry;

  if (e->started > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (e->started);

      g_ptr_array_add (parts, g_date_time_format (when, "%-d %b %Y, %H:%M"));
    }
  if (e->kind != NULL)
    g_ptr_array_add (parts, g_strdup (cm_job_kind_get_title (e->kind)));
  if (e->kind != NULL && e->run != NULL && cm_job_kind_measures_speed (e->kind))
    g_ptr_array_add (parts, g_strdup (e->run));
  for (guint i = 0; i < G_N_ELEMENTS (e->figures); i++)
    if (e->figures[i] >= 0)
      g_ptr_array_add (parts, g_strdup_printf (i < 2 ? "%s %.1f MB/s" : "%s %.0f IOPS",
                                               _(labels[i]), e->figures[i]));
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

static guint n_rows_made;

/* A row as History's list box had them (an AdwActionRow is a list box
 * row, which a list view cannot hold): the tick, the card, when and what
 * with its figures, the verdict in its colour. */
static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *facts = gtk_label_new (NULL);
  GtkWidget *verdict = gtk_label_new (NULL);
  GtkWidget *go = gtk_image_new_from_icon_name ("go-next-symbolic");

  n_rows_made++;
  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 8);
  gtk_widget_set_margin_bottom (row, 8);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (title), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (facts), 0);
  gtk_label_set_wrap (GTK_LABEL (facts), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (facts), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (facts, "dim-label");
  gtk_widget_add_css_class (facts, "caption");
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (verdict), 0);
  gtk_label_set_wrap (GTK_LABEL (verdict), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (verdict), PANGO_WRAP_WORD_CHAR);
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), verdict);
  gtk_box_append (GTK_BOX (text), facts);
  gtk_box_append (GTK_BOX (row), check);
  gtk_box_append (GTK_BOX (row), text);
  gtk_box_append (GTK_BOX (row), go);
  g_object_set_data (G_OBJECT (row), "cm-check", check);
  g_object_set_data (G_OBJECT (row), "cm-title", title);
  g_object_set_data (G_OBJECT (row), "cm-facts", facts);
  g_object_set_data (G_OBJECT (row), "cm-verdict", verdict);
  gtk_list_item_set_child (list_item, row);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item)
{
  CmHistoryItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *row = gtk_list_item_get_child (list_item);
  GtkWidget *check = g_object_get_data (G_OBJECT (row), "cm-check");
  GtkWidget *verdict = g_object_get_data (G_OBJECT (row), "cm-verdict");
  const CmHistoryEntry *e = item->entry;
  g_autofree char *facts = cm_history_item_dup_facts (item);
  g_autofree char *pick = NULL;
  g_autofree char *tone = NULL;
  const char *title = e->title != NULL ? e->title : e->path;
  GBinding *binding;

  /* Card names and file paths are text, not markup. */
  gtk_label_set_text (g_object_get_data (G_OBJECT (row), "cm-title"), title);
  gtk_label_set_text (g_object_get_data (G_OBJECT (row), "cm-facts"), facts);
  /* The verdict in its colour: meets, marginal, below. */
  gtk_label_set_text (GTK_LABEL (verdict), e->verdict != NULL && e->verdict[0] != '\0' ? e->verdict
                                                                                      : _("No class judged"));
  if (e->tone != CM_STATUS_NOT_JUDGED)
    {
      tone = g_strdup_printf ("status-%s", cm_status_to_string (e->tone));
      gtk_widget_add_css_class (verdict, tone);
    }
  g_object_set_data_full (G_OBJECT (row), "cm-tone", g_steal_pointer (&tone), g_free);
  /* GTK 4.8 names nothing after a row: the box says what it picks. */
  pick = g_strdup_printf (_("Compare %s"), title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, pick, -1);
  binding = g_object_bind_property (item, "picked", check, "active",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (row), "cm-binding", binding);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  GtkWidget *row = gtk_list_item_get_child (list_item);
  GtkWidget *verdict = g_object_get_data (G_OBJECT (row), "cm-verdict");
  GBinding *binding = g_object_get_data (G_OBJECT (row), "cm-binding");
  const char *tone = g_object_get_data (G_OBJECT (row), "cm-tone");

  if (tone != NULL)
    gtk_widget_remove_css_class (verdict, tone);
  g_object_set_data (G_OBJECT (row), "cm-tone", NULL);
  if (binding != NULL)
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (row), "cm-binding", NULL);
}

/* A list view over @items (CmHistoryItem): rows are made for what is on
 * screen and reused as it scrolls. Activating a row (a click or Enter)
 * emits GtkListView::activate with its position. */
GtkWidget *
cm_history_list_view_new (GListModel *items)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkSelectionModel *selection = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (items)));
  GtkWidget *view;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), NULL);
  view = gtk_list_view_new (selection, factory);
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (view), TRUE);
  gtk_widget_add_css_class (view, "rich-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Saved Results"), -1);
  return view;
}

/* How many row widgets the list views have made in this process. */
guint
cm_history_list_view_count_rows (void)
{
  return n_rows_made;
}
