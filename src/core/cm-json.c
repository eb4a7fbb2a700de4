/* cm-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The result document and the CLI's JSON write unknown values as null,
 * never by leaving the member out, so readers always find every key.
 */

#include "config.h"

#include "cm-json.h"

/* A string member; NULL is written as null. */
void
cm_json_add_string (JsonBuilder *builder,
                    const char  *key,
                    const char  *value)
{
  json_builder_set_member_name (builder, key);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
cm_json_add_double (JsonBuilder *builder,
                    const char  *key,
                    double       value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_double_value (builder, value);
}

void
cm_json_add_int (JsonBuilder *builder,
                 const char  *key,
                 gint64       value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_int_value (builder, value);
}

/* A count or size that is unknown when 0: written as null then. */
void
cm_json_add_positive_int (JsonBuilder *builder,
                          const char  *key,
                          gint64       value)
{
  json_builder_set_member_name (builder, key);
  if (value > 0)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
cm_json_add_boolean (JsonBuilder *builder,
                     const char  *key,
                     gboolean     value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_boolean_value (builder, value);
}
