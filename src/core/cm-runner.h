/* cm-runner.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-plan.h"
#include "cm-result.h"
#include "cm-target.h"

G_BEGIN_DECLS

#define CM_TYPE_RUNNER (cm_runner_get_type ())

G_DECLARE_FINAL_TYPE (CmRunner, cm_runner, CM, RUNNER, GObject)

CmRunner *cm_runner_new          (CmTarget             *target,
                                  CmPlan               *plan) G_GNUC_WARN_UNUSED_RESULT;
guint     cm_runner_get_n_tests  (CmRunner             *self);
void      cm_runner_run_async    (CmRunner             *self,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
CmResult *cm_runner_run_finish   (CmRunner             *self,
                                  GAsyncResult         *result,
                                  GError              **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
