/* cm-chart-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "cm-capacity-probe.h"
#include "cm-chart.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define CM_TYPE_CHART_VIEW (cm_chart_view_get_type ())

G_DECLARE_FINAL_TYPE (CmChartView, cm_chart_view, CM, CHART_VIEW, GtkDrawingArea)

GtkWidget  *cm_chart_view_new            (CmChartKind      kind);
gboolean    cm_chart_view_get_chart_kind (CmChartView     *self,
                                          CmChartKind     *kind);
void        cm_chart_view_set_result     (CmChartView     *self,
                                          CmResult        *result);
void        cm_chart_view_set_results    (CmChartView     *self,
                                          GPtrArray       *results);
GPtrArray  *cm_chart_view_get_results    (CmChartView     *self);
gboolean    cm_chart_view_has_data       (CmChartView     *self);
char       *cm_chart_view_dup_description (CmChartView    *self) G_GNUC_WARN_UNUSED_RESULT;
void        cm_chart_view_add_sample     (CmChartView     *self,
                                          const char      *test,
                                          double           t,
                                          double           mb_per_s);
void        cm_chart_view_set_capacity   (CmChartView            *self,
                                          const CmCapacityReport *report,
                                          const char             *device);
const CmCapacityReport *cm_chart_view_get_capacity (CmChartView *self);
guint       cm_chart_view_get_n_points   (CmChartView     *self);

void        cm_chart_view_set_claims     (CmChartView        *self,
                                          const char * const *claims);
guint       cm_chart_view_get_n_series   (CmChartView     *self);
guint       cm_chart_view_get_legend_rows (CmChartView    *self,
                                          int              width);

G_END_DECLS
