/* cm-health-helper.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The unprivileged half of asking the card as root: pkexec runs
 * cardmark-read-health DEVICE (src/helper/), which sends only the
 * CMD56 reads of the layouts (and the two-step layout's argument
 * write), and prints each reply; the decoding happens here, as the
 * user, never as root. A Flatpak has no pkexec: the error says what to
 * do instead.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "cm-health-helper.h"
#include "cm-health-transport.h"
#include "cm-test-hooks.h"
#include "cm-text.h"

/* pkexec's own statuses: the user dismissed the dialog or was not
 * allowed (126), or no authentication could be had (127). */
#define PKEXEC_DISMISSED 126
#define PKEXEC_NOT_AUTHORIZED 127

/* The helper's statuses (src/helper/cardmark-read-health.c). */
#define HELPER_CARD_FAILED 1
#define HELPER_REFUSED 2

gboolean
cm_health_helper_may_help (void)
{
  return geteuid () != 0 || cm_test_hook ("CARDMARK_TEST_GEN_CMD_REFUSED") != NULL;
}

char *
cm_health_helper_format (guint32       argument,
                         const guint8 *reply)
{
  GString *line = g_string_sized_new (8 + 1 + 2 * CM_HEALTH_REPLY_SIZE + 1);

  g_return_val_if_fail (reply != NULL, NULL);

  g_string_append_printf (line, "%08x ", argument);
  for (guint i = 0; i < CM_HEALTH_REPLY_SIZE; i++)
    g_string_append_printf (line, "%02x", reply[i]);
  g_string_append_c (line, '\n');
  return g_string_free (line, FALSE);
}

static gboolean
parse_line (const char *line,
            guint32    *argument,
            guint8     *reply)
{
  guint64 value;

  if (strlen (line) != 8 + 1 + 2 * CM_HEALTH_REPLY_SIZE || line[8] != ' ')
    return FALSE;
  for (guint i = 0; i < 8; i++)
    if (!g_ascii_isxdigit (line[i]))
      return FALSE;
  value = g_ascii_strtoull (line, NULL, 16);
  *argument = (guint32) value;
  for (guint i = 0; i < CM_HEALTH_REPLY_SIZE; i++)
    {
      int hi = g_ascii_xdigit_value (line[9 + 2 * i]);
      int lo = g_ascii_xdigit_value (line[9 + 2 * i + 1]);

      if (hi < 0 || lo < 0)
        return FALSE;
      reply[i] = (guint8) (hi << 4 | lo);
    }
  return TRUE;
}

static void
bytes_free (gpointer data)
{
  g_bytes_unref (data);
}

/* The replies the helper printed, asked again in the layouts' order. */
static gboolean
ask_table (gpointer   data,
           guint32    argument,
           gboolean   write,
           guint8    *reply,
           GError   **error)
{
  GBytes *bytes;

  /* The helper sent the two-step layout's write itself. */
  if (write)
    return TRUE;
  bytes = g_hash_table_lookup (data, GUINT_TO_POINTER (argument));
  if (bytes == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no reply to %08x", argument);
      return FALSE;
    }
  memcpy (reply, g_bytes_get_data (bytes, NULL), CM_HEALTH_REPLY_SIZE);
  return TRUE;
}

gboolean
cm_health_helper_parse (const char  *output,
                        CmHealth    *health,
                        GError     **error)
{
  g_autoptr(GHashTable) replies = g_hash_table_new_full (NULL, NULL, NULL, bytes_free);
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (output != NULL, FALSE);
  g_return_val_if_fail (health != NULL, FALSE);

  cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
  if (strlen (output) > CM_HEALTH_HELPER_OUTPUT_MAX)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The health helper printed more than a card's replies. Reinstall CardMark."));
      return FALSE;
    }
  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint8 reply[CM_HEALTH_REPLY_SIZE];
      guint32 argument;

      if (lines[i][0] == '\0')
        continue;
      if (!parse_line (lines[i], &argument, reply))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("The health helper's reply was not understood. Reinstall CardMark."));
          return FALSE;
        }
      g_hash_table_replace (replies, GUINT_TO_POINTER (argument), g_bytes_new (reply, sizeof reply));
    }
  cm_health_read_with (ask_table, replies, health, NULL);
  return TRUE;
}

static char *
dup_helper_path (void)
{
  const char *hook = cm_test_hook ("CARDMARK_TEST_HEALTH_HELPER");

  return g_strdup (hook != NULL ? hook : LIBEXECDIR "/" CM_HEALTH_HELPER_NAME);
}

static char *
dup_pkexec (GError **error)
{
  const char *hook = cm_test_hook ("CARDMARK_TEST_PKEXEC");
  char *path;

  if (hook != NULL)
    return g_strdup (hook);
  /* A Flatpak's sandbox has no pkexec, and could not give root rights. */
  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The Flatpak cannot ask the card for its health: its sandbox cannot get administrator rights. "
                             "Install the cardmark-cli package and run “sudo cardmark-cli health DEVICE”."));
      return NULL;
    }
  if ((path = g_find_program_in_path ("pkexec")) == NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                         _("Asking the card for its health needs administrator rights, and pkexec is not installed. "
                           "Install pkexec (package pkexec or policykit-1), or run it as root."));
  return path;
}

static guint
timeout_ms (void)
{
  const char *hook = cm_test_hook ("CARDMARK_TEST_HEALTH_HELPER_TIMEOUT_MS");

  return hook != NULL ? (guint) g_ascii_strtoull (hook, NULL, 10) : CM_HEALTH_HELPER_TIMEOUT_MS;
}

typedef struct
{
  gboolean      done;
  gboolean      timed_out;
  GCancellable *cancellable;
  char         *out;
  char         *err;
  GError       *error;
} Wait;

static void
communicate_cb (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  Wait *wait = user_data;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (object), res, &wait->out, &wait->err, &wait->error);
  wait->done = TRUE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  Wait *wait = user_data;

  wait->timed_out = TRUE;
  g_cancellable_cancel (wait->cancellable);
  return G_SOURCE_REMOVE;
}

static void
outer_cancelled_cb (GCancellable *outer,
                    gpointer      user_data)
{
  g_cancellable_cancel (user_data);
}

/* Runs @argv to its end, or stops it after the timeout or when
 * @cancellable is cancelled; its stdout in @out. Runs in a worker: it
 * waits on a main context of its own. */
static GSubprocess *
run_helper (const char * const  *argv,
            GCancellable        *cancellable,
            char               **out,
            char               **err,
            GError             **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GSource) timeout = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  Wait wait = { FALSE, FALSE, stop, NULL, NULL, NULL };
  gulong handler = 0;

  g_main_context_push_thread_default (context);
  /* stdin stays the terminal's, for pkexec's own password prompt. */
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, error);
  if (process != NULL)
    {
      if (cancellable != NULL)
        handler = g_cancellable_connect (cancellable, G_CALLBACK (outer_cancelled_cb), stop, NULL);
      timeout = g_timeout_source_new (timeout_ms ());
      g_source_set_callback (timeout, timeout_cb, &wait, NULL);
      g_source_attach (timeout, context);
      g_subprocess_communicate_utf8_async (process, NULL, stop, communicate_cb, &wait);
      while (!wait.done)
        g_main_context_iteration (context, TRUE);
      g_source_destroy (timeout);
      if (handler != 0)
        g_cancellable_disconnect (cancellable, handler);
      if (wait.error != NULL)
        {
          g_subprocess_force_exit (process);
          g_subprocess_wait (process, NULL, NULL);
        }
    }
  g_main_context_pop_thread_default (context);

  if (process == NULL)
    return NULL;
  if (wait.timed_out)
    {
      g_clear_error (&wait.error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                           _("Asking the card for its health took too long: no password was given, or the card did not answer. Ask again."));
      return NULL;
    }
  if (wait.error != NULL)
    {
      g_propagate_error (error, wait.error);
      return NULL;
    }
  *out = wait.out;
  *err = wait.err;
  return g_steal_pointer (&process);
}

void
cm_health_read_through_helper (const char    *device,
                               CmHealth      *health,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autofree char *pkexec = NULL;
  g_autofree char *helper = dup_helper_path ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *said = NULL;
  g_autoptr(GSubprocess) process = NULL;
  const char *argv[4];
  int status;

  g_return_if_fail (device != NULL);
  g_return_if_fail (health != NULL);

  cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
  if ((pkexec = dup_pkexec (error)) == NULL)
    return;
  argv[0] = pkexec;
  argv[1] = helper;
  argv[2] = device;
  argv[3] = NULL;
  if ((process = run_helper (argv, cancellable, &out, &err, error)) == NULL)
    return;

  status = g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1;
  /* The helper's first line of complaint, if any, cleaned: it names
   * the device it refused. */
  if (err != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (err, "\n", 2);

      said = cm_text_dup_clean (lines[0] != NULL ? lines[0] : "", CM_TEXT_LINE_MAX);
    }
  switch (status)
    {
    case 0:
      cm_health_helper_parse (out, health, error);
      return;
    case PKEXEC_DISMISSED:
    case PKEXEC_NOT_AUTHORIZED:
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                           _("CardMark was not allowed to ask the card for its health: the administrator's password was not given. Ask again, or run it as root."));
      return;
    case HELPER_REFUSED:
    case HELPER_CARD_FAILED:
    default:
      if (said != NULL && *said != '\0')
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     /* Translators: %s is the helper's own message, e.g. "/dev/sda is not a card in a built-in slot (/dev/mmcblkN)." */
                     _("The card could not be asked for its health: %s"), said);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     _("The card could not be asked for its health: the helper %s stopped with status %d."), helper, status);
      return;
    }
}

void
cm_health_read_as_user (int            fd,
                        const char    *device,
                        CmHealth      *health,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GError) local = NULL;

  g_return_if_fail (device != NULL);
  g_return_if_fail (health != NULL);

  cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
  if (fd >= 0)
    cm_health_read_card (fd, health, &local);
  else
    g_set_error_literal (&local, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                         _("Asking the card for its health needs administrator rights: run it as root."));
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED) && cm_health_helper_may_help ())
    {
      g_clear_error (&local);
      cm_health_read_through_helper (device, health, cancellable, &local);
    }
  if (local != NULL)
    g_propagate_error (error, g_steal_pointer (&local));
}
