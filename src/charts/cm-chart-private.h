/* cm-chart-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the layout, the painter and the text alternative share.
 */

#pragma once

#include "cm-capacity-probe.h"
#include "cm-chart.h"
#include "cm-test-table.h"

G_BEGIN_DECLS


const char   *cm_chart_result_name     (CmResult    *result);
CmTestResult *cm_chart_lookup_test     (CmResult    *result,
                                        const char  *name);
gboolean      cm_chart_claim_is_stated (const CmClaim *claim);
gboolean      cm_chart_test_status     (CmResult    *result,
                                        const char  *test,
                                        CmStatus    *status);
GPtrArray    *cm_chart_sweep_tests     (CmResult    *result,
                                        const char  *prefix) G_GNUC_WARN_UNUSED_RESULT;
double        cm_chart_class_write_mb_s (const char *klass);

/* Drawing from results or from a capacity report (cm-chart-capacity.c). */
void          cm_chart_draw_full       (cairo_t                *cr,
                                        CmChartKind             kind,
                                        GPtrArray              *results,
                                        const CmCapacityReport *capacity,
                                        const char             *capacity_device,
                                        double                  width,
                                        double                  height,
                                        const CmChartStyle     *style);
gboolean      cm_chart_export_full     (const char              *filename,
                                        CmChartKind              kind,
                                        GPtrArray               *results,
                                        const CmCapacityReport  *capacity,
                                        const char              *capacity_device,
                                        int                      width,
                                        int                      height,
                                        const CmChartStyle      *style,
                                        GError                 **error);

G_END_DECLS
