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
 * card is fake, its real and reported size, and its map.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-accessible.h"
#include "cm-card-info.h"
#include "cm-test-table.h"
#include "cm-backend.h"
#include "cm-format.h"
#include "cm-job-format.h"
#include "cm-summary.h"
#include "cm-text.h"
#include "cm-chart-capacity.h"
#include "cm-chart-view.h"
#include "cm-seen-list.h"
#include "cm-toast.h"

#include "cm-verdict.h"
#include "cm-verify.h"

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

/* One fact of a verify or a capacity check: "Sectors corrupted  12". */
static GtkWidget *
add_fact (CmResultPage *self,
          const char   *title,
          const char   *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (self->facts_group, row);
  gtk_widget_set_visible (GTK_WIDGET (self->facts_group), TRUE);
  return row;
}

static void
add_count (CmResultPage *self,
           const char   *title,
           guint64       count)
{
  g_autofree char *value = g_strdup_printf ("%" G_GUINT64_FORMAT, count);

  add_fact (self, title, value);
}

static void
add_size (CmResultPage *self,
          const char   *title,
          guint64       bytes)
{
  g_autofree char *value = g_format_size (bytes);

  add_fact (self, title, value);
}

/* The chart of a kind that is not a benchmark, in its own group. */
static CmChartView *
add_kind_chart (CmResultPage *self,
                CmChartKind   kind,
                const char   *title,
                const char   *description)
{
  GtkWidget *chart = cm_chart_view_new (kind);

  adw_preferences_group_set_title (self->kind_group, title);
  adw_preferences_group_set_description (self->kind_group, description);
  adw_preferences_group_add (self->kind_group, chart);
  gtk_widget_set_visible (GTK_WIDGET (self->kind_group), TRUE);
  self->kind_chart = CM_CHART_VIEW (chart);
  return self->kind_chart;
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

static void
fill_verify (CmResultPage *self)
{
  const CmVerifySummary *verify = cm_result_get_verify (self->result);
  CmVerifyFacts facts;

  hide_benchmark (self);
  cm_chart_view_set_result (add_kind_chart (self, CM_CHART_VERIFY,
                                            _("Write and Read Back Across the Card"),
                                            _("Where data did not come back as written shows as red regions.")),
                            self->result);
  if (!cm_verify_facts_for_result (self->result, &facts))
    return;

  if (facts.written_bytes > 0)
    add_size (self, _("Written to the card"), facts.written_bytes);
  add_size (self, _("Read back and checked"), facts.read_bytes);
  if (facts.unreached_bytes > 0)
    add_size (self, _("Never reached, as the card stopped"), facts.unreached_bytes);
  add_count (self, _("Sectors that came back as written"), verify->sectors_ok);
  add_count (self, _("Sectors corrupted"), verify->sectors_corrupted);
  add_count (self, _("Sectors changed"), verify->sectors_changed);
  add_count (self, _("Sectors holding data of another place"), verify->sectors_overwritten);
  add_count (self, _("Sectors that could not be read"), verify->sectors_unreadable);
  add_count (self, _("Regions that lost data"), verify->bad_regions->len);
  if (verify->first_bad_offset >= 0)
    add_size (self, _("First lost data at"), verify->first_bad_offset);
  if (!verify->complete)
    add_fact (self, _("Finished"), _("No: the card stopped answering"));
}

/* The card the map names. */
static const char *
map_device (CmResultPage *self)
{
  const char *device = cm_result_get_device (self->result);

  return device != NULL ? device : cm_result_get_name (self->result);
}

static void
fill_capacity (CmResultPage *self)
{
  const CmCapacityReport *report = cm_result_get_capacity (self->result);
  CmChartView *chart;

  hide_benchmark (self);
  chart = add_kind_chart (self, CM_CHART_CAPACITY_MAP, _("Capacity Map"),
                          _("The card from start to end: each cell is a place that was written and read back."));
  if (report == NULL)
    return;

  cm_chart_view_set_capacity (chart, report, map_device (self));
  add_count (self, _("Places checked"), report->n_positions);
  add_count (self, _("Places that did not keep their data"), report->n_bad);
  add_count (self, _("Places with a read or write error"), report->n_errors);
  add_size (self, _("Last place that kept its data"), report->last_good_bytes);
  add_size (self, _("Controller cache ruled out"), report->cache_ruled_out);
}

/* Under a figure of bytes written: its share of the maker's endurance,
 * when the maker's was given. */
static void
set_beside_maker (GtkWidget         *row,
                  const CmEndurance *endurance,
                  guint64            written)
{
  g_autofree char *share = NULL;

  if (endurance->maker_bytes == 0)
    return;
  /* Translators: under "Round 12, after 3.2 TB written" */
  share = g_strdup_printf (_("%.1f %% of the maker’s endurance"), 100.0 * written / endurance->maker_bytes);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), share);
}

/* The rounds' write amplification, or that it is not known where the card
 * did not tell its flash writes: never a typed-in figure. */
static void
add_write_amplification (CmResultPage      *self,
                         const CmEndurance *endurance)
{
  g_autofree char *value = NULL;
  double lo, hi;

  if (cm_endurance_get_write_amplification (endurance, &lo, &hi))
    /* Translators: write amplification per round, "1.02 to 1.10" */
    value = g_strdup_printf (_("%.2f to %.2f"), lo, hi);
  else
    value = g_strdup (_("Not known: the card does not tell what it wrote to its flash"));
  add_fact (self, _("Write amplification"), value);
}

/* A wear test: its rounds, the thresholds it reached and why it ended. */
static void
fill_wear (CmResultPage *self)
{
  const CmEndurance *endurance = cm_result_get_endurance (self->result);
  const CmWearRound *last;
  g_autofree char *total = NULL;

  hide_benchmark (self);
  cm_chart_view_set_result (add_kind_chart (self, CM_CHART_WEAR, _("Round by Round"),
                                            _("How fast each round wrote and read back the card, and how much of it "
                                              "came back wrong.")),
                            self->result);
  if (endurance == NULL || endurance->rounds->len == 0)
    return;
  last = &g_array_index (endurance->rounds, CmWearRound, endurance->rounds->len - 1);
  add_count (self, _("Rounds"), endurance->rounds->len);
  if (endurance->maker_bytes > 0)
    {
      g_autofree char *maker = g_format_size (endurance->maker_bytes);
      /* Translators: the maker's endurance, "30.0 TB written" */
      g_autofree char *value = g_strdup_printf (_("%s written"), maker);

      add_fact (self, _("The maker’s endurance"), value);
    }
  total = g_format_size (last->bytes_written);
  set_beside_maker (add_fact (self, _("Written in all"), total), endurance, last->bytes_written);
  for (guint i = 0; i < CM_ENDURANCE_N_THRESHOLDS; i++)
    {
      guint round;
      guint64 written;
      g_autofree char *title = NULL;
      g_autofree char *value = NULL;
      g_autofree char *size = NULL;

      if (!cm_endurance_get_threshold (endurance, i, &round, &written))
        continue;
      size = g_format_size (written);
      title = i == 0 ? g_strdup (_("First data lost"))
                     /* Translators: a wear test's threshold: "1 % of the card bad" */
                     : g_strdup_printf (_("%g %% of the card bad"), cm_endurance_threshold_share (i) * 100);
      /* Translators: "round 12, after 3.2 GB written" */
      value = g_strdup_printf (_("Round %u, after %s written"), round, size);
      set_beside_maker (add_fact (self, title, value), endurance, written);
    }
  add_count (self, _("Sectors bad in the last round"), last->bad_sectors);
  add_write_amplification (self, endurance);
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

/* An erase and format: the layout made, the erase, the check. */
static void
fill_format (CmResultPage *self)
{
  g_autoptr(CmFormatReport) report = cm_format_report_from_json (cm_result_get_part (self->result), NULL);
  g_autofree char *layout = NULL;
  g_autofree char *discard = NULL;

  hide_benchmark (self);
  if (report == NULL)
    return;
  layout = cm_format_report_dup_layout_text (report);
  discard = cm_format_report_dup_discard_text (report);
  /* What was laid out is among the headline figures above. */
  add_fact (self, _("File system"), layout);
  add_size (self, _("The card says it holds"), report->device_bytes);
  {
    g_autofree char *start = g_format_size_full (report->layout.start, G_FORMAT_SIZE_IEC_UNITS);
    g_autofree char *length = g_format_size (report->layout.length);
    g_autofree char *where = NULL;

    /* A window (a loop device over the partition's bytes, gone after)
     * is no name of the partition. */
    if (report->window || report->partition == NULL)
      /* Translators: the partition made; "from 4.0 MiB in, 252 MB long" */
      where = g_strdup_printf (_("From %s in, %s long"), start, length);
    else
      /* Translators: the partition made; "from 4.0 MiB in, 252 MB long, /dev/sdb1" */
      where = g_strdup_printf (_("From %s in, %s long, %s"), start, length, report->partition);

    add_fact (self, _("Partition"), where);
  }
  if (report->label != NULL)
    add_fact (self, _("Label"), report->label);
  /* Translators: whether fsck found the new file system clean */
  add_fact (self, _("File system check"),
            !report->fsck_ran ? _("Not checked") : report->fsck_clean ? _("Clean") : _("Faults found"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (add_fact (self, _("Erase"), "")), discard);
  /* With a benchmark after it: what the erase gave back. */
  {
    g_autoptr(GPtrArray) speeds = cm_format_dup_speed_lines (self->result);

    if (speeds->len > 0)
      {
        g_autofree char *text = NULL;

        g_ptr_array_add (speeds, NULL);
        text = g_strjoinv ("\n", (char **) speeds->pdata);
        adw_action_row_set_subtitle (ADW_ACTION_ROW (add_fact (self, _("Speed before and after"), "")), text);
      }
  }
}

/* The page's part of each kind: one line a kind; a kind without one (a
 * benchmark, or one from a newer CardMark) shows its classes, its tests
 * and its charts. */
static const struct
{
  const CmJobKind *kind;
  void      (*fill) (CmResultPage *self);
} kind_parts[] = {
  { &cm_job_kind_verify, fill_verify },
  { &cm_job_kind_capacity, fill_capacity },
  { &cm_job_kind_wear, fill_wear },
  { &cm_job_kind_format, fill_format },
};

static void
fill_kind (CmResultPage *self,
           const char   *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_parts); i++)
    if (g_strcmp0 (kind, kind_parts[i].kind->name) == 0)
      {
        kind_parts[i].fill (self);
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
