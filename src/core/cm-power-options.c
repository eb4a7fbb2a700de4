/* cm-power-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "cm-power-options.h"

struct _CmPowerOptions
{
  GObject  parent_instance;
  guint    cuts;
  guint64  area;
  int      method;
  char    *switch_off;
  char    *switch_on;
  double   time_limit;
};

G_DEFINE_FINAL_TYPE (CmPowerOptions, cm_power_options, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CUTS,
  PROP_AREA,
  PROP_METHOD,
  PROP_SWITCH_OFF,
  PROP_SWITCH_ON,
  PROP_TIME_LIMIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
cm_power_options_finalize (GObject *object)
{
  CmPowerOptions *self = CM_POWER_OPTIONS (object);

  g_free (self->switch_off);
  g_free (self->switch_on);
  G_OBJECT_CLASS (cm_power_options_parent_class)->finalize (object);
}

static void
cm_power_options_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  CmPowerOptions *self = CM_POWER_OPTIONS (object);

  switch (prop_id)
    {
    case PROP_CUTS:
      g_value_set_uint (value, self->cuts);
      break;
    case PROP_AREA:
      g_value_set_uint64 (value, self->area);
      break;
    case PROP_METHOD:
      g_value_set_int (value, self->method);
      break;
    case PROP_SWITCH_OFF:
      g_value_set_string (value, self->switch_off);
      break;
    case PROP_SWITCH_ON:
      g_value_set_string (value, self->switch_on);
      break;
    case PROP_TIME_LIMIT:
      g_value_set_double (value, self->time_limit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_string (CmPowerOptions *self,
            char          **field,
            const GValue   *value,
            guint           prop)
{
  if (g_strcmp0 (*field, g_value_get_string (value)) == 0)
    return;
  g_free (*field);
  *field = g_value_dup_string (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
cm_power_options_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  CmPowerOptions *self = CM_POWER_OPTIONS (object);

  switch (prop_id)
    {
    case PROP_CUTS:
      if (self->cuts != g_value_get_uint (value))
        {
          self->cuts = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_AREA:
      if (self->area != g_value_get_uint64 (value))
        {
          self->area = g_value_get_uint64 (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_METHOD:
      if (self->method != g_value_get_int (value))
        {
          self->method = g_value_get_int (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SWITCH_OFF:
      set_string (self, &self->switch_off, value, PROP_SWITCH_OFF);
      break;
    case PROP_SWITCH_ON:
      set_string (self, &self->switch_on, value, PROP_SWITCH_ON);
      break;
    case PROP_TIME_LIMIT:
      if (self->time_limit != g_value_get_double (value))
        {
          self->time_limit = g_value_get_double (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_power_options_class_init (CmPowerOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = cm_power_options_finalize;
  object_class->get_property = cm_power_options_get_property;
  object_class->set_property = cm_power_options_set_property;

  /* How many times the power is cut. */
  properties[PROP_CUTS] = g_param_spec_uint ("cuts", NULL, NULL, 1, 1000, 10, flags);
  /* The bytes from the card's start the test writes: records and
   * reference, 8 KiB a slot. */
  properties[PROP_AREA] = g_param_spec_uint64 ("area", NULL, NULL, 64 * 1024, G_GUINT64_CONSTANT (16) << 30,
                                               32 * 1024 * 1024, flags);
  /* A CmPowerSwitchMethod. */
  properties[PROP_METHOD] = g_param_spec_int ("method", NULL, NULL, CM_POWER_SWITCH_COMMANDS, CM_POWER_SWITCH_BY_HAND,
                                              CM_POWER_SWITCH_COMMANDS, flags);
  properties[PROP_SWITCH_OFF] = g_param_spec_string ("switch-off", NULL, NULL, NULL, flags);
  properties[PROP_SWITCH_ON] = g_param_spec_string ("switch-on", NULL, NULL, NULL, flags);
  /* Seconds the card may take to go, or to come back. */
  properties[PROP_TIME_LIMIT] = g_param_spec_double ("time-limit", NULL, NULL, 1, 3600, 60, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cm_power_options_init (CmPowerOptions *self)
{
  self->cuts = 10;
  self->area = 32 * 1024 * 1024;
  self->method = CM_POWER_SWITCH_COMMANDS;
  self->time_limit = 60;
}

guint
cm_power_options_get_cuts (CmPowerOptions *self)
{
  g_return_val_if_fail (CM_IS_POWER_OPTIONS (self), 0);
  return self->cuts;
}

guint64
cm_power_options_get_area (CmPowerOptions *self)
{
  g_return_val_if_fail (CM_IS_POWER_OPTIONS (self), 0);
  return self->area;
}

CmPowerSwitchMethod
cm_power_options_get_method (CmPowerOptions *self)
{
  g_return_val_if_fail (CM_IS_POWER_OPTIONS (self), CM_POWER_SWITCH_COMMANDS);
  return self->method;
}

const char *
cm_power_options_get_switch_off (CmPowerOptions *self)
{
  g_return_val_if_fail (CM_IS_POWER_OPTIONS (self), NULL);
  return self->switch_off;
}

const char *
cm_power_options_get_switch_on (CmPowerOptions *self)
{
  g_return_val_if_fail (CM_IS_POWER_OPTIONS (self), NULL);
  return self->switch_on;
}

double
cm_power_options_get_time_limit (CmPowerOptions *self)
{
  g_return_val_if_fail (CM_IS_POWER_OPTIONS (self), 0);
  return self->time_limit;
}
