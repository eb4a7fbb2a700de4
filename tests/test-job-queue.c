/* test-job-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The queue check's outcome, read from its part of the document alone:
 * recoveries in the kernel log turn a clean run with queueing on into
 * "not safe", blocks read back wrong into data lost (exit status 4),
 * a Pi 5 whose kernel did not queue says why in the host's words, and
 * a hostile part (members of the wrong type) is read as absent.
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "cm-outcome.h"
#include "cm-queue-host.h"
#include "cm-result.h"

static CmOutcome *
outcome_of (const char *part_json)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(JsonNode) part = json_from_string (part_json, NULL);

  g_assert_nonnull (part);
  cm_result_set_kind (result, "queue");
  cm_result_set_part (result, part);
  return cm_result_dup_outcome (result);
}

#define CLEAN_ON \
  "\"host\": {\"kind\": \"pi5\", \"sd_cqe\": 1, \"now\": \"yes\", \"listing\": \"allowed\"}," \
  "\"native\": true, \"queueing\": true, \"depth\": 32, \"writes\": 1000, \"blocks_checked\": 500," \
  "\"iops_depth_1\": 100.0, \"iops_deep\": 260.0, "

static void
test_safe_so_far (void)
{
  g_autoptr(CmOutcome) outcome = outcome_of ("{" CLEAN_ON "\"bad_blocks\": 0,"
                                             "\"counts\": {\"recovery\": 0}}");

  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpint (outcome->exit_status, ==, 0);
  g_assert_true (g_str_has_prefix (outcome->answer, "Queueing on, safe so far"));
}

static void
test_recoveries_turn_it (void)
{
  g_autoptr(CmOutcome) outcome = outcome_of ("{" CLEAN_ON "\"bad_blocks\": 0,"
                                             "\"counts\": {\"recovery\": 14, \"timeout\": 2}}");

  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_FAIL);
  g_assert_cmpint (outcome->exit_status, ==, 3);
  g_assert_true (g_str_has_prefix (outcome->answer, "Queueing on, not safe · 16 recoveries"));
}

static void
test_blocks_wrong (void)
{
  g_autoptr(CmOutcome) on = outcome_of ("{" CLEAN_ON "\"bad_blocks\": 3, \"counts\": {\"recovery\": 1}}");
  g_autoptr(CmOutcome) off = outcome_of ("{\"native\": false, \"queueing\": false, \"depth\": 32,"
                                         "\"blocks_checked\": 500, \"bad_blocks\": 3}");

  g_assert_cmpint (on->status, ==, CM_OUTCOME_FAIL);
  g_assert_cmpint (on->exit_status, ==, 4);
  g_assert_nonnull (strstr (on->answer, "3 blocks read back wrong"));
  g_assert_nonnull (strstr (on->answer, "dtparam=sd_cqe=0"));
  g_assert_cmpint (off->exit_status, ==, 4);
  g_assert_true (g_str_has_prefix (off->answer, "Queueing was not on · 3 blocks"));
}

/* A Pi 5 that did not queue for an unknown card: the host's own words. */
static void
test_queueing_off (void)
{
  g_autoptr(CmOutcome) outcome = outcome_of ("{\"host\": {\"kind\": \"pi5\", \"sd_cqe\": 1, \"now\": \"no\","
                                             "\"listing\": \"neither\"}, \"native\": true, \"queueing\": false,"
                                             "\"depth\": 32, \"blocks_checked\": 10, \"bad_blocks\": 0}");
  CmQueueHost host = { .kind = CM_QUEUE_HOST_PI5, .sd_cqe = 1, .now = CM_QUEUEING_NO,
                       .listing = CM_CQE_LISTING_NEITHER };
  g_autofree char *words = cm_queue_host_describe (&host);

  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_NOT_JUDGED);
  g_assert_cmpstr (outcome->answer, ==, words);
}

static void
test_hostile (void)
{
  g_autoptr(CmOutcome) typed = outcome_of ("{\"host\": [1], \"native\": \"yes\", \"queueing\": 1,"
                                           "\"depth\": -5, \"blocks_checked\": \"many\", \"bad_blocks\": -3,"
                                           "\"counts\": {\"recovery\": \"x\"}, \"bad_offsets\": [\"a\", -1, {}]}");
  g_autoptr(CmOutcome) empty = outcome_of ("{}");

  /* Nothing of the wrong type counts: no queueing, nothing lost. */
  g_assert_cmpint (typed->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpint (typed->exit_status, ==, 0);
  g_assert_cmpint (empty->status, ==, CM_OUTCOME_NOT_JUDGED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/job-queue/safe-so-far", test_safe_so_far);
  g_test_add_func ("/cardmark/job-queue/recoveries-turn-it", test_recoveries_turn_it);
  g_test_add_func ("/cardmark/job-queue/blocks-wrong", test_blocks_wrong);
  g_test_add_func ("/cardmark/job-queue/queueing-off", test_queueing_off);
  g_test_add_func ("/cardmark/job-queue/hostile", test_hostile);

  return g_test_run ();
}
