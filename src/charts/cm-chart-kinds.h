/* cm-chart-kinds.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table of chart kinds (cm-chart-kinds.c): what every kind is called,
 * its title and whether results hold anything it shows. Each kind's row
 * is in its layout file, cm-chart-layout-NAME.c.
 */

#pragma once

#include <glib.h>

#include "cm-chart-kind.h"
#include "cm-result.h"

G_BEGIN_DECLS

typedef struct _CmChartKindInfo CmChartKindInfo;

const char *cm_chart_kind_to_string   (CmChartKind  kind);
gboolean    cm_chart_kind_from_string (const char  *str,
                                       CmChartKind *kind);
const char *cm_chart_kind_get_title   (CmChartKind  kind);

/* Whether @results hold anything this chart can show. */
gboolean    cm_chart_has_data         (CmChartKind  kind,
                                       GPtrArray   *results);

/* How tall the app shows the chart, in pixels. */
int         cm_chart_kind_get_widget_height (CmChartKind kind);
/* How tall the app shows the chart of @results, which may draw more
 * than the kind's every chart (the wear chart's write amplification). */
int         cm_chart_kind_get_widget_height_for (CmChartKind  kind,
                                                 GPtrArray   *results);

/* The width the app exports every chart at, in pixels. */
#define CM_CHART_EXPORT_WIDTH 1000

/* The entry of the app's Export menu for the chart, translated, and the
 * exported image's height at CM_CHART_EXPORT_WIDTH; NULL and 0 for a
 * kind the app does not offer to export. */
const char *cm_chart_kind_get_export_label  (CmChartKind kind);
int         cm_chart_kind_get_export_height (CmChartKind kind);

/* The kind's row (cm-chart-kind-info.h). */
const CmChartKindInfo *cm_chart_kind_get_info (CmChartKind kind);

G_END_DECLS
