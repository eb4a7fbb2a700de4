/* test-app-maker-form.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The maker's endurance form of the Wear Test confirmation (CmMakerForm):
 * the bytes it gives are the figures typed, converted as the document
 * says (TB × 10^12; hours × 3600 × Mbit/s × 10^6 ÷ 8); wrong figures
 * keep the dialog's answer off, say why, and are marked invalid on the
 * field a screen reader is in, which is named by its row.
 */

#include "config.h"

#include <adwaita.h>
#include <math.h>

#include "cm-maker-form.h"
#include "cm-test-app.h"

typedef struct
{
  GtkWidget *window;
  GtkWidget *dialog;
  CmMakerForm *form;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->window = gtk_window_new ();
  gtk_window_present (GTK_WINDOW (f->window));
  f->dialog = adw_message_dialog_new (GTK_WINDOW (f->window), "Erase?", "Body");
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (f->dialog), "cancel", "_Cancel", "wear", "_Erase", NULL);
  f->form = CM_MAKER_FORM (cm_maker_form_new ());
  cm_maker_form_attach (f->form, ADW_MESSAGE_DIALOG (f->dialog), "wear", NULL);
  gtk_window_present (GTK_WINDOW (f->dialog));
  cm_test_settle (0.1);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->dialog));
  cm_test_destroy_window (GTK_WINDOW (f->window));
}

/* The text field of the form's row titled @title. */
static GtkWidget *
find_field (GtkWidget  *widget,
            const char *title)
{
  if (ADW_IS_ENTRY_ROW (widget) && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_field (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
answer_enabled (Fixture *f)
{
  return adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (f->dialog), "wear");
}

/* Nothing typed: no maker's endurance, and the answer is on. */
static void
test_empty (Fixture       *f,
            gconstpointer  data)
{
  g_assert_true (cm_maker_form_get_valid (f->form));
  g_assert_cmpuint (cm_maker_form_get_maker_bytes (f->form), ==, 0);
  g_assert_true (answer_enabled (f));
}

/* A TBW, with a point or a comma, and hours of video at a bitrate. */
static void
test_figures (Fixture       *f,
              gconstpointer  data)
{
  const double tbw = 1.5, hours = 10000, mbps = 26;

  cm_maker_form_set_text (f->form, "1,5", NULL, NULL);
  g_assert_true (cm_maker_form_get_valid (f->form));
  g_assert_cmpuint (cm_maker_form_get_maker_bytes (f->form), ==, (guint64) llround (tbw * 1e12));
  cm_maker_form_set_text (f->form, " 1.5 ", NULL, NULL);
  g_assert_cmpuint (cm_maker_form_get_maker_bytes (f->form), ==, (guint64) llround (tbw * 1e12));

  cm_maker_form_set_text (f->form, NULL, "10000", "26");
  g_assert_true (cm_maker_form_get_valid (f->form));
  g_assert_cmpuint (cm_maker_form_get_maker_bytes (f->form), ==, (guint64) llround (hours * 3600 * mbps * 1e6 / 8));
  g_assert_true (answer_enabled (f));
}

/* Wrong figures: the answer is off and the fields they are about say so
 * to a screen reader; put right, the answer is on again. */
static void
test_wrong (Fixture       *f,
            gconstpointer  data)
{
  const struct {
    const char *tbw, *hours, *mbps;
    gboolean tbw_wrong, video_wrong;
  } wrong[] = {
    { "1.5 TB", NULL, NULL, TRUE, FALSE },
    { "-2", NULL, NULL, TRUE, FALSE },
    { "0", NULL, NULL, TRUE, FALSE },
    { "2000000", NULL, NULL, TRUE, FALSE },
    { "nan", NULL, NULL, TRUE, FALSE },
    { NULL, "10", NULL, FALSE, TRUE },
    { NULL, NULL, "8", FALSE, TRUE },
    { "1", "10", "8", TRUE, TRUE },
  };
  GtkWidget *tbw = find_field (GTK_WIDGET (f->form), "_TB written (TBW)");
  GtkWidget *hours = find_field (GTK_WIDGET (f->form), "Or _hours of Full HD video");

  g_assert_nonnull (tbw);
  g_assert_nonnull (hours);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (tbw), GTK_ACCESSIBLE_PROPERTY_LABEL, "TB written (TBW)");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (hours), GTK_ACCESSIBLE_PROPERTY_LABEL, "Or hours of Full HD video");
  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      g_test_message ("%s | %s | %s", wrong[i].tbw, wrong[i].hours, wrong[i].mbps);
      cm_maker_form_set_text (f->form, wrong[i].tbw, wrong[i].hours, wrong[i].mbps);
      g_assert_false (cm_maker_form_get_valid (f->form));
      g_assert_cmpuint (cm_maker_form_get_maker_bytes (f->form), ==, 0);
      g_assert_false (answer_enabled (f));
      gtk_test_accessible_assert_state (GTK_ACCESSIBLE (tbw), GTK_ACCESSIBLE_STATE_INVALID,
                                        wrong[i].tbw_wrong ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE);
      gtk_test_accessible_assert_state (GTK_ACCESSIBLE (hours), GTK_ACCESSIBLE_STATE_INVALID,
                                        wrong[i].video_wrong ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE);
    }
  cm_maker_form_set_text (f->form, "3", NULL, NULL);
  g_assert_true (cm_maker_form_get_valid (f->form));
  g_assert_true (answer_enabled (f));
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (tbw), GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_FALSE);
}

/* The fields take the keyboard focus, in order, from the first. */
static void
test_keyboard (Fixture       *f,
               gconstpointer  data)
{
  GtkWidget *tbw = find_field (GTK_WIDGET (f->form), "_TB written (TBW)");
  GtkWidget *hours = find_field (GTK_WIDGET (f->form), "Or _hours of Full HD video");

  g_assert_true (gtk_widget_grab_focus (tbw));
  g_assert_true (gtk_widget_has_focus (tbw));
  g_assert_true (gtk_widget_child_focus (f->dialog, GTK_DIR_TAB_FORWARD));
  cm_test_settle (0.05);
  g_test_message ("Tab went to a %s", G_OBJECT_TYPE_NAME (gtk_root_get_focus (GTK_ROOT (f->dialog))));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (f->dialog)) == hours);
}

int
main (int   argc,
      char *argv[])
{
  /* The accessible states are read from GTK's test context. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/cardmark/app-maker-form/empty", Fixture, NULL, fixture_set_up, test_empty, fixture_tear_down);
  g_test_add ("/cardmark/app-maker-form/figures", Fixture, NULL, fixture_set_up, test_figures, fixture_tear_down);
  g_test_add ("/cardmark/app-maker-form/wrong", Fixture, NULL, fixture_set_up, test_wrong, fixture_tear_down);
  g_test_add ("/cardmark/app-maker-form/keyboard", Fixture, NULL, fixture_set_up, test_keyboard, fixture_tear_down);
  return g_test_run ();
}
