/* cm-verify-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the full verify's files share: the object (cm-verify.c), its
 * worker (cm-verify-run.c) and its pattern (cm-verify-pattern.c).
 */

#pragma once

#include "cm-card-info.h"
#include "cm-device.h"
#include "cm-host.h"
#include "cm-target.h"
#include "cm-verify.h"

G_BEGIN_DECLS

#define CM_VERIFY_CHUNK (4 * 1024 * 1024)  /* bytes per command */

struct _CmVerify
{
  GObject        parent_instance;

  char          *path;
  CmVerifyFlags  flags;
  guint64        file_bytes;
  char          *state_folder;
  int            device_fd;

  gboolean       prepared;
  CmVerifyMode   mode;
  char          *folder;      /* files mode */
  char          *device;      /* device mode, or the device under the folder */
  char          *state_path;
  CmTarget      *target;      /* device mode, once opened */
  gboolean       running;

  /* What the result says of the card, as a bench's does (cm-bench.c). */
  char          *name;
  CmDevice      *card_device; /* as UDisks knows it, or NULL */
  CmCardInfo    *card;
  CmHostFacts   *host;
};

char     *cm_verify_file_path     (CmVerify     *self,
                                   guint         index) G_GNUC_WARN_UNUSED_RESULT;
GArray   *cm_verify_list_h2w      (const char   *folder) G_GNUC_WARN_UNUSED_RESULT;
void      cm_verify_emit_progress (CmVerify     *self,
                                   guint         phase,
                                   double        fraction,
                                   double        mb_per_s,
                                   double        seconds_left);
gboolean  cm_verify_sector_is_ok  (const guint8 *sector,
                                   guint64       offset);
void      cm_verify_run_in_thread (CmVerify     *self,
                                   GTask        *task);

G_END_DECLS
