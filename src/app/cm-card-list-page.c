/* cm-card-list-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first page: every card the device monitor sees, live, followed by
 * this computer's storage and a folder of the user's choosing. A card a
 * job works on says so in its row: the job's phase, progress and time
 * left, and a small progress bar; when it ends, its answer. In selection
 * mode ("Select") each card row has a check box, and the action bar
 * starts the same test on every ticked card at once.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-accessible.h"
#include "cm-app-history.h"
#include "cm-card-lock.h"
#include "cm-job-list.h"
#include "cm-card-item.h"
#include "cm-summary.h"
#include "cm-text.h"
#include "cm-toast.h"

#include "cm-card-list-page.h"
#include "cm-outcome-badge.h"

struct _CmCardListPage
{
  GtkBox      parent_instance;

  GListModel *model;
  GListModel *jobs;      /* the application's, or NULL */
  CmCardItem *home_item;

  GtkStack   *devices_stack;
  GtkWidget  *content_box;
  GtkListBox *devices_list;
  AdwActionRow *home_row;
  AdwActionRow *folder_row;
  GtkToggleButton *select_button;
  GtkActionBar *action_bar;
  GtkLabel     *selected_label;
  GtkButton    *test_button;
  GtkButton    *verify_button;
  GtkButton    *wear_button;
  GtkFlowBox   *button_box;

  /* The devices of the ticked cards, and how each card's last job ended
   * (Outcome), kept by device: UDisks may make the list's rows and items
   * anew. */
  GHashTable   *selected;
  GHashTable   *outcomes;

  /* The last change to the list: rows from @moved_from on moved then. */
  gint64      moved_at;
  guint       moved_from;

  guint       outside_poll;  /* looks for other programs' jobs */
};

/* A click this soon after its row moved was aimed at another card. */
#define MOVED_GRACE_US (G_USEC_PER_SEC / 2)

G_DEFINE_FINAL_TYPE (CmCardListPage, cm_card_list_page, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_MODEL,
  N_PROPS
};

enum {
  ITEM_ACTIVATED,
  TEST_ITEMS,
  VERIFY_ITEMS,
  WEAR_ITEMS,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

typedef struct
{
  char      *text;
  CmOutcome *badge;   /* NULL for a job that failed: no verdict */
} Outcome;

static void
outcome_free (Outcome *outcome)
{
  g_free (outcome->text);
  g_clear_pointer (&outcome->badge, cm_outcome_free);
  g_free (outcome);
}

/* How the card's last job ended, in words, "Benchmark: Below U3 · Meets
 * A1", kept by the card's device until its next job ends. */
static void
keep_outcome (CmCardListPage *self,
              CmCardItem     *item,
              CmJob          *job)
{
  Outcome *kept;
  CmResult *result = cm_job_get_result (job);
  const GError *error = cm_job_get_error (job);
  CmOutcome *badge = NULL;
  char *outcome;

  switch (cm_job_get_state (job))
    {
    case CM_JOB_STATE_DONE:
      badge = result != NULL ? cm_result_dup_outcome (result) : cm_outcome_new_stopped (cm_job_get_kind (job));
      /* Translators: a job and its answer, "Benchmark: Meets U3 and A1" */
      outcome = g_strdup_printf (_("%s: %s"), cm_job_get_title (job),
                                 badge->answer != NULL ? badge->answer : badge->badge);
      break;
    case CM_JOB_STATE_CANCELLED:
      badge = cm_outcome_new_stopped (cm_job_get_kind (job));
      /* Translators: a job that was stopped, "Benchmark: stopped" */
      outcome = g_strdup_printf (_("%s: stopped"), cm_job_get_title (job));
      break;
    case CM_JOB_STATE_FAILED:
      /* A card another job held was not checked: that was said (a
       * toast), and it is no answer of the card's. */
      if (g_error_matches (error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY))
        {
          /* The page that started it says so itself; the list says it
           * of the jobs it started (Test N Cards), in sight. */
          if (g_object_get_data (G_OBJECT (job), "cm-busy-told") == NULL && gtk_widget_get_mapped (GTK_WIDGET (self)))
            cm_toast_show (GTK_WIDGET (self), error->message);
          g_object_set_data (G_OBJECT (job), "cm-busy-told", GINT_TO_POINTER (TRUE));
          return;
        }
      /* No badge: the sentence says what went wrong, not a verdict. */
      outcome = g_strdup_printf (_("%s: %s"), cm_job_get_title (job),
                                 error != NULL ? error->message : _("failed"));
      break;
    case CM_JOB_STATE_WAITING:
    case CM_JOB_STATE_RUNNING:
    case CM_JOB_STATE_PAUSED:
    default:
      return;
    }
  if (cm_card_item_get_device (item) == NULL)
    {
      g_free (outcome);
      g_clear_pointer (&badge, cm_outcome_free);
      return;
    }
  kept = g_new0 (Outcome, 1);
  kept->text = outcome;
  kept->badge = badge;
  g_hash_table_replace (self->outcomes, g_strdup (cm_card_item_get_device (item)), kept);
}

static void update_row_cb (CmCardItem *item, GParamSpec *pspec, AdwActionRow *row);

/* After a restart: the card's newest document in the history, the one
 * its page shows under its kind, in the same words, dated. A job that
 * ended meanwhile is newer and stays. */
static void
last_found (gpointer  owner,
            CmResult *last)
{
  AdwActionRow *row = owner;
  CmCardListPage *self = g_object_get_data (G_OBJECT (row), "cm-page");
  CmCardItem *item = g_object_get_data (G_OBJECT (row), "cm-item");
  const char *device = cm_card_item_get_device (item);
  g_autofree char *earlier = NULL;
  Outcome *kept;

  if (last == NULL || device == NULL || g_hash_table_contains (self->outcomes, device))
    return;
  kept = g_new0 (Outcome, 1);
  kept->badge = cm_result_dup_outcome (last);
  earlier = cm_app_history_dup_earlier (last, kept->badge->answer != NULL ? kept->badge->answer : kept->badge->badge);
  kept->text = g_strdup_printf (_("%s: %s"), cm_job_kind_get_title (cm_result_get_kind (last)), earlier);
  g_hash_table_replace (self->outcomes, g_strdup (device), kept);
  update_row_cb (item, NULL, row);
}

/* Cancels the row's look-up when the row goes. */
static void
cancel_and_unref (gpointer cancellable)
{
  g_cancellable_cancel (cancellable);
  g_object_unref (cancellable);
}

/* A row of a card this session has no answer for asks the history. */
static void
find_last (CmCardListPage *self,
           AdwActionRow   *row,
           CmCardItem     *item)
{
  GCancellable *finding;

  if (cm_card_item_get_device (item) == NULL || g_hash_table_contains (self->outcomes, cm_card_item_get_device (item)))
    return;
  finding = g_cancellable_new ();
  g_object_set_data_full (G_OBJECT (row), "cm-finding", finding, cancel_and_unref);
  cm_app_history_find_last (item, NULL, finding, last_found, row);
}

/* A card that was just tested says how it went at the row's end. */
static void
update_outcome_label (AdwActionRow  *row,
                      const Outcome *outcome)
{
  GtkWidget *label = g_object_get_data (G_OBJECT (row), "cm-outcome-label");
  gboolean shown = outcome != NULL && outcome->badge != NULL &&
                   (outcome->badge->status != CM_OUTCOME_NOT_JUDGED || outcome->badge->tone != CM_STATUS_NOT_JUDGED);

  /* The kind's own word: Genuine, Fake, Data lost, Stopped, Meets. */
  gtk_widget_set_visible (label, shown);
  if (shown)
    cm_outcome_badge_update (label, outcome->badge);
}

/* The row says what the card is and, below, what its job does now (or
 * how its last one ended): cards that look alike stay told apart by
 * their device while they run. */
static void
update_row_cb (CmCardItem   *item,
               GParamSpec   *pspec,
               AdwActionRow *row)
{
  CmCardListPage *self = g_object_get_data (G_OBJECT (row), "cm-page");
  CmJob *job = g_object_get_data (G_OBJECT (row), "cm-job");
  GtkWidget *bar = g_object_get_data (G_OBJECT (row), "cm-progress");
  g_autofree char *subtitle = cm_card_item_dup_subtitle (item);
  const Outcome *outcome;

  if (job != NULL && cm_job_is_active (job))
    {
      g_autofree char *status = cm_job_dup_status_text (job);
      g_autofree char *both = g_strconcat (subtitle, "\n", status, NULL);
      g_autofree char *shown = cm_text_dup_unbroken_units (both);

      adw_action_row_set_subtitle (row, shown);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (bar), cm_job_get_progress (job));
      gtk_widget_set_visible (bar, TRUE);
      update_outcome_label (row, NULL);
      return;
    }
  if (job != NULL)
    keep_outcome (self, item, job);
  /* Another program's job on the card (cardmark-cli), from its lock. */
  if (g_object_get_data (G_OBJECT (row), "cm-outside") != NULL)
    {
      const char *outside = g_object_get_data (G_OBJECT (row), "cm-outside");
      int permille = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "cm-outside-permille"));
      g_autofree char *both = g_strconcat (subtitle, "\n", outside, NULL);

      adw_action_row_set_subtitle (row, both);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (bar), MAX (permille, 0) / 1000.0);
      gtk_widget_set_visible (bar, permille >= 0);
      update_outcome_label (row, NULL);
      return;
    }
  gtk_widget_set_visible (bar, FALSE);
  outcome = g_hash_table_lookup (self->outcomes, cm_card_item_get_device (item) ?: "");
  update_outcome_label (row, outcome);
  if (outcome != NULL)
    {
      g_autofree char *both = g_strconcat (subtitle, "\n", outcome->text, NULL);
      g_autofree char *shown = cm_text_dup_unbroken_units (both);

      adw_action_row_set_subtitle (row, shown);
      return;
    }
  adw_action_row_set_subtitle (row, subtitle);
}

static void
job_changed_cb (AdwActionRow *row)
{
  update_row_cb (g_object_get_data (G_OBJECT (row), "cm-item"), NULL, row);
}

/* Follows the job that runs on the row's card, if any. */
static void
follow_job (CmCardListPage *self,
            AdwActionRow   *row)
{
  CmCardItem *item = g_object_get_data (G_OBJECT (row), "cm-item");
  CmJob *old = g_object_get_data (G_OBJECT (row), "cm-job");
  CmJob *job = NULL;
  guint n = self->jobs != NULL ? g_list_model_get_n_items (self->jobs) : 0;

  for (guint i = 0; i < n && job == NULL; i++)
    {
      g_autoptr(CmJob) other = g_list_model_get_item (self->jobs, i);

      if (cm_job_is_active (other) && cm_job_is_for_item (other, item))
        job = other;  /* the list keeps its reference */
    }

  if (job != old)
    {
      if (old != NULL)
        g_signal_handlers_disconnect_by_func (old, job_changed_cb, row);
      if (job != NULL)
        {
          cm_job_watch (job, G_CALLBACK (job_changed_cb), G_CALLBACK (job_changed_cb), row);
        }
      g_object_set_data_full (G_OBJECT (row), "cm-job", job != NULL ? g_object_ref (job) : NULL, g_object_unref);
    }
  update_row_cb (item, NULL, row);
}

/* Whether another program runs a job on each card, from the card's
 * lock, every second: nothing tells the app when another process takes
 * or lets go of a card. */
static gboolean
outside_poll_cb (gpointer data)
{
  CmCardListPage *self = data;

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      CmCardItem *item = g_object_get_data (G_OBJECT (child), "cm-item");
      double fraction = -1;
      g_autofree char *text = NULL;
      int permille;

      if (!ADW_IS_ACTION_ROW (child) || item == NULL)
        continue;
      text = cm_job_list_dup_outside_text (item, &fraction);
      permille = fraction >= 0 ? (int) (fraction * 1000) : -1;
      if (g_strcmp0 (text, g_object_get_data (G_OBJECT (child), "cm-outside")) == 0
          && permille == GPOINTER_TO_INT (g_object_get_data (G_OBJECT (child), "cm-outside-permille")))
        continue;
      g_object_set_data_full (G_OBJECT (child), "cm-outside", g_steal_pointer (&text), g_free);
      g_object_set_data (G_OBJECT (child), "cm-outside-permille", GINT_TO_POINTER (permille));
      update_row_cb (item, NULL, ADW_ACTION_ROW (child));
    }
  return G_SOURCE_CONTINUE;
}

static void
jobs_changed_cb (CmCardListPage *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (ADW_IS_ACTION_ROW (child))
      follow_job (self, ADW_ACTION_ROW (child));
}

/* The card's maker and model from its registers when the reader shows
 * them, then the drive's name: two cards of one reader differ here. */
static char *
dup_row_title (CmCardItem *card)
{
  CmCardInfo *info = cm_card_item_get_card_info (card);
  const char *maker = info != NULL ? cm_card_info_get_manufacturer (info) : NULL;
  const char *product = info != NULL ? cm_card_info_get_product_name (info) : NULL;

  if (maker == NULL && product == NULL)
    return g_strdup (cm_card_item_get_name (card));
  return g_strdup_printf ("%s%s%s · %s", maker != NULL ? maker : "",
                          maker != NULL && product != NULL ? " " : "",
                          product != NULL ? product : "", cm_card_item_get_name (card));
}

/* Selection mode. */

static gboolean
get_selection_mode (CmCardListPage *self)
{
  return gtk_toggle_button_get_active (self->select_button);
}

static void
update_action_bar (CmCardListPage *self)
{
  guint n = g_hash_table_size (self->selected);
  g_autofree char *selected = NULL;
  g_autofree char *test = NULL;
  g_autofree char *verify = NULL;
  g_autofree char *wear = NULL;

  if (n == 0)
    selected = g_strdup (_("Tick the cards to test"));
  else
    selected = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u card selected", "%u cards selected", n), n);
  /* Translators: the button that benchmarks every ticked card */
  test = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Test %u Card", "_Test %u Cards", n), n);
  gtk_label_set_label (self->selected_label, selected);
  gtk_button_set_label (self->test_button, n > 0 ? test : _("_Test Cards"));
  gtk_button_set_use_underline (self->test_button, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cards.test-selected", n > 0);
  /* Translators: the button that verifies every ticked card, after asking */
  verify = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Verify %u Card…", "_Verify %u Cards…", n), n);
  gtk_button_set_label (self->verify_button, n > 0 ? verify : _("_Verify Cards…"));
  gtk_button_set_use_underline (self->verify_button, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cards.verify-selected", n > 0);

  wear = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "_Wear Test %u Card…", "_Wear Test %u Cards…", n), n);
  gtk_button_set_label (self->wear_button, n > 0 ? wear : _("_Wear Test Cards…"));
  gtk_button_set_use_underline (self->wear_button, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "cards.wear-selected", n > 0);
}

static void
check_toggled_cb (GtkCheckButton *check,
                  CmCardListPage *self)
{
  CmCardItem *item = g_object_get_data (G_OBJECT (check), "cm-item");
  const char *device = cm_card_item_get_device (item);

  if (device == NULL)
    return;
  if (gtk_check_button_get_active (check))
    g_hash_table_add (self->selected, g_strdup (device));
  else
    g_hash_table_remove (self->selected, device);
  update_action_bar (self);
}

/* Each card row's check box shows in selection mode only, ticked as the
 * card is. */
static void
update_checks (CmCardListPage *self)
{
  gboolean selecting = get_selection_mode (self);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *check = g_object_get_data (G_OBJECT (child), "cm-check");
      CmCardItem *item = g_object_get_data (G_OBJECT (child), "cm-item");
      GtkWidget *next = g_object_get_data (G_OBJECT (child), "cm-next");

      if (check == NULL)
        continue;
      gtk_widget_set_visible (check, selecting);
      gtk_widget_set_visible (next, !selecting);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                   g_hash_table_contains (self->selected, cm_card_item_get_device (item)));
    }
}

/* The list's own margin below its last row, in the template. */
#define CONTENT_MARGIN_BOTTOM 18

/* When the action bar goes, the list gets the room it took: scrolled to
 * its end (where the last cards were ticked), the list would otherwise
 * slide down by the bar's height, two rows where its buttons wrap. That
 * room stays empty below the list, so every row stays where it was on
 * the screen; the bar takes it again when it comes back. */
static void
keep_list_in_place (CmCardListPage *self,
                    gboolean        selecting)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (self->content_box, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  int room = gtk_widget_get_margin_bottom (self->content_box) - CONTENT_MARGIN_BOTTOM;
  int bar = gtk_widget_get_height (GTK_WIDGET (self->action_bar));

  /* The room goes once it is out of sight: taking it while shown would
   * slide the list down just the same. */
  if (selecting && gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment) <=
                   gtk_adjustment_get_upper (adjustment) - room)
    gtk_widget_set_margin_bottom (self->content_box, CONTENT_MARGIN_BOTTOM);
  else if (!selecting && bar > room)
    gtk_widget_set_margin_bottom (self->content_box, CONTENT_MARGIN_BOTTOM + bar);
}

static void
select_toggled_cb (CmCardListPage *self)
{
  keep_list_in_place (self, get_selection_mode (self));
  if (!get_selection_mode (self))
    g_hash_table_remove_all (self->selected);
  gtk_action_bar_set_revealed (self->action_bar, get_selection_mode (self));
  update_checks (self);
  update_action_bar (self);
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  CmCardListPage *self = user_data;
  CmCardItem *card = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name ("media-flash-symbolic");
  GtkWidget *next = gtk_image_new_from_icon_name ("go-next-symbolic");
  GtkWidget *bar = gtk_progress_bar_new ();
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *outcome = gtk_label_new (NULL);

  g_autofree char *title = dup_row_title (card);

  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (check, get_selection_mode (self));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                               g_hash_table_contains (self->selected, cm_card_item_get_device (card) ?: ""));
  gtk_accessible_update_relation (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL, -1);
  g_object_set_data (G_OBJECT (check), "cm-item", card);
  g_signal_connect_object (check, "toggled", G_CALLBACK (check_toggled_cb), self, 0);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  g_object_set_data (G_OBJECT (row), "cm-check", check);
  gtk_widget_set_visible (next, !get_selection_mode (self));
  g_object_set_data (G_OBJECT (row), "cm-next", next);
  gtk_widget_set_valign (outcome, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (outcome, FALSE);
  g_object_set_data (G_OBJECT (row), "cm-outcome-label", outcome);
  g_object_set_data (G_OBJECT (row), "cm-page", self);

  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (bar, 64, -1);
  gtk_widget_set_visible (bar, FALSE);
  gtk_widget_set_name (bar, "job-progress");
  g_object_set_data (G_OBJECT (row), "cm-progress", bar);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), bar);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), outcome);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), next);
  g_object_set_data_full (G_OBJECT (row), "cm-item", g_object_ref (card), g_object_unref);
  g_signal_connect_object (card, "notify::mount-point", G_CALLBACK (update_row_cb), row, 0);
  follow_job (user_data, ADW_ACTION_ROW (row));
  find_last (self, ADW_ACTION_ROW (row), card);

  return row;
}

static void
update_stack (CmCardListPage *self)
{
  guint n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;

  gtk_stack_set_visible_child_name (self->devices_stack, n > 0 ? "list" : "empty");
}

static gboolean
device_listed (CmCardListPage *self,
               const char     *device)
{
  guint n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmCardItem) item = g_list_model_get_item (self->model, i);

      if (g_strcmp0 (cm_card_item_get_device (item), device) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A card taken out forgets its answer and its tick: the next card in
 * that reader gets the same device name but is another card. */
static gboolean
device_gone_cb (gpointer key,
                gpointer value,
                gpointer user_data)
{
  return !device_listed (user_data, key);
}

static void
items_changed_cb (CmCardListPage *self,
                  guint           position,
                  guint           removed,
                  guint           added,
                  GListModel     *model)
{
  self->moved_at = g_get_monotonic_time ();
  self->moved_from = position;
  if (removed > 0)
    {
      g_hash_table_foreach_remove (self->outcomes, device_gone_cb, self);
      if (g_hash_table_foreach_remove (self->selected, device_gone_cb, self) > 0)
        update_action_bar (self);
    }
  update_stack (self);
}

static void
device_row_activated_cb (CmCardListPage *self,
                         GtkListBoxRow  *row,
                         GtkListBox     *box)
{
  CmCardItem *item = g_object_get_data (G_OBJECT (row), "cm-item");

  /* The list never moves a card under the pointer: a click on a row that
   * has just moved is dropped rather than opening the wrong card. */
  if (cm_card_list_page_row_just_moved (self, gtk_list_box_row_get_index (row)))
    return;

  /* Selecting, a click or Enter ticks the card rather than opening it. */
  if (get_selection_mode (self))
    {
      GtkWidget *check = g_object_get_data (G_OBJECT (row), "cm-check");

      if (check != NULL)
        gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
      return;
    }

  if (item != NULL)
    g_signal_emit (self, signals[ITEM_ACTIVATED], 0, item);
}

static void
place_row_activated_cb (CmCardListPage *self,
                        GtkListBoxRow  *row,
                        GtkListBox     *box)
{
  if (row == GTK_LIST_BOX_ROW (self->home_row))
    g_signal_emit (self, signals[ITEM_ACTIVATED], 0, self->home_item);
  else if (row == GTK_LIST_BOX_ROW (self->folder_row))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.choose-folder", NULL);
}

/* The items of the ticked cards, in the list's order. */
static GPtrArray *
dup_selected_items (CmCardListPage *self)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmCardItem) item = g_list_model_get_item (self->model, i);

      if (g_hash_table_contains (self->selected, cm_card_item_get_device (item) ?: ""))
        g_ptr_array_add (items, g_steal_pointer (&item));
    }
  return items;
}

/* "Test N Cards": the window starts a benchmark on each; the rows show
 * them, so selection mode ends. */
static void
test_selected_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (widget);
  g_autoptr(GPtrArray) items = dup_selected_items (self);

  if (items->len == 0)
    return;
  g_signal_emit (self, signals[TEST_ITEMS], 0, items);
  cm_card_list_page_show_running (self, items);
}

/* "Verify N Cards…" and "Wear Test N Cards…": the window asks once,
 * naming every card. */
static void
ask_for_selected_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (widget);
  g_autoptr(GPtrArray) items = dup_selected_items (self);

  if (items->len == 0)
    return;
  g_signal_emit (self, signals[g_str_equal (action_name, "cards.wear-selected") ? WEAR_ITEMS : VERIFY_ITEMS], 0, items);
}

static void
cm_card_list_page_dispose (GObject *object)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (object);

  g_clear_handle_id (&self->outside_poll, g_source_remove);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_clear_object (&self->model);
  if (self->jobs != NULL)
    g_signal_handlers_disconnect_by_func (self->jobs, jobs_changed_cb, self);
  g_clear_object (&self->jobs);
  g_clear_object (&self->home_item);

  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_CARD_LIST_PAGE);
  /* After the rows, which read them. */
  g_clear_pointer (&self->selected, g_hash_table_unref);
  g_clear_pointer (&self->outcomes, g_hash_table_unref);

  G_OBJECT_CLASS (cm_card_list_page_parent_class)->dispose (object);
}

static void
cm_card_list_page_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_card_list_page_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  CmCardListPage *self = CM_CARD_LIST_PAGE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      cm_card_list_page_set_model (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_card_list_page_class_init (CmCardListPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_card_list_page_dispose;
  object_class->get_property = cm_card_list_page_get_property;
  object_class->set_property = cm_card_list_page_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmCardListPage::item-activated:
   * @item: the #CmCardItem the user picked
   */
  signals[ITEM_ACTIVATED] =
    g_signal_new ("item-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, CM_TYPE_CARD_ITEM);

  /**
   * CmCardListPage::test-items:
   * @items: (element-type CmCardItem): the ticked cards
   *
   * "Test N Cards": a benchmark on each of @items, all at once.
   */
  signals[TEST_ITEMS] =
    g_signal_new ("test-items",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  /**
   * CmCardListPage::verify-items:
   * @items: (element-type CmCardItem): the ticked cards
   *
   * "Verify N Cards…": a full verify on each of @items, once the user
   * agrees.
   */
  signals[VERIFY_ITEMS] =
    g_signal_new ("verify-items",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  /**
   * CmCardListPage::wear-items:
   * @items: (element-type CmCardItem): the ticked cards
   *
   * "Wear Test N Cards…": a wear test on each of @items, once the user
   * agrees.
   */
  signals[WEAR_ITEMS] =
    g_signal_new ("wear-items",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  gtk_widget_class_install_action (widget_class, "cards.test-selected", NULL, test_selected_action);
  gtk_widget_class_install_action (widget_class, "cards.verify-selected", NULL, ask_for_selected_action);
  gtk_widget_class_install_action (widget_class, "cards.wear-selected", NULL, ask_for_selected_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-card-list-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, devices_stack);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, content_box);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, devices_list);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, home_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, folder_row);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, select_button);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, action_bar);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, selected_label);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, button_box);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, test_button);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, verify_button);
  gtk_widget_class_bind_template_child (widget_class, CmCardListPage, wear_button);
  gtk_widget_class_bind_template_callback (widget_class, select_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, device_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, place_row_activated_cb);
}

static void
cm_card_list_page_init (CmCardListPage *self)
{
  g_autofree char *subtitle = NULL;

  self->selected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->outcomes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) outcome_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  cm_accessible_flow_buttons (self->button_box);
  update_action_bar (self);

  self->home_item = cm_card_item_new_home ();
  subtitle = cm_card_item_dup_subtitle (self->home_item);
  adw_action_row_set_subtitle (self->home_row, subtitle);
  update_stack (self);
  self->outside_poll = g_timeout_add_seconds (1, outside_poll_cb, self);
}

GListModel *
cm_card_list_page_get_model (CmCardListPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), NULL);
  return self->model;
}

void
cm_card_list_page_set_model (CmCardListPage *self,
                             GListModel     *model)
{
  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, items_changed_cb, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect_object (model, "items-changed", G_CALLBACK (items_changed_cb), self,
                             G_CONNECT_SWAPPED);

  gtk_list_box_bind_model (self->devices_list, model, create_row_cb, self, NULL);
  update_stack (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/* The number of card rows shown, for tests. */
guint
cm_card_list_page_get_n_rows (CmCardListPage *self)
{
  guint n = 0;

  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), 0);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;

  return n;
}

/* Whether the row at @index moved in the last half second, as a card
 * above it went away or came. */
gboolean
cm_card_list_page_row_just_moved (CmCardListPage *self,
                                  int             index)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), FALSE);

  return self->moved_at != 0 && index >= (int) self->moved_from &&
         g_get_monotonic_time () - self->moved_at < MOVED_GRACE_US;
}

/* Activates the card row at @index, as a click does. */
void
cm_card_list_page_activate_row (CmCardListPage *self,
                                guint           index)
{
  GtkListBoxRow *row;

  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));

  row = gtk_list_box_get_row_at_index (self->devices_list, index);
  g_return_if_fail (row != NULL);
  g_signal_emit_by_name (self->devices_list, "row-activated", row);
}

/* The application's jobs: each card's row shows the one on its card. */
void
cm_card_list_page_set_jobs (CmCardListPage *self,
                            GListModel     *jobs)
{
  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));
  g_return_if_fail (jobs == NULL || G_IS_LIST_MODEL (jobs));

  if (self->jobs != NULL)
    g_signal_handlers_disconnect_by_func (self->jobs, jobs_changed_cb, self);
  g_set_object (&self->jobs, jobs);
  if (jobs != NULL)
    g_signal_connect_object (jobs, "items-changed", G_CALLBACK (jobs_changed_cb), self, G_CONNECT_SWAPPED);
  jobs_changed_cb (self);
}

/* The row of the card at @device, for tests, or NULL. */
AdwActionRow *
cm_card_list_page_get_row_for_device (CmCardListPage *self,
                                      const char     *device)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->devices_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      CmCardItem *item = g_object_get_data (G_OBJECT (child), "cm-item");

      if (item != NULL && g_strcmp0 (cm_card_item_get_device (item), device) == 0)
        return ADW_ACTION_ROW (child);
    }
  return NULL;
}

/* After "Test N Cards", "Verify N Cards…" or "Wear Test N Cards…":
 * selection mode ends, so each row shows its job, and the first row of
 * @items that runs one takes the focus, which scrolls it into view
 * however long the list. */
void
cm_card_list_page_show_running (CmCardListPage *self,
                                GPtrArray      *items)
{
  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));
  g_return_if_fail (items != NULL);

  gtk_toggle_button_set_active (self->select_button, FALSE);
  jobs_changed_cb (self);
  for (guint i = 0; i < items->len; i++)
    {
      const char *device = cm_card_item_get_device (g_ptr_array_index (items, i));
      AdwActionRow *row = device != NULL ? cm_card_list_page_get_row_for_device (self, device) : NULL;

      if (row != NULL && g_object_get_data (G_OBJECT (row), "cm-job") != NULL)
        {
          gtk_widget_grab_focus (GTK_WIDGET (row));
          return;
        }
    }
}

/* Selection mode on or off, as the Select button does. */
void
cm_card_list_page_set_selection_mode (CmCardListPage *self,
                                      gboolean        selecting)
{
  g_return_if_fail (CM_IS_CARD_LIST_PAGE (self));
  gtk_toggle_button_set_active (self->select_button, selecting);
}

gboolean
cm_card_list_page_get_selection_mode (CmCardListPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), FALSE);
  return get_selection_mode (self);
}

/* How many cards are ticked. */
guint
cm_card_list_page_get_n_selected (CmCardListPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), 0);
  return g_hash_table_size (self->selected);
}

/* The action bar's button, for tests: its label says how many. */
GtkWidget *
cm_card_list_page_get_test_button (CmCardListPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), NULL);
  return GTK_WIDGET (self->test_button);
}

/* The action bar's "Wear Test N Cards…", for tests. */
GtkWidget *
cm_card_list_page_get_wear_button (CmCardListPage *self)
{
  g_return_val_if_fail (CM_IS_CARD_LIST_PAGE (self), NULL);
  return GTK_WIDGET (self->wear_button);
}
