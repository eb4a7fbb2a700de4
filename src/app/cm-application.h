/* cm-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-card-item.h"
#include "cm-job.h"

G_BEGIN_DECLS

#define CM_TYPE_APPLICATION (cm_application_get_type ())

G_DECLARE_FINAL_TYPE (CmApplication, cm_application, CM, APPLICATION, AdwApplication)

CmApplication *cm_application_new            (GApplicationFlags  flags) G_GNUC_WARN_UNUSED_RESULT;
GListModel    *cm_application_get_jobs       (CmApplication     *self);
gboolean       cm_application_get_busy       (CmApplication     *self);
void           cm_application_cancel_jobs    (CmApplication     *self);
gboolean       cm_application_get_inhibiting (CmApplication     *self);

G_END_DECLS
