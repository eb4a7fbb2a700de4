/* test-app-simcard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app against the real UDisks with a simulated card attached as a loop
 * device (tests/simcard): the card shows up in the list, a raw test on it
 * reaches the result page with the verdicts the core computes for that
 * result, a write-protected card says so for the write tests while its
 * reads report figures, and a card that fails or goes away ends the run on
 * an error page. The capacity check on the card page tells a fake card
 * from a genuine one. Also measures the worst main-loop stall during a run.
 *
 * Needs root (tests/env/services-up, tests/simcard/simcard-up); skips
 * otherwise. Runs under Xvfb.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cm-application.h"
#include "cm-job-list.h"
#include "cm-backend.h"
#include "cm-card-item.h"
#include "cm-card-list-page.h"
#include "cm-card-lock.h"
#include "cm-card-page.h"
#include "cm-health-row.h"
#include "cm-chart-view.h"
#include "cm-history.h"
#include "cm-history-page.h"
#include "cm-maker-form.h"
#include "cm-result-page.h"
#include "cm-run-page.h"
#include "cm-summary.h"
#include "cm-test-app.h"
#include "cm-test-simcard.h"
#include "cm-verdict.h"
#include "cm-endurance.h"
#include "cm-format.h"
#include "cm-format-row.h"
#include "cm-outcome.h"
#include "cm-verify-row.h"
#include "cm-wear-row.h"
#include "cm-window.h"

static char *services_skip_reason;

/* The main-loop stall meter: a 10 ms timer that remembers the longest
 * gap between two of its ticks. */
typedef struct
{
  CmWindow *window;
  gint64    last;
  gint64    worst;
  guint     ticks;
} Stall;

static gboolean
stall_tick_cb (gpointer data)
{
  Stall *stall = data;
  gint64 now = g_get_monotonic_time ();

  /* Where the long ones happen says what to look at. */
  if (stall->last != 0 && now - stall->last > 30000)
    g_test_message ("stall of %.1f ms, now on page %s", (now - stall->last) / 1000.0,
                    cm_window_get_page_name (stall->window));
  if (stall->last != 0)
    stall->worst = MAX (stall->worst, now - stall->last);
  stall->last = now;
  stall->ticks++;
  return G_SOURCE_CONTINUE;
}

typedef struct
{
  CmApplication *app;
  CmWindow      *window;
  GHashTable    *card;        /* SIMCARD_* lines of simcard-up */
  GPid           guard_pid;
  int            guard_fd;
  char          *folder;
} Fixture;

static const char *
card_get (Fixture    *f,
          const char *key)
{
  const char *value = g_hash_table_lookup (f->card, key);

  g_assert_nonnull (value);
  return value;
}

static gboolean
card_listed (gpointer data)
{
  Fixture *f = data;
  CmCardListPage *list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  GListModel *model = cm_card_list_page_get_model (list);
  guint n = model != NULL ? g_list_model_get_n_items (model) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmCardItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (cm_card_item_get_device (item), card_get (f, "SIMCARD_DEV")) == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean
on_result_page (gpointer data)
{
  Fixture *f = data;
  return g_strcmp0 (cm_window_get_page_name (f->window), "result") == 0;
}

static gboolean
run_ended (gpointer data)
{
  Fixture *f = data;
  return !cm_window_get_running (f->window);
}

static gboolean
app_idle (gpointer data)
{
  return g_list_model_get_n_items (cm_application_get_jobs (data)) == 0;
}

static gboolean
has_samples (gpointer data)
{
  Fixture *f = data;
  GtkWidget *page = cm_window_get_page (f->window, "run");

  return page != NULL && cm_chart_view_get_n_points (cm_run_page_get_chart (CM_RUN_PAGE (page))) >= 2;
}

/* The simulated card. */

/* Returns FALSE, after g_test_skip(), in a build that does not read the
 * CARDMARK_* hook a test steers cardmark-cli with. */
static gboolean
have_test_hooks (const char *hook)
{
#if CM_TEST_HOOKS
  (void) hook;
  return TRUE;
#else
  g_autofree char *reason = g_strdup_printf ("built without -Dtest_hooks=true, so %s is not read", hook);

  g_test_skip (reason);
  return FALSE;
#endif
}

/* Returns FALSE, after g_test_skip(), when this machine cannot host a card. */
static gboolean
card_up (Fixture            *f,
         const char * const *args)
{
  if (services_skip_reason != NULL)
    {
      g_test_skip (services_skip_reason);
      return FALSE;
    }
  if (!cm_test_simcard_up (args, f->card, &f->guard_pid, &f->guard_fd))
    return FALSE;
  g_test_message ("simulated card %s (%s) at %s", card_get (f, "SIMCARD_DEV"), args[0], card_get (f, "SIMCARD_DIR"));
  return TRUE;
}

static void
card_down (Fixture *f)
{
  if (f->guard_pid != 0)
    cm_test_simcard_down (card_get (f, "SIMCARD_DIR"), &f->guard_pid, f->guard_fd);
}

/* Fixture. */

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GError) error = NULL;

  /* Simulated cards are loop devices, which the list hides by default. */
  g_settings_set_boolean (settings, "show-loop-devices", TRUE);
  g_settings_set_enum (settings, "last-method", CM_METHOD_RAW_READ);

  f->card = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  f->app = cm_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (f->app), NULL, &error));
  g_assert_no_error (error);
}

static void
open_window (Fixture *f)
{
  f->window = cm_window_new (GTK_APPLICATION (f->app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 600);
  gtk_window_present (GTK_WINDOW (f->window));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  if (f->window != NULL)
    {
      cm_window_cancel_test (f->window);
      cm_application_cancel_jobs (f->app);
      cm_test_wait_for (app_idle, f->app, 20);
      cm_test_destroy_window (GTK_WINDOW (f->window));
    }
  card_down (f);
  if (f->folder != NULL)
    g_assert_cmpint (g_rmdir (f->folder), ==, 0);
  g_free (f->folder);
  g_hash_table_unref (f->card);
  g_clear_object (&f->app);
  cm_test_data_home_empty ();
}

/* The widgets of the result page. */

static const char *
status_class (GtkWidget *widget)
{
  g_auto(GStrv) classes = gtk_widget_get_css_classes (widget);
  static char found[64];

  for (guint i = 0; classes[i] != NULL; i++)
    if (g_str_has_prefix (classes[i], "status-"))
      {
        g_strlcpy (found, classes[i] + strlen ("status-"), sizeof found);
        return found;
      }

  return NULL;
}

/* The status shown in @row itself, not in the rows an expander row
 * reveals (which libadwaita keeps in a GtkRevealer). */
static const char *
row_status (GtkWidget *widget,
            GtkWidget *row)
{
  if (widget != row && GTK_IS_REVEALER (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && status_class (widget) != NULL)
    return status_class (widget);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      const char *s = row_status (c, row);

      if (s != NULL)
        return s;
    }

  return NULL;
}

static void
collect_rows (GtkWidget  *widget,
              GType       type,
              GHashTable *rows)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    {
      const char *title = adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget));
      const char *status = row_status (widget, widget);

      g_hash_table_insert (rows, g_strdup (title), g_strdup (status));
    }

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_rows (c, type, rows);
}

static gboolean
shows_text (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_label (GTK_LABEL (widget)), text) != NULL)
    return TRUE;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (shows_text (c, text))
      return TRUE;

  return FALSE;
}

/* What the page shows for each claim and criterion is what
 * cm_verdict_judge() says of a copy of the same result. */
static void
assert_page_matches_verdicts (GtkWidget          *page,
                              CmResult           *result,
                              const char * const *claims)
{
  g_autoptr(JsonNode) node = cm_result_to_json (result);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) copy = cm_result_new_from_json (node, &error);
  g_autoptr(GHashTable) claim_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) criterion_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GPtrArray *judged;

  g_assert_no_error (error);
  cm_result_clear_claims (copy);
  cm_verdict_judge (copy, claims, "label");
  judged = cm_result_get_claims (copy);
  g_assert_cmpuint (judged->len, ==, g_strv_length ((char **) claims));

  collect_rows (page, ADW_TYPE_EXPANDER_ROW, claim_rows);
  collect_rows (page, ADW_TYPE_ACTION_ROW, criterion_rows);
  g_assert_cmpuint (g_hash_table_size (claim_rows), ==, judged->len);

  for (guint i = 0; i < judged->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (judged, i);
      const char *shown = g_hash_table_lookup (claim_rows, claim->klass);

      g_test_message ("%s: core says %s, page shows %s", claim->klass,
                      cm_status_to_string (claim->status), shown);
      g_assert_cmpstr (shown, ==, cm_status_to_string (claim->status));

      for (guint j = 0; claim->criteria != NULL && j < claim->criteria->len; j++)
        {
          const CmCriterion *c = g_ptr_array_index (claim->criteria, j);

          /* Criteria shared by several claims (C10 and U1 both ask for
           * sequential writes) have one status, so one lookup is enough. */
          const char *title = cm_summary_criterion_label (c->name);

          /* Rows are titled in the words people read, never c->name. */
          g_assert_false (g_hash_table_contains (criterion_rows, c->name));
          g_assert_true (g_hash_table_contains (criterion_rows, title));
          g_assert_cmpstr (g_hash_table_lookup (criterion_rows, title), ==, cm_status_to_string (c->status));
        }
    }
}

/* Driving the app. */

static void
open_card (Fixture  *f,
           CmMethod  method)
{
  const char *claims[] = { "C10", "U1", "A1", NULL };
  CmCardPage *page;

  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");

  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_true (cm_card_page_set_method (page, method));
  cm_card_page_set_claims (page, claims);
}

static gboolean
accept_write_dialog (void)
{
  GtkWidget *dialog = cm_test_visible_dialog ();

  /* As a click on "Write to Card" does; the dialog closes itself. */
  if (dialog != NULL)
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "write");
  return dialog != NULL;
}

static void
start (Fixture    *f,
       const char *plan)
{
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));

  cm_bench_set_test_plan (plan);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);

  if (cm_card_page_get_method (page) == CM_METHOD_RAW_WRITE)
    {
      /* A raw write asks first, and nothing starts until the user agrees. */
      cm_test_settle (0.2);
      g_assert_false (cm_window_get_running (f->window));
      g_assert_true (accept_write_dialog ());
    }

  g_assert_true (cm_window_get_running (f->window));
}

static void
run_to_result (Fixture  *f,
               CmMethod  method,
               Stall    *stall)
{
  const char *claims[] = { "C10", "U1", "A1", NULL };
  GtkWidget *page;
  CmResult *result;
  GPtrArray *tests;
  guint stall_id;

  open_card (f, method);
  stall->window = f->window;
  stall_id = g_timeout_add (10, stall_tick_cb, stall);
  start (f, "tiny");
  g_assert_true (cm_test_wait_for (on_result_page, f, 120));
  g_source_remove (stall_id);

  page = cm_window_get_page (f->window, "result");
  result = cm_result_page_get_result (CM_RESULT_PAGE (page));
  g_assert_true (result == cm_window_get_last_result (f->window));
  g_assert_cmpstr (cm_result_get_device (result), ==, card_get (f, "SIMCARD_DEV"));
  g_assert_cmpstr (cm_result_get_target_mode (result), ==, method == CM_METHOD_RAW_WRITE ? "raw-write" : "raw-read");

  tests = cm_result_get_tests (result);
  g_assert_cmpuint (tests->len, >, 0);
  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);

      g_test_message ("%s: %.2f MB/s, %.0f IOPS", t->name, t->mb_per_s, t->iops);
      g_assert_null (t->error);
      g_assert_cmpfloat (t->mb_per_s, >, 0);
      /* Raw reads never write. */
      if (method == CM_METHOD_RAW_READ)
        g_assert_false (g_str_has_prefix (t->name, "seq-write") || g_str_has_prefix (t->name, "rand-write"));
    }
  g_assert_true ((method == CM_METHOD_RAW_WRITE) == (cm_result_lookup_test (result, "seq-write") != NULL));

  assert_page_matches_verdicts (page, result, claims);
}

static gboolean
capacity_checked (gpointer data)
{
  Fixture *f = data;
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));

  return !cm_card_page_get_checking_capacity (page);
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_label (GTK_LABEL (widget)), text) != NULL)
    return widget;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The first button in sight under @widget with @label. */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (!gtk_widget_get_visible (widget))
    return NULL;
  if ((GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0) ||
      (GTK_IS_MENU_BUTTON (widget) && g_strcmp0 (gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)), label) == 0))
    return widget;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_of_type (GtkWidget *widget,
              GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_of_type (c, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static const char *
window_subtitle (Fixture *f)
{
  GtkWidget *title = find_of_type (GTK_WIDGET (f->window), ADW_TYPE_WINDOW_TITLE);

  g_assert_nonnull (title);
  return adw_window_title_get_subtitle (ADW_WINDOW_TITLE (title));
}

/* A check that just ended, with its card's page in sight, ends on its
 * kind's page, the same as from History: the window subtitled by the
 * kind, its answer in the banner, coloured by it, its chart first with
 * data, and Export and Copy Summary. Returns the page. */
static CmResultPage *
assert_on_kind_page (Fixture     *f,
                     const char  *kind,
                     CmChartKind  chart_kind)
{
  CmResultPage *page;
  CmResult *result;
  g_autoptr(GPtrArray) charts = NULL;
  g_autofree char *answer = NULL;
  GtkWidget *label;
  CmStatus status;
  CmChartKind first;

  g_assert_true (cm_test_wait_for (on_result_page, f, 10));
  page = CM_RESULT_PAGE (cm_window_get_page (f->window, "result"));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  result = cm_result_page_get_result (page);
  g_assert_cmpstr (cm_result_get_kind (result), ==, kind);
  g_assert_cmpstr (window_subtitle (f), ==, cm_job_kind_get_title (kind));

  answer = cm_summary_dup_answer (result, &status);
  g_test_message ("page: %s", answer);
  g_assert_cmpint (status, ==, cm_result_page_get_status (page));
  g_assert_cmpint (status, !=, CM_STATUS_NOT_JUDGED);
  label = find_label (GTK_WIDGET (page), answer);
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (gtk_widget_get_parent (label), cm_status_to_string (status)));

  charts = cm_result_page_dup_charts (page);
  g_assert_cmpuint (charts->len, >=, 1);
  g_assert_true (cm_chart_view_get_chart_kind (g_ptr_array_index (charts, 0), &first));
  g_assert_cmpint (first, ==, chart_kind);
  g_assert_true (cm_chart_view_has_data (g_ptr_array_index (charts, 0)));
  g_assert_true (cm_test_wait_drawn (g_ptr_array_index (charts, 0), 10));

  g_assert_nonnull (find_button (GTK_WIDGET (page), "_Export"));
  g_assert_true (gtk_widget_is_sensitive (find_button (GTK_WIDGET (page), "_Copy Summary")));
  g_assert_null (cm_test_visible_dialog ());
  return page;
}

/* Opens the card's page and starts the capacity check as a user would:
 * it asks first, and "Check Card" starts it. */
static CmCardPage *
start_capacity_check (Fixture *f)
{
  CmCardPage *page;
  GtkWidget *dialog;

  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  /* A brand picked first is kept with the check's document. */
  g_assert_true (cm_card_page_set_brand (page, "Kingston"));

  cm_card_page_check_capacity (page);
  cm_test_settle (0.2);
  g_assert_false (cm_card_page_get_checking_capacity (page));
  dialog = cm_test_visible_dialog ();
  g_assert_nonnull (dialog);
  /* As a click on "Check Card" does: the response, then the dialog closes. */
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "check");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_card_page_get_checking_capacity (page));
  return page;
}

/* Runs the capacity check from the card page as a user would, staying
 * on the page: it ends on the capacity check's page, returned here. */
static CmResultPage *
check_capacity (Fixture *f)
{
  CmCardPage *page = start_capacity_check (f);
  CmResultPage *result_page;
  gint64 started;

  /* Nothing else may work on the card meanwhile. */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  cm_window_start_test (f->window);
  g_assert_cmpuint (g_list_model_get_n_items (cm_application_get_jobs (f->app)), ==, 1);
  /* Cancel, and the window's :running, are the check's. */
  g_assert_true (cm_window_get_running (f->window));

  started = g_get_monotonic_time ();
  g_assert_true (cm_test_wait_for (capacity_checked, f, 120));
  g_test_message ("capacity check took %.2f s", (g_get_monotonic_time () - started) / 1e6);
  g_assert_nonnull (cm_card_page_get_capacity_outcome (page, NULL));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  result_page = assert_on_kind_page (f, "capacity", CM_CHART_CAPACITY_MAP);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "capacity-fresh");
  /* Back on the card's page, the row says the answer and Show opens it again. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  return result_page;
}

/* Tests. */

static gboolean
history_loaded (gpointer page)
{
  return !cm_history_page_get_loading (page);
}

static gboolean
on_saved_page (gpointer window)
{
  return g_strcmp0 (cm_window_get_page_name (window), "saved") == 0;
}

/* Opens the newest document in History, as a user would after a check:
 * its row is titled by the card, @brand first, and says the kind; its
 * page is the kind's own: its answer in the banner, coloured by it, and
 * its chart, with data. Saves screenshots as @name. */
static void
open_newest_in_history (Fixture     *f,
                        const char  *kind,
                        const char  *brand,
                        CmChartKind  chart_kind,
                        const char  *name)
{
  CmHistoryPage *history;
  CmResultPage *page;
  CmResult *result;
  GtkWidget *row;
  g_autoptr(GPtrArray) charts = NULL;
  g_autofree char *answer = NULL;
  CmStatus status;
  CmChartKind first;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  history = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_for (history_loaded, history, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (history), >=, 1);
  row = cm_history_page_get_row (history, 0);
  /* The row's title, then the rest of what it says: the labels after
   * its tick box, in order (a row of History's list view). */
  {
    g_autoptr(GString) shown = g_string_new (NULL);
    g_auto(GStrv) lines = NULL;

    for (GtkWidget *w = gtk_widget_get_next_sibling (gtk_widget_get_first_child (row)); w != NULL;
         w = gtk_widget_get_next_sibling (w))
      if (!GTK_IS_BUTTON (w))
        cm_test_collect_labels (w, shown, TRUE);
    lines = g_strsplit (shown->str, "\n", 2);
    g_test_message ("row: %s — %s", lines[0], lines[1] != NULL ? lines[1] : "");
    g_assert_true (g_str_has_prefix (lines[0], brand));
    g_assert_nonnull (lines[1]);
    g_assert_nonnull (strstr (lines[1], cm_job_kind_get_title (kind)));
  }
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-after-check");

  cm_history_page_open (history, 0);
  g_assert_true (cm_test_wait_for (on_saved_page, f->window, 10));
  page = CM_RESULT_PAGE (cm_window_get_page (f->window, "saved"));
  result = cm_result_page_get_result (page);
  g_assert_cmpstr (cm_result_get_kind (result), ==, kind);
  g_assert_nonnull (cm_result_get_card (result));
  g_assert_cmpstr (cm_card_info_get_brand (cm_result_get_card (result)), ==, brand);
  answer = cm_summary_dup_answer (result, &status);
  g_test_message ("answer: %s", answer);
  g_assert_cmpint (status, ==, cm_result_page_get_status (page));
  g_assert_cmpint (status, !=, CM_STATUS_NOT_JUDGED);
  charts = cm_result_page_dup_charts (page);
  g_assert_true (cm_chart_view_get_chart_kind (g_ptr_array_index (charts, 0), &first));
  g_assert_cmpint (first, ==, chart_kind);
  g_assert_true (cm_chart_view_has_data (g_ptr_array_index (charts, 0)));
  g_assert_true (cm_test_wait_drawn (g_ptr_array_index (charts, 0), 10));
  cm_test_save_screenshots (GTK_WIDGET (f->window), name);
}

static void
test_capacity_fake (Fixture       *f,
                    gconstpointer  data)
{
  const char *args[] = { "fake-8x", "--size", "512MiB",
                         /* A fast card: the check reads and rewrites 256 MiB. */
                         "--", "--set", "read.bandwidth-mb-s=400", "--set", "write.bandwidth-mb-s=400", NULL };
  g_autofree char *real = NULL;
  g_autofree char *description = NULL;
  const CmCapacityReport *report;
  CmChartView *map;
  CmCardPage *page;
  CmResultPage *result_page;
  const char *outcome;
  gboolean fake = FALSE;

  if (!card_up (f, args))
    return;

  result_page = check_capacity (f);
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  outcome = cm_card_page_get_capacity_outcome (page, &fake);
  g_test_message ("shown: %s", outcome);
  real = g_format_size (g_ascii_strtoull (card_get (f, "SIMCARD_REAL_SIZE"), NULL, 10));

  g_assert_true (fake);
  g_assert_true (g_str_has_prefix (outcome, "Fake capacity"));
  g_assert_nonnull (strstr (outcome, real));
  g_assert_cmpint (cm_result_page_get_status (result_page), ==, CM_STATUS_BELOW);

  /* Back on the card's page, it still says so: the check's row. */
  g_assert_true (g_str_has_prefix (cm_card_page_get_capacity_subtitle (page), "Fake capacity · holds "));

  /* The map stays on the page, its verified cells ending at the real size. */
  map = cm_card_page_get_capacity_map (page);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (map)));
  g_assert_true (cm_chart_view_has_data (map));
  report = cm_chart_view_get_capacity (map);
  g_assert_true (report->fake);
  g_assert_cmpuint (report->cells->len, ==, report->n_positions);
  g_assert_cmpuint (report->real_bytes, ==, g_ascii_strtoull (card_get (f, "SIMCARD_REAL_SIZE"), NULL, 10));
  description = cm_chart_view_dup_description (map);
  g_assert_nonnull (strstr (description, "no storage"));

  open_newest_in_history (f, "capacity", "Kingston", CM_CHART_CAPACITY_MAP, "capacity-fake-saved");
}

static gboolean
verify_writing (gpointer data)
{
  AdwActionRow *row = data;

  return g_str_has_prefix (adw_action_row_get_subtitle (row), "Writing,");
}

static gboolean
job_progressed (gpointer job)
{
  return cm_job_get_progress (job) > 0;
}

static gboolean
verify_idle (gpointer data)
{
  return !cm_kind_row_get_busy (CM_KIND_ROW (data));
}

/* A stopped verify: the row says where it stopped, as far as the run's
 * last progress said (the state is saved a moment after it); returns
 * the percentage. */
static int
assert_says_where_stopped (CmVerifyRow *row,
                           CmJob       *job)
{
  double stopped = cm_verify_row_get_stopped (row);
  g_autofree char *said = NULL;

  g_test_message ("stopped at %.3f, last progress %.3f: %s", stopped, cm_job_get_progress (job),
                  adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_cmpfloat (stopped, >, 0);
  g_assert_cmpfloat (stopped, <, 1);
  /* As far as the last progress said, or a little further. */
  g_assert_cmpfloat (stopped, >=, cm_job_get_progress (job) - 0.005);
  said = g_strdup_printf ("Stopped at %d %%", (int) (stopped * 100));
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), said));
  return (int) (stopped * 100);
}

/* Carrying on asks to carry on from where it stopped, not to destroy
 * everything again: it says what is left (writing the rest, or only
 * reading it back), in red, and offers to start over. */
static void
assert_asks_to_carry_on (AdwMessageDialog *dialog,
                         int               percent)
{
  g_autofree char *from = g_strdup_printf ("stopped at %d %%", percent);
  const char *body = adw_message_dialog_get_body (dialog);

  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Carry On Verifying?");
  g_test_message ("carry on? %s", body);
  g_assert_nonnull (strstr (body, from));
  g_assert_nonnull (strstr (body, "What is left is"));
  if (strstr (body, "reading it back") != NULL)
    g_assert_nonnull (strstr (body, "read back the rest"));
  else
    g_assert_nonnull (strstr (body, "write the rest"));
  g_assert_null (strstr (body, "destroyed"));
  g_assert_true (adw_message_dialog_has_response (dialog, "start-over"));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "start-over"), ==, ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "verify"), ==, ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, "verify"), ==, "_Carry On");
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "cancel");
}

/* "Verify Every Byte…" as a user would: the red confirmation for a whole
 * card, then a stop half-way — the row says where, and the second start
 * asks to carry on from there, not to erase the card — then it carries
 * on; the findings come up on the verify's page. */
static void
test_verify_fake (Fixture       *f,
                  gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "64MiB", "--", "--fake-factor", "2",
                         "--set", "write.bandwidth-mb-s=80", "--set", "read.bandwidth-mb-s=160", NULL };
  guint64 size, real;
  CmCardPage *page;
  CmVerifyRow *row;
  g_autoptr(CmJob) job = NULL;
  CmResult *result;
  CmResultPage *result_page;
  const CmVerifySummary *summary;
  GtkWidget *dialog;
  int stopped_at = -1;
  g_autofree char *answer = NULL;
  CmStatus status;

  if (!card_up (f, args))
    return;
  size = g_ascii_strtoull (card_get (f, "SIMCARD_SIZE"), NULL, 10);
  real = g_ascii_strtoull (card_get (f, "SIMCARD_REAL_SIZE"), NULL, 10);

  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  row = CM_VERIFY_ROW (cm_card_page_get_verify_row (page));
  /* A brand picked first is kept with the verify's document. */
  g_assert_true (cm_card_page_set_brand (page, "SanDisk"));

  for (guint round = 0; round < 2; round++)
    {
      cm_kind_row_activate (CM_KIND_ROW (row));
      cm_test_settle (0.2);
      g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));
      dialog = cm_test_visible_dialog ();
      g_assert_nonnull (dialog);
      g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "verify"), ==,
                       ADW_RESPONSE_DESTRUCTIVE);
      g_test_message ("asked: %s", adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)));
      if (round == 1)
        {
          assert_asks_to_carry_on (ADW_MESSAGE_DIALOG (dialog), stopped_at);
          cm_test_save_screenshot (dialog, "verify-carry-on", 360, 200, FALSE);
          cm_test_save_screenshot (dialog, "verify-carry-on", 360, 200, TRUE);
        }
      else
        g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "destroyed"));
      adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "verify");
      gtk_window_close (GTK_WINDOW (dialog));
      g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
      g_assert_true (cm_card_page_get_job (page) == cm_kind_row_get_job (CM_KIND_ROW (row)));
      g_set_object (&job, cm_kind_row_get_job (CM_KIND_ROW (row)));
      g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
      if (round == 0)
        {
          /* Stop it once it has written some: what it did is kept. */
          g_assert_true (cm_test_wait_for (verify_writing, row, 30));
          g_assert_true (cm_test_wait_for (job_progressed, job, 30));
          cm_kind_row_activate (CM_KIND_ROW (row));
          g_assert_true (cm_test_wait_for (verify_idle, row, 10));
          g_assert_null (cm_kind_row_get_result (CM_KIND_ROW (row)));
          stopped_at = assert_says_where_stopped (row, job);
          /* In view, as a user returning to the card would look for it. */
          gtk_widget_grab_focus (GTK_WIDGET (row));
          cm_test_save_screenshots (GTK_WIDGET (f->window), "verify-stopped");
        }
    }
  g_assert_true (cm_test_wait_for (verify_idle, row, 120));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));

  result = cm_kind_row_get_result (CM_KIND_ROW (row));
  if (result == NULL && cm_job_get_error (job) != NULL)
    g_test_message ("the verify failed: %s", cm_job_get_error (job)->message);
  g_assert_nonnull (result);
  summary = cm_result_get_verify (result);
  g_test_message ("shown: %s", cm_result_get_summary (result));
  /* Carried on, not started again: the whole card was written once. */
  g_assert_cmpuint (summary->written_bytes, ==, size);
  g_assert_cmpfloat (fabs ((double) summary->usable_bytes / real - 1), <, 0.01);
  g_assert_true (g_str_has_prefix (cm_result_get_summary (result), "Fake capacity"));

  /* The verify's own page, the one History opens. */
  result_page = assert_on_kind_page (f, "verify", CM_CHART_VERIFY);
  g_assert_true (cm_result_page_get_result (result_page) == result);
  g_assert_cmpint (cm_result_page_get_status (result_page), ==, CM_STATUS_BELOW);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "verify-fake-fresh");
  /* Back on the card's page, the row says the answer (no stopped verify
   * is left to carry on) and Show opens the page again. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  g_assert_cmpfloat (cm_verify_row_get_stopped (row), <, 0);
  answer = cm_summary_dup_answer (result, &status);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, answer);
  gtk_widget_activate (find_button (GTK_WIDGET (row), "_Show"));
  g_assert_true (cm_test_wait_for (on_result_page, f, 10));

  open_newest_in_history (f, "verify", "SanDisk", CM_CHART_VERIFY, "verify-fake-saved");
}

static guint count_active_jobs (CmApplication *app);

/* The card's health read asked in this session has its answer. */
static gboolean
health_answered (gpointer data)
{
  CmHealthRow *row = CM_HEALTH_ROW (cm_card_page_get_health_row (data));
  const char *said = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));

  return cm_kind_row_get_job (CM_KIND_ROW (row)) == NULL && !g_str_has_prefix (said, "On ") &&
         g_strcmp0 (said, "Not asked yet") != 0 && g_strcmp0 (said, "Asking the card how worn it is") != 0;
}

/* The newest result in History, of @kind, opened on its saved page. */
static void
open_newest_saved (Fixture    *f,
                   const char *kind)
{
  CmHistoryPage *history;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  history = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_for (history_loaded, history, 10));
  cm_history_page_open (history, 0);
  g_assert_true (cm_test_wait_for (on_saved_page, f->window, 10));
  g_assert_cmpstr (cm_result_get_kind (cm_result_page_get_result (CM_RESULT_PAGE (cm_window_get_page (f->window, "saved")))), ==, kind);
}

static gboolean
card_gone (gpointer data)
{
  return !card_listed (data);
}

static gboolean
earlier_capacity_shown (gpointer data)
{
  Fixture *f = data;
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));

  return page != NULL && g_str_has_prefix (cm_card_page_get_capacity_subtitle (page), "On ");
}

/* The toast on screen; one being hidden (it takes no clicks any more)
 * is not. */
static gboolean
is_toast (GtkWidget *widget)
{
  return g_str_equal (gtk_widget_get_css_name (widget), "toast") && gtk_widget_get_can_target (widget);
}

/* The message of the toast on screen (cm-toast.c's label), or NULL. */
static const char *
toast_shown (CmWindow *window)
{
  GtkWidget *toast = cm_test_find_mapped (GTK_WIDGET (window), is_toast);
  GtkWidget *label = toast != NULL ? cm_test_find_by_css_class (toast, "toast-message") : NULL;

  return label != NULL ? gtk_label_get_label (GTK_LABEL (label)) : NULL;
}

typedef struct
{
  CmWindow   *window;
  const char *text;
} ToastWait;

static gboolean
toast_says (gpointer data)
{
  ToastWait *wait = data;

  return g_strcmp0 (toast_shown (wait->window), wait->text) == 0;
}

/* Waits until the window's toast says @text; the overlay shows one at a
 * time, so one shown before may have to time out first. */
static void
assert_toast_says (Fixture    *f,
                   const char *text)
{
  ToastWait wait = { f->window, text };

  if (!cm_test_wait_for (toast_says, &wait, 30))
    g_error ("the toast says \"%s\", not \"%s\"", toast_shown (f->window), text);
  g_test_message ("toast: %s", text);
}

/* Closes every toast, as clicks on their close buttons: the next
 * message is then the one a test waits for. (libadwaita shows the next
 * toast waiting at once, while the one closed fades.) */
static void
close_toasts (Fixture *f)
{
  GtkWidget *toast;
  guint n = 0;

  while ((toast = cm_test_find_mapped (GTK_WIDGET (f->window), is_toast)) != NULL)
    {
      g_assert_cmpuint (++n, <, 32);
      /* A click (GtkButton's own activate clicks a moment later). */
      g_signal_emit_by_name (cm_test_find_by_css_class (toast, "circular"), "clicked");
    }
}

/* After a restart (a new window: a new card page, the job gone), the
 * capacity check's row says the card's last check, dated; Test Again on
 * that check, saved in History, starts a check of the card again: the
 * card's page asks first, as its row does. Test Again on a saved health
 * read asks the card again; with the card gone it is off, and starts
 * nothing. */
static void
test_again_from_saved (Fixture       *f,
                       gconstpointer  data)
{
  const char *args[] = { "fake-8x", "--size", "512MiB",
                         "--", "--set", "read.bandwidth-mb-s=400", "--set", "write.bandwidth-mb-s=400", NULL };
  g_autoptr(CmResult) checked = NULL;
  g_autofree char *answer = NULL;
  CmResultPage *result_page;
  CmCardPage *page;
  GtkWidget *dialog;
  CmStatus status;

  if (!card_up (f, args))
    return;

  result_page = check_capacity (f);
  checked = g_object_ref (cm_result_page_get_result (result_page));
  answer = cm_summary_dup_answer (checked, &status);

  /* The restart: the window and its pages go, and the check with them. */
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));
  cm_test_destroy_window (GTK_WINDOW (f->window));
  f->window = NULL;
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  g_assert_true (cm_test_wait_for (earlier_capacity_shown, f, 20));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_test_message ("row: %s", cm_card_page_get_capacity_subtitle (page));
  g_assert_true (g_str_has_suffix (cm_card_page_get_capacity_subtitle (page), answer));

  /* Test Again on the saved check, from History. */
  open_newest_in_history (f, "capacity", "Kingston", CM_CHART_CAPACITY_MAP, "again-saved");
  result_page = CM_RESULT_PAGE (cm_window_get_page (f->window, "saved"));
  g_assert_true (cm_result_page_get_offers_again (result_page));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 10));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  dialog = cm_test_visible_dialog ();
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "check");
  gtk_window_close (GTK_WINDOW (dialog));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_true (cm_card_page_get_checking_capacity (page));
  g_assert_cmpuint (count_active_jobs (f->app), ==, 1);

  /* Test Again while that check runs starts nothing, and stops nothing,
   * and says why. */
  close_toasts (f);
  open_newest_saved (f, "capacity");
  cm_window_start_test (f->window);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_null (cm_test_visible_dialog ());
  g_assert_true (cm_card_page_get_checking_capacity (page));
  g_assert_cmpuint (count_active_jobs (f->app), ==, 1);
  {
    g_autofree char *busy = cm_job_dup_busy_text (cm_card_page_get_job (page));

    assert_toast_says (f, busy);
  }

  cm_application_cancel_jobs (f->app);
  g_assert_true (cm_test_wait_for (app_idle, f->app, 60));

  /* Test Again on a saved health read asks the card again. */
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  cm_kind_row_activate (CM_KIND_ROW (cm_card_page_get_health_row (page)));
  g_assert_true (cm_test_wait_for (health_answered, page, 30));
  open_newest_saved (f, "health");
  result_page = CM_RESULT_PAGE (cm_window_get_page (f->window, "saved"));
  g_assert_true (cm_result_page_get_offers_again (result_page));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  /* Asked in this session: its answer, not the one from before. */
  g_assert_true (cm_kind_row_get_job (CM_KIND_ROW (cm_card_page_get_health_row (page))) != NULL ||
                 health_answered (page));
  g_assert_true (cm_test_wait_for (health_answered, page, 30));
  g_test_message ("health again: %s", adw_action_row_get_subtitle (ADW_ACTION_ROW (cm_card_page_get_health_row (page))));

  /* The card gone, Test Again on the saved read says so, and stays. */
  open_newest_saved (f, "health");
  card_down (f);
  g_assert_true (cm_test_wait_for (card_gone, f, 20));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  {
    CmResultPage *saved = CM_RESULT_PAGE (cm_window_get_page (f->window, "saved"));

    g_test_message ("why not: %s", cm_result_page_get_again_reason (saved));
    g_assert_nonnull (strstr (cm_result_page_get_again_reason (saved), "not connected"));
  }
  cm_window_start_test (f->window);
  g_assert_cmpuint (count_active_jobs (f->app), ==, 0);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "saved");
}

static void
test_capacity_genuine (Fixture       *f,
                       gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "512MiB",
                         /* A fast card: the check reads and rewrites 256 MiB. */
                         "--", "--set", "read.bandwidth-mb-s=400", "--set", "write.bandwidth-mb-s=400", NULL };
  CmCardPage *page;
  CmResultPage *result_page;
  const char *outcome;
  gboolean fake = TRUE;
  g_autofree char *subtitle = NULL;
  g_autofree char *answer = NULL;
  CmStatus status;

  if (!card_up (f, args))
    return;

  /* The user looks at History meanwhile: the check that ends does not
   * take them away from it. */
  page = start_capacity_check (f);
  g_assert_null (find_button (GTK_WIDGET (page), "_Show"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  g_assert_true (cm_test_wait_for (capacity_checked, f, 120));
  cm_test_settle (0.2);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "history");
  g_assert_null (cm_test_visible_dialog ());

  /* Back on the card's page, its row says the answer, and Show opens the
   * capacity check's page. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  outcome = cm_card_page_get_capacity_outcome (page, &fake);
  g_test_message ("shown: %s", outcome);
  g_assert_false (fake);
  g_assert_nonnull (strstr (outcome, "holds what it says"));
  subtitle = g_strdup (cm_card_page_get_capacity_subtitle (page));
  g_test_message ("row: %s", subtitle);
  gtk_widget_activate (find_button (GTK_WIDGET (page), "_Show"));
  result_page = assert_on_kind_page (f, "capacity", CM_CHART_CAPACITY_MAP);
  g_assert_cmpint (cm_result_page_get_status (result_page), ==, CM_STATUS_MEETS);
  answer = cm_summary_dup_answer (cm_result_page_get_result (result_page), &status);
  g_assert_cmpstr (subtitle, ==, answer);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "capacity-genuine-fresh");
}

static void run_command (const char *command);
static void save_screen (GtkWidget  *widget,
                         const char *name,
                         int         width,
                         int         height);

static char *
backing_sum (Fixture *f)
{
  g_autofree char *path = g_build_filename (card_get (f, "SIMCARD_DIR"), "backing.img", NULL);
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);

  g_assert_nonnull (file);
  return g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, g_mapped_file_get_bytes (file));
}

static gboolean
journal_offered (gpointer data)
{
  Fixture *f = data;

  return cm_test_visible_dialog () != NULL &&
         g_strcmp0 (cm_journal_watch_get_offered (cm_window_get_journal_watch (f->window)),
                    card_get (f, "SIMCARD_DEV")) == 0;
}

static gboolean
journal_done (gpointer data)
{
  Fixture *f = data;

  return cm_journal_watch_get_offered (cm_window_get_journal_watch (f->window)) == NULL;
}

/* A capacity check killed half-way (the CLI's, with SIGKILL) leaves its
 * journal; the app offers at start to put the card's data back, and does. */
static void
test_restore_offer (Fixture       *f,
                    gconstpointer  data)
{
  const char *args[] = { "fake-8x", "--size", "512MiB", NULL };
  g_autofree char *fill = NULL;
  g_autofree char *before = NULL;
  g_autofree char *killed = NULL;
  g_autofree char *after = NULL;
  g_autofree char *stat_path = NULL;
  g_auto(GStrv) env = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("CARDMARK_CLI");
  GtkWidget *dialog;
  GPid pid;
  int status;

  if (!have_test_hooks ("CARDMARK_PROBE_STOP_AT") || !card_up (f, args))
    return;
  g_assert_nonnull (cli);

  fill = g_strdup_printf ("sh -c 'head -c %s /dev/urandom | dd of=%s bs=4M oflag=direct status=none'",
                          card_get (f, "SIMCARD_REAL_SIZE"), card_get (f, "SIMCARD_DEV"));
  run_command (fill);
  before = backing_sum (f);

  {
    const char *argv[] = { cli, "probe-capacity", card_get (f, "SIMCARD_DEV"), "--cache-up-to", "16M", NULL };
    gboolean stopped = FALSE;

    env = g_environ_setenv (g_get_environ (), "CARDMARK_PROBE_STOP_AT", "sign:60", TRUE);
    g_assert_true (g_spawn_async (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                                  G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &error));
    g_assert_no_error (error);
    stat_path = g_strdup_printf ("/proc/%d/stat", pid);
    for (guint i = 0; i < 600 && !stopped; i++)
      {
        g_autofree char *text = NULL;

        stopped = g_file_get_contents (stat_path, &text, NULL, NULL) && strstr (text, ") T ") != NULL;
        if (!stopped)
          g_usleep (50000);
      }
    g_assert_true (stopped);
    kill (pid, SIGKILL);
    g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
    g_spawn_close_pid (pid);
  }
  killed = backing_sum (f);
  g_assert_cmpstr (killed, !=, before);

  open_window (f);
  g_assert_true (cm_test_wait_for (journal_offered, f, 20));
  dialog = cm_test_visible_dialog ();
  g_assert_nonnull (find_label (dialog, card_get (f, "SIMCARD_DEV")));
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    save_screen (GTK_WIDGET (dialog), "restore", 800, 600);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "restore");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (journal_done, f, 60));

  after = backing_sum (f);
  g_assert_cmpstr (after, ==, before);
}

static gboolean
capacity_progress_shown (gpointer data)
{
  Fixture *f = data;
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  GtkWidget *found = find_label (GTK_WIDGET (page), "left");

  return found != NULL && gtk_widget_get_mapped (found);
}

static void
save_screen (GtkWidget  *widget,
             const char *name,
             int         width,
             int         height)
{
  g_autofree char *file = g_strdup_printf ("app-capacity-%s-%dx%d.png", name, width, height);
  g_autofree char *path = g_build_filename (g_getenv ("CARDMARK_SCREENSHOT_DIR"), file, NULL);

  cm_test_settle (0.3);
  cm_test_save_png (widget, path);
  g_test_message ("saved %s", path);
}

/* With CARDMARK_SCREENSHOT_DIR set: the capacity check at 800x480 and
 * 1280x800 — asking first, running, its map, and the restore offer. */
static void
test_capacity_screens (Fixture       *f,
                       gconstpointer  data)
{
  const char *args[] = { "fake-8x", "--size", "512MiB", NULL };
  static const int sizes[][2] = { { 800, 480 }, { 1280, 800 } };

  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") == NULL)
    {
      g_test_skip ("Set CARDMARK_SCREENSHOT_DIR to a folder to save the screenshots.");
      return;
    }
  if (!card_up (f, args))
    return;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      int w = sizes[s][0], h = sizes[s][1];
      CmCardPage *page;
      GtkWidget *dialog;

      if (f->window != NULL)
        cm_test_destroy_window (GTK_WINDOW (f->window));
      open_window (f);
      gtk_window_set_default_size (GTK_WINDOW (f->window), w, h);
      g_assert_true (cm_test_wait_for (card_listed, f, 20));
      g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
      page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));

      cm_card_page_check_capacity (page);
      cm_test_settle (0.3);
      dialog = cm_test_visible_dialog ();
      g_assert_nonnull (dialog);
      save_screen (dialog, "ask", w, h);
      adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "check");
      gtk_window_close (GTK_WINDOW (dialog));

      g_assert_true (cm_test_wait_for (capacity_progress_shown, f, 60));
      save_screen (GTK_WIDGET (f->window), "running", w, h);
      g_assert_true (cm_test_wait_for (capacity_checked, f, 120));
      g_assert_true (cm_test_wait_for (on_result_page, f, 10));
      save_screen (GTK_WIDGET (f->window), "outcome", w, h);
      gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
      save_screen (GTK_WIDGET (f->window), "map", w, h);
    }
}

static gboolean
offers_file_method (gpointer data)
{
  Fixture *f = data;
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));

  /* Selects it where it is offered. */
  return cm_card_page_set_method (page, CM_METHOD_FILE);
}

static gboolean
offers_raw_methods_only (gpointer data)
{
  return !offers_file_method (data);
}

static void
run_command (const char *command)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_spawn_command_line_sync (command, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* A card unmounted while its page is open: the page follows, so that the
 * safe test in a scratch file is no longer offered (its folder now lies
 * on another disk) and the capacity check becomes possible. */
static void
test_unmounted_under_page (Fixture       *f,
                           gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "64MiB", NULL };
  g_autofree char *mkfs = NULL;
  g_autofree char *mount = NULL;
  g_autofree char *umount = NULL;
  g_autofree char *mnt = NULL;
  CmCardPage *page;

  if (!card_up (f, args))
    return;

  mnt = g_build_filename (card_get (f, "SIMCARD_DIR"), "mnt", NULL);
  g_assert_cmpint (g_mkdir_with_parents (mnt, 0700), ==, 0);
  mkfs = g_strdup_printf ("mkfs.ext4 -q -F %s", card_get (f, "SIMCARD_DEV"));
  mount = g_strdup_printf ("mount %s %s", card_get (f, "SIMCARD_DEV"), mnt);
  umount = g_strdup_printf ("umount %s", mnt);
  run_command (mkfs);
  run_command (mount);

  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_true (cm_test_wait_for (offers_file_method, f, 10));
  g_assert_false (cm_card_page_set_method (page, CM_METHOD_RAW_WRITE));

  run_command (umount);
  g_assert_true (cm_test_wait_for (offers_raw_methods_only, f, 10));
  g_assert_true (cm_window_get_page (f->window, "card") == GTK_WIDGET (page));
  g_assert_false (cm_card_page_set_method (page, CM_METHOD_FILE));
  g_assert_true (cm_card_page_set_method (page, CM_METHOD_RAW_WRITE));
  g_assert_true (cm_card_item_get_mounted (cm_card_page_get_item (page)) == FALSE);
}

/* The card's bytes, read past the page cache. */
static char *
device_checksum (const char *device)
{
  g_autofree char *command = g_strdup_printf ("sh -c 'dd if=%s bs=1M iflag=direct status=none | sha256sum'", device);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_spawn_command_line_sync (command, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strndup (out, 64);
}

/* Closing while a job runs asks first; "Stop and Close" as a click. */
static gboolean
stop_and_close_cb (gpointer data)
{
  GtkWidget *dialog = cm_test_visible_dialog ();

  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Stop Testing and Close?");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "stop");
  gtk_window_close (GTK_WINDOW (dialog));
  return G_SOURCE_REMOVE;
}

static gboolean
quit_cb (gpointer data)
{
  Fixture *f = data;
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));

  g_assert_true (cm_card_page_get_checking_capacity (page));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "quit", NULL);
  g_timeout_add (200, stop_and_close_cb, f);
  return G_SOURCE_REMOVE;
}

/* Quitting in the middle of a capacity check, which writes to the card:
 * the application ends only after the card's data is back. */
static void
test_quit_during_check (Fixture       *f,
                        gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "128MiB", NULL };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  if (!card_up (f, args))
    return;
  before = device_checksum (card_get (f, "SIMCARD_DEV"));
  start_capacity_check (f);

  /* As the app's own main does; it returns once no window is left and
   * nothing holds the application. */
  g_timeout_add (300, quit_cb, f);
  g_application_run (G_APPLICATION (f->app), 0, NULL);
  f->window = NULL;

  after = device_checksum (card_get (f, "SIMCARD_DEV"));
  g_assert_cmpstr (after, ==, before);
}

static gboolean
checking_capacity (gpointer page)
{
  return cm_card_page_get_checking_capacity (page);
}

/* The capacity check's question by keys: the focus starts on Check Card
 * (not on "Deeper check"), so Enter starts it; Escape mid-check stops it
 * as its Cancel button does, without asking, since the card's data is
 * put back (one rule with the run page: asked only when stopping throws
 * figures away). */
static void
test_capacity_keys (Fixture       *f,
                    gconstpointer  data)
{
  /* Large enough for the check to be stopped half-way; each checksum of
   * the card is a read of all of it. */
  const char *args[] = { "good-a1", "--size", "128MiB", NULL };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  CmCardPage *page;
  GtkWidget *dialog;
  GtkWidget *focus;

  if (!card_up (f, args))
    return;
  before = device_checksum (card_get (f, "SIMCARD_DEV"));
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));

  cm_card_page_check_capacity (page);
  cm_test_settle (0.3);
  dialog = cm_test_visible_dialog ();
  g_assert_nonnull (dialog);
  focus = gtk_window_get_focus (GTK_WINDOW (dialog));
  g_assert_nonnull (focus);
  g_test_message ("focus on %s “%s”", G_OBJECT_TYPE_NAME (focus),
                  GTK_IS_BUTTON (focus) ? gtk_button_get_label (GTK_BUTTON (focus)) : "");
  g_assert_true (GTK_IS_BUTTON (focus) && !GTK_IS_CHECK_BUTTON (focus));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (focus)), ==, "_Check Card");
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (dialog)) == focus);

  /* Enter. */
  g_assert_true (gtk_widget_activate (focus));
  g_assert_true (cm_test_wait_for (checking_capacity, page, 5));
  g_assert_true (cm_test_wait_for (capacity_progress_shown, f, 60));

  /* Escape: stopped at once, nothing asked, the data put back. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  cm_test_settle (0.1);
  g_assert_null (cm_test_visible_dialog ());
  g_assert_true (cm_test_wait_for (capacity_checked, f, 60));
  g_assert_null (cm_test_visible_dialog ());
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  after = device_checksum (card_get (f, "SIMCARD_DEV"));
  g_assert_cmpstr (after, ==, before);
}

static void
test_raw_read (Fixture       *f,
               gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "512MiB", NULL };
  Stall stall = { 0 };

  if (!card_up (f, args))
    return;

  run_to_result (f, CM_METHOD_RAW_READ, &stall);
  g_test_message ("worst main-loop stall during the raw read: %.1f ms over %u ticks",
                  stall.worst / 1000.0, stall.ticks);
}

static void
test_raw_write (Fixture       *f,
                gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "512MiB", NULL };
  Stall stall = { 0 };

  if (!card_up (f, args))
    return;

  run_to_result (f, CM_METHOD_RAW_WRITE, &stall);
  g_test_message ("worst main-loop stall during the raw write: %.1f ms over %u ticks",
                  stall.worst / 1000.0, stall.ticks);
}

/* The document cardmark-cli writes for the same card, method and claims. */
static CmResult *
bench_with_cli (Fixture    *f,
                const char *claims)
{
  const char *argv[] = { g_getenv ("CARDMARK_CLI"), "bench", card_get (f, "SIMCARD_DEV"), "--raw",
                         "--allow-write", "--claim", claims, "--json", NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "CARDMARK_TEST_PLAN", "tiny", TRUE);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  CmResult *result;
  int status;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("cardmark-cli: %s", err);
  g_assert_true (WIFEXITED (status) && (WEXITSTATUS (status) == 0 || WEXITSTATUS (status) == 3));

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  result = cm_result_new_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  return result;
}

static JsonNode *
member (CmResult   *result,
        const char *name)
{
  g_autoptr(JsonNode) node = cm_result_to_json (result);
  JsonNode *found = json_object_get_member (json_node_get_object (node), name);

  g_assert_nonnull (found);
  return json_node_copy (found);
}

static char *
claimed_classes (CmResult *result)
{
  GPtrArray *claims = cm_result_get_claims (result);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      g_string_append_printf (text, "%s(%s) ", claim->klass, claim->source);
    }
  return g_string_free (text, FALSE);
}

/* The app's result, kept in the history, is the one it shows. */
static CmResult *
find_in_history (CmResult *shown)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(GPtrArray) results = cm_history_load (history, NULL, NULL);
  g_autofree char *started = g_date_time_format_iso8601 (cm_result_get_started (shown));

  for (guint i = 0; results != NULL && i < results->len; i++)
    {
      CmResult *r = g_ptr_array_index (results, i);
      g_autofree char *other = g_date_time_format_iso8601 (cm_result_get_started (r));

      if (g_strcmp0 (other, started) == 0 && g_strcmp0 (cm_result_get_device (r), cm_result_get_device (shown)) == 0)
        return g_object_ref (r);
    }
  return NULL;
}

/* One bench, two faces: the app and the CLI record the same target,
 * card, host and claims for the same card; the app's saved result
 * carries them too. */
static void
test_same_as_cli (Fixture       *f,
                  gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "512MiB", NULL };
  Stall stall = { 0 };
  CmResult *app;
  g_autoptr(CmResult) cli = NULL;
  g_autoptr(CmResult) saved = NULL;
  g_autoptr(JsonNode) app_target = NULL;
  g_autoptr(JsonNode) cli_target = NULL;
  g_autoptr(JsonNode) app_card = NULL;
  g_autoptr(JsonNode) cli_card = NULL;
  g_autofree char *app_claims = NULL;
  g_autofree char *cli_claims = NULL;
  g_autofree char *app_json = NULL;
  g_autofree char *cli_json = NULL;

  if (!have_test_hooks ("CARDMARK_TEST_PLAN") || !card_up (f, args))
    return;

  run_to_result (f, CM_METHOD_RAW_WRITE, &stall);
  app = cm_window_get_last_result (f->window);
  cli = bench_with_cli (f, "C10,U1,A1");

  app_target = member (app, "target");
  cli_target = member (cli, "target");
  app_json = json_to_string (app_target, FALSE);
  cli_json = json_to_string (cli_target, FALSE);
  g_test_message ("app target: %s", app_json);
  g_test_message ("cli target: %s", cli_json);
  g_assert_cmpstr (app_json, ==, cli_json);
  g_assert_nonnull (cm_result_get_name (app));

  app_card = member (app, "card");
  cli_card = member (cli, "card");
  g_assert_true (json_node_equal (app_card, cli_card));

  app_claims = claimed_classes (app);
  cli_claims = claimed_classes (cli);
  g_assert_cmpstr (app_claims, ==, cli_claims);

  saved = find_in_history (app);
  g_assert_nonnull (saved);
  g_assert_cmpstr (cm_result_get_name (saved), ==, cm_result_get_name (app));
  g_assert_cmpstr (cm_result_get_reader (saved), ==, "loop");
}

/* A host set for the test: the app records it, judges the card against
 * the Raspberry Pi 4 slot's ceiling as the core does for the CLI, and
 * the result page gives the reason. */
static void
test_pi4_host (Fixture       *f,
               gconstpointer  data)
{
  /* Writes near 55 MB/s: past 80 % of the Pi 4 slot's 45 MB/s, short of V60's 60. */
  const char *args[] = { "good-a1", "--size", "512MiB", "--", "--set", "write.bandwidth-mb-s=60", NULL };
  const char *claims[] = { "V60", NULL };
  CmHostFacts pi4 = { (char *) "Raspberry Pi 4 Model B Rev 1.4", NULL, CM_QUEUEING_UNKNOWN };
  CmCardPage *card_page;
  GtkWidget *page;
  CmResult *result;
  CmClaim *v60;

  if (!card_up (f, args))
    return;

  cm_bench_set_host_for_testing (&pi4);
  open_card (f, CM_METHOD_RAW_WRITE);
  card_page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  cm_card_page_set_claims (card_page, claims);
  start (f, "tiny");
  g_assert_true (cm_test_wait_for (on_result_page, f, 120));
  cm_bench_set_host_for_testing (NULL);

  page = cm_window_get_page (f->window, "result");
  result = cm_result_page_get_result (CM_RESULT_PAGE (page));
  g_test_message ("seq-write %.1f MB/s", cm_result_lookup_test (result, "seq-write")->mb_per_s);
  g_assert_cmpstr (cm_result_get_host (result), ==, pi4.model);
  g_assert_cmpstr (cm_result_get_reader (result), ==, "sd-slot");

  v60 = cm_result_lookup_claim (result, "V60");
  g_assert_nonnull (v60);
  g_assert_cmpstr (cm_status_to_string (v60->status), ==, "not-judged");
  g_assert_nonnull (strstr (v60->reason, "Raspberry Pi 4"));
  g_assert_true (shows_text (page, "Raspberry Pi 4 card slot"));
  assert_page_matches_verdicts (page, result, claims);
}

static void
test_read_only (Fixture       *f,
                gconstpointer  data)
{
  const char *args[] = { "read-only", "--size", "512MiB", NULL };
  GtkWidget *page;
  CmResult *result;
  GPtrArray *tests;
  guint n_reads = 0, n_writes = 0;

  if (!card_up (f, args))
    return;

  open_card (f, CM_METHOD_RAW_WRITE);
  start (f, "tiny");
  g_assert_true (cm_test_wait_for (run_ended, f, 120));

  /* The write tests say the card is write-protected; the reads still
   * measure it. */
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "result");
  page = cm_window_get_page (f->window, "result");
  result = cm_result_page_get_result (CM_RESULT_PAGE (page));
  tests = cm_result_get_tests (result);
  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);

      g_test_message ("%s: %s", t->name, t->error != NULL ? t->error : "measured");
      if (strstr (t->name, "write") != NULL)
        {
          g_assert_nonnull (t->error);
          g_assert_nonnull (strstr (t->error, "write-protected"));
          g_assert_true (shows_text (page, t->error));
          n_writes++;
        }
      else
        {
          g_assert_null (t->error);
          g_assert_cmpfloat (t->mb_per_s, >, 0);
          n_reads++;
        }
    }
  g_assert_cmpuint (n_writes, >, 0);
  g_assert_cmpuint (n_reads, >, 0);
}

static void
assert_error_page (Fixture *f)
{
  AdwStatusPage *error_page = ADW_STATUS_PAGE (cm_window_get_page (f->window, "error"));
  const char *title = adw_status_page_get_title (error_page);
  const char *description = adw_status_page_get_description (error_page);

  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "error");
  g_test_message ("error page: %s — %s", title, description);
  g_assert_true (title != NULL && *title != '\0');
  g_assert_true (description != NULL && strlen (description) > 20);
  g_assert_false (cm_window_get_running (f->window));
}

/* One bench, one sentence: cardmark-cli says of the same card what the
 * app's error page said. */
static void
assert_cli_says_the_same (Fixture *f)
{
  AdwStatusPage *error_page = ADW_STATUS_PAGE (cm_window_get_page (f->window, "error"));
  const char *said = adw_status_page_get_description (error_page);
  const char *argv[] = { g_getenv ("CARDMARK_CLI"), "bench", card_get (f, "SIMCARD_DEV"), "--raw", NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "CARDMARK_TEST_PLAN", "tiny", TRUE);
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("cardmark-cli: %s", err);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (err, said));
}

static void
test_failing (Fixture       *f,
              gconstpointer  data)
{
  /* The card fails a few hundred commands after udev's probe, inside the
   * tiny plan's random reads. */
  const char *args[] = { "failing", "--size", "512MiB", "--", "--fail-after", "400", NULL };

  if (!have_test_hooks ("CARDMARK_TEST_PLAN") || !card_up (f, args))
    return;

  open_card (f, CM_METHOD_RAW_READ);
  start (f, "tiny");
  g_assert_true (cm_test_wait_for (run_ended, f, 60));
  assert_error_page (f);
  assert_cli_says_the_same (f);
}

static void
test_detached (Fixture       *f,
               gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "512MiB", NULL };
  g_autofree char *detach = NULL;
  gint64 detached_at;

  if (!card_up (f, args))
    return;

  open_card (f, CM_METHOD_RAW_READ);
  start (f, "slow");
  g_assert_true (cm_test_wait_for (has_samples, f, 30));

  /* Pulled out: the loop device goes, as a card does from its reader,
   * and since the app still holds it open (so the kernel only marks it
   * for detaching), the card stops answering too. */
  detach = g_strdup_printf ("losetup -d %s", card_get (f, "SIMCARD_DEV"));
  g_assert_true (g_spawn_command_line_sync (detach, NULL, NULL, NULL, NULL));
  g_assert_cmpint (kill (atoi (card_get (f, "SIMCARD_PID")), SIGKILL), ==, 0);
  detached_at = g_get_monotonic_time ();
  g_assert_true (cm_test_wait_for (run_ended, f, 20));
  g_test_message ("the run ended %.2f s after the card went", (g_get_monotonic_time () - detached_at) / 1e6);
  assert_error_page (f);
}

/* The run page's one chart has followed the run from its sequential
 * write on: a line for the write and for each test since, each with the
 * points the samples gave it. */
static void
assert_live_chart_whole (CmRunPage *page)
{
  CmChartView *chart = cm_run_page_get_chart (page);

  g_test_message ("live chart: %u lines, %u points", cm_chart_view_get_n_series (chart),
                  cm_chart_view_get_n_points (chart));
  g_assert_cmpuint (cm_chart_view_get_n_series (chart), >=, 2);
  g_assert_cmpuint (cm_chart_view_get_n_points (chart), >=, cm_chart_view_get_n_series (chart));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (chart)));
}

/* A run on a folder (no root needed) long enough to cover a write, a read
 * and random reads with a live chart: the main loop keeps ticking and the
 * chart fills. The worst stall is printed, not bounded: a busy machine
 * stretches it whatever the app does. tests/perf/main-loop-stall runs
 * this test alone, under a load, and holds the figure to the 50 ms goal. */
static void
test_main_loop_stall (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  Stall stall = { 0 };
  guint stall_id;

  /* Not /tmp, which may be a tmpfs that refuses O_DIRECT. */
  f->folder = g_dir_make_tmp ("cardmark-stall-XXXXXX", &error);
  g_assert_no_error (error);

  open_window (f);
  cm_bench_set_test_plan ("slow");
  g_assert_true (cm_window_open_path (f->window, f->folder));
  /* The stall meter starts once the page is laid out and drawn: a slower
   * build's first layout is not a stall of the running test. */
  g_assert_true (cm_test_wait_drawn (GTK_WIDGET (f->window), 10));

  stall.window = f->window;
  stall_id = g_timeout_add (10, stall_tick_cb, &stall);
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
  g_assert_true (cm_test_wait_for (has_samples, f, 30));
  cm_test_settle (6);
  g_assert_true (cm_window_get_running (f->window));
  assert_live_chart_whole (CM_RUN_PAGE (cm_window_get_page (f->window, "run")));
  cm_window_cancel_test (f->window);
  g_assert_true (cm_test_wait_for (run_ended, f, 5));
  g_source_remove (stall_id);

  /* tests/perf/main-loop-stall reads this line. */
  g_test_message ("worst main-loop stall: %.1f ms over %u ticks of 10 ms, %u chart points",
                  stall.worst / 1000.0, stall.ticks,
                  cm_chart_view_get_n_points (cm_run_page_get_chart (CM_RUN_PAGE (cm_window_get_page (f->window, "run")))));
  g_assert_cmpuint (stall.ticks, >, 0);
}


/* The jobs the application holds. */

static gboolean
app_inhibit_released (gpointer data)
{
  return !cm_application_get_inhibiting (data) && !cm_application_get_busy (data);
}

/* "Verify Every Byte…" on the card page shown, as a click on its red
 * confirmation. */
static CmVerifyRow *
start_verify (Fixture *f)
{
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  CmVerifyRow *row = CM_VERIFY_ROW (cm_card_page_get_verify_row (page));
  GtkWidget *dialog;

  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "verify");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  return row;
}

static GtkWidget *
dialog_titled (const char *heading)
{
  GtkWidget *dialog = cm_test_visible_dialog ();

  if (dialog == NULL || g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), heading) != 0)
    return NULL;
  return dialog;
}

/* A tenth of the card written, so that a stop keeps a place to carry on
 * from that the card must prove. */
static gboolean
verify_a_tenth_done (gpointer data)
{
  CmJob *job = cm_kind_row_get_job (CM_KIND_ROW (data));

  return job != NULL && cm_job_get_progress (job) >= 0.1;
}

static gboolean
start_over_offered (gpointer data)
{
  return dialog_titled ("Start Over on This Card?") != NULL;
}

/* A stopped verify saved for one card, then another card of the same
 * size in the same place: the app does not carry the first one's place
 * over (this card does not hold what it wrote), and offers to start over
 * on this card instead of naming command-line flags and state files. */
static void
test_verify_other_card (Fixture       *f,
                        gconstpointer  data)
{
  const char *slow[] = { "good-a1", "--size", "32MiB", "--", "--set", "write.bandwidth-mb-s=4", NULL };
  const char *fast[] = { "good-a1", "--size", "32MiB", NULL };
  g_autofree char *first_dev = NULL;
  CmVerifyRow *row;
  GtkWidget *dialog;
  const CmVerifySummary *summary;

  if (!card_up (f, slow))
    return;
  first_dev = g_strdup (card_get (f, "SIMCARD_DEV"));
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, first_dev));
  row = start_verify (f);
  g_assert_true (cm_test_wait_for (verify_a_tenth_done, row, 30));
  cm_kind_row_activate (CM_KIND_ROW (row));
  g_assert_true (cm_test_wait_for (verify_idle, row, 10));
  cm_test_destroy_window (GTK_WINDOW (f->window));
  f->window = NULL;
  card_down (f);

  /* Another card, as like the first as UDisks shows it. */
  if (!card_up (f, fast))
    return;
  if (g_strcmp0 (card_get (f, "SIMCARD_DEV"), first_dev) != 0)
    {
      g_test_skip ("the second card came up as another loop device than the first");
      return;
    }
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, first_dev));
  row = start_verify (f);
  g_assert_true (cm_test_wait_for (start_over_offered, NULL, 30));
  g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  dialog = dialog_titled ("Start Over on This Card?");
  g_assert_null (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "--"));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "verify-start-over");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "start-over");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  g_assert_true (cm_test_wait_for (verify_idle, row, 60));
  g_assert_nonnull (cm_kind_row_get_result (CM_KIND_ROW (row)));
  summary = cm_result_get_verify (cm_kind_row_get_result (CM_KIND_ROW (row)));
  /* From the beginning, the whole of this card, which lost nothing. */
  g_assert_cmpuint (summary->written_bytes, ==, g_ascii_strtoull (card_get (f, "SIMCARD_SIZE"), NULL, 10));
  g_assert_cmpuint (summary->lost_bytes, ==, 0);
}

static gboolean
wear_row_idle (gpointer data)
{
  return !cm_kind_row_get_busy (CM_KIND_ROW (data));
}

/* A dialog at its own size, light and dark, as app-NAME[-dark].png. */
static void
save_dialog_screenshots (GtkWidget  *dialog,
                         const char *name)
{
  const char *dir = g_getenv ("CARDMARK_SCREENSHOT_DIR");
  AdwStyleManager *style = adw_style_manager_get_default ();

  for (int dark = 0; dir != NULL && dark <= 1; dark++)
    {
      g_autofree char *file = g_strdup_printf ("app-%s%s.png", name, dark ? "-dark" : "");
      g_autofree char *path = g_build_filename (dir, file, NULL);

      adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
      cm_test_settle (0.5);
      cm_test_save_png (dialog, path);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

static gboolean
wear_in_round_2 (gpointer data)
{
  CmJob *job = cm_kind_row_get_job (CM_KIND_ROW (data));

  return job != NULL && g_strcmp0 (cm_job_get_phase (job), "Round 2: writing") == 0;
}

/* A dialog as it shows over the window at 800×480 and 1280×800, light
 * and dark, as app-NAME-WIDTHxHEIGHT[-dark].png. */
static void
save_dialog_at_sizes (Fixture    *f,
                      GtkWidget  *dialog,
                      const char *name)
{
  const int sizes[][2] = { { 800, 480 }, { 1280, 800 } };

  for (guint i = 0; g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL && i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *sized = g_strdup_printf ("%s-%dx%d", name, sizes[i][0], sizes[i][1]);

      gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
      save_dialog_screenshots (dialog, sized);
    }
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 480);
}

/* The wear test document of @device in the history, as read back. */
static CmResult *
dup_saved_wear (const char *device)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) saved = cm_history_load (history, &problems, NULL);

  for (guint i = 0; saved != NULL && i < saved->len; i++)
    {
      CmResult *result = g_ptr_array_index (saved, i);

      if (g_strcmp0 (cm_result_get_device (result), device) == 0 && g_strcmp0 (cm_result_get_kind (result), "wear") == 0)
        return g_object_ref (result);
    }
  return NULL;
}

/* Where the user types in the form's row titled @title. */
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

/* Scrolls the page that holds @widget until it is at the top (the
 * result page's facts do not take the focus, which would scroll). */
static void
scroll_to (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  double x, y;

  g_assert_nonnull (scrolled);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  g_assert_true (gtk_widget_translate_coordinates (widget, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)),
                                                   0, 0, &x, &y));
  gtk_adjustment_set_value (adjustment, y - 12);
}

/* The maker's endurance typed in the Wear Test confirmation: wrong
 * figures keep "Erase and Start" off (and starting anyway starts
 * nothing); a TBW figure is taken. Returns the figure typed. */
static const char *
type_maker_endurance (Fixture   *f,
                      GtkWidget *dialog,
                      CmWearRow *row)
{
  /* 100 MB: the small card's rounds come to a share of it worth showing. */
  static const char *tbw = "0.0001";
  CmMakerForm *form = CM_MAKER_FORM (adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog)));
  const char *wrong[][3] = {
    { "half", NULL, NULL },       /* not a number */
    { "0", NULL, NULL },          /* not above 0 */
    { NULL, "10", NULL },         /* hours without a bitrate */
    { "1", "10", "8" },           /* given twice */
  };

  g_assert_true (CM_IS_MAKER_FORM (form));
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "wear"));
  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      cm_maker_form_set_text (form, wrong[i][0], wrong[i][1], wrong[i][2]);
      g_assert_false (cm_maker_form_get_valid (form));
      g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "wear"));
      if (i == 0)
        save_dialog_at_sizes (f, dialog, "wear-maker-wrong");
      /* Keyboard reachable: the field takes the focus in the dialog.
       * (test-app-maker-form checks what a screen reader hears.) */
      if (i == 0)
        {
          GtkWidget *field = find_field (GTK_WIDGET (form), "_TB written (TBW)");

          g_assert_nonnull (field);
          g_assert_true (gtk_widget_grab_focus (field));
          g_assert_true (gtk_widget_has_focus (field));
        }
    }
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "wear");
  g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));

  cm_maker_form_set_text (form, tbw, NULL, NULL);
  g_assert_true (cm_maker_form_get_valid (form));
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "wear"));
  save_dialog_at_sizes (f, dialog, "wear-maker");
  return tbw;
}

/* A wear test stopped in its second round, then Wear Test… again: the
 * row says where it stopped, the dialog offers to carry on from there,
 * and carried on, its rounds are those of a test never stopped: the
 * first data lost in the modelled round, every round counted once. */
static void
test_wear_carry_on (Fixture       *f,
                    gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "16MiB", "--", "--set", "write.bandwidth-mb-s=30",
                         "--set", "read.bandwidth-mb-s=60", "--set", "wear.writes=3", "--set", "wear.spread=0.5",
                         "--set", "wear.seed=7", NULL };
  CmCardPage *page;
  CmWearRow *row;
  GtkWidget *dialog;
  const CmEndurance *endurance;
  guint first;
  guint64 size;

  if (!card_up (f, args))
    return;
  first = (guint) g_ascii_strtoull (card_get (f, "SIMCARD_WEAR_FIRST_ROUND"), NULL, 10);
  size = g_ascii_strtoull (card_get (f, "SIMCARD_SIZE"), NULL, 10);
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  row = CM_WEAR_ROW (cm_card_page_get_wear_row (page));

  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "wear");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (wear_in_round_2, row, 60));
  cm_kind_row_activate (CM_KIND_ROW (row));
  g_assert_true (cm_test_wait_for (wear_row_idle, row, 5));

  /* Round 1 finished: its page opened. Back on the card's page, the row
   * says where the test stopped. */
  g_assert_true (cm_test_wait_for (on_result_page, f, 10));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_test_message ("stopped: %s", adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "it stopped in round 2, writing"));
  /* In sight on the page: the page scrolls to the focused row. */
  gtk_widget_grab_focus (GTK_WIDGET (row));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "wear-carry-on-row");

  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Carry On With the Wear Test?");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "round 2, writing"));
  g_assert_true (adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (dialog), "carry-on"));
  save_dialog_screenshots (dialog, "wear-carry-on-dialog");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "carry-on");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));

  g_assert_true (cm_test_wait_for (wear_row_idle, row, 120));
  g_assert_nonnull (cm_kind_row_get_result (CM_KIND_ROW (row)));
  endurance = cm_result_get_endurance (cm_kind_row_get_result (CM_KIND_ROW (row)));
  g_test_message ("carried on: %u rounds, first data lost in round %u (modelled %u)", endurance->rounds->len,
                  cm_endurance_get_first_error_round (endurance), first);
  g_assert_cmpstr (endurance->stopped, ==, "half-bad");
  g_assert_cmpuint (cm_endurance_get_first_error_round (endurance), ==, first);
  for (guint i = 0; i < endurance->rounds->len; i++)
    {
      const CmWearRound *r = &g_array_index (endurance->rounds, CmWearRound, i);

      g_assert_cmpuint (r->round, ==, i + 1);
      g_assert_cmpuint (r->bytes_written, ==, (i + 1) * size);
    }
}

/* "Wear Test…" as a user would: the red confirmation, rounds until half
 * the card is bad (a simulated card that wears out), the job's bar over
 * the page, and at the end the wear test's own page, whose first data
 * lost is the round the card's model says. */
static void
test_wear (Fixture       *f,
           gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "16MiB", "--", "--set", "write.bandwidth-mb-s=200",
                         "--set", "read.bandwidth-mb-s=400", "--set", "wear.writes=3", "--set", "wear.spread=0.5",
                         "--set", "wear.seed=7", NULL };
  CmCardPage *page;
  CmWearRow *row;
  GtkWidget *dialog;
  CmResult *result;
  const CmEndurance *endurance;
  guint first;
  const char *tbw;
  g_autoptr(CmResult) saved = NULL;

  if (!card_up (f, args))
    return;
  first = (guint) g_ascii_strtoull (card_get (f, "SIMCARD_WEAR_FIRST_ROUND"), NULL, 10);
  g_assert_cmpuint (first, >, 0);
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  row = CM_WEAR_ROW (cm_card_page_get_wear_row (page));

  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "wear"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  tbw = type_maker_endurance (f, dialog, row);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "wear");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  g_assert_true (cm_card_page_get_job (page) == cm_kind_row_get_job (CM_KIND_ROW (row)));
  g_assert_true (g_str_has_prefix (cm_card_page_get_job_bar_text (page), "Wear test: "));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));

  g_assert_true (cm_test_wait_for (wear_row_idle, row, 120));
  g_assert_true (cm_test_wait_for (on_result_page, f, 10));
  result = cm_result_page_get_result (CM_RESULT_PAGE (cm_window_get_page (f->window, "result")));
  g_assert_true (result == cm_kind_row_get_result (CM_KIND_ROW (row)));
  g_assert_cmpstr (cm_result_get_kind (result), ==, "wear");
  endurance = cm_result_get_endurance (result);
  g_assert_nonnull (endurance);
  g_test_message ("%u rounds, first data lost in round %u (modelled %u): %s", endurance->rounds->len,
                  cm_endurance_get_first_error_round (endurance), first, cm_result_get_summary (result));
  g_assert_cmpuint (cm_endurance_get_first_error_round (endurance), ==, first);
  g_assert_cmpint (cm_result_page_get_status (CM_RESULT_PAGE (cm_window_get_page (f->window, "result"))), ==,
                   CM_STATUS_BELOW);
  /* Its chart, the decay curve, has the rounds. */
  {
    g_autoptr(GPtrArray) charts = cm_result_page_dup_charts (CM_RESULT_PAGE (cm_window_get_page (f->window, "result")));
    CmChartKind kind;

    g_assert_cmpuint (charts->len, >, 0);
    g_assert_true (cm_chart_view_get_chart_kind (g_ptr_array_index (charts, 0), &kind));
    g_assert_cmpint (kind, ==, CM_CHART_WEAR);
    g_assert_true (cm_chart_view_has_data (g_ptr_array_index (charts, 0)));
  }
  cm_test_save_screenshots (GTK_WIDGET (f->window), "wear-result");

  /* In the history, the maker's endurance is the TBW typed, in bytes
   * (TB are 10^12 bytes). */
  saved = dup_saved_wear (card_get (f, "SIMCARD_DEV"));
  g_assert_nonnull (saved);
  g_assert_nonnull (cm_result_get_endurance (saved));
  g_test_message ("maker_bytes %" G_GUINT64_FORMAT " for a TBW of %s", cm_result_get_endurance (saved)->maker_bytes, tbw);
  g_assert_cmpuint (cm_result_get_endurance (saved)->maker_bytes, ==, (guint64) llround (g_ascii_strtod (tbw, NULL) * 1e12));

  /* The page sets what the card took beside the maker's figure. */
  {
    GtkWidget *result_page = cm_window_get_page (f->window, "result");
    AdwActionRow *maker = cm_test_find_row_titled (result_page, "The maker’s endurance");
    AdwActionRow *written = cm_test_find_row_titled (result_page, "Written in all");
    const CmWearRound *last = &g_array_index (endurance->rounds, CmWearRound, endurance->rounds->len - 1);
    g_autofree char *share = g_strdup_printf ("%.1f %% of the maker’s endurance",
                                              100.0 * last->bytes_written / (g_ascii_strtod (tbw, NULL) * 1e12));

    g_assert_nonnull (maker);
    g_assert_nonnull (written);
    g_assert_cmpstr (adw_action_row_get_subtitle (written), ==, share);
    scroll_to (GTK_WIDGET (maker));
    cm_test_save_screenshots (GTK_WIDGET (f->window), "wear-result-maker");
  }

  /* Back on the card's page, the row keeps the answer. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "Data lost from round"));
}

/* Test Again from a saved result, when it must start nothing. */

static gboolean job_ended (gpointer data);

/* The newest saved result of @kind opened from History, as a user
 * would: the first row of that kind. */
static CmResult *
open_saved_of_kind (Fixture    *f,
                    const char *kind)
{
  for (guint i = 0;; i++)
    {
      CmHistoryPage *history;
      CmResult *result;

      gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
      history = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
      g_assert_true (cm_test_wait_for (history_loaded, history, 10));
      g_assert_cmpuint (i, <, cm_history_page_get_n_results (history));
      cm_history_page_open (history, i);
      g_assert_true (cm_test_wait_for (on_saved_page, f->window, 10));
      result = cm_result_page_get_result (CM_RESULT_PAGE (cm_window_get_page (f->window, "saved")));
      if (g_strcmp0 (cm_result_get_kind (result), kind) == 0)
        {
          g_assert_true (cm_result_page_get_offers_again (CM_RESULT_PAGE (cm_window_get_page (f->window, "saved"))));
          return result;
        }
    }
}

/* Test Again on the saved result on screen while @job runs on its card:
 * the card's page opens on the job, which goes on with its row busy; no
 * other job starts, no dialog asks, and the toast gives the job's busy
 * text. @busy_row says whether the new page's row shows @job. */
static void
assert_again_refused_while (Fixture  *f,
                            CmJob    *job,
                            gboolean (*busy_row) (CmCardPage *page,
                                                  CmJob      *job))
{
  g_autofree char *busy = cm_job_dup_busy_text (job);
  CmCardPage *page;

  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "saved");
  g_assert_true (cm_job_is_active (job));
  /* Test Again stays on: pressed, it says why it did nothing. */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);

  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_null (cm_test_visible_dialog ());
  g_assert_true (cm_job_is_active (job));
  g_assert_cmpuint (count_active_jobs (f->app), ==, 1);
  g_assert_true (cm_card_page_get_job (page) == job);
  g_assert_true (busy_row (page, job));
  assert_toast_says (f, busy);
  /* Nothing asked meanwhile either. */
  g_assert_null (cm_test_visible_dialog ());
}

static gboolean
verify_row_runs (CmCardPage *page,
                 CmJob      *job)
{
  CmVerifyRow *row = CM_VERIFY_ROW (cm_card_page_get_verify_row (page));

  return cm_kind_row_get_busy (CM_KIND_ROW (row)) && cm_kind_row_get_job (CM_KIND_ROW (row)) == job;
}

static gboolean
wear_row_runs (CmCardPage *page,
               CmJob      *job)
{
  CmWearRow *row = CM_WEAR_ROW (cm_card_page_get_wear_row (page));

  return cm_kind_row_get_busy (CM_KIND_ROW (row)) && cm_kind_row_get_job (CM_KIND_ROW (row)) == job;
}

/* "Wear Test…" on the card page shown, as a click on its confirmation
 * (the first one, or carrying on a stopped test). */
static CmWearRow *
start_wear (Fixture *f)
{
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  CmWearRow *row = CM_WEAR_ROW (cm_card_page_get_wear_row (page));
  AdwMessageDialog *dialog;

  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = ADW_MESSAGE_DIALOG (cm_test_visible_dialog ());
  adw_message_dialog_response (dialog, adw_message_dialog_has_response (dialog, "carry-on") ? "carry-on" : "wear");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  return row;
}

/* A saved verify and a saved wear test of a card, then Test Again on
 * each while a wear test, then while a verify, runs on the card: it
 * starts nothing, stops nothing, asks nothing, and says why. */
static void
test_again_while_busy (Fixture       *f,
                       gconstpointer  data)
{
  /* A card that never wears out: its wear test runs until stopped. A
   * verify of it takes about a second. */
  const char *args[] = { "good-a1", "--size", "16MiB", "--", "--set", "write.bandwidth-mb-s=40",
                         "--set", "read.bandwidth-mb-s=80", NULL };
  const char *kinds[] = { "verify", "wear" };
  CmCardPage *page;
  CmVerifyRow *verify_row;
  CmWearRow *wear_row;
  g_autoptr(CmJob) job = NULL;

  if (!card_up (f, args))
    return;
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));

  /* The saved results: a verify to its end, a wear test stopped in its
   * second round (a stopped wear test keeps its first round). */
  verify_row = start_verify (f);
  g_assert_true (cm_test_wait_for (verify_idle, verify_row, 60));
  g_assert_nonnull (cm_kind_row_get_result (CM_KIND_ROW (verify_row)));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  wear_row = start_wear (f);
  g_assert_true (cm_test_wait_for (wear_in_round_2, wear_row, 60));
  cm_kind_row_activate (CM_KIND_ROW (wear_row));
  g_assert_true (cm_test_wait_for (wear_row_idle, wear_row, 30));
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));

  /* A wear test runs (until it is stopped): Test Again on either saved
   * result, as a user would, from History. */
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  wear_row = start_wear (f);
  g_set_object (&job, cm_kind_row_get_job (CM_KIND_ROW (wear_row)));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_test_message ("Test Again on a saved %s while a wear test runs", kinds[i]);
      close_toasts (f);
      open_saved_of_kind (f, kinds[i]);
      assert_again_refused_while (f, job, wear_row_runs);
    }
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  wear_row = CM_WEAR_ROW (cm_card_page_get_wear_row (page));
  cm_kind_row_activate (CM_KIND_ROW (wear_row));
  g_assert_true (cm_test_wait_for (job_ended, job, 30));
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));

  /* A verify runs. It is started from the card's page while the saved
   * result is on screen, so that it still runs when Test Again is
   * pressed however slow this machine is: nothing in between lets the
   * main loop hear it end. It then goes on to its end. */
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_test_message ("Test Again on a saved %s while a verify runs", kinds[i]);
      close_toasts (f);
      open_saved_of_kind (f, kinds[i]);
      verify_row = start_verify (f);
      g_set_object (&job, cm_kind_row_get_job (CM_KIND_ROW (verify_row)));
      assert_again_refused_while (f, job, verify_row_runs);
      g_assert_true (cm_test_wait_for (job_ended, job, 60));
      g_assert_cmpint (cm_job_get_state (job), ==, CM_JOB_STATE_DONE);
      g_assert_nonnull (cm_job_get_result (job));
      g_assert_true (cm_test_wait_for (app_idle, f->app, 20));
    }
}

/* A list item of the card at the fixture's device, of the fixture's
 * card's size (UDisks may tell the size after the device). */
static gboolean
card_listed_at_size (gpointer data)
{
  Fixture *f = data;
  CmCardListPage *list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  GListModel *model = cm_card_list_page_get_model (list);
  guint64 size = g_ascii_strtoull (card_get (f, "SIMCARD_SIZE"), NULL, 10);

  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(CmCardItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (cm_card_item_get_device (item), card_get (f, "SIMCARD_DEV")) == 0 &&
          cm_card_item_get_size (item) == size)
        return TRUE;
    }
  return FALSE;
}

/* A verify and a health read saved of one card, then another card, of
 * another size, in the same reader (the same loop device): Test Again
 * on either opens the reader's page, starts and asks nothing, writes
 * nothing on the card there, and says it is another card. */
static void
test_again_other_card (Fixture       *f,
                       gconstpointer  data)
{
  const char *args_a[] = { "good-a1", "--size", "32MiB", "--", "--set", "write.bandwidth-mb-s=200",
                           "--set", "read.bandwidth-mb-s=400", NULL };
  const char *args_b[] = { "good-a1", "--size", "48MiB", "--", "--set", "read.bandwidth-mb-s=400", NULL };
  const char *kinds[] = { "verify", "health" };
  g_autofree char *dev_a = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  guint64 size_a, size_b;
  CmVerifyRow *row;
  CmCardPage *page;

  if (!card_up (f, args_a))
    return;
  dev_a = g_strdup (card_get (f, "SIMCARD_DEV"));
  size_a = g_ascii_strtoull (card_get (f, "SIMCARD_SIZE"), NULL, 10);
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, dev_a));
  row = start_verify (f);
  g_assert_true (cm_test_wait_for (verify_idle, row, 60));
  g_assert_nonnull (cm_kind_row_get_result (CM_KIND_ROW (row)));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  cm_kind_row_activate (CM_KIND_ROW (cm_card_page_get_health_row (page)));
  g_assert_true (cm_test_wait_for (health_answered, page, 30));
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));
  cm_test_destroy_window (GTK_WINDOW (f->window));
  f->window = NULL;
  card_down (f);

  /* Another card in the same reader. */
  if (!card_up (f, args_b))
    return;
  if (g_strcmp0 (card_get (f, "SIMCARD_DEV"), dev_a) != 0)
    {
      g_test_skip ("the second card came up as another loop device than the first");
      return;
    }
  size_b = g_ascii_strtoull (card_get (f, "SIMCARD_SIZE"), NULL, 10);
  g_assert_cmpuint (size_b, !=, size_a);
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed_at_size, f, 20));
  before = device_checksum (dev_a);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      CmResult *result;

      g_test_message ("Test Again on a saved %s of the other card", kinds[i]);
      close_toasts (f);
      result = open_saved_of_kind (f, kinds[i]);
      /* The document is of the first card: its device, its size. */
      g_assert_cmpstr (cm_result_get_device (result), ==, dev_a);
      g_assert_cmpuint (cm_result_get_device_bytes (result), ==, size_a);
      /* A card is at its device, so Test Again is on. */
      g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
      g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
      g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
      page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
      g_assert_cmpuint (cm_card_item_get_size (cm_card_page_get_item (page)), ==, size_b);
      g_assert_null (cm_test_visible_dialog ());
      g_assert_cmpuint (count_active_jobs (f->app), ==, 0);
      g_assert_null (cm_card_page_get_job (page));
      g_assert_null (cm_kind_row_get_job (CM_KIND_ROW (cm_card_page_get_health_row (page))));
      assert_toast_says (f, "This is another card than the one of that result: nothing was started on it.");
      g_assert_null (cm_test_visible_dialog ());
      g_assert_cmpuint (count_active_jobs (f->app), ==, 0);
    }

  after = device_checksum (dev_a);
  g_assert_cmpstr (after, ==, before);
}

static gboolean
format_row_idle (gpointer row)
{
  return !cm_kind_row_get_busy (CM_KIND_ROW (row));
}

/* The format has begun writing to the card (past opening it). */
static gboolean
format_writing (gpointer row)
{
  CmJob *job = cm_kind_row_get_job (CM_KIND_ROW (row));

  return job == NULL || cm_job_get_progress (job) > 0.1;
}

/* Runs @command with a read-only loop device over bytes @start to
 * @start + @length of @device as its last argument; its exit status. */
static int
on_bytes_of (const char  *device,
             guint64      start,
             guint64      length,
             const char  *command,
             char       **out)
{
  g_autofree char *attach = g_strdup_printf ("losetup -f --show -r -o %" G_GUINT64_FORMAT " --sizelimit %"
                                             G_GUINT64_FORMAT " %s", start, length, device);
  g_autofree char *window = NULL;
  g_autofree char *line = NULL;
  g_autofree char *detach = NULL;
  int status = 0;

  g_assert_true (g_spawn_command_line_sync (attach, &window, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_strchomp (window);
  line = g_strdup_printf ("%s %s", command, window);
  g_assert_true (g_spawn_command_line_sync (line, out, NULL, &status, NULL));
  detach = g_strdup_printf ("losetup -d %s", window);
  run_command (detach);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static GtkWidget *
find_actionable (GtkWidget  *widget,
                 const char *action)
{
  if (GTK_IS_ACTIONABLE (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Erase and Format… on a 256 MiB card's page, as a user does it: the
 * red confirmation (a label typed), the row and the bar over the page
 * while it runs, the result page; then the card itself, read here: the
 * MBR's partition on a 4 MiB boundary, blkid finds FAT (vfat) in it and
 * fsck.fat -n finds it clean. */
static void
test_format (Fixture       *f,
             gconstpointer  data)
{
  /* Slow writes, so that it is seen running. */
  const char *args[] = { "good-a1", "--size", "256MiB", "--", "--set", "write.bandwidth-mb-s=1",
                         "--set", "read.bandwidth-mb-s=50", NULL };
  const char *dev;
  CmCardPage *page;
  CmFormatRow *row;
  GtkWidget *dialog;
  GtkWidget *field;
  CmResult *result;
  GtkWidget *result_page;
  AdwActionRow *fact;
  g_autoptr(CmFormatReport) report = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autofree char *type = NULL;
  g_autofree char *fsck = NULL;
  guint8 mbr[512];
  gsize got = 0;
  guint64 start, length;

  if (!card_up (f, args))
    return;
  dev = card_get (f, "SIMCARD_DEV");
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, dev));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  row = CM_FORMAT_ROW (cm_card_page_get_format_row (page));
  g_assert_nonnull (row);

  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "format"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), dev));
  field = find_field (dialog, "_Label (optional)");
  g_assert_nonnull (field);
  gtk_editable_set_text (GTK_EDITABLE (field), "GIVENBACK");
  save_dialog_at_sizes (f, dialog, "format-confirm");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "format");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  g_assert_true (cm_card_page_get_job (page) == cm_kind_row_get_job (CM_KIND_ROW (row)));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_assert_true (cm_test_wait_for (format_writing, row, 60));
  if (cm_kind_row_get_busy (CM_KIND_ROW (row)))
    {
      g_assert_true (g_str_has_prefix (cm_card_page_get_job_bar_text (page), "Erase and format: "));
      cm_test_save_screenshots (GTK_WIDGET (f->window), "format-running");
    }

  g_assert_true (cm_test_wait_for (format_row_idle, row, 120));
  g_assert_true (cm_test_wait_for (on_result_page, f, 10));
  result_page = cm_window_get_page (f->window, "result");
  result = cm_result_page_get_result (CM_RESULT_PAGE (result_page));
  g_assert_true (result == cm_kind_row_get_result (CM_KIND_ROW (row)));
  g_assert_cmpstr (cm_result_get_kind (result), ==, "format");
  outcome = cm_result_dup_outcome (result);
  g_test_message ("%s · %s · %s", outcome->badge, outcome->answer, cm_result_get_summary (result));
  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpint (cm_result_page_get_status (CM_RESULT_PAGE (result_page)), ==, outcome->tone);
  /* A format is no check that erased the card: nothing more to offer. */
  g_assert_false (gtk_widget_get_visible (find_actionable (result_page, "win.erase-format")));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "format-result");
  fact = cm_test_find_row_titled (result_page, "Partition");
  g_assert_nonnull (fact);
  scroll_to (GTK_WIDGET (fact));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "format-result-facts");

  /* The card, read here. */
  report = cm_format_report_from_json (cm_result_get_part (result), NULL);
  g_assert_nonnull (report);
  file = g_file_new_for_path (dev);
  in = g_file_read (file, NULL, NULL);
  g_assert_nonnull (in);
  g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), mbr, sizeof mbr, &got, NULL, NULL));
  g_assert_cmpuint (got, ==, sizeof mbr);
  g_assert_true (mbr[510] == 0x55 && mbr[511] == 0xAA);
  start = (guint64) GUINT32_FROM_LE (*(guint32 *) (mbr + 454)) * 512;
  length = (guint64) GUINT32_FROM_LE (*(guint32 *) (mbr + 458)) * 512;
  g_test_message ("partition type 0x%02x from %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " bytes",
                  mbr[450], start, length);
  g_assert_cmpuint (start, >, 0);
  g_assert_cmpuint (start % (4 << 20), ==, 0);
  g_assert_cmpuint (start + length, <=, g_ascii_strtoull (card_get (f, "SIMCARD_SIZE"), NULL, 10));
  g_assert_cmpuint (start, ==, report->layout.start);
  g_assert_cmpuint (length, ==, report->layout.length);
  g_assert_cmpint (on_bytes_of (dev, start, length, "blkid -p -o value -s TYPE", &type), ==, 0);
  g_assert_cmpstr (g_strstrip (type), ==, "vfat");
  g_assert_cmpint (on_bytes_of (dev, start, length, "fsck.fat -n", &fsck), ==, 0);
  g_test_message ("%s", fsck);

  /* Back on the card's page, the row keeps the format's answer. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, outcome->answer);
}

/* A fake card (512 MiB said, 64 MiB kept) checked on its page, then
 * Erase and Format…: the confirmation offers the real size the check
 * found, and formatted to it, the partition ends where the storage does
 * and fsck.fat finds it clean. */
static void
test_format_real (Fixture       *f,
                  gconstpointer  data)
{
  const char *args[] = { "fake-8x", "--size", "512MiB",
                         "--", "--set", "read.bandwidth-mb-s=400", "--set", "write.bandwidth-mb-s=400", NULL };
  const CmCapacityReport *capacity;
  guint64 real_size, start, length;
  CmResultPage *capacity_page;
  CmCardPage *page;
  CmFormatRow *row;
  GtkWidget *dialog;
  GtkWidget *offer;
  CmResult *result;
  g_autoptr(CmFormatReport) report = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autofree char *size_text = NULL;
  g_autofree char *fsck = NULL;
  guint8 mbr[512];
  gsize got = 0;

  if (!card_up (f, args))
    return;
  capacity_page = check_capacity (f);
  capacity = cm_result_get_capacity (cm_result_page_get_result (capacity_page));
  g_assert_nonnull (capacity);
  g_assert_true (capacity->fake);
  real_size = g_ascii_strtoull (card_get (f, "SIMCARD_REAL_SIZE"), NULL, 10);
  g_test_message ("the check: data kept up to %" G_GUINT64_FORMAT " bytes, not past %" G_GUINT64_FORMAT
                  "; the card stores %" G_GUINT64_FORMAT, capacity->last_good_bytes, capacity->real_bytes, real_size);

  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  row = CM_FORMAT_ROW (cm_card_page_get_format_row (page));
  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  /* By the figure the check's page showed as its real size. */
  {
    g_autoptr(GPtrArray) figures = cm_summary_dup_headline (cm_result_page_get_result (capacity_page));

    for (guint i = 0; i < figures->len; i++)
      {
        CmHeadlineFigure *figure = g_ptr_array_index (figures, i);

        if (g_str_equal (figure->label, "Real size"))
          size_text = g_strdup (figure->value);
      }
  }
  g_assert_nonnull (size_text);
  {
    g_autofree char *title = g_strdup_printf ("Format to the _real size (%s)", size_text);

    offer = GTK_WIDGET (cm_test_find_row_titled (dialog, title));
  }
  g_assert_nonnull (offer);
  g_test_message ("%s", adw_action_row_get_subtitle (ADW_ACTION_ROW (offer)));
  save_dialog_at_sizes (f, dialog, "format-confirm-real");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "format");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (format_row_idle, row, 120));
  g_assert_true (cm_test_wait_for (on_result_page, f, 10));
  result = cm_result_page_get_result (CM_RESULT_PAGE (cm_window_get_page (f->window, "result")));
  g_assert_cmpstr (cm_result_get_kind (result), ==, "format");
  report = cm_format_report_from_json (cm_result_get_part (result), NULL);
  g_assert_nonnull (report);
  g_assert_cmpuint (report->used_bytes, ==, capacity->last_good_bytes);
  g_assert_true (report->fsck_clean);

  file = g_file_new_for_path (card_get (f, "SIMCARD_DEV"));
  in = g_file_read (file, NULL, NULL);
  g_assert_nonnull (in);
  g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), mbr, sizeof mbr, &got, NULL, NULL));
  g_assert_cmpuint (got, ==, sizeof mbr);
  start = (guint64) GUINT32_FROM_LE (*(guint32 *) (mbr + 454)) * 512;
  length = (guint64) GUINT32_FROM_LE (*(guint32 *) (mbr + 458)) * 512;
  g_test_message ("partition from %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " bytes", start, length);
  g_assert_cmpuint (start, >, 0);
  g_assert_cmpuint (start + length, <=, real_size);
  g_assert_cmpint (on_bytes_of (card_get (f, "SIMCARD_DEV"), start, length, "fsck.fat -n", &fsck), ==, 0);
}

/* Closing the window while a job runs asks; "Keep Testing" keeps it. */
static void
close_and_keep (Fixture *f)
{
  GtkWidget *dialog;

  gtk_window_close (GTK_WINDOW (f->window));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Stop Testing and Close?");
  /* It names every job that runs, by its kind and card. */
  {
    GListModel *jobs = cm_job_list_get_model (cm_job_list_get_default ());
    const char *body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));

    g_test_message ("close asks: %s", body);
    for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
      {
        g_autoptr(CmJob) job = g_list_model_get_item (jobs, i);
        g_autofree char *named = g_strdup_printf ("%s of %s", cm_job_get_title (job), cm_job_get_target (job));

        if (cm_job_is_active (job))
          g_assert_nonnull (strstr (body, named));
      }
  }
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "keep");
  gtk_window_close (GTK_WINDOW (dialog));
  cm_test_settle (0.1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->window)));
}

/* A verify and a capacity check keep the computer awake as a benchmark
 * does, until they end; closing the window during either asks first,
 * and stopping waits for the job to end. */
static void
test_jobs_keep_awake (Fixture       *f,
                      gconstpointer  data)
{
  /* Slow enough that each job outlasts the checks below. */
  const char *args[] = { "good-a1", "--size", "64MiB", "--", "--set", "write.bandwidth-mb-s=6",
                         "--set", "read.bandwidth-mb-s=12", NULL };
  CmCardPage *page;
  CmVerifyRow *row;

  if (!card_up (f, args))
    return;

  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  g_assert_false (cm_application_get_inhibiting (f->app));

  row = start_verify (f);
  g_assert_true (cm_application_get_inhibiting (f->app));
  g_assert_true (cm_test_wait_for (verify_writing, row, 30));
  g_assert_true (cm_application_get_inhibiting (f->app));
  close_and_keep (f);
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  g_assert_true (cm_application_get_inhibiting (f->app));
  /* app.cancel-test stops the job of the page shown. */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "cancel-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "cancel-test", NULL);
  g_assert_true (cm_test_wait_for (app_inhibit_released, f->app, 20));
  g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));

  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  cm_card_page_check_capacity (page);
  cm_test_settle (0.2);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (cm_test_visible_dialog ()), "check");
  gtk_window_close (GTK_WINDOW (cm_test_visible_dialog ()));
  g_assert_true (cm_card_page_get_checking_capacity (page));
  g_assert_true (cm_application_get_inhibiting (f->app));
  cm_test_settle (0.3);
  g_assert_true (cm_card_page_get_checking_capacity (page));
  g_assert_true (cm_application_get_inhibiting (f->app));

  /* "Stop and Close": the window goes, the check puts the card back and
   * ends, and only then does the application let go. */
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  gtk_window_close (GTK_WINDOW (f->window));
  cm_test_settle (0.2);
  stop_and_close_cb (f);
  g_assert_true (cm_test_wait_for (app_inhibit_released, f->app, 30));
  cm_test_settle (0.1);
  g_assert_null (f->window);
}

/* A card's row in the list, looked up each time: the list may make its
 * rows anew when UDisks tells of a change. */
typedef struct
{
  CmCardListPage *list;
  const char     *device;
  char           *was;
} CardRow;

static const char *
card_row_subtitle (CardRow *card)
{
  AdwActionRow *row = cm_card_list_page_get_row_for_device (card->list, card->device);

  return row != NULL ? adw_action_row_get_subtitle (row) : NULL;
}

static gboolean
row_shows_job (gpointer data)
{
  const char *subtitle = card_row_subtitle (data);

  return subtitle != NULL && strstr (subtitle, "\nFull verify: ") != NULL && strstr (subtitle, "% done") != NULL;
}

static gboolean
row_changed (gpointer data)
{
  CardRow *card = data;

  return g_strcmp0 (card_row_subtitle (card), card->was) != 0;
}

static guint
count_active_jobs (CmApplication *app)
{
  GListModel *jobs = cm_application_get_jobs (app);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (jobs, i);

      n += cm_job_is_active (job);
    }
  return n;
}

static gboolean
card_b_listed (gpointer data)
{
  Fixture *g = data;
  CmCardListPage *list = CM_CARD_LIST_PAGE (cm_window_get_page (g->window, "cards"));

  return cm_card_list_page_get_row_for_device (list, card_get (g, "SIMCARD_DEV")) != NULL;
}

static gboolean
job_ended (gpointer data)
{
  return !cm_job_is_active (data);
}

/* A verify on card A goes on while card B is benchmarked: both run,
 * A's row in the card list shows its progress, and Cancel on A's page
 * stops A only. */
static void
test_two_cards (Fixture       *f,
                gconstpointer  data)
{
  /* Slow enough (about 50 s) that A's verify outlasts B's start on a
   * loaded machine. */
  const char *args_a[] = { "good-a1", "--size", "64MiB", "--", "--set", "write.bandwidth-mb-s=2",
                           "--set", "read.bandwidth-mb-s=4", NULL };
  const char *args_b[] = { "good-a1", "--size", "256MiB", NULL };
  Fixture b = { 0 };
  CmCardListPage *list;
  CmCardPage *page;
  CardRow row_a = { 0 };
  g_autoptr(CmJob) verify = NULL;
  g_autoptr(CmJob) bench = NULL;

  if (!card_up (f, args_a))
    return;
  b.card = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!card_up (&b, args_b))
    {
      g_hash_table_unref (b.card);
      return;
    }

  open_window (f);
  b.window = f->window;
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_test_wait_for (card_b_listed, &b, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  start_verify (f);
  g_assert_true (cm_test_wait_for (verify_writing, cm_card_page_get_verify_row (CM_CARD_PAGE (cm_window_get_page (f->window, "card"))), 30));
  verify = g_object_ref (cm_card_page_get_job (CM_CARD_PAGE (cm_window_get_page (f->window, "card"))));

  /* Back to the list: A's row tells its verify's progress. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
  g_assert_false (cm_window_get_running (f->window));
  list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  row_a.list = list;
  row_a.device = card_get (f, "SIMCARD_DEV");
  g_assert_nonnull (card_row_subtitle (&row_a));
  g_assert_true (cm_test_wait_for (row_shows_job, &row_a, 10));
  g_test_message ("card A's row: %s", card_row_subtitle (&row_a));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-job");

  /* Card B: a benchmark starts while A's verify runs. */
  g_assert_true (cm_window_open_path (f->window, card_get (&b, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_true (cm_card_page_set_method (page, CM_METHOD_RAW_READ));
  start (f, "slow");
  bench = g_object_ref (cm_job_list_lookup (cm_job_list_get_default (), cm_card_page_get_item (page)));
  g_assert_cmpstr (cm_job_get_kind (bench), ==, "bench");
  g_assert_true (cm_test_wait_for (has_samples, f, 30));
  if (!cm_job_is_active (verify))
    g_test_message ("A's verify is %s: %s", cm_job_state_to_string (cm_job_get_state (verify)),
                    cm_job_get_error (verify) != NULL ? cm_job_get_error (verify)->message : "no error");
  g_assert_cmpuint (count_active_jobs (f->app), ==, 2);
  g_assert_true (cm_job_is_active (verify));
  row_a.was = g_strdup (card_row_subtitle (&row_a));
  g_assert_true (cm_test_wait_for (row_changed, &row_a, 10));
  g_assert_true (row_shows_job (&row_a));
  g_free (row_a.was);

  /* A's page again: it shows A's verify, and Cancel stops A only. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_true (cm_card_page_get_job (page) == verify);
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (cm_card_page_get_verify_row (page))));
  /* Over the page, in sight however it is scrolled: A's verify. */
  g_assert_true (g_str_has_prefix (cm_card_page_get_job_bar_text (page), "Full verify: "));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "card-verify-running");
  g_assert_true (cm_window_get_running (f->window));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "cancel-test", NULL);
  g_assert_true (cm_test_wait_for (job_ended, verify, 20));
  g_assert_cmpint (cm_job_get_state (verify), ==, CM_JOB_STATE_CANCELLED);
  g_assert_null (cm_card_page_get_job_bar_text (page));
  g_assert_true (cm_job_is_active (bench));
  g_assert_cmpuint (count_active_jobs (f->app), ==, 1);

  /* B's card opens its run page; Cancel there stops B. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_true (cm_window_open_path (f->window, card_get (&b, "SIMCARD_DEV")));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "run");
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "cancel-test", NULL);
  g_assert_true (cm_test_wait_for (job_ended, bench, 20));
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));

  card_down (&b);
  g_hash_table_unref (b.card);
}

/* The row's second line: the job's status, or how its last job ended. */
static const char *
row_second_line (CardRow *card)
{
  const char *subtitle = card_row_subtitle (card);
  const char *newline = subtitle != NULL ? strchr (subtitle, '\n') : NULL;

  return newline != NULL ? newline + 1 : NULL;
}

static gboolean
row_shows_bench (gpointer data)
{
  const char *line = row_second_line (data);

  return line != NULL && g_str_has_prefix (line, "Benchmark: ") &&
         (strstr (line, "% done") != NULL || strstr (line, "Waiting for the card in") != NULL);
}

/* Whether the simulated cards share a bus: the environment says so
 * before the program starts (tests/meson.build's app-simcard-bus). */
static gboolean
have_bus_group (void)
{
  const char *group = g_getenv ("CARDMARK_TEST_BUS_GROUP");

  return CM_TEST_HOOKS && group != NULL && group[0] != '\0';
}

/* One of the two rows says its card waits for the other card. */
static gboolean
a_row_waits (gpointer data)
{
  CardRow **rows = data;

  for (guint i = 0; i < 2; i++)
    {
      const char *line = row_second_line (rows[i]);
      g_autofree char *waits = g_strdup_printf ("Waiting for the card in %s", rows[1 - i]->device);

      if (line != NULL && strstr (line, waits) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The row shows this very job's status, as core words it now. */
static void
assert_row_shows_job (CardRow *card,
                      CmJob   *job)
{
  g_autofree char *status = cm_job_dup_status_text (job);

  g_assert_cmpstr (row_second_line (card), ==, status);
}

static GtkWidget *
find_check (GtkWidget *widget)
{
  if (GTK_IS_CHECK_BUTTON (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_check (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

typedef struct
{
  CmCardListPage *list;
  const char     *device;
} RowAt;

/* The card's row has not just moved (a click on it would be dropped). */
static gboolean
row_settled (gpointer data)
{
  RowAt *at = data;
  AdwActionRow *row = cm_card_list_page_get_row_for_device (at->list, at->device);

  return row != NULL &&
         !cm_card_list_page_row_just_moved (at->list, gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)));
}

static void
tick_card (CmCardListPage *list,
           const char     *device)
{
  RowAt at = { list, device };
  AdwActionRow *row;
  GtkWidget *check;

  /* A click on a row that has just moved is dropped: wait until it has not. */
  g_assert_true (cm_test_wait_for (row_settled, &at, 5));
  row = cm_card_list_page_get_row_for_device (list, device);
  check = find_check (GTK_WIDGET (row));
  g_assert_nonnull (check);
  g_assert_true (gtk_widget_get_visible (check));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  /* As Enter or a click on the row does in selection mode. */
  gtk_widget_activate (GTK_WIDGET (row));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
}

static CmJob *
job_of (Fixture    *f,
        const char *device)
{
  GListModel *jobs = cm_application_get_jobs (f->app);

  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (jobs, i);

      if (cm_job_is_active (job) && g_strcmp0 (cm_device_get_device (cm_job_get_device (job)), device) == 0)
        return job;
    }
  return NULL;
}

static guint
count_saved_for (const char *device)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) saved = cm_history_load (history, &problems, NULL);
  guint n = 0;

  for (guint i = 0; saved != NULL && i < saved->len; i++)
    n += g_strcmp0 (cm_result_get_device (g_ptr_array_index (saved, i)), device) == 0;
  return n;
}

/* Several cards at once from the card list (issue 25): "Select", tick
 * two cards, "Test 2 Cards"; each row shows its own benchmark; Stop on
 * one leaves the other running; the other's answer shows in its row;
 * tested again, both cards land in the history. */
static void
test_select_several (Fixture       *f,
                     gconstpointer  data)
{
  /* Slow reads (the raw read test reads only), so a run outlasts the
   * checks made while it goes. */
  const char *args[] = { "good-a1", "--size", "64MiB", "--", "--set", "read.bandwidth-mb-s=1", NULL };
  Fixture b = { 0 };
  CmCardListPage *list;
  CardRow row_a = { 0 }, row_b = { 0 };
  g_autoptr(CmJob) job_a = NULL;
  g_autoptr(CmJob) job_b = NULL;

  if (!card_up (f, args))
    return;
  b.card = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!card_up (&b, args))
    {
      g_hash_table_unref (b.card);
      return;
    }

  open_window (f);
  b.window = f->window;
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_test_wait_for (card_b_listed, &b, 20));
  list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  row_a = (CardRow) { list, card_get (f, "SIMCARD_DEV"), NULL };
  row_b = (CardRow) { list, card_get (&b, "SIMCARD_DEV"), NULL };

  /* Selecting: a row ticks its card rather than opening it. */
  cm_card_list_page_set_selection_mode (list, TRUE);
  g_assert_false (gtk_widget_is_sensitive (cm_card_list_page_get_test_button (list)));
  tick_card (list, row_a.device);
  tick_card (list, row_b.device);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
  g_assert_cmpuint (cm_card_list_page_get_n_selected (list), ==, 2);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cm_card_list_page_get_test_button (list))), ==, "_Test 2 Cards");
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-select");

  /* Verify 2 Cards… asks once, in red, naming each card; Cancel starts
   * nothing and the cards stay ticked. */
  gtk_widget_activate_action (GTK_WIDGET (list), "cards.verify-selected", NULL);
  {
    GtkWidget *dialog = dialog_titled ("Erase and Verify 2 Cards?");
    const char *body;

    g_assert_nonnull (dialog);
    body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));
    g_test_message ("%s", body);
    g_assert_nonnull (strstr (body, row_a.device));
    g_assert_nonnull (strstr (body, row_b.device));
    g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "verify"), ==,
                     ADW_RESPONSE_DESTRUCTIVE);
    if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
      {
        g_autofree char *path = g_build_filename (g_getenv ("CARDMARK_SCREENSHOT_DIR"),
                                                  "app-cards-verify-several-dialog.png", NULL);

        cm_test_settle (0.3);
        cm_test_save_png (dialog, path);
      }
    adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  }
  g_assert_cmpuint (count_active_jobs (f->app), ==, 0);
  g_assert_cmpuint (cm_card_list_page_get_n_selected (list), ==, 2);

  /* Escape leaves selection mode and forgets the ticks. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  g_assert_false (cm_card_list_page_get_selection_mode (list));
  g_assert_cmpuint (cm_card_list_page_get_n_selected (list), ==, 0);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
  cm_card_list_page_set_selection_mode (list, TRUE);
  tick_card (list, row_a.device);
  tick_card (list, row_b.device);

  /* Test 2 Cards: a benchmark on each, and selection mode ends. */
  cm_bench_set_test_plan ("tiny");
  gtk_widget_activate_action (GTK_WIDGET (list), "cards.test-selected", NULL);
  g_assert_false (cm_card_list_page_get_selection_mode (list));
  g_assert_cmpuint (count_active_jobs (f->app), ==, 2);
  job_a = g_object_ref (job_of (f, row_a.device));
  job_b = g_object_ref (job_of (f, row_b.device));
  g_assert_true (job_a != job_b);

  /* Each row shows its own job. */
  g_assert_true (cm_test_wait_for (row_shows_bench, &row_a, 30));
  g_assert_true (cm_test_wait_for (row_shows_bench, &row_b, 30));
  g_test_message ("A: %s", row_second_line (&row_a));
  g_test_message ("B: %s", row_second_line (&row_b));
  assert_row_shows_job (&row_a, job_a);
  assert_row_shows_job (&row_b, job_b);
  /* On one bus (meson's app-simcard-bus), one card measures while the
   * other's row says it waits for it, in core's words. */
  if (have_bus_group ())
    {
      CardRow *rows[] = { &row_a, &row_b };

      g_assert_true (cm_test_wait_for (a_row_waits, rows, 30));
      g_test_message ("A: %s", row_second_line (&row_a));
      g_test_message ("B: %s", row_second_line (&row_b));
      assert_row_shows_job (&row_a, job_a);
      assert_row_shows_job (&row_b, job_b);
    }
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-several");

  /* Stop on A's page stops A only. */
  g_assert_true (cm_window_open_path (f->window, row_a.device));
  g_assert_true (cm_window_get_running (f->window));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "cancel-test", NULL);
  g_assert_true (cm_test_wait_for (job_ended, job_a, 20));
  g_assert_cmpint (cm_job_get_state (job_a), ==, CM_JOB_STATE_CANCELLED);
  g_assert_true (cm_job_is_active (job_b));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
  g_assert_cmpstr (row_second_line (&row_a), ==, "Benchmark: stopped");
  g_assert_true (row_shows_bench (&row_b));

  /* B ends on its own; its row gives its answer. */
  g_assert_true (cm_test_wait_for (job_ended, job_b, 120));
  g_assert_cmpint (cm_job_get_state (job_b), ==, CM_JOB_STATE_DONE);
  g_test_message ("B: %s", row_second_line (&row_b));
  g_assert_true (g_str_has_prefix (row_second_line (&row_b), "Benchmark: "));
  g_assert_null (strstr (row_second_line (&row_b), "% done"));
  g_assert_cmpuint (count_saved_for (row_b.device), ==, 1);
  g_assert_cmpuint (count_saved_for (row_a.device), ==, 0);

  /* A again, on its own: both cards are in the history. */
  g_clear_object (&job_a);
  cm_card_list_page_set_selection_mode (list, TRUE);
  tick_card (list, row_a.device);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cm_card_list_page_get_test_button (list))), ==, "_Test 1 Card");
  gtk_widget_activate_action (GTK_WIDGET (list), "cards.test-selected", NULL);
  job_a = g_object_ref (job_of (f, row_a.device));
  g_assert_true (cm_test_wait_for (job_ended, job_a, 120));
  g_assert_cmpint (cm_job_get_state (job_a), ==, CM_JOB_STATE_DONE);
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));
  g_assert_cmpuint (count_saved_for (row_a.device), ==, 1);
  g_assert_cmpuint (count_saved_for (row_b.device), ==, 1);
  /* Each row still gives its own card's answer, however the list was
   * made anew meanwhile. */
  g_assert_true (g_str_has_prefix (row_second_line (&row_a), "Benchmark: "));
  g_assert_true (g_str_has_prefix (row_second_line (&row_b), "Benchmark: "));
  g_assert_cmpstr (row_second_line (&row_a), !=, "Benchmark: stopped");
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-several-done");

  cm_bench_set_test_plan (NULL);
  card_down (&b);
  g_hash_table_unref (b.card);
}

static gboolean
row_shows_wear (gpointer data)
{
  const char *line = row_second_line (data);

  return line != NULL && g_str_has_prefix (line, "Wear test: ") && strstr (line, "Round ") != NULL;
}

/* Wear Test N Cards… (issues 24 and 25): two cards ticked, one red
 * question naming both; each row shows its own wear test; Stop on one
 * leaves the other running to its end, in the history, while the
 * stopped one's row says it stopped. */
static void
test_wear_several (Fixture       *f,
                   gconstpointer  data)
{
  /* A is slow, so that it is stopped in its first round; B wears out in
   * a few rounds of a few seconds, outlasting A's stop. */
  const char *args_a[] = { "good-a1", "--size", "32MiB", "--", "--set", "write.bandwidth-mb-s=2",
                           "--set", "read.bandwidth-mb-s=4", NULL };
  const char *args_b[] = { "good-a1", "--size", "16MiB", "--", "--set", "write.bandwidth-mb-s=8",
                           "--set", "read.bandwidth-mb-s=16", "--set", "wear.writes=3", "--set", "wear.spread=0.5",
                           "--set", "wear.seed=7", NULL };
  Fixture b = { 0 };
  CmCardListPage *list;
  CardRow row_a = { 0 }, row_b = { 0 };
  GtkWidget *dialog;
  const char *body;
  g_autoptr(CmJob) job_a = NULL;
  g_autoptr(CmJob) job_b = NULL;
  g_autoptr(CmResult) saved = NULL;

  if (!card_up (f, args_a))
    return;
  b.card = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!card_up (&b, args_b))
    {
      g_hash_table_unref (b.card);
      return;
    }

  open_window (f);
  b.window = f->window;
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_test_wait_for (card_b_listed, &b, 20));
  list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  row_a = (CardRow) { list, card_get (f, "SIMCARD_DEV"), NULL };
  row_b = (CardRow) { list, card_get (&b, "SIMCARD_DEV"), NULL };

  cm_card_list_page_set_selection_mode (list, TRUE);
  g_assert_false (gtk_widget_is_sensitive (cm_card_list_page_get_wear_button (list)));
  tick_card (list, row_a.device);
  tick_card (list, row_b.device);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cm_card_list_page_get_wear_button (list))), ==, "_Wear Test 2 Cards…");
  g_assert_true (gtk_widget_is_sensitive (cm_card_list_page_get_wear_button (list)));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-select-wear");

  /* One red question, naming both cards. */
  gtk_widget_activate_action (GTK_WIDGET (list), "cards.wear-selected", NULL);
  dialog = dialog_titled ("Erase and Wear Out 2 Cards?");
  g_assert_nonnull (dialog);
  body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));
  g_test_message ("%s", body);
  g_assert_nonnull (strstr (body, row_a.device));
  g_assert_nonnull (strstr (body, row_b.device));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "wear"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  g_assert_true (CM_IS_MAKER_FORM (adw_message_dialog_get_extra_child (ADW_MESSAGE_DIALOG (dialog))));
  save_dialog_at_sizes (f, dialog, "cards-wear-several-dialog");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "wear");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_false (cm_card_list_page_get_selection_mode (list));
  g_assert_cmpuint (count_active_jobs (f->app), ==, 2);
  job_a = g_object_ref (job_of (f, row_a.device));
  job_b = g_object_ref (job_of (f, row_b.device));
  g_assert_cmpstr (cm_job_get_kind (job_a), ==, "wear");
  g_assert_cmpstr (cm_job_get_kind (job_b), ==, "wear");

  /* Each row shows its own wear test. */
  g_assert_true (cm_test_wait_for (row_shows_wear, &row_a, 30));
  g_assert_true (cm_test_wait_for (row_shows_wear, &row_b, 30));
  g_test_message ("A: %s", row_second_line (&row_a));
  g_test_message ("B: %s", row_second_line (&row_b));
  assert_row_shows_job (&row_a, job_a);
  assert_row_shows_job (&row_b, job_b);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-wear-several");

  /* Stop on A's page stops A only, in its first round. */
  g_assert_true (cm_window_open_path (f->window, row_a.device));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "cancel-test", NULL);
  g_assert_true (cm_test_wait_for (job_ended, job_a, 5));
  g_assert_cmpint (cm_job_get_state (job_a), ==, CM_JOB_STATE_CANCELLED);
  g_assert_true (cm_job_is_active (job_b));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
  g_assert_cmpstr (row_second_line (&row_a), ==, "Wear test: stopped");

  /* B wears out on its own: its answer in its row, its document in the
   * history; A, stopped before a round ended, has none. */
  g_assert_true (cm_test_wait_for (job_ended, job_b, 90));
  g_assert_cmpint (cm_job_get_state (job_b), ==, CM_JOB_STATE_DONE);
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));
  g_test_message ("B: %s", row_second_line (&row_b));
  g_assert_true (g_str_has_prefix (row_second_line (&row_b), "Wear test: "));
  g_assert_null (strstr (row_second_line (&row_b), "% done"));
  saved = dup_saved_wear (row_b.device);
  g_assert_nonnull (saved);
  g_assert_cmpstr (cm_result_get_endurance (saved)->stopped, ==, "half-bad");
  g_assert_cmpuint (count_saved_for (row_a.device), ==, 0);
  g_assert_cmpstr (row_second_line (&row_a), ==, "Wear test: stopped");
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-wear-several-done");

  card_down (&b);
  g_hash_table_unref (b.card);
}

static gboolean
row_shows_verify (gpointer data)
{
  const char *line = row_second_line (data);

  return line != NULL && g_str_has_prefix (line, "Full verify: ") && strstr (line, "% done") != NULL;
}

/* Whether the focus is in @card's row, and the row is inside the part
 * of the window that is shown. */
static gboolean
row_focused_in_view (CardRow *card)
{
  AdwActionRow *row = cm_card_list_page_get_row_for_device (card->list, card->device);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (card->list));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  graphene_rect_t bounds;

  if (row == NULL || focus == NULL ||
      (focus != GTK_WIDGET (row) && !gtk_widget_is_ancestor (focus, GTK_WIDGET (row))) ||
      !gtk_widget_get_mapped (GTK_WIDGET (row)) ||
      !gtk_widget_compute_bounds (GTK_WIDGET (row), GTK_WIDGET (root), &bounds))
    return FALSE;
  return bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (GTK_WIDGET (root));
}

static gboolean
a_row_focused_in_view (gpointer data)
{
  CardRow **rows = data;

  return row_focused_in_view (rows[0]) || row_focused_in_view (rows[1]);
}

/* Verify N Cards… (issue 33): once the user agrees, selection mode ends,
 * the first card's row takes the focus and is in view, each row shows
 * its own verify and then its answer. */
static void
test_verify_several (Fixture       *f,
                     gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "16MiB", "--", "--set", "write.bandwidth-mb-s=8",
                         "--set", "read.bandwidth-mb-s=16", NULL };
  Fixture b = { 0 };
  CmCardListPage *list;
  CardRow row_a = { 0 }, row_b = { 0 };
  GtkWidget *dialog;
  g_autoptr(CmJob) job_a = NULL;
  g_autoptr(CmJob) job_b = NULL;

  if (!card_up (f, args))
    return;
  b.card = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!card_up (&b, args))
    {
      g_hash_table_unref (b.card);
      return;
    }

  open_window (f);
  b.window = f->window;
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_test_wait_for (card_b_listed, &b, 20));
  list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  row_a = (CardRow) { list, card_get (f, "SIMCARD_DEV"), NULL };
  row_b = (CardRow) { list, card_get (&b, "SIMCARD_DEV"), NULL };

  cm_card_list_page_set_selection_mode (list, TRUE);
  tick_card (list, row_a.device);
  tick_card (list, row_b.device);
  gtk_widget_activate_action (GTK_WIDGET (list), "cards.verify-selected", NULL);
  dialog = dialog_titled ("Erase and Verify 2 Cards?");
  g_assert_nonnull (dialog);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "verify");
  gtk_window_close (GTK_WINDOW (dialog));

  g_assert_false (cm_card_list_page_get_selection_mode (list));
  g_assert_cmpuint (count_active_jobs (f->app), ==, 2);
  job_a = g_object_ref (job_of (f, row_a.device));
  job_b = g_object_ref (job_of (f, row_b.device));
  g_assert_cmpstr (cm_job_get_kind (job_a), ==, "verify");
  g_assert_cmpstr (cm_job_get_kind (job_b), ==, "verify");
  {
    CardRow *rows[] = { &row_a, &row_b };

    g_assert_true (cm_test_wait_for (a_row_focused_in_view, rows, 30));
  }

  g_assert_true (cm_test_wait_for (row_shows_verify, &row_a, 30));
  g_assert_true (cm_test_wait_for (row_shows_verify, &row_b, 30));
  g_test_message ("A: %s", row_second_line (&row_a));
  g_test_message ("B: %s", row_second_line (&row_b));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "cards-verify-several");

  g_assert_true (cm_test_wait_for (job_ended, job_a, 120));
  g_assert_true (cm_test_wait_for (job_ended, job_b, 120));
  g_assert_cmpint (cm_job_get_state (job_a), ==, CM_JOB_STATE_DONE);
  g_assert_cmpint (cm_job_get_state (job_b), ==, CM_JOB_STATE_DONE);
  g_assert_true (cm_test_wait_for (app_idle, f->app, 20));
  g_test_message ("A: %s", row_second_line (&row_a));
  g_test_message ("B: %s", row_second_line (&row_b));
  g_assert_true (g_str_has_prefix (row_second_line (&row_a), "Full verify: "));
  g_assert_true (g_str_has_prefix (row_second_line (&row_b), "Full verify: "));
  g_assert_null (strstr (row_second_line (&row_a), "% done"));
  g_assert_cmpuint (count_saved_for (row_a.device), ==, 1);
  g_assert_cmpuint (count_saved_for (row_b.device), ==, 1);

  card_down (&b);
  g_hash_table_unref (b.card);
}

/* One sentence for a busy card, across processes: while the app
 * verifies a card, cardmark-cli refuses to benchmark it with the lock's
 * sentence, the one core gives a second job in the app. */
static void
test_cli_refused (Fixture       *f,
                  gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "64MiB", "--", "--set", "write.bandwidth-mb-s=6",
                         "--set", "read.bandwidth-mb-s=12", NULL };
  const char *argv[] = { g_getenv ("CARDMARK_CLI"), "bench", NULL, "--raw", NULL };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "CARDMARK_TEST_PLAN", "tiny", TRUE);
  g_autoptr(CmJob) second = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const GError *refusal;
  CmVerifyRow *row;
  int status;

  if (!card_up (f, args))
    return;

  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  row = start_verify (f);
  g_assert_true (cm_test_wait_for (verify_writing, row, 30));

  /* A second job on the card in this process: core's refusal. */
  second = cm_job_new ("capacity", card_get (f, "SIMCARD_DEV"));
  cm_job_list_start (cm_job_list_get_default (), second);
  g_assert_true (cm_test_wait_for (job_ended, second, 10));
  refusal = cm_job_get_error (second);
  g_assert_error ((GError *) refusal, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY);
  g_test_message ("refused: %s", refusal->message);
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));

  argv[2] = card_get (f, "SIMCARD_DEV");
  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("cardmark-cli: %s", err);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (err, refusal->message));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
}

/* A card another CardMark program holds (issue 49). */
typedef struct
{
  Fixture *f;
  GPid     pid;
  gboolean listed;  /* the list's row says it too */
} Held;

static const char *
held_row_subtitle (Held *h)
{
  CmCardListPage *list = CM_CARD_LIST_PAGE (cm_window_get_page (h->f->window, "cards"));
  AdwActionRow *row = cm_card_list_page_get_row_for_device (list, card_get (h->f, "SIMCARD_DEV"));

  return row != NULL ? adw_action_row_get_subtitle (row) : NULL;
}

/* The card's page, and its row in the list, show the CLI's wear test. */
static gboolean
held_job_shown (gpointer data)
{
  Held *h = data;
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (h->f->window, "card"));
  g_autofree char *expected = g_strdup_printf ("Wear test in cardmark-cli, process %d: ", (int) h->pid);
  const char *text = page != NULL ? cm_card_page_get_outside_job_text (page) : NULL;
  const char *subtitle = held_row_subtitle (h);

  return text != NULL && g_str_has_prefix (text, expected) && g_strcmp0 (cm_card_page_get_job_bar_text (page), text) == 0
         && subtitle != NULL && strstr (subtitle, expected) != NULL;
}

/* …and both are idle again once it ended. */
static gboolean
held_job_gone (gpointer data)
{
  Held *h = data;
  CmCardPage *page = CM_CARD_PAGE (cm_window_get_page (h->f->window, "card"));
  const char *subtitle = held_row_subtitle (h);

  return page != NULL && cm_card_page_get_outside_job_text (page) == NULL && cm_card_page_get_job_bar_text (page) == NULL
         && subtitle != NULL && strstr (subtitle, "Wear test in cardmark-cli") == NULL;
}

/* While cardmark-cli wears a card out, the app shows that job on the
 * card's page and row, with its progress, its rows held with the reason
 * and no Stop; a benchmark the list starts on it is refused in a toast,
 * not kept as the card's answer; once the CLI's test ends, all is idle. */
static void
test_held_by_cli (Fixture       *f,
                  gconstpointer  data)
{
  const char *args[] = { "good-a1", "--size", "16MiB", "--", "--set", "write.bandwidth-mb-s=20",
                         "--set", "read.bandwidth-mb-s=40", NULL };
  const char *cli = g_getenv ("CARDMARK_CLI");
  g_autoptr(GError) error = NULL;
  Held held = { f, 0, FALSE };
  g_autofree char *err_path = g_build_filename (g_get_tmp_dir (), "cardmark-held-XXXXXX", NULL);
  CmCardPage *page;
  CmCardListPage *list;
  const char *text;
  const char *subtitle;
  int status;

  if (!card_up (f, args))
    return;
  g_assert_nonnull (cli);
  g_close (g_mkstemp (err_path), NULL);
  open_window (f);
  g_assert_true (cm_test_wait_for (card_listed, f, 20));
  g_assert_true (cm_window_open_path (f->window, card_get (f, "SIMCARD_DEV")));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_null (cm_card_page_get_outside_job_text (page));
  g_assert_true (gtk_widget_is_sensitive (cm_card_page_get_wear_row (page)));

  {
    /* exec: the shell's process is the CLI's. */
    const char *argv[] = { "/bin/sh", "-c", "exec \"$0\" endure \"$1\" --destroy-data --rounds 1000 2> \"$2\"",
                           cli, card_get (f, "SIMCARD_DEV"), err_path, NULL };

    g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                  NULL, NULL, &held.pid, &error));
    g_assert_no_error (error);
  }
  if (!cm_test_wait_for (held_job_shown, &held, 60))
    {
      g_autofree char *err = NULL;

      g_file_get_contents (err_path, &err, NULL, NULL);
      g_error ("not shown: page \"%s\", bar \"%s\", row \"%s\"; cardmark-cli: %s",
               cm_card_page_get_outside_job_text (page), cm_card_page_get_job_bar_text (page),
               held_row_subtitle (&held), err);
    }
  text = cm_card_page_get_outside_job_text (page);
  g_test_message ("held: %s; row: %s", text, held_row_subtitle (&held));
  /* Its rows are held, each saying why; nothing offers to carry on. */
  g_assert_false (gtk_widget_is_sensitive (cm_card_page_get_wear_row (page)));
  g_assert_false (gtk_widget_is_sensitive (cm_card_page_get_verify_row (page)));
  g_assert_false (gtk_widget_is_sensitive (cm_card_page_get_format_row (page)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (cm_card_page_get_wear_row (page)), ==, text);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "held-by-cli");

  /* Test 1 Card from the list: refused in a toast. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  cm_card_list_page_set_selection_mode (list, TRUE);
  tick_card (list, card_get (f, "SIMCARD_DEV"));
  gtk_widget_activate_action (GTK_WIDGET (list), "cards.test-selected", NULL);
  {
    g_autofree char *busy = g_strdup_printf ("This card is busy: a wear test (cardmark-cli endure, process %d) is running on it. "
                                             "Wait for it to finish or cancel it, then try again.", (int) held.pid);

    assert_toast_says (f, busy);
  }

  kill (held.pid, SIGINT);
  g_assert_cmpint (waitpid (held.pid, &status, 0), ==, held.pid);
  g_spawn_close_pid (held.pid);
  g_assert_true (cm_test_wait_for (held_job_gone, &held, 30));
  g_assert_true (gtk_widget_is_sensitive (cm_card_page_get_wear_row (page)));
  g_assert_null (gtk_widget_get_tooltip_text (cm_card_page_get_wear_row (page)));
  subtitle = held_row_subtitle (&held);
  g_test_message ("after: %s", subtitle);
  /* The refusal is no answer of the card's. */
  g_assert_null (strstr (subtitle, "busy"));
  g_unlink (err_path);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before anything asks GLib for the user's data folder, which it
   * keeps: a verify state or journal an earlier run left must not be
   * found. */
  cm_test_data_home_make ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  services_skip_reason = cm_test_services_up ();

  g_test_add ("/cardmark/app-simcard/raw-read", Fixture, NULL,
              fixture_set_up, test_raw_read, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/raw-write", Fixture, NULL,
              fixture_set_up, test_raw_write, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/same-as-cli", Fixture, NULL,
              fixture_set_up, test_same_as_cli, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/pi4-host", Fixture, NULL,
              fixture_set_up, test_pi4_host, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/read-only", Fixture, NULL,
              fixture_set_up, test_read_only, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/failing", Fixture, NULL,
              fixture_set_up, test_failing, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/detached", Fixture, NULL,
              fixture_set_up, test_detached, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/capacity-fake", Fixture, NULL,
              fixture_set_up, test_capacity_fake, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/verify-fake", Fixture, NULL,
              fixture_set_up, test_verify_fake, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/verify-other-card", Fixture, NULL,
              fixture_set_up, test_verify_other_card, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/wear", Fixture, NULL,
              fixture_set_up, test_wear, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/held-by-cli", Fixture, NULL,
              fixture_set_up, test_held_by_cli, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/format", Fixture, NULL,
              fixture_set_up, test_format, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/format-real", Fixture, NULL,
              fixture_set_up, test_format_real, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/wear-carry-on", Fixture, NULL,
              fixture_set_up, test_wear_carry_on, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/again-from-saved", Fixture, NULL,
              fixture_set_up, test_again_from_saved, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/again-while-busy", Fixture, NULL,
              fixture_set_up, test_again_while_busy, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/again-other-card", Fixture, NULL,
              fixture_set_up, test_again_other_card, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/capacity-genuine", Fixture, NULL,
              fixture_set_up, test_capacity_genuine, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/capacity-screens", Fixture, NULL,
              fixture_set_up, test_capacity_screens, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/restore-offer", Fixture, NULL,
              fixture_set_up, test_restore_offer, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/unmounted-under-page", Fixture, NULL,
              fixture_set_up, test_unmounted_under_page, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/capacity-keys", Fixture, NULL,
              fixture_set_up, test_capacity_keys, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/quit-during-check", Fixture, NULL,
              fixture_set_up, test_quit_during_check, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/jobs-keep-awake", Fixture, NULL,
              fixture_set_up, test_jobs_keep_awake, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/two-cards", Fixture, NULL,
              fixture_set_up, test_two_cards, fixture_tear_down);
  /* Once, on one bus (meson's app-simcard-bus), which asserts all it
   * asserts on buses of their own and that one card waits: 25 s that the
   * run without a bus group would spend again. Without the test hooks
   * there is no bus group, so every run has it. */
  if (have_bus_group () || !CM_TEST_HOOKS)
    g_test_add ("/cardmark/app-simcard/select-several", Fixture, NULL,
                fixture_set_up, test_select_several, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/verify-several", Fixture, NULL,
              fixture_set_up, test_verify_several, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/wear-several", Fixture, NULL,
              fixture_set_up, test_wear_several, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/cli-refused", Fixture, NULL,
              fixture_set_up, test_cli_refused, fixture_tear_down);
  g_test_add ("/cardmark/app-simcard/main-loop-stall", Fixture, NULL,
              fixture_set_up, test_main_loop_stall, fixture_tear_down);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
