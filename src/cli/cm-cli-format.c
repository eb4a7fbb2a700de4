/* cm-cli-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli format DEVICE --destroy-data: erase the card (discard)
 * and format it as the SD File System Specification lays it out. The
 * work is core's (cm-job-format.c, cm-format.c, cm-format-layout.c);
 * this turns options into the job, shows its progress and prints what
 * it made.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "cm-format.h"
#include "cm-history.h"
#include "cm-job-format.h"
#include "cm-job-kinds.h"
#include "cm-size.h"
#include "cm-verify.h"

#include "cm-cli.h"
#include "cm-cli-jobs.h"

typedef struct
{
  gboolean    destroy;
  gboolean    bench;
  const char *label;
  guint64     use_bytes;
  gboolean    json;
  CmHistory  *history;
  int         signal_fd;
} Format;

/* The phase, the share done and the time left, on the card's progress
 * line; each change of them notifies, but a line is printed again only
 * when what it says changed. */
static void
progress_cb (CmJob       *job,
             GParamSpec  *pspec,
             CmCliTarget *t)
{
  g_autofree char *left = NULL;
  char *line;

  if (cm_job_get_phase (job) == NULL)
    return;
  if (cm_job_get_seconds_left (job) < 0)
    line = g_strdup_printf ("%s  %3.0f %%", cm_job_get_phase (job), cm_job_get_progress (job) * 100);
  else
    {
      left = cm_cli_format_duration (cm_job_get_seconds_left (job));
      line = g_strdup_printf ("%s  %3.0f %%  %s %s", cm_job_get_phase (job), cm_job_get_progress (job) * 100,
                              left, _("left"));
    }
  if (g_strcmp0 (line, g_object_get_data (G_OBJECT (job), "cm-cli-line")) == 0)
    {
      g_free (line);
      return;
    }
  g_object_set_data_full (G_OBJECT (job), "cm-cli-line", line, g_free);
  cm_cli_jobs_progress (t, "%s", line);
}

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Format *f = user_data;

  t->data = f;
  t->job = cm_job_new_of_kind (&cm_job_kind_format, t->target);
  cm_job_set_destroy_data (t->job, f->destroy);
  g_object_set (cm_job_get_options (t->job),
                "label", f->label,
                "size", f->use_bytes,
                "then-bench", f->bench,
                NULL);
  cm_job_set_history (t->job, f->history);
  g_signal_connect (t->job, "notify::progress", G_CALLBACK (progress_cb), t);
  g_signal_connect (t->job, "notify::phase", G_CALLBACK (progress_cb), t);
  g_signal_connect (t->job, "notify::seconds-left", G_CALLBACK (progress_cb), t);
  cm_cli_jobs_say (t, _("Erasing and formatting %s…\n"), t->target);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  /* INT, TERM, HUP and QUIT stop the format, which keeps nothing: the
   * card is left without a working file system, as the error then says. */
  return cm_cli_watch_end_signals_saying (((Format *) user_data)->signal_fd, cancellable,
                                          _("Stopping the format…"));
}

static void
print_report (CmResult *result)
{
  g_autoptr(CmFormatReport) report = cm_format_report_from_json (cm_result_get_part (result), NULL);
  g_autofree char *layout = NULL;
  g_autofree char *discard = NULL;
  g_autofree char *size = NULL;
  g_autofree char *check = NULL;
  g_autoptr(GPtrArray) speeds = NULL;

  if (report == NULL)
    return;
  layout = cm_format_report_dup_layout_text (report);
  discard = cm_format_report_dup_discard_text (report);
  size = g_format_size (report->layout.length);
  /* A window is a loop device over the partition's bytes, gone once
   * the format is done: no name of the partition to give. */
  if (report->window || report->partition == NULL)
    printf (_("Partition:    from byte %llu (%llu MiB in), %s\n"),
            (unsigned long long) report->layout.start, (unsigned long long) (report->layout.start >> 20), size);
  else
    printf (_("Partition:    %s, from byte %llu (%llu MiB in), %s\n"), report->partition,
            (unsigned long long) report->layout.start, (unsigned long long) (report->layout.start >> 20), size);
  printf (_("File system:  %s\n"), layout);
  if (report->label != NULL)
    printf (_("Label:        %s\n"), report->label);
  printf (_("Discard:      %s\n"), discard);
  check = cm_format_report_dup_check_text (report);
  printf (_("Check:        %s\n"), check);
  speeds = cm_format_dup_speed_lines (result);
  for (guint i = 0; i < speeds->len; i++)
    printf ("%s\n", (const char *) g_ptr_array_index (speeds, i));
  for (guint i = 0; i < cm_result_get_notes (result)->len; i++)
    if (!g_str_equal (g_ptr_array_index (cm_result_get_notes (result), i), discard))
      printf ("%s\n", (const char *) g_ptr_array_index (cm_result_get_notes (result), i));
  printf ("\n%s\n", cm_result_get_summary (result));
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Format *f = user_data;

  if (t->error != NULL)
    {
      /* A missing --destroy-data is a usage error, found before the
       * card is touched. */
      if (g_error_matches (t->error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT))
        {
          fprintf (stderr, "cardmark-cli: %s\n%s\n", t->error->message, _("Add --destroy-data to go ahead."));
          return CM_EXIT_USAGE;
        }
      else
        cm_cli_print_error (t->error);
      return CM_EXIT_FAILED;
    }
  if (json != NULL)
    *json = cm_result_to_json (t->result);
  else if (f->json)
    {
      g_autoptr(JsonNode) node = cm_result_to_json (t->result);

      cm_cli_print_json (node);
    }
  else
    print_report (t->result);
  if (cm_job_get_saved_file (t->job) != NULL)
    fprintf (stderr, _("Saved to %s\n"), g_file_peek_path (cm_job_get_saved_file (t->job)));
  else if (cm_job_get_save_error (t->job) != NULL)
    cm_cli_print_error (cm_job_get_save_error (t->job));
  return CM_EXIT_OK;
}

int
cm_cli_format (int    argc,
               char **argv)
{
  gboolean destroy = FALSE, json = FALSE, bench = FALSE;
  g_autofree char *label = NULL;
  g_autofree char *size = NULL;
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_NONE, &destroy, N_("Erase the whole device and everything on it"), NULL },
    { "label", 0, 0, G_OPTION_ARG_STRING, &label, N_("The card's name (FAT: 11 characters, exFAT: 15)"), "NAME" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Lay out only the first SIZE bytes (a fake card's real size), or \"real\": the real size its last capacity check or verify in the history found"), "SIZE|real" },
    { "bench", 0, 0, G_OPTION_ARG_NONE, &bench, N_("Then measure the card's speed (a quick raw benchmark), beside its last benchmark in the history"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result document as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE — erase a card and format it as the SD Association's formatter does"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = NULL;
  const CmCliJobsFuncs funcs = { prepare, finish, watch, NULL, cm_job_kind_format.name, NULL };
  Format f = { 0 };
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Discards the whole unmounted card (and says whether it honoured that: a few regions written before read back "
      "erased), writes one MBR partition starting on a 4 MiB boundary (or the card's allocation unit, or the "
      "specification's boundary unit, when larger), and makes the file system the SD File System Specification "
      "gives its size: FAT12/FAT16 up to 2 GiB, FAT32 with 32 KiB clusters up to 32 GiB, exFAT with 128 KiB clusters "
      "and more above. mkfs.fat (dosfstools) or mkfs.exfat (exfatprogs) make it and fsck -n checks it. Run by a user "
      "who is not root, it opens the card through UDisks (polkit asks), writes the same partition table, runs the "
      "same mkfs and fsck -n on an image of the partition in a temporary folder, copies the image onto the card "
      "and reads it back. On a fake "
      "card, --size lays out only the storage that holds data, so the partition ends where the storage does; "
      "--size real takes it from the card's last capacity check or full verify in the history. --bench then "
      "measures the card's speed (a quick raw benchmark that puts back what it writes) and sets it beside its "
      "last benchmark in the history: what the erase gave back. It "
      "destroys the card's data: that needs --destroy-data. The result is kept in the history. "
      "Exit status: 0 formatted and checked clean (or formatted where nothing could check it: the output says so), "
      "1 the format failed or its check found faults, "
      "5 stopped, 2 usage."));
  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 2)
    return cm_cli_usage_error (context, _("format needs one DEVICE, a whole card such as /dev/mmcblk0."));
  if (argv[1][0] == '\0')
    return cm_cli_usage_error (context, _("The DEVICE is empty. Give the card's device, such as /dev/mmcblk0."));
  if (label != NULL && !cm_format_check_label (label, CM_FORMAT_FS_FAT32, &error) &&
      !cm_format_check_label (label, CM_FORMAT_FS_EXFAT, NULL))
    return cm_cli_usage_error (context, error->message);
  g_clear_error (&error);
  if (g_strcmp0 (size, "real") == 0)
    f.use_bytes = CM_FORMAT_USE_REAL_SIZE;
  else if (size != NULL && !cm_size_parse (size, "--size", CM_FORMAT_MIN_SIZE, &f.use_bytes, &error))
    return cm_cli_usage_error (context, error->message);

  f.signal_fd = cm_cli_block_end_signals ();
  history = cm_cli_history_new ();
  f.destroy = destroy;
  f.bench = bench;
  f.label = label;
  f.json = json;
  f.history = history;
  status = cm_cli_jobs_run (&funcs, argv + 1, 1, json, &f);
  close (f.signal_fd);
  return status;
}
