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

#include "cm-test-table.h"
#include "cm-chart.h"
#include "cm-result-page.h"

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
};

G_DEFINE_FINAL_TYPE (CmHistoryPage, cm_history_page, GTK_TYPE_BOX)

static const char *
result_name (CmResult *result)
{
  CmCardInfo *card = cm_result_get_card (result);

  if (cm_result_get_name (result) != NULL)
    return cm_result_get_name (result);
  if (card != NULL && cm_card_info_get_brand (card) != NULL)
    return cm_card_info_get_brand (card);
  if (cm_result_get_target_path (result) != NULL)
    return cm_result_get_target_path (result);
  return _("Unnamed card");
}

static double
test_figure (CmResult   *result,
             const char *name,
             gboolean    iops)
{
  CmTestResult *test = cm_result_lookup_test (result, name);

  if (test == NULL || test->error != NULL)
    return -1;
  return iops ? test->iops : test->mb_per_s;
}

static void
append_figure (GString    *out,
               const char *format,
               double      value)
{
  if (value < 0)
    return;
  if (out->len > 0)
    g_string_append (out, " · ");
  g_string_append_printf (out, format, value);
}

/* "12 Mar 2024, 14:05 · write 18.2 MB/s · read 45.1 MB/s · 4K read 1520 IOPS" */
static char *
dup_figures (CmResult *result)
{
  GString *out = g_string_new (NULL);
  GDateTime *started = cm_result_get_started (result);

  if (started != NULL)
    {
      g_autoptr(GDateTime) local = g_date_time_to_local (started);
      g_autofree char *date = g_date_time_format (local, _("%-d %b %Y, %H:%M"));

      g_string_append (out, date);
    }
  /* Translators: sequential write speed in a history row */
  append_figure (out, _("write %.1f MB/s"), test_figure (result, CM_TEST_SEQ_WRITE, FALSE));
  /* Translators: sequential read speed in a history row */
  append_figure (out, _("read %.1f MB/s"), test_figure (result, CM_TEST_SEQ_READ, FALSE));
  append_figure (out, _("4K read %.0f IOPS"), test_figure (result, CM_TEST_RAND_READ_4K, TRUE));
  append_figure (out, _("4K write %.0f IOPS"), test_figure (result, CM_TEST_RAND_WRITE_4K, TRUE));

  return g_string_free (out, FALSE);
}

/* "C10: Meets · U3: Below", or a word when nothing was judged. */
static char *
dup_verdicts (CmResult *result)
{
  GPtrArray *claims = cm_result_get_claims (result);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      /* Classes nobody claimed only show what the figures meet. */
      if (g_strcmp0 (claim->source, "figures") == 0)
        continue;
      if (out->len > 0)
        g_string_append (out, " · ");
      /* Translators: a class and its verdict, "U3: Meets" */
      g_string_append_printf (out, _("%s: %s"), claim->klass, cm_status_get_label (claim->status));
    }

  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return g_strdup (_("No class judged"));
    }

  return g_string_free (out, FALSE);
}

static guint
count_picked (CmHistoryPage *self)
{
  guint n = 0;

  for (guint i = 0; i < self->checks->len; i++)
    n += gtk_check_button_get_active (g_ptr_array_index (self->checks, i));
  return n;
}

/* A chart tells CM_CHART_MAX_RESULTS cards apart, one colour each: once
 * that many are ticked, the others wait. */
static void
update_compare (CmHistoryPage *self)
{
  guint picked = count_picked (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.compare", picked >= 2);
  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkWidget *check = g_ptr_array_index (self->checks, i);

      gtk_widget_set_sensitive (check, picked < CM_CHART_MAX_RESULTS ||
                                       gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
    }
}

static void
check_toggled_cb (CmHistoryPage  *self,
                  GtkCheckButton *check)
{
  update_compare (self);
}

static GtkWidget *
new_result_row (CmHistoryPage *self,
                CmResult      *result)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *check = gtk_check_button_new ();
  g_autofree char *figures = dup_figures (result);
  g_autofree char *verdicts = dup_verdicts (result);
  g_autofree char *subtitle = g_strdup_printf ("%s\n%s", figures, verdicts);

  /* Card names and file paths are text, not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), result_name (result));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL,
                                  -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  g_signal_connect_object (check, "toggled", G_CALLBACK (check_toggled_cb), self, G_CONNECT_SWAPPED);
  g_ptr_array_add (self->checks, check);

  if (cm_result_get_claims (result)->len > 0)
    {
      CmStatus status = cm_result_get_overall_status (result);
      GtkWidget *label = gtk_label_new (cm_status_get_label (status));
      g_autofree char *css = g_strdup_printf ("status-%s", cm_status_to_string (status));

      gtk_widget_add_css_class (label, css);
      gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
    }

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

  G_OBJECT_CLASS (cm_history_page_parent_class)->dispose (object);
}

static void
cm_history_page_class_init (CmHistoryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_history_page_dispose;

  g_type_ensure (CM_TYPE_CHART_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-history-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, stack);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, results_group);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, list_box);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, problems_group);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, summary_chart);
  gtk_widget_class_bind_template_child (widget_class, CmHistoryPage, time_chart);

  gtk_widget_class_install_action (widget_class, "history.compare", NULL, compare_action);
}

static void
cm_history_page_init (CmHistoryPage *self)
{
  self->results = g_ptr_array_new_with_free_func (g_object_unref);
  self->checks = g_ptr_array_new ();
  self->problem_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
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

/* Shows the ticked results side by side; FALSE when fewer than two are
 * ticked. */
gboolean
cm_history_page_compare (CmHistoryPage *self)
{
  g_autoptr(GPtrArray) picked = g_ptr_array_new ();

  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), FALSE);

  /* Oldest first, so that colours follow the order the cards were tested. */
  for (guint i = self->results->len; i > 0; i--)
    if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i - 1)))
      g_ptr_array_add (picked, g_ptr_array_index (self->results, i - 1));

  if (picked->len < 2)
    return FALSE;

  cm_chart_view_set_results (self->summary_chart, picked);
  cm_chart_view_set_results (self->time_chart, picked);
  gtk_stack_set_visible_child_name (self->stack, "compare");
  return TRUE;
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
  g_return_val_if_fail (CM_IS_HISTORY_PAGE (self), NULL);

  switch (kind)
    {
    case CM_CHART_SUMMARY:
      return self->summary_chart;
    case CM_CHART_WRITE_OVER_TIME:
      return self->time_chart;
    case CM_CHART_LATENCY:
    case CM_CHART_SWEEP:
    case CM_CHART_POSITION:
    case CM_CHART_N_KINDS:
    default:
      return NULL;
    }
}
