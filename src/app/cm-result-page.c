/* cm-result-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The answer: a verdict banner, one row per claimed class that opens
 * into its criteria, the charts, and every measurement. The charts can
 * be saved as PNG, SVG or PDF from here.
 *
 * Each kind of document (cm_result_get_kind) shows its own way, the
 * same just run or opened from History: a benchmark its classes and
 * speed charts; a full verify whether data was lost, its sizes and
 * speeds, and its chart across the card; a capacity check whether the
 * card is fake, its real and reported size, and its map. Such a part is
 * its kind's own (cm_KIND_row_fill_part() in its row's file), named by
 * one line a kind in kind_parts below.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-accessible.h"
#include "cm-card-info.h"
#include "cm-test-table.h"
#include "cm-backend.h"
#include "cm-summary.h"
#include "cm-text.h"
#include "cm-chart-capacity.h"
#include "cm-chart-view.h"
#include "cm-seen-list.h"
#include "cm-capacity-row.h"
#include "cm-format-row.h"
#include "cm-power-part.h"
#include "cm-queue-row.h"
#include "cm-verify-row.h"
#include "cm-wear-row.h"
#include "cm-toast.h"

#include "cm-verdict.h"

#include "cm-endurance.h"

#include "cm-result-page.h"

struct _CmResultPage
{
  GtkBox               parent_instance;

  CmResult            *result;
  CmStatus             status;

  GtkBox              *banner;
  GtkLabel            *verdict_label;
  GtkLabel            *summary_label;
  GtkGrid             *headline_grid;
  GtkWidget           *again_button;
  GtkWidget           *erase_button;  /* after a check that erased the card */
  GtkLabel            *again_reason;
  AdwPreferencesGroup *kind_group;
  AdwPreferencesGroup *facts_group;
  CmChartView         *kind_chart;    /* a verify's or a capacity check's, or NULL */
  AdwPreferencesGroup *summary_group;
  AdwPreferencesGroup *latency_group;
  AdwPreferencesGroup *details_group;
  AdwPreferencesGroup *time_group;
  AdwPreferencesGroup *claims_group;
  GtkMenuButton       *export_button;
  GtkFlowBox          *button_box;
  AdwPreferencesGroup *sweep_group;
  AdwPreferencesGroup *position_group;
  CmChartView         *summary_chart;
  CmChartView         *time_chart;
  CmChartView         *latency_chart;
  CmChartView         *sweep_chart;
  CmChartView         *position_chart;
  GtkGrid             *details_grid;
  AdwPreferencesGroup *notes_group;
  CmSeenList          *seen_list;
};

G_DEFINE_FINAL_TYPE (CmResultPage, cm_result_page, GTK_TYPE_BOX)

#define status_label cm_summary_status_label

/* "Meets U3, V30 and A1 · A2 can't be judged on this reader" */
static char *
dup_headline (CmResult *result,
              CmStatus *status)
{
  char *banner = cm_summary_dup_answer (result, status);

  if (banner != NULL)
    return banner;
  return g_strdup (_("Measured — no class was picked to judge"));
}

static char *
dup_summary_sentence (CmResult *result)
{
  CmTestResult *write = cm_result_lookup_test (result, CM_TEST_SEQ_WRITE);
  CmTestResult *read = cm_result_lookup_test (result, CM_TEST_SEQ_READ);
  CmTestResult *rand = cm_result_lookup_test (result, CM_TEST_RAND_READ_4K);

  /* A wear test says it from its rounds, as this CardMark says it (an
   * older one called a stopped test whole). */
  if (cm_result_get_endurance (result) != NULL)
    return cm_endurance_describe (cm_result_get_endurance (result));
  if (cm_result_get_summary (result) != NULL)
    return g_strdup (cm_result_get_summary (result));

  return g_strdup_printf (_("Writes at %.1f MB/s and reads at %.1f MB/s in long runs; reads %.0f small 4K blocks per second."),
                          write != NULL ? write->mb_per_s : 0,
                          read != NULL ? read->mb_per_s : 0,
                          rand != NULL ? rand->iops : 0);
}

static void
add_status_suffix (AdwActionRow *row,
                   CmStatus      status)
{
  GtkWidget *label = gtk_label_new (status_label (status));
  g_autofree char *css = g_strdup_printf ("status-%s", cm_status_to_string (status));

  gtk_widget_add_css_class (label, css);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (row, label);
}

static void
fill_claims (CmResultPage *self)
{
  GPtrArray *claims = cm_result_get_claims (self->result);

  if (claims->len == 0)
    {
      adw_preferences_group_set_description (self->claims_group,
                                             _("Pick the classes printed on the card before the test to have them judged."));
      return;
    }

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);
      GtkWidget *row = adw_expander_row_new ();
      GtkWidget *status = gtk_label_new (status_label (claim->status));
      g_autofree char *css = g_strdup_printf ("status-%s", cm_status_to_string (claim->status));
      /* Translators: a class and its verdict as a screen reader says them, "U3: Meets" */
      g_autofree char *name = g_strdup_printf (_("%s: %s"), claim->klass, status_label (claim->status));

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), claim->klass);
      /* libadwaita 1.2 gives an expander row no accessible name. */
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      if (claim->reason != NULL)
        {
          g_autofree char *reason = cm_text_dup_unbroken_units (claim->reason);

          adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), reason);
        }
      gtk_widget_add_css_class (status, css);
      adw_expander_row_add_action (ADW_EXPANDER_ROW (row), status);

      for (guint j = 0; claim->criteria != NULL && j < claim->criteria->len; j++)
        {
          const CmCriterion *c = g_ptr_array_index (claim->criteria, j);
          GtkWidget *crow = adw_action_row_new ();
          g_autofree char *text = cm_summary_dup_criterion_text (c);
          g_autofree char *subtitle = cm_text_dup_unbroken_units (text);

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (crow), cm_summary_criterion_label (c->name));
          adw_action_row_set_subtitle (ADW_ACTION_ROW (crow), subtitle);
          add_status_suffix (ADW_ACTION_ROW (crow), c->status);
          adw_expander_row_add_row (ADW_EXPANDER_ROW (row), crow);
        }

      adw_preferences_group_add (self->claims_group, row);
    }
}

static void
attach_cell (GtkGrid    *grid,
             const char *text,
             int         column,
             int         row,
             gboolean    heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  /* The test's name gives way on a narrow window; the figures never do. */
  if (column == 0 && !heading)
    {
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_width_chars (GTK_LABEL (label), 12);
    }
  if (heading)
    gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_hexpand (label, column == 0);
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static void
fill_details (CmResultPage *self)
{
  GPtrArray *tests = cm_result_get_tests (self->result);
  const char *headings[] = {
    N_("Test"), N_("MB/s"), N_("IOPS"), N_("Median"), N_("99 %"), N_("Sustained MB/s"),
  };

  for (guint c = 0; c < G_N_ELEMENTS (headings); c++)
    attach_cell (self->details_grid, _(headings[c]), c, 0, TRUE);

  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);
      char buf[6][64];
      g_autofree char *median = NULL;
      g_autofree char *p99 = NULL;

      attach_cell (self->details_grid, cm_test_table_get_label (t->name), 0, i + 1, FALSE);
      if (t->error != NULL)
        {
          GtkWidget *label = gtk_label_new (t->error);

          gtk_label_set_wrap (GTK_LABEL (label), TRUE);
          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_grid_attach (self->details_grid, label, 1, i + 1, 5, 1);
          continue;
        }

      g_snprintf (buf[1], sizeof buf[1], t->mb_per_s >= 100 ? "%.0f" : t->mb_per_s >= 10 ? "%.1f" : "%.2f", t->mb_per_s);
      g_snprintf (buf[2], sizeof buf[2], "%.0f", t->iops);
      /* Latencies in milliseconds, as people time a card. */
      median = cm_summary_format_latency (t->latency_us[0]);
      p99 = cm_summary_format_latency (t->latency_us[2]);
      g_strlcpy (buf[3], median, sizeof buf[3]);
      g_strlcpy (buf[4], p99, sizeof buf[4]);
      if (cm_test_result_get_sustained_mb_per_s (t) > 0)
        g_snprintf (buf[5], sizeof buf[5], cm_test_result_get_sustained_mb_per_s (t) >= 100 ? "%.0f" : cm_test_result_get_sustained_mb_per_s (t) >= 10 ? "%.1f" : "%.2f",
                    cm_test_result_get_sustained_mb_per_s (t));
      else
        g_strlcpy (buf[5], "—", sizeof buf[5]);

      for (guint c = 1; c < 6; c++)
        attach_cell (self->details_grid, buf[c], c, i + 1, FALSE);
    }
}

/* Read figures on the left, write figures on the right, one pair a row,
 * in the order of the table of tests. */
static void
fill_headline (CmResultPage *self)
{
  g_autoptr(GPtrArray) figures = cm_summary_dup_headline (self->result);
  int rows[2] = { 0, 0 };

  for (guint i = 0; i < figures->len; i++)
    {
      const CmHeadlineFigure *f = g_ptr_array_index (figures, i);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (f->label);
      GtkWidget *value = gtk_label_new (f->value);
      int column = f->direction == CM_DIRECTION_READ ? 0 : 1;

      gtk_widget_add_css_class (box, "figure");
      gtk_widget_add_css_class (label, "figure-label");
      gtk_widget_add_css_class (value, "figure-value");
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (label, f->label);
      gtk_widget_set_hexpand (label, TRUE);
      if (!f->measured)
        gtk_widget_set_tooltip_text (value, _("Not measured by this test"));
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), value);
      gtk_grid_attach (self->headline_grid, box, column, rows[column]++, 1, 1);
    }
}

static void
fill_notes (CmResultPage *self)
{
  GPtrArray *notes = cm_result_get_notes (self->result);

  for (guint i = 0; i < notes->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), g_ptr_array_index (notes, i));
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      adw_preferences_group_add (self->notes_group, row);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->notes_group), notes->len > 0);
}

/* A verify or a capacity check: none of a benchmark's classes, speed
 * charts or table of tests, and no "Test Again", which would start a
 * benchmark. */
static void
hide_benchmark (CmResultPage *self)
{
  GtkWidget *groups[] = {
    GTK_WIDGET (self->claims_group), GTK_WIDGET (self->summary_group), GTK_WIDGET (self->time_group),
    GTK_WIDGET (self->latency_group), GTK_WIDGET (self->sweep_group), GTK_WIDGET (self->position_group),
    GTK_WIDGET (self->details_group), self->again_button,
  };

  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    gtk_widget_set_visible (groups[i], FALSE);
}

/* The card the map names. */
static const char *
map_device (CmResultPage *self)
{
  const char *device = cm_result_get_device (self->result);

  return device != NULL ? device : cm_result_get_name (self->result);
}

static CmChartView *
lookup_chart (CmResultPage *self,
              CmChartKind   kind)
{
  CmChartView *charts[] = {
    self->summary_chart, self->time_chart, self->latency_chart, self->sweep_chart, self->position_chart,
    self->kind_chart,
  };

  for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
    {
      CmChartKind other;

      if (charts[i] != NULL && cm_chart_view_get_chart_kind (charts[i], &other) && other == kind)
        return charts[i];
    }
  return NULL;
}

/* A capacity check's map has no row in the table's exports (it is not
 * drawn from results): the page offers it when it shows one. */
#define MAP_EXPORT_HEIGHT 560

static gboolean
can_export_map (CmResultPage *self,
                CmChartKind   kind)
{
  return kind == CM_CHART_CAPACITY_MAP && cm_result_get_capacity (self->result) != NULL;
}

gboolean
cm_result_page_export_chart (CmResultPage  *self,
                             CmChartKind    kind,
                             GFile         *file,
                             GError       **error)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autofree char *path = NULL;

  g_return_val_if_fail (CM_IS_RESULT_PAGE (self), FALSE);
  g_return_val_if_fail (cm_chart_kind_get_export_height (kind) > 0 || can_export_map (self, kind), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Charts can only be saved to a local folder. Pick a folder on this computer."));
      return FALSE;
    }

  /* The map is drawn from the check's report, as the CLI's --plot does. */
  if (kind == CM_CHART_CAPACITY_MAP)
    return cm_chart_export_capacity (path, cm_result_get_capacity (self->result), map_device (self),
                                     CM_CHART_EXPORT_WIDTH, MAP_EXPORT_HEIGHT, NULL, error);

  g_ptr_array_add (results, self->result);
  return cm_chart_export (path, kind, results, CM_CHART_EXPORT_WIDTH,
                          cm_chart_kind_get_export_height (kind), error);
}

static void
export_chart_chosen_cb (CmResultPage         *self,
                        int                   response,
                        GtkFileChooserNative *native)
{
  CmChartKind kind = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (native), "cm-chart-kind"));
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      if (cm_result_page_export_chart (self, kind, file, &error))
        cm_toast_show (GTK_WIDGET (self), _("Chart saved."));
      else
        cm_toast_show (GTK_WIDGET (self), error->message);
    }

  g_object_unref (native);
}

static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  CmResultPage *self = CM_RESULT_PAGE (widget);
  GtkNative *parent = gtk_widget_get_native (widget);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d-%H%M");
  g_autofree char *name = NULL;
  GtkFileChooserNative *native;
  CmChartKind kind;

  if (!cm_chart_kind_from_string (g_variant_get_string (param, NULL), &kind) ||
      (cm_chart_kind_get_export_label (kind) == NULL && !can_export_map (self, kind)))
    return;

  name = g_strdup_printf ("cardmark-%s-%s.png", stamp, cm_chart_kind_to_string (kind));
  native = gtk_file_chooser_native_new (_("Export Chart"),
                                        GTK_IS_WINDOW (parent) ? GTK_WINDOW (parent) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  /* The extension picks the format: .png, .svg or .pdf. */
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  g_object_set_data (G_OBJECT (native), "cm-chart-kind", GUINT_TO_POINTER (kind));
  g_signal_connect_object (native, "response", G_CALLBACK (export_chart_chosen_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* One menu entry per chart of the page that has something to show and
 * an Export entry in the table of kinds, in the table's order. */
static void
fill_export_menu (CmResultPage *self)
{
  GMenuModel *model = gtk_menu_button_get_menu_model (self->export_button);
  g_autoptr(GMenu) section = g_menu_new ();

  for (CmChartKind kind = 0; kind < CM_CHART_N_KINDS; kind++)
    {
      const char *label = cm_chart_kind_get_export_label (kind);
      CmChartView *chart = lookup_chart (self, kind);
      g_autofree char *action = NULL;

      if (label == NULL || chart == NULL || !cm_chart_view_has_data (chart))
        continue;
      action = g_strdup_printf ("result.export-chart::%s", cm_chart_kind_to_string (kind));
      g_menu_append (section, label, action);
    }
  if (can_export_map (self, CM_CHART_CAPACITY_MAP))
    {
      g_autofree char *action = g_strdup_printf ("result.export-chart::%s",
                                                 cm_chart_kind_to_string (CM_CHART_CAPACITY_MAP));

      g_menu_append (section, _("Capacity _Map…"), action);
    }

  if (G_IS_MENU (model) && g_menu_model_get_n_items (G_MENU_MODEL (section)) > 0)
    g_menu_append_section (G_MENU (model), _("Chart as PNG, SVG or PDF"), G_MENU_MODEL (section));
}

static void
fill_charts (CmResultPage *self)
{
  CmChartView *charts[] = {
    self->summary_chart, self->time_chart, self->latency_chart, self->sweep_chart, self->position_chart,
  };

  for (guint i = 0; i < G_N_ELEMENTS (charts); i++)
    cm_chart_view_set_result (charts[i], self->result);

  /* The block size sweep and the surface read are in the full profile
   * only; the other three always show, with the chart's own message
   * when a test is missing. */
  gtk_widget_set_visible (GTK_WIDGET (self->sweep_group), cm_chart_view_has_data (self->sweep_chart));
  gtk_widget_set_visible (GTK_WIDGET (self->position_group), cm_chart_view_has_data (self->position_chart));
  /* A read-only run wrote nothing: no empty write chart. */
  gtk_widget_set_visible (GTK_WIDGET (self->time_group), cm_chart_view_has_data (self->time_chart));
}

static void
cm_result_page_dispose (GObject *object)
{
  CmResultPage *self = CM_RESULT_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_RESULT_PAGE);
  g_clear_object (&self->result);

  G_OBJECT_CLASS (cm_result_page_parent_class)->dispose (object);
}

static void
cm_result_page_class_init (CmResultPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_result_page_dispose;

  g_type_ensure (CM_TYPE_CHART_VIEW);
  g_type_ensure (CM_TYPE_SEEN_LIST);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-result-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, banner);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, verdict_label);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, headline_grid);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, again_button);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, erase_button);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, again_reason);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, kind_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, facts_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, summary_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, latency_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, details_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, time_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, claims_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, export_button);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, button_box);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, sweep_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, position_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, summary_chart);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, time_chart);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, latency_chart);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, sweep_chart);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, position_chart);

  gtk_widget_class_install_action (widget_class, "result.export-chart", "s", export_chart_action);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, details_grid);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, notes_group);
  gtk_widget_class_bind_template_child (widget_class, CmResultPage, seen_list);
}

static void
cm_result_page_init (CmResultPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The summary can be selected with the pointer, but is no Tab stop:
   * the page's first stop is its first button, so that the focus a run's
   * page hands on lands there rather than selecting the whole summary
   * (Copy Summary copies it from the keyboard). */
  gtk_widget_set_focusable (GTK_WIDGET (self->summary_label), FALSE);
  cm_accessible_flow_buttons (self->button_box);
}

/* The page's part of each kind, in its kind's own file: one line a
 * kind; a kind without one (a benchmark, or one from a newer CardMark)
 * shows its classes, its tests and its charts. */
static const struct
{
  const CmJobKind  *kind;
  CmResultPartFill  fill;
} kind_parts[] = {
  { &cm_job_kind_verify, cm_verify_row_fill_part },
  { &cm_job_kind_capacity, cm_capacity_row_fill_part },
  { &cm_job_kind_wear, cm_wear_row_fill_part },
  { &cm_job_kind_format, cm_format_row_fill_part },
  { &cm_job_kind_power, cm_power_part_fill },
  { &cm_job_kind_queue, cm_queue_row_fill_part },
};

static void
fill_kind (CmResultPage *self,
           const char   *kind)
{
  const CmJobKind *job_kind = kind != NULL ? cm_job_kinds_lookup (kind) : NULL;

  for (guint i = 0; job_kind != NULL && i < G_N_ELEMENTS (kind_parts); i++)
    if (job_kind == kind_parts[i].kind)
      {
        CmResultPart part = { self->kind_group, self->facts_group, NULL };

        hide_benchmark (self);
        kind_parts[i].fill (&part, self->result);
        self->kind_chart = part.chart;
        return;
      }
  fill_claims (self);
  fill_details (self);
  fill_charts (self);
}

CmResultPage *
cm_result_page_new (CmResult *result)
{
  CmResultPage *self;
  g_autofree char *headline = NULL;
  g_autofree char *sentence = NULL;
  g_autofree char *unbroken = NULL;
  g_autofree char *css = NULL;
  const char *kind;

  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  self = g_object_new (CM_TYPE_RESULT_PAGE, NULL);
  self->result = g_object_ref (result);
  kind = cm_result_get_kind (result);

  headline = dup_headline (result, &self->status);
  sentence = dup_summary_sentence (result);
  css = g_strdup (cm_status_to_string (self->status));
  gtk_widget_add_css_class (GTK_WIDGET (self->banner), css);
  gtk_label_set_label (self->verdict_label, headline);
  unbroken = cm_text_dup_unbroken_units (sentence);
  gtk_label_set_label (self->summary_label, unbroken);

  /* A check that left the card erased offers to give it back. */
  gtk_widget_set_visible (self->erase_button, cm_job_kind_left_card_erased (result));
  fill_headline (self);
  fill_kind (self, kind);
  fill_notes (self);
  cm_seen_list_look_up_result (self->seen_list, self->result);
  fill_export_menu (self);

  return self;
}

CmResult *
cm_result_page_get_result (CmResultPage *self)
{
  g_return_val_if_fail (CM_IS_RESULT_PAGE (self), NULL);
  return self->result;
}

/* The chart views on the page, in the order shown; hidden ones too. A
 * verify's or a capacity check's own chart comes first. */
GPtrArray *
cm_result_page_dup_charts (CmResultPage *self)
{
  GPtrArray *charts = g_ptr_array_new ();

  g_return_val_if_fail (CM_IS_RESULT_PAGE (self), NULL);

  if (self->kind_chart != NULL)
    g_ptr_array_add (charts, self->kind_chart);
  g_ptr_array_add (charts, self->summary_chart);
  g_ptr_array_add (charts, self->time_chart);
  g_ptr_array_add (charts, self->latency_chart);
  g_ptr_array_add (charts, self->sweep_chart);
  g_ptr_array_add (charts, self->position_chart);
  return charts;
}

CmStatus
cm_result_page_get_status (CmResultPage *self)
{
  g_return_val_if_fail (CM_IS_RESULT_PAGE (self), CM_STATUS_NOT_JUDGED);
  return self->status;
}

/* Says under Test Again, and on it, why it cannot start (@why_not), or
 * nothing when it can (NULL): a greyed-out button alone does not say
 * that the card went away. */
void
cm_result_page_set_again_reason (CmResultPage *self,
                                 const char   *why_not)
{
  g_return_if_fail (CM_IS_RESULT_PAGE (self));

  gtk_label_set_label (self->again_reason, why_not != NULL ? why_not : "");
  gtk_widget_set_visible (GTK_WIDGET (self->again_reason),
                          why_not != NULL && gtk_widget_get_visible (self->again_button));
  /* Only when it changes: each call makes GTK 4.8 query the tooltip
   * again, and this runs on every change of the window's jobs. */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (self->again_button), why_not) != 0)
    gtk_widget_set_tooltip_text (self->again_button, why_not);
}

/* A saved document of a kind that runs again from its card's page (not
 * only a benchmark): Test Again shows. */
void
cm_result_page_offer_again (CmResultPage *self)
{
  g_return_if_fail (CM_IS_RESULT_PAGE (self));

  gtk_widget_set_visible (self->again_button, TRUE);
}

/* Whether Test Again is on the page. */
gboolean
cm_result_page_get_offers_again (CmResultPage *self)
{
  g_return_val_if_fail (CM_IS_RESULT_PAGE (self), FALSE);

  return gtk_widget_get_visible (self->again_button);
}

/* What the page says about Test Again being greyed out, or NULL. */
const char *
cm_result_page_get_again_reason (CmResultPage *self)
{
  g_return_val_if_fail (CM_IS_RESULT_PAGE (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->again_reason)))
    return NULL;
  return gtk_label_get_label (self->again_reason);
}
