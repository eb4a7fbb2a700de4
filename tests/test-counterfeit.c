/* test-counterfeit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The warning signs of a fake card, on the real register dumps of
 * sd-register-vectors.tsv: rows whose label and registers disagree are
 * flagged, rows where they agree are not, and claims above what the
 * registers declare are named.
 */

#include "config.h"

#include <string.h>

#include "cm-card-info.h"
#include "cm-counterfeit.h"
#include "cm-test-vectors.h"

typedef CmTestRow Row;

static GPtrArray *rows;

static const Row *
find_row (const char *id)
{
  return cm_test_vectors_find (rows, id);
}

static CmCardInfo *
decode_row (const Row *row)
{
  g_autoptr(GError) error = NULL;
  CmCardInfo *info = cm_card_info_new_from_registers (row->cid, row->csd, row->scr, row->ssr, &error);

  g_assert_no_error (error);
  g_assert_nonnull (info);
  return info;
}

/* The class logos printed on a card, as the TSV transcribes them:
 * "A1 U1 (10) I HC", "Class 4", "UHS-I U1 (10) XC". */
static GStrv
claims_from_label (const char *logos)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) words = g_strsplit (logos, " ", -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *w = words[i];
      g_autoptr(GRegex) plain = g_regex_new ("^[CUVA][0-9]+$", 0, 0, NULL);
      g_autoptr(GRegex) circled = g_regex_new ("^\\(([0-9]+)\\)$", 0, 0, NULL);
      g_autoptr(GMatchInfo) match = NULL;

      if (g_regex_match (plain, w, 0, NULL))
        g_strv_builder_add (builder, w);
      else if (g_regex_match (circled, w, 0, &match))
        {
          g_autofree char *n = g_match_info_fetch (match, 1);
          g_autofree char *klass = g_strconcat ("C", n, NULL);

          g_strv_builder_add (builder, klass);
        }
      else if (g_str_equal (w, "Class") && words[i + 1] != NULL)
        {
          g_autofree char *klass = g_strconcat ("C", words[i + 1], NULL);

          g_strv_builder_add (builder, klass);
        }
    }

  return g_strv_builder_end (builder);
}

static GStrv
row_hints (const char         *id,
           const char * const *claims)
{
  const Row *row = find_row (id);
  g_autoptr(CmCardInfo) info = decode_row (row);
  g_auto(GStrv) label_claims = claims_from_label (row->logos);
  GStrv hints;

  if (row->brand[0] != '\0')
    cm_card_info_set_brand (info, row->brand);
  hints = cm_counterfeit_dup_hints (info, claims != NULL ? claims : (const char * const *) label_claims);
  for (guint i = 0; hints[i] != NULL; i++)
    g_test_message ("%s: %s", id, hints[i]);

  return hints;
}

static gboolean
any_contains (GStrv       hints,
              const char *text)
{
  for (guint i = 0; hints[i] != NULL; i++)
    if (strstr (hints[i], text) != NULL)
      return TRUE;
  return FALSE;
}

/* Rows whose label and registers disagree, with a word the hint must
 * name, and rows where they agree and nothing may be flagged. */
static void
test_hints_from_labels (void)
{
  static const struct { const char *id; const char *word; } flagged[] = {
    /* CID decodes as SanDisk SU04G although labelled Transcend. */
    { "libmaple-transcend-4gb", "SanDisk" },
    /* OID 'PT' not 'SD'. */
    { "p2-sandisk-ss08g-taiwan-8gb", "PT" },
    /* MID $00 OID 42 on a Gigastone. */
    { "p2-gigastone-sd16g-16gb", "42" },
    /* MID $74, which the maker table gives to Transcend, on a Gigastone. */
    { "p2-gigastone-00000-32gb", "Transcend" },
  };
  static const char * const clean[] = {
    "libmaple-sandisk-2gb",
    "p2-kingston-sd8gb-8gb",
    "p2-gigastone-astc-64gb",
    "p2-sandisk-extreme-pro-aggce-64gb",
    "p2-wd-purple-qd101-wx64g-64gb",
    "p2-samsung-pro-endurance-jd1y7-128gb",
    "deskcat-samsung-evo-plus-eb1qt-32gb",
    "sdiohost-panasonic-y08ag-8gb-c4",
    "sdiohost-sandisk-su08g-8gb-c4",
    "lkml-kingston-canvas-go-plus-sd64g-2023-04",
  };

  for (guint i = 0; i < G_N_ELEMENTS (flagged); i++)
    {
      g_auto(GStrv) hints = row_hints (flagged[i].id, NULL);

      g_assert_cmpuint (g_strv_length (hints), >=, 1);
      g_assert_true (any_contains (hints, flagged[i].word));
    }

  for (guint i = 0; i < G_N_ELEMENTS (clean); i++)
    {
      g_auto(GStrv) hints = row_hints (clean[i], NULL);

      g_assert_cmpuint (g_strv_length (hints), ==, 0);
    }
}

/* Claims above what a row's registers declare. */
static void
test_hints_from_claims (void)
{
  g_auto(GStrv) over = NULL;
  g_auto(GStrv) old_spec = NULL;
  g_auto(GStrv) equal = NULL;
  g_auto(GStrv) a2 = NULL;
  g_autoptr(CmCardInfo) no_perf = NULL;
  g_autofree char *ssr = NULL;
  const Row *kingston = find_row ("lkml-kingston-canvas-go-plus-sd64g-2023-04");
  char *word;

  /* SSR: C10, U1, no video class, no A class; SCR 3.0x. */
  over = row_hints ("deskcat-samsung-evo-plus-eb1qt-32gb", (const char * const[]) { "C10", "U3", "V30", "A2", NULL });
  g_assert_true (any_contains (over, "U3"));
  g_assert_true (any_contains (over, "V30"));
  g_assert_true (any_contains (over, "A2"));
  g_assert_false (any_contains (over, "C10"));
  g_assert_true (any_contains (over, "3.0x"));

  equal = row_hints ("deskcat-samsung-evo-plus-eb1qt-32gb", (const char * const[]) { "C10", "U1", NULL });
  g_assert_cmpuint (g_strv_length (equal), ==, 0);

  /* No SSR in this row; its SCR says 3.0x, too old for A1 (5.10). */
  old_spec = row_hints ("p2-pny-sd16g-16gb", (const char * const[]) { "A1", NULL });
  g_assert_cmpuint (g_strv_length (old_spec), ==, 1);
  g_assert_true (any_contains (old_spec, "3.0x"));

  /* The Kingston SSR with PERFORMANCE_ENHANCE (byte 22) cleared: A2 but
   * no queue and no cache. */
  ssr = g_strdup (kingston->ssr);
  word = strstr (ssr, "0002ff00");
  g_assert_nonnull (word);
  memcpy (word + 4, "00", 2);
  no_perf = cm_card_info_new_from_registers (kingston->cid, kingston->csd, kingston->scr, ssr, NULL);
  g_assert_nonnull (no_perf);
  a2 = cm_counterfeit_dup_hints (no_perf, NULL);
  g_assert_cmpuint (g_strv_length (a2), ==, 1);
  g_assert_true (any_contains (a2, "unverified"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  rows = cm_test_vectors_load ();

  g_test_add_func ("/cardmark/counterfeit/hints-from-labels", test_hints_from_labels);
  g_test_add_func ("/cardmark/counterfeit/hints-from-claims", test_hints_from_claims);

  status = g_test_run ();
  g_ptr_array_unref (rows);
  return status;
}
