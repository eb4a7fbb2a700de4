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
 * why. What every kind's row does is CmKindRow's (cm-kind-row.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-date.h"
#include "cm-app-history.h"
#include "cm-format.h"
#include "cm-history.h"
#include "cm-job-format.h"
#include "cm-job-list.h"
#include "cm-outcome.h"
#include "cm-outcome-badge.h"
#include "cm-text.h"
#include "cm-result-part.h"
#include "cm-toast.h"
#include "cm-verify.h"

#include "cm-format-row.h"

/* A label is short; a name from UDisks is bounded before it is shown. */
#define NAME_MAX_CHARS 64

struct _CmFormatRow
{
  CmKindRow     parent_instance;

  GCancellable *asking;       /* the real size looked up, before asking */
};

G_DEFINE_FINAL_TYPE (CmFormatRow, cm_format_row, CM_TYPE_KIND_ROW)

static CmCardItem *
item_of (CmFormatRow *self)
{
  return cm_kind_row_get_item (CM_KIND_ROW (self));
}

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
  CmCardItem *item;
  CmJob *other;

  g_return_val_if_fail (CM_IS_FORMAT_ROW (self), NULL);

  item = item_of (self);
  if (item == NULL)
    return g_strdup (_("The card is no longer connected."));
  if (cm_card_item_get_is_system (item) || cm_card_item_get_kind (item) == CM_CARD_KIND_HOME)
    return g_strdup (_("This disk holds the running system, so it is never formatted."));
  if (cm_card_item_get_kind (item) != CM_CARD_KIND_DEVICE || cm_card_item_get_device (item) == NULL)
    return g_strdup (_("Only a whole card can be formatted, not a folder."));
  if (cm_card_item_get_mounted (item))
    return g_strdup (_("The card is mounted. Unmount it in Files (keep it in the reader) to format it."));
  other = cm_job_list_lookup (cm_job_list_get_default (), item);
  if (other != NULL && other != cm_kind_row_get_job (CM_KIND_ROW (self)) && cm_job_is_active (other))
    return cm_job_dup_busy_text (other);
  return NULL;
}

/* The last answer, why the card may not be formatted, or what a format
 * does. */
static void
cm_format_row_fill (CmKindRow *row)
{
  g_autofree char *why_not = cm_format_row_dup_why_not (CM_FORMAT_ROW (row));
  g_autofree char *answer = cm_kind_row_dup_last_answer (row);

  cm_kind_row_set_can_start (row, why_not == NULL);
  if (answer != NULL)
    cm_kind_row_set_subtitle (row, answer);
  else if (why_not != NULL)
    cm_kind_row_set_subtitle (row, why_not);
  else
    cm_kind_row_set_subtitle (row,
                              _("Erases the whole card and makes one partition and file system laid out "
                                "as the SD Association’s formatter does, to use it again."));
}

static void
cm_format_row_ended (CmKindRow *row,
                     CmJob     *job)
{
  const GError *error = cm_job_get_error (job);

  if (cm_job_get_result (job) != NULL)
    cm_kind_row_show_done (row, job);
  else if (cm_job_get_state (job) == CM_JOB_STATE_CANCELLED)
    {
      g_autoptr(CmOutcome) stopped = cm_outcome_new_stopped (cm_job_get_kind (job));
      GtkWidget *badge = cm_kind_row_get_badge (row);

      /* The badge of any stopped job, in its tone, and core's sentence:
       * the state the format left the card in, and to format it again
       * (the row's Format… button, back in its place). */
      cm_outcome_badge_update (badge, stopped);
      gtk_widget_set_visible (badge, TRUE);
      cm_kind_row_set_subtitle (row,
                                error != NULL ? error->message
                                              : _("Stopped: the card may be erased and not formatted. Format it again to use it."));
      cm_toast_show (GTK_WIDGET (row), _("Format stopped. The card may be erased and not formatted: format it again."));
    }
  else if (error != NULL)
    {
      cm_kind_row_set_subtitle (row, error->message);
      cm_toast_show (GTK_WIDGET (row), error->message);
    }
}

static void
start (CmFormatRow *self,
       const char  *label,
       guint64      use_bytes,
       gboolean     bench)
{
  g_autoptr(CmJob) job = NULL;
  g_autofree char *why_not = cm_format_row_dup_why_not (self);

  if (why_not != NULL)
    {
      cm_toast_show (GTK_WIDGET (self), why_not);
      return;
    }
  job = cm_kind_row_new_job (CM_KIND_ROW (self), CM_METHOD_RAW_WRITE);
  /* The user's consent, given in the dialog. */
  cm_job_set_destroy_data (job, TRUE);
  g_object_set (cm_job_get_options (job), "label", label, "size", use_bytes, "then-bench", bench, NULL);
  cm_kind_row_start_job (CM_KIND_ROW (self), job);
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
  CmCardInfo *info = cm_card_item_get_card_info (item_of (self));
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
  g_autofree char *says = g_format_size (cm_card_item_get_size (item_of (form->row)));
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

  if (g_strcmp0 (response, "format") != 0 || cm_kind_row_get_busy (CM_KIND_ROW (self)) || form == NULL)
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
  CmCardInfo *info = cm_card_item_get_card_info (item_of (self));
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
  g_autofree char *name = cm_text_dup_clean (cm_card_item_get_name (item_of (self)), NAME_MAX_CHARS);
  g_autofree char *size = g_format_size (cm_card_item_get_size (item_of (self)));
  g_autofree char *layout = dup_planned_layout (self, use_bytes > 0 ? use_bytes : cm_card_item_get_size (item_of (self)),
                                                &form->fs);
  g_autofree char *body = NULL;

  /* As root or not, the card gets the same layout, checked. */
  if (layout != NULL)
    /* Translators: the first %s is the card's name, then its size, its
     * device, and what it gets, "FAT32, 32 KiB clusters" */
    body = g_strdup_printf (_("Everything on “%s” (%s, %s) will be lost: its files, its partitions and whatever "
                              "a check left on it. CardMark erases the whole card, makes one partition aligned "
                              "to the card, formats it %s and checks it."),
                            name, size, cm_card_item_get_device (item_of (self)), layout);
  else
    /* Translators: the card's name, its size and its device */
    body = g_strdup_printf (_("Everything on “%s” (%s, %s) will be lost: its files, its partitions and whatever "
                              "a check left on it."),
                            name, size, cm_card_item_get_device (item_of (self)));
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

/* Starts after asking. */
static void
cm_format_row_activate (CmKindRow *row)
{
  CmFormatRow *self = CM_FORMAT_ROW (row);
  g_autofree char *why_not = NULL;
  g_autoptr(CmHistory) history = NULL;
  CmCardInfo *info;

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
  info = cm_card_item_get_card_info (item_of (self));
  self->asking = g_cancellable_new ();
  cm_format_find_real_size_async (history, info,
                                  cm_card_item_get_device (item_of (self)), cm_card_item_get_size (item_of (self)),
                                  self->asking, real_size_cb, self);
}

static void
cm_format_row_dispose (GObject *object)
{
  CmFormatRow *self = CM_FORMAT_ROW (object);

  g_cancellable_cancel (self->asking);
  g_clear_object (&self->asking);

  G_OBJECT_CLASS (cm_format_row_parent_class)->dispose (object);
}

static void
cm_format_row_class_init (CmFormatRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  CmKindRowClass *row_class = CM_KIND_ROW_CLASS (klass);

  object_class->dispose = cm_format_row_dispose;
  row_class->kind = &cm_job_kind_format;
  row_class->fill = cm_format_row_fill;
  row_class->activate = cm_format_row_activate;
  row_class->ended = cm_format_row_ended;
}

static void
cm_format_row_init (CmFormatRow *self)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Erase and Format…"));
  cm_kind_row_set_action (CM_KIND_ROW (self), _("_Format…"), NULL);
  cm_kind_row_set_show (CM_KIND_ROW (self), _("Show the last format of this card"));
}

GtkWidget *
cm_format_row_new (CmCardItem *item)
{
  CmFormatRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_FORMAT_ROW, NULL);
  cm_kind_row_set_item (CM_KIND_ROW (self), item);
  return GTK_WIDGET (self);
}

/* An erase and format's part of its page: the layout made, the erase,
 * the check. */
void
cm_format_row_fill_part (CmResultPart *part,
                         CmResult     *result)
{
  g_autoptr(CmFormatReport) report = cm_format_report_from_json (cm_result_get_part (result), NULL);
  g_autofree char *layout = NULL;
  g_autofree char *discard = NULL;

  if (report == NULL)
    return;
  layout = cm_format_report_dup_layout_text (report);
  discard = cm_format_report_dup_discard_text (report);
  /* What was laid out is among the headline figures above. */
  cm_result_part_add_fact (part, _("File system"), layout);
  cm_result_part_add_size (part, _("The card says it holds"), report->device_bytes);
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

    cm_result_part_add_fact (part, _("Partition"), where);
  }
  if (report->label != NULL)
    cm_result_part_add_fact (part, _("Label"), report->label);
  /* Translators: whether fsck found the new file system clean */
  cm_result_part_add_fact (part, _("File system check"),
            !report->fsck_ran ? _("Not checked") : report->fsck_clean ? _("Clean") : _("Faults found"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (cm_result_part_add_fact (part, _("Erase"), "")), discard);
  /* With a benchmark after it: what the erase gave back. */
  {
    g_autoptr(GPtrArray) speeds = cm_format_dup_speed_lines (result);

    if (speeds->len > 0)
      {
        g_autofree char *text = NULL;

        g_ptr_array_add (speeds, NULL);
        text = g_strjoinv ("\n", (char **) speeds->pdata);
        adw_action_row_set_subtitle (ADW_ACTION_ROW (cm_result_part_add_fact (part, _("Speed before and after"), "")), text);
      }
  }
}
