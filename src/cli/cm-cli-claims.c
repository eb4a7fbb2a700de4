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

#include "cm-summary.h"
#include "cm-test-table.h"
#include "cm-verdict.h"

#include "cm-cli.h"
#include "cm-cli-claims.h"

/* The app's words for a status and a criterion, from core. */
#define status_label cm_summary_status_label
#define criterion_label cm_summary_criterion_label

/* Column widths in terminal columns, wide enough for every label of the
 * user's language. */
typedef struct
{
  int status;
  int criterion;
  int required;
} Columns;

static char *
format_required (const CmCriterion *c)
{
  /* Translators: what a class requires, "needs 30 MB/s" */
  return g_strdup_printf (_("needs %g %s"), c->required, c->unit);
}

static void
measure_columns (GPtrArray *claims,
                 Columns   *columns)
{
  const CmStatus statuses[] = { CM_STATUS_MEETS, CM_STATUS_MARGINAL, CM_STATUS_BELOW, CM_STATUS_NOT_JUDGED };
  const char *criteria[] = { "random-read", "random-write", "sustained-write" };

  *columns = (Columns) { 11, 16, 16 };

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    columns->status = MAX (columns->status, cm_cli_text_width (status_label (statuses[i])));
  for (guint i = 0; i < G_N_ELEMENTS (criteria); i++)
    columns->criterion = MAX (columns->criterion, cm_cli_text_width (criterion_label (criteria[i])));

  for (guint i = 0; i < claims->len; i++)
    {
      const CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->source, "figures") == 0)
        continue;
      for (guint j = 0; j < claim->criteria->len; j++)
        {
          g_autofree char *required = format_required (g_ptr_array_index (claim->criteria, j));

          columns->required = MAX (columns->required, cm_cli_text_width (required));
        }
    }
}

static void
print_claim (const CmClaim *claim,
             const Columns *columns)
{
  g_autoptr(GString) line = g_string_new ("  ");

  cm_cli_pad (line, claim->klass, 4, FALSE);
  g_string_append_c (line, ' ');
  if (claim->reason != NULL)
    {
      cm_cli_pad (line, status_label (claim->status), columns->status, FALSE);
      g_string_append_printf (line, " %s", claim->reason);
    }
  else
    g_string_append (line, status_label (claim->status));
  printf ("%s\n", line->str);

  for (guint i = 0; i < claim->criteria->len; i++)
    {
      const CmCriterion *c = g_ptr_array_index (claim->criteria, i);
      gboolean iops = g_strcmp0 (c->unit, "IOPS") == 0;
      g_autofree char *measured = g_strdup_printf (iops ? "%.0f %s" : "%.2f %s", c->measured, c->unit);
      g_autofree char *required = format_required (c);

      g_string_assign (line, "       ");
      cm_cli_pad (line, criterion_label (c->name), columns->criterion, FALSE);
      g_string_append_c (line, ' ');
      cm_cli_pad (line, measured, 14, TRUE);
      g_string_append (line, "  ");
      cm_cli_pad (line, required, columns->required, FALSE);
      printf ("%s %s\n", line->str, status_label (c->status));
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
  Columns columns;

  measure_columns (claims, &columns);

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
      print_claim (claim, &columns);
    }

  if (!labelled && claims->len > 0)
    {
      printf ("\n");
      print_figures (claims);
    }

  if (cm_result_get_summary (result) != NULL)
    printf ("\n%s %s\n", _("Verdict:"), cm_result_get_summary (result));
}
