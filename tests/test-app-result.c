/* test-app-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a person reads first: the banner sums up every class (mixed
 * outcomes too), the headline figures show without scrolling at 800×480,
 * no label or summary carries an internal test name, the card page warns
 * before a run that its method can't judge the ticked classes, History
 * rows name the card's brand and the method and open or delete a past
 * result. Runs under Xvfb.
 *
 * The verdicts are the core's (cm_verdict_judge) on a result built from
 * figures chosen to land on each side of a class; the tests assert on the
 * classes and statuses the page shows, never on the figures typed in.
 *
 * With CARDMARK_SCREENSHOT_DIR set, the pages are saved as PNGs at
 * 800×480 and 1280×800, light and dark.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cm-power-report.h"
#include "cm-application.h"
#include "cm-backend.h"
#include "cm-card-item.h"
#include "cm-card-list-page.h"
#include "cm-card-page.h"
#include "cm-chart-kinds.h"
#include "cm-chart-view.h"
#include "cm-history-page.h"
#include "cm-run-page.h"
#include "cm-endurance.h"
#include "cm-result-page.h"
#include "cm-summary.h"
#include "cm-test-app.h"
#include "cm-test-table.h"
#include "cm-verdict.h"
#include "cm-window.h"

static const char *data_home;

static void
add_test (CmResult   *result,
          const char *name,
          double      mb_per_s,
          double      iops)
{
  CmTestResult *test = cm_test_result_new (name);

  test->mb_per_s = mb_per_s;
  test->iops = iops;
  test->seconds = 5;
  test->bytes = (guint64) (mb_per_s * 5e6);
  test->latency_us[0] = iops > 0 ? 1e6 / iops : 0;
  test->latency_us[1] = test->latency_us[0] * 1.5;
  test->latency_us[2] = test->latency_us[0] * 3;
  test->latency_us[3] = test->latency_us[0] * 10;
  if (g_str_has_prefix (name, "seq-"))
    test->sustained_mb_per_s = mb_per_s;
  cm_result_take_test (result, test);
}

typedef enum
{
  /* U3, V30 and A1 met; A2 can't be judged: the reader doesn't queue. */
  OUTCOME_MIXED,
  /* U3 met, A1 missed by far. */
  OUTCOME_BELOW,
  /* Nothing written: every class needs a write speed. */
  OUTCOME_READ_ONLY,
} Outcome;

/* A result of a USB 3 reader, judged by the core against the classes a
 * user would tick. */
static CmResult *
make_result (Outcome     outcome,
             const char *brand,
             int         minutes_ago)
{
  CmResult *result = cm_result_new ();
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) started = g_date_time_add_minutes (now, -minutes_ago);
  const char *claims[] = { "U3", "V30", "A1", "A2", NULL };
  gboolean writes = outcome != OUTCOME_READ_ONLY;
  /* Well clear of each class's line, one way or the other. */
  double write_mb_s = 60, rr = 3000, rw = 900;

  if (outcome == OUTCOME_BELOW)
    rr = 300, rw = 40;

  cm_result_set_started (result, started);
  cm_result_set_target (result, "/dev/sdx", writes ? "raw-write" : "raw-read", "/dev/sdx", "usb");
  cm_result_set_usb_speed_mbps (result, 5000);
  cm_result_set_name (result, "Loop device on card");
  cm_result_set_direct_io (result, TRUE);
  cm_card_info_set_brand (card, brand);
  cm_result_set_card (result, card);

  add_test (result, CM_TEST_SEQ_READ, 90, 90 / 4.194304);
  add_test (result, CM_TEST_RAND_READ_4K, rr * 0.004096, rr);
  add_test (result, CM_TEST_RAND_READ_4K_QD32, rr * 1.05 * 0.004096, rr * 1.05);
  if (writes)
    {
      add_test (result, CM_TEST_SEQ_WRITE, write_mb_s, write_mb_s / 4.194304);
      add_test (result, CM_TEST_RAND_WRITE_4K, rw * 0.004096, rw);
      add_test (result, CM_TEST_RAND_WRITE_4K_QD32, rw * 1.05 * 0.004096, rw * 1.05);
    }

  cm_verdict_judge (result, outcome == OUTCOME_BELOW ? (const char *[]) { "U3", "A1", NULL } : claims, "label");
  return result;
}

static char *
banner_text (CmResultPage *page)
{
  GtkWidget *banner = cm_test_find_by_css_class (GTK_WIDGET (page), "verdict-banner");
  GString *out = g_string_new (NULL);

  g_assert_nonnull (banner);
  cm_test_collect_labels (banner, out, FALSE);
  return g_string_free (out, FALSE);
}

static void
test_banner_mixed (void)
{
  g_autoptr(CmResult) mixed = make_result (OUTCOME_MIXED, "SanDisk", 0);
  g_autoptr(CmResult) below = make_result (OUTCOME_BELOW, "SanDisk", 0);
  g_autoptr(CmResult) read_only = make_result (OUTCOME_READ_ONLY, "SanDisk", 0);
  CmResultPage *page;
  g_autofree char *text = NULL;
  GtkWidget *banner;

  /* The core judged the claims as the fixture means them to be. */
  g_assert_cmpint (cm_result_lookup_claim (mixed, "U3")->status, ==, CM_STATUS_MEETS);
  g_assert_cmpint (cm_result_lookup_claim (mixed, "A2")->status, ==, CM_STATUS_NOT_JUDGED);

  /* Every class in one line, coloured by the definite answers. */
  page = g_object_ref_sink (cm_result_page_new (mixed));
  text = banner_text (page);
  g_test_message ("banner: %s", text);
  g_assert_nonnull (strstr (text, "Meets U3, V30 and A1"));
  g_assert_nonnull (strstr (text, "A2 can't be judged on this reader"));
  banner = cm_test_find_by_css_class (GTK_WIDGET (page), "verdict-banner");
  g_assert_true (gtk_widget_has_css_class (banner, "meets"));
  g_assert_false (gtk_widget_has_css_class (banner, "not-judged"));
  g_assert_cmpint (cm_result_page_get_status (page), ==, CM_STATUS_MEETS);
  g_assert_finalize_object (page);

  /* The worst definite answer leads and colours it. */
  page = g_object_ref_sink (cm_result_page_new (below));
  g_clear_pointer (&text, g_free);
  text = banner_text (page);
  g_assert_nonnull (strstr (text, "Below A1"));
  g_assert_nonnull (strstr (text, "Meets U3"));
  g_assert_true (strstr (text, "Below A1") < strstr (text, "Meets U3"));
  g_assert_true (gtk_widget_has_css_class (cm_test_find_by_css_class (GTK_WIDGET (page), "verdict-banner"), "below"));
  g_assert_finalize_object (page);

  /* A read-only run blames the method, not the reader. */
  page = g_object_ref_sink (cm_result_page_new (read_only));
  g_clear_pointer (&text, g_free);
  text = banner_text (page);
  g_test_message ("banner: %s", text);
  g_assert_nonnull (strstr (text, "U3, V30, A1 and A2 can't be judged by a read-only test"));
  g_assert_null (strstr (text, "reader"));
  g_assert_true (gtk_widget_has_css_class (cm_test_find_by_css_class (GTK_WIDGET (page), "verdict-banner"), "not-judged"));
  g_assert_finalize_object (page);
}

/* Internal names: every test's and every criterion's. */
static void
assert_no_internal_names (const char *text)
{
  const char *criteria[] = { "sustained-write", "random-read", "random-write" };

  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const char *name = cm_test_table_get_kind (i)->name;

      if (strstr (text, name) != NULL)
        g_error ("“%s” shows the internal name “%s”", text, name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (criteria); i++)
    if (strstr (text, criteria[i]) != NULL)
      g_error ("“%s” shows the internal name “%s”", text, criteria[i]);
}

static void
test_no_internal_names (void)
{
  Outcome outcomes[] = { OUTCOME_MIXED, OUTCOME_BELOW, OUTCOME_READ_ONLY };

  for (guint i = 0; i < G_N_ELEMENTS (outcomes); i++)
    {
      g_autoptr(CmResult) result = make_result (outcomes[i], "Lexar", 0);
      CmResultPage *page = g_object_ref_sink (cm_result_page_new (result));
      g_autoptr(GString) labels = g_string_new (NULL);
      g_autofree char *summary = cm_result_dup_text_summary (result);
      g_autofree char *date = cm_summary_dup_date (result);

      cm_test_collect_labels (GTK_WIDGET (page), labels, FALSE);
      g_assert_cmpuint (labels->len, >, 0);
      assert_no_internal_names (labels->str);
      assert_no_internal_names (summary);

      /* The summary says when, which card and how. */
      g_assert_nonnull (strstr (summary, date));
      g_assert_nonnull (strstr (summary, "Lexar"));
      g_assert_nonnull (strstr (summary, cm_summary_method_label (cm_result_get_target_mode (result))));
      g_assert_nonnull (strstr (summary, cm_test_table_get_label (CM_TEST_RAND_READ_4K_QD32)));
      g_assert_finalize_object (page);
    }

  /* Every other kind of document too: a full verify, whose tests have
   * internal names of their own, a capacity check and a wear test. */
  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(CmResult) result = cm_result_new ();
      g_autoptr(GString) labels = g_string_new (NULL);
      g_autofree char *summary = NULL;
      CmResultPage *page;

      if (k == 0)
        {
          g_autoptr(CmVerifySummary) verify = cm_verify_summary_new ();
          CmTestResult *write = cm_test_result_new (CM_TEST_VERIFY_WRITE);
          CmTestResult *read = cm_test_result_new (CM_TEST_VERIFY_READ);

          verify->mode = g_strdup ("files");
          verify->written_bytes = verify->checked_bytes = verify->usable_bytes = 1 << 20;
          write->mb_per_s = 20;
          read->mb_per_s = 40;
          cm_result_take_test (result, write);
          cm_result_take_test (result, read);
          cm_result_set_verify (result, verify);
        }
      else if (k == 1)
        {
          g_autoptr(CmCapacityReport) report = cm_capacity_report_new ();

          report->reported_bytes = report->real_bytes = 1 << 30;
          cm_result_set_capacity (result, report);
        }
      else
        {
          CmEndurance *endurance = cm_endurance_new ();

          for (guint r = 1; r <= 2; r++)
            {
              CmWearRound round = { .round = r, .write_mb_per_s = 20, .read_mb_per_s = 40,
                                    .sectors = 1 << 11, .bytes_written = (guint64) r << 20, .seconds = 1 };

              g_array_append_val (endurance->rounds, round);
            }
          cm_result_set_kind (result, "wear");
          cm_result_set_endurance (result, endurance);
          cm_endurance_free (endurance);
        }
      cm_result_set_target (result, "/dev/sdx", "raw-write", "/dev/sdx", NULL);
      page = g_object_ref_sink (cm_result_page_new (result));
      summary = cm_result_dup_text_summary (result);
      cm_test_collect_labels (GTK_WIDGET (page), labels, FALSE);
      g_test_message ("%s:\n%s", cm_result_get_kind (result), labels->str);
      assert_no_internal_names (labels->str);
      assert_no_internal_names (summary);
      g_assert_null (strstr (labels->str, CM_TEST_VERIFY_WRITE));
      g_assert_null (strstr (labels->str, CM_TEST_VERIFY_READ));
      g_assert_null (strstr (summary, CM_TEST_VERIFY_WRITE));
      g_assert_null (strstr (summary, CM_TEST_VERIFY_READ));
      if (k == 2)
        /* The card of this wear test did not tell its flash writes. */
        g_assert_nonnull (strstr (labels->str, "Not known: the card does not tell what it wrote to its flash"));
      g_assert_cmpint (cm_result_page_get_status (page), ==, CM_STATUS_MEETS);
      g_assert_finalize_object (page);
    }
}

/* A wear test whose card told its flash writes: the page gives the
 * rounds' write amplification, worked out from them. */
static void
test_wear_write_amplification (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(GString) labels = g_string_new (NULL);
  CmEndurance *endurance = cm_endurance_new ();
  CmResultPage *page;

  for (guint r = 1; r <= 2; r++)
    {
      CmWearRound round = { .round = r, .write_mb_per_s = 20, .read_mb_per_s = 40,
                            .sectors = 1 << 11, .bytes_written = (guint64) r << 20, .seconds = 1,
                            .flash_known = TRUE, .flash_bytes_written = (guint64) (r + 2) << 19 };

      g_array_append_val (endurance->rounds, round);
    }
  cm_result_set_kind (result, "wear");
  cm_result_set_endurance (result, endurance);
  cm_endurance_free (endurance);
  cm_result_set_target (result, "/dev/sdx", "raw-write", "/dev/sdx", NULL);
  page = g_object_ref_sink (cm_result_page_new (result));
  cm_test_collect_labels (GTK_WIDGET (page), labels, FALSE);
  g_test_message ("%s", labels->str);
  g_assert_nonnull (strstr (labels->str, "Write amplification"));
  g_assert_nonnull (strstr (labels->str, "1.50 to 2.00"));
  g_assert_null (strstr (labels->str, "Not known: the card does not tell"));
  g_assert_finalize_object (page);
}

/* A power-cut test's page says each cut as the CLI does, and where it
 * damaged data it was not writing. */
static void
test_power_cuts (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(GString) labels = g_string_new (NULL);
  g_autoptr(CmPowerReport) report = cm_power_report_new ();
  CmPowerCut kept = { .kept = 41, .old = 3 };
  CmPowerCut hit = { .kept = 17, .fresh = 1, .collateral = 4, .collateral_first = 1699840 };
  CmResultPage *page;

  report->cuts_planned = 2;
  report->area = 1 << 20;
  report->method = g_strdup ("commands");
  g_array_append_val (report->cuts, kept);
  g_array_append_val (report->cuts, hit);
  cm_result_set_kind (result, "power");
  {
    g_autoptr(JsonNode) part = cm_power_report_to_json (report);

    cm_result_set_part (result, part);
  }
  cm_result_set_target (result, "/dev/sdx", "raw-write", "/dev/sdx", NULL);
  page = g_object_ref_sink (cm_result_page_new (result));
  cm_test_collect_labels (GTK_WIDGET (page), labels, FALSE);
  g_test_message ("%s", labels->str);
  g_assert_nonnull (strstr (labels->str, "Cut 1: 41 confirmed records kept, 0 lost"));
  g_assert_nonnull (strstr (labels->str, "Cut 2: 17 confirmed records kept"));
  g_assert_nonnull (strstr (labels->str, "4 sectors it was not writing damaged, the first at byte 1699840"));
  g_assert_finalize_object (page);
}

typedef struct
{
  CmApplication *app;
  CmWindow      *window;
  CmHistory     *history;
} Fixture;

static void
clear_history (CmHistory *history)
{
  g_autofree char *path = g_file_get_path (cm_history_get_folder (history));
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);

      g_assert_cmpint (g_unlink (file), ==, 0);
    }
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->history = cm_history_new_default ();
  clear_history (f->history);
  f->window = cm_test_window_new (&f->app);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->window));
  g_clear_object (&f->app);
  clear_history (f->history);
  g_clear_object (&f->history);
}

static void
save_to_history (Fixture  *f,
                 CmResult *result)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = cm_history_save (f->history, result, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
}

static CmHistoryPage *
show_history (Fixture *f)
{
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  g_assert_true (cm_test_wait_page (f->window, "history", 10));
  g_assert_true (cm_test_wait_history_loaded (CM_HISTORY_PAGE (cm_window_get_page (f->window, "history")), 10));
  return CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
}

/* Whether the whole of @widget lies inside the visible part of the
 * scrolled window around it, scrolled to the top. */
static gboolean
visible_without_scrolling (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  graphene_rect_t bounds;

  g_assert_nonnull (scrolled);
  g_assert_true (gtk_widget_compute_bounds (widget, scrolled, &bounds));
  g_test_message ("strip from %.0f to %.0f of %d px", bounds.origin.y,
                  bounds.origin.y + bounds.size.height, gtk_widget_get_height (scrolled));
  return bounds.origin.y >= 0 && bounds.size.height > 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scrolled);
}

static void
test_headline_visible (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(CmResult) result = make_result (OUTCOME_MIXED, "SanDisk", 0);
  CmHistoryPage *history;
  GtkWidget *page, *strip;
  g_autoptr(GString) labels = g_string_new (NULL);
  int width, height;

  save_to_history (f, result);
  history = show_history (f);
  cm_history_page_open (history, 0);
  g_assert_true (cm_test_wait_page (f->window, "saved", 10));

  gtk_window_get_default_size (GTK_WINDOW (f->window), &width, &height);
  g_assert_cmpint (width, ==, 800);
  g_assert_cmpint (height, ==, 480);
  page = cm_window_get_page (f->window, "saved");
  strip = cm_test_find_by_css_class (page, "headline-strip");
  g_assert_nonnull (strip);
  g_assert_true (gtk_widget_get_mapped (strip));
  g_assert_true (visible_without_scrolling (strip));

  /* Each of the table's summary tests, by its label. */
  cm_test_collect_labels (strip, labels, FALSE);
  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    if (cm_test_table_get_kind (i)->summary)
      g_assert_nonnull (strstr (labels->str, cm_test_table_get_label (cm_test_table_get_kind (i)->name)));
  g_assert_nonnull (strstr (labels->str, "MB/s"));
  g_assert_nonnull (strstr (labels->str, "IOPS"));
  g_assert_nonnull (strstr (labels->str, " ms"));

  cm_test_save_screenshots (GTK_WIDGET (f->window), "result-mixed");
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      GtkWidget *details = cm_test_find_by_css_class (page, "details-table");
      GtkWidget *scrolled = gtk_widget_get_ancestor (details, GTK_TYPE_SCROLLED_WINDOW);
      graphene_rect_t bounds;

      cm_test_settle (0.5);
      g_assert_true (gtk_widget_compute_bounds (details, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)), &bounds));
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), bounds.origin.y - 60);
      cm_test_save_screenshot (GTK_WIDGET (f->window), "result-details", 800, 480, FALSE);
    }

  /* Copy Summary copies the result on screen, a past one too. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.copy-summary", NULL));
}

static void
test_history_rows (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(CmResult) older = make_result (OUTCOME_READ_ONLY, "Kingston", 90);
  g_autoptr(CmResult) newer = make_result (OUTCOME_BELOW, "Samsung", 10);
  CmHistoryPage *history;
  g_autoptr(GString) first = g_string_new (NULL);
  g_autoptr(GString) second = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  save_to_history (f, older);
  save_to_history (f, newer);
  history = show_history (f);
  g_assert_cmpuint (cm_history_page_get_n_results (history), ==, 2);

  /* Newest first, each naming its brand, method and verdict. */
  cm_test_collect_labels (cm_history_page_get_row (history, 0), first, FALSE);
  cm_test_collect_labels (cm_history_page_get_row (history, 1), second, FALSE);
  g_test_message ("rows:\n%s%s", first->str, second->str);
  g_assert_nonnull (strstr (first->str, "Samsung"));
  g_assert_nonnull (strstr (first->str, cm_summary_method_label ("raw-write")));
  g_assert_nonnull (strstr (first->str, "Below A1"));
  g_assert_nonnull (strstr (second->str, "Kingston"));
  g_assert_nonnull (strstr (second->str, cm_summary_method_label ("raw-read")));
  assert_no_internal_names (first->str);
  assert_no_internal_names (second->str);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-rows");

  /* Compare shows a table of figures, one column per card. */
  g_assert_true (cm_history_page_set_picked (history, 0, TRUE));
  g_assert_true (cm_history_page_set_picked (history, 1, TRUE));
  g_assert_true (cm_history_page_compare (history));
  {
    g_autoptr(GString) labels = g_string_new (NULL);

    cm_test_collect_labels (GTK_WIDGET (history), labels, FALSE);
    g_assert_nonnull (strstr (labels->str, "Kingston"));
    g_assert_nonnull (strstr (labels->str, "Samsung"));
    g_assert_nonnull (strstr (labels->str, cm_test_table_get_label (CM_TEST_SEQ_READ)));
  }
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-compare-table");
  g_assert_true (cm_history_page_go_back (history));

  /* Open the older one, come back, delete it: its file goes, the other stays. */
  cm_history_page_open (history, 1);
  g_assert_true (cm_test_wait_page (f->window, "saved", 10));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "history");

  g_assert_true (cm_history_page_delete (history, 1, &error));
  g_assert_no_error (error);
  /* That one item leaves the list; the newer stays, as it was. */
  g_assert_true (cm_test_wait_history_loaded (history, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (history), ==, 1);
  {
    g_autoptr(GString) shown = g_string_new (NULL);

    g_assert_true (cm_test_wait_history_loaded (history, 10));
    cm_test_collect_labels (cm_history_page_get_row (history, 0), shown, FALSE);
    g_assert_nonnull (strstr (shown->str, "Samsung"));
  }
  {
    g_autoptr(GPtrArray) left = cm_history_load (f->history, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (left->len, ==, 1);
    g_assert_cmpstr (cm_card_info_get_brand (cm_result_get_card (g_ptr_array_index (left, 0))), ==, "Samsung");
  }
}

/* A wear test of 12 rounds of 32 MiB, opened from History; @told: the
 * card told its flash writes (1.1, 1.2, … times the round), but not in
 * round 5. */
static CmResult *
make_wear_result (gboolean told)
{
  CmResult *result = cm_result_new ();
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  CmEndurance *endurance = cm_endurance_new ();
  guint64 sectors = (guint64) 32 << 11;

  for (guint r = 1; r <= 12; r++)
    {
      guint64 bad = r < 8 ? 0 : (guint64) 1 << (2 * (r - 8));
      CmWearRound round = { .round = r, .write_mb_per_s = 22 - r * 0.8, .read_mb_per_s = 80 - r,
                            .sectors = sectors, .bad_sectors = bad, .new_bad_sectors = bad,
                            .bytes_written = r * sectors * 512, .seconds = 4,
                            .flash_known = told && r != 5,
                            .flash_bytes_written = (guint64) (sectors * 512 * (1 + 0.1 * r)) };

      g_array_append_val (endurance->rounds, round);
    }
  endurance->stopped = g_strdup ("rounds");
  cm_result_set_started (result, now);
  cm_result_set_kind (result, "wear");
  cm_result_set_endurance (result, endurance);
  cm_endurance_free (endurance);
  cm_result_set_target (result, "/dev/mmcblk0", "raw-write", "/dev/mmcblk0", "sdhci");
  cm_card_info_set_brand (card, "SanDisk");
  cm_result_set_card (result, card);
  cm_result_set_name (result, "SanDisk Industrial 8GB");
  return result;
}

static gboolean
is_wear_chart (GtkWidget *widget)
{
  CmChartKind kind;

  return CM_IS_CHART_VIEW (widget) && cm_chart_view_get_chart_kind (CM_CHART_VIEW (widget), &kind) &&
         kind == CM_CHART_WEAR;
}

/* The wear chart of the result on screen, scrolled into view. */
static GtkWidget *
show_wear_chart (Fixture *f)
{
  GtkWidget *page = cm_window_get_page (f->window, "saved");
  GtkWidget *chart = cm_test_find_mapped (page, is_wear_chart);
  GtkAdjustment *adjustment;
  graphene_rect_t bounds;

  g_assert_nonnull (chart);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (chart, GTK_TYPE_SCROLLED_WINDOW)));
  cm_test_settle (0.3);
  /* Its bounds in the scrolled window, which move as it scrolls. */
  g_assert_true (gtk_widget_compute_bounds (chart, gtk_widget_get_ancestor (chart, GTK_TYPE_SCROLLED_WINDOW), &bounds));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + bounds.origin.y - 40);
  return chart;
}

/* The wear chart draws the write amplification where the card told it:
 * taller, to give it a panel, and said in the chart's text alternative;
 * a card that told nothing gets the chart as it was, and words that say
 * it is not known. */
static void
test_wear_chart_write_amplification (Fixture       *f,
                                     gconstpointer  data)
{
  g_autoptr(CmResult) silent = make_wear_result (FALSE);
  g_autoptr(CmResult) told = make_wear_result (TRUE);
  CmHistoryPage *history;
  GtkWidget *chart;
  g_autofree char *told_words = NULL;
  g_autofree char *silent_words = NULL;
  int told_height, silent_height;

  save_to_history (f, silent);
  save_to_history (f, told);
  history = show_history (f);
  g_assert_cmpuint (cm_history_page_get_n_results (history), ==, 2);

  /* Newest first: the card that told. */
  cm_history_page_open (history, 0);
  g_assert_true (cm_test_wait_page (f->window, "saved", 10));
  chart = show_wear_chart (f);
  told_height = gtk_drawing_area_get_content_height (GTK_DRAWING_AREA (chart));
  told_words = cm_chart_view_dup_description (CM_CHART_VIEW (chart));
  g_test_message ("%s", told_words);
  g_assert_nonnull (strstr (told_words, "Write amplification, the card's flash writes ÷ the test's: 1.10 to 2.20 per round."));
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      const int sizes[][2] = { { 800, 480 }, { 1280, 800 } };

      for (guint i = 0; i < G_N_ELEMENTS (sizes) * 2; i++)
        {
          gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i / 2][0], sizes[i / 2][1]);
          cm_test_settle (0.5);
          show_wear_chart (f);
          cm_test_save_screenshot (GTK_WIDGET (f->window), "wear-write-amplification",
                                   sizes[i / 2][0], sizes[i / 2][1], i % 2 == 1);
        }
      gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 480);
    }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL));
  cm_history_page_open (history, 1);
  g_assert_true (cm_test_wait_page (f->window, "saved", 10));
  chart = show_wear_chart (f);
  silent_height = gtk_drawing_area_get_content_height (GTK_DRAWING_AREA (chart));
  silent_words = cm_chart_view_dup_description (CM_CHART_VIEW (chart));
  g_assert_nonnull (strstr (silent_words, "its write amplification is not known."));
  g_assert_cmpint (silent_height, ==, cm_chart_kind_get_widget_height (CM_CHART_WEAR));
  g_assert_cmpint (told_height, >, silent_height);
}

static void
test_method_warning (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(CmCardItem) item = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, "USB 3 reader", NULL);
  CmCardPage *page = g_object_ref_sink (cm_card_page_new (item));
  const char *claims[] = { "U3", "A1", NULL };

  /* Read-only with nothing ticked: nothing to warn of. */
  g_assert_true (cm_card_page_set_method (page, CM_METHOD_RAW_READ));
  g_assert_null (cm_card_page_get_method_warning (page));

  /* Ticked classes the method can't judge are named before the run. */
  cm_card_page_set_claims (page, claims);
  g_assert_nonnull (cm_card_page_get_method_warning (page));
  g_assert_nonnull (strstr (cm_card_page_get_method_warning (page), "U3 and A1"));

  /* The method that can is offered, and taking it clears the warning. */
  g_assert_true (cm_card_page_accept_method_fix (page));
  g_assert_cmpint (cm_card_page_get_method (page), ==, CM_METHOD_RAW_WRITE);
  g_assert_null (cm_card_page_get_method_warning (page));

  g_assert_finalize_object (page);

  /* The same card in the window, as a user sees the warning. */
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
      CmCardPage *shown;

      g_list_store_append (store, item);
      cm_window_set_devices (f->window, G_LIST_MODEL (store));
      g_signal_emit_by_name (cm_window_get_page (f->window, "cards"), "item-activated", item);
      shown = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
      g_assert_true (cm_card_page_set_method (shown, CM_METHOD_RAW_READ));
      cm_card_page_set_claims (shown, claims);
      cm_test_save_screenshots (GTK_WIDGET (f->window), "card-method-warning");
    }
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_height (data) > 0;
}

/* The live chart at 800×480 with a quick run's six tests: the whole
 * chart, legend included, shows without scrolling. */
static void
test_live_chart_fits (void)
{
  const char * const claims[] = { "U3", "V30", "A1", NULL };
  const char *tests[] = {
    CM_TEST_SEQ_WRITE, CM_TEST_SEQ_READ, CM_TEST_RAND_WRITE_4K,
    CM_TEST_RAND_READ_4K, CM_TEST_RAND_WRITE_4K_QD32, CM_TEST_RAND_READ_4K_QD32,
  };
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  CmRunPage *page = cm_run_page_new ("Loop device on card", claims);
  CmChartView *chart = cm_run_page_get_chart (page);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page));
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  gtk_window_present (GTK_WINDOW (window));

  /* Each test's speed rises and settles, as a card's does. */
  for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
    {
      cm_run_page_set_test (page, i, G_N_ELEMENTS (tests), tests[i]);
      for (guint j = 1; j <= 8; j++)
        cm_run_page_add_sample (page, tests[i], j * 0.5, (60.0 - 9 * i) * (1 - 0.5 / j));
    }
  cm_run_page_set_progress (page, 0.9, 4);
  g_assert_true (cm_test_wait_for (is_mapped, chart, 10));
  g_assert_true (visible_without_scrolling (GTK_WIDGET (chart)));
  g_assert_cmpuint (cm_chart_view_get_n_series (chart), ==, G_N_ELEMENTS (tests));

  cm_test_save_screenshots (GTK_WIDGET (window), "running-chart");
  cm_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before anything asks GLib for the user's data folder, which it keeps. */
  data_home = cm_test_data_home_make ();

  cm_test_app_init (&argc, &argv);

  g_test_add_func ("/cardmark/app-result/banner-mixed", test_banner_mixed);
  g_test_add_func ("/cardmark/app-result/no-internal-names", test_no_internal_names);
  g_test_add_func ("/cardmark/app-result/wear-write-amplification", test_wear_write_amplification);
  g_test_add_func ("/cardmark/app-result/live-chart-fits", test_live_chart_fits);
  g_test_add_func ("/cardmark/app-result/power-cuts", test_power_cuts);
  g_test_add ("/cardmark/app-result/headline-visible", Fixture, NULL,
              fixture_set_up, test_headline_visible, fixture_tear_down);
  g_test_add ("/cardmark/app-result/history-rows", Fixture, NULL,
              fixture_set_up, test_history_rows, fixture_tear_down);
  g_test_add ("/cardmark/app-result/method-warning", Fixture, NULL,
              fixture_set_up, test_method_warning, fixture_tear_down);
  g_test_add ("/cardmark/app-result/wear-chart-write-amplification", Fixture, NULL,
              fixture_set_up, test_wear_chart_write_amplification, fixture_tear_down);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
