/* cm-cli-health.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli health DEVICE…: how worn each card says it is (CMD56,
 * read-only, seconds). The read is core's health kind; this prints
 * what it found, or the document with --json.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cm-health.h"
#include "cm-history.h"
#include "cm-job.h"
#include "cm-outcome.h"

#include "cm-cli.h"
#include "cm-cli-decode.h"
#include "cm-cli-jobs.h"

typedef struct
{
  gboolean   json;
  CmHistory *history;
  int        signal_fd;
} Health;

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Health *health = user_data;

  t->job = cm_job_new_of_kind (&cm_job_kind_health, t->target);
  cm_job_set_history (t->job, health->history);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  return cm_cli_watch_end_signals (((Health *) user_data)->signal_fd, cancellable);
}

static void
print_count (const char *label,
             gint64      value)
{
  g_autoptr(GString) line = g_string_new (NULL);

  if (value < 0)
    return;
  cm_cli_pad (line, label, 22, FALSE);
  printf ("%s %" G_GINT64_FORMAT "\n", line->str, value);
}

/* The figures the card gave, one a line; the sentence first (decode
 * --gen-cmd prints them too). */
void
cm_cli_print_health (const CmHealth *health)
{
  g_autofree char *said = cm_health_describe (health);
  g_autofree char *flash = NULL;

  printf ("%s\n", said);
  if (health->state != CM_HEALTH_KNOWN)
    return;
  print_count (_("Spare blocks"), health->spare_blocks);
  print_count (_("Bad blocks"), health->bad_blocks);
  print_count (_("Fewest erases"), health->erase_min);
  print_count (_("Average erases"), health->erase_avg);
  print_count (_("Most erases"), health->erase_max);
  print_count (_("Power cycles"), health->power_cycles);
  if (health->flash_bytes_written >= 0)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      flash = g_format_size (health->flash_bytes_written);
      cm_cli_pad (line, _("Written to its flash"), 22, FALSE);
      printf ("%s %s\n", line->str, flash);
    }
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Health *health = user_data;
  CmCardInfo *card;
  GPtrArray *notes;

  if (t->error != NULL)
    {
      cm_cli_print_error (t->error);
      return CM_EXIT_FAILED;
    }
  card = cm_result_get_card (t->result);
  if (json != NULL)
    *json = cm_result_to_json (t->result);
  else if (health->json)
    {
      g_autoptr(JsonNode) node = cm_result_to_json (t->result);

      cm_cli_print_json (node);
    }
  else if (card != NULL && cm_card_info_get_health (card) != NULL)
    cm_cli_print_health (cm_card_info_get_health (card));
  notes = cm_result_get_notes (t->result);
  for (guint i = 0; !health->json && notes != NULL && i < notes->len; i++)
    fprintf (stderr, "%s\n", (const char *) g_ptr_array_index (notes, i));

  return CM_EXIT_OK;
}

/* A saved reply: exactly one 512-byte block, read within bounds. */
static gboolean
read_reply (const char  *filename,
            guint8      *reply,
            GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (filename);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, error);
  guint8 buffer[CM_HEALTH_REPLY_SIZE + 1];
  gsize length = 0;

  if (stream == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, sizeof buffer, &length, NULL, error))
    return FALSE;
  if (length != CM_HEALTH_REPLY_SIZE)
    {
      g_autofree char *name = cm_cli_dup_printable (filename, FALSE);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a saved CMD56 reply: one is exactly 512 bytes."), name);
      return FALSE;
    }
  memcpy (reply, buffer, CM_HEALTH_REPLY_SIZE);
  return TRUE;
}

/**
 * cm_cli_decode_gen_cmd:
 * @filename: a saved reply
 * @manufacturer_id: the CID's manufacturer, or -1
 *
 * Decodes a reply saved from a card (sdmon's -o, or the replay folder
 * of the tests) into the document's `health` object. A reply of no
 * signature is read as the two-step layout only from a Kingston card
 * (manufacturer 0x41), the one maker known to answer it.
 */
int
cm_cli_decode_gen_cmd (const char *filename,
                       int         manufacturer_id,
                       gboolean    json)
{
  guint8 reply[CM_HEALTH_REPLY_SIZE];
  g_autoptr(GError) error = NULL;
  CmHealth health;

  if (!read_reply (filename, reply, &error))
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }
  if (!cm_health_decode (reply, sizeof reply, CM_HEALTH_ARG_UNKNOWN, &health) && manufacturer_id == 0x41)
    (void) cm_health_decode (reply, sizeof reply, CM_HEALTH_ARG_TWO_STEP, &health);
  if (json)
    {
      g_autoptr(JsonNode) node = cm_health_to_json (&health);

      cm_cli_print_json (node);
    }
  else
    cm_cli_print_health (&health);
  return CM_EXIT_OK;
}

int
cm_cli_health (int    argc,
               char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result document as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE… — how worn the cards say they are"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = NULL;
  g_autofree char *description = NULL;
  const CmCliJobsFuncs funcs = { prepare, finish, watch, NULL, cm_job_kind_health.name, NULL };
  Health health = { 0, };
  int status;

  description = g_strdup_printf ("%s\n\n%s",
                                 _("Asks each card for the wear figures it keeps itself (the SD general command, CMD56): "
                                   "life used, spare and bad blocks, erase counts, power cycles, bytes written to its "
                                   "flash. Only industrial and high-endurance cards keep them, in their makers' own "
                                   "layouts; a card in a USB reader cannot be asked, only one in a built-in slot "
                                   "(/dev/mmcblkN), and the kernel lets only root ask it. The command reads; it "
                                   "writes nothing to the card."),
                                 cm_cli_jobs_describe ());
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context, description);
  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if ((status = cm_cli_check_operands (context, argc, argv, 1, G_MAXINT, _("health needs a DEVICE (or several)."))) != CM_EXIT_OK)
    return status;

  history = cm_cli_history_new ();
  health.json = json;
  health.history = history;
  health.signal_fd = cm_cli_block_end_signals ();
  status = cm_cli_jobs_run (&funcs, argv + 1, argc - 1, json, &health);
  close (health.signal_fd);
  return status;
}
