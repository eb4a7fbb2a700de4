/* cm-cli-list.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* cardmark-cli list [--json] [--show-loop] */
int cm_cli_list (int    argc,
                 char **argv);

/* cardmark-cli info TARGET [--json] */
int cm_cli_info (int    argc,
                 char **argv);

G_END_DECLS
