/* cm-cli-claims.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Judges a finished run against the classes the user names (or the card
 * declares) and prints the verdicts.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cm-verdict.h"

#include "cm-cli.h"
#include "cm-cli-claims.h"

/**
 * cm_cli_apply_claims:
 * @claims_csv: (nullable): "U3,V30,A2", as given to --claim
 * @brand: (nullable): the brand printed on the card
 *
 * Returns: the exit status (DESIGN.md § CLI): %CM_EXIT_OK when every
 *   claim is met, marginal or cannot be judged, or none was made;
 *   %CM_EXIT_BELOW when one is below; -1 with @error set when
 *   @claims_csv names a class that does not exist (a usage error).
 */
int
cm_cli_apply_claims (CmResult    *result,
                     const char  *claims_csv,
                     const char  *brand,
                     GError     **error)
{
  g_auto(GStrv) claims = NULL;
  CmCardInfo *card = cm_result_get_card (result);

  g_return_val_if_fail (CM_IS_RESULT (result), CM_EXIT_FAILED);

  if ((claims = cm_verdict_parse_classes (claims_csv, error)) == NULL)
    return -1;

  if (brand != NULL && card != NULL)
    cm_card_info_set_brand (card, brand);

  cm_verdict_judge (result, (const char * const *) claims, "label");

  return cm_verdict_any_below (result) ? CM_EXIT_BELOW : CM_EXIT_OK;
}

static const char *
status_label (CmStatus status)
{
  switch (status)
    {
    case CM_STATUS_MEETS:
      return _("meets");
    case CM_STATUS_MARGINAL:
      return _("marginal");
    case CM_STATUS_BELOW:
      return _("below");
    case CM_STATUS_NOT_JUDGED:
      return _("not judged");
    default:
      g_assert_not_reached ();
    }
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

static void
print_claim (const CmClaim *claim)
{
  if (claim->reason != NULL)
    printf ("  %-4s %-11s %s\n", claim->klass, status_label (claim->status), claim->reason);
  else
    printf ("  %-4s %s\n", claim->klass, status_label (claim->status));

  for (guint i = 0; i < claim->criteria->len; i++)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, i);
      gboolean iops = g_strcmp0 (c->unit, "IOPS") == 0;
      g_autofree char *measured = g_strdup_printf (iops ? "%.0f %s" : "%.2f %s", c->measured, c->unit);
      /* Translators: what a class requires, "needs 30 MB/s" */
      g_autofree char *required = g_strdup_printf (_("needs %g %s"), c->required, c->unit);

      printf ("       %-16s %14s  %-16s %s\n", criterion_label (c), measured, required,
              status_label (c->status));
    }
}

static void
print_figures (GPtrArray *claims)
{
  GString *met = g_string_new (NULL);

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->source, "figures") == 0 && claim->status == CM_STATUS_MEETS)
        g_string_append_printf (met, " %s", claim->klass);
    }

  if (met->len > 0)
    printf ("%s%s\n", _("The figures meet:"), met->str);
  else
    printf ("%s\n", _("The figures meet no speed class."));

  g_string_free (met, TRUE);
}

void
cm_cli_print_claims (CmResult *result)
{
  GPtrArray *claims = cm_result_get_claims (result);
  gboolean labelled = FALSE;

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->source, "figures") == 0)
        continue;
      if (!labelled)
        {
          printf ("\n%s\n", g_strcmp0 (claim->source, "card") == 0
                  ? _("Classes the card declares:") : _("Classes on the label:"));
          labelled = TRUE;
        }
      print_claim (claim);
    }

  if (!labelled && claims->len > 0)
    {
      printf ("\n");
      print_figures (claims);
    }

  if (cm_result_get_summary (result) != NULL)
    printf ("\n%s %s\n", _("Verdict:"), cm_result_get_summary (result));
}
