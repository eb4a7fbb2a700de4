/* cm-cli-decode.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int cm_cli_decode (int    argc,
                   char **argv);

G_END_DECLS
