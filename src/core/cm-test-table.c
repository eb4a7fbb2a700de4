/* cm-test-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every test CardMark can run, in one table, in the order a plan runs
 * them. A new test is a new row here: the plan builds profiles from the
 * rows, and the labels, the headline figures and the summary charts are
 * read from them. A new pattern (a way of moving through the card) is
 * its CmPattern value in cm-test-table.h and its loop in
 * cm-engine-patterns.c (docs/architecture.md § Where to add).
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-test-table.h"

#define KiB 1024
#define MiB (1024 * KiB)

static const CmTestKind builtin[] = {
  { CM_TEST_SEQ_WRITE, N_("Sequential write"), CM_PATTERN_SEQUENTIAL, CM_DIRECTION_WRITE,
    0, 1, CM_FIGURE_MB_PER_S, CM_IN_BOTH, CM_AMOUNT_AREA, TRUE },
  { CM_TEST_SEQ_READ, N_("Sequential read"), CM_PATTERN_SEQUENTIAL, CM_DIRECTION_READ,
    0, 1, CM_FIGURE_MB_PER_S, CM_IN_BOTH, CM_AMOUNT_AREA, TRUE },
  { CM_TEST_RAND_WRITE_4K, N_("Random 4K write"), CM_PATTERN_RANDOM, CM_DIRECTION_WRITE,
    4 * KiB, 1, CM_FIGURE_IOPS, CM_IN_BOTH, CM_AMOUNT_TIMED, TRUE },
  { CM_TEST_RAND_READ_4K, N_("Random 4K read"), CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    4 * KiB, 1, CM_FIGURE_IOPS, CM_IN_BOTH, CM_AMOUNT_TIMED, TRUE },
  { CM_TEST_RAND_WRITE_4K_QD32, N_("Random 4K write, 32 at once"), CM_PATTERN_RANDOM, CM_DIRECTION_WRITE,
    4 * KiB, 32, CM_FIGURE_IOPS, CM_IN_BOTH, CM_AMOUNT_TIMED, TRUE },
  { CM_TEST_RAND_READ_4K_QD32, N_("Random 4K read, 32 at once"), CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    4 * KiB, 32, CM_FIGURE_IOPS, CM_IN_BOTH, CM_AMOUNT_TIMED, TRUE },
  /* The block-size sweep of the iozone-based card comparisons. The
   * sizes are not words to translate: one label per direction. */
  { CM_TEST_SWEEP_WRITE_PREFIX "4k", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_WRITE,
    4 * KiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_READ_PREFIX "4k", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    4 * KiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_WRITE_PREFIX "64k", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_WRITE,
    64 * KiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_READ_PREFIX "64k", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    64 * KiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_WRITE_PREFIX "512k", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_WRITE,
    512 * KiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_READ_PREFIX "512k", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    512 * KiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_WRITE_PREFIX "4m", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_WRITE,
    4 * MiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_READ_PREFIX "4m", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    4 * MiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_WRITE_PREFIX "16m", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_WRITE,
    16 * MiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  { CM_TEST_SWEEP_READ_PREFIX "16m", NULL, CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    16 * MiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SWEEP, FALSE },
  /* Raw read mode only: file mode has no positions to speak of. */
  { CM_TEST_SURFACE_READ, N_("Read speed across the card"), CM_PATTERN_SURFACE, CM_DIRECTION_READ,
    4 * MiB, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_POSITIONS, FALSE },
  { CM_TEST_SEQ_WRITE_SUSTAINED, N_("Long sustained write"), CM_PATTERN_SEQUENTIAL, CM_DIRECTION_WRITE,
    0, 1, CM_FIGURE_MB_PER_S, CM_IN_FULL, CM_AMOUNT_SUSTAINED, FALSE },
};

/* Kinds added at run time (cm_test_table_add_kind), after the built-in ones. */
static GArray *added;

guint
cm_test_table_get_n_kinds (void)
{
  return G_N_ELEMENTS (builtin) + (added != NULL ? added->len : 0);
}

const CmTestKind *
cm_test_table_get_kind (guint index)
{
  g_return_val_if_fail (index < cm_test_table_get_n_kinds (), NULL);

  if (index < G_N_ELEMENTS (builtin))
    return &builtin[index];
  return &g_array_index (added, CmTestKind, index - G_N_ELEMENTS (builtin));
}

const CmTestKind *
cm_test_table_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const CmTestKind *kind = cm_test_table_get_kind (i);

      if (g_str_equal (kind->name, name))
        return kind;
    }

  return NULL;
}

/* "Random read, 64K blocks": the size as people write it. */
static const char *
sweep_label (const CmTestKind *kind)
{
  g_autofree char *size = NULL;
  g_autofree char *label = NULL;

  size = kind->block_size >= MiB
         ? g_strdup_printf ("%" G_GSIZE_FORMAT "M", kind->block_size / MiB)
         : g_strdup_printf ("%" G_GSIZE_FORMAT "K", kind->block_size / KiB);

  if (kind->direction == CM_DIRECTION_READ)
    /* Translators: a block-size test, "Random read, 64K blocks"; %s is 4K, 64K, 512K, 4M or 16M */
    label = g_strdup_printf (_("Random read, %s blocks"), size);
  else
    /* Translators: a block-size test, "Random write, 64K blocks"; %s is 4K, 64K, 512K, 4M or 16M */
    label = g_strdup_printf (_("Random write, %s blocks"), size);

  /* Interned, so that it lives as long as a translation does; there
   * are ten for each language. */
  return g_intern_string (label);
}

/**
 * cm_test_table_get_label:
 *
 * A test's name as people say it, translated: what the app shows while a
 * test runs and in a result's table. A name it does not know (a result
 * from a newer CardMark) comes back as it is.
 */
const char *
cm_test_table_get_label (const char *name)
{
  const CmTestKind *kind;

  g_return_val_if_fail (name != NULL, NULL);

  kind = cm_test_table_lookup (name);
  if (kind == NULL)
    return name;
  if (kind->label == NULL)
    return sweep_label (kind);
  return _(kind->label);
}

/**
 * cm_test_table_add_kind:
 *
 * Adds a kind of test after the built-in ones: profiles that name it run
 * it, and every part that reads the table knows it. The strings must
 * outlive the process.
 */
void
cm_test_table_add_kind (const CmTestKind *kind)
{
  g_return_if_fail (kind != NULL && kind->name != NULL);
  g_return_if_fail (cm_test_table_lookup (kind->name) == NULL);

  if (added == NULL)
    added = g_array_new (FALSE, FALSE, sizeof (CmTestKind));
  g_array_append_val (added, *kind);
}
