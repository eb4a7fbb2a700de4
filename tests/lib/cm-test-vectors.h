/* cm-test-vectors.h — the real register dumps of
 * tests/data/reference/sd-register-vectors.tsv, for the tests of the
 * register decoder, the card model and the counterfeit hints.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *id;
  char *brand;
  char *capacity;
  char *logos;
  char *cid;
  char *csd;
  char *scr;
  char *ssr;
  char *notes;
} CmTestRow;

/* Loads the rows once (from $CARDMARK_SHARED/reference) and fails the
 * test when the file cannot be read or holds fewer rows than it did. */
GPtrArray       *cm_test_vectors_load (void);
const CmTestRow *cm_test_vectors_find (GPtrArray  *rows,
                                       const char *id);

G_END_DECLS
