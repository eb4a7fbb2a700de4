/* cm-verdict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns the figures of a result into a status per claimed class, with
 * the reasons a person needs: docs/methodology.md explains every rule.
 * This file holds the class table, the rules and the summary sentence;
 * what the reader or card slot limits is in cm-verdict-host.c.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-counterfeit.h"
#include "cm-test-table.h"
#include "cm-verdict-private.h"

/* Within this fraction below a threshold a criterion is "marginal". */
#define MARGINAL_FRACTION 0.10
/* A figure this close to a reader's ceiling was held back by the reader. */
#define NEAR_CEILING 0.8

typedef struct
{
  const char *name;
  double      write_mb_s;
  double      read_iops;   /* 0 when the class has no random figures */
  double      write_iops;
  gboolean    queued;      /* the random figures need command queueing */
  gboolean    offered;     /* in the app's class picker (the old C2-C6, V6 are not) */
} ClassSpec;

/* SD Association minimums, as in docs/methodology.md. */
static const ClassSpec class_specs[] = {
  { "C2", 2, 0, 0, FALSE, FALSE },
  { "C4", 4, 0, 0, FALSE, FALSE },
  { "C6", 6, 0, 0, FALSE, FALSE },
  { "C10", 10, 0, 0, FALSE, TRUE },
  { "U1", 10, 0, 0, FALSE, TRUE },
  { "U3", 30, 0, 0, FALSE, TRUE },
  { "V6", 6, 0, 0, FALSE, FALSE },
  { "V10", 10, 0, 0, FALSE, TRUE },
  { "V30", 30, 0, 0, FALSE, TRUE },
  { "V60", 60, 0, 0, FALSE, TRUE },
  { "V90", 90, 0, 0, FALSE, TRUE },
  { "A1", 10, 1500, 500, FALSE, TRUE },
  { "A2", 10, 4000, 2000, TRUE, TRUE },
};

static const char * const class_names[] = {
  "C2", "C4", "C6", "C10", "U1", "U3", "V6", "V10", "V30", "V60", "V90",
  "A1", "A2", NULL
};

G_DEFINE_QUARK (cm-verdict-error-quark, cm_verdict_error)

/**
 * cm_verdict_get_offered_classes:
 *
 * The classes a class picker offers, in the order of the table: those
 * still printed on cards people buy.
 *
 * Returns: (transfer none): a %NULL-terminated list
 */
const char * const *
cm_verdict_get_offered_classes (void)
{
  static gsize offered = 0;

  if (g_once_init_enter (&offered))
    {
      GPtrArray *list = g_ptr_array_new ();

      for (guint i = 0; i < G_N_ELEMENTS (class_specs); i++)
        if (class_specs[i].offered)
          g_ptr_array_add (list, (gpointer) class_specs[i].name);
      g_ptr_array_add (list, NULL);
      g_once_init_leave (&offered, (gsize) g_ptr_array_free (list, FALSE));
    }

  return (const char * const *) offered;
}

const char * const *
cm_verdict_get_classes (void)
{
  return class_names;
}

static const ClassSpec *
lookup_spec (const char *klass)
{
  for (guint i = 0; i < G_N_ELEMENTS (class_specs); i++)
    {
      if (g_strcmp0 (class_specs[i].name, klass) == 0)
        return &class_specs[i];
    }
  return NULL;
}

/**
 * cm_verdict_get_minimums:
 *
 * The SD Association's minimums for @klass, for anything that draws or
 * prints them: sustained write in MB/s, and 4K read and write IOPS (0
 * for classes without random figures). Returns %FALSE for an unknown
 * class. Any out-argument may be %NULL.
 */
gboolean
cm_verdict_get_minimums (const char *klass,
                         double     *write_mb_s,
                         double     *read_iops,
                         double     *write_iops)
{
  const ClassSpec *spec = lookup_spec (klass);

  if (spec == NULL)
    return FALSE;

  if (write_mb_s != NULL)
    *write_mb_s = spec->write_mb_s;
  if (read_iops != NULL)
    *read_iops = spec->read_iops;
  if (write_iops != NULL)
    *write_iops = spec->write_iops;

  return TRUE;
}

gboolean
cm_verdict_is_class (const char *klass)
{
  return lookup_spec (klass) != NULL;
}

static guint
class_index (const char *klass)
{
  for (guint i = 0; class_names[i] != NULL; i++)
    {
      if (g_strcmp0 (class_names[i], klass) == 0)
        return i;
    }
  return G_MAXUINT;
}

GStrv
cm_verdict_parse_classes (const char  *csv,
                          GError     **error)
{
  g_auto(GStrv) parts = NULL;
  gboolean wanted[G_N_ELEMENTS (class_names)] = { FALSE };
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (csv == NULL)
    return g_strv_builder_end (builder);

  parts = g_strsplit_set (csv, ", \t", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *klass = g_ascii_strup (parts[i], -1);
      guint index;

      if (klass[0] == '\0')
        continue;

      index = class_index (klass);
      if (index == G_MAXUINT)
        {
          g_set_error (error, CM_VERDICT_ERROR, CM_VERDICT_ERROR_UNKNOWN_CLASS,
                       _("“%s” is not a class CardMark knows. Use the marks printed on the card: C2, C4, C6, C10, U1, U3, V6, V10, V30, V60, V90, A1 or A2."),
                       parts[i]);
          return NULL;
        }
      wanted[index] = TRUE;
    }

  /* Slowest first, each once, so reports read the same however typed. */
  for (guint i = 0; class_names[i] != NULL; i++)
    {
      if (wanted[i])
        g_strv_builder_add (builder, class_names[i]);
    }

  return g_strv_builder_end (builder);
}

guint
cm_verdict_status_rank (CmStatus status)
{
  switch (status)
    {
    case CM_STATUS_MEETS:
      return 0;
    case CM_STATUS_MARGINAL:
      return 1;
    case CM_STATUS_NOT_JUDGED:
      return 2;
    case CM_STATUS_BELOW:
      return 3;
    default:
      g_assert_not_reached ();
    }
}

/* The test a criterion reads, or NULL with the reason it cannot. */
static CmTestResult *
find_test (CmJudge     *judge,
           const char  *name,
           char       **reason)
{
  CmTestResult *test = cm_result_lookup_test (judge->result, name);

  if (test == NULL)
    {
      if (g_strcmp0 (cm_result_get_target_mode (judge->result), "raw-read") == 0 &&
          strstr (name, "write") != NULL)
        /* The method is to blame, not the reader: say which one can judge. */
        *reason = g_strdup (_("The read-only raw test measures no writes, so write speed can't be judged. Test again with “Raw test with writes”."));
      else
        *reason = g_strdup_printf (_("The “%s” test did not run."), cm_test_table_get_label (name));
      return NULL;
    }

  if (test->error != NULL)
    {
      *reason = g_strdup_printf (_("The “%s” test could not run: %s"), cm_test_table_get_label (name), test->error);
      return NULL;
    }

  return test;
}

static CmTestResult *
find_sustained_test (CmJudge  *judge,
                     char    **reason)
{
  CmTestResult *test = cm_result_lookup_test (judge->result, CM_TEST_SEQ_WRITE_SUSTAINED);

  if (test != NULL && test->error == NULL)
    return test;

  return find_test (judge, CM_TEST_SEQ_WRITE, reason);
}

/* The rate a sequential write sustains: after the cliff when it went
 * past one, else its whole mean (both in the cliff record); results
 * without a cliff record fall back to the 10th percentile of seconds. */
static double
sustained_rate (const CmTestResult *test)
{
  double rate = cm_test_result_get_sustained_mb_per_s (test);

  return rate > 0 ? rate : test->mb_per_s;
}

/* Whether @test shows what a card sustains on a long write: it is the
 * long sustained write (which runs until its rate is steady past the
 * cliff, or covers the card, the free space or its limit), or it went
 * past a cliff. docs/methodology.md § Confirmed. */
static gboolean
write_confirmed (const CmTestResult *test)
{
  return g_strcmp0 (test->name, "seq-write-sustained") == 0 ||
         (test->has_cliff && test->cliff.found);
}

/* The bytes of the write the speed classes were judged on when it was
 * too short to confirm them, else 0. */
static guint64
unconfirmed_bytes (CmResult *result)
{
  CmTestResult *test = cm_result_lookup_test (result, "seq-write-sustained");

  if (test == NULL || test->error != NULL)
    test = cm_result_lookup_test (result, "seq-write");
  if (test == NULL || test->error != NULL || write_confirmed (test))
    return 0;

  return test->bytes;
}

/* "Meets V30 over a 268.4 MB write; run the Full test before relying on
 * it for long 4K recordings" */
static char *
describe_unconfirmed (const ClassSpec *spec,
                      guint64          bytes)
{
  g_autofree char *size = g_format_size (bytes);

  if (spec->write_mb_s >= 30)
    /* Translators: "Meets V30 over a 268.4 MB write; …" */
    return g_strdup_printf (_("Meets %s over a %s write; run the Full test before relying on it for long 4K recordings"),
                            spec->name, size);

  /* Translators: "Meets C10 over a 268.4 MB write; …" */
  return g_strdup_printf (_("Meets %s over a %s write; run the Full test before relying on it for long video recordings"),
                          spec->name, size);
}

static const char *
criterion_label (const CmCriterion *c)
{
  if (g_strcmp0 (c->name, "random-read") == 0)
    return _("random read");
  if (g_strcmp0 (c->name, "random-write") == 0)
    return _("random write");
  return _("sustained write");
}

static char *
format_value (double      value,
              const char *unit)
{
  if (g_strcmp0 (unit, "IOPS") == 0 || value >= 100)
    return g_strdup_printf ("%.0f %s", value, unit);
  if (value >= 10)
    return g_strdup_printf ("%.1f %s", value, unit);
  return g_strdup_printf ("%.2f %s", value, unit);
}

/* "sustained write 19.0 MB/s, U3 needs 30 MB/s" */
static char *
describe_shortfall (const CmCriterion *c,
                    const char        *klass)
{
  g_autofree char *measured = format_value (c->measured, c->unit);
  /* Class figures are whole numbers: "30 MB/s", not "30.0 MB/s". */
  g_autofree char *required = g_strdup_printf ("%g %s", c->required, c->unit);

  /* Translators: "sustained write 19.0 MB/s, U3 needs 30 MB/s" */
  return g_strdup_printf (_("%s %s, %s needs %s"),
                          criterion_label (c), measured, klass, required);
}

static CmStatus
status_for (double measured,
            double required)
{
  if (measured >= required)
    return CM_STATUS_MEETS;
  if (measured >= required * (1 - MARGINAL_FRACTION) - 1e-9 * required)
    return CM_STATUS_MARGINAL;
  return CM_STATUS_BELOW;
}

static CmCriterion *
judge_criterion (CmJudge         *judge,
                 const ClassSpec *spec,
                 const char      *name,
                 const char      *test_name,
                 const char      *unit,
                 double           required)
{
  g_autofree char *reason = NULL;
  gboolean is_rate = g_strcmp0 (unit, "MB/s") == 0;
  CmTestResult *test;
  CmCriterion *c;
  double measured = 0;

  if (g_strcmp0 (test_name, CM_TEST_SEQ_WRITE) == 0)
    test = find_sustained_test (judge, &reason);
  else
    test = find_test (judge, test_name, &reason);

  if (test != NULL)
    {
      measured = test->iops;
      if (is_rate)
        measured = sustained_rate (test);
    }

  c = cm_criterion_new (name, test != NULL ? test->name : test_name, unit, measured, required);

  if (test == NULL)
    {
      c->status = CM_STATUS_NOT_JUDGED;
      c->reason = g_steal_pointer (&reason);
      return c;
    }

  if (judge->buffered)
    {
      c->status = CM_STATUS_NOT_JUDGED;
      c->reason = g_strdup (_("The system cache could not be bypassed on this target, so the figures may be inflated."));
      return c;
    }

  c->status = status_for (measured, required);
  if (c->status == CM_STATUS_MEETS)
    {
      /* A short write meets a speed class only as far as it went. */
      if (is_rate && spec->read_iops == 0 && unconfirmed_bytes (judge->result) > 0)
        c->reason = describe_unconfirmed (spec, unconfirmed_bytes (judge->result));
      return c;
    }

  /* A card that meets a figure anyway meets it; only a shortfall close to
   * what the reader can carry is blamed on the reader. */
  if (is_rate && judge->ceiling_low > 0 && required > judge->ceiling_low &&
      measured >= NEAR_CEILING * judge->ceiling_low)
    {
      c->status = CM_STATUS_NOT_JUDGED;
      c->reason = g_strdup_printf (_("Can't judge %s on %s: it tops out near %.0f–%.0f MB/s and %s needs %.0f MB/s. Try a USB 3 reader."),
                                   spec->name, judge->ceiling_what,
                                   judge->ceiling_low, judge->ceiling_high,
                                   spec->name, required);
      return c;
    }

  if (spec->queued && !is_rate && judge->no_queueing)
    {
      judge->unqueued = TRUE;
      c->status = CM_STATUS_NOT_JUDGED;
      c->reason = g_strdup_printf (_("Can't judge %s on this reader: it doesn't queue commands (%.0f IOPS at queue depth 32, %.0f at depth 1)."),
                                   spec->name, judge->qd32_iops, judge->qd1_iops);
      return c;
    }

  if (c->status == CM_STATUS_MARGINAL)
    {
      g_autofree char *shortfall = describe_shortfall (c, spec->name);

      /* Translators: the first %s is like "sustained write 28.5 MB/s, U3 needs 30 MB/s" */
      c->reason = g_strdup_printf (_("Just under: %s. Run the test again."), shortfall);
    }
  else
    c->reason = describe_shortfall (c, spec->name);

  return c;
}

static void
aggregate (CmClaim *claim)
{
  const CmCriterion *worst = NULL;

  for (guint i = 0; i < claim->criteria->len; i++)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, i);

      if (worst == NULL ||
          cm_verdict_status_rank (c->status) > cm_verdict_status_rank (worst->status))
        worst = c;
    }

  claim->status = worst != NULL ? worst->status : CM_STATUS_NOT_JUDGED;
  g_clear_pointer (&claim->reason, g_free);
  if (worst != NULL && (worst->status != CM_STATUS_MEETS || worst->reason != NULL))
    claim->reason = g_strdup (worst->reason);
}

static CmClaim *
judge_claim (CmJudge    *judge,
             const char *klass,
             const char *source)
{
  const ClassSpec *spec = lookup_spec (klass);
  CmClaim *claim = cm_claim_new (klass);

  g_assert (spec != NULL);

  claim->source = g_strdup (source);
  g_ptr_array_add (claim->criteria,
                   judge_criterion (judge, spec, "sustained-write", CM_TEST_SEQ_WRITE,
                                    "MB/s", spec->write_mb_s));
  if (spec->read_iops > 0)
    {
      g_ptr_array_add (claim->criteria,
                       judge_criterion (judge, spec, "random-read",
                                        spec->queued ? CM_TEST_RAND_READ_4K_QD32 : CM_TEST_RAND_READ_4K,
                                        "IOPS", spec->read_iops));
      g_ptr_array_add (claim->criteria,
                       judge_criterion (judge, spec, "random-write",
                                        spec->queued ? CM_TEST_RAND_WRITE_4K_QD32 : CM_TEST_RAND_WRITE_4K,
                                        "IOPS", spec->write_iops));
    }

  aggregate (claim);
  return claim;
}

static const char *
best_met (CmResult           *result,
          const char * const *among)
{
  /* @among is fastest first. */
  for (guint i = 0; among[i] != NULL; i++)
    {
      CmClaim *claim = cm_result_lookup_claim (result, among[i]);

      if (claim != NULL && claim->status == CM_STATUS_MEETS)
        return among[i];
    }
  return NULL;
}

static char *usage_sentence_plain (CmResult *result);

/* The usage sentence, with the caveat of a write too short to confirm a
 * video class: the sentence promises recordings only as long as that. */
static char *
usage_sentence (CmResult *result)
{
  g_autofree char *usage = usage_sentence_plain (result);
  guint64 bytes = unconfirmed_bytes (result);
  g_autofree char *size = NULL;

  static const char * const app[] = { "A2", "A1", NULL };
  static const char * const video[] = { "V90", "V60", "V30", "U3", "V10", "U1", "C10", NULL };

  if (usage == NULL || bytes == 0 || best_met (result, app) != NULL || best_met (result, video) == NULL)
    return g_steal_pointer (&usage);

  size = g_format_size (bytes);
  /* Translators: the first %s is like "Fine for 4K video (meets V30)", the second a size, "268.4 MB" */
  return g_strdup_printf (_("%s over a %s write; run the Full test before relying on it for long recordings"),
                          usage, size);
}

static char *
usage_sentence_plain (CmResult *result)
{
  static const char * const app[] = { "A2", "A1", NULL };
  static const char * const uhd[] = { "V90", "V60", "V30", "U3", NULL };
  static const char * const hd[] = { "V10", "U1", "C10", NULL };
  static const char * const slow[] = { "C6", "V6", "C4", "C2", NULL };
  CmClaim *a1 = cm_result_lookup_claim (result, "A1");
  gboolean misses_a1 = a1 != NULL && a1->status == CM_STATUS_BELOW;
  const char *best;

  if ((best = best_met (result, app)) != NULL)
    return g_strdup_printf (_("Good for running Raspberry Pi OS (meets %s)"), best);

  if ((best = best_met (result, uhd)) != NULL)
    return misses_a1
      ? g_strdup_printf (_("Fine for 4K video (meets %s), but too slow at random access to run an OS well (misses A1)"), best)
      : g_strdup_printf (_("Fine for 4K video (meets %s)"), best);

  if ((best = best_met (result, hd)) != NULL)
    return misses_a1
      ? g_strdup_printf (_("Fine for Full HD video (meets %s), but too slow at random access to run an OS well (misses A1)"), best)
      : g_strdup_printf (_("Fine for Full HD video (meets %s)"), best);

  if ((best = best_met (result, slow)) != NULL)
    return g_strdup_printf (_("Slow: fine for photos and documents, not for video or an OS (meets %s)"), best);

  return NULL;
}

static const CmCriterion *
worst_criterion (const CmClaim *claim)
{
  for (guint i = 0; i < claim->criteria->len; i++)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, i);

      if (c->status == claim->status)
        return c;
    }
  return NULL;
}

static const CmClaim *
first_with (GPtrArray *claims,
            CmStatus   status,
            gboolean   labelled)
{
  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      if (claim->status == status && labelled == (g_strcmp0 (claim->source, "figures") != 0))
        return claim;
    }
  return NULL;
}

/* Why a claim judged nothing, made now where the document's facts tell
 * (a test it needs is not in it), else the reason it kept. */
static char *
dup_not_judged_reason (CmResult      *result,
                       const CmClaim *claim)
{
  for (guint i = 0; i < claim->criteria->len; i++)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, i);
      CmJudge judge = { .result = result };
      char *reason = NULL;

      if (c->status == CM_STATUS_NOT_JUDGED && c->test != NULL &&
          find_test (&judge, c->test, &reason) == NULL)
        return reason;
    }
  return g_strdup (claim->reason);
}

static char *
labelled_summary (CmResult *result)
{
  GPtrArray *claims = cm_result_get_claims (result);
  const CmClaim *claim;

  if ((claim = first_with (claims, CM_STATUS_BELOW, TRUE)) != NULL)
    {
      g_autofree char *shortfall = describe_shortfall (worst_criterion (claim), claim->klass);

      if (g_strcmp0 (claim->source, "card") == 0)
        return g_strdup_printf (_("Below the %s class it declares: %s"), claim->klass, shortfall);
      return g_strdup_printf (_("Below its %s label: %s"), claim->klass, shortfall);
    }

  if ((claim = first_with (claims, CM_STATUS_NOT_JUDGED, TRUE)) != NULL)
    return dup_not_judged_reason (result, claim);

  if ((claim = first_with (claims, CM_STATUS_MARGINAL, TRUE)) != NULL)
    {
      g_autofree char *shortfall = describe_shortfall (worst_criterion (claim), claim->klass);

      return g_strdup_printf (_("Just under its %s label: %s. Run the test again."),
                              claim->klass, shortfall);
    }

  return usage_sentence (result);
}

static char *
figures_summary (CmResult *result)
{
  GPtrArray *claims = cm_result_get_claims (result);
  char *usage = usage_sentence (result);
  const CmClaim *claim;

  if (usage != NULL)
    return usage;

  if ((claim = first_with (claims, CM_STATUS_NOT_JUDGED, FALSE)) != NULL)
    return dup_not_judged_reason (result, claim);

  claim = cm_result_lookup_claim (result, "C2");
  if (claim != NULL && claim->criteria->len > 0)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, 0);
      g_autofree char *measured = format_value (c->measured, c->unit);

      return g_strdup_printf (_("Slower than every speed class: sustained write %s"), measured);
    }

  return NULL;
}

/**
 * cm_verdict_dup_summary:
 * @result: a judged benchmark
 *
 * The verdict's sentence, from the claims and figures @result holds, in
 * the reader's language; %NULL when they give none (a document judged
 * nothing).
 */
char *
cm_verdict_dup_summary (CmResult *result)
{
  g_return_val_if_fail (CM_IS_RESULT (result), NULL);

  if (cm_result_get_claims (result)->len == 0)
    return NULL;
  if (!cm_result_get_direct_io (result))
    return g_strdup (_("Can't judge this card: the system cache could not be bypassed, so the figures may be inflated."));
  if (cm_result_has_claimed_classes (result))
    return labelled_summary (result);
  return figures_summary (result);
}

static void
summarise (CmJudge *judge)
{
  g_autofree char *summary = cm_verdict_dup_summary (judge->result);

  cm_result_set_summary (judge->result, summary);
}

static void
add_counterfeit_hints (CmResult           *result,
                       const char * const *claimed)
{
  CmCardInfo *card = cm_result_get_card (result);
  g_auto(GStrv) hints = NULL;

  if (card == NULL)
    return;

  hints = cm_counterfeit_dup_hints (card, claimed);
  for (guint i = 0; hints != NULL && hints[i] != NULL; i++)
    cm_result_add_note (result, hints[i]);
}

static GStrv
choose_claims (CmResult            *result,
               const char * const  *claims,
               const char         **source)
{
  CmCardInfo *card;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (claims != NULL && claims[0] != NULL)
    {
      for (guint i = 0; claims[i] != NULL; i++)
        {
          if (cm_verdict_is_class (claims[i]))
            g_strv_builder_add (builder, claims[i]);
          else
            g_warning ("Ignoring unknown class %s", claims[i]);
        }
      return g_strv_builder_end (builder);
    }

  card = cm_result_get_card (result);
  if (card != NULL)
    {
      g_auto(GStrv) declared = cm_card_info_dup_declared_classes (card);

      for (guint i = 0; declared != NULL && declared[i] != NULL; i++)
        {
          if (cm_verdict_is_class (declared[i]))
            g_strv_builder_add (builder, declared[i]);
        }
      if (declared != NULL && declared[0] != NULL)
        {
          *source = "card";
          return g_strv_builder_end (builder);
        }
    }

  *source = "figures";
  g_strv_builder_addv (builder, (const char **) class_names);
  return g_strv_builder_end (builder);
}

/**
 * cm_verdict_judge:
 * @result: a finished result
 * @claims: (nullable): classes printed on the card, as from
 *   cm_verdict_parse_classes()
 * @claims_source: (nullable): where @claims came from; "label" when %NULL
 *
 * Replaces the claims of @result with a verdict for each class and sets
 * its summary. Without @claims, the classes the card declares in its
 * registers are judged ("card"); without those, every class, to show
 * which ones the figures meet ("figures").
 */
void
cm_verdict_judge (CmResult           *result,
                  const char * const *claims,
                  const char         *claims_source)
{
  CmJudge judge = { 0 };
  const char *source = claims_source != NULL ? claims_source : "label";
  g_auto(GStrv) chosen = NULL;
  CmClaim *a2;

  g_return_if_fail (CM_IS_RESULT (result));

  judge.result = result;
  judge.buffered = !cm_result_get_direct_io (result);
  cm_verdict_find_ceiling (&judge);
  cm_verdict_find_queueing (&judge);

  chosen = choose_claims (result, claims, &source);
  cm_result_clear_claims (result);
  for (guint i = 0; chosen[i] != NULL; i++)
    cm_result_take_claim (result, judge_claim (&judge, chosen[i], source));

  a2 = cm_result_lookup_claim (result, "A2");
  if (a2 != NULL && judge.unqueued)
    {
      CmClaim *a1 = cm_result_lookup_claim (result, "A1");

      if (a1 == NULL)
        {
          a1 = judge_claim (&judge, "A1", a2->source);
          cm_result_take_claim (result, a1);
        }
      cm_verdict_fall_back_to_a1 (result, a2, a1);
    }

  if (g_strcmp0 (source, "figures") != 0)
    add_counterfeit_hints (result, (const char * const *) chosen);

  summarise (&judge);
}

/**
 * cm_verdict_worst:
 *
 * The worst status of the claims on the label or card (not those added
 * only to show what the figures meet), or %CM_STATUS_MEETS when there
 * are none.
 */
CmStatus
cm_verdict_worst (CmResult *result)
{
  GPtrArray *claims;
  CmStatus worst = CM_STATUS_MEETS;

  g_return_val_if_fail (CM_IS_RESULT (result), CM_STATUS_NOT_JUDGED);

  claims = cm_result_get_claims (result);
  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->source, "figures") == 0)
        continue;
      if (cm_verdict_status_rank (claim->status) > cm_verdict_status_rank (worst))
        worst = claim->status;
    }

  return worst;
}

/* For the CLI's exit status 3 (README.md § cardmark-cli). */
gboolean
cm_verdict_any_below (CmResult *result)
{
  return cm_verdict_worst (result) == CM_STATUS_BELOW;
}
