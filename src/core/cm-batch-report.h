/* cm-batch-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "cm-result.h"

G_BEGIN_DECLS

/* One card of a batch, from every document of it that was picked. */
typedef struct
{
  char     *card;         /* "SanDisk Extreme · /dev/sdb": what tells it apart */
  guint64   size_bytes;   /* what the card says it holds; 0 when no document says */
  char     *verdict;      /* every kind's answer in words, "" when none judged */
  CmStatus  status;       /* the worst of them */
  gint64    real_bytes;   /* from a capacity check; -1 without one */
  gint64    lost_bytes;   /* from a full verify or a wear test; -1 without one */
  char     *kinds;        /* the kinds of document it was built from, "bench, capacity" */
} CmBatchRow;

void       cm_batch_row_free        (CmBatchRow *row);

GPtrArray *cm_batch_report_build    (GPtrArray  *results) G_GNUC_WARN_UNUSED_RESULT;
char      *cm_batch_report_dup_csv  (GPtrArray  *rows) G_GNUC_WARN_UNUSED_RESULT;
char      *cm_batch_row_dup_size    (const CmBatchRow *row,
                                     guint             column) G_GNUC_WARN_UNUSED_RESULT;

/* The columns of cm_batch_row_dup_size(). */
enum
{
  CM_BATCH_SIZE,
  CM_BATCH_REAL,
  CM_BATCH_LOST,
};

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmBatchRow, cm_batch_row_free)

G_END_DECLS
