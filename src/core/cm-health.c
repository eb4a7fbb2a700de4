/* cm-health.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CMD56 reply decoders, one per public vendor layout, and the
 * `health` object of a document. Each layout is told by its signature
 * (the first bytes of the reply) and by the argument it answers; the
 * offsets and what is not known of each are in docs/methodology.md.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "cm-health.h"

/* Counters a card leaves unset read as all ones; nothing real reaches it. */
#define UNSET32 0xFFFFFFFFu

static const char * const layout_names[] = {
  [CM_HEALTH_LAYOUT_NONE] = NULL,
  [CM_HEALTH_LAYOUT_SANDISK] = "sandisk",
  [CM_HEALTH_LAYOUT_LONGSYS] = "longsys",
  [CM_HEALTH_LAYOUT_SWISSBIT] = "swissbit",
  [CM_HEALTH_LAYOUT_MICRON] = "micron",
  [CM_HEALTH_LAYOUT_INNODISK] = "innodisk",
  [CM_HEALTH_LAYOUT_ADATA] = "adata",
  [CM_HEALTH_LAYOUT_TRANSCEND] = "transcend",
  [CM_HEALTH_LAYOUT_TWO_STEP] = "two-step",
};

const char *
cm_health_layout_to_string (CmHealthLayout layout)
{
  g_return_val_if_fail (layout <= CM_HEALTH_LAYOUT_TWO_STEP, NULL);

  return layout_names[layout];
}

gboolean
cm_health_layout_from_string (const char     *str,
                              CmHealthLayout *layout)
{
  for (guint i = 1; i < G_N_ELEMENTS (layout_names); i++)
    if (g_strcmp0 (str, layout_names[i]) == 0)
      {
        *layout = i;
        return TRUE;
      }
  return FALSE;
}

const guint32 *
cm_health_arguments (void)
{
  static const guint32 arguments[] = {
    CM_HEALTH_ARG_SANDISK,
    CM_HEALTH_ARG_INNODISK,
    CM_HEALTH_ARG_ADATA,
    CM_HEALTH_ARG_TRANSCEND,
    CM_HEALTH_ARG_MICRON,
    CM_HEALTH_ARG_SWISSBIT,
    CM_HEALTH_ARG_TWO_STEP,
    0,
  };

  return arguments;
}

void
cm_health_init_unknown (CmHealth      *health,
                        CmHealthState  state)
{
  g_return_if_fail (health != NULL);

  health->state = state;
  health->layout = CM_HEALTH_LAYOUT_NONE;
  health->life_used_percent = -1;
  health->spare_blocks = -1;
  health->bad_blocks = -1;
  health->erase_min = -1;
  health->erase_avg = -1;
  health->erase_max = -1;
  health->power_cycles = -1;
  health->flash_bytes_written = -1;
}

/* Reading the reply. */

static guint64
be (const guint8 *r,
    guint         offset,
    guint         size)
{
  guint64 v = 0;

  for (guint i = 0; i < size; i++)
    v = (v << 8) | r[offset + i];
  return v;
}

static guint64
le (const guint8 *r,
    guint         offset,
    guint         size)
{
  guint64 v = 0;

  for (guint i = size; i > 0; i--)
    v = (v << 8) | r[offset + i - 1];
  return v;
}

/* A 32-bit counter, or -1 when the card left it unset. */
static gint64
count32 (guint64 v)
{
  return v == UNSET32 ? -1 : (gint64) v;
}

static double
percent (double v)
{
  return v >= 0 && v <= 100 ? v : -1;
}

static gint64
sum_bytes (const guint8 *r,
           guint         from,
           guint         to)
{
  gint64 sum = 0;

  for (guint i = from; i < to; i++)
    sum += r[i];
  return sum;
}

static gint64
add_known (gint64 a,
           gint64 b)
{
  return a < 0 || b < 0 ? -1 : a + b;
}

/* Life used is 0x01 for 0–0.99 %, 0x64 for 99–99.99 %; a card may go
 * on past 100 %, so up to 0xFF stands. */
static void
decode_sandisk (const guint8 *r,
                CmHealth     *h)
{
  h->life_used_percent = r[8] > 0 ? r[8] - 1 : 0;
  h->power_cycles = be (r, 23, 3);
}

static void
decode_longsys (const guint8 *r,
                CmHealth     *h)
{
  guint64 remaining = le (r, 44, 4);
  guint64 flash_gib = le (r, 56, 4);
  guint64 wear = le (r, 36, 4);

  h->life_used_percent = remaining <= 100 ? 100.0 - remaining : -1;
  h->bad_blocks = add_known (count32 (le (r, 16, 4)), count32 (le (r, 20, 4)));
  h->spare_blocks = count32 (le (r, 32, 4));
  /* The average erase count, in thousandths. */
  h->erase_avg = wear == UNSET32 ? -1 : (gint64) (wear / 1000);
  /* Physical writes in GiB: no more than 2^32 GiB fits. */
  h->flash_bytes_written = flash_gib == UNSET32 ? -1 : (gint64) (flash_gib << 30);
}

static void
decode_swissbit (const guint8 *r,
                 CmHealth     *h)
{
  h->life_used_percent = r[80] <= 100 ? 100.0 - r[80] : -1;
  h->erase_max = count32 (be (r, 52, 4));
  h->erase_avg = count32 (be (r, 60, 4));
  h->spare_blocks = count32 (be (r, 88, 4));
  h->bad_blocks = count32 (be (r, 96, 4));
  h->power_cycles = count32 (be (r, 116, 4));
}

static void
decode_micron (const guint8 *r,
               CmHealth     *h)
{
  /* The share of the TLC area's rated erases used. */
  h->life_used_percent = percent (r[8]);
}

static void
decode_innodisk (const guint8 *r,
                 CmHealth     *h)
{
  h->spare_blocks = r[24];
  h->bad_blocks = r[25] + r[26];
  h->erase_min = count32 (be (r, 32, 4));
  h->erase_max = count32 (be (r, 36, 4));
  h->erase_avg = count32 (be (r, 44, 4));
}

static void
decode_adata (const guint8 *r,
              CmHealth     *h)
{
  h->bad_blocks = be (r, 24, 2) + r[26];
  h->spare_blocks = be (r, 30, 2);
  h->erase_min = count32 (be (r, 32, 4));
  h->erase_max = count32 (be (r, 36, 4));
  h->erase_avg = count32 (be (r, 44, 4));
  h->life_used_percent = r[70] <= 100 ? 100.0 - r[70] : -1;
  h->power_cycles = count32 (be (r, 76, 4));
}

static void
decode_transcend (const guint8 *r,
                  CmHealth     *h)
{
  h->bad_blocks = r[26];
  h->spare_blocks = r[27];
  h->erase_min = count32 (le (r, 32, 4));
  h->erase_max = count32 (le (r, 36, 4));
  h->erase_avg = count32 (le (r, 44, 4));
  h->life_used_percent = r[70] <= 100 ? 100.0 - r[70] : -1;
  h->power_cycles = be (r, 76, 2);
}

/* No signature: the reply is taken only as the answer to its own
 * argument, and only when its two percentages are percentages. */
static gboolean
decode_two_step (const guint8 *r,
                 CmHealth     *h)
{
  guint64 remaining = be (r, 96, 2);
  guint64 good_rate = be (r, 64, 2);

  if (remaining > 10000 || good_rate > 10000)
    return FALSE;
  h->life_used_percent = (10000 - remaining) / 100.0;
  h->spare_blocks = be (r, 16, 2);
  h->bad_blocks = sum_bytes (r, 32, 64) + sum_bytes (r, 184, 216);
  /* Each erase count is split: its high half at 104…109, its low half
   * at 98…103. */
  h->erase_avg = (gint64) ((be (r, 104, 2) << 16) | be (r, 98, 2));
  h->erase_min = (gint64) ((be (r, 106, 2) << 16) | be (r, 100, 2));
  h->erase_max = (gint64) ((be (r, 108, 2) << 16) | be (r, 102, 2));
  h->power_cycles = count32 (be (r, 112, 4));
  return TRUE;
}

typedef struct
{
  CmHealthLayout layout;
  guint32        argument;
  guint8         signature[2];
  guint8         signature_alt;   /* a second byte 1 some cards send instead, or 0 */
  void         (*decode) (const guint8 *reply,
                          CmHealth     *health);
} Layout;

static const Layout layouts[] = {
  { CM_HEALTH_LAYOUT_SANDISK, CM_HEALTH_ARG_SANDISK, { 'D', 'S' }, 'W', decode_sandisk },
  { CM_HEALTH_LAYOUT_LONGSYS, CM_HEALTH_ARG_SANDISK, { 0x70, 0x58 }, 0, decode_longsys },
  { CM_HEALTH_LAYOUT_SWISSBIT, CM_HEALTH_ARG_SWISSBIT, { 'S', 'w' }, 0, decode_swissbit },
  { CM_HEALTH_LAYOUT_MICRON, CM_HEALTH_ARG_MICRON, { 'M', 'E' }, 0, decode_micron },
  { CM_HEALTH_LAYOUT_INNODISK, CM_HEALTH_ARG_INNODISK, { 'L', 'X' }, 0, decode_innodisk },
  { CM_HEALTH_LAYOUT_ADATA, CM_HEALTH_ARG_ADATA, { 0x09, 0x41 }, 0, decode_adata },
  { CM_HEALTH_LAYOUT_TRANSCEND, CM_HEALTH_ARG_TRANSCEND, { 'T', 'r' }, 0, decode_transcend },
};

static gboolean
is_blank (const guint8 *reply)
{
  gboolean zeros = TRUE;
  gboolean ones = TRUE;

  for (guint i = 0; i < CM_HEALTH_REPLY_SIZE; i++)
    {
      zeros = zeros && reply[i] == 0x00;
      ones = ones && reply[i] == 0xFF;
    }
  return zeros || ones;
}

/* Erase counts that contradict each other are not known. */
static void
check_erase_counts (CmHealth *h)
{
  gboolean contradict = (h->erase_min >= 0 && h->erase_max >= 0 && h->erase_min > h->erase_max) ||
                        (h->erase_avg >= 0 && h->erase_max >= 0 && h->erase_avg > h->erase_max) ||
                        (h->erase_avg >= 0 && h->erase_min >= 0 && h->erase_avg < h->erase_min);

  if (contradict)
    h->erase_min = h->erase_avg = h->erase_max = -1;
}

/**
 * cm_health_decode:
 * @reply: what the card sent
 * @length: its length: anything but %CM_HEALTH_REPLY_SIZE is not known
 * @argument: the argument CMD56 was asked with, or
 *   %CM_HEALTH_ARG_UNKNOWN for a saved reply (which then cannot be the
 *   two-step layout, as that has no signature)
 * @health: (out): the figures, every one -1 unless known
 *
 * Returns: %TRUE when the reply is in a known layout
 */
gboolean
cm_health_decode (const guint8 *reply,
                  gsize         length,
                  guint32       argument,
                  CmHealth     *health)
{
  g_return_val_if_fail (health != NULL, FALSE);

  cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
  if (reply == NULL || length != CM_HEALTH_REPLY_SIZE || is_blank (reply))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      const Layout *l = &layouts[i];

      if (reply[0] != l->signature[0] ||
          (reply[1] != l->signature[1] && (l->signature_alt == 0 || reply[1] != l->signature_alt)))
        continue;
      if (argument != CM_HEALTH_ARG_UNKNOWN && argument != l->argument)
        continue;
      l->decode (reply, health);
      health->layout = l->layout;
      break;
    }

  if (health->layout == CM_HEALTH_LAYOUT_NONE && argument == CM_HEALTH_ARG_TWO_STEP &&
      decode_two_step (reply, health))
    health->layout = CM_HEALTH_LAYOUT_TWO_STEP;

  if (health->layout == CM_HEALTH_LAYOUT_NONE)
    {
      cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
      return FALSE;
    }
  check_erase_counts (health);
  health->state = CM_HEALTH_KNOWN;
  return TRUE;
}

/* The document's `health` object. */

static const char * const state_names[] = {
  [CM_HEALTH_KNOWN] = "known",
  [CM_HEALTH_NOT_KNOWN] = "not-known",
  [CM_HEALTH_NO_ACCESS] = "no-access",
};

static void
add_count (JsonBuilder *b,
           const char  *key,
           gint64       value)
{
  json_builder_set_member_name (b, key);
  if (value < 0)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, value);
}

JsonNode *
cm_health_to_json (const CmHealth *health)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  const char *layout;

  g_return_val_if_fail (health != NULL, NULL);

  layout = cm_health_layout_to_string (health->layout);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, state_names[health->state]);
  json_builder_set_member_name (b, "layout");
  if (layout != NULL)
    json_builder_add_string_value (b, layout);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "life_used_percent");
  if (health->life_used_percent < 0)
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, health->life_used_percent);
  add_count (b, "spare_blocks", health->spare_blocks);
  add_count (b, "bad_blocks", health->bad_blocks);
  json_builder_set_member_name (b, "erase_count");
  json_builder_begin_object (b);
  add_count (b, "min", health->erase_min);
  add_count (b, "avg", health->erase_avg);
  add_count (b, "max", health->erase_max);
  json_builder_end_object (b);
  add_count (b, "power_cycles", health->power_cycles);
  add_count (b, "flash_bytes_written", health->flash_bytes_written);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static gboolean
read_count (JsonObject  *object,
            const char  *key,
            gint64      *value,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *value = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < 0)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   _("The health member “%s” is not a count."), key);
      return FALSE;
    }
  *value = json_node_get_int (node);
  return TRUE;
}

static gboolean
read_percent (JsonObject  *object,
              double      *value,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, "life_used_percent");
  GType type;

  *value = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  if (!isfinite (*value) || *value < 0 || *value > 255)
    {
      *value = -1;
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           _("The health member “life_used_percent” is not a percentage."));
      return FALSE;
    }
  return TRUE;
}

/**
 * cm_health_from_json:
 *
 * Reads a `health` object, checking every member; a member that is
 * missing is not known.
 */
gboolean
cm_health_from_json (JsonNode  *node,
                     CmHealth  *health,
                     GError   **error)
{
  JsonObject *object;
  JsonObject *erase;
  const char *state;
  const char *layout;

  g_return_val_if_fail (health != NULL, FALSE);

  cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           _("The card's health is not an object."));
      return FALSE;
    }
  object = json_node_get_object (node);
  state = json_object_get_string_member_with_default (object, "state", "not-known");
  for (guint i = 0; i < G_N_ELEMENTS (state_names); i++)
    if (g_strcmp0 (state, state_names[i]) == 0)
      health->state = i;
  layout = json_object_get_string_member_with_default (object, "layout", NULL);
  if (layout != NULL && !cm_health_layout_from_string (layout, &health->layout))
    health->layout = CM_HEALTH_LAYOUT_NONE;
  erase = json_object_has_member (object, "erase_count") &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "erase_count"))
          ? json_object_get_object_member (object, "erase_count") : NULL;

  if (!read_percent (object, &health->life_used_percent, error) ||
      !read_count (object, "spare_blocks", &health->spare_blocks, error) ||
      !read_count (object, "bad_blocks", &health->bad_blocks, error) ||
      !read_count (object, "power_cycles", &health->power_cycles, error) ||
      !read_count (object, "flash_bytes_written", &health->flash_bytes_written, error) ||
      (erase != NULL && (!read_count (erase, "min", &health->erase_min, error) ||
                         !read_count (erase, "avg", &health->erase_avg, error) ||
                         !read_count (erase, "max", &health->erase_max, error))))
    {
      cm_health_init_unknown (health, CM_HEALTH_NOT_KNOWN);
      return FALSE;
    }
  if (health->state == CM_HEALTH_KNOWN && health->layout == CM_HEALTH_LAYOUT_NONE)
    health->state = CM_HEALTH_NOT_KNOWN;
  return TRUE;
}

char *
cm_health_describe (const CmHealth *health)
{
  g_return_val_if_fail (health != NULL, NULL);

  if (health->state == CM_HEALTH_NO_ACCESS)
    return g_strdup (_("This reader cannot ask the card"));
  if (health->state != CM_HEALTH_KNOWN)
    return g_strdup (_("Not known"));
  if (health->life_used_percent < 0)
    /* Translators: the card answered, but says nothing of its life */
    return g_strdup (_("The card tells no share of its life used"));
  /* Translators: a card's own wear; %.0f is a percentage, "12 % of its life used" */
  return g_strdup_printf (_("%.0f %% of its life used"), floor (health->life_used_percent));
}
