/* cm-health-transport.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * CMD56, the SD general command, through the kernel's MMC_IOC_CMD: one
 * block read (or, for the two-step layout's first step, one block of
 * zeros written to the command, not to the card's data). The kernel
 * lets only CAP_SYS_RAWIO send it, on the whole device of a card in a
 * built-in slot; a USB reader passes no such command to its card.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <linux/mmc/ioctl.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cm-health-transport.h"
#include "cm-test-hooks.h"

/* From the kernel's include/linux/mmc/core.h, which is not exported:
 * an R1 response to an addressed data transfer command. */
#define RSP_PRESENT (1 << 0)
#define RSP_CRC     (1 << 2)
#define RSP_OPCODE  (1 << 4)
#define CMD_ADTC    (1 << 5)
#define RSP_SPI_S1  (1 << 7)
#define RSP_R1      (RSP_PRESENT | RSP_CRC | RSP_OPCODE)

#define GEN_CMD 56

gboolean
cm_health_ask_card (int        fd,
                    guint32    argument,
                    gboolean   write,
                    guint8    *reply,
                    GError   **error)
{
  struct mmc_ioc_cmd cmd;

  memset (&cmd, 0, sizeof cmd);
  memset (reply, 0, CM_HEALTH_REPLY_SIZE);
  cmd.write_flag = write ? 1 : 0;
  cmd.opcode = GEN_CMD;
  cmd.arg = argument;
  cmd.flags = write ? RSP_R1 | CMD_ADTC : RSP_SPI_S1 | RSP_R1 | CMD_ADTC;
  cmd.blksz = CM_HEALTH_REPLY_SIZE;
  cmd.blocks = 1;
  cmd.cmd_timeout_ms = CM_HEALTH_COMMAND_TIMEOUT_MS;
  cmd.data_timeout_ns = CM_HEALTH_COMMAND_TIMEOUT_MS * 1000000u;
  mmc_ioc_cmd_set_data (cmd, reply);
  if (cm_test_hook ("CARDMARK_TEST_GEN_CMD_REFUSED") != NULL || ioctl (fd, MMC_IOC_CMD, &cmd) != 0)
    {
      /* The tests' hook answers as the kernel does to a user without
       * CAP_SYS_RAWIO. */
      int saved = cm_test_hook ("CARDMARK_TEST_GEN_CMD_REFUSED") != NULL ? EPERM : errno;

      if (saved == EPERM || saved == EACCES)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                             _("Asking the card for its health needs administrator rights: run it as root."));
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                     _("The card did not answer the health command (CMD56): %s"), g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

/* Asks in every layout in turn, through @ask, until one answers in it. */
void
cm_health_read_with (CmHealthAskFunc   ask,
                     gpointer          data,
                     CmHealth         *health,
                     GError          **error)
{
  const guint32 *arguments = cm_health_arguments ();
  guint8 reply[CM_HEALTH_REPLY_SIZE];

  cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
  for (guint i = 0; arguments[i] != 0; i++)
    {
      g_autoptr(GError) local = NULL;

      if (arguments[i] == CM_HEALTH_ARG_TWO_STEP)
        (void) ask (data, CM_HEALTH_ARG_TWO_STEP_SET, TRUE, reply, NULL);
      if (!ask (data, arguments[i], FALSE, reply, &local))
        {
          /* Without the right to ask, no other argument fares better. */
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return;
            }
          continue;
        }
      if (cm_health_decode (reply, sizeof reply, arguments[i], health))
        return;
    }
}

static gboolean
ask_fd (gpointer   data,
        guint32    argument,
        gboolean   write,
        guint8    *reply,
        GError   **error)
{
  return cm_health_ask_card (GPOINTER_TO_INT (data), argument, write, reply, error);
}

void
cm_health_read_card (int        fd,
                     CmHealth  *health,
                     GError   **error)
{
  cm_health_read_with (ask_fd, GINT_TO_POINTER (fd), health, error);
}

/* How often each argument was asked of the replay, for ARG.N.bin. */
static GHashTable *asked;
G_LOCK_DEFINE_STATIC (asked);

static guint
count_ask (guint32 argument)
{
  guint n;

  G_LOCK (asked);
  if (asked == NULL)
    asked = g_hash_table_new (NULL, NULL);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (asked, GUINT_TO_POINTER (argument))) + 1;
  g_hash_table_insert (asked, GUINT_TO_POINTER (argument), GUINT_TO_POINTER (n));
  G_UNLOCK (asked);
  return n;
}

static gboolean
load_reply (const char *folder,
            guint32     argument,
            guint8     *reply)
{
  guint n = count_ask (argument);
  g_autofree char *numbered = g_strdup_printf ("%s/%08x.%u.bin", folder, argument, n);
  g_autofree char *plain = g_strdup_printf ("%s/%08x.bin", folder, argument);
  g_autofree char *data = NULL;
  gsize length = 0;

  if (!g_file_get_contents (numbered, &data, &length, NULL) &&
      !g_file_get_contents (plain, &data, &length, NULL))
    return FALSE;
  /* A reply of another length is what a card could not send. */
  memset (reply, 0, CM_HEALTH_REPLY_SIZE);
  memcpy (reply, data, MIN (length, CM_HEALTH_REPLY_SIZE));
  return length == CM_HEALTH_REPLY_SIZE;
}

void
cm_health_read_replay (const char *folder,
                       CmHealth   *health)
{
  const guint32 *arguments = cm_health_arguments ();
  guint8 reply[CM_HEALTH_REPLY_SIZE];

  g_return_if_fail (folder != NULL);

  cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
  for (guint i = 0; arguments[i] != 0; i++)
    if (load_reply (folder, arguments[i], reply) &&
        cm_health_decode (reply, sizeof reply, arguments[i], health))
      return;
}

const char *
cm_health_replay_folder (void)
{
  return cm_test_hook ("CARDMARK_TEST_GEN_CMD_DIR");
}
