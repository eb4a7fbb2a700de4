/* cm-maker-form.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The maker's endurance, asked for in a wear test's confirmation: a TBW
 * figure, or a high-endurance card's hours of video at the bitrate the
 * maker states, or nothing. The core turns the figures into bytes and
 * checks them (cm_endurance_maker_bytes_from, as the CLI's --tbw and
 * --video-hours); the form says what is wrong under the fields, marks
 * them invalid for screen readers, and keeps the dialog's answer off
 * until the figures are right, so nothing starts on bad input.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-endurance.h"

#include "cm-maker-form.h"

struct _CmMakerForm
{
  GtkBox       parent_instance;

  AdwEntryRow *tbw_row;
  AdwEntryRow *hours_row;
  AdwEntryRow *mbps_row;
  GtkLabel    *error_label;

  gboolean     valid;
  guint64      maker_bytes;
};

G_DEFINE_FINAL_TYPE (CmMakerForm, cm_maker_form, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_VALID,
  PROP_MAKER_BYTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The figure in @row, with a point or a comma: 0 when empty, FALSE when
 * it is not a number. A 0 typed is not "not given": it comes back as -1
 * so that the core's range check names it. */
static gboolean
parse_row (AdwEntryRow *row,
           double      *value)
{
  g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (row)));
  char *end = NULL;

  g_strstrip (g_strdelimit (text, ",", '.'));
  if (*text == '\0')
    {
      *value = 0;
      return TRUE;
    }
  *value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (*value))
    return FALSE;
  if (*value <= 0)
    *value = -1;
  return TRUE;
}

/* The field a screen reader is in while the user types in @row. */
static GtkAccessible *
row_text (AdwEntryRow *row)
{
  return GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (row)));
}

static void
mark_invalid (AdwEntryRow *row,
              gboolean     invalid)
{
  if (invalid)
    {
      gtk_widget_add_css_class (GTK_WIDGET (row), "error");
      gtk_accessible_update_state (row_text (row), GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE, -1);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
      gtk_accessible_reset_state (row_text (row), GTK_ACCESSIBLE_STATE_INVALID);
    }
}

/* The field is named by its row's title, without the mnemonic's
 * underscore, and described by the error under the fields. */
static void
label_field (CmMakerForm *self,
             AdwEntryRow *row)
{
  g_autofree char *title = g_strdup (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  g_auto(GStrv) parts = g_strsplit (title, "_", -1);
  g_autofree char *name = g_strjoinv ("", parts);

  gtk_accessible_update_property (row_text (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_accessible_update_relation (row_text (row), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, self->error_label, NULL, -1);
}

/* The rows an error is about. */
static void
mark_rows (CmMakerForm  *self,
           const GError *error,
           AdwEntryRow  *unparsed)
{
  gboolean tbw = FALSE, video = FALSE;

  if (unparsed != NULL)
    {
      tbw = unparsed == self->tbw_row;
      video = !tbw;
    }
  else if (error != NULL)
    {
      tbw = error->code == CM_ENDURANCE_ERROR_TBW || error->code == CM_ENDURANCE_ERROR_TWICE;
      video = error->code != CM_ENDURANCE_ERROR_TBW;
    }
  mark_invalid (self->tbw_row, tbw);
  mark_invalid (self->hours_row, video && (unparsed == NULL || unparsed == self->hours_row));
  mark_invalid (self->mbps_row, video && (unparsed == NULL || unparsed == self->mbps_row));
}

static void
set_outcome (CmMakerForm *self,
             gboolean     valid,
             guint64      maker_bytes,
             const char  *why_not)
{
  gtk_label_set_label (self->error_label, why_not != NULL ? why_not : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), why_not != NULL);
  if (self->maker_bytes != maker_bytes)
    {
      self->maker_bytes = maker_bytes;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAKER_BYTES]);
    }
  if (self->valid != valid)
    {
      self->valid = valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
    }
}

static void
changed_cb (CmMakerForm *self)
{
  AdwEntryRow *rows[] = { self->tbw_row, self->hours_row, self->mbps_row };
  double values[G_N_ELEMENTS (rows)];
  g_autoptr(GError) error = NULL;
  guint64 bytes = 0;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (!parse_row (rows[i], &values[i]))
      {
        g_autofree char *text = g_strdup_printf (_("“%s” is not a number. Type the figure the maker states, such as 1.5."),
                                                 gtk_editable_get_text (GTK_EDITABLE (rows[i])));

        mark_rows (self, NULL, rows[i]);
        set_outcome (self, FALSE, 0, text);
        return;
      }
  if (!cm_endurance_maker_bytes_from (values[0], values[1], values[2], &bytes, &error))
    {
      mark_rows (self, error, NULL);
      set_outcome (self, FALSE, 0, error->message);
      return;
    }
  mark_rows (self, NULL, NULL);
  set_outcome (self, TRUE, bytes, NULL);
}

gboolean
cm_maker_form_get_valid (CmMakerForm *self)
{
  g_return_val_if_fail (CM_IS_MAKER_FORM (self), FALSE);

  return self->valid;
}

/* The maker's endurance in bytes written, 0 when none is given. */
guint64
cm_maker_form_get_maker_bytes (CmMakerForm *self)
{
  g_return_val_if_fail (CM_IS_MAKER_FORM (self), 0);

  return self->valid ? self->maker_bytes : 0;
}

/* Types the figures in, as a user would (for tests and screenshots). */
void
cm_maker_form_set_text (CmMakerForm *self,
                        const char  *tbw,
                        const char  *video_hours,
                        const char  *video_mbps)
{
  g_return_if_fail (CM_IS_MAKER_FORM (self));

  gtk_editable_set_text (GTK_EDITABLE (self->tbw_row), tbw != NULL ? tbw : "");
  gtk_editable_set_text (GTK_EDITABLE (self->hours_row), video_hours != NULL ? video_hours : "");
  gtk_editable_set_text (GTK_EDITABLE (self->mbps_row), video_mbps != NULL ? video_mbps : "");
}

static void
valid_cb (CmMakerForm      *self,
          GParamSpec       *pspec,
          AdwMessageDialog *dialog)
{
  const char * const *responses = g_object_get_data (G_OBJECT (self), "cm-responses");

  for (guint i = 0; responses[i] != NULL; i++)
    adw_message_dialog_set_response_enabled (dialog, responses[i], self->valid);
}

/* Puts the form in @dialog, whose answers that start a test (the
 * NULL-terminated list from @first_response on) are on only while the
 * figures are right. */
void
cm_maker_form_attach (CmMakerForm      *self,
                      AdwMessageDialog *dialog,
                      const char       *first_response,
                      ...)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;

  g_return_if_fail (CM_IS_MAKER_FORM (self));
  g_return_if_fail (ADW_IS_MESSAGE_DIALOG (dialog));
  g_return_if_fail (first_response != NULL);

  va_start (args, first_response);
  for (const char *response = first_response; response != NULL; response = va_arg (args, const char *))
    g_strv_builder_add (builder, response);
  va_end (args);
  adw_message_dialog_set_extra_child (dialog, GTK_WIDGET (self));
  g_object_set_data_full (G_OBJECT (self), "cm-responses", g_strv_builder_end (builder), (GDestroyNotify) g_strfreev);
  g_signal_connect_object (self, "notify::valid", G_CALLBACK (valid_cb), dialog, 0);
  valid_cb (self, NULL, dialog);
}

static void
cm_maker_form_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CmMakerForm *self = CM_MAKER_FORM (object);

  switch (prop_id)
    {
    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;
    case PROP_MAKER_BYTES:
      g_value_set_uint64 (value, cm_maker_form_get_maker_bytes (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_maker_form_class_init (CmMakerFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cm_maker_form_get_property;

  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAKER_BYTES] =
    g_param_spec_uint64 ("maker-bytes", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-maker-form.ui");
  gtk_widget_class_bind_template_child (widget_class, CmMakerForm, tbw_row);
  gtk_widget_class_bind_template_child (widget_class, CmMakerForm, hours_row);
  gtk_widget_class_bind_template_child (widget_class, CmMakerForm, mbps_row);
  gtk_widget_class_bind_template_child (widget_class, CmMakerForm, error_label);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
}

static void
cm_maker_form_init (CmMakerForm *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->valid = TRUE;
  label_field (self, self->tbw_row);
  label_field (self, self->hours_row);
  label_field (self, self->mbps_row);
}

GtkWidget *
cm_maker_form_new (void)
{
  return g_object_new (CM_TYPE_MAKER_FORM, NULL);
}
