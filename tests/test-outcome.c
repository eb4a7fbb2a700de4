/* test-outcome.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every kind says its document's one outcome in its own words: a worn
 * card is never called fake, a stopped wear test is never a pass nor
 * green and exits 5, a fake card or lost data exits 4, a class below
 * exits 3. The documents are built by hand, one per outcome.
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include "cm-capacity-probe.h"
#include "cm-endurance.h"
#include "cm-outcome.h"
#include "cm-test-table.h"

static CmResult *
new_wear (guint        rounds,
          guint        lost_from,
          const char  *stopped)
{
  CmResult *result = cm_result_new ();
  CmEndurance *endurance = cm_endurance_new ();

  for (guint r = 1; r <= rounds; r++)
    {
      CmWearRound round = { .round = r, .write_mb_per_s = 20, .read_mb_per_s = 40,
                            .sectors = 1 << 16, .bytes_written = (guint64) r << 25, .seconds = 5 };

      round.bad_sectors = lost_from != 0 && r >= lost_from ? 10 * (r - lost_from + 1) : 0;
      round.new_bad_sectors = lost_from != 0 && r >= lost_from ? 10 : 0;
      g_array_append_val (endurance->rounds, round);
    }
  endurance->stopped = g_strdup (stopped);
  cm_result_set_kind (result, "wear");
  cm_result_set_endurance (result, endurance);
  cm_endurance_free (endurance);
  return result;
}

static void
assert_outcome (CmResult        *result,
                CmOutcomeStatus  status,
                const char      *badge_prefix,
                int              exit_status)
{
  g_autoptr(CmOutcome) outcome = cm_result_dup_outcome (result);

  g_test_message ("%s: %s, “%s”, “%s”, exit %d", cm_result_get_kind (result),
                  cm_outcome_status_to_string (outcome->status), outcome->badge,
                  outcome->answer != NULL ? outcome->answer : "", outcome->exit_status);
  g_assert_cmpstr (cm_outcome_status_to_string (outcome->status), ==, cm_outcome_status_to_string (status));
  g_assert_true (g_str_has_prefix (outcome->badge, badge_prefix));
  g_assert_cmpint (outcome->exit_status, ==, exit_status);
  /* Only a pass is green; nothing else reads as one. */
  g_assert_true ((outcome->tone == CM_STATUS_MEETS) == (status == CM_OUTCOME_PASS));
  if (outcome->answer != NULL)
    {
      g_assert_null (strstr (outcome->answer, "0.0 %"));
      g_assert_null (strstr (outcome->answer, "--"));
    }
}

static void
test_wear (void)
{
  g_autoptr(CmResult) whole = new_wear (3, 0, "rounds");
  g_autoptr(CmResult) worn = new_wear (3, 2, "rounds");
  g_autoptr(CmResult) stopped = new_wear (1, 0, "cancelled");
  g_autoptr(CmResult) pulled = new_wear (2, 0, "card-gone");
  g_autoptr(CmResult) stopped_worn = new_wear (2, 2, "cancelled");
  g_autoptr(CmResult) refused = new_wear (2, 0, "failed");
  g_autoptr(CmOutcome) outcome = NULL;

  assert_outcome (whole, CM_OUTCOME_PASS, "Lasted 3 rounds", 0);
  assert_outcome (worn, CM_OUTCOME_FAIL, "Data lost from round 2", 4);
  assert_outcome (stopped, CM_OUTCOME_STOPPED, "Stopped", 5);
  assert_outcome (pulled, CM_OUTCOME_STOPPED, "Stopped", 1);
  /* A card that refused the work failed the run: never "Lasted". */
  assert_outcome (refused, CM_OUTCOME_STOPPED, "Stopped", 1);
  /* What it found before the stop is the answer: data lost. */
  assert_outcome (stopped_worn, CM_OUTCOME_FAIL, "Data lost from round 2", 4);

  /* A worn card is worn, not counterfeit. */
  outcome = cm_result_dup_outcome (worn);
  g_assert_null (strstr (outcome->badge, "Fake"));
  g_assert_null (strstr (outcome->answer, "Fake"));
  g_clear_pointer (&outcome, cm_outcome_free);
  /* A stop never says it came back whole. */
  outcome = cm_result_dup_outcome (stopped);
  g_assert_null (strstr (outcome->answer, "came back whole"));
}

static void
test_capacity (void)
{
  for (guint fake = 0; fake < 2; fake++)
    {
      g_autoptr(CmResult) result = cm_result_new ();
      g_autoptr(CmCapacityReport) report = cm_capacity_report_new ();

      report->reported_bytes = G_GUINT64_CONSTANT (64000000000);
      report->real_bytes = fake ? G_GUINT64_CONSTANT (8000000000) : report->reported_bytes;
      report->fake = fake;
      cm_result_set_capacity (result, report);
      assert_outcome (result, fake ? CM_OUTCOME_FAIL : CM_OUTCOME_PASS, fake ? "Fake" : "Genuine", fake ? 4 : 0);
    }
}

static void
test_verify (void)
{
  for (guint lost = 0; lost < 2; lost++)
    {
      g_autoptr(CmResult) result = cm_result_new ();
      g_autoptr(CmVerifySummary) verify = cm_verify_summary_new ();

      verify->mode = g_strdup ("device");
      verify->complete = TRUE;
      verify->written_bytes = verify->checked_bytes = 1 << 26;
      verify->lost_bytes = lost ? 1 << 24 : 0;
      verify->usable_bytes = verify->checked_bytes - verify->lost_bytes;
      cm_result_set_kind (result, "verify");
      cm_result_set_verify (result, verify);
      assert_outcome (result, lost ? CM_OUTCOME_FAIL : CM_OUTCOME_PASS, lost ? "Data lost" : "Intact", lost ? 4 : 0);
    }
}

static void
add_claim (CmResult   *result,
           const char *klass,
           CmStatus    status)
{
  CmClaim *claim = cm_claim_new (klass);
  CmCriterion *c = cm_criterion_new ("sustained-write", CM_TEST_SEQ_WRITE, "MB/s", 20, 30);

  c->status = status;
  claim->status = status;
  claim->source = g_strdup ("label");
  g_ptr_array_add (claim->criteria, c);
  cm_result_take_claim (result, claim);
}

static void
test_bench (void)
{
  g_autoptr(CmResult) none = cm_result_new ();
  g_autoptr(CmResult) meets = cm_result_new ();
  g_autoptr(CmResult) below = cm_result_new ();
  g_autoptr(CmOutcome) outcome = NULL;

  cm_result_set_kind (none, "bench");
  assert_outcome (none, CM_OUTCOME_NOT_JUDGED, "No class judged", 0);
  outcome = cm_result_dup_outcome (none);
  g_assert_null (outcome->answer);

  cm_result_set_kind (meets, "bench");
  cm_result_set_target (meets, "/media/card", "file", "/dev/sdx", NULL);
  add_claim (meets, "U3", CM_STATUS_MEETS);
  assert_outcome (meets, CM_OUTCOME_PASS, "Meets", 0);

  cm_result_set_kind (below, "bench");
  cm_result_set_target (below, "/media/card", "file", "/dev/sdx", NULL);
  add_claim (below, "U3", CM_STATUS_MEETS);
  add_claim (below, "V30", CM_STATUS_BELOW);
  assert_outcome (below, CM_OUTCOME_FAIL, "Below", 3);
}

/* A document of a kind this CardMark does not know: not judged. */
static void
test_unknown_kind (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmOutcome) stopped = cm_outcome_new_stopped ("verify");
  CmOutcomeStatus status;

  cm_result_set_kind (result, "from-the-future");
  assert_outcome (result, CM_OUTCOME_NOT_JUDGED, "Not judged", 0);

  g_assert_cmpint (stopped->exit_status, ==, CM_OUTCOME_EXIT_STOPPED);
  g_assert_cmpint (stopped->tone, !=, CM_STATUS_MEETS);
  for (guint i = CM_OUTCOME_PASS; i <= CM_OUTCOME_STOPPED; i++)
    {
      g_assert_true (cm_outcome_status_from_string (cm_outcome_status_to_string (i), &status));
      g_assert_cmpint (status, ==, i);
    }
  g_assert_false (cm_outcome_status_from_string ("green", &status));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/outcome/wear", test_wear);
  g_test_add_func ("/cardmark/outcome/capacity", test_capacity);
  g_test_add_func ("/cardmark/outcome/verify", test_verify);
  g_test_add_func ("/cardmark/outcome/bench", test_bench);
  g_test_add_func ("/cardmark/outcome/unknown-kind", test_unknown_kind);

  return g_test_run ();
}
