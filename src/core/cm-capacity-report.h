/* cm-capacity-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What one cell of the map showed. */
typedef enum
{
  CM_CAPACITY_CELL_VERIFIED,    /* read back its own signature */
  CM_CAPACITY_CELL_NO_STORAGE,  /* read back something else: it wraps */
  CM_CAPACITY_CELL_READ_ERROR,
  CM_CAPACITY_CELL_WRITE_ERROR,
  CM_CAPACITY_N_CELL_STATES
} CmCapacityCell;

const char *cm_capacity_cell_to_string (CmCapacityCell cell);

typedef struct
{
  guint64  reported_bytes;
  guint64  real_bytes;       /* where data stops coming back; = reported when genuine */
  guint64  last_good_bytes;  /* the end of the last place below real_bytes that kept its data */
  guint64  cache_ruled_out;  /* bytes written between signing and reading back */
  guint64  cell_bytes;       /* the map's cells, from offset 0 up */
  guint    n_positions;      /* cells */
  guint    n_bad;            /* cells not verified */
  guint    n_errors;         /* read or write errors among them */
  gboolean fake;
  double   seconds;
  GArray  *cells;            /* CmCapacityCell as guint8, one per cell */
} CmCapacityReport;

CmCapacityReport *cm_capacity_report_new  (void) G_GNUC_WARN_UNUSED_RESULT;
CmCapacityReport *cm_capacity_report_copy (const CmCapacityReport *report) G_GNUC_WARN_UNUSED_RESULT;
void              cm_capacity_report_free (CmCapacityReport *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmCapacityReport, cm_capacity_report_free)

G_END_DECLS
