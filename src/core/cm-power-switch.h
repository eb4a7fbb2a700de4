/* cm-power-switch.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ways the power-cut test cuts a card's power and brings it back:
 * two commands the person gives (a relay, a smart plug, a lab supply),
 * or the person by hand (pull the reader out, put it back). Whichever,
 * the test sees the card go and come back itself (cm-power.c); a switch
 * only asks for it.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  CM_POWER_SWITCH_COMMANDS,
  CM_POWER_SWITCH_BY_HAND,
} CmPowerSwitchMethod;

/* What a switch by hand asks the person, in words, on the worker. */
typedef void (*CmPowerSayFunc) (const char *message,
                                gpointer    user_data);

typedef struct
{
  CmPowerSwitchMethod method;
  char               *off;       /* the commands, for CM_POWER_SWITCH_COMMANDS */
  char               *on;
  GSubprocess        *running;   /* the switch-off command, while it runs */
  CmPowerSayFunc      say;
  gpointer            say_data;
} CmPowerSwitch;

const char *cm_power_switch_method_to_string (CmPowerSwitchMethod method);
gboolean    cm_power_switch_start_off  (CmPowerSwitch  *sw,
                                        GError        **error);
gboolean    cm_power_switch_finish_off (CmPowerSwitch  *sw,
                                        GCancellable   *cancellable,
                                        GError        **error);
gboolean    cm_power_switch_on         (CmPowerSwitch  *sw,
                                        GCancellable   *cancellable,
                                        GError        **error);
void        cm_power_switch_clear      (CmPowerSwitch  *sw);

G_END_DECLS
