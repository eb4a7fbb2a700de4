/* cm-queue-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The queue check's settings (CmJobKind.options_type), with their
 * defaults and bounds: how long it writes, over how much of the card,
 * and how deep its queue is (1: the same check with no queue, to set
 * beside one with).
 */

#include "config.h"

#include "cm-queue-options.h"

struct _CmQueueOptions
{
  GObject parent_instance;
  double  minutes;
  guint64 area;
  guint   depth;
};

G_DEFINE_FINAL_TYPE (CmQueueOptions, cm_queue_options, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MINUTES,
  PROP_AREA,
  PROP_DEPTH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
cm_queue_options_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  CmQueueOptions *self = CM_QUEUE_OPTIONS (object);

  switch (prop_id)
    {
    case PROP_MINUTES:
      g_value_set_double (value, self->minutes);
      break;
    case PROP_AREA:
      g_value_set_uint64 (value, self->area);
      break;
    case PROP_DEPTH:
      g_value_set_uint (value, self->depth);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_queue_options_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  CmQueueOptions *self = CM_QUEUE_OPTIONS (object);

  switch (prop_id)
    {
    case PROP_MINUTES:
      self->minutes = g_value_get_double (value);
      break;
    case PROP_AREA:
      self->area = g_value_get_uint64 (value);
      break;
    case PROP_DEPTH:
      self->depth = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_queue_options_class_init (CmQueueOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = cm_queue_options_get_property;
  object_class->set_property = cm_queue_options_set_property;

  /* From six seconds (a test's) to a day. */
  properties[PROP_MINUTES] =
    g_param_spec_double ("minutes", NULL, NULL, 0.1, 1440, 5,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Bytes from the card's start; a smaller card is checked whole. */
  properties[PROP_AREA] =
    g_param_spec_uint64 ("area", NULL, NULL, 1024 * 1024, G_MAXUINT64, 1024 * 1024 * 1024,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* An SD card queues at most 32 commands. */
  properties[PROP_DEPTH] =
    g_param_spec_uint ("depth", NULL, NULL, 1, 32, 32,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cm_queue_options_init (CmQueueOptions *self)
{
}

double
cm_queue_options_get_minutes (CmQueueOptions *self)
{
  g_return_val_if_fail (CM_IS_QUEUE_OPTIONS (self), 0);
  return self->minutes;
}

guint64
cm_queue_options_get_area (CmQueueOptions *self)
{
  g_return_val_if_fail (CM_IS_QUEUE_OPTIONS (self), 0);
  return self->area;
}

guint
cm_queue_options_get_depth (CmQueueOptions *self)
{
  g_return_val_if_fail (CM_IS_QUEUE_OPTIONS (self), 0);
  return self->depth;
}
