/* cm-cli-target.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-card-info.h"
#include "cm-device.h"
#include "cm-result.h"
#include "cm-target.h"

G_BEGIN_DECLS

/* What "bench TARGET" measures, and what is known about it. */
typedef struct
{
  CmTarget   *target;
  CmDevice   *device;   /* NULL when UDisks does not know it */
  CmCardInfo *card;     /* NULL when there is no card to read */
  char       *note;     /* a sentence for the result, or NULL */
} CmCliTarget;

gboolean cm_cli_target_resolve  (CmCliTarget  *self,
                                 const char   *path,
                                 gboolean      raw,
                                 gboolean      allow_write,
                                 GError      **error);
void     cm_cli_target_describe (CmCliTarget  *self,
                                 CmResult     *result);
void     cm_cli_target_clear    (CmCliTarget  *self);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CmCliTarget, cm_cli_target_clear)

G_END_DECLS
