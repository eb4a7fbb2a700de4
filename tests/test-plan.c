/* test-plan.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "cm-plan.h"

static const char * const standard_tests[] = {
  "seq-write", "seq-read", "rand-write-4k", "rand-read-4k",
  "rand-write-4k-qd32", "rand-read-4k-qd32",
};

static void
test_quick (void)
{
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_QUICK, 0);

  g_assert_cmpuint (cm_plan_get_n_tests (plan), ==, G_N_ELEMENTS (standard_tests));
  g_assert_cmpuint (cm_plan_get_area_bytes (plan), ==, 256 * 1024 * 1024);

  for (guint i = 0; i < G_N_ELEMENTS (standard_tests); i++)
    {
      const CmTestSpec *spec = cm_plan_get_test (plan, i);

      g_assert_cmpstr (spec->name, ==, standard_tests[i]);
      if (spec->pattern == CM_PATTERN_RANDOM)
        {
          g_assert_cmpuint (spec->block_size, ==, 4096);
          g_assert_cmpfloat (spec->duration_s, ==, 5);
          g_assert_cmpfloat (spec->warmup_s, ==, 1);
          g_assert_cmpuint (spec->queue_depth, ==, g_str_has_suffix (spec->name, "qd32") ? 32 : 1);
        }
      else
        g_assert_cmpuint (spec->block_size, ==, 4 * 1024 * 1024);
    }

  /* Writes come before reads of the same pattern: file mode reads what
   * was written. */
  g_assert_cmpuint (cm_plan_get_test (plan, 0)->direction, ==, CM_DIRECTION_WRITE);
  g_assert_true (cm_plan_has_writes (plan));
}

static void
test_full (void)
{
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_FULL, 0);
  const CmTestSpec *sustained = cm_plan_lookup (plan, "seq-write-sustained");

  g_assert_cmpuint (cm_plan_get_area_bytes (plan), ==, 1024 * 1024 * 1024);
  g_assert_nonnull (sustained);
  g_assert_true (sustained->sustained);
  g_assert_cmpuint (sustained->bytes, >, cm_plan_get_area_bytes (plan));
  g_assert_cmpfloat (cm_plan_lookup (plan, "rand-read-4k")->duration_s, ==, 20);

  /* The block-size sweep: random, queue depth 1, 4K to 16M. */
  g_assert_cmpuint (cm_plan_lookup (plan, "sweep-read-4k")->block_size, ==, 4096);
  g_assert_cmpuint (cm_plan_lookup (plan, "sweep-write-64k")->block_size, ==, 65536);
  g_assert_cmpuint (cm_plan_lookup (plan, "sweep-read-512k")->block_size, ==, 524288);
  g_assert_cmpuint (cm_plan_lookup (plan, "sweep-write-4m")->block_size, ==, 4194304);
  g_assert_cmpuint (cm_plan_lookup (plan, "sweep-read-16m")->block_size, ==, 16777216);
  g_assert_cmpint (cm_plan_lookup (plan, "sweep-read-16m")->pattern, ==, CM_PATTERN_RANDOM);
  g_assert_cmpint (cm_plan_lookup (plan, "surface-read")->pattern, ==, CM_PATTERN_SURFACE);

  /* The quick profile has neither. */
  g_clear_object (&plan);
  plan = cm_plan_new (CM_PROFILE_QUICK, 0);
  g_assert_null (cm_plan_lookup (plan, "sweep-read-4k"));
  g_assert_null (cm_plan_lookup (plan, "surface-read"));
}

static void
test_au_block (void)
{
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_QUICK, 8 * 1024 * 1024);

  /* Sequential blocks grow to the allocation unit when it is larger. */
  g_assert_cmpuint (cm_plan_lookup (plan, "seq-write")->block_size, ==, 8 * 1024 * 1024);
  g_assert_cmpuint (cm_plan_lookup (plan, "rand-write-4k")->block_size, ==, 4096);
}

static void
test_remove_writes (void)
{
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_QUICK, 0);

  cm_plan_remove_writes (plan);
  g_assert_false (cm_plan_has_writes (plan));
  g_assert_cmpuint (cm_plan_get_n_tests (plan), ==, 3);
  g_assert_nonnull (cm_plan_lookup (plan, "rand-read-4k-qd32"));
  g_assert_null (cm_plan_lookup (plan, "seq-write"));
}

static void
test_keep_only (void)
{
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_QUICK, 0);
  const char * const names[] = { "rand-read-4k", "seq-read", NULL };

  cm_plan_keep_only (plan, names);
  g_assert_cmpuint (cm_plan_get_n_tests (plan), ==, 2);
  /* The plan's order stays, whatever order the names came in. */
  g_assert_cmpstr (cm_plan_get_test (plan, 0)->name, ==, "seq-read");
  g_assert_cmpstr (cm_plan_get_test (plan, 1)->name, ==, "rand-read-4k");
}

static void
test_estimate (void)
{
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_QUICK, 0);
  double slow = cm_plan_estimate_seconds (plan, 10);
  double fast = cm_plan_estimate_seconds (plan, 100);

  /* 4 × 5 s of random tests, plus 2 × 256 MiB at the given rate. */
  g_assert_cmpfloat_with_epsilon (fast, 20 + 2 * 268435456 / 100e6, 1e-6);
  g_assert_cmpfloat (slow, >, fast);
}

static void
test_profile_strings (void)
{
  CmProfile profile;

  g_assert_true (cm_profile_from_string ("full", &profile));
  g_assert_cmpint (profile, ==, CM_PROFILE_FULL);
  g_assert_cmpstr (cm_profile_to_string (profile), ==, "full");
  g_assert_false (cm_profile_from_string ("fast", &profile));
  g_assert_false (cm_profile_from_string (NULL, &profile));
}

/* Every test a plan can hold is shown under a label, not its name. The
 * full profile on a raw device with writes runs them all: file mode drops
 * surface-read, raw read mode the writes. */
static void
test_describe (void)
{
  g_autoptr(CmPlan) plan = cm_plan_new (CM_PROFILE_FULL, 0);
  g_autoptr(GHashTable) labels = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < cm_plan_get_n_tests (plan); i++)
    {
      const char *name = cm_plan_get_test (plan, i)->name;
      const char *label = cm_test_table_get_label (name);

      g_test_message ("%s: %s", name, label);
      g_assert_cmpstr (label, !=, name);
      /* The run page's chart draws one line per label. */
      g_assert_false (g_hash_table_contains (labels, label));
      g_hash_table_add (labels, (gpointer) label);
    }

  /* The sweep's labels carry the block size as people write it. */
  g_assert_cmpstr (cm_test_table_get_label ("sweep-read-64k"), ==, "Random read, 64K blocks");
  g_assert_cmpstr (cm_test_table_get_label ("sweep-write-16m"), ==, "Random write, 16M blocks");
  g_assert_true (cm_test_table_get_label ("sweep-read-4k") == cm_test_table_get_label ("sweep-read-4k"));

  /* A name from a newer CardMark, or not quite a sweep, stays as it is. */
  g_assert_cmpstr (cm_test_table_get_label ("rand-read-1m"), ==, "rand-read-1m");
  g_assert_cmpstr (cm_test_table_get_label ("sweep-read-"), ==, "sweep-read-");
  g_assert_cmpstr (cm_test_table_get_label ("sweep-read-64kb"), ==, "sweep-read-64kb");
  g_assert_cmpstr (cm_test_table_get_label ("sweep-read-k"), ==, "sweep-read-k");
}

/* A new test pattern is one row of the table: the profile that names it
 * runs it, with the table's block size and depth, and it has a label.
 * Runs last, since the row stays for the rest of the process. */
static void
test_new_kind (void)
{
  static const CmTestKind kind = {
    "rand-read-64k-qd8", "Random 64K read, 8 at once", CM_PATTERN_RANDOM, CM_DIRECTION_READ,
    64 * 1024, 8, CM_FIGURE_IOPS, CM_IN_QUICK, CM_AMOUNT_TIMED, FALSE,
  };
  g_autoptr(CmPlan) quick = NULL;
  g_autoptr(CmPlan) full = NULL;
  const CmTestSpec *spec;
  guint n_before = cm_test_table_get_n_kinds ();

  g_assert_null (cm_test_table_lookup (kind.name));
  cm_test_table_add_kind (&kind);
  g_assert_cmpuint (cm_test_table_get_n_kinds (), ==, n_before + 1);

  quick = cm_plan_new (CM_PROFILE_QUICK, 0);
  spec = cm_plan_lookup (quick, kind.name);
  g_assert_nonnull (spec);
  g_assert_cmpuint (spec->block_size, ==, kind.block_size);
  g_assert_cmpuint (spec->queue_depth, ==, kind.queue_depth);
  g_assert_cmpint (spec->pattern, ==, CM_PATTERN_RANDOM);
  g_assert_cmpfloat (spec->duration_s, >, 0);
  /* After the standard tests, in the table's order. */
  g_assert_true (cm_plan_get_test (quick, cm_plan_get_n_tests (quick) - 1) == spec);

  full = cm_plan_new (CM_PROFILE_FULL, 0);
  g_assert_null (cm_plan_lookup (full, kind.name));

  g_assert_cmpstr (cm_test_table_get_label (kind.name), ==, kind.label);
  g_assert_true (cm_test_table_lookup (kind.name)->headline == CM_FIGURE_IOPS);
}

/* The quick profile is bounded in time: its sequential tests stop after a
 * while once they have moved a floor, so the whole of it fits a minute
 * on a 4 MB/s card; the full profile's move their whole area. */
static void
test_quick_bounded (void)
{
  g_autoptr(CmPlan) quick = cm_plan_new (CM_PROFILE_QUICK, 0);
  g_autoptr(CmPlan) full = cm_plan_new (CM_PROFILE_FULL, 0);
  const CmTestSpec *spec;
  guint64 bytes = 0;

  for (guint i = 0; i < cm_plan_get_n_tests (quick); i++)
    {
      spec = cm_plan_get_test (quick, i);
      if (spec->pattern == CM_PATTERN_SEQUENTIAL)
        {
          g_assert_cmpfloat (spec->max_seconds, >, 0);
          g_assert_cmpuint (spec->min_bytes, >, 0);
          g_assert_cmpuint (spec->min_bytes, <, cm_plan_get_area_bytes (quick));
        }
    }
  g_assert_cmpfloat (cm_plan_estimate_seconds (quick, 4), <=, 55);

  spec = cm_plan_lookup (full, "seq-write");
  g_assert_cmpfloat (spec->max_seconds, ==, 0);

  g_assert_cmpuint (cm_plan_get_sustained_limit (quick), ==, 0);
  g_assert_cmpuint (cm_plan_get_sustained_limit (full), >, 0);
  cm_plan_set_sustained_limit (full, 1000);
  g_assert_cmpuint (cm_plan_lookup (full, "seq-write-sustained")->bytes, ==, 1000);

  g_assert_true (cm_plan_parse_size ("16GiB", &bytes));
  g_assert_cmpuint (bytes, ==, G_GUINT64_CONSTANT (16) << 30);
  g_assert_true (cm_plan_parse_size (" 500 MB ", &bytes));
  g_assert_cmpuint (bytes, ==, 500000000);
  g_assert_true (cm_plan_parse_size ("1.5G", &bytes));
  g_assert_cmpuint (bytes, ==, G_GUINT64_CONSTANT (3) << 29);
  g_assert_false (cm_plan_parse_size ("0", &bytes));
  g_assert_false (cm_plan_parse_size ("-4G", &bytes));
  g_assert_false (cm_plan_parse_size ("lots", &bytes));
  g_assert_false (cm_plan_parse_size ("4 parsecs", &bytes));
}

int
main (int    argc,
      char **argv)
{
  /* The labels are checked in English. */
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/plan/quick", test_quick);
  g_test_add_func ("/cardmark/plan/full", test_full);
  g_test_add_func ("/cardmark/plan/au-block", test_au_block);
  g_test_add_func ("/cardmark/plan/remove-writes", test_remove_writes);
  g_test_add_func ("/cardmark/plan/keep-only", test_keep_only);
  g_test_add_func ("/cardmark/plan/estimate", test_estimate);
  g_test_add_func ("/cardmark/plan/quick-bounded", test_quick_bounded);
  g_test_add_func ("/cardmark/plan/profile-strings", test_profile_strings);
  g_test_add_func ("/cardmark/plan/describe", test_describe);
  g_test_add_func ("/cardmark/plan/new-kind", test_new_kind);

  return g_test_run ();
}
