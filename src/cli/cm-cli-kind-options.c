/* cm-cli-kind-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A command's options made from its kind's own (CmJobKind.options_type):
 * the option's name is the property's, its help line the GParamSpec's
 * blurb, and the numbers it takes the GParamSpec's bounds, said in one
 * sentence when a value is not one of them (a usage error, status 2,
 * before any card is touched). A number is plain decimal digits: no
 * sign, no space, no 0x, no exponent. Where the option's default is its
 * least value (0: no limit), typing that value is refused too, as
 * leaving the option out is what means it (cm-cli-number.c's rule).
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cm-cli-kind-options.h"

struct _CmCliKindOptions
{
  GObject      *values;   /* the kind's options, as the command line set them */
  GOptionEntry *entries;  /* ends with an empty one */
  GHashTable   *given;    /* the properties the command line set */
};

static GParamSpec *
find_pspec (CmCliKindOptions *self,
            const char       *option_name)
{
  while (*option_name == '-')
    option_name++;
  return g_object_class_find_property (G_OBJECT_GET_CLASS (self->values), option_name);
}

/* The least and the most a whole number option takes. */
static void
whole_bounds (GParamSpec *pspec,
              guint64    *least,
              guint64    *most)
{
  guint64 minimum = 0, maximum = 0, fallback = 0;

  if (G_IS_PARAM_SPEC_UINT (pspec))
    {
      minimum = G_PARAM_SPEC_UINT (pspec)->minimum;
      maximum = G_PARAM_SPEC_UINT (pspec)->maximum;
      fallback = G_PARAM_SPEC_UINT (pspec)->default_value;
    }
  else
    {
      minimum = G_PARAM_SPEC_UINT64 (pspec)->minimum;
      maximum = G_PARAM_SPEC_UINT64 (pspec)->maximum;
      fallback = G_PARAM_SPEC_UINT64 (pspec)->default_value;
    }
  *least = fallback == minimum && minimum < maximum ? minimum + 1 : minimum;
  *most = maximum;
}

static gboolean
is_plain_whole (const char *text)
{
  gsize length = strlen (text);

  return length > 0 && length <= 20 && strspn (text, "0123456789") == length;
}

static gboolean
parse_whole (GParamSpec  *pspec,
             const char  *option_name,
             const char  *text,
             GValue      *value,
             GError     **error)
{
  guint64 least, most, number = 0;
  char least_text[24], most_text[24];

  whole_bounds (pspec, &least, &most);
  if (!is_plain_whole (text) || !g_ascii_string_to_unsigned (text, 10, least, most, &number, NULL))
    {
      g_snprintf (least_text, sizeof least_text, "%" G_GUINT64_FORMAT, least);
      g_snprintf (most_text, sizeof most_text, "%" G_GUINT64_FORMAT, most);
      /* Translators: an option and its bounds: "--rounds takes a whole number, from 1 to 1000000." */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s takes a whole number, from %s to %s."),
                   option_name, least_text, most_text);
      return FALSE;
    }
  if (G_IS_PARAM_SPEC_UINT (pspec))
    g_value_set_uint (value, (guint) number);
  else
    g_value_set_uint64 (value, number);
  return TRUE;
}

static gboolean
option_cb (const char  *option_name,
           const char  *text,
           gpointer     data,
           GError     **error)
{
  CmCliKindOptions *self = data;
  GParamSpec *pspec = find_pspec (self, option_name);
  g_auto(GValue) value = G_VALUE_INIT;

  g_assert (pspec != NULL);
  g_value_init (&value, pspec->value_type);
  if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    g_value_set_boolean (&value, TRUE);
  else if (!parse_whole (pspec, option_name, text, &value, error))
    return FALSE;
  g_object_set_property (self->values, pspec->name, &value);
  g_hash_table_add (self->given, (gpointer) pspec->name);
  return TRUE;
}

/**
 * cm_cli_kind_options_new:
 * @kind: the command's kind, which has options
 * @options: the kind's options the command offers: booleans, and whole
 *   numbers (guint, guint64)
 */
CmCliKindOptions *
cm_cli_kind_options_new (const CmJobKind       *kind,
                         const CmCliKindOption *options,
                         guint                  n_options)
{
  CmCliKindOptions *self;

  g_return_val_if_fail (kind != NULL && kind->options_type != NULL, NULL);

  self = g_new0 (CmCliKindOptions, 1);
  self->values = g_object_new (kind->options_type (), NULL);
  self->given = g_hash_table_new (g_str_hash, g_str_equal);
  self->entries = g_new0 (GOptionEntry, n_options + 1);
  for (guint i = 0; i < n_options; i++)
    {
      GParamSpec *pspec = find_pspec (self, options[i].property);

      g_return_val_if_fail (pspec != NULL, self);
      g_return_val_if_fail (G_IS_PARAM_SPEC_BOOLEAN (pspec) || G_IS_PARAM_SPEC_UINT (pspec) ||
                            G_IS_PARAM_SPEC_UINT64 (pspec), self);
      self->entries[i].long_name = pspec->name;
      self->entries[i].flags = G_IS_PARAM_SPEC_BOOLEAN (pspec) ? G_OPTION_FLAG_NO_ARG : 0;
      self->entries[i].arg = G_OPTION_ARG_CALLBACK;
      self->entries[i].arg_data = (gpointer) option_cb;
      /* Translated by the group's domain, as the command's own lines. */
      self->entries[i].description = g_param_spec_get_blurb (pspec);
      self->entries[i].arg_description = options[i].arg;
    }
  return self;
}

/* Adds the options to @context's main group, before the command's own
 * (cm_cli_kind_options_add() goes before g_option_context_add_main_entries()). */
void
cm_cli_kind_options_add (CmCliKindOptions *self,
                         GOptionContext   *context)
{
  GOptionGroup *group = g_option_group_new (NULL, NULL, NULL, self, NULL);

  g_option_group_add_entries (group, self->entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
}

/* Sets what the command line gave on @job's options; the others keep
 * their defaults. */
void
cm_cli_kind_options_apply (CmCliKindOptions *self,
                           CmJob            *job)
{
  GHashTableIter iter;
  gpointer name;

  g_hash_table_iter_init (&iter, self->given);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      g_auto(GValue) value = G_VALUE_INIT;

      g_object_get_property (self->values, name, &value);
      g_object_set_property (cm_job_get_options (job), name, &value);
    }
}

void
cm_cli_kind_options_free (CmCliKindOptions *self)
{
  g_clear_object (&self->values);
  g_clear_pointer (&self->given, g_hash_table_unref);
  g_free (self->entries);
  g_free (self);
}
