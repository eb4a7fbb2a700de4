/* cm-power-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "cm-json.h"
#include "cm-power-report.h"
#include "cm-text.h"

#define MAX_CUTS 100000
/* JSON's integers are exact up to 2^53. */
#define MAX_COUNT (G_GUINT64_CONSTANT (1) << 53)
#define MAX_SECONDS (24.0 * 3600)

CmPowerReport *
cm_power_report_new (void)
{
  CmPowerReport *report = g_new0 (CmPowerReport, 1);

  report->cuts = g_array_new (FALSE, TRUE, sizeof (CmPowerCut));
  return report;
}

void
cm_power_report_free (CmPowerReport *report)
{
  if (report == NULL)
    return;
  g_free (report->method);
  g_array_unref (report->cuts);
  g_free (report);
}

JsonNode *
cm_power_report_to_json (const CmPowerReport *report)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  cm_json_add_int (b, "cuts_planned", report->cuts_planned);
  cm_json_add_int (b, "area_bytes", report->area);
  cm_json_add_string (b, "switch", report->method);
  cm_json_add_boolean (b, "stopped", report->stopped);
  json_builder_set_member_name (b, "cuts");
  json_builder_begin_array (b);
  for (guint i = 0; i < report->cuts->len; i++)
    {
      const CmPowerCut *c = &g_array_index (report->cuts, CmPowerCut, i);

      json_builder_begin_object (b);
      cm_json_add_int (b, "kept", c->kept);
      cm_json_add_int (b, "lost", c->lost);
      cm_json_add_int (b, "new", c->fresh);
      cm_json_add_int (b, "old", c->old);
      cm_json_add_int (b, "torn", c->torn);
      cm_json_add_int (b, "collateral_sectors", c->collateral);
      if (c->collateral > 0)
        cm_json_add_int (b, "collateral_first_offset", c->collateral_first);
      cm_json_add_double (b, "back_seconds", c->back_seconds);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* A member that is a whole number in [0, @max]; sets *ok FALSE else. */
static guint64
count_member (JsonObject *object,
              const char *name,
              guint64     max,
              gboolean   *ok)
{
  JsonNode *node = json_object_get_member (object, name);
  double v;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_INT64 && json_node_get_value_type (node) != G_TYPE_DOUBLE))
    {
      *ok = FALSE;
      return 0;
    }
  v = json_node_get_value_type (node) == G_TYPE_INT64 ? (double) json_node_get_int (node) : json_node_get_double (node);
  if (!(v >= 0 && v <= (double) max) || v != (double) (guint64) v)
    {
      *ok = FALSE;
      return 0;
    }
  return (guint64) v;
}

static double
seconds_member (JsonObject *object,
                const char *name,
                gboolean   *ok)
{
  JsonNode *node = json_object_get_member (object, name);
  double v;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_INT64 && json_node_get_value_type (node) != G_TYPE_DOUBLE))
    {
      *ok = FALSE;
      return 0;
    }
  v = json_node_get_double (node);
  if (!(v >= 0 && v <= MAX_SECONDS))
    *ok = FALSE;
  return *ok ? v : 0;
}

static gboolean
cut_from_json (JsonNode   *node,
               CmPowerCut *c)
{
  JsonObject *o;
  gboolean ok = TRUE;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  o = json_node_get_object (node);
  c->kept = count_member (o, "kept", MAX_COUNT, &ok);
  c->lost = count_member (o, "lost", MAX_COUNT, &ok);
  c->fresh = count_member (o, "new", MAX_COUNT, &ok);
  c->old = count_member (o, "old", MAX_COUNT, &ok);
  c->torn = count_member (o, "torn", MAX_COUNT, &ok);
  c->collateral = count_member (o, "collateral_sectors", MAX_COUNT, &ok);
  if (c->collateral > 0)
    c->collateral_first = count_member (o, "collateral_first_offset", MAX_COUNT, &ok);
  c->back_seconds = seconds_member (o, "back_seconds", &ok);
  return ok;
}

CmPowerReport *
cm_power_report_from_json (JsonNode *node)
{
  g_autoptr(CmPowerReport) report = NULL;
  JsonObject *o;
  JsonNode *cuts, *stopped;
  const char *method;
  gboolean ok = TRUE;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  o = json_node_get_object (node);
  report = cm_power_report_new ();
  report->cuts_planned = count_member (o, "cuts_planned", MAX_CUTS, &ok);
  report->area = count_member (o, "area_bytes", MAX_COUNT, &ok);
  method = json_object_get_string_member_with_default (o, "switch", "commands");
  report->method = cm_text_dup_clean (method != NULL ? method : "", 32);
  stopped = json_object_get_member (o, "stopped");
  report->stopped = stopped != NULL && JSON_NODE_HOLDS_VALUE (stopped) &&
                    json_node_get_value_type (stopped) == G_TYPE_BOOLEAN && json_node_get_boolean (stopped);
  cuts = json_object_get_member (o, "cuts");
  if (!ok || cuts == NULL || !JSON_NODE_HOLDS_ARRAY (cuts) ||
      json_array_get_length (json_node_get_array (cuts)) > MAX_CUTS)
    return NULL;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (cuts)); i++)
    {
      CmPowerCut c = { 0 };

      if (!cut_from_json (json_array_get_element (json_node_get_array (cuts), i), &c))
        return NULL;
      g_array_append_val (report->cuts, c);
    }
  return g_steal_pointer (&report);
}

guint64
cm_power_report_lost (const CmPowerReport *report,
                      guint               *cuts)
{
  guint64 sum = 0;

  *cuts = 0;
  for (guint i = 0; i < report->cuts->len; i++)
    {
      const CmPowerCut *c = &g_array_index (report->cuts, CmPowerCut, i);

      sum += c->lost;
      *cuts += c->lost > 0;
    }
  return sum;
}

guint64
cm_power_report_collateral (const CmPowerReport *report,
                            guint               *cuts,
                            guint64             *first)
{
  guint64 sum = 0;

  *cuts = 0;
  *first = 0;
  for (guint i = 0; i < report->cuts->len; i++)
    {
      const CmPowerCut *c = &g_array_index (report->cuts, CmPowerCut, i);

      if (c->collateral > 0 && *cuts == 0)
        *first = c->collateral_first;
      sum += c->collateral;
      *cuts += c->collateral > 0;
    }
  return sum;
}
