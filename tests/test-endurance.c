/* test-endurance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test's bookkeeping: new against bad sectors (the bitmap), the
 * thresholds read from the rounds, the pattern that differs per round,
 * the document's endurance member there and back, bounds checked, the
 * maker's endurance beside the measured one, and the state a stopped
 * test carries on from, refused when a byte of it is flipped.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "cm-result.h"
#include "cm-state-file.h"
#include "cm-verify.h"
#include "cm-wear-state.h"
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
  e->shared_bus_with = g_strsplit ("/dev/sdc /dev/sdd", " ", -1);
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
  g_assert_true (g_strv_equal ((const char * const *) read->shared_bus_with,
                               (const char * const *) e->shared_bus_with));

  /* None is not written at all. */
  {
    g_autoptr(CmEndurance) alone = cm_endurance_copy (e);
    g_autoptr(CmResult) other = cm_result_new ();
    g_autofree char *text = NULL;

    g_clear_pointer (&alone->shared_bus_with, g_strfreev);
    cm_result_set_kind (other, "wear");
    cm_result_set_target (other, "/dev/sdz", "raw-write", "/dev/sdz", NULL);
    cm_result_set_endurance (other, alone);
    text = cm_result_to_data (other, NULL);
    g_assert_null (strstr (text, "shared_bus_with"));
  }

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

/* The maker's endurance: maker_bytes in the document, and beside every
 * threshold reached the share of it written by then. */
static void
test_maker (void)
{
  const guint64 from[] = { 0, 0, 0 };
  const guint64 to[] = { 0, 4, 9 };
  const guint64 sectors = 1000;
  g_autoptr(CmEndurance) e = make_rounds (sectors, from, to, 3);
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *data = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *share_text = NULL;
  JsonObject *endurance, *first;
  /* The first error comes in round 2: two rounds of the card written. */
  guint64 first_bytes = 2 * sectors * 512;
  double share;
  gsize length;

  /* 7 hours at 12 Mbit/s, as a maker of dash-cam cards would say it. */
  e->maker_bytes = (guint64) (7 * 3600 * 12e6 / 8);
  share = (double) first_bytes / e->maker_bytes;
  cm_result_set_kind (result, "wear");
  cm_result_set_target (result, "/dev/sdz", "raw-write", "/dev/sdz", NULL);
  cm_result_set_endurance (result, e);

  node = cm_result_to_json (result);
  endurance = json_object_get_object_member (json_node_get_object (node), "endurance");
  g_assert_cmpint (json_object_get_int_member (endurance, "maker_bytes"), ==, e->maker_bytes);
  first = json_array_get_object_element (json_object_get_array_member (endurance, "thresholds"), 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (first, "maker_share"), share, 1e-12);
  g_assert_true (json_object_get_null_member (json_array_get_object_element (json_object_get_array_member (endurance, "thresholds"), 5),
                                              "maker_share"));

  summary = cm_endurance_describe (e);
  /* Never "0.0 %": a share that small says "less than 0.1 %". */
  share_text = 100 * share < 0.05 ? g_strdup ("less than 0.1 %") : g_strdup_printf ("%.1f %%", 100 * share);
  g_assert_nonnull (strstr (summary, share_text));

  data = cm_result_to_data (result, &length);
  back = cm_result_new_from_data (data, length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cm_result_get_endurance (back)->maker_bytes, ==, e->maker_bytes);

  /* Not given: null, and nothing said of it. */
  e->maker_bytes = 0;
  g_clear_object (&result);
  g_clear_pointer (&data, g_free);
  result = cm_result_new ();
  cm_result_set_kind (result, "wear");
  cm_result_set_endurance (result, e);
  data = cm_result_to_data (result, &length);
  g_assert_nonnull (strstr (data, "\"maker_bytes\" : null"));
  g_clear_pointer (&summary, g_free);
  summary = cm_endurance_describe (e);
  g_assert_null (strstr (summary, "maker"));
}

/* A stopped test's place, saved and read back as it was; with any byte
 * of the file flipped, refused as damaged. */
/* The cards a state names as sharing the bus are device paths, or the
 * state is damaged; a state without them (an older one) has none. */
static void
test_state_devices (void)
{
  static const struct { const char *value; gboolean ok; guint n; } cases[] = {
    { "/dev/sdc;/dev/sdd;", TRUE, 2 },
    { "", TRUE, 0 },
    { "sdc;", FALSE, 0 },
    { "/etc/passwd;", FALSE, 0 },
    { "/dev/sd c;", FALSE, 0 },
    { "/dev/sd\\tc;", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GKeyFile) key_file = g_key_file_new ();
      CmStateReader r = { key_file, "wear", TRUE };
      g_auto(GStrv) devices = NULL;

      g_key_file_set_value (key_file, "wear", "shared-bus-with", cases[i].value);
      devices = cm_state_reader_devices (&r, "shared-bus-with", 8);
      g_assert_cmpint (r.ok, ==, cases[i].ok);
      g_assert_cmpuint (devices != NULL ? g_strv_length (devices) : 0, ==, cases[i].n);
    }

  {
    g_autoptr(GKeyFile) key_file = g_key_file_new ();
    CmStateReader r = { key_file, "wear", TRUE };
    g_auto(GStrv) devices = cm_state_reader_devices (&r, "shared-bus-with", 8);

    g_assert_true (r.ok);
    g_assert_null (devices);
  }
}

static void
test_state (void)
{
  g_autofree char *folder = g_dir_make_tmp ("cardmark-wear-state-XXXXXX", NULL);
  const guint64 card_bytes = 9 * 1024 * 1024;   /* three regions, the last short */
  const guint64 sectors = card_bytes / 512;
  g_autoptr(CmWearState) state = cm_wear_state_new ("/dev/null", card_bytes, folder);
  g_autoptr(CmWearState) other = cm_wear_state_new ("/dev/null", card_bytes - 512, folder);
  const guint64 from[] = { 0, 100 };
  const guint64 to[] = { 0, 164 };
  g_autoptr(CmEndurance) rounds = make_rounds (sectors, from, to, 2);
  g_autofree char *data = NULL;
  gsize length = 0;
  CmWearPlace place, back;
  guint64 failed = 2;

  cm_wear_place_init (&place, sectors);
  g_array_append_vals (place.endurance->rounds, rounds->rounds->data, rounds->rounds->len);
  cm_endurance_mark_bad (place.ever_bad, 100, 64);
  place.round = 3;
  place.reading = TRUE;
  place.place = 1;
  place.round_bad = 70;
  place.round_new_bad = cm_endurance_mark_bad (place.ever_bad, 160, 10);
  place.round_write_seconds = 1.5;
  place.round_read_seconds = 0.25;
  place.elapsed = 12;
  place.endurance->shared_bus_with = g_strsplit ("/dev/sdc /dev/sdd", " ", -1);
  place.endurance->maker_bytes = 3 * card_bytes + 1;
  place.started = 1796000000;
  g_array_append_val (place.failed, failed);
  g_assert_true (cm_wear_state_save (state, &place, NULL));

  cm_wear_place_init (&back, sectors);
  g_assert_true (cm_wear_state_load (state, &back, NULL));
  g_assert_cmpuint (back.round, ==, 3);
  g_assert_true (back.reading);
  g_assert_cmpuint (back.place, ==, 1);
  g_assert_cmpuint (back.round_bad, ==, 70);
  g_assert_cmpuint (back.round_new_bad, ==, 6);
  g_assert_cmpuint (back.endurance->rounds->len, ==, 2);
  g_assert_cmpuint (g_array_index (back.endurance->rounds, CmWearRound, 1).new_bad_sectors, ==, 64);
  g_assert_cmpuint (back.failed->len, ==, 1);
  g_assert_cmpmem (back.ever_bad, (sectors + 7) / 8, place.ever_bad, (sectors + 7) / 8);
  g_assert_cmpuint (cm_wear_place_bytes_written (&back, card_bytes), ==, 3 * card_bytes);
  g_assert_true (g_strv_equal ((const char * const *) back.endurance->shared_bus_with,
                               (const char * const *) place.endurance->shared_bus_with));
  g_assert_cmpuint (back.endurance->maker_bytes, ==, place.endurance->maker_bytes);
  g_assert_cmpint (back.started, ==, place.started);
  cm_wear_place_clear (&back);

  /* Another card (here: another size) does not take it. */
  g_assert_true (g_file_get_contents (cm_wear_state_get_path (state), &data, &length, NULL));
  g_assert_true (g_file_set_contents (cm_wear_state_get_path (other), data, length, NULL));
  {
    g_autoptr(GError) error = NULL;

    cm_wear_place_init (&back, sectors - 1);
    g_assert_false (cm_wear_state_load (other, &back, &error));
    g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD);
    cm_wear_place_clear (&back);
  }

  for (gsize i = 0; i < length; i += 5)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *flipped = g_memdup2 (data, length);

      flipped[i] ^= 0x04;
      g_assert_true (g_file_set_contents (cm_wear_state_get_path (state), flipped, length, NULL));
      cm_wear_place_init (&back, sectors);
      g_assert_false (cm_wear_state_load (state, &back, &error));
      g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED);
      cm_wear_place_clear (&back);
    }

  /* The bitmap's own file, a bit flipped: damaged too. */
  g_assert_true (g_file_set_contents (cm_wear_state_get_path (state), data, length, NULL));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      if (g_str_has_suffix (name, ".bad"))
        {
          g_autofree char *path = g_build_filename (folder, name, NULL);
          g_autofree char *bits = NULL;
          gsize n = 0;

          g_assert_true (g_file_get_contents (path, &bits, &n, NULL));
          bits[0] ^= 1;
          g_assert_true (g_file_set_contents (path, bits, n, NULL));
        }
    cm_wear_place_init (&back, sectors);
    g_assert_false (cm_wear_state_load (state, &back, &error));
    g_assert_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED);
    cm_wear_place_clear (&back);
  }

  /* Removed: the state and its bitmap, nothing else left. */
  cm_wear_state_remove (state);
  cm_wear_state_remove (other);
  cm_wear_place_clear (&place);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

/* The maker's endurance from the figures a user gives (the CLI's --tbw,
 * --video-hours and --video-mbps, the app's form): TB × 10^12 bytes, or
 * hours × 3600 × Mbit/s × 10^6 ÷ 8; wrong figures refused, naming why. */
static void
test_maker_from (void)
{
  const double tbw = 30, hours = 10000, mbps = 26;
  const struct { double tbw, hours, mbps; int code; } wrong[] = {
    { -1, 0, 0, CM_ENDURANCE_ERROR_TBW },
    { 1e6, 0, 0, CM_ENDURANCE_ERROR_TBW },
    { NAN, 0, 0, CM_ENDURANCE_ERROR_TBW },
    { 0, -1, 8, CM_ENDURANCE_ERROR_VIDEO },
    { 0, 10, 1e5, CM_ENDURANCE_ERROR_VIDEO },
    { 0, 10, 0, CM_ENDURANCE_ERROR_VIDEO_PAIR },
    { 0, 0, 8, CM_ENDURANCE_ERROR_VIDEO_PAIR },
    { 1, 10, 8, CM_ENDURANCE_ERROR_TWICE },
  };
  guint64 bytes = 1;

  g_assert_true (cm_endurance_maker_bytes_from (0, 0, 0, &bytes, NULL));
  g_assert_cmpuint (bytes, ==, 0);
  g_assert_true (cm_endurance_maker_bytes_from (tbw, 0, 0, &bytes, NULL));
  g_assert_cmpuint (bytes, ==, (guint64) llround (tbw * 1e12));
  g_assert_true (cm_endurance_maker_bytes_from (0, hours, mbps, &bytes, NULL));
  g_assert_cmpuint (bytes, ==, (guint64) llround (hours * 3600 * mbps * 1e6 / 8));
  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      g_autoptr(GError) error = NULL;

      bytes = 7;
      g_assert_false (cm_endurance_maker_bytes_from (wrong[i].tbw, wrong[i].hours, wrong[i].mbps, &bytes, &error));
      g_assert_error (error, CM_ENDURANCE_ERROR, wrong[i].code);
      g_assert_cmpuint (bytes, ==, 7);
    }
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
  g_test_add_func ("/cardmark/endurance/maker", test_maker);
  g_test_add_func ("/cardmark/endurance/maker-from", test_maker_from);
  g_test_add_func ("/cardmark/endurance/state", test_state);
  g_test_add_func ("/cardmark/endurance/state-devices", test_state_devices);

  return g_test_run ();
}
