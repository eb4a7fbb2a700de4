/* cm-preferences.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CM_TYPE_PREFERENCES (cm_preferences_get_type ())

G_DECLARE_FINAL_TYPE (CmPreferences, cm_preferences, CM, PREFERENCES, AdwPreferencesWindow)

CmPreferences *cm_preferences_new (GtkWindow *parent);

G_END_DECLS
