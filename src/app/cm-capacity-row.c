/* cm-capacity-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Check Capacity…" on a card's page: after asking (the check writes to
 * the card, and puts back what it overwrote), a "capacity" job
 * (cm-job-capacity.c) finds out whether the card really holds what it
 * says. The page's progress bar under the row follows it, and the map
 * under that shows where the card's storage ends once it is done; its
 * document opens on its page ("show-result"). What every kind's row does
 * is CmKindRow's (cm-kind-row.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-capacity-probe.h"
#include "cm-job-list.h"
#include "cm-result-part.h"
#include "cm-toast.h"

#include "cm-capacity-row.h"

/* What the deeper capacity check rules out. */
#define DEEPER_CACHE (G_GUINT64_CONSTANT (1024) * 1024 * 1024)

struct _CmCapacityRow
{
  CmKindRow       parent_instance;

  GtkProgressBar *progress;     /* the page's, under the row */
  CmChartView    *map;          /* the page's, under that */
  char           *outcome;      /* the sentence of the last check */
  gboolean        fake;
  guint64         cache_bytes;  /* what the next check rules out */
  gboolean        again_deeper; /* Test Again on a deeper check: ticked */
};

G_DEFINE_FINAL_TYPE (CmCapacityRow, cm_capacity_row, CM_TYPE_KIND_ROW)

/* Another job of the card that runs, or NULL. */
static CmJob *
other_job (CmCapacityRow *self)
{
  CmCardItem *item = cm_kind_row_get_item (CM_KIND_ROW (self));
  CmJob *other = item != NULL ? cm_job_list_lookup (cm_job_list_get_default (), item) : NULL;

  if (other == NULL || other == cm_kind_row_get_job (CM_KIND_ROW (self)) || !cm_job_is_active (other))
    return NULL;
  return other;
}

static gboolean
can_check_capacity (CmCapacityRow  *self,
                    const char    **why_not)
{
  CmCardItem *item = cm_kind_row_get_item (CM_KIND_ROW (self));

  if (cm_card_item_get_kind (item) != CM_CARD_KIND_DEVICE)
    *why_not = _("Only a whole card can be checked, not a folder.");
  else if (cm_card_item_get_is_system (item))
    *why_not = _("This disk holds the running system, so it is never written to.");
  else if (cm_card_item_get_mounted (item))
    *why_not = _("The card is mounted. Eject it in Files (keep it in the reader) to check it.");
  /* Any card coming or going fills the row again: a card that another
   * check holds stays refused until that check ends. */
  else if (other_job (self) != NULL)
    *why_not = _("Another check of this card is running. Wait for it to end, or stop it.");
  else
    return TRUE;

  return FALSE;
}

static void
cm_capacity_row_fill (CmKindRow *row)
{
  const char *why_not = NULL;
  gboolean can = can_check_capacity (CM_CAPACITY_ROW (row), &why_not);
  g_autofree char *answer = cm_kind_row_dup_last_answer (row);

  gtk_widget_set_sensitive (GTK_WIDGET (row), can);
  /* The last check's answer stays in sight once its dialog is closed. */
  if (answer != NULL)
    cm_kind_row_set_subtitle (row, answer);
  else
    cm_kind_row_set_subtitle (row, can ? _("Finds out whether the card really holds what it says") : why_not);
}

/* The row, its progress and the map below it may sit low on a small
 * screen: once laid out, scroll so that they are in view. */
static gboolean
scroll_to_row_cb (GtkWidget     *widget,
                  GdkFrameClock *clock,
                  gpointer       user_data)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *content;
  GtkAdjustment *adjustment;
  graphene_point_t top;

  if (scrolled == NULL || (content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled))) == NULL ||
      !gtk_widget_compute_point (widget, content, &GRAPHENE_POINT_INIT (0, 0), &top))
    return G_SOURCE_REMOVE;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adjustment, top.y - 12);
  return G_SOURCE_REMOVE;
}

/* The progress bar shows while a check runs; the map of the last one
 * hides until the new one is done. */
static void
busy_cb (CmCapacityRow *self)
{
  gboolean probing = cm_kind_row_get_busy (CM_KIND_ROW (self));

  if (self->progress == NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->progress), probing);
  gtk_progress_bar_set_fraction (self->progress, 0);
  if (probing)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->map), FALSE);
      gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_row_cb, NULL, NULL);
    }
}

/* The job's phase, progress and time left, as the card list says them. */
static void
cm_capacity_row_progress (CmKindRow *row,
                          CmJob     *job)
{
  CmCapacityRow *self = CM_CAPACITY_ROW (row);

  CM_KIND_ROW_CLASS (cm_capacity_row_parent_class)->progress (row, job);
  if (self->progress != NULL)
    gtk_progress_bar_set_fraction (self->progress, cm_job_get_progress (job));
}

static void
cm_capacity_row_ended (CmKindRow *row,
                       CmJob     *job)
{
  CmCapacityRow *self = CM_CAPACITY_ROW (row);
  CmCardItem *item = cm_kind_row_get_item (row);
  const GError *error = cm_job_get_error (job);
  const CmCapacityReport *report = cm_job_get_result (job) != NULL ? cm_result_get_capacity (cm_job_get_result (job))
                                                                   : NULL;

  if (cm_job_get_state (job) == CM_JOB_STATE_CANCELLED)
    cm_toast_show (GTK_WIDGET (self), _("Capacity check cancelled. The card's data was put back."));
  else if (error != NULL)
    cm_toast_show (GTK_WIDGET (self), error->message);
  else if (report != NULL)
    {
      g_free (self->outcome);
      self->outcome = cm_capacity_report_describe (cm_card_item_get_device (item), report);
      self->fake = report->fake;
      if (self->map != NULL)
        {
          cm_chart_view_set_capacity (self->map, report, cm_card_item_get_device (item));
          gtk_widget_set_visible (GTK_WIDGET (self->map), TRUE);
        }
      gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_row_cb, NULL, NULL);
      cm_kind_row_show_done (row, job);
    }
}

/* The check writes to the card and puts its data back at the end, also
 * when cancelled; the application holds the job until then, so that
 * quitting or closing the window waits for the card's data. */
static void
start_probe (CmCapacityRow *self)
{
  g_autoptr(CmJob) job = NULL;

  /* The page it is on sets what it knows of the card (its brand). */
  job = cm_kind_row_new_job (CM_KIND_ROW (self), CM_METHOD_RAW_WRITE);
  g_object_set (cm_job_get_options (job), "cache-bytes", self->cache_bytes, NULL);
  g_clear_pointer (&self->outcome, g_free);
  cm_kind_row_start_job (CM_KIND_ROW (self), job);
}

static void
confirm_probe_cb (CmCapacityRow    *self,
                  const char       *response,
                  AdwMessageDialog *dialog)
{
  GtkWidget *deeper = adw_message_dialog_get_extra_child (dialog);

  if (g_strcmp0 (response, "check") != 0 || cm_kind_row_get_busy (CM_KIND_ROW (self)) || other_job (self) != NULL)
    return;
  self->cache_bytes = deeper != NULL && gtk_check_button_get_active (GTK_CHECK_BUTTON (deeper))
                      ? DEEPER_CACHE : CM_CAPACITY_DEFAULT_CACHE;
  start_probe (self);
}

/* Asks first, since the check writes to the card (and then puts back
 * what it overwrote). */
static void
cm_capacity_row_activate (CmKindRow *row)
{
  CmCapacityRow *self = CM_CAPACITY_ROW (row);
  const char *why_not = NULL;
  g_autofree char *plan = NULL;
  g_autofree char *deeper_plan = NULL;
  g_autofree char *body = NULL;
  g_autofree char *deeper_label = NULL;
  GtkWidget *deeper;
  GtkWidget *label;
  GtkRoot *root;
  GtkWidget *dialog;
  guint64 size;

  if (!can_check_capacity (self, &why_not))
    {
      cm_toast_show (GTK_WIDGET (self), why_not);
      return;
    }

  size = cm_card_item_get_size (cm_kind_row_get_item (row));
  plan = cm_capacity_describe_plan (size, CM_CAPACITY_DEFAULT_CACHE);
  deeper_plan = cm_capacity_describe_plan (size, DEEPER_CACHE);
  body = g_strdup_printf (_("The check writes a signature to a few hundred places across the card, reads them back, "
                            "and then writes the card's own data back; what it overwrites is kept in a journal on "
                            "this computer first. Do not remove the card until it ends.\n\n%s"), plan);
  deeper_label = g_strdup_printf (_("Deeper check. %s"), deeper_plan);

  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Check the Card's Capacity?"), body);
  /* On a card smaller than the normal check's cache, the deeper check
   * is the same check: it is not offered with the same figures again. */
  if (g_strcmp0 (plan, deeper_plan) != 0)
    {
      deeper = gtk_check_button_new ();
      label = gtk_label_new (deeper_label);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_check_button_set_child (GTK_CHECK_BUTTON (deeper), label);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (deeper), self->again_deeper);
      gtk_widget_set_name (deeper, "deeper-check");
      adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), deeper);
    }
  self->again_deeper = FALSE;
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "check", _("_Check Card"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "check", ADW_RESPONSE_DESTRUCTIVE);
  /* The check puts back what it overwrites: Enter starts it, and the
   * focus starts on it, not on the "Deeper check" box. */
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "check");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_probe_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (gtk_window_get_default_widget (GTK_WINDOW (dialog)));
}

/**
 * cm_capacity_row_again:
 * @result: a capacity check of the row's card
 *
 * Asks to check the card again as @result did: the deeper check ticked
 * when @result was one.
 */
void
cm_capacity_row_again (CmCapacityRow *self,
                       CmResult      *result)
{
  g_return_if_fail (CM_IS_CAPACITY_ROW (self));
  g_return_if_fail (CM_IS_RESULT (result));

  self->again_deeper = cm_result_get_capacity (result) != NULL &&
                       cm_result_get_capacity (result)->cache_ruled_out >= DEEPER_CACHE;
  cm_kind_row_activate (CM_KIND_ROW (self));
}

/* The page's progress bar and map, under the row, that it fills. */
void
cm_capacity_row_set_views (CmCapacityRow  *self,
                           GtkProgressBar *progress,
                           CmChartView    *map)
{
  g_return_if_fail (CM_IS_CAPACITY_ROW (self));

  self->progress = progress;
  self->map = map;
}

/* The sentence the last capacity check showed, or NULL. */
const char *
cm_capacity_row_get_outcome (CmCapacityRow *self,
                             gboolean      *fake)
{
  g_return_val_if_fail (CM_IS_CAPACITY_ROW (self), NULL);

  if (fake != NULL)
    *fake = self->fake;
  return self->outcome;
}

static void
cm_capacity_row_finalize (GObject *object)
{
  CmCapacityRow *self = CM_CAPACITY_ROW (object);

  g_free (self->outcome);

  G_OBJECT_CLASS (cm_capacity_row_parent_class)->finalize (object);
}

static void
cm_capacity_row_class_init (CmCapacityRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  CmKindRowClass *row_class = CM_KIND_ROW_CLASS (klass);

  object_class->finalize = cm_capacity_row_finalize;
  row_class->kind = &cm_job_kind_capacity;
  row_class->fill = cm_capacity_row_fill;
  row_class->activate = cm_capacity_row_activate;
  row_class->progress = cm_capacity_row_progress;
  row_class->ended = cm_capacity_row_ended;
}

static void
cm_capacity_row_init (CmCapacityRow *self)
{
  self->cache_bytes = CM_CAPACITY_DEFAULT_CACHE;
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Check Capacity…"));
  cm_kind_row_set_action (CM_KIND_ROW (self), _("_Check"), NULL);
  cm_kind_row_set_stop_label (CM_KIND_ROW (self), _("_Cancel"));
  cm_kind_row_set_show (CM_KIND_ROW (self), _("Show the last capacity check of this card"));
  g_signal_connect (self, "notify::busy", G_CALLBACK (busy_cb), NULL);
}

/* The card the map names. */
static const char *
map_device (CmResult *result)
{
  const char *device = cm_result_get_device (result);

  return device != NULL ? device : cm_result_get_name (result);
}

/* A capacity check's part of its page: its map, and what it found. */
void
cm_capacity_row_fill_part (CmResultPart *part,
                           CmResult     *result)
{
  const CmCapacityReport *report = cm_result_get_capacity (result);
  CmChartView *chart;

  chart = cm_result_part_add_chart (part, CM_CHART_CAPACITY_MAP, _("Capacity Map"),
                                    _("The card from start to end: each cell is a place that was written and read back."));
  if (report == NULL)
    return;

  cm_chart_view_set_capacity (chart, report, map_device (result));
  cm_result_part_add_count (part, _("Places checked"), report->n_positions);
  cm_result_part_add_count (part, _("Places that did not keep their data"), report->n_bad);
  cm_result_part_add_count (part, _("Places with a read or write error"), report->n_errors);
  cm_result_part_add_size (part, _("Last place that kept its data"), report->last_good_bytes);
  cm_result_part_add_size (part, _("Controller cache ruled out"), report->cache_ruled_out);
}
