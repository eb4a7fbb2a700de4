/* cm-cli-decode.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "cm-health.h"

G_BEGIN_DECLS

int cm_cli_decode (int    argc,
                   char **argv);
/* cm-cli-health.c: a saved CMD56 reply, and a card's health figures. */
int  cm_cli_decode_gen_cmd (const char     *filename,
                            int             manufacturer_id,
                            gboolean        json);
void cm_cli_print_health   (const CmHealth *health);

G_END_DECLS
