/* cm-test-table.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The names of the tests other parts refer to by name (verdicts,
 * charts, summaries); the table below says what each one is. */
#define CM_TEST_SEQ_WRITE            "seq-write"
#define CM_TEST_SEQ_READ             "seq-read"
#define CM_TEST_RAND_WRITE_4K        "rand-write-4k"
#define CM_TEST_RAND_READ_4K         "rand-read-4k"
#define CM_TEST_RAND_WRITE_4K_QD32   "rand-write-4k-qd32"
#define CM_TEST_RAND_READ_4K_QD32    "rand-read-4k-qd32"
#define CM_TEST_SEQ_WRITE_SUSTAINED  "seq-write-sustained"
#define CM_TEST_SURFACE_READ         "surface-read"
#define CM_TEST_SWEEP_READ_PREFIX    "sweep-read-"
#define CM_TEST_SWEEP_WRITE_PREFIX   "sweep-write-"
/* A full verify's two (cm-verify.c): not a bench's, so not in the table. */
#define CM_TEST_VERIFY_WRITE         "verify-write"
#define CM_TEST_VERIFY_READ          "verify-read"

/* How a test moves through the card. Each has its loop in
 * cm-engine-patterns.c, chosen by cm_engine_run_pattern(). */
typedef enum
{
  CM_PATTERN_SEQUENTIAL,
  CM_PATTERN_RANDOM,
  /* One block at each of @bytes evenly spaced places across the whole
   * device, from its start to its end: read speed by position. */
  CM_PATTERN_SURFACE,
} CmPattern;

typedef enum
{
  CM_DIRECTION_READ,
  CM_DIRECTION_WRITE,
} CmDirection;

/* The figure a test is compared by. */
typedef enum
{
  CM_FIGURE_MB_PER_S,
  CM_FIGURE_IOPS,
} CmFigure;

/* Which profiles run a test. */
typedef enum
{
  CM_IN_QUICK = 1 << 0,
  CM_IN_FULL  = 1 << 1,
  CM_IN_BOTH  = CM_IN_QUICK | CM_IN_FULL,
} CmProfileMask;

/* How much a test does. */
typedef enum
{
  CM_AMOUNT_AREA,       /* the whole test area, once */
  CM_AMOUNT_TIMED,      /* the profile's time for random tests */
  CM_AMOUNT_SWEEP,      /* a few seconds per block size */
  CM_AMOUNT_POSITIONS,  /* one block at each of 128 places on the device */
  CM_AMOUNT_SUSTAINED,  /* gigabytes, until the card's cache runs out */
} CmAmount;

/* One kind of test: everything the plan, the engine, the verdicts, the
 * charts, the history and both faces need to know of it. */
typedef struct
{
  const char    *name;         /* what --only takes and results record */
  const char    *label;        /* as people say it, marked for translation */
  CmPattern      pattern;
  CmDirection    direction;
  gsize          block_size;   /* 0: the sequential block, 4 MiB or the card's AU */
  guint          queue_depth;
  CmFigure       headline;
  CmProfileMask  profiles;
  CmAmount       amount;
  gboolean       summary;      /* one of the figures people compare cards by */
} CmTestKind;

guint             cm_test_table_get_n_kinds (void);
const CmTestKind *cm_test_table_get_kind    (guint              index);
const CmTestKind *cm_test_table_lookup      (const char        *name);
const char       *cm_test_table_get_label   (const char        *name);
void              cm_test_table_add_kind    (const CmTestKind  *kind);

G_END_DECLS
