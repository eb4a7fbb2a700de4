/* cm-history-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every saved result, newest first, with its headline figures and
 * verdict; tick several to compare them on one chart, one colour per
 * card. Files in the history folder that are not results are listed as
 * problems and never touched.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-batch-report.h"
#include "cm-chart.h"
#include "cm-result-page.h"
#include "cm-summary.h"
#include "cm-toast.h"

#include "cm-history-item.h"
#include "cm-job.h"
#include "cm-text.h"
#include "cm-outcome-badge.h"
#include "cm-verify.h"

#include "cm-history-page.h"

struct _CmHistoryPage
{
  GtkBox               parent_instance;

  CmHistory           *history;
  GListStore          *items;     /* CmHistoryItem, newest first, from the index */
  GtkFilterListModel  *shown;     /* items that match the search: the list's rows */
  GtkCustomFilter     *filter;
  char               **words;     /* the search, folded, a word each; NULL for none */
  gboolean             replacing; /* a load's first batch replaces what is listed */
  GPtrArray           *pending;   /* CmHistoryItem read, not listed yet */
  guint                tick_id;   /* lists them a few at a time, a frame each */
  guint                n_total;   /* the index's entries, of the load in flight */
  GHashTable          *picked;    /* CmHistoryItem ticked → itself */
  GHashTable          *rows;      /* row widget shown → its GtkListItem */
  GPtrArray           *problems;  /* char * */
  GPtrArray           *problem_rows;
  GCancellable        *loading;   /* the load in flight, or NULL */
  char                *empty_title;
  char                *empty_description;
  guint                n_rows_made;

  GtkStack            *stack;
  AdwStatusPage       *empty_page;
  GtkListView         *list_view;
  GtkLabel            *count_label;
  GtkSearchEntry      *search_entry;
  GtkStack            *results_stack;
  AdwStatusPage       *no_match_page;
  GtkWidget           *problems_list;
  AdwExpanderRow      *problems_row;
  CmChartView         *summary_chart;
  CmChartView         *time_chart;
  GtkGrid             *compare_grid;
  AdwPreferencesGroup *batch_group;
  GtkGrid             *batch_grid;
  GtkWidget           *figures_group;
  GtkWidget           *speed_group;
  GtkWidget           *time_group;

  GPtrArray           *batch;     /* CmBatchRow of the comparison shown */
};

enum {
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_OPEN_RESULT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (CmHistoryPage, cm_history_page, GTK_TYPE_BOX)

/* Comparisons chart speed tests, which only a benchmark has. */
static gboolean
is_charted (CmHistoryItem *item)
{
  const char *kind = cm_history_item_get_entry (item)->kind;

  return kind != NULL && cm_job_kind_measures_speed (kind);
}

/* How many results are ticked; with @charted, only the benchmarks, which
 * the charts draw. */
static guint
count_picked (CmHistoryPage *self,
              gboolean       charted)
{
  GHashTableIter iter;
  gpointer item;
  guint n = 0;

  if (!charted)
    return g_hash_table_size (self->picked);
  g_hash_table_iter_init (&iter, self->picked);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    n += is_charted (item);
  return n;
}

static CmHistoryItem *
row_get_item (GtkWidget *row)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (row), "cm-list-item");

  return list_item != NULL ? gtk_list_item_get_item (list_item) : NULL;
}

/* A chart tells CM_CHART_MAX_RESULTS cards apart, one colour each: once
 * that many benchmarks are ticked, the others wait. Any check can join
 * the batch report. Only the rows on screen have a box to grey out. */
static void
update_compare (CmHistoryPage *self)
{
  gboolean room = count_picked (self, TRUE) < CM_CHART_MAX_RESULTS;
  GHashTableIter iter;
  gpointer row;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.compare", count_picked (self, FALSE) >= 2);
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    {
      CmHistoryItem *item = row_get_item (row);
      GtkWidget *check = g_object_get_data (G_OBJECT (row), "cm-check");

      if (item != NULL)
        gtk_widget_set_sensitive (check, !is_charted (item) || room || cm_history_item_get_picked (item));
    }
}

/* What the page says of its list: how many results (how many match the
 * search), while a load reads them how far it is, and whether the search
 * left any. Called whenever the list changes, so the count is right
 * after a Delete too. */
static void
update_views (CmHistoryPage *self)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  guint n_shown;
  gboolean searching = self->words != NULL;
  gboolean filtering = gtk_filter_list_model_get_pending (self->shown) > 0;
  g_autofree char *count = NULL;

  /* A new load shows what was listed until its first rows come. */
  if (self->loading != NULL && self->replacing)
    return;
  n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->shown));

  /* How far: what is listed, of what the index holds. */
  if (self->loading != NULL || self->pending->len > 0)
    /* Translators: History's count while it reads a long history: "Reading the History… 1200 of 5000" */
    count = g_strdup_printf (_("Reading the History… %u of %u"), n_items + self->problems->len, self->n_total);
  else if (searching)
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u result matches the search.",
                                          "%u results match the search.", n_shown),
                             n_shown);
  else
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u saved result. Tick two or more to compare them.",
                                          "%u saved results. Tick two or more to compare them.", n_items),
                             n_items);
  gtk_label_set_text (self->count_label, count);

  gtk_stack_set_visible_child_name (self->results_stack,
                                    searching && n_shown == 0 && n_items > 0 && !filtering ? "no-match" : "rows");
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "compare") != 0)
    gtk_stack_set_visible_child_name (self->stack,
                                      n_items > 0 || (self->problems != NULL && self->problems->len > 0) ? "list"
                                                                                                          : "empty");
}

/* Ticks or unticks @item; a benchmark where the chart has no colour left
 * is refused. Returns whether it is ticked now. */
static gboolean
pick_item (CmHistoryPage *self,
           CmHistoryItem *item,
           gboolean       picked)
{
  if (picked && !cm_history_item_get_picked (item) && is_charted (item) &&
      count_picked (self, TRUE) >= CM_CHART_MAX_RESULTS)
    return FALSE;
  cm_history_item_set_picked (item, picked);
  if (picked)
    g_hash_table_add (self->picked, g_object_ref (item));
  else
    g_hash_table_remove (self->picked, item);
  update_compare (self);
  return picked;
}

static void
check_toggled_cb (GtkCheckButton *check,
                  CmHistoryPage  *self)
{
  GtkWidget *row = g_object_get_data (G_OBJECT (check), "cm-row");
  CmHistoryItem *item = row_get_item (row);
  gboolean active = gtk_check_button_get_active (check);

  /* A row being bound shows its item's tick: nothing changes. */
  if (item == NULL || active == cm_history_item_get_picked (item))
    return;
  if (pick_item (self, item, active) != active)
    gtk_check_button_set_active (check, FALSE);
}

/* The document of @item, read now; said in a toast when it cannot be. */
static CmResult *
load_item (CmHistoryPage *self,
           CmHistoryItem *item)
{
  g_autoptr(GError) error = NULL;
  CmResult *result = cm_history_item_load_result (item, &error);

  if (result == NULL)
    {
      g_autofree char *clean = cm_text_dup_clean (error->message, CM_TEXT_FIELD_MAX);

      cm_toast_show (GTK_WIDGET (self), clean);
    }
  return result;
}

static void
open_item (CmHistoryPage *self,
           CmHistoryItem *item)
{
  g_autoptr(CmResult) result = load_item (self, item);

  if (result != NULL)
    g_signal_emit (self, signals[SIGNAL_OPEN_RESULT], 0, result);
}

static void
activate_cb (GtkListView   *view,
             guint          position,
             CmHistoryPage *self)
{
  g_autoptr(CmHistoryItem) item = g_list_model_get_item (G_LIST_MODEL (self->shown), position);

  if (item != NULL)
    open_item (self, item);
}

static void
open_clicked_cb (GtkButton     *button,
                 CmHistoryPage *self)
{
  CmHistoryItem *item = row_get_item (g_object_get_data (G_OBJECT (button), "cm-row"));

  if (item != NULL)
    open_item (self, item);
}

static int
compare_places (gconstpointer a,
                gconstpointer b)
{
  guint pa = *(const guint *) a, pb = *(const guint *) b;

  return pa < pb ? -1 : pa > pb;
}

static gboolean
find_item (CmHistoryPage *self,
           CmHistoryItem *item,
           guint         *position)
{
  return g_list_store_find (self->items, item, position);
}

static gboolean
delete_item (CmHistoryPage  *self,
             CmHistoryItem  *item,
             GError        **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (cm_history_item_get_entry (item)->path);
  guint position;

  if (!cm_history_delete_file (self->history, file, error))
    return FALSE;
  /* The rest of the list, its ticks and where it is scrolled, stay. */
  g_hash_table_remove (self->picked, item);
  if (find_item (self, item, &position))
    g_list_store_remove (self->items, position);
  update_compare (self);
  update_views (self);
  cm_toast_show (GTK_WIDGET (self), _("Result deleted."));
  return TRUE;
}

static void
delete_response_cb (CmHistoryPage    *self,
                    const char       *response,
                    AdwMessageDialog *dialog)
{
  CmHistoryItem *item = g_object_get_data (G_OBJECT (dialog), "cm-item");
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "delete") != 0)
    return;
  if (!delete_item (self, item, &error))
    cm_toast_show (GTK_WIDGET (self), error->message);
}

/* Deleting loses a measurement for good, so it is asked first. */
static void
delete_clicked_cb (GtkButton     *button,
                   CmHistoryPage *self)
{
  CmHistoryItem *item = row_get_item (g_object_get_data (G_OBJECT (button), "cm-row"));
  const CmHistoryEntry *e;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *date = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (item == NULL)
    return;
  e = cm_history_item_get_entry (item);
  if (e->started > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (e->started);

      date = cm_summary_format_date (when);
    }
  body = g_strdup_printf (_("The result of %s, tested %s, is removed from the history for good."),
                          e->title != NULL ? e->title : "?", date != NULL ? date : "?");
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Delete This Result?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "cm-item", g_object_ref (item), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static GtkWidget *
new_row_button (GtkWidget     *row,
                const char    *icon,
                const char    *tooltip,
                GCallback      callback,
                CmHistoryPage *self)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  /* An icon has no name to read out: the tooltip's words are it. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "cm-row", row);
  g_signal_connect_object (button, "clicked", callback, self, 0);
  return button;
}

static GtkWidget *
new_wrapping_label (const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* A row as History's list box had them (an AdwActionRow is a list box
 * row, which a list view cannot hold): the tick, the card, when and what
 * with its answer and figures, the outcome's badge, Delete and Open. Made
 * for the rows on screen only, and given another result as it scrolls. */
static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              CmHistoryPage            *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *title = new_wrapping_label (NULL);
  GtkWidget *subtitle = new_wrapping_label ("dim-label");
  GtkWidget *badge = gtk_label_new (NULL);

  self->n_rows_made++;
  gtk_widget_add_css_class (row, "history-row");
  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 6);
  gtk_widget_set_margin_top (row, 9);
  gtk_widget_set_margin_bottom (row, 9);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), subtitle);
  gtk_box_append (GTK_BOX (row), check);
  gtk_box_append (GTK_BOX (row), text);
  gtk_box_append (GTK_BOX (row), badge);
  gtk_box_append (GTK_BOX (row), new_row_button (row, "user-trash-symbolic", _("Delete This Result"),
                                                 G_CALLBACK (delete_clicked_cb), self));
  gtk_box_append (GTK_BOX (row), new_row_button (row, "go-next-symbolic", _("Open This Result"),
                                                 G_CALLBACK (open_clicked_cb), self));
  g_object_set_data (G_OBJECT (row), "cm-check", check);
  g_object_set_data (G_OBJECT (row), "cm-title", title);
  g_object_set_data (G_OBJECT (row), "cm-subtitle", subtitle);
  g_object_set_data (G_OBJECT (row), "cm-badge", badge);
  g_object_set_data (G_OBJECT (check), "cm-row", row);
  g_signal_connect_object (check, "toggled", G_CALLBACK (check_toggled_cb), self, 0);
  gtk_list_item_set_child (list_item, row);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             CmHistoryPage            *self)
{
  CmHistoryItem *item = gtk_list_item_get_item (list_item);
  const CmHistoryEntry *e = cm_history_item_get_entry (item);
  GtkWidget *row = gtk_list_item_get_child (list_item);
  GtkWidget *check = g_object_get_data (G_OBJECT (row), "cm-check");
  GtkWidget *badge = g_object_get_data (G_OBJECT (row), "cm-badge");
  g_autofree char *facts = cm_history_item_dup_facts (item);
  g_autofree char *subtitle = NULL;
  g_autofree char *pick = NULL;
  const char *title = e->title != NULL ? e->title : e->path;

  g_object_set_data (G_OBJECT (row), "cm-list-item", list_item);
  g_hash_table_insert (self->rows, row, list_item);

  /* Card names and file paths are text, not markup. */
  gtk_label_set_text (g_object_get_data (G_OBJECT (row), "cm-title"), title);
  subtitle = e->figures_text != NULL && e->figures_text[0] != '\0' ? g_strdup_printf ("%s\n%s", facts, e->figures_text)
                                                                   : g_strdup (facts);
  gtk_label_set_text (g_object_get_data (G_OBJECT (row), "cm-subtitle"), subtitle);

  /* Its outcome in its kind's own words: Meets, Fake, Data lost, Stopped. */
  if (e->badge != NULL && (e->answer != NULL || e->outcome != CM_OUTCOME_NOT_JUDGED))
    {
      CmOutcome outcome = { .status = e->outcome, .tone = e->tone, .badge = e->badge };

      cm_outcome_badge_update (badge, &outcome);
      gtk_widget_set_visible (badge, TRUE);
    }
  else
    gtk_widget_set_visible (badge, FALSE);

  /* The list's row (GTK 4.8 has no accessible label on a list item: it
   * is set on the row widget that holds ours) is named after its card,
   * and described by what the row says of it. */
  if (gtk_widget_get_parent (row) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (row)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle,
                                    -1);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), cm_history_item_get_picked (item));
  /* GTK 4.8 names nothing after a row: the box says what it picks. */
  pick = g_strdup_printf (_("Compare %s"), title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, pick, -1);
  gtk_widget_set_tooltip_text (check, is_charted (item) ? NULL
                                      : _("Tick to add this card to the batch report; only benchmarks are charted"));
  update_compare (self);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               CmHistoryPage            *self)
{
  GtkWidget *row = gtk_list_item_get_child (list_item);

  g_hash_table_remove (self->rows, row);
  g_object_set_data (G_OBJECT (row), "cm-list-item", NULL);
}

static void
clear_problems (CmHistoryPage *self)
{
  for (guint i = 0; i < self->problem_rows->len; i++)
    adw_expander_row_remove (self->problems_row, g_ptr_array_index (self->problem_rows, i));
  g_ptr_array_set_size (self->problem_rows, 0);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
}

/* The files that are not results, folded under one row above the list:
 * named, never touched. */
static void
add_problems (CmHistoryPage *self,
              GPtrArray     *more)
{
  g_autofree char *title = NULL;

  for (guint i = 0; more != NULL && i < more->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      const char *problem = g_ptr_array_index (more, i);

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), problem);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      adw_expander_row_add_row (self->problems_row, row);
      g_ptr_array_add (self->problem_rows, row);
      g_ptr_array_add (self->problems, g_strdup (problem));
    }
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u File Could Not Be Read", "%u Files Could Not Be Read",
                                        self->problems->len),
                           self->problems->len);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->problems_row), title);
  gtk_widget_set_visible (self->problems_list, self->problems->len > 0);
}

/* A row is a dozen widgets whose wrapped words take milliseconds to lay
 * out, and GTK 4.8's list view makes rows for the first 200 results at
 * once: the first results are listed a few a frame, so the window draws
 * between them; past those (their rows made), the rest at once, as no
 * row is made for them until they are scrolled to. */
#define ROWS_A_FRAME 4
#define ROWS_MADE_AHEAD 200

static void
list_some (CmHistoryPage *self,
           guint          n)
{
  n = MIN (n, self->pending->len);
  g_list_store_splice (self->items, g_list_model_get_n_items (G_LIST_MODEL (self->items)), 0,
                       self->pending->pdata, n);
  g_ptr_array_remove_range (self->pending, 0, n);
}

static gboolean
list_tick_cb (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  CmHistoryPage *self = CM_HISTORY_PAGE (widget);
  guint listed = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  list_some (self, listed < ROWS_MADE_AHEAD ? ROWS_A_FRAME : self->pending->len);
  update_views (self);
  if (self->pending->len > 0)
    return G_SOURCE_CONTINUE;
  self->tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
stop_listing (CmHistoryPage *self)
{
  if (self->tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
  self->tick_id = 0;
}

/* Off screen, no row is made: everything is listed at once. */
static void
list_pending (CmHistoryPage *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      stop_listing (self);
      list_some (self, self->pending->len);
      update_views (self);
      return;
    }
  if (self->tick_id == 0 && self->pending->len > 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), list_tick_cb, NULL, NULL);
}

/* Forgets what was listed and ticked: a load's first batch replaces it. */
static void
clear_list (CmHistoryPage *self)
{
  clear_problems (self);
  self->problems = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_remove_all (self->picked);
  stop_listing (self);
  g_ptr_array_set_size (self->pending, 0);
  g_list_store_remove_all (self->items);
  gtk_widget_set_visible (self->problems_list, FALSE);
}

/* Before a first build of the index: how many documents it reads. */
static void
show_indexing (CmHistoryPage *self,
               guint          n_documents)
{
  g_autofree char *text = NULL;

  if (!self->replacing)
    return;
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Indexing %u saved result. Later, History opens at once.",
                                       "Indexing %u saved results. Later, History opens at once.",
                                       n_documents),
                          n_documents);
  adw_status_page_set_description (self->empty_page, text);
}

/* A batch of the load in flight, newest first after the batches before:
 * added at the end of the list, so the rows on screen stay, and the
 * window draws between two batches. */
static void
batch_cb (const CmHistoryBatch *batch,
          gpointer              user_data)
{
  CmHistoryPage *self = user_data;

  if (batch->n_documents > 0)
    {
      show_indexing (self, batch->n_documents);
      return;
    }
  if (self->replacing)
    {
      clear_list (self);
      self->replacing = FALSE;
    }
  self->n_total = batch->n_total;
  for (guint i = 0; i < batch->items->len; i++)
    g_ptr_array_add (self->pending, g_object_ref (g_ptr_array_index (batch->items, i)));
  list_pending (self);
  if (batch->problems->len > 0)
    add_problems (self, batch->problems);
  update_views (self);
}

static void
show_error (CmHistoryPage *self,
            const GError  *error)
{
  g_autofree char *path = g_file_get_path (cm_history_get_folder (self->history));
  g_autofree char *text = g_strdup_printf (_("%s\n\nCheck that %s can be read, then open the history again."),
                                           error->message, path);

  clear_list (self);
  adw_status_page_set_title (self->empty_page, _("The History Could Not Be Read"));
  adw_status_page_set_description (self->empty_page, text);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  CmHistoryPage *self;

  cm_history_items_stream_finish (CM_HISTORY (source), result, &error);

  /* Cancelled: the page may be gone (disposing cancels), or a newer load
   * replaced this one. Either way nothing here is to be touched. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = CM_HISTORY_PAGE (user_data);
  g_clear_object (&self->loading);
  if (self->replacing)
    clear_list (self);
  self->replacing = FALSE;
  if (error != NULL)
    show_error (self, error);
  else
    {
      adw_status_page_set_title (self->empty_page, self->empty_title);
      adw_status_page_set_description (self->empty_page, self->empty_description);
      update_views (self);
    }
  update_compare (self);
}

/* Reads the history's index again (brought up to date from the folder
 * first), forgetting what was ticked, in a worker thread, in batches:
 * the documents themselves are read only when one is opened or
 * compared. The search stays. */
void
cm_history_page_reload (CmHistoryPage *self)
{
  g_return_if_fail (CM_IS_HISTORY_PAGE (self));

  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  self->loading = g_cancellable_new ();
  self->replacing = TRUE;
  self->n_total = 0;

  /* The first time, nothing is shown yet: say what is happening. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->items)) == 0 && self->problems == NULL)
    {
      adw_status_page_set_title (self->empty_page, _("Reading the History…"));
      adw_status_page_set_description (self->empty_page, NULL);
    }

  cm_history_items_stream_async (self->history, batch_cb, self, self->loading, loaded_cb, self);
}

/* Whether a reload is still reading the history, or a search still
 * looking through what was read. */
gboolean
cm_history_page_get_loading (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  return self->loading != NULL || self->pending->len > 0 || gtk_filter_list_model_get_pending (self->shown) > 0;
}

/* Splits @folded at white space: the words a result must all have, or
 * NULL for none. */
static char **
split_words (const char *folded)
{
  g_auto(GStrv) parts = g_strsplit_set (folded, " \t\n", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) words = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      g_strv_builder_add (builder, parts[i]);
  words = g_strv_builder_end (builder);
  return words[0] != NULL ? g_steal_pointer (&words) : NULL;
}

static gboolean
match_cb (gpointer item,
          gpointer user_data)
{
  CmHistoryPage *self = user_data;

  return cm_history_item_matches (item, (const char * const *) self->words);
}

/* As the search changes, the list is filtered again, a chunk at a time
 * so the window keeps drawing; a longer search looks only through what
 * the shorter one left. */
static void
search_changed_cb (CmHistoryPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *folded = cm_history_item_dup_folded (text);
  g_auto(GStrv) before = g_steal_pointer (&self->words);
  g_autofree char *was = before != NULL ? g_strjoinv (" ", before) : g_strdup ("");
  g_autofree char *is = NULL;
  g_autofree char *clean = cm_text_dup_clean (text, CM_TEXT_LINE_MAX);
  g_autofree char *description = NULL;
  GtkFilterChange change = GTK_FILTER_CHANGE_DIFFERENT;

  self->words = split_words (folded);
  is = self->words != NULL ? g_strjoinv (" ", self->words) : g_strdup ("");
  if (g_str_equal (was, is))
    return;
  if (g_str_has_prefix (is, was))
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (g_str_has_prefix (was, is))
    change = GTK_FILTER_CHANGE_LESS_STRICT;

  /* Translators: History's search found nothing; %s is what was searched for */
  description = g_strdup_printf (_("No saved result has “%s” in its card, serial, check, outcome or date."), clean);
  adw_status_page_set_description (self->no_match_page, description);
  gtk_filter_changed (GTK_FILTER (self->filter), change);
  update_views (self);
}

/* Escape empties the search: every result is listed again. */
static void
stop_search_cb (CmHistoryPage *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  CmHistoryPage *self = CM_HISTORY_PAGE (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
csv_chosen_cb (CmHistoryPage        *self,
               int                   response,
               GtkFileChooserNative *native)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->batch != NULL)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      if (!cm_history_page_export_csv (self, file, &error))
        cm_toast_show (GTK_WIDGET (self), error->message);
      else
        cm_toast_show (GTK_WIDGET (self), _("Batch report saved."));
    }
  g_object_unref (native);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  CmHistoryPage *self = CM_HISTORY_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d-%H%M");
  g_autofree char *name = g_strdup_printf ("cardmark-batch-%s.csv", stamp);
  GtkFileChooserNative *native;

  if (self->batch == NULL)
    return;
  native = gtk_file_chooser_native_new (_("Export Batch Report"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  g_signal_connect_object (native, "response", G_CALLBACK (csv_chosen_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
view_changed_cb (CmHistoryPage *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

static void
cm_history_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  CmHistoryPage *self = CM_HISTORY_PAGE (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_string (value, cm_history_page_get_view (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  cm_history_page_compare (CM_HISTORY_PAGE (widget));
}

static void
cm_history_page_dispose (GObject *object)
{
  CmHistoryPage *self = CM_HISTORY_PAGE (object);

  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  stop_listing (self);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->empty_title, g_free);
  g_clear_pointer (&self->empty_description, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_HISTORY_PAGE);
  g_clear_object (&self->history);
  g_clear_object (&self->shown);
  g_clear_object (&self->filter);
  g_clear_object (&self->items);
  g_clear_pointer (&self->words, g_strfreev);
  g_clear_pointer (&self->picked, g_hash_table_unref);
  g_clear_pointer (&self->rows, g_hash_table_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->problem_rows, g_ptr_array_unref);
  g_clear_pointer (&self->batch, g_ptr_array_unref);

  G_OBJECT_CLASS (cm_history_page_parent_class)->dispose (object);
}

static void
cm_history_page_class_init (CmHistoryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_history_page_dispose;
  object_class->get_property = cm_history_page_get_property;

  /* "empty", "list" or "compare": what the window's title says. */
  properties[PROP_VIEW] =
    g_param_spec_string ("view", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CM_TYPE_CHART_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-history-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, stack);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, list_view);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, count_label);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, results_stack);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, no_match_page);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, problems_list);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, problems_row);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, summary_chart);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, time_chart);

  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, compare_grid);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, batch_group);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, batch_grid);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, figures_group);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, speed_group);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, time_group);

  gtk_widget_class_install_action (widget_class, "history.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "history.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "history.search", NULL, search_action);

  /* A past result to show on its own page. */
  signals[SIGNAL_OPEN_RESULT] =
    g_signal_new ("open-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);
}

static void
cm_history_page_init (CmHistoryPage *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  self->items = g_list_store_new (CM_TYPE_HISTORY_ITEM);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->picked = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->rows = g_hash_table_new (NULL, NULL);
  self->problem_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));

  /* Rows for what is on screen only: 100 000 results are a few dozen
   * widgets, each given another result as the list scrolls. */
  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_row_cb), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_row_cb), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_row_cb), self, 0);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  /* The search filters what was read, in one pass over the items'
   * folded words: 8.8 ms for 20 000 (test-app-history-scale on a busy
   * 2-core machine), so some 45 ms for 100 000. */
  self->filter = gtk_custom_filter_new (match_cb, self, NULL);
  self->shown = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->items)),
                                           g_object_ref (GTK_FILTER (self->filter)));
    g_signal_connect_object (self->shown, "items-changed", G_CALLBACK (update_views), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->shown, "notify::pending", G_CALLBACK (update_views), self, G_CONNECT_SWAPPED);
  gtk_list_view_set_model (self->list_view,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->shown)))));
  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "stop-search", G_CALLBACK (stop_search_cb), self, G_CONNECT_SWAPPED);
  /* Typing in the list searches. */
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->list_view));
  /* Ctrl+F reaches the search wherever the focus is in the window. */
  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_MANAGED);
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_f, GDK_CONTROL_MASK),
                                                            gtk_named_action_new ("history.search")));
    gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  }
  g_signal_connect_object (self->list_view, "activate", G_CALLBACK (activate_cb), self, 0);
  g_signal_connect (self, "unmap", G_CALLBACK (list_pending), NULL);
  g_signal_connect (self, "map", G_CALLBACK (list_pending), NULL);
  g_signal_connect_object (self->stack, "notify::visible-child-name", G_CALLBACK (view_changed_cb), self,
                           G_CONNECT_SWAPPED);
  self->empty_title = g_strdup (adw_status_page_get_title (self->empty_page));
  self->empty_description = g_strdup (adw_status_page_get_description (self->empty_page));
}

CmHistoryPage *
cm_history_page_new (CmHistory *history)
{
  CmHistoryPage *self;

  g_return_val_if_fail (CM_IS_HISTORY (history), NULL);

  self = g_object_new (CM_TYPE_HISTORY_PAGE, NULL);
  self->history = g_object_ref (history);
  cm_history_page_reload (self);
  return self;
}

/* How many results the list shows: those that match the search. */
guint
cm_history_page_get_n_results (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->shown));
}

/* What the count above the list says: "5000 saved results. …", "3
 * results match the search.", "Reading the History… 1200 of 5000". */
const char *
cm_history_page_get_count_text (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);
  return gtk_label_get_text (self->count_label);
}

/* The search entry, as a person types in it. */
GtkWidget *
cm_history_page_get_search_entry (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);
  return GTK_WIDGET (self->search_entry);
}

/* Sentences about the files that are not results; borrowed. */
GPtrArray *
cm_history_page_get_problems (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);
  return self->problems;
}

/* Ticks or unticks the result at @index, newest first, as a click would:
 * a tick where the chart has no colour left is refused. Returns whether
 * it is ticked now. */
gboolean
cm_history_page_set_picked (CmHistoryPage *self,
                            guint          index,
                            gboolean       picked)
{
  g_autoptr(CmHistoryItem) item = NULL;
  GHashTableIter iter;
  gpointer row;

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  item = g_list_model_get_item (G_LIST_MODEL (self->shown), index);
  g_return_val_if_fail (item != NULL, FALSE);

  picked = pick_item (self, item, picked);
  /* Its row, if on screen, shows it. */
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    if (row_get_item (row) == item)
      gtk_check_button_set_active (g_object_get_data (G_OBJECT (row), "cm-check"), picked);
  return picked;
}

static void
attach_compare_cell (GtkGrid    *grid,
                     const char *text,
                     int         column,
                     int         row)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  /* The card's name and date head its column, cut short if need be. */
  if (row < 2 && column > 0)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 20);
      gtk_widget_set_tooltip_text (label, text);
    }
  if (row == 0)
    gtk_widget_add_css_class (label, "heading");
  if (row == 1)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_hexpand (label, column == 0);
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

/* One column per card, one row per figure people compare cards by, in
 * the order of the chart's colours. */
static void
fill_compare_grid (CmHistoryPage *self,
                   GPtrArray     *picked)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->compare_grid))) != NULL)
    gtk_grid_remove (self->compare_grid, child);

  for (guint c = 0; c < picked->len; c++)
    {
      CmResult *result = g_ptr_array_index (picked, c);
      g_autoptr(GPtrArray) figures = cm_summary_dup_headline (result);
      g_autofree char *title = cm_summary_dup_card_title (result);
      g_autofree char *date = cm_summary_dup_date (result);

      attach_compare_cell (self->compare_grid, title, c + 1, 0);
      attach_compare_cell (self->compare_grid, date != NULL ? date : "", c + 1, 1);
      for (guint i = 0; i < figures->len; i++)
        {
          const CmHeadlineFigure *f = g_ptr_array_index (figures, i);

          if (c == 0)
            attach_compare_cell (self->compare_grid, f->label, 0, i + 2);
          attach_compare_cell (self->compare_grid, f->value, c + 1, i + 2);
        }
    }
}

static void
attach_batch_cell (GtkGrid    *grid,
                   const char *text,
                   int         column,
                   int         row)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), row > 0);
  /* The card and the verdict take what room there is, on several lines. */
  if (column == 0 || column == 2)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_width_chars (GTK_LABEL (label), 12);
      gtk_label_set_max_width_chars (GTK_LABEL (label), column == 0 ? 24 : 40);
      gtk_widget_set_hexpand (label, TRUE);
    }
  if (row == 0)
    gtk_widget_add_css_class (label, "heading");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

/* The batch report: a line per card, from every ticked check of it. */
static void
fill_batch_grid (CmHistoryPage *self,
                 GPtrArray     *picked)
{
  const char *headings[] = { N_("Card"), N_("Size"), N_("Verdict"), N_("Real Capacity"), N_("Lost Data") };
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->batch_grid))) != NULL)
    gtk_grid_remove (self->batch_grid, child);
  g_clear_pointer (&self->batch, g_ptr_array_unref);
  self->batch = cm_batch_report_build (picked);

  for (guint c = 0; c < G_N_ELEMENTS (headings); c++)
    attach_batch_cell (self->batch_grid, _(headings[c]), c, 0);
  for (guint r = 0; r < self->batch->len; r++)
    {
      const CmBatchRow *row = g_ptr_array_index (self->batch, r);
      g_autofree char *size = cm_batch_row_dup_size (row, CM_BATCH_SIZE);
      g_autofree char *real = cm_batch_row_dup_size (row, CM_BATCH_REAL);
      g_autofree char *lost = cm_batch_row_dup_size (row, CM_BATCH_LOST);
      GtkWidget *verdict;

      attach_batch_cell (self->batch_grid, row->card, 0, r + 1);
      attach_batch_cell (self->batch_grid, size, 1, r + 1);
      attach_batch_cell (self->batch_grid, row->verdict[0] != '\0' ? row->verdict : _("No class judged"), 2, r + 1);
      verdict = gtk_grid_get_child_at (self->batch_grid, 2, r + 1);
      if (row->status != CM_STATUS_NOT_JUDGED)
        {
          g_autofree char *css = g_strdup_printf ("status-%s", cm_status_to_string (row->status));

          gtk_widget_add_css_class (verdict, css);
        }
      attach_batch_cell (self->batch_grid, real, 3, r + 1);
      attach_batch_cell (self->batch_grid, lost, 4, r + 1);
    }
}

/* The list's order is the index's (to the microsecond, which a batch's
 * checks of two cards need): the ticked items by their place in it,
 * oldest first. */
static GPtrArray *
dup_picked_oldest_first (CmHistoryPage *self)
{
  g_autoptr(GArray) places = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *picked = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer item;

  g_hash_table_iter_init (&iter, self->picked);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    {
      guint place;

      if (find_item (self, item, &place))
        g_array_append_val (places, place);
    }
  g_array_sort (places, compare_places);
  for (guint i = places->len; i > 0; i--)
    g_ptr_array_add (picked, g_list_model_get_item (G_LIST_MODEL (self->items), g_array_index (places, guint, i - 1)));
  return picked;
}

/* Shows the ticked results side by side: the batch report of every
 * ticked card, and the benchmarks' figures and charts; FALSE when fewer
 * than two are ticked. */
gboolean
cm_history_page_compare (CmHistoryPage *self)
{
  g_autoptr(GPtrArray) picked = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) benches = g_ptr_array_new ();
  g_autoptr(GPtrArray) ticked = NULL;

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  if (count_picked (self, FALSE) < 2)
    return FALSE;
  /* Oldest first, so that colours follow the order the cards were
   * tested. Only the ticked documents are read, and only the ticked
   * items looked at, however long the history. */
  ticked = dup_picked_oldest_first (self);
  for (guint i = 0; i < ticked->len; i++)
    {
      CmHistoryItem *item = g_ptr_array_index (ticked, i);
      CmResult *result;

      if ((result = load_item (self, item)) == NULL)
        continue;
      g_ptr_array_add (picked, result);
      if (cm_job_kind_measures_speed (cm_result_get_kind (result)))
        g_ptr_array_add (benches, result);
    }

  if (picked->len < 2)
    return FALSE;

  fill_batch_grid (self, picked);
  fill_compare_grid (self, benches);
  cm_chart_view_set_results (self->summary_chart, benches);
  cm_chart_view_set_results (self->time_chart, benches);
  gtk_widget_set_visible (self->figures_group, benches->len > 0);
  gtk_widget_set_visible (self->speed_group, benches->len > 0);
  gtk_widget_set_visible (self->time_group, benches->len > 0);
  gtk_stack_set_visible_child_name (self->stack, "compare");
  return TRUE;
}

/* The batch report of the comparison on screen, or NULL. */
GPtrArray *
cm_history_page_get_batch (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);
  return self->batch;
}

/* Writes the batch report of the comparison on screen to @file as CSV. */
gboolean
cm_history_page_export_csv (CmHistoryPage  *self,
                            GFile          *file,
                            GError        **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);
  g_return_val_if_fail (self->batch != NULL, FALSE);

  csv = cm_batch_report_dup_csv (self->batch);
  return g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                  NULL, NULL, error);
}

/* From the comparison back to the list; FALSE when already there. */
gboolean
cm_history_page_go_back (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "compare") != 0)
    return FALSE;
  gtk_stack_set_visible_child_name (self->stack, "list");
  return TRUE;
}

/* "empty", "list" or "compare". */
const char *
cm_history_page_get_view (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

CmChartView *
cm_history_page_get_chart (CmHistoryPage *self,
                           CmChartKind    kind)
{
  CmChartView *charts[2];

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);

  /* The comparison's charts, each asked which kind it draws. */
  charts[0] = self->summary_chart;
  charts[1] = self->time_chart;
  for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
    {
      CmChartKind shown;

      if (cm_chart_view_get_chart_kind (charts[i], &shown) && shown == kind)
        return charts[i];
    }
  return NULL;
}

/* Deletes the result at @index, newest first, from the history folder
 * and the list; the file is all that goes. */
gboolean
cm_history_page_delete (CmHistoryPage  *self,
                        guint           index,
                        GError        **error)
{
  g_autoptr(CmHistoryItem) item = NULL;

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  item = g_list_model_get_item (G_LIST_MODEL (self->shown), index);
  g_return_val_if_fail (item != NULL, FALSE);
  return delete_item (self, item, error);
}

/* Opens the result at @index, newest first, as activating its row does:
 * its document is read now. */
void
cm_history_page_open (CmHistoryPage *self,
                      guint          index)
{
  g_return_if_fail (CM_IS_HISTORY_PAGE (self));
  g_return_if_fail (index < g_list_model_get_n_items (G_LIST_MODEL (self->shown)));

  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.activate-item", "u", index);
}

/* The row widget showing the result at @index, newest first, or NULL
 * when it is not on screen (scroll to it first: rows are made for what
 * is shown). */
GtkWidget *
cm_history_page_get_row (CmHistoryPage *self,
                         guint          index)
{
  GHashTableIter iter;
  gpointer row, list_item;

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, &list_item))
    if (gtk_list_item_get_position (list_item) == index)
      return row;
  return NULL;
}

/* Scrolls the list to the result at @index, newest first. */
void
cm_history_page_scroll_to (CmHistoryPage *self,
                           guint          index)
{
  g_return_if_fail (CM_IS_HISTORY_PAGE (self));

  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", index);
}

/* How many row widgets this page has made: a few dozen, however long
 * the history. */
guint
cm_history_page_count_row_widgets (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), 0);
  return self->n_rows_made;
}
