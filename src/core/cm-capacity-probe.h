/* cm-capacity-probe.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  guint64  reported_bytes;
  guint64  real_bytes;       /* where data stops coming back; = reported when genuine */
  guint64  last_good_bytes;  /* the end of the last place that kept its data */
  guint    n_positions;
  guint    n_bad;
  gboolean fake;
} CmCapacityReport;

typedef void (*CmCapacityProgressFunc) (double   fraction,
                                        gpointer user_data);

char    *cm_capacity_report_describe (const char             *device,
                                     const CmCapacityReport *report) G_GNUC_WARN_UNUSED_RESULT;

gboolean cm_capacity_probe (int                     fd,
                            guint64                 size,
                            GCancellable           *cancellable,
                            CmCapacityProgressFunc  progress,
                            gpointer                user_data,
                            CmCapacityReport       *report,
                            GError                **error);

G_END_DECLS
