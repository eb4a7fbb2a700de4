/* cm-wear-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Wear Test…" on a card's page: after a red confirmation, the wear test
 * (the card job "wear") writes and reads back the whole unmounted card
 * round after round until the user stops it, the card loses half its
 * sectors, or it goes away. The row watches the job the application
 * holds; it says the job's progress, and once the job ended with rounds,
 * its answer, and Show opens the document's page (the "show-result"
 * signal). A stopped wear test keeps the rounds it finished, and where
 * it stood (cm-wear-state.c): the row then says the round and place, and
 * offers to carry on from there, or to start over.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-app-history.h"
#include "cm-job-list.h"
#include "cm-backend.h"
#include "cm-history.h"
#include "cm-maker-form.h"
#include "cm-summary.h"
#include "cm-toast.h"
#include "cm-verify.h"
#include "cm-wear-state.h"

#include "cm-wear-row.h"

struct _CmWearRow
{
  AdwActionRow   parent_instance;

  CmCardItem    *item;
  CmJob         *job;           /* the wear test that runs, watched */
  CmResult      *result;        /* the last one, with its rounds */
  gboolean      earlier;      /* the result is from before this session */
  GCancellable *finding;      /* that result, looked up */

  GtkSpinner    *spinner;
  GtkButton     *button;
  GtkButton     *show_button;
};

G_DEFINE_FINAL_TYPE (CmWearRow, cm_wear_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  SIGNAL_SHOW_RESULT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Only a whole card that nothing uses can be worn: NULL with @why_not
 * when this one may not. */
static const char *
choose_device (CmWearRow   *self,
               const char **why_not)
{
  if (self->item == NULL)
    {
      *why_not = "";
      return NULL;
    }
  return cm_card_item_get_wear_device (self->item, why_not);
}

/* The saved state of a stopped wear test of the row's card, or NULL. */
static CmWearState *
saved_state (CmWearRow *self)
{
  const char *why_not = NULL;
  const char *device = choose_device (self, &why_not);
  g_autoptr(CmWearState) state = NULL;

  if (device == NULL)
    return NULL;
  state = cm_wear_state_new (device, cm_card_item_get_size (self->item), NULL);
  return cm_wear_state_exists (state) ? g_steal_pointer (&state) : NULL;
}

static void
fill_subtitle (CmWearRow *self)
{
  const char *why_not = NULL;
  const char *device = choose_device (self, &why_not);
  g_autoptr(CmWearState) state = saved_state (self);
  g_autofree char *where = state != NULL ? cm_wear_state_describe (state) : NULL;
  g_autofree char *answer = NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->button), device != NULL || self->job != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->show_button), self->result != NULL && self->job == NULL);
  if (self->result != NULL && where == NULL)
    {
      CmStatus status;

      answer = cm_summary_dup_answer (self->result, &status);
      if (self->earlier)
        {
          g_autofree char *text = cm_app_history_dup_earlier (self->result, answer);

          adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
        }
      else
        adw_action_row_set_subtitle (ADW_ACTION_ROW (self), answer);
    }
  else if (device == NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self), why_not);
  else if (where != NULL)
    {
      /* Translators: %s is where it stopped: "round 3, writing, at 1.2 GB of 16 GB" */
      g_autofree char *text = g_strdup_printf (_("A stopped wear test of this card can carry on: it stopped in %s."), where);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
    }
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                                 _("Writes and reads back the whole card, round after round, until you stop it, "
                                   "to find how long it lasts. Erases the card."));
}

static void
set_busy (CmWearRow *self,
          gboolean   busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_button_set_label (self->button, busy ? _("_Stop") : _("_Start"));
  if (!busy && self->item != NULL)
    {
      g_autoptr(CmWearState) state = saved_state (self);

      if (state != NULL)
        gtk_button_set_label (self->button, _("_Carry On…"));
    }
  if (!busy)
    fill_subtitle (self);
  else
    gtk_widget_set_visible (GTK_WIDGET (self->show_button), FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
progress_cb (CmWearRow *self)
{
  g_autofree char *text = NULL;

  if (self->job == NULL)
    return;
  text = cm_job_dup_progress_text (self->job);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
}

static void
state_cb (CmWearRow *self)
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
  if (cm_job_get_result (job) != NULL)
    {
      if (cm_job_get_save_error (job) != NULL)
        {
          g_autofree char *message = g_strdup_printf (_("The result could not be kept in the history: %s"),
                                                      cm_job_get_save_error (job)->message);

          cm_toast_show (GTK_WIDGET (self), message);
        }
      g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, self->result);
    }
  else if (cm_job_get_state (job) == CM_JOB_STATE_CANCELLED)
    cm_toast_show (GTK_WIDGET (self), _("Wear test stopped before its first round ended. Where it stood is kept: carry on at any time."));
  else if (error != NULL)
    cm_toast_show (GTK_WIDGET (self), error->message);
}

/* Shows @job, a wear test of the row's card, until it ends. */
void
cm_wear_row_follow_job (CmWearRow *self,
                        CmJob     *job)
{
  g_return_if_fail (CM_IS_WEAR_ROW (self));
  g_return_if_fail (CM_IS_JOB (job));
  g_return_if_fail (self->job == NULL);

  self->job = g_object_ref (job);
  cm_job_watch (job, G_CALLBACK (progress_cb), G_CALLBACK (state_cb), self);
  set_busy (self, TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("Starting…"));
  progress_cb (self);
}

/* Starts a wear test of the row's card: carrying on a stopped one of it
 * when @carry_on and one is saved, else from the start. */
static void
start (CmWearRow *self,
       gboolean   carry_on,
       guint64    maker_bytes)
{
  const char *why_not = NULL;
  g_autoptr(CmJob) job = NULL;
  g_autoptr(CmHistory) history = NULL;

  if (choose_device (self, &why_not) == NULL)
    return;
  history = cm_app_history_dup ();
  job = cm_backend_new_job (&cm_job_kind_wear, NULL, self->item, CM_METHOD_RAW_WRITE);
  cm_job_set_name (job, cm_card_item_get_name (self->item));
  /* The user's consent, given in the dialog; rounds until Stop. */
  cm_job_set_destroy_data (job, TRUE);
  g_object_set (cm_job_get_options (job), "carry-on", carry_on, "maker-bytes", maker_bytes, NULL);
  cm_job_set_history (job, history);
  cm_wear_row_follow_job (self, job);
  cm_job_list_start (cm_job_list_get_default (), job);
}

static void
confirm_cb (CmWearRow        *self,
            const char       *response,
            AdwMessageDialog *dialog)
{
  CmMakerForm *form = CM_MAKER_FORM (adw_message_dialog_get_extra_child (dialog));
  guint64 maker_bytes;

  if (self->job != NULL || self->item == NULL || !cm_maker_form_get_valid (form))
    return;
  maker_bytes = cm_maker_form_get_maker_bytes (form);
  if (g_strcmp0 (response, "wear") == 0 || g_strcmp0 (response, "carry-on") == 0)
    start (self, TRUE, maker_bytes);
  else if (g_strcmp0 (response, "start-over") == 0)
    {
      g_autoptr(CmWearState) state = saved_state (self);

      /* Forgets the stopped test's place and rounds. */
      if (state != NULL)
        cm_wear_state_remove (state);
      start (self, FALSE, maker_bytes);
    }
}

/* A stopped test of this card is saved: carry on from the round and
 * place it names, or start over from round 1. */
static GtkWidget *
carry_on_dialog (CmWearRow   *self,
                 CmWearState *state)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *where = cm_wear_state_describe (state);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (where != NULL)
    body = g_strdup_printf (_("The wear test of this card stopped in %s. CardMark carries on from there, once the card "
                              "shows it holds what that test wrote, and keeps its rounds; or start over from round 1, "
                              "forgetting them. Either way the card keeps being erased and worn."), where);
  else
    body = g_strdup (_("A stopped wear test of this card was saved, but it cannot be read back, so it cannot carry on. "
                       "Start over from round 1: the card will be erased and worn."));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Carry On With the Wear Test?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "start-over", _("_Start Over"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "start-over", ADW_RESPONSE_DESTRUCTIVE);
  if (where != NULL)
    {
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "carry-on", _("C_arry On"));
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "carry-on", ADW_RESPONSE_DESTRUCTIVE);
      cm_maker_form_attach (CM_MAKER_FORM (cm_maker_form_new ()), ADW_MESSAGE_DIALOG (dialog),
                            "carry-on", "start-over", NULL);
    }
  else
    cm_maker_form_attach (CM_MAKER_FORM (cm_maker_form_new ()), ADW_MESSAGE_DIALOG (dialog), "start-over", NULL);
  return dialog;
}

/* Starts after asking, or stops the wear test that runs. */
void
cm_wear_row_activate (CmWearRow *self)
{
  const char *why_not = NULL;
  GtkRoot *root;
  GtkWidget *dialog;
  g_autofree char *size = NULL;
  g_autofree char *body = NULL;
  g_autoptr(CmWearState) state = NULL;

  g_return_if_fail (CM_IS_WEAR_ROW (self));

  if (self->job != NULL)
    {
      cm_job_cancel (self->job);
      return;
    }
  if (choose_device (self, &why_not) == NULL)
    {
      cm_toast_show (GTK_WIDGET (self), why_not);
      return;
    }

  if ((state = saved_state (self)) != NULL)
    dialog = carry_on_dialog (self, state);
  else
    {
      size = g_format_size (cm_card_item_get_size (self->item));
      root = gtk_widget_get_root (GTK_WIDGET (self));
      body = g_strdup_printf (_("Everything on this %s card will be destroyed, and the test wears it out: CardMark writes all "
                                "of it and reads it back, round after round, until you stop it or half of it stops keeping "
                                "data. A round of a large card takes hours. When you stop, the rounds finished and where it "
                                "stood are kept, to carry on later."), size);
      dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                       _("Erase the Card and Wear It Out?"), body);
      adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                        "cancel", _("_Cancel"),
                                        "wear", _("_Erase and Start"),
                                        NULL);
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "wear", ADW_RESPONSE_DESTRUCTIVE);
      cm_maker_form_attach (CM_MAKER_FORM (cm_maker_form_new ()), ADW_MESSAGE_DIALOG (dialog), "wear", NULL);
    }
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
button_clicked_cb (CmWearRow *self)
{
  cm_wear_row_activate (self);
}

static void
show_clicked_cb (CmWearRow *self)
{
  if (self->result != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, self->result);
}

gboolean
cm_wear_row_get_busy (CmWearRow *self)
{
  g_return_val_if_fail (CM_IS_WEAR_ROW (self), FALSE);

  return self->job != NULL;
}

CmJob *
cm_wear_row_get_job (CmWearRow *self)
{
  g_return_val_if_fail (CM_IS_WEAR_ROW (self), NULL);

  return self->job;
}

/* The last wear test of the card that ended with rounds, or NULL. */
CmResult *
cm_wear_row_get_result (CmWearRow *self)
{
  g_return_val_if_fail (CM_IS_WEAR_ROW (self), NULL);

  return self->result;
}

/* The card's last result of this kind from before this session,
 * unless a run of this one says more. */
static void
last_found (gpointer  owner,
            CmResult *last)
{
  CmWearRow *self = owner;

  g_clear_object (&self->finding);
  if (last == NULL || self->result != NULL || self->job != NULL || self->item == NULL)
    return;
  self->result = g_object_ref (last);
  self->earlier = TRUE;
  fill_subtitle (self);
}

/* The same card, as UDisks sees it now (mounted or not). */
void
cm_wear_row_set_item (CmWearRow  *self,
                      CmCardItem *item)
{
  g_return_if_fail (CM_IS_WEAR_ROW (self));

  g_set_object (&self->item, item);
  if (self->job == NULL)
    fill_subtitle (self);
  /* After a restart: the card's last result of this kind, from the
   * history, once, in another thread. */
  if (self->result == NULL && self->job == NULL && self->finding == NULL)
    {
      self->finding = g_cancellable_new ();
      cm_app_history_find_last (item, cm_job_kind_wear.name, self->finding, last_found, self);
    }
}

static void
cm_wear_row_dispose (GObject *object)
{
  CmWearRow *self = CM_WEAR_ROW (object);

  /* The job goes on without the row; the application holds it. */
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  g_cancellable_cancel (self->finding);
  g_clear_object (&self->finding);
  g_clear_object (&self->item);
  g_clear_object (&self->result);

  G_OBJECT_CLASS (cm_wear_row_parent_class)->dispose (object);
}

static void
cm_wear_row_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CmWearRow *self = CM_WEAR_ROW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, cm_wear_row_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_wear_row_class_init (CmWearRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_wear_row_dispose;
  object_class->get_property = cm_wear_row_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmWearRow::show-result:
   * @result: the wear test's document
   *
   * A wear test ended with rounds, or Show was clicked: its page.
   */
  signals[SIGNAL_SHOW_RESULT] =
    g_signal_new ("show-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-wear-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CmWearRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CmWearRow, button);
  gtk_widget_class_bind_template_child (widget_class, CmWearRow, show_button);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_clicked_cb);
}

static void
cm_wear_row_init (CmWearRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
cm_wear_row_new (CmCardItem *item)
{
  CmWearRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_WEAR_ROW, NULL);
  cm_wear_row_set_item (self, item);
  return GTK_WIDGET (self);
}
