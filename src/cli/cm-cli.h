/* cm-cli.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the subcommands of cardmark-cli share.
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "cm-history.h"

G_BEGIN_DECLS

/* Exit statuses (README.md § cardmark-cli). A card's verdict, and a
 * stop (CM_OUTCOME_EXIT_STOPPED), are its document's outcome's
 * (cm-outcome.h); a command's own say only what it could not do. */
enum {
  CM_EXIT_OK = 0,
  CM_EXIT_FAILED = 1,
  CM_EXIT_USAGE = 2,
  CM_EXIT_BELOW = 3,
  CM_EXIT_FAKE = 4,
};

int  cm_cli_bench       (int          argc,
                         char       **argv);
int  cm_cli_history     (int          argc,
                         char       **argv);
int  cm_cli_probe_capacity (int       argc,
                            char    **argv);
int  cm_cli_verify      (int          argc,
                         char       **argv);
int  cm_cli_format      (int          argc,
                         char       **argv);
int  cm_cli_endure      (int          argc,
                         char       **argv);
int  cm_cli_health      (int          argc,
                         char       **argv);
int  cm_cli_power       (int          argc,
                         char       **argv);
int  cm_cli_queue_check (int          argc,
                         char       **argv);
char *cm_cli_format_duration (double seconds) G_GNUC_WARN_UNUSED_RESULT;
int  cm_cli_block_end_signals (void);
guint cm_cli_watch_end_signals (int           signal_fd,
                                GCancellable *cancellable);
guint cm_cli_watch_end_signals_saying (int           signal_fd,
                                       GCancellable *cancellable,
                                       const char   *stopping);
int  cm_cli_usage_error (GOptionContext *context,
                         const char  *message);
int  cm_cli_check_operands (GOptionContext *context,
                            int           argc,
                            char        **argv,
                            int           min,
                            int           max,
                            const char   *usage);
gboolean cm_cli_option_text (const char  *option,
                             const char  *value,
                             char       **text,
                             GError     **error);
void cm_cli_print_error (const GError *error);
gboolean cm_cli_check_writable (const char  *filename,
                                GError     **error);
gboolean cm_cli_is_chart_name  (const char  *filename);
void cm_cli_print_message (const char *message);
char *cm_cli_dup_printable (const char *text,
                            gboolean    keep_newlines) G_GNUC_WARN_UNUSED_RESULT;
void cm_cli_print_json  (JsonNode     *node);
int  cm_cli_text_width  (const char   *text);
char *cm_cli_dup_wrapped (const char  *text,
                          int          columns) G_GNUC_WARN_UNUSED_RESULT;
gboolean cm_cli_parse_options (GOptionContext   *context,
                               int              *argc,
                               char           ***argv,
                               GError          **error);
gboolean cm_cli_parse_job_options (GOptionContext   *context,
                                   int              *argc,
                                   char           ***argv,
                                   GError          **error);
gboolean cm_cli_parse_store_options (GOptionContext   *context,
                                     int              *argc,
                                     char           ***argv,
                                     GError          **error);
const char *cm_cli_get_store_url (void);
void cm_cli_store_report (void);
void cm_cli_pad         (GString      *line,
                         const char   *text,
                         int           width,
                         gboolean      right);

CmHistory *cm_cli_history_new (void) G_GNUC_WARN_UNUSED_RESULT;
void cm_cli_store_print_seen (CmResult *result,
                              gboolean  json);

G_END_DECLS
