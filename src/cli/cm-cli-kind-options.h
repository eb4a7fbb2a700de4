/* cm-cli-kind-options.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-job-kind.h"

G_BEGIN_DECLS

/* A command's option that sets its kind's option of the same name. */
typedef struct
{
  const char *property;  /* the kind's option, and the long option */
  const char *arg;       /* what --help shows for its value, "N" */
} CmCliKindOption;

typedef struct _CmCliKindOptions CmCliKindOptions;

CmCliKindOptions *cm_cli_kind_options_new   (const CmJobKind       *kind,
                                             const CmCliKindOption *options,
                                             guint                  n_options);
void              cm_cli_kind_options_add   (CmCliKindOptions      *self,
                                             GOptionContext        *context);
void              cm_cli_kind_options_apply (CmCliKindOptions      *self,
                                             CmJob                 *job);
void              cm_cli_kind_options_free  (CmCliKindOptions      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmCliKindOptions, cm_cli_kind_options_free)

G_END_DECLS
