/* test-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "cm-result.h"

static CmResult *
make_result (void)
{
  CmResult *result = cm_result_new ();
  CmTestResult *test = cm_test_result_new ("seq-write");
  CmClaim *claim = cm_claim_new ("U3");
  CmCriterion *criterion = cm_criterion_new ("sustained-write", "seq-write", "MB/s", 21.5, 30);
  CmSample samples[] = { { 0, 0.25, 5000000 }, { 0.25, 0.5, 6000000 } };
  CmLatencyPoint point = { 0.1f, 180000.0f };

  cm_result_set_target (result, "/media/card", "file", "/dev/sdb", "usb");
  cm_result_set_name (result, "SanDisk Extreme");
  cm_result_set_usb_speed_mbps (result, 480);
  cm_result_set_host (result, "Raspberry Pi 4 Model B Rev 1.4");
  cm_result_set_profile (result, "full");

  test->block_size = 4194304;
  test->queue_depth = 1;
  test->bytes = 11000000;
  test->seconds = 0.5;
  test->mb_per_s = 22;
  test->iops = 5.25;
  test->latency_us[0] = 180000;
  test->latency_us[1] = 190000;
  test->latency_us[2] = 200000;
  test->latency_us[3] = 210000;
  test->sustained_mb_per_s = 21.5;
  test->has_cliff = TRUE;
  test->cliff.found = TRUE;
  test->cliff.t = 0.2;
  test->cliff.full_speed_bytes = 6500000;
  test->cliff.before_mb_per_s = 40;
  test->cliff.after_mb_per_s = 12;
  g_array_append_vals (test->samples, samples, 2);
  g_array_append_val (test->scatter, point);
  cm_result_take_test (result, test);

  test = cm_test_result_new ("rand-write-4k");
  test->error = g_strdup ("write-protected");
  cm_result_take_test (result, test);

  criterion->status = CM_STATUS_BELOW;
  claim->status = CM_STATUS_BELOW;
  claim->reason = g_strdup ("Sustained write 21.5 MB/s, U3 needs 30");
  claim->source = g_strdup ("label");
  g_ptr_array_add (claim->criteria, criterion);
  cm_result_take_claim (result, claim);

  cm_result_set_summary (result, "Below its U3 label");
  cm_result_add_note (result, "a note");
  cm_result_add_note (result, "a note");
  cm_result_set_direct_io (result, FALSE);

  return result;
}

static void
test_round_trip (void)
{
  g_autoptr(CmResult) result = make_result ();
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = cm_result_to_data (result, NULL);
  g_autofree char *data2 = NULL;
  CmTestResult *test;
  CmClaim *claim;
  CmCriterion *criterion;

  back = cm_result_new_from_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);

  g_assert_cmpstr (cm_result_get_target_path (back), ==, "/media/card");
  g_assert_cmpstr (cm_result_get_target_mode (back), ==, "file");
  g_assert_cmpstr (cm_result_get_device (back), ==, "/dev/sdb");
  g_assert_cmpstr (cm_result_get_reader (back), ==, "usb");
  g_assert_cmpstr (cm_result_get_name (back), ==, "SanDisk Extreme");
  g_assert_cmpuint (cm_result_get_usb_speed_mbps (back), ==, 480);
  g_assert_cmpstr (cm_result_get_host (back), ==, "Raspberry Pi 4 Model B Rev 1.4");
  g_assert_cmpstr (cm_result_get_profile (back), ==, "full");
  g_assert_cmpstr (cm_result_get_summary (back), ==, "Below its U3 label");
  g_assert_false (cm_result_get_direct_io (back));
  g_assert_cmpuint (cm_result_get_notes (back)->len, ==, 1);
  g_assert_true (g_date_time_equal (cm_result_get_started (back), cm_result_get_started (result)) ||
                 g_date_time_difference (cm_result_get_started (result), cm_result_get_started (back)) < G_USEC_PER_SEC);

  test = cm_result_lookup_test (back, "seq-write");
  g_assert_nonnull (test);
  g_assert_cmpuint (test->block_size, ==, 4194304);
  g_assert_cmpuint (test->bytes, ==, 11000000);
  g_assert_cmpfloat (test->mb_per_s, ==, 22);
  g_assert_cmpfloat (test->latency_us[2], ==, 200000);
  g_assert_cmpfloat (test->sustained_mb_per_s, ==, 21.5);
  g_assert_cmpuint (test->samples->len, ==, 2);
  g_assert_cmpfloat_with_epsilon (g_array_index (test->samples, CmSample, 1).t_start, 0.25, 1e-9);
  g_assert_cmpuint (g_array_index (test->samples, CmSample, 1).bytes, ==, 6000000);
  g_assert_cmpuint (test->scatter->len, ==, 1);
  g_assert_cmpstr (cm_result_lookup_test (back, "rand-write-4k")->error, ==, "write-protected");
  g_assert_true (test->has_cliff);
  g_assert_true (test->cliff.found);
  g_assert_cmpuint (test->cliff.full_speed_bytes, ==, 6500000);
  g_assert_cmpfloat (test->cliff.before_mb_per_s, ==, 40);
  g_assert_cmpfloat (test->cliff.after_mb_per_s, ==, 12);
  g_assert_false (cm_result_lookup_test (back, "rand-write-4k")->has_cliff);

  claim = g_ptr_array_index (cm_result_get_claims (back), 0);
  g_assert_cmpstr (claim->klass, ==, "U3");
  g_assert_cmpint (claim->status, ==, CM_STATUS_BELOW);
  g_assert_cmpstr (claim->source, ==, "label");
  criterion = g_ptr_array_index (claim->criteria, 0);
  g_assert_cmpfloat (criterion->required, ==, 30);
  g_assert_cmpint (criterion->status, ==, CM_STATUS_BELOW);

  /* Writing what was read gives the same document. */
  data2 = cm_result_to_data (back, NULL);
  g_assert_cmpstr (data, ==, data2);
}

static void
test_save_and_load (void)
{
  g_autoptr(CmResult) result = make_result ();
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-result-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "r.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_true (cm_result_save (result, file, &error));
  g_assert_no_error (error);
  back = cm_result_new_from_file (file, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cm_result_get_tests (back)->len, ==, 2);

  g_unlink (path);
  g_rmdir (dir);
}

/* The saved scatter is what the chart draws: at most a thousand points
 * a test, times to 1/128 s, latencies to the microsecond, on one line;
 * the percentiles, from every command, are kept as they were. */
static void
test_scatter_written_small (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-result-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "r.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  CmTestResult *test = cm_test_result_new ("rand-read-4k");
  const guint n = 4000;
  float last_t = 0;

  cm_result_set_target (result, "/dev/sdb", "raw", "/dev/sdb", "usb");
  cm_result_set_profile (result, "quick");
  test->latency_us[2] = 1234.567;
  for (guint i = 0; i < n; i++)
    {
      CmLatencyPoint point = { i * 0.0123f, 100.37f + i % 500 };

      g_array_append_val (test->scatter, point);
    }
  cm_result_take_test (result, test);

  g_assert_true (cm_result_save_compact (result, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_null (strchr (text, '\n'));
  back = cm_result_new_from_file (file, &error);
  g_assert_no_error (error);

  test = cm_result_lookup_test (back, "rand-read-4k");
  g_assert_cmpfloat (test->latency_us[2], ==, 1234.567);
  g_assert_cmpuint (test->scatter->len, <=, 1000);
  g_assert_cmpuint (test->scatter->len, >=, 500);
  for (guint i = 0; i < test->scatter->len; i++)
    {
      const CmLatencyPoint *p = &g_array_index (test->scatter, CmLatencyPoint, i);

      g_assert_cmpfloat (p->t * 128, ==, floor (p->t * 128));
      g_assert_cmpfloat (p->us, ==, floor (p->us));
      g_assert_cmpfloat (p->us, >=, 100);
      g_assert_cmpfloat (p->t, >=, last_t);
      last_t = p->t;
    }
  /* Thinned evenly: the points still span the whole test. */
  g_assert_cmpfloat (last_t, >, (n - 1) * 0.0123f * 0.99);

  g_unlink (path);
  g_rmdir (dir);
}

/* A document from before the scatter was thinned, every number in a
 * float's 17 digits, still opens with its points as they were. */
static void
test_old_scatter_opens (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "result-small.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_file (file, &error);
  JsonArray *tests, *scatter;
  CmTestResult *test;

  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  tests = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "tests");
  scatter = json_object_get_array_member (json_array_get_object_element (tests, 0), "latency_scatter");
  test = g_ptr_array_index (cm_result_get_tests (result), 0);
  g_assert_cmpuint (test->scatter->len, ==, json_array_get_length (scatter));
  g_assert_cmpuint (test->scatter->len, >, 0);
  for (guint i = 0; i < test->scatter->len; i++)
    {
      JsonArray *pair = json_array_get_array_element (scatter, i);

      g_assert_cmpfloat (g_array_index (test->scatter, CmLatencyPoint, i).t, ==, (float) json_array_get_double_element (pair, 0));
      g_assert_cmpfloat (g_array_index (test->scatter, CmLatencyPoint, i).us, ==, (float) json_array_get_double_element (pair, 1));
    }
}

static void
test_malformed (void)
{
  static const char * const documents[] = {
    "",
    "not json",
    "[]",
    "{}",
    "{\"schema\": \"1\"}",
    "{\"schema\": 1}",
    "{\"schema\": 1, \"tool\": \"x\", \"started\": \"yesterday\", \"profile\": \"quick\", \"target\": {\"mode\": \"file\"}, \"tests\": [], \"claims\": [], \"notes\": []}",
    "{\"schema\": 1, \"tool\": \"x\", \"started\": \"2026-12-02T10:00:00Z\", \"profile\": \"quick\", \"target\": {\"mode\": \"file\"}, \"tests\": [{\"name\": \"seq-read\"}], \"claims\": [], \"notes\": []}",
    "{\"schema\": 1, \"tool\": \"x\", \"started\": \"2026-12-02T10:00:00Z\", \"profile\": \"quick\", \"target\": {\"mode\": \"file\"}, \"tests\": [], \"claims\": [{\"class\": \"U3\", \"status\": \"great\", \"criteria\": []}], \"notes\": []}",
    "{\"schema\": 1, \"tool\": \"x\", \"started\": \"2026-12-02T10:00:00Z\", \"profile\": \"quick\", \"target\": {\"mode\": \"file\"}, \"tests\": [], \"claims\": [], \"notes\": [3]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (documents); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CmResult) result = cm_result_new_from_data (documents[i], -1, &error);

      g_test_message ("document %u: %s", i, documents[i]);
      g_assert_null (result);
      g_assert_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID);
      g_assert_nonnull (error->message);
    }
}

/* A real result with one member of its first test replaced by @json. */
static CmResult *
load_with_test_member (const char  *member,
                       const char  *json,
                       GError     **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "result-small.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) value = NULL;
  JsonObject *test;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  test = json_array_get_object_element (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "tests"), 0);
  if (member != NULL)
    {
      value = json_from_string (json, NULL);
      g_assert_nonnull (value);
      json_object_set_member (test, member, g_steal_pointer (&value));
    }

  return cm_result_new_from_json (json_parser_get_root (parser), error);
}

/* A result from outside is checked as far as the code that reads it
 * relies on it: a scatter point that is not a number raised a critical,
 * and 1e999 (infinity to the parser) was cast to an integer. */
static void
test_out_of_range (void)
{
  static const struct {
    const char *member;
    const char *json;
    const char *named;
  } cases[] = {
    { "latency_scatter", "[[{}, 1]]", "latency_scatter" },
    { "latency_scatter", "[[0.5, \"fast\"]]", "latency_scatter" },
    { "latency_scatter", "[[0.5, 1e39]]", "latency_scatter" },
    { "positions", "[[{}, 1]]", "positions" },
    { "positions", "[[1e999, 20]]", "positions" },
    { "bytes", "1e999", "bytes" },
    { "block_size", "1e300", "block_size" },
    { "queue_depth", "4294967296", "queue_depth" },
    { "mb_per_s", "1e999", "mb_per_s" },
    { "seconds", "1e20", "seconds" },
    { "samples", "[{\"t\": 1, \"seconds\": 1, \"bytes\": 1e999}]", "bytes" },
    { "shared_bus_with", "\"/dev/sdc\"", "shared_bus_with" },
    { "shared_bus_with", "[\"/dev/sdc\", 3]", "shared_bus_with" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) plain = load_with_test_member (NULL, NULL, &error);

  /* The document itself is fine, so each failure below is its change. */
  g_assert_no_error (error);
  g_assert_nonnull (plain);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CmResult) result = NULL;

      g_test_message ("%s: %s", cases[i].member, cases[i].json);
      result = load_with_test_member (cases[i].member, cases[i].json, &error);
      g_assert_null (result);
      g_assert_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, cases[i].named));
      g_clear_error (&error);
    }
}

/* A bulk test's neighbours on the bus come back as they were written. */
static void
test_shared_bus_with (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = load_with_test_member ("shared_bus_with", "[\"/dev/sdc\", \"/dev/sdd\"]", &error);
  g_autoptr(CmResult) back = NULL;
  g_autofree char *data = NULL;
  CmTestResult *test;

  g_assert_no_error (error);
  data = cm_result_to_data (result, NULL);
  back = cm_result_new_from_data (data, -1, &error);
  g_assert_no_error (error);
  test = g_ptr_array_index (cm_result_get_tests (back), 0);
  g_assert_nonnull (test->shared_bus_with);
  g_assert_cmpuint (g_strv_length (test->shared_bus_with), ==, 2);
  g_assert_cmpstr (test->shared_bus_with[1], ==, "/dev/sdd");

  /* None is not written at all. */
  g_clear_pointer (&test->shared_bus_with, g_strfreev);
  g_free (data);
  data = cm_result_to_data (back, NULL);
  g_assert_null (strstr (data, "shared_bus_with"));
}

static void
test_minimal_valid (void)
{
  const char *doc = "{\"schema\": 1, \"tool\": \"x\", \"started\": \"2026-12-02T10:00:00Z\", \"profile\": \"quick\", \"target\": {\"mode\": \"file\"}, \"tests\": [], \"claims\": [], \"notes\": []}";
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_data (doc, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_true (cm_result_get_direct_io (result));
}

/* A kind's own part is the member named as its kind: kept as it is,
 * written back once, and never taken from a member the document reads
 * itself (a verify's "verify"), nor from another kind's member. */
static void
test_kind_part (void)
{
  const char *doc = "{\"schema\": 1, \"tool\": \"x\", \"started\": \"2026-12-02T10:00:00Z\", \"profile\": \"quick\", \"kind\": \"power\", \"target\": {\"mode\": \"raw-write\"}, \"tests\": [], \"claims\": [], \"notes\": [], \"power\": {\"cuts\": 3}, \"queue\": {\"x\": 1}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_data (doc, -1, &error);
  g_autoptr(CmResult) again = NULL;
  g_autoptr(CmResult) verify = NULL;
  g_autofree char *data = NULL;
  JsonNode *part;

  g_assert_no_error (error);
  part = cm_result_get_part (result);
  g_assert_nonnull (part);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (part), "cuts"), ==, 3);

  data = cm_result_to_data (result, NULL);
  /* Once: as the kind, and as the part. */
  g_assert_nonnull (strstr (data, "\"power\""));
  g_assert_null (strstr (data, "\"queue\""));
  g_assert_nonnull (strstr (strstr (data, "\"power\"") + 1, "\"power\""));
  g_assert_null (strstr (strstr (strstr (data, "\"power\"") + 1, "\"power\"") + 1, "\"power\""));
  again = cm_result_new_from_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (cm_result_get_part (again)), "cuts"), ==, 3);

  /* Not an object: the document is damaged. */
  g_assert_null (cm_result_new_from_data ("{\"schema\": 1, \"tool\": \"x\", \"started\": \"2026-12-02T10:00:00Z\", \"profile\": \"quick\", \"kind\": \"power\", \"target\": {\"mode\": \"file\"}, \"tests\": [], \"claims\": [], \"notes\": [], \"power\": 7}", -1, &error));
  g_assert_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID);
  g_clear_error (&error);

  /* The document's own members are never a kind's part. */
  verify = cm_result_new_from_data ("{\"schema\": 1, \"tool\": \"x\", \"started\": \"2026-12-02T10:00:00Z\", \"profile\": \"quick\", \"kind\": \"notes\", \"target\": {\"mode\": \"file\"}, \"tests\": [], \"claims\": [], \"notes\": []}", -1, &error);
  g_assert_no_error (error);
  g_assert_null (cm_result_get_part (verify));
}

static void
test_newer_schema (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_data ("{\"schema\": 2}", -1, &error);

  g_assert_null (result);
  g_assert_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_UNSUPPORTED_SCHEMA);
  g_clear_error (&error);

  /* No CardMark wrote format 0 or below: that file is damaged, not new. */
  g_assert_null (cm_result_new_from_data ("{\"schema\": 0}", -1, &error));
  g_assert_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_INVALID);
  g_clear_error (&error);

  /* A huge format number does not wrap around to another one. */
  g_assert_null (cm_result_new_from_data ("{\"schema\": 99999999999}", -1, &error));
  g_assert_error (error, CM_RESULT_ERROR, CM_RESULT_ERROR_UNSUPPORTED_SCHEMA);
  g_assert_null (strstr (error->message, "1215752191"));
}

/* Setting the target from its own getters keeps the values. */
static void
test_set_target_from_itself (void)
{
  g_autoptr(CmResult) result = make_result ();

  cm_result_set_target (result,
                        cm_result_get_target_path (result),
                        cm_result_get_target_mode (result),
                        "/dev/sdc",
                        cm_result_get_reader (result));
  g_assert_cmpstr (cm_result_get_target_path (result), ==, "/media/card");
  g_assert_cmpstr (cm_result_get_target_mode (result), ==, "file");
  g_assert_cmpstr (cm_result_get_device (result), ==, "/dev/sdc");
  g_assert_cmpstr (cm_result_get_reader (result), ==, "usb");
}

static void
test_claim_lookup (void)
{
  g_autoptr(CmResult) result = make_result ();
  CmClaim *figures = cm_claim_new ("V90");

  g_assert_nonnull (cm_result_lookup_claim (result, "U3"));
  g_assert_null (cm_result_lookup_claim (result, "A2"));
  g_assert_true (cm_result_has_claimed_classes (result));

  /* Classes shown only for what the figures meet are not claims. */
  cm_result_clear_claims (result);
  figures->source = g_strdup ("figures");
  cm_result_take_claim (result, figures);
  g_assert_true (cm_result_lookup_claim (result, "V90") == figures);
  g_assert_false (cm_result_has_claimed_classes (result));
}

static void
test_status_strings (void)
{
  CmStatus status;

  for (CmStatus s = CM_STATUS_MEETS; s <= CM_STATUS_NOT_JUDGED; s++)
    {
      g_assert_true (cm_status_from_string (cm_status_to_string (s), &status));
      g_assert_cmpint (status, ==, s);
    }
  g_assert_cmpstr (cm_status_to_string (CM_STATUS_NOT_JUDGED), ==, "not-judged");
  g_assert_false (cm_status_from_string ("great", &status));
}

/* Saving where the data can't be written whole (a full disk; a file size
 * limit plays it here): an existing file is kept, a new one is not left
 * half-written, and the message names the file. */
static void
test_save_fails_cleanly (void)
{
  g_autoptr(CmResult) result = make_result ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cardmark-result-XXXXXX", &error);
  g_autofree char *old_path = g_build_filename (dir, "old.json", NULL);
  g_autofree char *new_path = g_build_filename (dir, "new.json", NULL);
  g_autoptr(GFile) old_file = g_file_new_for_path (old_path);
  g_autoptr(GFile) new_file = g_file_new_for_path (new_path);
  g_autofree char *kept = NULL;
  struct rlimit limit, small;
  void (*old_handler) (int);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (old_path, "{}", -1, NULL));

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  small = limit;
  small.rlim_cur = 64;
  old_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
  g_assert_false (cm_result_save (result, old_file, &error));
  g_assert_nonnull (strstr (error->message, "old.json"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_false (cm_result_save (result, new_file, &error));
  g_assert_nonnull (strstr (error->message, "new.json"));
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  signal (SIGXFSZ, old_handler);

  g_assert_true (g_file_get_contents (old_path, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "{}");
  g_assert_false (g_file_test (new_path, G_FILE_TEST_EXISTS));

  g_assert_cmpint (g_unlink (old_path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Another user can write a document into the history (or hand one
 * over): every string in it reaches labels and terminal lines cleaned,
 * an escape sequence, a line break or a bidirectional override never
 * whole. */
static gboolean
is_clean (const char *text)
{
  return text != NULL && strpbrk (text, "\033\007\n\r") == NULL && strstr (text, "\u202e") == NULL;
}

static void
test_planted_text_cleaned (void)
{
  static const char planted[] = "Card\033]0;PWNED\007\033[2J\nfake line\u202eevil";
  g_autoptr(CmResult) result = make_result ();
  g_autoptr(CmResult) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *long_name = g_strnfill (100000, 'x');

  cm_result_set_name (result, planted);
  cm_result_set_summary (result, planted);
  cm_result_set_host (result, planted);
  cm_result_add_note (result, planted);
  data = cm_result_to_data (result, NULL);
  back = cm_result_new_from_data (data, -1, &error);
  g_assert_no_error (error);

  g_assert_true (is_clean (cm_result_get_name (back)));
  g_assert_true (g_str_has_prefix (cm_result_get_name (back), "Card"));
  g_assert_true (g_str_has_suffix (cm_result_get_name (back), "evil"));
  g_assert_true (is_clean (cm_result_get_summary (back)));
  g_assert_true (is_clean (cm_result_get_host (back)));
  for (guint i = 0; i < cm_result_get_notes (back)->len; i++)
    g_assert_true (is_clean (g_ptr_array_index (cm_result_get_notes (back), i)));

  /* …and bounded. */
  g_clear_object (&back);
  g_clear_pointer (&data, g_free);
  cm_result_set_name (result, long_name);
  data = cm_result_to_data (result, NULL);
  back = cm_result_new_from_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_utf8_strlen (cm_result_get_name (back), -1), <=, 2000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/result/round-trip", test_round_trip);
  g_test_add_func ("/cardmark/result/save-and-load", test_save_and_load);
  g_test_add_func ("/cardmark/result/planted-text-cleaned", test_planted_text_cleaned);
  g_test_add_func ("/cardmark/result/save-fails-cleanly", test_save_fails_cleanly);
  g_test_add_func ("/cardmark/result/scatter-written-small", test_scatter_written_small);
  g_test_add_func ("/cardmark/result/old-scatter-opens", test_old_scatter_opens);
  g_test_add_func ("/cardmark/result/malformed", test_malformed);
  g_test_add_func ("/cardmark/result/minimal-valid", test_minimal_valid);
  g_test_add_func ("/cardmark/result/shared-bus-with", test_shared_bus_with);
  g_test_add_func ("/cardmark/result/out-of-range", test_out_of_range);
  g_test_add_func ("/cardmark/result/newer-schema", test_newer_schema);
  g_test_add_func ("/cardmark/result/kind-part", test_kind_part);
  g_test_add_func ("/cardmark/result/status-strings", test_status_strings);
  g_test_add_func ("/cardmark/result/claim-lookup", test_claim_lookup);
  g_test_add_func ("/cardmark/result/set-target-from-itself", test_set_target_from_itself);

  return g_test_run ();
}
