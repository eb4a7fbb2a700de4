/* cm-cli-plot.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-result.h"

G_BEGIN_DECLS

int      cm_cli_plot        (int          argc,
                             char       **argv);
gboolean cm_cli_plot_result (CmResult    *result,
                             const char  *filename,
                             GError     **error);

G_END_DECLS
