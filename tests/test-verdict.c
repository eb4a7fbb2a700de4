/* test-verdict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "cm-test-table.h"
#include "cm-verdict.h"

/* The SD Association minimums, read from the reference table
 * (tests/data/reference/sd-cards.md § Classes and their minimums), not
 * from the code. */
typedef struct
{
  char       *klass;
  double      write_mb_s;
  double      read_iops;   /* 0: the class has no random figures */
  double      write_iops;
  gboolean    queued;
} Expected;

static Expected *expected;
static guint n_expected;

/* Adds the classes of one table row: "| C2, C4, C6 | … | 2, 4, 6 MB/s | … |"
 * or "| A1 | … | 1500 IOPS / 500 IOPS / 10 MB/s | … |". */
static void
add_reference_row (GArray     *classes,
                   const char *line)
{
  g_auto(GStrv) cells = g_strsplit (line, "|", -1);
  g_auto(GStrv) marks = NULL;
  g_auto(GStrv) figures = NULL;

  /* "", mark, promise, figure, bus mode, "" */
  g_assert_cmpuint (g_strv_length (cells), ==, 6);
  marks = g_strsplit (cells[1], ",", -1);

  if (strstr (cells[3], "IOPS") != NULL)
    {
      Expected e = { 0 };

      figures = g_strsplit (cells[3], " / ", -1);
      g_assert_cmpuint (g_strv_length (marks), ==, 1);
      g_assert_cmpuint (g_strv_length (figures), ==, 3);
      e.klass = g_strstrip (g_strdup (marks[0]));
      e.read_iops = g_ascii_strtod (figures[0], NULL);
      e.write_iops = g_ascii_strtod (figures[1], NULL);
      e.write_mb_s = g_ascii_strtod (figures[2], NULL);
      e.queued = strstr (cells[4], "command queueing") != NULL;
      g_array_append_val (classes, e);
      return;
    }

  g_assert_nonnull (strstr (cells[3], "MB/s"));
  figures = g_strsplit (cells[3], ",", -1);
  g_assert_cmpuint (g_strv_length (figures), ==, g_strv_length (marks));
  for (guint i = 0; marks[i] != NULL; i++)
    {
      Expected e = { 0 };

      e.klass = g_strstrip (g_strdup (marks[i]));
      e.write_mb_s = g_ascii_strtod (figures[i], NULL);
      g_assert_cmpfloat (e.write_mb_s, >, 0);
      g_array_append_val (classes, e);
    }
}

static void
load_reference_classes (void)
{
  const char *shared = g_getenv ("CARDMARK_SHARED");
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GArray *classes = g_array_new (FALSE, TRUE, sizeof (Expected));
  gboolean in_table = FALSE;

  g_assert_nonnull (shared);
  path = g_build_filename (shared, "reference", "sd-cards.md", NULL);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "## "))
        in_table = strcmp (lines[i], "## Classes and their minimums") == 0;
      else if (in_table && lines[i][0] == '|' && !g_str_has_prefix (lines[i], "| mark") &&
               !g_str_has_prefix (lines[i], "|---"))
        add_reference_row (classes, lines[i]);
    }

  /* The thirteen classes of the SD specification's table. */
  g_assert_cmpuint (classes->len, ==, 13);
  n_expected = classes->len;
  expected = (Expected *) g_array_free (classes, FALSE);
}

/* Figures given to a constructed result; a negative figure leaves the
 * test out. */
typedef struct
{
  double write_mb_s;
  double rr;
  double rw;
  double rr32;
  double rw32;
} Figures;

static void
add_test (CmResult   *result,
          const char *name,
          double      mb_per_s,
          double      iops)
{
  CmTestResult *test;

  if (mb_per_s < 0 || iops < 0)
    return;

  test = cm_test_result_new (name);
  test->mb_per_s = mb_per_s;
  test->iops = iops;
  test->seconds = 5;
  if (g_str_has_prefix (name, "seq-"))
    test->sustained_mb_per_s = mb_per_s;
  cm_result_take_test (result, test);
}

static CmResult *
make_result (const Figures *f)
{
  CmResult *result = cm_result_new ();

  cm_result_set_target (result, "/dev/mmcblk0", "raw-write", "/dev/mmcblk0", NULL);
  cm_result_set_direct_io (result, TRUE);
  add_test (result, "seq-read", 80, 20);
  add_test (result, "seq-write", f->write_mb_s, f->write_mb_s / 4.194304);
  add_test (result, "rand-write-4k", f->rw * 0.004096, f->rw);
  add_test (result, "rand-read-4k", f->rr * 0.004096, f->rr);
  add_test (result, "rand-write-4k-qd32", f->rw32 * 0.004096, f->rw32);
  add_test (result, "rand-read-4k-qd32", f->rr32 * 0.004096, f->rr32);

  return result;
}

/* Figures that meet everything ten times over, with a host that queues. */
static Figures
plenty (void)
{
  Figures f = { 900, 15000, 5000, 40000, 20000 };
  return f;
}

static CmClaim *
find_claim (CmResult   *result,
            const char *klass)
{
  GPtrArray *claims = cm_result_get_claims (result);

  for (guint i = 0; i < claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->klass, klass) == 0)
        return claim;
    }
  return NULL;
}

static CmCriterion *
find_criterion (CmClaim    *claim,
                const char *name)
{
  for (guint i = 0; i < claim->criteria->len; i++)
    {
      CmCriterion *c = g_ptr_array_index (claim->criteria, i);

      if (g_strcmp0 (c->name, name) == 0)
        return c;
    }
  return NULL;
}

static CmClaim *
judge_one (CmResult   *result,
           const char *klass)
{
  const char *claims[] = { klass, NULL };
  CmClaim *claim;

  cm_verdict_judge (result, claims, NULL);
  claim = find_claim (result, klass);
  g_assert_nonnull (claim);
  g_assert_cmpstr (claim->source, ==, "label");
  return claim;
}

static void
assert_status (CmStatus got,
               CmStatus want)
{
  g_assert_cmpstr (cm_status_to_string (got), ==, cm_status_to_string (want));
}

/* at, just above, within 10 % below, far below */
static const struct
{
  double   factor;
  CmStatus status;
} steps[] = {
  { 1.00, CM_STATUS_MEETS },
  { 1.05, CM_STATUS_MEETS },
  { 0.95, CM_STATUS_MARGINAL },
  { 0.90, CM_STATUS_MARGINAL },
  { 0.85, CM_STATUS_BELOW },
  { 0.50, CM_STATUS_BELOW },
};

static void
test_write_thresholds (void)
{
  for (guint i = 0; i < n_expected; i++)
    {
      for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
        {
          Figures f = plenty ();
          g_autoptr(CmResult) result = NULL;
          CmClaim *claim;
          CmCriterion *c;

          f.write_mb_s = expected[i].write_mb_s * steps[s].factor;
          result = make_result (&f);
          claim = judge_one (result, expected[i].klass);
          c = find_criterion (claim, "sustained-write");

          g_test_message ("%s at %.2f x %.0f MB/s", expected[i].klass, steps[s].factor,
                          expected[i].write_mb_s);
          g_assert_nonnull (c);
          g_assert_cmpfloat (c->required, ==, expected[i].write_mb_s);
          g_assert_cmpfloat_with_epsilon (c->measured, f.write_mb_s, 1e-9);
          g_assert_cmpstr (c->unit, ==, "MB/s");
          assert_status (c->status, steps[s].status);
          assert_status (claim->status, steps[s].status);
          g_assert_cmpuint (claim->criteria->len, ==, expected[i].read_iops > 0 ? 3 : 1);
          if (steps[s].status == CM_STATUS_MEETS)
            g_assert_null (claim->reason);
          else
            g_assert_nonnull (strstr (claim->reason, expected[i].klass));
          g_assert_true (cm_verdict_any_below (result) == (steps[s].status == CM_STATUS_BELOW));
        }
    }
}

static void
test_iops_thresholds (void)
{
  for (guint i = 0; i < n_expected; i++)
    {
      if (expected[i].read_iops == 0)
        continue;

      for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
        {
          for (guint which = 0; which < 2; which++)
            {
              Figures f = plenty ();
              g_autoptr(CmResult) result = NULL;
              double required = which == 0 ? expected[i].read_iops : expected[i].write_iops;
              double measured = required * steps[s].factor;
              CmClaim *claim;
              CmCriterion *c;

              /* Depth 1 stays well under depth 32, so the host queues. */
              if (which == 0)
                {
                  if (expected[i].queued)
                    f.rr32 = measured, f.rr = measured / 3;
                  else
                    f.rr = measured;
                }
              else
                {
                  if (expected[i].queued)
                    f.rw32 = measured, f.rw = measured / 3;
                  else
                    f.rw = measured;
                }

              result = make_result (&f);
              claim = judge_one (result, expected[i].klass);
              c = find_criterion (claim, which == 0 ? "random-read" : "random-write");

              g_assert_nonnull (c);
              g_assert_cmpfloat (c->required, ==, required);
              g_assert_cmpfloat_with_epsilon (c->measured, measured, 1e-9);
              g_assert_cmpstr (c->unit, ==, "IOPS");
              g_assert_nonnull (strstr (c->test, expected[i].queued ? "-qd32" : "-4k"));
              g_assert_true (g_str_has_suffix (c->test, "-qd32") == expected[i].queued);
              assert_status (c->status, steps[s].status);
              assert_status (claim->status, steps[s].status);
            }
        }
    }
}

static void
test_sustained_preferred (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  CmTestResult *sustained = cm_test_result_new ("seq-write-sustained");
  CmClaim *claim;
  CmCriterion *c;

  f.write_mb_s = 40;
  result = make_result (&f);
  sustained->mb_per_s = 25;
  sustained->sustained_mb_per_s = 12;
  cm_result_take_test (result, sustained);

  claim = judge_one (result, "U3");
  c = find_criterion (claim, "sustained-write");
  g_assert_cmpstr (c->test, ==, "seq-write-sustained");
  g_assert_cmpfloat (c->measured, ==, 12);
  assert_status (claim->status, CM_STATUS_BELOW);
}

/* A write that went past its cliff is judged on the rate after it, and
 * confirms what it judges; the 10th percentile does not count then. */
static void
test_after_cliff (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  CmTestResult *write;
  CmClaim *claim;
  CmCriterion *c;

  f.write_mb_s = 40;
  result = make_result (&f);
  write = cm_result_lookup_test (result, "seq-write");
  write->has_cliff = TRUE;
  write->cliff.found = TRUE;
  write->cliff.full_speed_bytes = 64 * 1000 * 1000;
  write->cliff.before_mb_per_s = 40;
  write->cliff.after_mb_per_s = 12;
  write->sustained_mb_per_s = 3;

  claim = judge_one (result, "V30");
  c = find_criterion (claim, "sustained-write");
  g_assert_cmpfloat (c->measured, ==, 12);
  assert_status (claim->status, CM_STATUS_BELOW);

  claim = judge_one (result, "C10");
  assert_status (claim->status, CM_STATUS_MEETS);
  g_assert_null (claim->reason);
  g_assert_null (strstr (cm_result_get_summary (result), "Full test"));
}

/* A short write that found no cliff meets V30 only as far as it went:
 * the status stays, the reason and the summary say how far. */
static void
test_short_write_caveat (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  g_autofree char *size = NULL;
  CmTestResult *write;
  CmClaim *claim;

  f.write_mb_s = 40;
  result = make_result (&f);
  write = cm_result_lookup_test (result, "seq-write");
  write->bytes = 256 * 1024 * 1024;
  write->has_cliff = TRUE;
  write->cliff.full_speed_bytes = write->bytes;
  write->cliff.before_mb_per_s = write->cliff.after_mb_per_s = 40;
  size = g_format_size (write->bytes);

  claim = judge_one (result, "V30");
  assert_status (claim->status, CM_STATUS_MEETS);
  g_assert_nonnull (claim->reason);
  g_assert_nonnull (strstr (claim->reason, size));
  g_assert_nonnull (strstr (claim->reason, "Full test"));
  g_assert_nonnull (strstr (cm_result_get_summary (result), "Fine for 4K video"));
  g_assert_nonnull (strstr (cm_result_get_summary (result), size));
  g_assert_nonnull (strstr (cm_result_get_summary (result), "Full test"));

  /* The long sustained write confirms it, whatever its cliff. */
  write = cm_test_result_new ("seq-write-sustained");
  write->mb_per_s = write->sustained_mb_per_s = 40;
  write->bytes = G_GUINT64_CONSTANT (8) << 30;
  cm_result_take_test (result, write);
  claim = judge_one (result, "V30");
  assert_status (claim->status, CM_STATUS_MEETS);
  g_assert_null (claim->reason);
  g_assert_null (strstr (cm_result_get_summary (result), "Full test"));
}

static void
test_usb2_ceiling (void)
{
  static const struct
  {
    const char *klass;
    double      measured;
    CmStatus    status;
  } cases[] = {
    { "V60", 33, CM_STATUS_NOT_JUDGED },  /* held back by the reader */
    { "V90", 37, CM_STATUS_NOT_JUDGED },
    { "V60", 12, CM_STATUS_BELOW },       /* far under what USB 2.0 carries */
    { "V60", 61, CM_STATUS_MEETS },       /* meets anyway */
    { "U3", 28, CM_STATUS_MARGINAL },     /* USB 2.0 carries 30 MB/s */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Figures f = plenty ();
      g_autoptr(CmResult) result = NULL;
      CmClaim *claim;

      f.write_mb_s = cases[i].measured;
      result = make_result (&f);
      cm_result_set_target (result, "/dev/sdb", "raw-write", "/dev/sdb", "usb");
      cm_result_set_usb_speed_mbps (result, 480);
      claim = judge_one (result, cases[i].klass);

      assert_status (claim->status, cases[i].status);
      if (cases[i].status == CM_STATUS_NOT_JUDGED)
        g_assert_nonnull (strstr (claim->reason, "USB 2.0"));

      /* The same figure through a USB 3 reader is the card's own. */
      cm_result_set_usb_speed_mbps (result, 5000);
      claim = judge_one (result, cases[i].klass);
      if (cases[i].status == CM_STATUS_NOT_JUDGED)
        assert_status (claim->status, CM_STATUS_BELOW);
    }
}

static void
test_pi_ceiling (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  CmClaim *claim;

  f.write_mb_s = 44;
  result = make_result (&f);
  cm_result_set_target (result, "/dev/mmcblk0", "raw-write", "/dev/mmcblk0", "sd-slot");
  cm_result_set_host (result, "Raspberry Pi 4 Model B Rev 1.4");

  claim = judge_one (result, "V90");
  assert_status (claim->status, CM_STATUS_NOT_JUDGED);
  g_assert_nonnull (strstr (claim->reason, "Raspberry Pi 4"));
  claim = judge_one (result, "V30");
  assert_status (claim->status, CM_STATUS_MEETS);

  /* A Pi 5 slot carries 60 MB/s, so 44 is the card's own figure. */
  cm_result_set_host (result, "Raspberry Pi 5 Model B Rev 1.0");
  claim = judge_one (result, "V60");
  assert_status (claim->status, CM_STATUS_BELOW);

  /* A Pi 4 with a USB 3 reader is not held to the slot's ceiling. */
  cm_result_set_host (result, "Raspberry Pi 4 Model B Rev 1.4");
  cm_result_set_target (result, "/dev/sda", "raw-write", "/dev/sda", "usb");
  cm_result_set_usb_speed_mbps (result, 5000);
  claim = judge_one (result, "V90");
  assert_status (claim->status, CM_STATUS_BELOW);
}

/* The timing the slot negotiated (debugfs, root) outranks the guess from
 * the model: a Pi 4 whose card fell back to High Speed tops out at 25 MB/s. */
static void
test_bus_timing_ceiling (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  CmHostFacts host = { (char *) "Raspberry Pi 4 Model B Rev 1.4", (char *) "HS", CM_QUEUEING_UNKNOWN };
  CmClaim *claim;

  f.write_mb_s = 21;
  result = make_result (&f);
  cm_result_set_target (result, "/dev/mmcblk0", "raw-write", "/dev/mmcblk0", "sd-slot");
  cm_result_set_host_facts (result, &host);

  claim = judge_one (result, "U3");
  assert_status (claim->status, CM_STATUS_NOT_JUDGED);
  g_assert_nonnull (strstr (claim->reason, "HS"));

  /* Without the timing, the Pi 4's slot (DDR50, 45 MB/s) is no excuse. */
  host.bus_timing = NULL;
  cm_result_set_host_facts (result, &host);
  claim = judge_one (result, "U3");
  assert_status (claim->status, CM_STATUS_BELOW);

  /* A timing this table does not know falls back on the model. */
  host.bus_timing = (char *) "HS400";
  cm_result_set_host_facts (result, &host);
  claim = judge_one (result, "U3");
  assert_status (claim->status, CM_STATUS_BELOW);
}

/* A slot that says it has no command queue can't be judged for A2, even
 * when queue depth 32 looks faster (the kernel's own request merging
 * and noise): the shortfall is the host's, and the reason says what to do. */
static void
test_a2_host_without_queueing (void)
{
  Figures f = { 40, 2500, 900, 3500, 1500 };
  g_autoptr(CmResult) result = make_result (&f);
  CmHostFacts pi5 = { (char *) "Raspberry Pi 5 Model B Rev 1.0", (char *) "SDR104", CM_QUEUEING_NO };
  CmHostFacts pi4 = { (char *) "Raspberry Pi 4 Model B Rev 1.4", (char *) "DDR50", CM_QUEUEING_NO };
  CmClaim *a2;

  cm_result_set_target (result, "/dev/mmcblk0", "raw-write", "/dev/mmcblk0", "sd-slot");

  /* Unknown queueing: the figures show queueing, so A2 is judged. */
  a2 = judge_one (result, "A2");
  assert_status (a2->status, CM_STATUS_BELOW);

  cm_result_set_host_facts (result, &pi5);
  a2 = judge_one (result, "A2");
  assert_status (a2->status, CM_STATUS_NOT_JUDGED);
  g_assert_nonnull (strstr (a2->reason, "dtparam=sd_cqe"));

  cm_result_set_host_facts (result, &pi4);
  a2 = judge_one (result, "A2");
  assert_status (a2->status, CM_STATUS_NOT_JUDGED);
  g_assert_null (strstr (a2->reason, "dtparam"));
  g_assert_nonnull (strstr (a2->reason, "Raspberry Pi 5 can"));
}

static void
test_a2_without_queueing (void)
{
  Figures f = { 40, 2000, 800, 2200, 850 };
  g_autoptr(CmResult) result = make_result (&f);
  CmClaim *a2 = judge_one (result, "A2");
  CmClaim *a1 = find_claim (result, "A1");

  assert_status (a2->status, CM_STATUS_NOT_JUDGED);
  g_assert_true (g_str_has_prefix (a2->reason, "Can't judge A2 on this reader: it doesn't queue commands"));
  g_assert_nonnull (strstr (a2->reason, "meets A1"));
  assert_status (find_criterion (a2, "random-read")->status, CM_STATUS_NOT_JUDGED);
  assert_status (find_criterion (a2, "sustained-write")->status, CM_STATUS_MEETS);

  /* Judged against A1 instead, on the depth-1 tests. */
  g_assert_nonnull (a1);
  g_assert_cmpstr (a1->source, ==, "label");
  assert_status (a1->status, CM_STATUS_MEETS);
  g_assert_cmpstr (find_criterion (a1, "random-read")->test, ==, "rand-read-4k");
  g_assert_cmpfloat (find_criterion (a1, "random-read")->measured, ==, 2000);
  g_assert_false (cm_verdict_any_below (result));
  g_assert_true (g_str_has_prefix (cm_result_get_summary (result),
                                   "Can't judge A2 on this reader: it doesn't queue commands"));
}

static void
test_a2_fallback_below_a1 (void)
{
  Figures f = { 40, 1000, 300, 1100, 320 };
  g_autoptr(CmResult) result = make_result (&f);
  CmClaim *a2 = judge_one (result, "A2");
  CmClaim *a1 = find_claim (result, "A1");

  assert_status (a2->status, CM_STATUS_NOT_JUDGED);
  g_assert_nonnull (strstr (a2->reason, "misses A1"));
  assert_status (a1->status, CM_STATUS_BELOW);
  g_assert_true (cm_verdict_any_below (result));
}

static void
test_a2_meets_without_queueing (void)
{
  /* Little gain from depth 32, but the figures are there anyway. */
  Figures f = { 40, 3800, 1900, 4200, 2100 };
  g_autoptr(CmResult) result = make_result (&f);
  CmClaim *a2 = judge_one (result, "A2");

  assert_status (a2->status, CM_STATUS_MEETS);
  g_assert_null (find_claim (result, "A1"));
}

static void
test_a2_queued_below (void)
{
  /* The host queues (depth 32 is 3× depth 1) and the card still misses. */
  Figures f = { 40, 1000, 300, 3000, 900 };
  g_autoptr(CmResult) result = make_result (&f);
  CmClaim *a2 = judge_one (result, "A2");

  assert_status (a2->status, CM_STATUS_BELOW);
  g_assert_null (find_claim (result, "A1"));
}

static void
test_buffered (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = make_result (&f);
  const char *claims[] = { "C10", "A1", NULL };
  GPtrArray *all;

  cm_result_set_direct_io (result, FALSE);
  cm_verdict_judge (result, claims, NULL);
  all = cm_result_get_claims (result);
  g_assert_cmpuint (all->len, ==, 2);
  for (guint i = 0; i < all->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (all, i);

      assert_status (claim->status, CM_STATUS_NOT_JUDGED);
      g_assert_nonnull (strstr (claim->reason, "inflated"));
    }
  assert_status (cm_verdict_worst (result), CM_STATUS_NOT_JUDGED);
  g_assert_nonnull (strstr (cm_result_get_summary (result), "inflated"));
}

static void
test_missing_and_failed (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  CmClaim *claim;

  f.write_mb_s = -1;
  result = make_result (&f);
  claim = judge_one (result, "C10");
  assert_status (claim->status, CM_STATUS_NOT_JUDGED);
  /* The missing test by the name people read, not the internal one. */
  g_assert_nonnull (strstr (claim->reason, cm_test_table_get_label ("seq-write")));
  g_assert_null (strstr (claim->reason, "seq-write"));

  /* A read-only run blames the method and names the one that can judge. */
  cm_result_set_target (result, "/dev/mmcblk0", "raw-read", "/dev/mmcblk0", NULL);
  claim = judge_one (result, "C10");
  g_assert_nonnull (strstr (claim->reason, "read-only raw test"));
  g_assert_nonnull (strstr (claim->reason, "Raw test with writes"));
  g_assert_null (strstr (claim->reason, "reader"));

  g_clear_object (&result);
  f = plenty ();
  result = make_result (&f);
  cm_result_lookup_test (result, "seq-write")->error = g_strdup ("The card is write-protected.");
  claim = judge_one (result, "U1");
  assert_status (claim->status, CM_STATUS_NOT_JUDGED);
  g_assert_nonnull (strstr (claim->reason, "write-protected"));
  g_assert_false (cm_verdict_any_below (result));
}

static void
test_worst_criterion (void)
{
  static const struct
  {
    double   rr_factor;
    double   rw_factor;
    double   write_factor;
    CmStatus status;
  } cases[] = {
    { 1.2, 1.2, 1.2, CM_STATUS_MEETS },
    { 0.95, 1.2, 1.2, CM_STATUS_MARGINAL },
    { 0.95, 0.5, 1.2, CM_STATUS_BELOW },
    { 0.95, -1, 1.2, CM_STATUS_NOT_JUDGED },  /* missing beats marginal */
    { 0.5, -1, 1.2, CM_STATUS_BELOW },        /* below beats missing */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Figures f = plenty ();
      g_autoptr(CmResult) result = NULL;
      CmClaim *claim;

      f.rr = 1500 * cases[i].rr_factor;
      f.rw = cases[i].rw_factor < 0 ? -1 : 500 * cases[i].rw_factor;
      f.write_mb_s = 10 * cases[i].write_factor;
      result = make_result (&f);
      claim = judge_one (result, "A1");
      assert_status (claim->status, cases[i].status);
      assert_status (cm_verdict_worst (result), cases[i].status);
    }
}

static void
test_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) classes = cm_verdict_parse_classes ("u3, V30,a2", &error);
  g_auto(GStrv) sorted = cm_verdict_parse_classes ("A2,c10,,C10 U1", &error);
  g_auto(GStrv) none = cm_verdict_parse_classes (NULL, &error);
  g_auto(GStrv) empty = cm_verdict_parse_classes (" , ", &error);
  g_auto(GStrv) bad = NULL;
  const char *want[] = { "U3", "V30", "A2", NULL };
  const char *want_sorted[] = { "C10", "U1", "A2", NULL };

  g_assert_no_error (error);
  g_assert_true (g_strv_equal ((const char * const *) classes, want));
  g_assert_true (g_strv_equal ((const char * const *) sorted, want_sorted));
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  g_assert_cmpuint (g_strv_length (empty), ==, 0);

  bad = cm_verdict_parse_classes ("U3,X7", &error);
  g_assert_null (bad);
  g_assert_error (error, CM_VERDICT_ERROR, CM_VERDICT_ERROR_UNKNOWN_CLASS);
  g_assert_nonnull (strstr (error->message, "X7"));
  g_clear_error (&error);

  bad = cm_verdict_parse_classes ("U2", &error);
  g_assert_null (bad);
  g_assert_error (error, CM_VERDICT_ERROR, CM_VERDICT_ERROR_UNKNOWN_CLASS);
}

static void
test_figures_ladder (void)
{
  Figures f = { 35, 2000, 700, 2500, 800 };
  g_autoptr(CmResult) result = make_result (&f);
  GPtrArray *claims;

  /* No label and no declaration: every class, to show what the figures meet. */
  cm_verdict_judge (result, NULL, NULL);
  claims = cm_result_get_claims (result);
  g_assert_cmpuint (claims->len, ==, n_expected);
  for (guint i = 0; i < claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (claims, i);
      const Expected *e = &expected[i];
      gboolean meets = f.write_mb_s >= e->write_mb_s &&
                       (e->read_iops == 0 || e->queued ||
                        (f.rr >= e->read_iops && f.rw >= e->write_iops));

      g_assert_cmpstr (claim->klass, ==, e->klass);
      g_assert_cmpstr (claim->source, ==, "figures");
      if (!e->queued)
        g_assert_true ((claim->status == CM_STATUS_MEETS) == meets);
    }

  /* Classes the figures miss are not the card's fault: exit status 0. */
  g_assert_false (cm_verdict_any_below (result));
  assert_status (cm_verdict_worst (result), CM_STATUS_MEETS);
  g_assert_cmpstr (cm_result_get_summary (result), ==, "Good for running Raspberry Pi OS (meets A1)");

  /* Judging again replaces the claims rather than adding to them. */
  cm_verdict_judge (result, NULL, NULL);
  g_assert_cmpuint (cm_result_get_claims (result)->len, ==, n_expected);
}

static void
test_summaries (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  const char *claims[] = { "U3", "V30", NULL };
  const char *a1[] = { "C10", "A1", NULL };

  f.write_mb_s = 19;
  result = make_result (&f);
  cm_verdict_judge (result, claims, NULL);
  g_test_message ("%s", cm_result_get_summary (result));
  g_assert_true (g_str_has_prefix (cm_result_get_summary (result), "Below its U3 label: sustained write 19.0 MB/s, U3 needs 30 MB/s"));
  g_clear_object (&result);

  f.write_mb_s = 31;
  f.rr = 900;
  result = make_result (&f);
  cm_verdict_judge (result, claims, NULL);
  g_assert_cmpstr (cm_result_get_summary (result), ==, "Fine for 4K video (meets V30)");
  g_clear_object (&result);

  f = plenty ();
  f.write_mb_s = 12;
  result = make_result (&f);
  cm_verdict_judge (result, a1, NULL);
  g_assert_cmpstr (cm_result_get_summary (result), ==, "Good for running Raspberry Pi OS (meets A1)");
  g_clear_object (&result);

  f.write_mb_s = 29;
  result = make_result (&f);
  cm_verdict_judge (result, claims, NULL);
  g_assert_true (g_str_has_prefix (cm_result_get_summary (result), "Just under its U3 label"));
}

/* An SD Status register declaring C10 and U1 and nothing else: SPEED_CLASS
 * (bits 447:440) is byte 8 from the top, UHS_SPEED_GRADE (399:396) the
 * high nibble of byte 14. */
static char *
make_ssr (void)
{
  char *ssr = g_strnfill (128, '0');

  ssr[16] = '0', ssr[17] = '4';
  ssr[28] = '1';
  return ssr;
}

static void
test_card_declares (void)
{
  Figures f = plenty ();
  g_autoptr(CmResult) result = NULL;
  g_autofree char *ssr = make_ssr ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardInfo) card = cm_card_info_new_from_registers (NULL, NULL, NULL, ssr, &error);
  const char *label[] = { "U3", NULL };
  GPtrArray *claims;

  g_assert_no_error (error);
  f.write_mb_s = 8;
  result = make_result (&f);
  cm_result_set_card (result, card);

  /* No label: the card's own declaration is judged. */
  cm_verdict_judge (result, NULL, NULL);
  claims = cm_result_get_claims (result);
  g_assert_cmpuint (claims->len, ==, 2);
  g_assert_cmpstr (((CmClaim *) g_ptr_array_index (claims, 0))->klass, ==, "C10");
  g_assert_cmpstr (((CmClaim *) g_ptr_array_index (claims, 0))->source, ==, "card");
  g_assert_cmpstr (((CmClaim *) g_ptr_array_index (claims, 1))->klass, ==, "U1");
  g_assert_true (cm_verdict_any_below (result));
  g_assert_true (g_str_has_prefix (cm_result_get_summary (result), "Below the C10 class it declares"));

  /* The label wins over the declaration. */
  cm_verdict_judge (result, label, NULL);
  claims = cm_result_get_claims (result);
  g_assert_cmpuint (claims->len, ==, 1);
  g_assert_cmpstr (((CmClaim *) g_ptr_array_index (claims, 0))->source, ==, "label");

  /* A U3 label on a card that declares U1 is a warning sign. */
  g_assert_cmpuint (cm_result_get_notes (result)->len, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  load_reference_classes ();

  g_test_add_func ("/cardmark/verdict/write-thresholds", test_write_thresholds);
  g_test_add_func ("/cardmark/verdict/iops-thresholds", test_iops_thresholds);
  g_test_add_func ("/cardmark/verdict/sustained-preferred", test_sustained_preferred);
  g_test_add_func ("/cardmark/verdict/after-cliff", test_after_cliff);
  g_test_add_func ("/cardmark/verdict/short-write-caveat", test_short_write_caveat);
  g_test_add_func ("/cardmark/verdict/usb2-ceiling", test_usb2_ceiling);
  g_test_add_func ("/cardmark/verdict/pi-ceiling", test_pi_ceiling);
  g_test_add_func ("/cardmark/verdict/bus-timing-ceiling", test_bus_timing_ceiling);
  g_test_add_func ("/cardmark/verdict/a2-host-without-queueing", test_a2_host_without_queueing);
  g_test_add_func ("/cardmark/verdict/a2-without-queueing", test_a2_without_queueing);
  g_test_add_func ("/cardmark/verdict/a2-fallback-below-a1", test_a2_fallback_below_a1);
  g_test_add_func ("/cardmark/verdict/a2-meets-without-queueing", test_a2_meets_without_queueing);
  g_test_add_func ("/cardmark/verdict/a2-queued-below", test_a2_queued_below);
  g_test_add_func ("/cardmark/verdict/buffered", test_buffered);
  g_test_add_func ("/cardmark/verdict/missing-and-failed", test_missing_and_failed);
  g_test_add_func ("/cardmark/verdict/worst-criterion", test_worst_criterion);
  g_test_add_func ("/cardmark/verdict/parse", test_parse);
  g_test_add_func ("/cardmark/verdict/figures-ladder", test_figures_ladder);
  g_test_add_func ("/cardmark/verdict/summaries", test_summaries);
  g_test_add_func ("/cardmark/verdict/card-declares", test_card_declares);

  return g_test_run ();
}
