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
#include "cm-test-table.h"
#include "cm-chart.h"
#include "cm-result-page.h"
#include "cm-summary.h"
#include "cm-toast.h"

#include "cm-job.h"
#include "cm-outcome-badge.h"
#include "cm-verify.h"

#include "cm-history-page.h"

struct _CmHistoryPage
{
  GtkBox               parent_instance;

  CmHistory           *history;
  GPtrArray           *results;   /* CmResult, newest first */
  GPtrArray           *checks;    /* GtkCheckButton, one per result */
  GPtrArray           *problems;  /* char * */
  GPtrArray           *problem_rows;
  GCancellable        *loading;   /* the load in flight, or NULL */
  char                *empty_title;
  char                *empty_description;

  GtkStack            *stack;
  AdwStatusPage       *empty_page;
  AdwPreferencesGroup *results_group;
  GtkListBox          *list_box;
  AdwPreferencesGroup *problems_group;
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

static gboolean
is_bench (CmResult *result)
{
  return cm_job_kind_measures_speed (cm_result_get_kind (result));
}

/* "3 Dec 2026, 09:40 · Benchmark · Meets U3 and A1", "… · Full verify ·
 * Data lost · 16 MB lost, 48 MB usable": when, what was done and its
 * answer in words. */
static char *
dup_facts (CmResult *result)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  char *date = cm_summary_dup_date (result);
  CmStatus status;
  char *answer = cm_summary_dup_answer (result, &status);

  if (date != NULL)
    g_ptr_array_add (parts, date);
  g_ptr_array_add (parts, g_strdup (cm_job_kind_get_title (cm_result_get_kind (result))));
  /* A benchmark's method changes what it can judge: it is said too. */
  if (is_bench (result))
    g_ptr_array_add (parts, g_strdup (cm_summary_method_label (cm_result_get_target_mode (result))));
  g_ptr_array_add (parts, answer != NULL ? answer : g_strdup (_("No class judged")));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

/* "Sequential read 45.1 MB/s · Sequential write 18.2 MB/s · …": the
 * figures people compare cards by, those that were measured; a verify's
 * sizes and speeds, a capacity check's sizes. */
static char *
dup_figures (CmResult *result)
{
  g_autoptr(GPtrArray) figures = cm_summary_dup_headline (result);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < figures->len; i++)
    {
      const CmHeadlineFigure *f = g_ptr_array_index (figures, i);
      const CmTestKind *kind = f->test != NULL ? cm_test_table_lookup (f->test) : NULL;

      /* The row has room for four; Compare shows them all. A verify's
       * or a capacity check's sizes are in its answer already. */
      if (!f->measured || f->latency || (kind != NULL && kind->queue_depth > 1) ||
          (f->test == NULL && !is_bench (result)))
        continue;
      if (out->len > 0)
        g_string_append (out, " · ");
      g_string_append_printf (out, "%s %s", f->label, f->value);
    }
  return g_string_free (out, FALSE);
}

/* How many results are ticked; with @charted, only the benchmarks, which
 * the charts draw. */
static guint
count_picked (CmHistoryPage *self,
              gboolean       charted)
{
  guint n = 0;

  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkWidget *check = g_ptr_array_index (self->checks, i);

      if (!charted || g_object_get_data (G_OBJECT (check), "cm-not-charted") == NULL)
        n += gtk_check_button_get_active (GTK_CHECK_BUTTON (check));
    }
  return n;
}

/* A chart tells CM_CHART_MAX_RESULTS cards apart, one colour each: once
 * that many benchmarks are ticked, the others wait. Any check can join
 * the batch report. */
static void
update_compare (CmHistoryPage *self)
{
  guint charted = count_picked (self, TRUE);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.compare", count_picked (self, FALSE) >= 2);
  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkWidget *check = g_ptr_array_index (self->checks, i);

      if (g_object_get_data (G_OBJECT (check), "cm-not-charted") != NULL)
        continue;
      gtk_widget_set_sensitive (check, charted < CM_CHART_MAX_RESULTS ||
                                       gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
    }
}

static void
check_toggled_cb (CmHistoryPage  *self,
                  GtkCheckButton *check)
{
  update_compare (self);
}

static void
open_clicked_cb (CmHistoryPage *self,
                 GtkButton     *button)
{
  CmResult *result = g_object_get_data (G_OBJECT (button), "cm-result");

  g_signal_emit (self, signals[SIGNAL_OPEN_RESULT], 0, result);
}

static void
delete_response_cb (CmHistoryPage    *self,
                    const char       *response,
                    AdwMessageDialog *dialog)
{
  CmResult *result = g_object_get_data (G_OBJECT (dialog), "cm-result");
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "delete") != 0)
    return;
  for (guint i = 0; i < self->results->len; i++)
    if (g_ptr_array_index (self->results, i) == result)
      {
        if (!cm_history_page_delete (self, i, &error))
          cm_toast_show (GTK_WIDGET (self), error->message);
        return;
      }
}

/* Deleting loses a measurement for good, so it is asked first. */
static void
delete_clicked_cb (CmHistoryPage *self,
                   GtkButton     *button)
{
  CmResult *result = g_object_get_data (G_OBJECT (button), "cm-result");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *title = cm_summary_dup_card_title (result);
  g_autofree char *date = cm_summary_dup_date (result);
  g_autofree char *body = g_strdup_printf (_("The result of %s, tested %s, is removed from the history for good."),
                                           title, date != NULL ? date : "?");
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              _("Delete This Result?"), body);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "cm-result", g_object_ref (result), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static GtkWidget *
new_row_button (CmHistoryPage *self,
                CmResult      *result,
                const char    *icon,
                const char    *tooltip,
                GCallback      callback)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  /* An icon has no name to read out: the tooltip's words are it. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "cm-result", result);
  g_signal_connect_object (button, "clicked", callback, self, G_CONNECT_SWAPPED);
  return button;
}

static GtkWidget *
new_result_row (CmHistoryPage *self,
                CmResult      *result)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *open;
  g_autofree char *title = cm_summary_dup_card_title (result);
  g_autofree char *pick = NULL;
  g_autofree char *facts = dup_facts (result);
  g_autofree char *figures = dup_figures (result);
  g_autofree char *subtitle = figures[0] != '\0' ? g_strdup_printf ("%s\n%s", facts, figures) : g_strdup (facts);
  CmStatus status;
  g_autofree char *banner = cm_summary_dup_answer (result, &status);
  g_autoptr(CmOutcome) outcome = cm_result_dup_outcome (result);

  /* Card names and file paths are text, not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  /* GTK 4.8 names nothing after a row it is labelled by: the box says
   * what it picks itself. */
  pick = g_strdup_printf (_("Compare %s"), title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, pick, -1);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL,
                                  -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  g_signal_connect_object (check, "toggled", G_CALLBACK (check_toggled_cb), self, G_CONNECT_SWAPPED);
  g_ptr_array_add (self->checks, check);

  /* Its outcome in its kind's own words: Meets, Fake, Data lost, Stopped. */
  if (banner != NULL || outcome->status != CM_OUTCOME_NOT_JUDGED)
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), cm_outcome_badge_new (outcome));
  /* Comparisons chart speed tests, which only a benchmark has. */
  if (!is_bench (result))
    {
      /* It joins the batch report, not the speed charts. */
      g_object_set_data (G_OBJECT (check), "cm-not-charted", GINT_TO_POINTER (TRUE));
      gtk_widget_set_tooltip_text (check, _("Tick to add this card to the batch report; only benchmarks are charted"));
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             new_row_button (self, result, "user-trash-symbolic", _("Delete This Result"),
                                             G_CALLBACK (delete_clicked_cb)));
  /* A click on the row, or Enter, opens it; the box ticks on its own. */
  open = new_row_button (self, result, "go-next-symbolic", _("Open This Result"), G_CALLBACK (open_clicked_cb));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), open);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), open);

  return row;
}

static void
clear_rows (CmHistoryPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) != NULL)
    gtk_list_box_remove (self->list_box, child);
  for (guint i = 0; i < self->problem_rows->len; i++)
    adw_preferences_group_remove (self->problems_group, g_ptr_array_index (self->problem_rows, i));
  g_ptr_array_set_size (self->problem_rows, 0);
  g_ptr_array_set_size (self->checks, 0);
  g_ptr_array_set_size (self->results, 0);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
}

static void
fill_problems (CmHistoryPage *self)
{
  for (guint i = 0; i < self->problems->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (self->problems, i));
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      adw_preferences_group_add (self->problems_group, row);
      g_ptr_array_add (self->problem_rows, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->problems_group), self->problems->len > 0);
}

static void
show_loaded (CmHistoryPage *self,
             GPtrArray     *loaded,
             GPtrArray     *problems,
             const GError  *error)
{
  clear_rows (self);
  self->problems = problems;
  if (loaded == NULL)
    {
      g_autofree char *path = g_file_get_path (cm_history_get_folder (self->history));
      g_autofree char *text = g_strdup_printf (_("%s\n\nCheck that %s can be read, then open the history again."),
                                               error->message, path);

      self->problems = g_ptr_array_new_with_free_func (g_free);
      adw_status_page_set_title (self->empty_page, _("The History Could Not Be Read"));
      adw_status_page_set_description (self->empty_page, text);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      update_compare (self);
      return;
    }

  adw_status_page_set_title (self->empty_page, self->empty_title);
  adw_status_page_set_description (self->empty_page, self->empty_description);

  /* Newest first: the run just finished is on top. */
  for (guint i = loaded->len; i > 0; i--)
    {
      CmResult *result = g_ptr_array_index (loaded, i - 1);

      g_ptr_array_add (self->results, g_object_ref (result));
      gtk_list_box_append (self->list_box, new_result_row (self, result));
    }
  fill_problems (self);

  gtk_widget_set_visible (GTK_WIDGET (self->results_group), self->results->len > 0);
  gtk_stack_set_visible_child_name (self->stack,
                                    self->results->len > 0 || self->problems->len > 0 ? "list" : "empty");
  update_compare (self);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *problems = NULL;
  CmHistoryPage *self;

  loaded = cm_history_load_finish (CM_HISTORY (source), result, &problems, &error);

  /* Cancelled: the page may be gone (disposing cancels), or a newer load
   * replaced this one. Either way nothing here is to be touched. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = CM_HISTORY_PAGE (user_data);
  g_clear_object (&self->loading);
  show_loaded (self, loaded, problems, error);
}

/* Reads the history folder again, forgetting what was ticked. The files
 * are read in a worker thread; the list changes when they all are. */
void
cm_history_page_reload (CmHistoryPage *self)
{
  g_return_if_fail (CM_IS_HISTORY_PAGE (self));

  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  self->loading = g_cancellable_new ();

  /* The first time, nothing is shown yet: say what is happening. */
  if (self->results->len == 0 && self->problems == NULL)
    {
      adw_status_page_set_title (self->empty_page, _("Reading the History…"));
      adw_status_page_set_description (self->empty_page, NULL);
    }

  cm_history_load_async (self->history, self->loading, loaded_cb, self);
}

/* Whether a reload is still reading the history folder. */
gboolean
cm_history_page_get_loading (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  return self->loading != NULL;
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
  g_clear_pointer (&self->empty_title, g_free);
  g_clear_pointer (&self->empty_description, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_HISTORY_PAGE);
  g_clear_object (&self->history);
  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
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
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, results_group);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, list_box);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, problems_group);
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

  /* A past result to show on its own page. */
  signals[SIGNAL_OPEN_RESULT] =
    g_signal_new ("open-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);
}

static void
cm_history_page_init (CmHistoryPage *self)
{
  self->results = g_ptr_array_new_with_free_func (g_object_unref);
  self->checks = g_ptr_array_new ();
  self->problem_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
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

guint
cm_history_page_get_n_results (CmHistoryPage *self)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), 0);
  return self->results->len;
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
  GtkWidget *check;

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);
  g_return_val_if_fail (index < self->checks->len, FALSE);

  check = g_ptr_array_index (self->checks, index);
  if (gtk_widget_get_sensitive (check))
    gtk_check_button_set_active (GTK_CHECK_BUTTON (check), picked);
  return gtk_check_button_get_active (GTK_CHECK_BUTTON (check));
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

/* Shows the ticked results side by side: the batch report of every
 * ticked card, and the benchmarks' figures and charts; FALSE when fewer
 * than two are ticked. */
gboolean
cm_history_page_compare (CmHistoryPage *self)
{
  g_autoptr(GPtrArray) picked = g_ptr_array_new ();
  g_autoptr(GPtrArray) benches = g_ptr_array_new ();

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  /* Oldest first, so that colours follow the order the cards were tested. */
  for (guint i = self->results->len; i > 0; i--)
    if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i - 1)))
      {
        CmResult *result = g_ptr_array_index (self->results, i - 1);

        g_ptr_array_add (picked, result);
        if (is_bench (result))
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
  CmResult *result;

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);
  g_return_val_if_fail (index < self->results->len, FALSE);

  result = g_ptr_array_index (self->results, index);
  if (!cm_history_delete (self->history, result, error))
    return FALSE;

  cm_history_page_reload (self);
  cm_toast_show (GTK_WIDGET (self), _("Result deleted."));
  return TRUE;
}

/* Opens the result at @index, newest first, as the Open button does. */
void
cm_history_page_open (CmHistoryPage *self,
                      guint          index)
{
  g_return_if_fail (CM_IS_HISTORY_PAGE (self));
  g_return_if_fail (index < self->results->len);

  g_signal_emit (self, signals[SIGNAL_OPEN_RESULT], 0, g_ptr_array_index (self->results, index));
}

/* The row of the result at @index, newest first. */
GtkWidget *
cm_history_page_get_row (CmHistoryPage *self,
                         guint          index)
{
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);
  return GTK_WIDGET (gtk_list_box_get_row_at_index (self->list_box, index));
}
