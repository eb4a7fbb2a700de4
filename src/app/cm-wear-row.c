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
 * offers to carry on from there, or to start over. What every kind's row
 * does is CmKindRow's (cm-kind-row.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-endurance.h"
#include "cm-maker-form.h"
#include "cm-result-part.h"
#include "cm-toast.h"
#include "cm-verify.h"
#include "cm-wear-state.h"

#include "cm-wear-row.h"

struct _CmWearRow
{
  CmKindRow parent_instance;
};

G_DEFINE_FINAL_TYPE (CmWearRow, cm_wear_row, CM_TYPE_KIND_ROW)

/* Only a whole card that nothing uses can be worn: NULL with @why_not
 * when this one may not. */
static const char *
choose_device (CmWearRow   *self,
               const char **why_not)
{
  CmCardItem *item = cm_kind_row_get_item (CM_KIND_ROW (self));

  if (item == NULL)
    {
      *why_not = "";
      return NULL;
    }
  return cm_card_item_get_wear_device (item, why_not);
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
  state = cm_wear_state_new (device, cm_card_item_get_size (cm_kind_row_get_item (CM_KIND_ROW (self))), NULL);
  return cm_wear_state_exists (state) ? g_steal_pointer (&state) : NULL;
}

/* The last answer, where a stopped test stands, why the card may not
 * be worn, or what the test does; Carry On… once one is saved. */
static void
cm_wear_row_fill (CmKindRow *row)
{
  CmWearRow *self = CM_WEAR_ROW (row);
  const char *why_not = NULL;
  const char *device = choose_device (self, &why_not);
  g_autoptr(CmWearState) state = saved_state (self);
  g_autofree char *where = state != NULL ? cm_wear_state_describe (state) : NULL;
  g_autofree char *answer = cm_kind_row_dup_last_answer (row);

  cm_kind_row_set_action (row, state != NULL ? _("_Carry On…") : _("_Start"), NULL);
  cm_kind_row_set_can_start (row, device != NULL);
  if (answer != NULL && where == NULL)
    cm_kind_row_set_subtitle (row, answer);
  else if (device == NULL)
    cm_kind_row_set_subtitle (row, why_not);
  else if (where != NULL)
    {
      /* Translators: %s is where it stopped: "round 3, writing, at 1.2 GB of 16 GB" */
      g_autofree char *text = g_strdup_printf (_("A stopped wear test of this card can carry on: it stopped in %s."), where);

      cm_kind_row_set_subtitle (row, text);
    }
  else
    cm_kind_row_set_subtitle (row,
                              _("Writes and reads back the whole card, round after round, until you stop it, "
                                "to find how long it lasts. Erases the card."));
}

/* One that ended with rounds opens; one stopped before its first round
 * ended, or that failed, says so. */
static void
cm_wear_row_ended (CmKindRow *row,
                   CmJob     *job)
{
  const GError *error = cm_job_get_error (job);

  if (cm_job_get_result (job) != NULL)
    cm_kind_row_show_done (row, job);
  else if (cm_job_get_state (job) == CM_JOB_STATE_CANCELLED)
    cm_toast_show (GTK_WIDGET (row), _("Wear test stopped before its first round ended. Where it stood is kept: carry on at any time."));
  else if (error != NULL)
    cm_toast_show (GTK_WIDGET (row), error->message);
}

/**
 * cm_wear_row_new_job:
 * @item: a card
 * @carry_on: carry on a stopped wear test of the card, when one is saved
 * @maker_bytes: what the maker says the card can be written, or 0
 *
 * A wear test of @item, once the user agreed to erase it; rounds until
 * Stop. The same from its row and from "Wear Test N Cards…".
 *
 * Returns: (transfer full) (nullable): the job, not started; %NULL when
 *   @item may not be worn
 */
CmJob *
cm_wear_row_new_job (CmCardItem *item,
                     gboolean    carry_on,
                     guint64     maker_bytes)
{
  const char *why_not = NULL;
  CmJob *job;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  if (cm_card_item_get_wear_device (item, &why_not) == NULL)
    return NULL;
  job = cm_kind_job_new (&cm_job_kind_wear, item, CM_METHOD_RAW_WRITE);
  /* The user's consent, given in the dialog; rounds until Stop. */
  cm_job_set_destroy_data (job, TRUE);
  g_object_set (cm_job_get_options (job), "carry-on", carry_on, "maker-bytes", maker_bytes, NULL);
  return job;
}

/* Starts a wear test of the row's card: carrying on a stopped one of it
 * when @carry_on and one is saved, else from the start. */
static void
start (CmWearRow *self,
       gboolean   carry_on,
       guint64    maker_bytes)
{
  g_autoptr(CmJob) job = cm_wear_row_new_job (cm_kind_row_get_item (CM_KIND_ROW (self)), carry_on, maker_bytes);

  if (job != NULL)
    cm_kind_row_start_job (CM_KIND_ROW (self), job);
}

static void
confirm_cb (CmWearRow        *self,
            const char       *response,
            AdwMessageDialog *dialog)
{
  CmMakerForm *form = CM_MAKER_FORM (adw_message_dialog_get_extra_child (dialog));
  guint64 maker_bytes;

  if (cm_kind_row_get_busy (CM_KIND_ROW (self)) || !cm_maker_form_get_valid (form))
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

/* Starts after asking. */
static void
cm_wear_row_activate (CmKindRow *row)
{
  CmWearRow *self = CM_WEAR_ROW (row);
  const char *why_not = NULL;
  GtkRoot *root;
  GtkWidget *dialog;
  g_autofree char *size = NULL;
  g_autofree char *body = NULL;
  g_autoptr(CmWearState) state = NULL;

  if (choose_device (self, &why_not) == NULL)
    {
      cm_toast_show (GTK_WIDGET (self), why_not);
      return;
    }

  if ((state = saved_state (self)) != NULL)
    dialog = carry_on_dialog (self, state);
  else
    {
      size = g_format_size (cm_card_item_get_size (cm_kind_row_get_item (row)));
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
cm_wear_row_class_init (CmWearRowClass *klass)
{
  CmKindRowClass *row_class = CM_KIND_ROW_CLASS (klass);

  row_class->kind = &cm_job_kind_wear;
  row_class->fill = cm_wear_row_fill;
  row_class->activate = cm_wear_row_activate;
  row_class->ended = cm_wear_row_ended;
}

static void
cm_wear_row_init (CmWearRow *self)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Wear Test…"));
  cm_kind_row_set_action (CM_KIND_ROW (self), _("_Start"), NULL);
  cm_kind_row_set_show (CM_KIND_ROW (self), _("Show the last wear test of this card"));
}

GtkWidget *
cm_wear_row_new (CmCardItem *item)
{
  CmWearRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_WEAR_ROW, NULL);
  cm_kind_row_set_item (CM_KIND_ROW (self), item);
  return GTK_WIDGET (self);
}

/* Under a figure of bytes written: its share of the maker's endurance,
 * when the maker's was given. */
static void
set_beside_maker (GtkWidget         *row,
                  const CmEndurance *endurance,
                  guint64            written)
{
  g_autofree char *share = NULL;

  if (endurance->maker_bytes == 0)
    return;
  /* Translators: under "Round 12, after 3.2 TB written" */
  share = g_strdup_printf (_("%.1f %% of the maker’s endurance"), 100.0 * written / endurance->maker_bytes);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), share);
}

/* The rounds' write amplification, or that it is not known where the card
 * did not tell its flash writes: never a typed-in figure. */
static void
add_write_amplification (CmResultPart      *part,
                         const CmEndurance *endurance)
{
  g_autofree char *value = NULL;
  double lo, hi;

  if (cm_endurance_get_write_amplification (endurance, &lo, &hi))
    /* Translators: write amplification per round, "1.02 to 1.10" */
    value = g_strdup_printf (_("%.2f to %.2f"), lo, hi);
  else
    value = g_strdup (_("Not known: the card does not tell what it wrote to its flash"));
  cm_result_part_add_fact (part, _("Write amplification"), value);
}

/* A wear test's part of its page: its rounds, the thresholds it reached
 * and why it ended. */
void
cm_wear_row_fill_part (CmResultPart *part,
                       CmResult     *result)
{
  const CmEndurance *endurance = cm_result_get_endurance (result);
  const CmWearRound *last;
  g_autofree char *total = NULL;

  cm_chart_view_set_result (cm_result_part_add_chart (part, CM_CHART_WEAR, _("Round by Round"),
                                                      _("How fast each round wrote and read back the card, and how much of it "
                                                        "came back wrong.")),
                            result);
  if (endurance == NULL || endurance->rounds->len == 0)
    return;
  last = &g_array_index (endurance->rounds, CmWearRound, endurance->rounds->len - 1);
  cm_result_part_add_count (part, _("Rounds"), endurance->rounds->len);
  if (endurance->maker_bytes > 0)
    {
      g_autofree char *maker = g_format_size (endurance->maker_bytes);
      /* Translators: the maker's endurance, "30.0 TB written" */
      g_autofree char *value = g_strdup_printf (_("%s written"), maker);

      cm_result_part_add_fact (part, _("The maker’s endurance"), value);
    }
  total = g_format_size (last->bytes_written);
  set_beside_maker (cm_result_part_add_fact (part, _("Written in all"), total), endurance, last->bytes_written);
  for (guint i = 0; i < CM_ENDURANCE_N_THRESHOLDS; i++)
    {
      guint round;
      guint64 written;
      g_autofree char *title = NULL;
      g_autofree char *value = NULL;
      g_autofree char *size = NULL;

      if (!cm_endurance_get_threshold (endurance, i, &round, &written))
        continue;
      size = g_format_size (written);
      title = i == 0 ? g_strdup (_("First data lost"))
                     /* Translators: a wear test's threshold: "1 % of the card bad" */
                     : g_strdup_printf (_("%g %% of the card bad"), cm_endurance_threshold_share (i) * 100);
      /* Translators: "round 12, after 3.2 GB written" */
      value = g_strdup_printf (_("Round %u, after %s written"), round, size);
      set_beside_maker (cm_result_part_add_fact (part, title, value), endurance, written);
    }
  cm_result_part_add_count (part, _("Sectors bad in the last round"), last->bad_sectors);
  add_write_amplification (part, endurance);
}
