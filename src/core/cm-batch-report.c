/* cm-batch-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The batch report: one line per card of a batch, what a reseller hands
 * back with a bag of cards — its name, its size, every check's answer in
 * words, the capacity that really holds data and the data it lost. Built
 * from the documents the user picked (a card may have a benchmark, a
 * capacity check, a verify and a wear test), the newest of each kind
 * counting. The app's Compare view shows it and exports it as CSV; the
 * CLI prints the same CSV.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-card-info.h"
#include "cm-job-kinds.h"
#include "cm-summary.h"
#include "cm-verify.h"

#include "cm-batch-report.h"

/* The documents of one card while the report is built. */
typedef struct
{
  char      *key;
  GPtrArray *newest;     /* CmBatchFacts, the newest of each kind, in the order kinds came */
} Card;

struct _CmBatchReport
{
  GPtrArray  *cards;
  GHashTable *by_key;
};

static void
card_free (Card *card)
{
  g_free (card->key);
  g_ptr_array_unref (card->newest);
  g_free (card);
}

void
cm_batch_row_free (CmBatchRow *row)
{
  if (row == NULL)
    return;
  g_free (row->card);
  g_free (row->verdict);
  g_free (row->kinds);
  g_free (row->machines);
  g_free (row);
}

void
cm_batch_facts_free (CmBatchFacts *facts)
{
  if (facts == NULL)
    return;
  g_free (facts->key);
  g_free (facts->card);
  g_free (facts->kind);
  g_free (facts->answer);
  g_free (facts->machine);
  g_free (facts);
}

/* The card's serial number tells it apart wherever it was read; a card
 * whose reader hides the registers is told by its name and device. */
static char *
dup_card_key (CmResult *result)
{
  CmCardInfo *info = cm_result_get_card (result);
  const char *serial = info != NULL ? cm_card_info_get_serial (info) : NULL;

  if (serial != NULL && *serial != '\0')
    return g_strdup_printf ("serial:%d:%s", cm_card_info_get_manufacturer_id (info), serial);
  return g_strdup_printf ("device:%s:%s", cm_result_get_name (result) ?: "",
                          cm_result_get_device (result) ?: cm_result_get_target_path (result) ?: "");
}

/* "SanDisk Extreme · Loop device on card.img · /dev/loop3": brand and
 * product from the registers, the name the job gave the card, its
 * device. The size has its own column. */
static char *
dup_card_name (CmResult *result)
{
  CmCardInfo *info = cm_result_get_card (result);
  const char *brand = info != NULL ? cm_card_info_get_brand (info) : NULL;
  const char *product = info != NULL ? cm_card_info_get_product_name (info) : NULL;
  const char *parts[4] = { NULL };
  guint n = 0;
  g_autofree char *maker = NULL;

  if (info != NULL && brand == NULL)
    brand = cm_card_info_get_manufacturer (info);
  if (brand != NULL || product != NULL)
    parts[n++] = maker = g_strjoin (" ", brand ?: product, brand != NULL ? product : NULL, NULL);
  if (cm_result_get_name (result) != NULL)
    parts[n++] = cm_result_get_name (result);
  if (cm_result_get_device (result) != NULL)
    parts[n++] = cm_result_get_device (result);
  else if (cm_result_get_target_path (result) != NULL)
    parts[n++] = cm_result_get_target_path (result);
  if (n == 0)
    return g_strdup (_("Unnamed card"));
  return g_strjoinv (" · ", (char **) parts);
}

/**
 * cm_batch_facts_new_for_result:
 *
 * What the batch report takes from @result; the history's index keeps it
 * beside the documents.
 */
CmBatchFacts *
cm_batch_facts_new_for_result (CmResult *result)
{
  CmBatchFacts *facts = g_new0 (CmBatchFacts, 1);
  GDateTime *started = cm_result_get_started (result);
  CmVerifyFacts verify;

  facts->key = dup_card_key (result);
  facts->card = dup_card_name (result);
  facts->kind = g_strdup (cm_result_get_kind (result));
  facts->started = started != NULL ? g_date_time_to_unix (started) * G_USEC_PER_SEC + g_date_time_get_microsecond (started) : 0;
  facts->size_bytes = cm_job_kind_get_card_bytes (result);
  facts->answer = cm_summary_dup_answer (result, &facts->status);
  facts->capacity_real_bytes = cm_result_get_capacity (result) != NULL ? (gint64) cm_result_get_capacity (result)->real_bytes : -1;
  facts->usable_bytes = cm_verify_facts_for_result (result, &verify) ? (gint64) verify.usable_bytes : -1;
  facts->lost_bytes = cm_job_kind_get_lost_bytes (result);
  return facts;
}

/* Below over marginal over meets; not judged only when nothing was. */
static CmStatus
worse (CmStatus a,
       CmStatus b)
{
  static const int rank[] = {
    [CM_STATUS_NOT_JUDGED] = 0, [CM_STATUS_MEETS] = 1, [CM_STATUS_MARGINAL] = 2, [CM_STATUS_BELOW] = 3,
  };

  return rank[b] > rank[a] ? b : a;
}

/* A document with no start counts as newer, as it always did. */
static gboolean
is_newer (const CmBatchFacts *facts,
          const CmBatchFacts *than)
{
  return facts->started == 0 || than->started == 0 || facts->started >= than->started;
}

CmBatchReport *
cm_batch_report_new (void)
{
  CmBatchReport *self = g_new0 (CmBatchReport, 1);

  self->cards = g_ptr_array_new_with_free_func ((GDestroyNotify) card_free);
  self->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

void
cm_batch_report_free (CmBatchReport *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_key);
  g_ptr_array_unref (self->cards);
  g_free (self);
}

/**
 * cm_batch_report_add:
 * @facts: (transfer full): one document's
 *
 * Keeps @facts as its card's newest of its kind, or drops it.
 */
void
cm_batch_report_add (CmBatchReport *self,
                     CmBatchFacts  *facts)
{
  g_autoptr(CmBatchFacts) owned = facts;
  Card *card = g_hash_table_lookup (self->by_key, facts->key);

  if (card == NULL)
    {
      card = g_new0 (Card, 1);
      card->key = g_strdup (facts->key);
      card->newest = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_batch_facts_free);
      g_ptr_array_add (self->cards, card);
      g_hash_table_insert (self->by_key, card->key, card);
    }

  for (guint i = 0; i < card->newest->len; i++)
    {
      CmBatchFacts *kept = g_ptr_array_index (card->newest, i);

      if (g_strcmp0 (kept->kind, facts->kind) != 0)
        continue;
      if (is_newer (facts, kept))
        {
          g_ptr_array_index (card->newest, i) = g_steal_pointer (&owned);
          cm_batch_facts_free (kept);
        }
      return;
    }
  g_ptr_array_add (card->newest, g_steal_pointer (&owned));
}

static CmBatchRow *
row_new (Card *card)
{
  CmBatchRow *row = g_new0 (CmBatchRow, 1);
  g_autoptr(GPtrArray) answers = g_ptr_array_new ();
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();
  g_autoptr(GPtrArray) machines = g_ptr_array_new ();
  gboolean from_store = FALSE;

  row->status = CM_STATUS_NOT_JUDGED;
  row->real_bytes = -1;
  row->lost_bytes = -1;
  for (guint i = 0; i < card->newest->len; i++)
    {
      CmBatchFacts *facts = g_ptr_array_index (card->newest, i);

      if (row->card == NULL)
        row->card = g_strdup (facts->card);
      row->size_bytes = MAX (row->size_bytes, facts->size_bytes);
      if (facts->answer != NULL)
        g_ptr_array_add (answers, facts->answer);
      row->status = worse (row->status, facts->status);
      /* What really holds data: a capacity check's finding, else what a
       * verify read back whole. */
      if (facts->capacity_real_bytes >= 0)
        row->real_bytes = facts->capacity_real_bytes;
      else if (facts->usable_bytes >= 0 && row->real_bytes < 0)
        row->real_bytes = facts->usable_bytes;
      if (facts->lost_bytes >= 0)
        row->lost_bytes = MAX (row->lost_bytes, facts->lost_bytes);
      g_ptr_array_add (kinds, facts->kind != NULL ? facts->kind : (char *) "");
      g_ptr_array_add (machines, facts->machine != NULL ? facts->machine : (char *) "");
      from_store |= facts->machine != NULL;
    }
  g_ptr_array_add (answers, NULL);
  g_ptr_array_add (kinds, NULL);
  g_ptr_array_add (machines, NULL);
  row->verdict = g_strjoinv (" · ", (char **) answers->pdata);
  row->kinds = g_strjoinv (", ", (char **) kinds->pdata);
  if (from_store)
    row->machines = g_strjoinv (", ", (char **) machines->pdata);
  return row;
}

/**
 * cm_batch_report_get_rows:
 *
 * Returns: (transfer full) (element-type CmBatchRow): one row per card,
 *   in the order its first document was added
 */
GPtrArray *
cm_batch_report_get_rows (CmBatchReport *self)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) cm_batch_row_free);

  for (guint i = 0; i < self->cards->len; i++)
    g_ptr_array_add (rows, row_new (g_ptr_array_index (self->cards, i)));
  return rows;
}

/**
 * cm_batch_report_build:
 * @results: (element-type CmResult): the picked documents, any kinds
 *
 * Returns: (transfer full) (element-type CmBatchRow): one row per card,
 *   in the order its first document came in @results
 */
GPtrArray *
cm_batch_report_build (GPtrArray *results)
{
  g_autoptr(CmBatchReport) report = cm_batch_report_new ();

  g_return_val_if_fail (results != NULL, g_ptr_array_new_with_free_func ((GDestroyNotify) cm_batch_row_free));

  for (guint i = 0; i < results->len; i++)
    cm_batch_report_add (report, cm_batch_facts_new_for_result (g_ptr_array_index (results, i)));
  return cm_batch_report_get_rows (report);
}

/* A size for the table, "—" when no document told it. */
char *
cm_batch_row_dup_size (const CmBatchRow *row,
                       guint             column)
{
  gint64 bytes;

  g_return_val_if_fail (row != NULL, NULL);

  switch (column)
    {
    case CM_BATCH_SIZE:
      bytes = row->size_bytes > 0 ? (gint64) row->size_bytes : -1;
      break;
    case CM_BATCH_REAL:
      bytes = row->real_bytes;
      break;
    case CM_BATCH_LOST:
    default:
      bytes = row->lost_bytes;
      break;
    }
  return bytes >= 0 ? g_format_size (bytes) : g_strdup ("—");
}

/* Names and words come from documents anyone may have written: control
 * characters and bidi overrides go, and a field a spreadsheet would take
 * for a formula starts with an apostrophe. */
static char *
dup_safe_text (const char *text)
{
  GString *safe = g_string_new (NULL);

  if (strchr ("=+-@", text[0]) != NULL && text[0] != '\0')
    g_string_append_c (safe, '\'');
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        break;
      if (g_unichar_type (c) == G_UNICODE_CONTROL || g_unichar_type (c) == G_UNICODE_FORMAT)
        continue;
      g_string_append_unichar (safe, c);
    }
  return g_string_free (safe, FALSE);
}

/* RFC 4180: a field with a comma or a quote is quoted, its quotes
 * doubled. */
static void
append_field (GString    *csv,
              const char *text,
              gboolean    last)
{
  g_autofree char *safe = dup_safe_text (text);

  if (strpbrk (safe, ",\"") != NULL)
    {
      g_autoptr(GString) quoted = g_string_new (safe);

      g_string_replace (quoted, "\"", "\"\"", 0);
      g_string_append_printf (csv, "\"%s\"", quoted->str);
    }
  else
    g_string_append (csv, safe);
  g_string_append (csv, last ? "\r\n" : ",");
}

static void
append_bytes (GString *csv,
              gint64   bytes)
{
  g_autofree char *text = bytes >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, bytes) : g_strdup ("");

  append_field (csv, text, FALSE);
}

/**
 * cm_batch_report_dup_csv:
 * @rows: (element-type CmBatchRow): from cm_batch_report_build()
 *
 * The report as CSV for a spreadsheet: a heading line, then one line per
 * card; sizes in bytes, empty where no document told them; the verdict
 * in words and its status as the result format names it. A report of
 * documents from the lab's store ends each line with the machine of each
 * check, in the order of the checks; one of this computer's documents
 * has no such column.
 */
char *
cm_batch_report_dup_csv (GPtrArray *rows)
{
  GString *csv = g_string_new ("card,size_bytes,verdict,status,real_capacity_bytes,lost_bytes,checks");
  gboolean from_store = FALSE;

  g_return_val_if_fail (rows != NULL, g_string_free (csv, FALSE));

  for (guint i = 0; i < rows->len && !from_store; i++)
    from_store = ((const CmBatchRow *) g_ptr_array_index (rows, i))->machines != NULL;
  g_string_append (csv, from_store ? ",machines\r\n" : "\r\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const CmBatchRow *row = g_ptr_array_index (rows, i);

      append_field (csv, row->card, FALSE);
      append_bytes (csv, row->size_bytes > 0 ? (gint64) row->size_bytes : -1);
      append_field (csv, row->verdict, FALSE);
      append_field (csv, cm_status_to_string (row->status), FALSE);
      append_bytes (csv, row->real_bytes);
      append_bytes (csv, row->lost_bytes);
      append_field (csv, row->kinds, !from_store);
      if (from_store)
        append_field (csv, row->machines != NULL ? row->machines : "", TRUE);
    }
  return g_string_free (csv, FALSE);
}
