/* cm-bench.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-device.h"
#include "cm-host.h"
#include "cm-plan.h"
#include "cm-result.h"
#include "cm-runner.h"

G_BEGIN_DECLS

/* How a card given as a device is tested. */
#define CM_TYPE_BENCH (cm_bench_get_type ())

G_DECLARE_FINAL_TYPE (CmBench, cm_bench, CM, BENCH, GObject)

CmBench     *cm_bench_new_for_path     (const char          *path,
                                        gboolean             raw,
                                        gboolean             allow_write) G_GNUC_WARN_UNUSED_RESULT;
CmBench     *cm_bench_new_for_device   (CmDevice            *device,
                                        CmMethod             method) G_GNUC_WARN_UNUSED_RESULT;

void         cm_bench_set_device       (CmBench             *self,
                                        CmDevice            *device);
void         cm_bench_set_card         (CmBench             *self,
                                        CmCardInfo          *card);
void         cm_bench_set_profile      (CmBench             *self,
                                        CmProfile            profile);
void         cm_bench_set_only         (CmBench             *self,
                                        const char * const  *tests);
void         cm_bench_set_sustained_limit (CmBench          *self,
                                        guint64              bytes);
void         cm_bench_set_prefer_udisks (CmBench            *self,
                                        gboolean             prefer_udisks);


void         cm_bench_run_async        (CmBench             *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
CmResult    *cm_bench_run_finish       (CmBench             *self,
                                        GAsyncResult        *result,
                                        GError             **error) G_GNUC_WARN_UNUSED_RESULT;

CmPlan      *cm_bench_new_plan         (CmProfile            profile,
                                        guint64              au_size_bytes) G_GNUC_WARN_UNUSED_RESULT;

/* For the tests: never environment variables a user could trip over. */
void         cm_bench_set_test_plan    (const char          *name);
void         cm_bench_set_host_for_testing (const CmHostFacts *facts);
const CmHostFacts *cm_bench_get_host_for_testing (void);

G_END_DECLS
