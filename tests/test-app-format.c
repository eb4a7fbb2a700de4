/* test-app-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Erase and Format… on a card's page (cm-format-row.c): a folder has no
 * such row; a mounted card and the system's disk are refused and the row
 * says why; the red confirmation names the card (name, size, device) and
 * what it gets, and keeps its answer off while the label is one the
 * file system does not take. As root, on a loop device: a card another
 * job holds is refused, in the words of core's lock, and left as it
 * was; and a 256 MiB card is formatted through the row, its layout read
 * back from the card, its file system found by blkid and checked clean
 * by fsck.fat here, and its result page says what was made. A check
 * that left a card erased offers Erase and Format… on its result page.
 * Runs under Xvfb.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "cm-app-history.h"
#include "cm-bench.h"
#include "cm-card-item.h"
#include "cm-card-lock.h"
#include "cm-card-page.h"
#include "cm-card-same.h"
#include "cm-format.h"
#include "cm-format-layout.h"
#include "cm-format-row.h"
#include "cm-outcome.h"
#include "cm-result-page.h"
#include "cm-summary.h"
#include "cm-test-app.h"
#include "cm-test-simcard.h"

typedef struct
{
  GtkWidget  *window;
  char       *folder;
  char       *image;
  char       *loop;
  GHashTable *card;       /* a simulated card's SIMCARD_* values */
  GPid        guard_pid;  /* and the guard that takes it down */
  int         guard_fd;
} Fixture;

/* Why the tests on a simulated card skip, when they do. */
static char *services_skip_reason;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 600);
  gtk_window_present (GTK_WINDOW (f->window));
  f->folder = g_dir_make_tmp ("cardmark-app-format-XXXXXX", NULL);
  g_assert_nonnull (f->folder);
  f->card = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
run_command (const char *command)
{
  int status = 0;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->window));
  if (f->guard_pid != 0)
    cm_test_simcard_down (g_hash_table_lookup (f->card, "SIMCARD_DIR"), &f->guard_pid, f->guard_fd);
  g_hash_table_unref (f->card);
  if (f->loop != NULL)
    {
      g_autofree char *command = g_strdup_printf ("losetup -d %s", f->loop);

      run_command (command);
    }
  if (f->image != NULL)
    g_assert_cmpint (g_unlink (f->image), ==, 0);
  g_assert_cmpint (g_rmdir (f->folder), ==, 0);
  g_free (f->folder);
  g_free (f->image);
  g_free (f->loop);
}

static CmCardPage *
show_page (Fixture    *f,
           CmCardItem *item)
{
  CmCardPage *page = cm_card_page_new (item);

  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (page));
  cm_test_settle (0.1);
  return page;
}

/* The row's own button saying @label (Format… or Stop). */
static GtkWidget *
row_button_saying (GtkWidget  *row,
                   const char *label)
{
  GtkWidget *found = NULL;
  GtkWidget *stack[64];
  guint n = 0;

  stack[n++] = row;
  while (n > 0)
    {
      GtkWidget *widget = stack[--n];

      if (GTK_IS_BUTTON (widget) && gtk_widget_get_visible (widget) &&
          g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
        found = widget;
      for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL && n < G_N_ELEMENTS (stack);
           child = gtk_widget_get_next_sibling (child))
        stack[n++] = child;
    }
  return found;
}

static GtkWidget *
row_button (GtkWidget *row)
{
  return row_button_saying (row, "_Format…");
}

static void
test_folder (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(CmCardItem) item = cm_card_item_new_folder (f->folder);
  CmCardPage *page = show_page (f, item);

  g_assert_null (cm_card_page_get_format_row (page));
  g_assert_false (cm_card_page_erase_and_format (page));
}

/* A refused card: the row says why, Format… is greyed out, and asking
 * anyway opens no dialog. */
static void
assert_refused (Fixture    *f,
                CmCardItem *item,
                const char *why)
{
  CmCardPage *page = show_page (f, item);
  GtkWidget *row = cm_card_page_get_format_row (page);
  g_autofree char *why_not = NULL;

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_mapped (row));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "Erase and Format…");
  why_not = cm_format_row_dup_why_not (CM_FORMAT_ROW (row));
  g_assert_cmpstr (why_not, ==, why);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, why);
  g_assert_nonnull (row_button (row));
  g_assert_false (gtk_widget_get_sensitive (row_button (row)));
  cm_kind_row_activate (CM_KIND_ROW (row));
  cm_test_settle (0.2);
  g_assert_null (cm_test_visible_dialog ());
  g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));
}

static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(CmCardItem) mounted = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, NULL, "/media/card");
  g_autoptr(CmCardItem) system = cm_card_item_new_device ("/dev/mmcblk0", "Card", 32000000000, NULL, NULL);

  assert_refused (f, mounted, "The card is mounted. Unmount it in Files (keep it in the reader) to format it.");
  cm_card_item_set_is_system (system, TRUE);
  assert_refused (f, system, "This disk holds the running system, so it is never formatted.");
}

/* Types @text in the dialog's label field. */
static void
type_label (GtkWidget  *dialog,
            const char *text)
{
  GtkWidget *row = cm_test_find_type (dialog, ADW_TYPE_ENTRY_ROW);

  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  cm_test_settle (0.05);
}

static GtkWidget *
open_dialog (GtkWidget *row)
{
  GtkWidget *dialog;

  cm_kind_row_activate (CM_KIND_ROW (row));
  /* The card's real size is looked up first, in another thread. */
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 60));
  dialog = cm_test_visible_dialog ();
  return dialog;
}

static void
test_confirm (Fixture       *f,
              gconstpointer  data)
{
  const guint64 size = 32000000000;
  g_autoptr(CmCardItem) item = cm_card_item_new_device ("/dev/sdx", "Kingston Canvas", size, NULL, NULL);
  CmCardPage *page = show_page (f, item);
  GtkWidget *row = cm_card_page_get_format_row (page);
  g_autofree char *size_text = g_format_size (size);
  g_autofree char *layout = NULL;
  g_autoptr(GError) error = NULL;
  CmFormatReport plan = { 0 };
  GtkWidget *dialog;
  const char *body;

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_sensitive (row_button (row)));
  /* What core plans for the card's size, said before anything is done. */
  g_assert_true (cm_format_layout_plan (size, 0, &plan.layout, &error));
  g_assert_no_error (error);
  layout = cm_format_report_dup_layout_text (&plan);

  dialog = open_dialog (row);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Erase and Format the Card?");
  body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));
  g_test_message ("%s", body);
  g_assert_nonnull (strstr (body, "“Kingston Canvas”"));
  g_assert_nonnull (strstr (body, size_text));
  g_assert_nonnull (strstr (body, "/dev/sdx"));
  g_assert_nonnull (strstr (body, "will be lost"));
  g_assert_nonnull (strstr (body, layout));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "format"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpstr (adw_message_dialog_get_default_response (ADW_MESSAGE_DIALOG (dialog)), ==, "cancel");
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "format"));
  /* No check of this card in the history: no real size to offer; the
   * one switch is the benchmark after, off. */
  g_assert_nonnull (cm_test_find_type (dialog, GTK_TYPE_SWITCH));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (cm_test_find_type (dialog, GTK_TYPE_SWITCH))));

  /* FAT32 takes 11 characters; the answer waits for one it takes. */
  type_label (dialog, "MUCH TOO LONG A NAME");
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "format"));
  g_assert_true (gtk_widget_has_css_class (cm_test_find_type (dialog, ADW_TYPE_ENTRY_ROW), "error"));
  type_label (dialog, "CARD");
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "format"));
  g_assert_false (gtk_widget_has_css_class (cm_test_find_type (dialog, ADW_TYPE_ENTRY_ROW), "error"));

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  cm_test_settle (0.1);
  g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  g_assert_null (cm_card_page_get_job (page));
}

/* A loop device over a sparse file of @size in the test's folder. */
static gboolean
make_card (Fixture *f,
           guint64  size)
{
  g_autofree char *command = NULL;
  int status = 0;

  if (getuid () != 0)
    {
      g_test_skip ("a loop device needs root");
      return FALSE;
    }
  f->image = g_build_filename (f->folder, "card.img", NULL);
  g_assert_true (g_file_set_contents (f->image, "", 0, NULL));
  g_assert_cmpint (truncate (f->image, size), ==, 0);
  command = g_strdup_printf ("losetup -f --show %s", f->image);
  g_assert_true (g_spawn_command_line_sync (command, &f->loop, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_strchomp (f->loop);
  return TRUE;
}

static char *
image_sum (Fixture *f)
{
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (f->image, FALSE, NULL);

  g_assert_nonnull (mapped);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guint8 *) g_mapped_file_get_contents (mapped),
                                      g_mapped_file_get_length (mapped));
}

static gboolean
row_idle (gpointer row)
{
  return !cm_kind_row_get_busy (CM_KIND_ROW (row));
}

static void
test_held (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmCardLock) lock = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *busy = NULL;
  CmCardPage *page;
  GtkWidget *row;
  GtkWidget *dialog;

  if (!make_card (f, 64 << 20))
    return;
  before = image_sum (f);
  item = cm_card_item_new_device (f->loop, "Card", 64 << 20, NULL, NULL);
  page = show_page (f, item);
  row = cm_card_page_get_format_row (page);
  /* Another job (here, as if another CardMark ran a wear test) holds it. */
  lock = cm_card_lock_take (f->loop, "a wear test", &error);
  g_assert_no_error (error);

  dialog = open_dialog (row);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "format");
  gtk_window_close (GTK_WINDOW (dialog));
  /* The job finds the card's lock held and ends before it opens it. */
  g_assert_true (cm_test_wait_for (row_idle, row, 30));

  busy = cm_card_lock_dup_busy_text ("a wear test");
  g_test_message ("%s", adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), busy));
  g_assert_null (cm_kind_row_get_result (CM_KIND_ROW (row)));
  after = image_sum (f);
  g_assert_cmpstr (before, ==, after);
}

static void
result_cb (GtkWidget  *row,
           CmResult   *result,
           CmResult  **out)
{
  g_set_object (out, result);
}

/* The first partition of the MBR on @device: start and length, bytes. */
static void
read_mbr (const char *device,
          guint64    *start,
          guint64    *length)
{
  g_autoptr(GFile) file = g_file_new_for_path (device);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, NULL);
  guint8 mbr[512];
  gsize got = 0;

  g_assert_nonnull (in);
  g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), mbr, sizeof mbr, &got, NULL, NULL));
  g_assert_cmpuint (got, ==, sizeof mbr);
  g_assert_cmpuint (mbr[510], ==, 0x55);
  g_assert_cmpuint (mbr[511], ==, 0xAA);
  *start = (guint64) GUINT32_FROM_LE (*(guint32 *) (mbr + 454)) * 512;
  *length = (guint64) GUINT32_FROM_LE (*(guint32 *) (mbr + 458)) * 512;
}

/* Runs @command on a read-only loop device over the partition's bytes. */
static int
on_partition (const char  *device,
              guint64      start,
              guint64      length,
              const char  *command,
              char       **out)
{
  g_autofree char *attach = g_strdup_printf ("losetup -f --show -r -o %" G_GUINT64_FORMAT " --sizelimit %" G_GUINT64_FORMAT " %s",
                                             start, length, device);
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

static guint
count_of (const char *text,
          const char *words)
{
  guint n = 0;

  for (const char *p = strstr (text, words); p != NULL; p = strstr (p + 1, words))
    n++;
  return n;
}

/* How many labels a person sees under @widget say @words (tooltips,
 * which cm_test_collect_labels() adds, are not counted). */
static guint
labels_saying (GtkWidget  *widget,
               const char *words)
{
  guint n = GTK_IS_LABEL (widget) && gtk_widget_is_visible (widget) &&
            strstr (gtk_label_get_text (GTK_LABEL (widget)), words) != NULL;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    n += labels_saying (child, words);
  return n;
}

static gboolean
has_fact (GtkWidget  *widget,
          const char *title,
          const char *subtitle)
{
  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    {
      /* The value is the row's suffix, or its subtitle for a sentence. */
      g_autoptr(GString) text = g_string_new (adw_action_row_get_subtitle (ADW_ACTION_ROW (widget)));

      cm_test_collect_labels (widget, text, TRUE);
      g_test_message ("%s", text->str);
      return strstr (text->str, subtitle) != NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (has_fact (child, title, subtitle))
      return TRUE;
  return FALSE;
}

static void
test_format (Fixture       *f,
             gconstpointer  data)
{
  const guint64 size = 256 << 20;
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmResult) result = NULL;
  g_autoptr(CmFormatReport) report = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autofree char *type = NULL;
  g_autofree char *fsck = NULL;
  g_autofree char *start_text = NULL;
  CmResultPage *result_page;
  CmCardPage *page;
  GtkWidget *row;
  GtkWidget *dialog;
  guint64 start, length;

  if (!make_card (f, size))
    return;
  if (!g_file_test ("/usr/sbin/mkfs.fat", G_FILE_TEST_EXISTS) && !g_file_test ("/sbin/mkfs.fat", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("dosfstools is not installed");
      return;
    }
  item = cm_card_item_new_device (f->loop, "Test Card", size, NULL, NULL);
  page = show_page (f, item);
  row = cm_card_page_get_format_row (page);
  g_signal_connect (row, "show-result", G_CALLBACK (result_cb), &result);

  dialog = open_dialog (row);
  type_label (dialog, "CARD");
  /* And a quick benchmark after it (the smallest plan). */
  cm_bench_set_test_plan ("tiny");
  gtk_switch_set_active (GTK_SWITCH (cm_test_find_type (dialog, GTK_TYPE_SWITCH)), TRUE);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "format");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  g_assert_true (cm_card_page_get_job (page) == cm_kind_row_get_job (CM_KIND_ROW (row)));
  /* Nothing else starts on the card meanwhile. */
  g_assert_false (gtk_widget_get_sensitive (cm_card_page_get_verify_row (page)));
  g_assert_true (cm_test_wait_for (row_idle, row, 120));
  g_assert_true (gtk_widget_get_sensitive (cm_card_page_get_verify_row (page)));

  g_assert_nonnull (result);
  g_assert_true (result == cm_kind_row_get_result (CM_KIND_ROW (row)));
  g_assert_cmpstr (cm_result_get_kind (result), ==, "format");
  outcome = cm_result_dup_outcome (result);
  g_test_message ("%s: %s", outcome->badge, outcome->answer);
  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_PASS);
  /* The row keeps the format kind's own answer in sight. */
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, outcome->answer);

  /* What the document says is what is on the card. */
  report = cm_format_report_from_json (cm_result_get_part (result), NULL);
  g_assert_nonnull (report);
  read_mbr (f->loop, &start, &length);
  g_test_message ("partition from %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " bytes", start, length);
  g_assert_cmpuint (start, ==, report->layout.start);
  g_assert_cmpuint (length, ==, report->layout.length);
  g_assert_cmpuint (start % (4 << 20), ==, 0);
  g_assert_cmpuint (start + length, <=, size);
  g_assert_cmpint (on_partition (f->loop, start, length, "blkid -p -o value -s TYPE", &type), ==, 0);
  g_assert_cmpstr (g_strstrip (type), ==, "vfat");
  g_assert_cmpint (on_partition (f->loop, start, length, "fsck.fat -n", &fsck), ==, 0);
  g_assert_true (report->fsck_clean);
  g_assert_cmpstr (report->label, ==, "CARD");

  /* Its page: the layout, the partition, the erase, the check. */
  result_page = cm_result_page_new (result);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (result_page));
  cm_test_settle (0.2);
  start_text = g_format_size_full (start, G_FORMAT_SIZE_IEC_UNITS);
  g_assert_true (has_fact (GTK_WIDGET (result_page), "Partition", start_text));
  g_assert_true (has_fact (GTK_WIDGET (result_page), "File system", "FAT16"));
  g_assert_true (has_fact (GTK_WIDGET (result_page), "File system check", "Clean"));
  g_assert_true (has_fact (GTK_WIDGET (result_page), "Erase", "discard"));
  g_assert_true (has_fact (GTK_WIDGET (result_page), "Label", "CARD"));
  /* Each said once: the erase, and what was laid out. */
  {
    g_autoptr(GString) text = g_string_new (NULL);
    g_autofree char *discard = cm_format_report_dup_discard_text (report);

    cm_test_collect_labels (GTK_WIDGET (result_page), text, TRUE);
    g_assert_cmpuint (count_of (text->str, discard), ==, 1);
    g_assert_cmpuint (labels_saying (GTK_WIDGET (result_page), "Laid out"), ==, 1);
  }
  /* The benchmark after the erase: the document's tests, on its page. */
  g_assert_nonnull (cm_result_lookup_test (result, "seq-write"));
  g_assert_cmpfloat (cm_result_lookup_test (result, "seq-write")->mb_per_s, >, 0);
  g_assert_true (has_fact (GTK_WIDGET (result_page), "Speed before and after", "Sequential write: "));
  g_assert_true (has_fact (GTK_WIDGET (result_page), "Speed before and after", "after"));
}

/* As a user who is not root (CARDMARK_FORMAT_VIA_UDISKS: the tests run
 * as root): the card is open through UDisks and the file system made on
 * an image of the partition with the specification's layout, checked
 * and copied onto the card. A 34 GiB card gets exFAT with the
 * specification's cluster size (the plan's, as root's route makes it),
 * checked by fsck -n and read back: its row and page say "Formatted"
 * and "Clean", and nothing says UDisks chose the layout. */
static void
test_through_udisks (Fixture       *f,
                     gconstpointer  data)
{
  const guint64 size = G_GUINT64_CONSTANT (34) << 30;
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmResult) result = NULL;
  g_autoptr(CmFormatReport) report = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autofree char *type = NULL;
  g_autofree char *fsck_out = NULL;
  CmFormatLayout plan;
  CmResultPage *result_page;
  CmCardPage *page;
  GtkWidget *row;
  GtkWidget *dialog;
  guint64 start, length;

  if (!make_card (f, size))
    return;
  if (!g_file_test ("/usr/sbin/mkfs.exfat", G_FILE_TEST_EXISTS) && !g_file_test ("/sbin/mkfs.exfat", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("exfatprogs is not installed");
      return;
    }
  g_setenv ("CARDMARK_FORMAT_VIA_UDISKS", "1", TRUE);
  item = cm_card_item_new_device (f->loop, "Test Card", size, NULL, NULL);
  page = show_page (f, item);
  row = cm_card_page_get_format_row (page);
  g_signal_connect (row, "show-result", G_CALLBACK (result_cb), &result);

  dialog = open_dialog (row);
  g_assert_true (cm_format_layout_plan (size, 0, &plan, NULL));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "and checks it"));
  g_assert_null (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "UDisks"));
  type_label (dialog, "CARD");
  cm_test_save_screenshots (dialog, "format-confirm-user");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "format");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (row_idle, row, 120));
  g_unsetenv ("CARDMARK_FORMAT_VIA_UDISKS");

  g_assert_nonnull (result);
  report = cm_format_report_from_json (cm_result_get_part (result), NULL);
  g_assert_nonnull (report);
  g_assert_true (report->through_image);
  g_assert_false (report->through_udisks);
  g_assert_cmpint (report->layout.fs, ==, plan.fs);
  g_assert_cmpuint (report->layout.cluster, ==, plan.cluster);
  g_assert_cmpuint (report->copied_bytes, >, 0);
  read_mbr (f->loop, &start, &length);
  g_assert_cmpuint (start, ==, report->layout.start);
  g_assert_cmpuint (length, ==, report->layout.length);
  g_assert_cmpint (on_partition (f->loop, start, length, "blkid -p -o value -s TYPE", &type), ==, 0);
  g_assert_cmpstr (g_strstrip (type), ==, "exfat");
  g_assert_true (report->fsck_ran);
  g_assert_true (report->fsck_clean);
  /* The card's own bytes, checked here too. */
  g_assert_cmpint (on_partition (f->loop, start, length, "fsck.exfat -n", &fsck_out), ==, 0);
  outcome = cm_result_dup_outcome (result);
  g_test_message ("%s: %s", outcome->badge, outcome->answer);
  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpstr (outcome->badge, ==, "Formatted");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, outcome->answer);

  result_page = cm_result_page_new (result);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (result_page));
  cm_test_settle (0.2);
  g_assert_true (has_fact (GTK_WIDGET (result_page), "File system check", "Clean"));
  g_assert_true (has_fact (GTK_WIDGET (result_page), "File system", "exFAT"));
  g_assert_cmpuint (labels_saying (GTK_WIDGET (result_page), "not checked"), ==, 0);
  g_assert_cmpuint (labels_saying (GTK_WIDGET (result_page), "UDisks made the file system"), ==, 0);
  cm_test_save_screenshots (f->window, "format-result-user");
}

/* A simulated card of 256 MiB with @args set in its model: FALSE, after
 * g_test_skip(), where none can be attached. */
static gboolean
simcard_up (Fixture            *f,
            const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  if (services_skip_reason != NULL)
    {
      g_test_skip (services_skip_reason);
      return FALSE;
    }
  g_ptr_array_add (argv, (char *) "good-a1");
  g_ptr_array_add (argv, (char *) "--size");
  g_ptr_array_add (argv, (char *) "256MiB");
  g_ptr_array_add (argv, (char *) "--");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  if (!cm_test_simcard_up ((const char * const *) argv->pdata, f->card, &f->guard_pid, &f->guard_fd))
    return FALSE;
  run_command ("udevadm settle");
  return TRUE;
}

/* The format's private temporary folders (cardmark-format-XXXXXX) in
 * this test's own temporary folder, and how many hold an image. */
static guint
format_folders (guint *images)
{
  g_autoptr(GDir) dir = g_dir_open (g_get_tmp_dir (), 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  *images = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "cardmark-format-"))
      {
        g_autofree char *image = g_build_filename (g_get_tmp_dir (), name, "partition.img", NULL);

        n++;
        *images += g_file_test (image, G_FILE_TEST_EXISTS);
      }
  return n;
}

typedef struct
{
  GtkWidget  *row;
  const char *phase;
} Phase;

/* The row's progress says @phase. */
static gboolean
row_says_phase (gpointer data)
{
  Phase *p = data;
  const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (p->row));

  return !cm_kind_row_get_busy (CM_KIND_ROW (p->row)) ||
         (subtitle != NULL && g_str_has_prefix (subtitle, p->phase));
}

static void
count_result_cb (GtkWidget *row,
                 CmResult  *result,
                 guint     *n)
{
  (*n)++;
}

/* Starts a format of the card through the row, as a user does. */
static GtkWidget *
start_format (Fixture *f,
              guint   *results)
{
  const char *dev = g_hash_table_lookup (f->card, "SIMCARD_DEV");
  g_autoptr(CmCardItem) item = cm_card_item_new_device (dev, "Test Card", 256 << 20, NULL, NULL);
  CmCardPage *page = show_page (f, item);
  GtkWidget *row = cm_card_page_get_format_row (page);
  GtkWidget *dialog;

  g_signal_connect (row, "show-result", G_CALLBACK (count_result_cb), results);
  dialog = open_dialog (row);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "format");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  return row;
}

/* Screenshots of the page scrolled to @row, at each size. */
static void
shots_of_row (Fixture    *f,
              GtkWidget  *row,
              const char *name)
{
  const int sizes[][2] = { { 800, 480 }, { 1280, 800 } };

  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
      g_assert_true (cm_test_wait_drawn (f->window, 10));
      cm_test_scroll_to (row);
      cm_test_save_screenshot (f->window, name, sizes[i][0], sizes[i][1], FALSE);
      cm_test_save_screenshot (f->window, name, sizes[i][0], sizes[i][1], TRUE);
    }
}

/* Stop pressed, the row says so: the Stopped badge in a stopped job's
 * tone (never a success's), core's sentence of what state the card is
 * in, its Format… button back to format it again, no result and no
 * private temporary folder left. */
static void
stop_and_check (Fixture    *f,
                GtkWidget  *row,
                guint      *results,
                const char *says,
                const char *shot)
{
  GtkWidget *stop = row_button_saying (row, "_Stop");
  /* An earlier format of a card of this size, found in the history. */
  CmResult *before = cm_kind_row_get_result (CM_KIND_ROW (row));
  GtkWidget *badge;
  GtkWidget *dialog;
  guint images = 0;

  g_assert_nonnull (stop);
  gtk_widget_activate (stop);
  g_assert_true (cm_test_wait_for (row_idle, row, 60));
  cm_test_settle (0.1);

  g_test_message ("%s", adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, says);
  badge = cm_test_find_by_css_class (row, "status-not-judged");
  g_assert_nonnull (badge);
  g_assert_true (gtk_widget_is_visible (badge));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (badge)), ==, "Stopped");
  g_assert_null (cm_test_find_by_css_class (row, "status-meets"));
  g_assert_cmpuint (labels_saying (row, "Formatted"), ==, 0);
  g_assert_nonnull (row_button (row));
  g_assert_true (gtk_widget_get_sensitive (row_button (row)));
  /* No result of its own: the stopped format kept no document. */
  g_assert_true (cm_kind_row_get_result (CM_KIND_ROW (row)) == before);
  g_assert_cmpuint (*results, ==, 0);
  g_assert_cmpuint (format_folders (&images), ==, 0);
  shots_of_row (f, row, shot);

  /* Format again: the row's button opens the confirmation once more. */
  dialog = open_dialog (row);
  g_assert_nonnull (dialog);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (cm_test_dialog_gone, NULL, 10));
  g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));
}

/* As a user who is not root (the image route): the copy of the file
 * system onto the card is slow, as the card's cache is full (the
 * erase's samples and the table fill its 5 MiB; every later write goes
 * at 50 kB/s), so Stop lands while it copies. */
static void
test_stop_in_copy (Fixture       *f,
                   gconstpointer  data)
{
  const char *args[] = { "--set", "write.bandwidth-mb-s=400", "--set", "read.bandwidth-mb-s=800",
                         "--set", "cache.size=5MiB", "--set", "cache.after-bandwidth-mb-s=0.05", NULL };
  Phase copying = { NULL, "Writing the file system to the card" };
  guint results = 0, images = 0;

  if (!simcard_up (f, args))
    return;
  g_setenv ("CARDMARK_FORMAT_VIA_UDISKS", "1", TRUE);
  copying.row = start_format (f, &results);
  g_assert_true (cm_test_wait_for (row_says_phase, &copying, 120));
  g_unsetenv ("CARDMARK_FORMAT_VIA_UDISKS");
  g_test_message ("%s", adw_action_row_get_subtitle (ADW_ACTION_ROW (copying.row)));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (copying.row)));
  /* The image is there while it is copied, in a folder of its own. */
  g_assert_cmpuint (format_folders (&images), ==, 1);
  g_assert_cmpuint (images, ==, 1);
  stop_and_check (f, copying.row, &results,
                  "The format was stopped after the card was erased: the card has no working file system. "
                  "Format it again before you use it.", "format-stopped-copy");
}

/* A card whose erase takes time (40 ms for each MiB discarded, about
 * ten seconds): while it erases, the row's progress says so with a time
 * left above nothing, and Stop stops it there. */
static void
test_stop_in_erase (Fixture       *f,
                    gconstpointer  data)
{
  const char *args[] = { "--set", "write.bandwidth-mb-s=400", "--set", "read.bandwidth-mb-s=800",
                         "--set", "card.discard-us-per-mib=40000", NULL };
  Phase erasing = { NULL, "Erasing the card, " };
  guint results = 0;
  CmJob *job;
  const char *subtitle;

  if (!simcard_up (f, args))
    return;
  erasing.row = start_format (f, &results);
  job = cm_kind_row_get_job (CM_KIND_ROW (erasing.row));
  g_assert_nonnull (job);
  /* The erase's first pieces give its rate, so its time left. */
  g_assert_true (cm_test_wait_for (row_says_phase, &erasing, 60));
  while (cm_kind_row_get_busy (CM_KIND_ROW (erasing.row)) && cm_job_get_seconds_left (job) <= 0)
    g_main_context_iteration (NULL, TRUE);
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (erasing.row));
  g_test_message ("%s (%.1f s left)", subtitle, cm_job_get_seconds_left (job));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (erasing.row)));
  g_assert_true (g_str_has_prefix (subtitle, "Erasing the card, "));
  g_assert_cmpfloat (cm_job_get_seconds_left (job), >, 0);
  g_assert_nonnull (strstr (subtitle, " left"));
  {
    g_autofree char *left = cm_job_dup_progress_text (job);

    g_assert_cmpstr (subtitle, ==, left);
  }
  shots_of_row (f, erasing.row, "format-erasing");
  stop_and_check (f, erasing.row, &results,
                  "The format was stopped while it erased the card: some of the card's old data may be left on "
                  "it, and it has no working file system. Format it again before you use it.",
                  "format-stopped-erase");
}

static gboolean
erase_offered (CmResult *result)
{
  CmResultPage *page = cm_result_page_new (result);
  GtkWidget *found = NULL;
  GtkWidget *stack[256];
  guint n = 0;
  gboolean offered;

  g_object_ref_sink (page);
  stack[n++] = GTK_WIDGET (page);
  while (n > 0 && found == NULL)
    {
      GtkWidget *widget = stack[--n];

      if (GTK_IS_ACTIONABLE (widget) &&
          g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "win.erase-format") == 0)
        found = widget;
      for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL && n < G_N_ELEMENTS (stack);
           child = gtk_widget_get_next_sibling (child))
        stack[n++] = child;
    }
  g_assert_nonnull (found);
  offered = gtk_widget_get_visible (found);
  g_object_unref (page);
  return offered;
}

static CmResult *
document (const char *kind,
          const char *mode)
{
  CmResult *result = cm_result_new ();

  cm_result_set_kind (result, kind);
  cm_result_set_target (result, "/dev/sdx", mode, "/dev/sdx", NULL);
  return result;
}

static void
test_offer (Fixture       *f,
            gconstpointer  data)
{
  struct { const char *kind, *mode; gboolean offered; } cases[] = {
    { "verify", "raw-write", TRUE },     /* a full verify of the card */
    { "wear", "raw-write", TRUE },
    { "verify", "file", FALSE },         /* a verify in a folder */
    { "bench", "raw-write", FALSE },     /* puts back what it wrote */
    { "capacity", "raw-write", FALSE },  /* likewise */
    { "format", "raw-write", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CmResult) result = document (cases[i].kind, cases[i].mode);

      g_test_message ("%s in %s", cases[i].kind, cases[i].mode);
      g_assert_cmpint (erase_offered (result), ==, cases[i].offered);
    }
}

/* A fake card's capacity check in the history (tests/data/batch, a run's
 * own): the confirmation offers the real size by the figure the check
 * showed as its "Real size", not another; the partition, which ends
 * below it (at the last place read back, aligned), says where. */
static void
test_real_size_offer (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_getenv ("CARDMARK_SHARED"), "batch", "fake-capacity.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) check = cm_result_new_from_file (file, &error);
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  g_autoptr(GFile) saved = NULL;
  g_autoptr(GPtrArray) figures = NULL;
  g_autoptr(CmCardItem) item = NULL;
  g_autofree char *title = NULL;
  g_autofree char *end = NULL;
  g_autofree char *ends = NULL;
  const CmCapacityReport *report;
  const char *shown = NULL;
  const char *subtitle;
  CmFormatLayout layout = { 0 };
  AdwActionRow *offer;
  GtkWidget *dialog;

  g_assert_no_error (error);
  report = cm_result_get_capacity (check);
  g_assert_true (report->fake);
  cm_result_set_target (check, "/dev/sdx", "raw-write", "/dev/sdx", NULL);
  /* The card never left the reader since its check: its size may be lent. */
  cm_result_set_sighting (check, "test-boot/9");
  cm_card_set_sighting_for_testing ("/dev/sdx", "test-boot/9");
  saved = cm_history_save (history, check, &error);
  g_assert_no_error (error);
  /* The figure the check's page showed. */
  figures = cm_summary_dup_headline (check);
  for (guint i = 0; i < figures->len; i++)
    {
      CmHeadlineFigure *figure = g_ptr_array_index (figures, i);

      if (g_str_equal (figure->label, "Real size"))
        shown = figure->value;
    }
  g_assert_nonnull (shown);

  item = cm_card_item_new_device ("/dev/sdx", "Card", report->reported_bytes, NULL, NULL);
  dialog = open_dialog (cm_card_page_get_format_row (show_page (f, item)));
  title = g_strdup_printf ("Format to the _real size (%s)", shown);
  offer = cm_test_find_row_titled (dialog, title);
  if (offer == NULL)
    {
      g_autoptr(GString) labels = g_string_new (NULL);

      cm_test_collect_labels (dialog, labels, TRUE);
      g_test_message ("the dialog says: %s", labels->str);
    }
  g_assert_nonnull (offer);
  subtitle = adw_action_row_get_subtitle (offer);
  g_test_message ("%s: %s", title, subtitle);
  /* The partition the format lays out there ends short of it, and says where. */
  g_assert_true (cm_format_layout_plan (report->last_good_bytes, 0, &layout, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (layout.start + layout.length, <, report->real_bytes);
  end = g_format_size (layout.start + layout.length);
  ends = g_strdup_printf ("It ends at %s", end);
  g_assert_nonnull (strstr (subtitle, ends));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (cm_test_dialog_gone, NULL, 10));
  g_assert_true (g_file_delete (saved, NULL, NULL));
  cm_card_set_sighting_for_testing (NULL, NULL);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_autofree char *tmp = g_build_filename (g_getenv ("TMPDIR") != NULL ? g_getenv ("TMPDIR") : "/tmp",
                                           "cardmark-app-format-tmp-XXXXXX", NULL);

  /* A temporary folder of the test's own, before GLib is asked for it:
   * a stopped format's private folder must be gone from it. */
  g_assert_nonnull (g_mkdtemp (tmp));
  g_setenv ("TMPDIR", tmp, TRUE);
  g_setenv ("GTK_A11Y", "test", TRUE);
  cm_test_app_init (&argc, &argv);
  /* A format keeps its document in the history: a data folder of the
   * test's own. */
  cm_test_data_home_make ();

  g_test_add ("/cardmark/app-format/folder", Fixture, NULL, fixture_set_up, test_folder, fixture_tear_down);
  g_test_add ("/cardmark/app-format/refused", Fixture, NULL, fixture_set_up, test_refused, fixture_tear_down);
  g_test_add ("/cardmark/app-format/confirm", Fixture, NULL, fixture_set_up, test_confirm, fixture_tear_down);
  g_test_add ("/cardmark/app-format/held", Fixture, NULL, fixture_set_up, test_held, fixture_tear_down);
  g_test_add ("/cardmark/app-format/format", Fixture, NULL, fixture_set_up, test_format, fixture_tear_down);
  g_test_add ("/cardmark/app-format/through-udisks", Fixture, NULL, fixture_set_up, test_through_udisks, fixture_tear_down);
  g_test_add ("/cardmark/app-format/offer", Fixture, NULL, fixture_set_up, test_offer, fixture_tear_down);
  g_test_add ("/cardmark/app-format/real-size-offer", Fixture, NULL, fixture_set_up, test_real_size_offer, fixture_tear_down);
  g_test_add ("/cardmark/app-format/stop-in-copy", Fixture, NULL, fixture_set_up, test_stop_in_copy, fixture_tear_down);
  g_test_add ("/cardmark/app-format/stop-in-erase", Fixture, NULL, fixture_set_up, test_stop_in_erase, fixture_tear_down);
  services_skip_reason = cm_test_services_up ();

  status = g_test_run ();
  cm_test_data_home_remove ();
  g_assert_cmpint (g_rmdir (tmp), ==, 0);
  return status;
}
