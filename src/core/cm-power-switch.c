/* cm-power-switch.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A command runs through /bin/sh -c, as the person wrote it; its
 * output is theirs (it goes where ours goes). The switch-off command is
 * started while records are still being written, so the cut falls on
 * writes in flight; it is waited for once the card stopped answering.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-power-switch.h"
#include "cm-text.h"

const char *
cm_power_switch_method_to_string (CmPowerSwitchMethod method)
{
  switch (method)
    {
    case CM_POWER_SWITCH_COMMANDS:
      return "commands";
    case CM_POWER_SWITCH_BY_HAND:
      return "by-hand";
    default:
      return "commands";
    }
}

static GSubprocess *
spawn (const char  *command,
       GError     **error)
{
  const char *argv[] = { "/bin/sh", "-c", command, NULL };

  return g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_INHERIT, error);
}

/* Waits for @process; a command that failed is said with its status. */
static gboolean
wait_command (GSubprocess   *process,
              const char    *command,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autofree char *shown = NULL;

  if (!g_subprocess_wait (process, cancellable, error))
    {
      g_subprocess_force_exit (process);
      return FALSE;
    }
  if (g_subprocess_get_if_exited (process) && g_subprocess_get_exit_status (process) == 0)
    return TRUE;
  shown = cm_text_dup_clean (command, 200);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
               /* Translators: %s is the command the person gave, %d its exit status */
               _("The command “%s” failed (exit status %d), so the card's power could not be switched."),
               shown, g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1);
  return FALSE;
}

gboolean
cm_power_switch_start_off (CmPowerSwitch  *sw,
                           GError        **error)
{
  g_return_val_if_fail (sw != NULL && sw->running == NULL, FALSE);

  if (sw->method == CM_POWER_SWITCH_BY_HAND)
    {
      if (sw->say != NULL)
        sw->say (_("Pull the card or its reader out now."), sw->say_data);
      return TRUE;
    }
  sw->running = spawn (sw->off, error);
  return sw->running != NULL;
}

gboolean
cm_power_switch_finish_off (CmPowerSwitch  *sw,
                            GCancellable   *cancellable,
                            GError        **error)
{
  g_autoptr(GSubprocess) process = g_steal_pointer (&sw->running);

  if (process == NULL)
    return TRUE;
  return wait_command (process, sw->off, cancellable, error);
}

gboolean
cm_power_switch_on (CmPowerSwitch  *sw,
                    GCancellable   *cancellable,
                    GError        **error)
{
  g_autoptr(GSubprocess) process = NULL;

  if (sw->method == CM_POWER_SWITCH_BY_HAND)
    {
      if (sw->say != NULL)
        sw->say (_("Put the card back in."), sw->say_data);
      return TRUE;
    }
  process = spawn (sw->on, error);
  return process != NULL && wait_command (process, sw->on, cancellable, error);
}

void
cm_power_switch_clear (CmPowerSwitch *sw)
{
  if (sw->running != NULL)
    g_subprocess_force_exit (sw->running);
  g_clear_object (&sw->running);
  g_clear_pointer (&sw->off, g_free);
  g_clear_pointer (&sw->on, g_free);
}
