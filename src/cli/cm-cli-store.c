/* cm-cli-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --store URL: the PostgreSQL database a lab's test machines share
 * (cm-store.c). Every job command takes it, parsed here once, and checked
 * before any card is touched.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cm-history.h"
#include "cm-store.h"

#include "cm-cli.h"

static char *store_url;
/* The history the command's jobs save into, while it lives. */
static CmHistory *job_history;

static gboolean
parse_store_option (GOptionContext   *context,
                    int              *argc,
                    char           ***argv,
                    gboolean          from_environment,
                    GError          **error)
{
  GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_STRING, &store_url,
      N_("Also send the result to this PostgreSQL database shared by several test machines "
         "(postgresql://USER@HOST/DATABASE; default $CARDMARK_STORE)"), "URL" },
    { NULL }
  };
  const char *variable = g_getenv ("CARDMARK_STORE");

  if (!from_environment)
    entries[0].description = N_("List the results in this PostgreSQL database shared by several test machines");
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cm_cli_parse_options (context, argc, argv, error))
    return FALSE;
  /* The environment is not in ps: a password there is the user's choice. */
  if (store_url != NULL && cm_store_url_has_password (store_url))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("Leave the password out of --store: every user of this computer sees a command line "
                             "(ps) for as long as the command runs. Keep it in ~/.pgpass (a line "
                             "HOST:PORT:DATABASE:USER:PASSWORD, mode 0600), in PGPASSWORD, or in the app’s "
                             "Password row, which keeps it there."));
      return FALSE;
    }
  if (store_url == NULL && from_environment && variable != NULL && *variable != '\0')
    store_url = g_strdup (variable);
  return store_url == NULL || cm_store_url_check (store_url, error);
}

/**
 * cm_cli_parse_job_options:
 *
 * cm_cli_parse_options() for a command that saves results: it also
 * takes --store URL (or $CARDMARK_STORE, so a lab sets it once per
 * machine) and checks the URL. The error is a usage error (exit 2); a
 * build without libpq says so here.
 */
gboolean
cm_cli_parse_job_options (GOptionContext   *context,
                          int              *argc,
                          char           ***argv,
                          GError          **error)
{
  return parse_store_option (context, argc, argv, TRUE, error);
}

/* cm_cli_parse_options() with --store URL, for history: only the option,
 * so $CARDMARK_STORE never changes what "history" lists. */
gboolean
cm_cli_parse_store_options (GOptionContext   *context,
                            int              *argc,
                            char           ***argv,
                            GError          **error)
{
  return parse_store_option (context, argc, argv, FALSE, error);
}

/* The store URL given, or NULL. */
const char *
cm_cli_get_store_url (void)
{
  return store_url;
}

/* Says what became of the documents that waited for the store. */
static void
say_queue (CmHistory *history,
           guint      before,
           guint      waiting)
{
  CmStore *store = cm_history_get_store (history);

  if (before > waiting)
    {
      g_autofree char *message = g_strdup_printf (ngettext ("Sent %u kept result to the store %s.",
                                                            "Sent %u kept results to the store %s.",
                                                            before - waiting),
                                                  before - waiting, cm_store_get_safe_url (store));

      cm_cli_print_message (message);
    }
}

/**
 * cm_cli_history_new:
 *
 * The history a job command saves into, with the store of --store set:
 * documents kept while the store could not be reached go first.
 */
CmHistory *
cm_cli_history_new (void)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(GError) error = NULL;

  if (store_url != NULL)
    {
      guint before;

      /* The URL was checked when the options were read. */
      if (!cm_history_set_store (history, store_url, &error))
        g_error ("%s", error->message);
      before = cm_history_count_queued (history);
      if (before > 0)
        say_queue (history, before, cm_history_send_queued (history));
    }
  g_set_weak_pointer (&job_history, history);
  return g_steal_pointer (&history);
}

/**
 * cm_cli_store_report:
 *
 * After a command's jobs: says which documents still wait for the store,
 * and why, so a lab knows before it unplugs the machine.
 */
void
cm_cli_store_report (void)
{
  const GError *error;
  guint waiting;
  g_autofree char *message = NULL;

  if (job_history == NULL || cm_history_get_store (job_history) == NULL)
    return;
  if ((waiting = cm_history_count_queued (job_history)) == 0)
    return;
  error = cm_history_get_store_error (job_history);
  message = g_strdup_printf (ngettext ("%u result waits for the store, kept in the history: it goes with the next command that names the store. %s",
                                       "%u results wait for the store, kept in the history: they go with the next command that names the store. %s",
                                       waiting),
                             waiting, error != NULL ? error->message : "");
  cm_cli_print_message (message);
}

/**
 * cm_cli_store_print_seen:
 *
 * "Tested before …" and a cloned-card warning for @result's card, from
 * the store when one is given, else from this computer's history. With
 * @json the document alone goes to stdout: the lines go to stderr.
 */
void
cm_cli_store_print_seen (CmResult *result,
                         gboolean  json)
{
  g_autoptr(CmHistory) fallback = NULL;
  g_autoptr(CmStoreSeen) seen = NULL;
  g_autoptr(GError) error = NULL;
  CmHistory *history = job_history;
  FILE *out = json ? stderr : stdout;

  if (result == NULL)
    return;
  if (history == NULL)
    history = fallback = cm_history_new_default ();
  if ((seen = cm_history_dup_seen (history, result, &error)) == NULL)
    {
      if (error != NULL)
        g_debug ("Tested before: %s", error->message);
      return;
    }
  if (seen->sentence != NULL)
    {
      g_autofree char *line = cm_cli_dup_printable (seen->sentence, FALSE);

      fprintf (out, "%s\n", line);
    }
  if (seen->warning != NULL)
    {
      g_autofree char *line = cm_cli_dup_printable (seen->warning, FALSE);

      fprintf (out, "%s %s\n", _("Warning:"), line);
    }
}
