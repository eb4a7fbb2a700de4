/* cm-format-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Erase and Format…" on a card's page: after a red confirmation that
 * names the card and what will be lost (with an optional label), the
 * "format" job (cm-job-format.c) discards the whole unmounted card and
 * makes one partition and the file system the SD File System
 * Specification gives its size. The row watches the job the
 * application holds and says its progress; once it ended, its answer in
 * the format kind's own words, and Show opens the document's page (the
 * "show-result" signal). A card that may not be formatted (mounted, the
 * system's disk, held by another job) is refused here, and the row says
 * why.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-date.h"
#include "cm-app-history.h"
#include "cm-backend.h"
#include "cm-format.h"
#include "cm-history.h"
#include "cm-job-format.h"
#include "cm-job-list.h"
#include "cm-outcome.h"
#include "cm-outcome-badge.h"
#include "cm-text.h"
#include "cm-toast.h"
#include "cm-verify.h"

#include "cm-format-row.h"

/* A label is short; a name from UDisks is bounded before it is shown. */
#define NAME_MAX_CHARS 64

struct _CmFormatRow
{
  AdwActionRow  parent_instance;

  CmCardItem   *item;
  CmJob        *job;          /* the format that runs, watched */
  CmResult     *result;       /* the last one */
  gboolean      earlier;      /* the result is from before this session */
  GCancellable *finding;      /* that result, looked up */
  GCancellable *asking;       /* the real size looked up, before asking */

  GtkSpinner   *spinner;
  GtkButton    *button;
  GtkButton    *show_button;
  GtkWidget    *badge;        /* "Stopped", after a format was stopped */
};

G_DEFINE_FINAL_TYPE (CmFormatRow, cm_format_row, ADW_TYPE_ACTION_ROW)

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

/**
 * cm_format_row_dup_why_not:
 *
 * Why the row's card may not be formatted now, in a sentence a user can
 * act on, or %NULL when it may: a folder, the system's disk, a mounted
 * card, a card another job holds.
 */
char *
cm_format_row_dup_why_not (CmFormatRow *self)
{
  CmJob *other;

  g_return_val_if_fail (CM_IS_FORMAT_ROW (self), NULL);

  if (self->item == NULL)
    return g_strdup (_("The card is no longer connected."));
  if (cm_card_item_get_is_system (self->item) || cm_card_item_get_kind (self->item) == CM_CARD_KIND_HOME)
    return g_strdup (_("This disk holds the running system, so it is never formatted."));
  if (cm_card_item_get_kind (self->item) != CM_CARD_KIND_DEVICE || cm_card_item_get_device (self->item) == NULL)
    return g_strdup (_("Only a whole card can be formatted, not a folder."));
  if (cm_card_item_get_mounted (self->item))
    return g_strdup (_("The card is mounted. Unmount it in Files (keep it in the reader) to format it."));
  other = cm_job_list_lookup (cm_job_list_get_default (), self->item);
  if (other != NULL && other != self->job && cm_job_is_active (other))
    return cm_job_dup_busy_text (other);
  return NULL;
}

static void
fill_subtitle (CmFormatRow *self)
{
  g_autofree char *why_not = cm_format_row_dup_why_not (self);

  gtk_widget_set_sensitive (GTK_WIDGET (self->button), why_not == NULL || self->job != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->show_button), self->result != NULL && self->job == NULL);
  if (self->result != NULL)
    {
      g_autoptr(CmOutcome) outcome = cm_result_dup_outcome (self->result);
      const char *answer = outcome->answer != NULL ? outcome->answer : outcome->badge;
      g_autofree char *text = self->earlier ? cm_app_history_dup_earlier (self->result, answer) : g_strdup (answer);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
    }
  else if (why_not != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self), why_not);
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                                 _("Erases the whole card and makes one partition and file system laid out "
                                   "as the SD Association’s formatter does, to use it again."));
}

static void
set_busy (CmFormatRow *self,
          gboolean     busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_button_set_label (self->button, busy ? _("_Stop") : _("_Format…"));
  if (busy)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->show_button), FALSE);
      gtk_widget_set_visible (self->badge, FALSE);
    }
  else
    fill_subtitle (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
progress_cb (CmFormatRow *self)
{
  g_autofree char *text = NULL;

  if (self->job == NULL)
    return;
  text = cm_job_dup_progress_text (self->job);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), text);
}

static void
state_cb (CmFormatRow *self)
{
  g_autoptr(CmJob) job = self->job != NULL ? g_object_ref (self->job) : NULL;
  const GError *error;

  if (job == NULL || cm_job_is_active (job))
    return;

  g_signal_handlers_disconnect_by_data (job, self);
  g_clear_object (&self->job);
  if (self->item == NULL)
    return;  /* the row went away; the job kept its document */

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
    {
      g_autoptr(CmOutcome) stopped = cm_outcome_new_stopped (cm_job_get_kind (job));

      /* The badge of any stopped job, in its tone, and core's sentence:
       * the state the format left the card in, and to format it again
       * (the row's Format… button, back in its place). */
      cm_outcome_badge_update (self->badge, stopped);
      gtk_widget_set_visible (self->badge, TRUE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                                   error != NULL ? error->message
                                                 : _("Stopped: the card may be erased and not formatted. Format it again to use it."));
      cm_toast_show (GTK_WIDGET (self), _("Format stopped. The card may be erased and not formatted: format it again."));
    }
  else if (error != NULL)
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), error->message);
      cm_toast_show (GTK_WIDGET (self), error->message);
    }
}

/* Shows @job, a format of the row's card, until it ends. */
void
cm_format_row_follow_job (CmFormatRow *self,
                          CmJob       *job)
{
  g_return_if_fail (CM_IS_FORMAT_ROW (self));
  g_return_if_fail (CM_IS_JOB (job));
  g_return_if_fail (self->job == NULL);

  self->job = g_object_ref (job);
  cm_job_watch (job, G_CALLBACK (progress_cb), G_CALLBACK (state_cb), self);
  set_busy (self, TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("Starting…"));
  progress_cb (self);
}

static void
start (CmFormatRow *self,
       const char  *label,
       guint64      use_bytes,
       gboolean     bench)
{
  g_autoptr(CmJob) job = NULL;
  g_autoptr(CmHistory) history = NULL;
  g_autofree char *why_not = cm_format_row_dup_why_not (self);

  if (why_not != NULL)
    {
      cm_toast_show (GTK_WIDGET (self), why_not);
      return;
    }
  history = cm_app_history_dup ();
  job = cm_backend_new_job (&cm_job_kind_format, NULL, self->item, CM_METHOD_RAW_WRITE);
  cm_job_set_name (job, cm_card_item_get_name (self->item));
  /* The user's consent, given in the dialog. */
  cm_job_set_destroy_data (job, TRUE);
  g_object_set (cm_job_get_options (job), "label", label, "size", use_bytes, "then-bench", bench, NULL);
  cm_job_set_history (job, history);
  cm_format_row_follow_job (self, job);
  cm_job_list_start (cm_job_list_get_default (), job);
}

/* The confirmation's form: the label, checked as it is typed against
 * the file system the card's size gets. */

typedef struct
{
  CmFormatRow      *row;
  AdwMessageDialog *dialog;
  AdwEntryRow      *label_row;
  GtkLabel         *error_label;
  GtkSwitch        *real_switch;  /* NULL: the history knows no real size */
  GtkSwitch        *bench_switch; /* a benchmark after it */
  guint64           real_bytes;   /* where the card's storage ends */
  CmFormatFs        fs;
} Form;

static void
form_free (gpointer data)
{
  g_free (data);
}

/* The bytes the format lays out: 0 for the whole card. */
static guint64
form_get_use_bytes (Form *form)
{
  return form->real_switch != NULL && gtk_switch_get_active (form->real_switch) ? form->real_bytes : 0;
}

static char *
form_dup_label (Form *form)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (form->label_row));

  return text[0] != '\0' ? g_strdup (text) : NULL;
}

static void
label_changed_cb (Form *form)
{
  g_autofree char *label = form_dup_label (form);
  g_autoptr(GError) error = NULL;
  gboolean valid = label == NULL || cm_format_check_label (label, form->fs, &error);

  gtk_label_set_label (form->error_label, error != NULL ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (form->error_label), !valid);
  if (valid)
    gtk_widget_remove_css_class (GTK_WIDGET (form->label_row), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (form->label_row), "error");
  gtk_accessible_update_state (GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (form->label_row))),
                               GTK_ACCESSIBLE_STATE_INVALID,
                               valid ? GTK_ACCESSIBLE_INVALID_FALSE : GTK_ACCESSIBLE_INVALID_TRUE, -1);
  adw_message_dialog_set_response_enabled (form->dialog, "format", valid);
}

static void update_plan (Form *form);

/* Where the partition laid out in the first @use_bytes ends: the
 * layout aligns it to the card, below @use_bytes. 0 when none fits. */
static guint64
planned_end (CmFormatRow *self,
             guint64      use_bytes)
{
  CmCardInfo *info = cm_card_item_get_card_info (self->item);
  CmFormatLayout layout = { 0 };

  if (!cm_format_layout_plan (use_bytes, info != NULL ? cm_card_info_get_au_size_bytes (info) : 0, &layout, NULL))
    return 0;
  return layout.start + layout.length;
}

/* "Format to the real size (N GB)", on: the check that found it, by
 * the figure it showed; and where the partition ends, when that is
 * short of it. */
static GtkWidget *
real_size_row_new (Form     *form,
                   CmResult *found)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *toggle = gtk_switch_new ();
  guint64 said = MAX (cm_format_get_said_real_size (found), form->real_bytes);
  guint64 end = planned_end (form->row, form->real_bytes);
  g_autofree char *real = g_format_size (said);
  g_autofree char *says = g_format_size (cm_card_item_get_size (form->row->item));
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *when = NULL;
  GDateTime *started = found != NULL ? cm_result_get_started (found) : NULL;

  /* Translators: %s is a size, "2.1 GB" */
  title = g_strdup_printf (_("Format to the _real size (%s)"), real);
  if (started != NULL)
    when = cm_date_format_day (started);
  /* Translators: the first %s is the kind of check ("Capacity check"), the
   * second its date, the third what the card says it holds */
  subtitle = g_strdup_printf (_("%s of %s: the card keeps data only up to there, though it says it holds %s. "
                                "The partition then ends where its storage does."),
                              cm_job_kind_get_title (cm_result_get_kind (found)), when != NULL ? when : "", says);
  if (end > 0 && end < said)
    {
      g_autofree char *ends = g_format_size (end);
      g_autofree char *proven = g_format_size (form->real_bytes);
      char *both;

      if (g_str_equal (ends, proven))
        /* Translators: the first %s is the sentences before, the second
         * where the partition ends, "65.0 MB" */
        both = g_strdup_printf (_("%s It ends at %s, where the check last read data back."), subtitle, ends);
      else
        /* Translators: the first %s is the sentences before, the second
         * where the partition ends, "62.9 MB", the third how far the
         * check read data back, "65.0 MB" */
        both = g_strdup_printf (_("%s It ends at %s: the check read data back up to %s, and the partition is aligned "
                                  "to the card below that."),
                                subtitle, ends, proven);
      g_free (subtitle);
      subtitle = both;
    }
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  gtk_switch_set_active (GTK_SWITCH (toggle), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
  form->real_switch = GTK_SWITCH (toggle);
  g_signal_connect_swapped (toggle, "notify::active", G_CALLBACK (update_plan), form);
  return row;
}

/* "Measure the speed after", off: a quick benchmark beside the last. */
static GtkWidget *
bench_row_new (Form *form)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *toggle = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Measure the _speed after"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("A quick benchmark, beside the card’s last one: what the erase gave back. "
                                 "About a minute more."));
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
  form->bench_switch = GTK_SWITCH (toggle);
  return row;
}

static GtkWidget *
form_new (Form     *form,
          CmResult *found)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *row = adw_entry_row_new ();
  GtkWidget *error = gtk_label_new (NULL);

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  if (form->real_bytes > 0)
    gtk_list_box_append (GTK_LIST_BOX (list), real_size_row_new (form, found));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("_Label (optional)"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  gtk_list_box_append (GTK_LIST_BOX (list), bench_row_new (form));
  gtk_box_append (GTK_BOX (box), list);
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_label_set_xalign (GTK_LABEL (error), 0);
  gtk_widget_add_css_class (error, "error");
  gtk_widget_set_visible (error, FALSE);
  gtk_box_append (GTK_BOX (box), error);

  form->label_row = ADW_ENTRY_ROW (row);
  form->error_label = GTK_LABEL (error);
  g_signal_connect_swapped (row, "changed", G_CALLBACK (label_changed_cb), form);
  return box;
}

static void
confirm_cb (CmFormatRow      *self,
            const char       *response,
            AdwMessageDialog *dialog)
{
  Form *form = g_object_get_data (G_OBJECT (dialog), "cm-format-form");
  g_autofree char *label = NULL;

  if (g_strcmp0 (response, "format") != 0 || self->job != NULL || self->item == NULL || form == NULL)
    return;
  label = form_dup_label (form);
  if (label != NULL && !cm_format_check_label (label, form->fs, NULL))
    return;
  start (self, label, form_get_use_bytes (form), gtk_switch_get_active (form->bench_switch));
}

/* "FAT32, 32 KiB clusters": what @size gets, said before. */
static char *
dup_planned_layout (CmFormatRow *self,
                    guint64      size,
                    CmFormatFs  *fs)
{
  CmCardInfo *info = cm_card_item_get_card_info (self->item);
  CmFormatReport plan = { 0 };

  if (!cm_format_layout_plan (size, info != NULL ? cm_card_info_get_au_size_bytes (info) : 0, &plan.layout, NULL))
    return NULL;
  *fs = plan.layout.fs;
  return cm_format_report_dup_layout_text (&plan);
}

/* The dialog's words for the size chosen: what will be lost, and what
 * the card gets; the label is checked against its file system again. */
static void
update_plan (Form *form)
{
  CmFormatRow *self = form->row;
  guint64 use_bytes = form_get_use_bytes (form);
  g_autofree char *name = cm_text_dup_clean (cm_card_item_get_name (self->item), NAME_MAX_CHARS);
  g_autofree char *size = g_format_size (cm_card_item_get_size (self->item));
  g_autofree char *layout = dup_planned_layout (self, use_bytes > 0 ? use_bytes : cm_card_item_get_size (self->item),
                                                &form->fs);
  g_autofree char *body = NULL;

  /* As root or not, the card gets the same layout, checked. */
  if (layout != NULL)
    /* Translators: the first %s is the card's name, then its size, its
     * device, and what it gets, "FAT32, 32 KiB clusters" */
    body = g_strdup_printf (_("Everything on “%s” (%s, %s) will be lost: its files, its partitions and whatever "
                              "a check left on it. CardMark erases the whole card, makes one partition aligned "
                              "to the card, formats it %s and checks it."),
                            name, size, cm_card_item_get_device (self->item), layout);
  else
    /* Translators: the card's name, its size and its device */
    body = g_strdup_printf (_("Everything on “%s” (%s, %s) will be lost: its files, its partitions and whatever "
                              "a check left on it."),
                            name, size, cm_card_item_get_device (self->item));
  adw_message_dialog_set_body (form->dialog, body);
  label_changed_cb (form);
}

/* The confirmation, once the card's real size is known: a fake card's,
 * from its last capacity check or verify in the history, or 0. */
static void
ask (CmFormatRow *self,
     guint64      real_bytes,
     CmResult    *found)
{
  GtkRoot *root;
  GtkWidget *dialog;
  Form *form;

  root = gtk_widget_get_root (GTK_WIDGET (self));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Erase and Format the Card?"), NULL);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "format", _("_Erase and Format"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "format", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  form = g_new0 (Form, 1);
  form->row = self;
  form->dialog = ADW_MESSAGE_DIALOG (dialog);
  form->real_bytes = real_bytes;
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), form_new (form, found));
  g_object_set_data_full (G_OBJECT (dialog), "cm-format-form", form, form_free);
  update_plan (form);

  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
real_size_cb (GObject      *object,
              GAsyncResult *res,
              gpointer      user_data)
{
  CmFormatRow *self;
  g_autoptr(CmResult) found = NULL;
  g_autoptr(GError) error = NULL;
  guint64 real;

  real = cm_format_find_real_size_finish (CM_HISTORY (object), res, &found, &error);
  /* Cancelled when the row went: nothing of it is touched. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;
  g_clear_object (&self->asking);
  /* Without the history, the dialog offers the whole card, as the CLI
   * does without --size. */
  if (error != NULL)
    g_debug ("No real size from the history: %s", error->message);
  ask (self, real, found);
}

/* Starts after asking, or stops the format that runs. */
void
cm_format_row_activate (CmFormatRow *self)
{
  g_autofree char *why_not = NULL;
  g_autoptr(CmHistory) history = NULL;
  CmCardInfo *info;

  g_return_if_fail (CM_IS_FORMAT_ROW (self));

  if (self->job != NULL)
    {
      cm_job_cancel (self->job);
      return;
    }
  if ((why_not = cm_format_row_dup_why_not (self)) != NULL)
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), why_not);
      cm_toast_show (GTK_WIDGET (self), why_not);
      return;
    }

  /* Looked up in another thread: a large history's index may take a
   * moment to bring up to date, and the window must not wait for it. */
  if (self->asking != NULL)
    return;
  history = cm_app_history_dup ();
  info = cm_card_item_get_card_info (self->item);
  self->asking = g_cancellable_new ();
  cm_format_find_real_size_async (history, info,
                                  cm_card_item_get_device (self->item), cm_card_item_get_size (self->item),
                                  self->asking, real_size_cb, self);
}

static void
button_clicked_cb (CmFormatRow *self)
{
  cm_format_row_activate (self);
}

static void
show_clicked_cb (CmFormatRow *self)
{
  if (self->result != NULL)
    g_signal_emit (self, signals[SIGNAL_SHOW_RESULT], 0, self->result);
}

gboolean
cm_format_row_get_busy (CmFormatRow *self)
{
  g_return_val_if_fail (CM_IS_FORMAT_ROW (self), FALSE);

  return self->job != NULL;
}

CmJob *
cm_format_row_get_job (CmFormatRow *self)
{
  g_return_val_if_fail (CM_IS_FORMAT_ROW (self), NULL);

  return self->job;
}

/* The last format of the card made here, or NULL. */
CmResult *
cm_format_row_get_result (CmFormatRow *self)
{
  g_return_val_if_fail (CM_IS_FORMAT_ROW (self), NULL);

  return self->result;
}

/* The card's last result of this kind from before this session,
 * unless a run of this one says more. */
static void
last_found (gpointer  owner,
            CmResult *last)
{
  CmFormatRow *self = owner;

  g_clear_object (&self->finding);
  if (last == NULL || self->result != NULL || self->job != NULL || self->item == NULL)
    return;
  self->result = g_object_ref (last);
  self->earlier = TRUE;
  fill_subtitle (self);
}

/* The same card, as UDisks sees it now (mounted or not), or the same
 * item again once another job of it started or ended. */
void
cm_format_row_set_item (CmFormatRow *self,
                        CmCardItem  *item)
{
  g_return_if_fail (CM_IS_FORMAT_ROW (self));

  g_set_object (&self->item, item);
  if (self->job == NULL)
    fill_subtitle (self);
  /* After a restart: the card's last result of this kind, from the
   * history, once, in another thread. */
  if (self->result == NULL && self->job == NULL && self->finding == NULL)
    {
      self->finding = g_cancellable_new ();
      cm_app_history_find_last (item, cm_job_kind_format.name, self->finding, last_found, self);
    }
}

static void
cm_format_row_dispose (GObject *object)
{
  CmFormatRow *self = CM_FORMAT_ROW (object);

  /* The job goes on without the row; the application holds it. */
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  g_cancellable_cancel (self->asking);
  g_clear_object (&self->asking);
  g_cancellable_cancel (self->finding);
  g_clear_object (&self->finding);
  g_clear_object (&self->item);
  g_clear_object (&self->result);

  G_OBJECT_CLASS (cm_format_row_parent_class)->dispose (object);
}

static void
cm_format_row_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CmFormatRow *self = CM_FORMAT_ROW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, cm_format_row_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_format_row_class_init (CmFormatRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_format_row_dispose;
  object_class->get_property = cm_format_row_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmFormatRow::show-result:
   * @result: the format's document
   *
   * A format ended, or Show was clicked: its page.
   */
  signals[SIGNAL_SHOW_RESULT] =
    g_signal_new ("show-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_RESULT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-format-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CmFormatRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CmFormatRow, button);
  gtk_widget_class_bind_template_child (widget_class, CmFormatRow, show_button);
  gtk_widget_class_bind_template_child (widget_class, CmFormatRow, badge);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_clicked_cb);
}

static void
cm_format_row_init (CmFormatRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
cm_format_row_new (CmCardItem *item)
{
  CmFormatRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_FORMAT_ROW, NULL);
  cm_format_row_set_item (self, item);
  return GTK_WIDGET (self);
}
