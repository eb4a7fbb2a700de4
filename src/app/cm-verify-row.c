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
 * says where it stopped, and asks to carry on from there.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "cm-app-history.h"
#include "cm-job-list.h"
#include "cm-backend.h"
#include "cm-history.h"
#include "cm-summary.h"
#include "cm-toast.h"
#include "cm-verify.h"

#include "cm-verify-row.h"

struct _CmVerifyRow
{
  AdwActionRow   parent_instance;

  CmCardItem    *item;
  CmJob         *job;           /* the verify that runs, watched */
  gboolean       told_resuming;
  CmResult      *result;        /* the last one */
  gboolean      earlier;      /* the result is from before this session */
  GCancellable *finding;      /* that result, looked up */
  double         stopped;       /* where a stopped verify of the card got, 0–1, or -1 */

  GtkSpinner    *spinner;
  GtkButton     *button;
  GtkButton     *show_button;
  CmVerifyPhase    stopped_phase;   /* where the stopped one stopped */
};

G_DEFINE_FINAL_TYPE (CmVerifyRow, cm_verify_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_SHOW_RESULT,
  SIGNAL_PREPARE_JOB,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Where the verify goes: a folder (a mounted card's, or one the user
 * picked), or the whole device; NULL with @why_not when it may not. */
static const char *
choose_path (CmVerifyRow  *self,
             gboolean     *device,
             const char  **why_not)
{
  return cm_card_item_get_verify_path (self->item, device, why_not);
}

/* Where a stopped verify of the card got, read from what it saved. */
static void
peek_stopped (CmVerifyRow *self,
              const char  *path,
              gboolean     device)
{
  self->stopped = path != NULL
                  ? cm_verify_peek_stopped_in (path, device ? CM_VERIFY_MODE_DEVICE : CM_VERIFY_MODE_FILES,
                                               cm_card_item_get_size (self->item), NULL, &self->stopped_phase)
                  : -1;
}

static void
fill_subtitle (CmVerifyRow *self)
{
  const char *why_not = NULL;
  gboolean device = FALSE;
  const char *path = self->item ? choose_path (self, &device, &why_not) : NULL;

  peek_stopped (self, path, device);
  gtk_widget_set_sensitive (GTK_WIDGET (self->button), path != NULL || self->job != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->show_button), self->result != NULL && self->job == NULL);
  if (path == NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self), why_not ? why_not : "");
  else if (self->stopped >= 0)
    {
      /* Translators: "Stopped at 34 %. Verify again to carry on from there." */
      g_autofree char *text = g_strdup_printf (_("Stopped at %d %%. Verify again to carry on from there."),
                                               (int) (self->stopped * 100));

      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
    }
  else if (self->result != NULL)
    {
      CmStatus status;
      g_autofree char *answer = cm_summary_dup_answer (self->result, &status);
      g_autofree char *text = self->earlier ? cm_app_history_dup_earlier (self->result, answer) : g_strdup (answer);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
    }
  else if (device)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                                 _("Writes the whole card and reads it back, to find bad or missing storage. Erases the card."));
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                                 _("Fills the free space with test files and reads them back, to find bad or missing storage. Your files stay."));
}

static void
set_busy (CmVerifyRow *self,
          gboolean     busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_button_set_label (self->button, busy ? _("_Stop") : _("_Verify"));
  if (!busy)
    fill_subtitle (self);
  else
    gtk_widget_set_visible (GTK_WIDGET (self->show_button), FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The job's phase, progress and time left, as the card list says them. */
static void
progress_cb (CmVerifyRow *self)
{
  g_autofree char *text = NULL;
  CmVerify *verify;

  if (self->job == NULL)
    return;
  verify = cm_job_get_verify (self->job);
  /* Said once the run reports where it is: a saved place that this card
   * does not prove is not carried on (offer_start_over). */
  if (!self->told_resuming && verify != NULL && cm_job_get_phase (self->job) != NULL &&
      cm_job_get_progress (self->job) > 0 && cm_verify_get_resuming (verify))
    {
      self->told_resuming = TRUE;
      cm_toast_show (GTK_WIDGET (self), _("Carrying on with the verify that was stopped."));
    }
  text = cm_job_dup_progress_text (self->job);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
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
state_cb (CmVerifyRow *self)
{
  g_autoptr(CmJob) job = self->job != NULL ? g_object_ref (self->job) : NULL;
  const GError *error;

  if (job == NULL || cm_job_is_active (job))
    return;

  g_signal_handlers_disconnect_by_data (job, self);
  g_clear_object (&self->job);
  if (self->item == NULL)
    return;  /* the row went away; the job saved what it did */

  error = cm_job_get_error (job);
  if (cm_job_get_result (job) != NULL)
    {
      g_set_object (&self->result, cm_job_get_result (job));
      self->earlier = FALSE;
    }
  set_busy (self, FALSE);
  if (cm_job_get_state (job) == CM_JOB_STATE_CANCELLED)
    cm_toast_show (GTK_WIDGET (self), _("Verify stopped. What was done is kept: verify again to carry on."));
  else if (g_error_matches (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD) && verifies_device (self))
    offer_start_over (self);
  else if (error != NULL)
    cm_toast_show (GTK_WIDGET (self), error->message);
  else if (cm_job_get_result (job) != NULL)
    {
      if (cm_job_get_save_error (job) != NULL)
        {
          g_autofree char *message = g_strdup_printf (_("The result could not be kept in the history: %s"),
                                                      cm_job_get_save_error (job)->message);

          cm_toast_show (GTK_WIDGET (self), message);
        }
      g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, self->result);
    }
}

/* Shows @job, a verify of the row's card, until it ends. */
void
cm_verify_row_follow_job (CmVerifyRow *self,
                          CmJob       *job)
{
  g_return_if_fail (CM_IS_VERIFY_ROW (self));
  g_return_if_fail (CM_IS_JOB (job));
  g_return_if_fail (self->job == NULL);

  self->job = g_object_ref (job);
  self->told_resuming = FALSE;
  cm_job_watch (job, G_CALLBACK (progress_cb), G_CALLBACK (state_cb), self);
  set_busy (self, TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("Starting…"));
  progress_cb (self);
}

/* Starts a verify of the row's card: carrying on a stopped one of it
 * when @carry_on and one is saved, else from the start. */
static void
start (CmVerifyRow *self,
       gboolean     carry_on)
{
  const char *why_not = NULL;
  gboolean device;
  const char *path = choose_path (self, &device, &why_not);
  g_autoptr(CmJob) job = NULL;
  g_autoptr(CmHistory) history = NULL;

  if (path == NULL)
    return;
  history = cm_app_history_dup ();
  job = cm_backend_new_job (&cm_job_kind_verify, NULL, self->item, CM_METHOD_FILE);
  cm_job_set_name (job, cm_card_item_get_name (self->item));
  /* The page it is on sets what it knows of the card (its brand). */
  g_signal_emit (self, signals[SIGNAL_PREPARE_JOB], 0, job);
  g_object_set (cm_job_get_options (job), "carry-on", carry_on, NULL);
  cm_job_set_destroy_data (job, device);
  cm_job_set_history (job, history);
  cm_verify_row_follow_job (self, job);
  cm_job_list_start (cm_job_list_get_default (), job);
}

static void
confirm_cb (CmVerifyRow      *self,
            const char       *response,
            AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "verify") == 0 && self->job == NULL && self->item != NULL)
    start (self, TRUE);
}

static void
start_over_cb (CmVerifyRow      *self,
               const char       *response,
               AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "start-over") == 0 && self->job == NULL && self->item != NULL)
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

/* Starts after asking, or stops the verify that is running. */
void
cm_verify_row_activate (CmVerifyRow *self)
{
  const char *why_not = NULL;
  gboolean device;
  const char *path;
  g_autofree char *body = NULL;
  g_autofree char *size = NULL;

  g_return_if_fail (CM_IS_VERIFY_ROW (self));

  if (self->job != NULL)
    {
      cm_job_cancel (self->job);
      return;
    }
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

  size = g_format_size (cm_card_item_get_size (self->item));
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

static void
button_clicked_cb (CmVerifyRow *self)
{
  cm_verify_row_activate (self);
}

static void
show_clicked_cb (CmVerifyRow *self)
{
  if (self->result != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, self->result);
}

/* Where the stopped verify of the card got, 0–1, or -1 when there is
 * none to carry on; for the tests. */
double
cm_verify_row_get_stopped (CmVerifyRow *self)
{
  g_return_val_if_fail (CM_IS_VERIFY_ROW (self), -1);

  return self->stopped;
}

gboolean
cm_verify_row_get_busy (CmVerifyRow *self)
{
  g_return_val_if_fail (CM_IS_VERIFY_ROW (self), FALSE);

  return self->job != NULL;
}

/* The verify the row shows while it runs, or NULL. */
CmJob *
cm_verify_row_get_job (CmVerifyRow *self)
{
  g_return_val_if_fail (CM_IS_VERIFY_ROW (self), NULL);

  return self->job;
}

/* The result of the last verify that finished, or NULL. */
CmResult *
cm_verify_row_get_result (CmVerifyRow *self)
{
  g_return_val_if_fail (CM_IS_VERIFY_ROW (self), NULL);

  return self->result;
}

/* The card's last result of this kind from before this session,
 * unless a run of this one says more. */
static void
last_found (gpointer  owner,
            CmResult *last)
{
  CmVerifyRow *self = owner;

  g_clear_object (&self->finding);
  if (last == NULL || self->result != NULL || self->job != NULL || self->item == NULL)
    return;
  self->result = g_object_ref (last);
  self->earlier = TRUE;
  fill_subtitle (self);
}

void
cm_verify_row_set_item (CmVerifyRow *self,
                        CmCardItem  *item)
{
  g_return_if_fail (CM_IS_VERIFY_ROW (self));
  g_return_if_fail (CM_IS_CARD_ITEM (item));

  g_set_object (&self->item, item);
  if (self->job == NULL)
    fill_subtitle (self);
  /* After a restart: the card's last result of this kind, from the
   * history, once, in another thread. */
  if (self->result == NULL && self->job == NULL && self->finding == NULL)
    {
      self->finding = g_cancellable_new ();
      cm_app_history_find_last (item, cm_job_kind_verify.name, self->finding, last_found, self);
    }
}

static void
cm_verify_row_dispose (GObject *object)
{
  CmVerifyRow *self = CM_VERIFY_ROW (object);

  /* A verify still running goes on; the application holds it. */
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  g_cancellable_cancel (self->finding);
  g_clear_object (&self->finding);
  g_clear_object (&self->item);
  g_clear_object (&self->result);
  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_VERIFY_ROW);

  G_OBJECT_CLASS (cm_verify_row_parent_class)->dispose (object);
}

static void
cm_verify_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CmVerifyRow *self = CM_VERIFY_ROW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, cm_verify_row_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_verify_row_class_init (CmVerifyRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_verify_row_dispose;
  object_class->get_property = cm_verify_row_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmVerifyRow::show-result:
   * @result: the verify that ended, or the last one when Show is clicked
   *
   * The window shows its page.
   */
  signals[SIGNAL_SHOW_RESULT] =
    g_signal_new ("show-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);
  /* A job is about to start: its page may set what it knows of the card. */
  signals[SIGNAL_PREPARE_JOB] =
    g_signal_new ("prepare-job", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_JOB);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-verify-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CmVerifyRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CmVerifyRow, button);
  gtk_widget_class_bind_template_child (widget_class, CmVerifyRow, show_button);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_clicked_cb);
}

static void
cm_verify_row_init (CmVerifyRow *self)
{
  self->stopped = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
cm_verify_row_new (CmCardItem *item)
{
  CmVerifyRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_VERIFY_ROW, NULL);
  cm_verify_row_set_item (self, item);
  return GTK_WIDGET (self);
}
