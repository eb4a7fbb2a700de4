/* cm-result-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fields of a result, shared by the model (cm-result.c) and its JSON
 * form (cm-result-json-write.c, cm-result-json-read.c).
 */

#pragma once

#include "cm-result.h"

G_BEGIN_DECLS


struct _CmResult
{
  GObject     parent_instance;

  char       *kind;
  char       *tool;
  GDateTime  *started;
  char       *profile;
  char       *target_path;
  char       *target_mode;
  char       *device;
  char       *reader;
  char       *sighting;
  char       *name_from;    /* the reader kind whose words made the name, or NULL */
  char       *name_detail;  /* what told the device apart in them, or NULL */
  guint       usb_speed_mbps;
  guint64     device_bytes;
  guint64     area_bytes;
  char       *host;
  char       *bus_timing;
  CmQueueing  host_queueing;
  char       *name;
  gboolean    direct_io;
  CmCardInfo *card;
  char       *summary;
  GPtrArray  *tests;
  GPtrArray  *claims;
  GPtrArray  *notes;
  CmVerifySummary *verify;
  CmCapacityReport *capacity;
  CmEndurance *endurance;
  JsonNode   *part;      /* the kind's own part, its member named as the kind */
};

G_END_DECLS
