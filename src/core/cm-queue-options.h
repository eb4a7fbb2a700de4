/* cm-queue-options.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define CM_TYPE_QUEUE_OPTIONS (cm_queue_options_get_type ())

G_DECLARE_FINAL_TYPE (CmQueueOptions, cm_queue_options, CM, QUEUE_OPTIONS, GObject)

double  cm_queue_options_get_minutes (CmQueueOptions *self);
guint64 cm_queue_options_get_area    (CmQueueOptions *self);
guint   cm_queue_options_get_depth   (CmQueueOptions *self);

G_END_DECLS
