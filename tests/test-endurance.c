/* test-endurance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test's bookkeeping: new against bad sectors (the bitmap), the
 * thresholds read from the rounds, the pattern that differs per round,
 * and the document's endurance member there and back, bounds checked.
 */

#include "config.h"

#include <string.h>

#include "cm-result.h"
#include "cm-verify.h"
#include "cm-wear.h"

/* A card of @sectors sectors; in each round the sectors listed bad. */
static CmEndurance *
make_rounds (guint64        sectors,
             const guint64 *bad_from,   /* round i: sectors [bad_from[i], bad_to[i]) */
             const guint64 *bad_to,
             guint          n)
{
  CmEndurance *e = cm_endurance_new ();
  g_autofree guint8 *ever = g_malloc0 ((sectors + 7) / 8);

  for (guint i = 0; i < n; i++)
    {
      CmWearRound r = { 0 };

      r.round = i + 1;
      r.sectors = sectors;
      r.bad_sectors = bad_to[i] - bad_from[i];
      r.new_bad_sectors = cm_endurance_mark_bad (ever, bad_from[i], bad_to[i] - bad_from[i]);
      r.bytes_written = (i + 1) * sectors * 512;
      g_array_append_val (e->rounds, r);
    }
  return e;
}

static void
test_new_and_bad (void)
{
  guint8 ever[4] = { 0 };

  g_assert_cmpuint (cm_endurance_mark_bad (ever, 3, 5), ==, 5);
  /* The same sectors again: bad, not new. */
  g_assert_cmpuint (cm_endurance_mark_bad (ever, 3, 5), ==, 0);
  /* Overlapping: only the part not seen before is new. */
  g_assert_cmpuint (cm_endurance_mark_bad (ever, 6, 10), ==, 8);
  g_assert_cmpuint (cm_endurance_mark_bad (ever, 0, 32), ==, 32 - 13);
}

static void
test_thresholds (void)
{
  /* 10000 sectors: round 3 loses 5 (0.05 %), 4 loses 10 (0.1 %),
   * 5 loses 2000 (20 %), 6 loses 6000 (60 %). */
  const guint64 from[] = { 0, 0, 0, 0, 0, 0 };
  const guint64 to[] = { 0, 0, 5, 10, 2000, 6000 };
  g_autoptr(CmEndurance) e = make_rounds (10000, from, to, G_N_ELEMENTS (to));
  const guint expected[CM_ENDURANCE_N_THRESHOLDS] = { 3, 4, 5, 5, 6, 6 };
  g_autofree char *text = NULL;
  guint round;
  guint64 bytes;

  for (guint i = 0; i < CM_ENDURANCE_N_THRESHOLDS; i++)
    {
      g_assert_true (cm_endurance_get_threshold (e, i, &round, &bytes));
      g_assert_cmpuint (round, ==, expected[i]);
      g_assert_cmpuint (bytes, ==, (guint64) expected[i] * 10000 * 512);
    }
  g_assert_cmpuint (cm_endurance_get_first_error_round (e), ==, 3);
  g_assert_true (cm_endurance_lost_data (e));
  g_assert_cmpuint (g_array_index (e->rounds, CmWearRound, 4).new_bad_sectors, ==, 1990);

  text = cm_endurance_describe (e);
  g_assert_nonnull (strstr (text, "round 3"));
}

static void
test_whole (void)
{
  const guint64 zero[] = { 0, 0 };
  g_autoptr(CmEndurance) e = make_rounds (100, zero, zero, 2);
  g_autofree char *text = cm_endurance_describe (e);

  g_assert_false (cm_endurance_lost_data (e));
  g_assert_cmpuint (cm_endurance_get_first_error_round (e), ==, 0);
  g_assert_false (cm_endurance_get_threshold (e, 0, NULL, NULL));
  g_assert_nonnull (strstr (text, "came back whole"));
}

/* Each round's data names its place, and no two rounds write the same. */
static void
test_pattern_per_round (void)
{
  g_autofree guint8 *a = g_malloc (4096);
  g_autofree guint8 *b = g_malloc (4096);
  CmVerifyCounts counts = { 0 };

  cm_wear_fill (a, 4096, 4 * 1024 * 1024, 1);
  cm_wear_fill (b, 4096, 4 * 1024 * 1024, 2);
  g_assert_true (memcmp (a, b, 4096) != 0);
  for (guint s = 0; s < 4096; s += 512)
    g_assert_true (memcmp (a + s, b + s, 512) != 0);
  /* Round 2 read where round 1 was expected: every sector wrong. */
  cm_wear_fill (a, 4096, 0, 1);
  g_assert_false (cm_verify_check (b, 4096, 0, &counts));
  g_assert_cmpuint (counts.ok, ==, 0);
}

static void
test_json (void)
{
  const guint64 from[] = { 0, 0, 0 };
  const guint64 to[] = { 0, 4, 9 };
  g_autoptr(CmEndurance) e = make_rounds (1000, from, to, 3);
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *broken = NULL;
  const CmEndurance *read;
  gsize length;

  e->stopped = g_strdup ("rounds");
  cm_result_set_kind (result, "wear");
  cm_result_set_target (result, "/dev/sdz", "raw-write", "/dev/sdz", NULL);
  cm_result_set_endurance (result, e);
  data = cm_result_to_data (result, &length);
  g_assert_nonnull (strstr (data, "\"first_error_round\" : 2"));

  back = cm_result_new_from_data (data, length, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cm_result_get_kind (back), ==, "wear");
  read = cm_result_get_endurance (back);
  g_assert_nonnull (read);
  g_assert_cmpuint (read->rounds->len, ==, 3);
  g_assert_cmpuint (g_array_index (read->rounds, CmWearRound, 2).new_bad_sectors, ==, 5);
  g_assert_cmpstr (read->stopped, ==, "rounds");

  /* More new bad sectors than bad ones is refused. */
  broken = g_strdup (data);
  {
    char *p = strstr (broken, "\"bad_sectors\" : 9");

    g_assert_nonnull (p);
    memcpy (p, "\"bad_sectors\" : 1", strlen ("\"bad_sectors\" : 1"));
  }
  g_clear_object (&back);
  back = cm_result_new_from_data (broken, -1, &error);
  g_assert_null (back);
  g_assert_nonnull (error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/endurance/new-and-bad", test_new_and_bad);
  g_test_add_func ("/cardmark/endurance/thresholds", test_thresholds);
  g_test_add_func ("/cardmark/endurance/whole", test_whole);
  g_test_add_func ("/cardmark/endurance/pattern-per-round", test_pattern_per_round);
  g_test_add_func ("/cardmark/endurance/json", test_json);

  return g_test_run ();
}
