/* cm-power-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Power-Cut Test…" on a whole card's page: a red confirmation, built
 * from the kind's options (cm-power-options.h: their defaults and
 * bounds), asks how the power is cut (by hand, or by two commands the
 * person gives) and how many times, then starts a "power" job
 * (cm-job-power.c) in the application. While it runs, the row says its
 * progress; by hand, when the test asks the person to pull the card out
 * or put it back, the row says only that, plainly, with Stop beside it.
 * What every kind's row does is CmKindRow's (cm-kind-row.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-power-options.h"
#include "cm-toast.h"

#include "cm-power-row.h"

struct _CmPowerRow
{
  CmKindRow    parent_instance;

  /* The confirmation and its form, while it is open. */
  AdwMessageDialog *dialog;
  AdwComboRow *method_row;
  AdwEntryRow *off_row;
  AdwEntryRow *on_row;
  GtkAdjustment *cuts;
};

G_DEFINE_FINAL_TYPE (CmPowerRow, cm_power_row, CM_TYPE_KIND_ROW)

/* The area the tests ask for (0: the option's default). */
static guint64 test_area;

/* Why the row's card may not be tested, or NULL. */
static const char *
why_not (CmPowerRow *self)
{
  CmCardItem *item = cm_kind_row_get_item (CM_KIND_ROW (self));

  if (item == NULL)
    return _("The card is no longer connected.");
  if (cm_card_item_get_is_system (item) || cm_card_item_get_kind (item) == CM_CARD_KIND_HOME)
    return _("This disk holds the running system: a power-cut test would destroy it.");
  if (cm_card_item_get_kind (item) != CM_CARD_KIND_DEVICE || cm_card_item_get_device (item) == NULL)
    return _("A power-cut test needs a whole card.");
  if (cm_card_item_get_file_folder (item) != NULL)
    return _("The card is mounted. Unmount it in Files to test it; the test erases it.");
  return NULL;
}

static void
cm_power_row_fill (CmKindRow *row)
{
  const char *refused = why_not (CM_POWER_ROW (row));
  g_autofree char *answer = cm_kind_row_dup_last_answer (row);

  cm_kind_row_set_can_start (row, refused == NULL);
  if (refused != NULL)
    cm_kind_row_set_subtitle (row, refused);
  else if (answer != NULL)
    cm_kind_row_set_subtitle (row, answer);
  else
    cm_kind_row_set_subtitle (row, _("Cuts the card's power while it writes, again and again, and checks that it "
                                     "kept what it said it saved. Erases the card."));
}

/* What the person must do now is all the row says: the test waits on
 * them, and a percentage beside it would only hide it. */
static void
cm_power_row_progress (CmKindRow *row,
                       CmJob     *job)
{
  const char *phase = cm_job_get_phase (job);

  if (cm_power_switch_is_request (phase))
    cm_kind_row_set_subtitle (row, phase);
  else
    CM_KIND_ROW_CLASS (cm_power_row_parent_class)->progress (row, job);
}

static void
cm_power_row_ended (CmKindRow *row,
                    CmJob     *job)
{
  const GError *error = cm_job_get_error (job);

  if (cm_job_get_result (job) == NULL && error != NULL)
    {
      cm_kind_row_set_subtitle (row, error->message);
      cm_toast_show (GTK_WIDGET (row), error->message);
    }
  else
    cm_kind_row_show_done (row, job);
}

static GParamSpec *
option_spec (const char *name)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (CM_TYPE_POWER_OPTIONS);

  return g_object_class_find_property (G_OBJECT_CLASS (klass), name);
}

/* The job the person asked for in the form. */
static CmJob *
new_job (CmPowerRow *self)
{
  CmJob *job = cm_kind_row_new_job (CM_KIND_ROW (self), CM_METHOD_RAW_WRITE);
  GObject *options = cm_job_get_options (job);
  gboolean by_hand = adw_combo_row_get_selected (self->method_row) == 0;

  g_object_set (options,
                "switch-method", by_hand ? CM_POWER_SWITCH_BY_HAND : CM_POWER_SWITCH_COMMANDS,
                "cuts", (guint) gtk_adjustment_get_value (self->cuts),
                NULL);
  if (!by_hand)
    g_object_set (options,
                  "switch-off", gtk_editable_get_text (GTK_EDITABLE (self->off_row)),
                  "switch-on", gtk_editable_get_text (GTK_EDITABLE (self->on_row)),
                  NULL);
  if (test_area > 0)
    g_object_set (options, "area", test_area, NULL);
  cm_job_set_destroy_data (job, TRUE);
  return job;
}

static void
forget_form (CmPowerRow *self)
{
  self->dialog = NULL;
  self->method_row = NULL;
  self->off_row = NULL;
  self->on_row = NULL;
  g_clear_object (&self->cuts);
}

static void
response_cb (CmPowerRow       *self,
             const char       *response,
             AdwMessageDialog *dialog)
{
  if (g_strcmp0 (response, "cut") == 0 && !cm_kind_row_get_busy (CM_KIND_ROW (self)) && why_not (self) == NULL)
    {
      g_autoptr(CmJob) job = new_job (self);

      cm_kind_row_start_job (CM_KIND_ROW (self), job);
    }
  forget_form (self);
}

/* Commands show only when they are the way, and the answer waits for
 * both. */
static void
form_changed_cb (CmPowerRow *self)
{
  gboolean by_hand, filled;

  /* The form going away with its dialog, answered. */
  if (self->dialog == NULL)
    return;
  by_hand = adw_combo_row_get_selected (self->method_row) == 0;
  filled = *gtk_editable_get_text (GTK_EDITABLE (self->off_row)) != '\0' &&
           *gtk_editable_get_text (GTK_EDITABLE (self->on_row)) != '\0';
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->method_row),
                               by_hand ? _("You pull the card out and put it back when CardMark asks")
                                       : _("A relay, a smart plug or a lab supply, switched by commands you give"));
  gtk_widget_set_visible (GTK_WIDGET (self->off_row), !by_hand);
  gtk_widget_set_visible (GTK_WIDGET (self->on_row), !by_hand);
  adw_message_dialog_set_response_enabled (self->dialog, "cut", by_hand || filled);
}

static GtkWidget *
cuts_row (CmPowerRow *self)
{
  GParamSpecUInt *spec = G_PARAM_SPEC_UINT (option_spec ("cuts"));
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin;

  self->cuts = g_object_ref_sink (gtk_adjustment_new (spec->default_value, spec->minimum, spec->maximum, 1, 10, 0));
  spin = gtk_spin_button_new (self->cuts, 1, 0);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Number of _cuts"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL, -1);
  return row;
}

static GtkWidget *
command_row (const char *title)
{
  GtkWidget *row = adw_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  return row;
}

/* The form under the question: how the power is cut, and how often. */
static GtkWidget *
form_new (CmPowerRow *self)
{
  const char *ways[] = { _("By hand"), _("Two commands"), NULL };
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  self->method_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->method_row), _("_How to cut the power"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (self->method_row), TRUE);
  adw_combo_row_set_model (self->method_row, G_LIST_MODEL (gtk_string_list_new (ways)));
  /* By hand needs nothing but the person: the default here. */
  adw_combo_row_set_selected (self->method_row, 0);
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (self->method_row));
  self->off_row = ADW_ENTRY_ROW (command_row (_("Command that cuts the _power")));
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (self->off_row));
  self->on_row = ADW_ENTRY_ROW (command_row (_("Command that brings it _back")));
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (self->on_row));
  gtk_list_box_append (GTK_LIST_BOX (list), cuts_row (self));
  return list;
}

static void
ask (CmPowerRow *self)
{
  CmCardItem *item = cm_kind_row_get_item (CM_KIND_ROW (self));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *size = g_format_size (cm_card_item_get_size (item));
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  /* Translators: the first %s is the card's size ("32.0 GB"), the second its device ("/dev/sdb") */
  body = g_strdup_printf (_("Everything on this %s card (%s) will be destroyed. CardMark writes records to it, "
                            "cuts its power while it writes, and after each cut checks that the card kept "
                            "every write it said it had saved. You can stop at any time and carry on later."),
                          size, cm_card_item_get_device (item));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Erase the Card and Cut Its Power?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "cut", _("_Erase and Test"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "cut", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), form_new (self));
  self->dialog = ADW_MESSAGE_DIALOG (dialog);
  g_signal_connect_object (self->method_row, "notify::selected", G_CALLBACK (form_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->off_row, "notify::text", G_CALLBACK (form_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->on_row, "notify::text", G_CALLBACK (form_changed_cb), self, G_CONNECT_SWAPPED);
  form_changed_cb (self);
  g_signal_connect_object (dialog, "response", G_CALLBACK (response_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
cm_power_row_activate (CmKindRow *row)
{
  CmPowerRow *self = CM_POWER_ROW (row);
  const char *refused = why_not (self);

  if (refused != NULL)
    {
      cm_toast_show (GTK_WIDGET (self), refused);
      return;
    }
  if (self->dialog == NULL)
    ask (self);
}

/**
 * cm_power_row_set_test_area:
 * @area: bytes, or 0 for the option's default
 *
 * The area the rows' tests write, so a test on a small card is short;
 * for the tests.
 */
void
cm_power_row_set_test_area (guint64 area)
{
  test_area = area;
}

static void
cm_power_row_dispose (GObject *object)
{
  forget_form (CM_POWER_ROW (object));
  G_OBJECT_CLASS (cm_power_row_parent_class)->dispose (object);
}

static void
cm_power_row_class_init (CmPowerRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  CmKindRowClass *row_class = CM_KIND_ROW_CLASS (klass);

  object_class->dispose = cm_power_row_dispose;
  row_class->kind = &cm_job_kind_power;
  row_class->fill = cm_power_row_fill;
  row_class->activate = cm_power_row_activate;
  row_class->progress = cm_power_row_progress;
  row_class->ended = cm_power_row_ended;
}

static void
cm_power_row_init (CmPowerRow *self)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Power-Cut Test…"));
  cm_kind_row_set_action (CM_KIND_ROW (self), _("_Test…"),
                          _("Cut the card's power while it writes and check what it kept; erases the card"));
  cm_kind_row_set_show (CM_KIND_ROW (self), _("Show the last power-cut test of this card"));
}

GtkWidget *
cm_power_row_new (CmCardItem *item)
{
  CmPowerRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_POWER_ROW, NULL);
  cm_kind_row_set_item (CM_KIND_ROW (self), item);
  return GTK_WIDGET (self);
}
