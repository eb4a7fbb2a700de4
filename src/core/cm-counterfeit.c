/* cm-counterfeit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The warning signs of a counterfeit or over-labelled card that its
 * registers give away, as tests/data/reference/sd-cards.md lists them: a
 * maker or OEM ID that does not match the brand on the label, classes on
 * the label that the card's SD Status does not declare, classes newer
 * than the card's SD specification version. They become notes of the
 * verdict (cm-verdict.c); the capacity probe finds the other kind of fake,
 * a card smaller than it says.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "cm-sd-registers.h"

#include "cm-counterfeit.h"

static gboolean
names_brand (const char *label,
             const char *brand)
{
  g_autofree char *haystack = g_ascii_strdown (label, -1);
  g_autofree char *needle = g_ascii_strdown (brand, -1);
  gsize len = strlen (needle);

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    {
      gboolean starts = p == haystack || !g_ascii_isalnum (p[-1]);
      gboolean ends = !g_ascii_isalnum (p[len]);

      if (starts && ends)
        return TRUE;
    }

  return FALSE;
}

/* The first brand from the maker table (or from one maker's entry) that
 * the label names, or NULL. */
static char *
brand_on_label (const char      *label,
                const CmSdMaker *only)
{
  gsize n_makers;
  const CmSdMaker *makers = cm_sd_makers (&n_makers);

  for (gsize i = 0; i < n_makers; i++)
    {
      g_auto(GStrv) brands = NULL;

      if (only != NULL && &makers[i] != only)
        continue;

      brands = g_strsplit (makers[i].brands, "|", -1);
      for (guint j = 0; brands[j] != NULL; j++)
        if (brands[j][0] != '\0' && names_brand (label, brands[j]))
          return g_strdup (brands[j]);
    }

  return NULL;
}

/* GStrvBuilder only copies before GLib 2.80. */
static void
take_hint (GStrvBuilder *hints,
           char         *hint)
{
  g_strv_builder_add (hints, hint);
  g_free (hint);
}

static void
check_brand (CmCardInfo   *card,
             GStrvBuilder *hints)
{
  int mid = cm_card_info_get_manufacturer_id (card);
  const char *label = cm_card_info_get_brand (card);
  const CmSdMaker *maker = cm_sd_maker_lookup (mid);
  g_autofree char *brand = NULL;
  g_autofree char *own = NULL;

  if (label == NULL || maker == NULL || maker->shared)
    return;

  brand = brand_on_label (label, NULL);
  own = brand_on_label (label, maker);
  if (brand == NULL || own != NULL)
    return;

  take_hint (hints,
             g_strdup_printf (_("The label says %s, but the card’s registers name "
                                "%s (manufacturer ID 0x%02x) as its maker."),
                              brand, maker->name, mid));
}

static void
check_oem_id (CmCardInfo   *card,
              GStrvBuilder *hints)
{
  int mid = cm_card_info_get_manufacturer_id (card);
  const char *oem_id = cm_card_info_get_oem_id (card);
  const CmSdMaker *maker = cm_sd_maker_lookup (mid);

  if (maker != NULL && maker->oem_id != NULL && oem_id != NULL &&
      !g_str_equal (maker->oem_id, oem_id))
    take_hint (hints,
               g_strdup_printf (_("The card’s OEM ID is “%s”, but %s cards carry “%s”."),
                                oem_id, maker->name, maker->oem_id));

  if ((mid == 0x00 || mid == 0xfe) && g_strcmp0 (oem_id, "42") == 0)
    take_hint (hints,
               g_strdup_printf (_("Manufacturer ID 0x%02x with OEM ID “42” turns up on "
                                  "cheap and counterfeit cards."),
                                mid));
}

static const char *
declared_for_family (CmCardInfo *card,
                     char        family)
{
  switch (family)
    {
    case 'C': return cm_card_info_get_speed_class (card);
    case 'U': return cm_card_info_get_uhs_grade (card);
    case 'V': return cm_card_info_get_video_class (card);
    case 'A': return cm_card_info_get_app_class (card);
    default: return NULL;
    }
}

static void
check_declared (CmCardInfo   *card,
                const char   *claim,
                GStrvBuilder *hints)
{
  char family = g_ascii_toupper (claim[0]);
  const char *declared = declared_for_family (card, family);
  int claimed = cm_sd_class_value (claim, family);
  int value = cm_sd_class_value (declared, family);

  if (claimed < 0 || value < 0 || value >= claimed)
    return;

  if (value == 0)
    take_hint (hints,
               g_strdup_printf (_("The label claims %s, but the card’s SD Status "
                                  "declares no class of that kind."),
                                claim));
  else
    take_hint (hints,
               g_strdup_printf (_("The label claims %s, but the card’s SD Status "
                                  "declares only %s."),
                                claim, declared));
}

/* The oldest physical layer version that defines a class: UHS speed
 * grades came with 3.01, video classes with 5.00, A1 with 5.10 and A2
 * with 6.00. The SCR tells major versions from 5 on apart, not 5.0 from
 * 5.1, so only the major version is compared. */
static const char *
required_spec (char  family,
               int   value,
               int  *major)
{
  *major = 0;
  if (value <= 0)
    return NULL;

  switch (family)
    {
    case 'U': *major = 3; return "3.01";
    case 'V': *major = 5; return "5.00";
    case 'A': *major = value >= 2 ? 6 : 5; return value >= 2 ? "6.00" : "5.10";
    default: return NULL;
    }
}

static void
check_spec (CmCardInfo   *card,
            const char   *klass,
            gboolean      claimed,
            GStrvBuilder *hints)
{
  const char *spec = cm_card_info_get_spec_version (card);
  char family = g_ascii_toupper (klass[0]);
  int major;
  const char *required = required_spec (family, cm_sd_class_value (klass, family), &major);

  if (spec == NULL || required == NULL || atoi (spec) >= major)
    return;

  if (claimed)
    take_hint (hints,
               g_strdup_printf (_("The label claims %s, but the card follows SD "
                                  "specification %s, older than %s, which defines %s."),
                                klass, spec, required, klass));
  else
    take_hint (hints,
               g_strdup_printf (_("The card declares %s, but it follows SD "
                                  "specification %s, older than %s, which defines %s."),
                                klass, spec, required, klass));
}

static void
check_performance_enhance (CmCardInfo   *card,
                           GStrvBuilder *hints)
{
  guint depth = cm_card_info_get_command_queue_depth (card);
  gboolean cache = cm_card_info_get_cache_supported (card);

  if (cm_card_info_get_performance_enhance (card) < 0 || (depth > 0 && cache))
    return;

  if (depth == 0 && !cache)
    g_strv_builder_add (hints,
                        _("The card claims A2, but its SD Status reports neither command "
                          "queueing nor a cache, which A2 needs (CardMark’s reading of this "
                          "field is unverified)."));
  else if (depth == 0)
    g_strv_builder_add (hints,
                        _("The card claims A2, but its SD Status reports no command "
                          "queueing, which A2 needs (CardMark’s reading of this field is "
                          "unverified)."));
  else
    g_strv_builder_add (hints,
                        _("The card claims A2, but its SD Status reports no cache, which A2 "
                          "needs (CardMark’s reading of this field is unverified)."));
}

GStrv
cm_counterfeit_dup_hints (CmCardInfo         *card,
                          const char * const *claimed_classes)
{
  g_autoptr(GStrvBuilder) hints = g_strv_builder_new ();
  g_auto(GStrv) declared = NULL;
  gboolean a2 = FALSE;

  g_return_val_if_fail (CM_IS_CARD_INFO (card), NULL);

  check_brand (card, hints);
  check_oem_id (card, hints);

  for (guint i = 0; claimed_classes != NULL && claimed_classes[i] != NULL; i++)
    {
      if (claimed_classes[i][0] == '\0')
        continue;
      check_declared (card, claimed_classes[i], hints);
      check_spec (card, claimed_classes[i], TRUE, hints);
      a2 |= cm_sd_class_value (claimed_classes[i], 'A') >= 2;
    }

  declared = cm_card_info_dup_declared_classes (card);
  for (guint i = 0; declared[i] != NULL; i++)
    {
      if (claimed_classes != NULL && g_strv_contains (claimed_classes, declared[i]))
        continue;
      check_spec (card, declared[i], FALSE, hints);
      a2 |= cm_sd_class_value (declared[i], 'A') >= 2;
    }

  if (a2)
    check_performance_enhance (card, hints);

  return g_strv_builder_end (hints);
}
