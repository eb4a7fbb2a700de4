/* cm-verify-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Verify Every Byte…" on a card's page: asks, starts a "verify" job
 * (cm-job-verify.c) in the application, shows its progress in the row's
 * subtitle; when it ends, its findings open on the verify's page (the
 * "show-result" signal), the row says its answer and Show opens it again.
 * The job keeps the result in the history, and goes on when the page is
 * left. A mounted
 * card or a folder is verified in F3's files, leaving its own files
 * alone; an unmounted card is verified whole, after a red confirmation.
 * A verify that was stopped (cancelled, the window closed, the card
 * pulled) carries on when it is started again on the same card: the row
 * says where it stopped, and asks to carry on from there. What every
 * kind's row does is CmKindRow's (cm-kind-row.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "cm-result-part.h"
#include "cm-toast.h"
#include "cm-verify.h"

#include "cm-verify-row.h"

struct _CmVerifyRow
{
  CmKindRow      parent_instance;

  gboolean       told_resuming;
  double         stopped;       /* where a stopped verify of the card got, 0–1, or -1 */
  CmVerifyPhase  stopped_phase; /* where the stopped one stopped */
};

G_DEFINE_FINAL_TYPE (CmVerifyRow, cm_verify_row, CM_TYPE_KIND_ROW)

/* Where the verify goes: a folder (a mounted card's, or one the user
 * picked), or the whole device; NULL with @why_not when it may not. */
static const char *
choose_path (CmVerifyRow  *self,
             gboolean     *device,
             const char  **why_not)
{
  CmCardItem *item = cm_kind_row_get_item (CM_KIND_ROW (self));

  if (item == NULL)
    return NULL;
  return cm_card_item_get_verify_path (item, device, why_not);
}

/* Where a stopped verify of the card got, read from what it saved. */
static void
peek_stopped (CmVerifyRow *self,
              const char  *path,
              gboolean     device)
{
  self->stopped = path != NULL
                  ? cm_verify_peek_stopped_in (path, device ? CM_VERIFY_MODE_DEVICE : CM_VERIFY_MODE_FILES,
                                               cm_card_item_get_size (cm_kind_row_get_item (CM_KIND_ROW (self))),
                                               NULL, &self->stopped_phase)
                  : -1;
}

/* Why the card may not be verified, where a stopped verify got, the
 * last answer, or what a verify does here. */
static void
cm_verify_row_fill (CmKindRow *row)
{
  CmVerifyRow *self = CM_VERIFY_ROW (row);
  const char *why_not = NULL;
  gboolean device = FALSE;
  const char *path = choose_path (self, &device, &why_not);
  g_autofree char *answer = cm_kind_row_dup_last_answer (row);

  peek_stopped (self, path, device);
  cm_kind_row_set_can_start (row, path != NULL);
  if (path == NULL)
    cm_kind_row_set_subtitle (row, why_not);
  else if (self->stopped >= 0)
    {
      /* Translators: "Stopped at 34 %. Verify again to carry on from there." */
      g_autofree char *text = g_strdup_printf (_("Stopped at %d %%. Verify again to carry on from there."),
                                               (int) (self->stopped * 100));

      cm_kind_row_set_subtitle (row, text);
    }
  else if (answer != NULL)
    cm_kind_row_set_subtitle (row, answer);
  else if (device)
    cm_kind_row_set_subtitle (row,
                              _("Writes the whole card and reads it back, to find bad or missing storage. Erases the card."));
  else
    cm_kind_row_set_subtitle (row,
                              _("Fills the free space with test files and reads them back, to find bad or missing storage. Your files stay."));
}

/* The job's phase, progress and time left, as the card list says them;
 * once, that it carries on a stopped one. */
static void
cm_verify_row_progress (CmKindRow *row,
                        CmJob     *job)
{
  CmVerifyRow *self = CM_VERIFY_ROW (row);
  CmVerify *verify = cm_job_get_verify (job);

  /* Said once the run reports where it is: a saved place that this card
   * does not prove is not carried on (offer_start_over). */
  if (!self->told_resuming && verify != NULL && cm_job_get_phase (job) != NULL &&
      cm_job_get_progress (job) > 0 && cm_verify_get_resuming (verify))
    {
      self->told_resuming = TRUE;
      cm_toast_show (GTK_WIDGET (self), _("Carrying on with the verify that was stopped."));
    }
  CM_KIND_ROW_CLASS (cm_verify_row_parent_class)->progress (row, job);
}

static void start (CmVerifyRow *self,
                   gboolean     carry_on);

/* Whether the row's card is verified whole (it is not mounted). */
static gboolean
verifies_device (CmVerifyRow *self)
{
  const char *why_not = NULL;
  gboolean device = FALSE;

  return choose_path (self, &device, &why_not) != NULL && device;
}
static void offer_start_over (CmVerifyRow *self);

static void
cm_verify_row_ended (CmKindRow *row,
                     CmJob     *job)
{
  CmVerifyRow *self = CM_VERIFY_ROW (row);
  const GError *error = cm_job_get_error (job);

  self->told_resuming = FALSE;
  if (cm_job_get_state (job) == CM_JOB_STATE_CANCELLED)
    cm_toast_show (GTK_WIDGET (self), _("Verify stopped. What was done is kept: verify again to carry on."));
  else if (g_error_matches (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD) && verifies_device (self))
    offer_start_over (self);
  else if (error != NULL)
    cm_toast_show (GTK_WIDGET (self), error->message);
  else
    cm_kind_row_show_done (row, job);
}

/**
 * cm_verify_row_new_job:
 * @item: a card
 * @carry_on: carry on a stopped verify of the card, when one is saved
 *
 * A verify of @item, once the user agreed: its folder's free space, or
 * the whole card when it is not mounted. The same from its row and from
 * "Verify N Cards…".
 *
 * Returns: (transfer full) (nullable): the job, not started; %NULL when
 *   @item may not be verified
 */
CmJob *
cm_verify_row_new_job (CmCardItem *item,
                       gboolean    carry_on)
{
  const char *why_not = NULL;
  gboolean device;
  CmJob *job;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  if (cm_card_item_get_verify_path (item, &device, &why_not) == NULL)
    return NULL;
  job = cm_kind_job_new (&cm_job_kind_verify, item, CM_METHOD_FILE);
  g_object_set (cm_job_get_options (job), "carry-on", carry_on, NULL);
  cm_job_set_destroy_data (job, device);
  return job;
}

/* Starts a verify of the row's card: carrying on a stopped one of it
 * when @carry_on and one is saved, else from the start. */
static void
start (CmVerifyRow *self,
       gboolean     carry_on)
{
  g_autoptr(CmJob) job = cm_verify_row_new_job (cm_kind_row_get_item (CM_KIND_ROW (self)), carry_on);

  if (job != NULL)
    cm_kind_row_start_job (CM_KIND_ROW (self), job);
}

static void
confirm_cb (CmVerifyRow      *self,
            const char       *response,
            AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "verify") == 0 && !cm_kind_row_get_busy (CM_KIND_ROW (self)))
    start (self, TRUE);
}

static void
start_over_cb (CmVerifyRow      *self,
               const char       *response,
               AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "start-over") == 0 && !cm_kind_row_get_busy (CM_KIND_ROW (self)))
    start (self, FALSE);
}

/* The stopped verify saved for a card like this one (same size, same
 * device name) is another card's: this card does not hold what it wrote.
 * The user already agreed to erase this card; starting over forgets the
 * other card's place, which is theirs to decide. */
static void
offer_start_over (CmVerifyRow *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Start Over on This Card?"),
                                   _("A stopped verify was saved for a card of the same size in the same reader, "
                                     "but this card does not hold what it wrote, so it cannot carry on here. "
                                     "Start over to verify this card from the beginning; the other card's "
                                     "verify will then start from the beginning too."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "start-over", _("_Start Over"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "start-over", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (start_over_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Asks before a verify starts: it always writes to the card. */
static GtkWidget *
ask (CmVerifyRow           *self,
     const char            *heading,
     const char            *body,
     const char            *verb,
     AdwResponseAppearance  appearance)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "verify", verb,
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "verify", appearance);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

/* A verify that was stopped is carried on, not started again: the
 * question says from where, and that it goes on writing. */
static void
ask_carry_on (CmVerifyRow *self,
              gboolean     device,
              const char  *path)
{
  int percent = (int) (self->stopped * 100);
  gboolean reading = self->stopped_phase == CM_VERIFY_PHASE_READ;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (device && reading)
    /* Translators: "…stopped at 74 % done, reading it back. What is left…" */
    body = g_strdup_printf (_("The verify of this card stopped at %d %% done, reading it back. What is left is "
                              "to read back the rest: nothing more is written unless you start over, which "
                              "writes all of the card again. You can stop at any time and carry on later."),
                            percent);
  else if (device)
    /* Translators: "…stopped at 34 % done, writing. What is left…" */
    body = g_strdup_printf (_("The verify of this card stopped at %d %% done, writing. What is left is to write "
                              "the rest of the card and read all of it back, overwriting what was put on the "
                              "card since. You can stop at any time and carry on later."), percent);
  else if (reading)
    body = g_strdup_printf (_("The verify of %s stopped at %d %% done, reading its test files back. What is left "
                              "is to read back the rest. Your own files are not touched."), path, percent);
  else
    body = g_strdup_printf (_("The verify of %s stopped at %d %% done, writing. What is left is to fill the rest "
                              "of the free space with test files and read them all back. Your own files are "
                              "not touched."), path, percent);
  dialog = ask (self, _("Carry On Verifying?"), body, _("_Carry On"),
                device ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED);
  /* The whole card can start over too: it is all written again. */
  if (device)
    {
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "start-over", _("_Start Over"));
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "start-over", ADW_RESPONSE_DESTRUCTIVE);
      g_signal_connect_object (dialog, "response", G_CALLBACK (start_over_cb), self, G_CONNECT_SWAPPED);
    }
}

/* Starts after asking. */
static void
cm_verify_row_activate (CmKindRow *row)
{
  CmVerifyRow *self = CM_VERIFY_ROW (row);
  const char *why_not = NULL;
  gboolean device;
  const char *path;
  g_autofree char *body = NULL;
  g_autofree char *size = NULL;

  if ((path = choose_path (self, &device, &why_not)) == NULL)
    {
      cm_toast_show (GTK_WIDGET (self), why_not);
      return;
    }
  peek_stopped (self, path, device);
  if (self->stopped >= 0)
    {
      ask_carry_on (self, device, path);
      return;
    }

  size = g_format_size (cm_card_item_get_size (cm_kind_row_get_item (row)));
  if (device)
    body = g_strdup_printf (_("Everything on this %s card will be destroyed: CardMark writes all of it and reads it back. "
                              "A large card takes hours; you can stop at any time and carry on later."), size);
  else
    body = g_strdup_printf (_("CardMark fills the free space in %s with test files (1.h2w, 2.h2w, …, as F3 writes), "
                              "reads them back and removes them. Your own files are not touched. "
                              "A large card takes hours; you can stop at any time and carry on later."), path);
  ask (self, device ? _("Erase and Verify the Whole Card?") : _("Verify Every Byte?"), body,
       device ? _("_Erase and Verify") : _("_Verify"),
       device ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED);
}

/* Where the stopped verify of the card got, 0–1, or -1 when there is
 * none to carry on; for the tests. */
double
cm_verify_row_get_stopped (CmVerifyRow *self)
{
  g_return_val_if_fail (CM_IS_VERIFY_ROW (self), -1);

  return self->stopped;
}

static void
cm_verify_row_class_init (CmVerifyRowClass *klass)
{
  CmKindRowClass *row_class = CM_KIND_ROW_CLASS (klass);

  row_class->kind = &cm_job_kind_verify;
  row_class->fill = cm_verify_row_fill;
  row_class->activate = cm_verify_row_activate;
  row_class->progress = cm_verify_row_progress;
  row_class->ended = cm_verify_row_ended;
}

static void
cm_verify_row_init (CmVerifyRow *self)
{
  self->stopped = -1;
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Verify Every Byte…"));
  cm_kind_row_set_action (CM_KIND_ROW (self), _("_Verify"), NULL);
  cm_kind_row_set_show (CM_KIND_ROW (self), _("Show the last verify of this card"));
}

GtkWidget *
cm_verify_row_new (CmCardItem *item)
{
  CmVerifyRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_VERIFY_ROW, NULL);
  cm_kind_row_set_item (CM_KIND_ROW (self), item);
  return GTK_WIDGET (self);
}

/* A verify's part of its page: its chart across the card, and how much
 * came back as written. */
void
cm_verify_row_fill_part (CmResultPart *part,
                         CmResult     *result)
{
  const CmVerifySummary *verify = cm_result_get_verify (result);
  CmVerifyFacts facts;

  cm_chart_view_set_result (cm_result_part_add_chart (part, CM_CHART_VERIFY,
                                                      _("Write and Read Back Across the Card"),
                                                      _("Where data did not come back as written shows as red regions.")),
                            result);
  if (!cm_verify_facts_for_result (result, &facts))
    return;

  if (facts.written_bytes > 0)
    cm_result_part_add_size (part, _("Written to the card"), facts.written_bytes);
  cm_result_part_add_size (part, _("Read back and checked"), facts.read_bytes);
  if (facts.unreached_bytes > 0)
    cm_result_part_add_size (part, _("Never reached, as the card stopped"), facts.unreached_bytes);
  cm_result_part_add_count (part, _("Sectors that came back as written"), verify->sectors_ok);
  cm_result_part_add_count (part, _("Sectors corrupted"), verify->sectors_corrupted);
  cm_result_part_add_count (part, _("Sectors changed"), verify->sectors_changed);
  cm_result_part_add_count (part, _("Sectors holding data of another place"), verify->sectors_overwritten);
  cm_result_part_add_count (part, _("Sectors that could not be read"), verify->sectors_unreadable);
  cm_result_part_add_count (part, _("Regions that lost data"), verify->bad_regions->len);
  if (verify->first_bad_offset >= 0)
    cm_result_part_add_size (part, _("First lost data at"), verify->first_bad_offset);
  if (!verify->complete)
    cm_result_part_add_fact (part, _("Finished"), _("No: the card stopped answering"));
}
