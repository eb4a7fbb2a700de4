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
  char     *machines;     /* the machine of each, in the same order, "lab-a, lab-b"; NULL
                           * when no document came from the lab's store */
} CmBatchRow;

void       cm_batch_row_free        (CmBatchRow *row);

/* What the report takes from one document: enough to build it from the
 * history's index without opening the document again. */
typedef struct
{
  char     *key;          /* tells the card apart: its serial, else name and device */
  char     *card;         /* as CmBatchRow's */
  char     *kind;
  gint64    started;      /* unix microseconds; 0 if unknown */
  guint64   size_bytes;   /* 0 if the document does not say */
  char     *answer;       /* the kind's answer in words, or NULL */
  CmStatus  status;
  gint64    capacity_real_bytes; /* a capacity check's finding; -1 without one */
  gint64    usable_bytes;        /* what a verify read back whole; -1 without one */
  gint64    lost_bytes;          /* -1 when the document checked none */
  char     *machine;      /* the machine that sent it to the lab's store, or NULL */
} CmBatchFacts;

CmBatchFacts *cm_batch_facts_new_for_result (CmResult *result) G_GNUC_WARN_UNUSED_RESULT;
void          cm_batch_facts_free           (CmBatchFacts *facts);

/* A report built one document at a time: only the newest document of
 * each kind of each card is kept. */
typedef struct _CmBatchReport CmBatchReport;

CmBatchReport *cm_batch_report_new      (void) G_GNUC_WARN_UNUSED_RESULT;
void           cm_batch_report_add      (CmBatchReport *self,
                                         CmBatchFacts  *facts);
GPtrArray     *cm_batch_report_get_rows (CmBatchReport *self) G_GNUC_WARN_UNUSED_RESULT;
void           cm_batch_report_free     (CmBatchReport *self);

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
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmBatchFacts, cm_batch_facts_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmBatchReport, cm_batch_report_free)

G_END_DECLS
