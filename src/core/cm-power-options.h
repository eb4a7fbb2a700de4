/* cm-power-options.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The power-cut test's settings (CmJobKind.options_type), with their
 * defaults and bounds in the property specs.
 */

#pragma once

#include <glib-object.h>

#include "cm-power-switch.h"

G_BEGIN_DECLS

#define CM_TYPE_POWER_OPTIONS (cm_power_options_get_type ())

G_DECLARE_FINAL_TYPE (CmPowerOptions, cm_power_options, CM, POWER_OPTIONS, GObject)

guint               cm_power_options_get_cuts        (CmPowerOptions *self);
guint64             cm_power_options_get_area        (CmPowerOptions *self);
CmPowerSwitchMethod cm_power_options_get_method      (CmPowerOptions *self);
const char         *cm_power_options_get_switch_off  (CmPowerOptions *self);
const char         *cm_power_options_get_switch_on   (CmPowerOptions *self);
double              cm_power_options_get_time_limit  (CmPowerOptions *self);

G_END_DECLS
