/* cm-bench-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Last Benchmark" on a card's page: the card's newest benchmark from
 * the history, dated, with its answer and its first figures, and Show to
 * open it ("show-result"). The benchmark itself is started by Start Test
 * and shown by the window; this row only says how the card did last
 * time, also after a restart. It is looked up, in another thread, each
 * time the page shows (cm_bench_row_look_up()), so a benchmark just run is the one it says; the
 * row stays hidden while the card has none.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-app-history.h"
#include "cm-job-kinds.h"
#include "cm-outcome.h"
#include "cm-summary.h"

#include "cm-bench-row.h"

/* The figures the row names after the answer: write and read. */
#define ROW_FIGURES 2

struct _CmBenchRow
{
  AdwActionRow  parent_instance;

  CmCardItem   *item;
  CmResult     *result;     /* the card's last benchmark, or NULL */
  GCancellable *finding;    /* that one, being looked up */
  GtkWidget    *show_button;
};

G_DEFINE_FINAL_TYPE (CmBenchRow, cm_bench_row, ADW_TYPE_ACTION_ROW)

enum {
  SIGNAL_SHOW_RESULT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* "On 4 Dec 2026, 09:29: Meets Class 10 · Sequential write 18.2 MB/s ·
 * Sequential read 45.1 MB/s" */
static char *
dup_subtitle (CmResult *result)
{
  g_autoptr(CmOutcome) outcome = cm_result_dup_outcome (result);
  g_autoptr(GPtrArray) figures = cm_summary_dup_headline (result);
  g_autoptr(GString) said = g_string_new (outcome->answer != NULL ? outcome->answer : outcome->badge);
  guint named = 0;

  for (guint i = 0; i < figures->len && named < ROW_FIGURES; i++)
    {
      CmHeadlineFigure *figure = g_ptr_array_index (figures, i);

      if (!figure->measured || figure->latency)
        continue;
      if (said->len > 0)
        g_string_append (said, " · ");
      /* Translators: a benchmark's figure on a card's page: "Sequential write 18.2 MB/s" */
      g_string_append_printf (said, _("%s %s"), figure->label, figure->value);
      named++;
    }
  return cm_app_history_dup_earlier (result, said->str);
}

static void
last_found (gpointer  owner,
            CmResult *last)
{
  CmBenchRow *self = owner;
  g_autofree char *subtitle = NULL;

  g_clear_object (&self->finding);
  g_set_object (&self->result, last);
  gtk_widget_set_visible (GTK_WIDGET (self), last != NULL);
  if (last == NULL)
    return;
  subtitle = dup_subtitle (last);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle);
}

/**
 * cm_bench_row_look_up:
 *
 * Looks the card's last benchmark up again, in another thread: each time
 * its page shows, as a benchmark may have ended since.
 */
void
cm_bench_row_look_up (CmBenchRow *self)
{
  g_return_if_fail (CM_IS_BENCH_ROW (self));

  g_cancellable_cancel (self->finding);
  g_clear_object (&self->finding);
  self->finding = g_cancellable_new ();
  cm_app_history_find_last (self->item, cm_job_kind_bench.name, self->finding, last_found, self);
}

static void
show_clicked_cb (CmBenchRow *self)
{
  if (self->result != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, self->result);
}

/* The last benchmark the row says, or NULL: for the tests. */
CmResult *
cm_bench_row_get_result (CmBenchRow *self)
{
  g_return_val_if_fail (CM_IS_BENCH_ROW (self), NULL);
  return self->result;
}

static void
cm_bench_row_dispose (GObject *object)
{
  CmBenchRow *self = CM_BENCH_ROW (object);

  g_cancellable_cancel (self->finding);
  g_clear_object (&self->finding);
  g_clear_object (&self->result);
  g_clear_object (&self->item);
  G_OBJECT_CLASS (cm_bench_row_parent_class)->dispose (object);
}

static void
cm_bench_row_class_init (CmBenchRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cm_bench_row_dispose;

  /**
   * CmBenchRow::show-result:
   * @result: the card's last benchmark, when Show is clicked
   *
   * The window shows its page.
   */
  signals[SIGNAL_SHOW_RESULT] =
    g_signal_new ("show-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);
}

static void
cm_bench_row_init (CmBenchRow *self)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Last Benchmark"));
  self->show_button = gtk_button_new_with_mnemonic (_("_Show"));
  gtk_widget_set_valign (self->show_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->show_button, "flat");
  gtk_widget_set_tooltip_text (self->show_button, _("Show the last benchmark of this card"));
  g_signal_connect_swapped (self->show_button, "clicked", G_CALLBACK (show_clicked_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (self), self->show_button);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
cm_bench_row_new (CmCardItem *item)
{
  CmBenchRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_BENCH_ROW, NULL);
  self->item = g_object_ref (item);
  return GTK_WIDGET (self);
}
