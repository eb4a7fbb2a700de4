/* cm-cli-power.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli power-cut DEVICE --destroy-data: does the card keep what
 * it said it saved? The work is core's (cm-job-power.c, cm-power.c);
 * this checks the options before the card is touched, turns them into
 * the kind's options, shows the progress and prints each cut.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "cm-history.h"
#include "cm-job-kinds.h"
#include "cm-power-hub.h"
#include "cm-power-options.h"
#include "cm-power-report.h"
#include "cm-size.h"
#include "cm-verify.h"

#include "cm-cli.h"
#include "cm-cli-jobs.h"

typedef struct
{
  gboolean    destroy;
  guint       cuts;
  guint64     area;
  double      time_limit;
  CmPowerSwitchMethod method;
  const char *off;
  const char *on;
  char       *hub_off;   /* --usb-hub: uhubctl's commands */
  char       *hub_on;
  gboolean    json;
  CmHistory  *history;
  int         signal_fd;
} Power;

static void
progress_cb (CmJob       *job,
             GParamSpec  *pspec,
             CmCliTarget *t)
{
  g_autofree char *left = NULL;
  char *line;

  if (cm_job_get_phase (job) == NULL)
    return;
  if (cm_job_get_seconds_left (job) < 0)
    line = g_strdup_printf ("%s  %3.0f %%", cm_job_get_phase (job), cm_job_get_progress (job) * 100);
  else
    {
      left = cm_cli_format_duration (cm_job_get_seconds_left (job));
      line = g_strdup_printf ("%s  %3.0f %%  %s %s", cm_job_get_phase (job), cm_job_get_progress (job) * 100,
                              left, _("left"));
    }
  if (g_strcmp0 (line, g_object_get_data (G_OBJECT (job), "cm-cli-line")) == 0)
    {
      g_free (line);
      return;
    }
  g_object_set_data_full (G_OBJECT (job), "cm-cli-line", line, g_free);
  cm_cli_jobs_progress (t, "%s", line);
}

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Power *p = user_data;

  t->data = p;
  t->job = cm_job_new_of_kind (&cm_job_kind_power, t->target);
  cm_job_set_destroy_data (t->job, p->destroy);
  g_object_set (cm_job_get_options (t->job),
                "cuts", p->cuts,
                "area", p->area,
                "time-limit", p->time_limit,
                "method", (int) p->method,
                "switch-off", p->off,
                "switch-on", p->on,
                NULL);
  cm_job_set_history (t->job, p->history);
  g_signal_connect (t->job, "notify::progress", G_CALLBACK (progress_cb), t);
  g_signal_connect (t->job, "notify::phase", G_CALLBACK (progress_cb), t);
  g_signal_connect (t->job, "notify::seconds-left", G_CALLBACK (progress_cb), t);
  cm_cli_jobs_say (t, _("Cutting the power of %s while it writes…\n"), t->target);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  return cm_cli_watch_end_signals_saying (((Power *) user_data)->signal_fd, cancellable,
                                          _("Stopping the power-cut test; where it stands is kept…"));
}

static void
print_cut (guint             n,
           const CmPowerCut *c)
{
  /* Translators: one cut of a power-cut test; counts of 4 KiB records, then seconds */
  printf (_("Cut %u: %llu confirmed records kept, %llu lost · in flight: %llu new, %llu old, %llu torn · "
            "back after %.1f s\n"),
          n, (unsigned long long) c->kept, (unsigned long long) c->lost, (unsigned long long) c->fresh,
          (unsigned long long) c->old, (unsigned long long) c->torn, c->back_seconds);
  if (c->collateral > 0)
    /* Translators: 512-byte sectors the card was not writing that came back damaged, and where */
    printf (_("        %llu sectors it was not writing damaged, the first at byte %llu\n"),
            (unsigned long long) c->collateral, (unsigned long long) c->collateral_first);
}

static void
print_report (CmResult *result)
{
  g_autoptr(CmPowerReport) report = cm_power_report_from_json (cm_result_get_part (result));
  g_autoptr(CmOutcome) outcome = cm_result_dup_outcome (result);

  for (guint i = 0; report != NULL && i < report->cuts->len; i++)
    print_cut (i + 1, &g_array_index (report->cuts, CmPowerCut, i));
  for (guint i = 0; i < cm_result_get_notes (result)->len; i++)
    cm_cli_print_message (g_ptr_array_index (cm_result_get_notes (result), i));
  printf ("\n%s\n", outcome->answer != NULL ? outcome->answer : outcome->badge);
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Power *p = user_data;
  g_autoptr(CmOutcome) outcome = NULL;

  if (t->error != NULL)
    {
      if (g_error_matches (t->error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT))
        {
          fprintf (stderr, "cardmark-cli: %s\n%s\n", t->error->message, _("Add --destroy-data to go ahead."));
          return CM_EXIT_USAGE;
        }
      cm_cli_print_error (t->error);
      return g_error_matches (t->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? CM_OUTCOME_EXIT_STOPPED : CM_EXIT_FAILED;
    }
  if (json != NULL)
    *json = cm_result_to_json (t->result);
  else if (p->json)
    {
      g_autoptr(JsonNode) node = cm_result_to_json (t->result);

      cm_cli_print_json (node);
    }
  else
    print_report (t->result);
  if (cm_job_get_saved_file (t->job) != NULL)
    fprintf (stderr, _("Saved to %s\n"), g_file_peek_path (cm_job_get_saved_file (t->job)));
  else if (cm_job_get_save_error (t->job) != NULL)
    cm_cli_print_error (cm_job_get_save_error (t->job));
  outcome = cm_result_dup_outcome (t->result);
  return outcome->exit_status;
}

/* A whole number within the bounds the kind's option gives. */
static gboolean
parse_uint_option (const char  *option,
                   const char  *text,
                   const char  *property,
                   guint       *value,
                   GError     **error)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (CM_TYPE_POWER_OPTIONS);
  GParamSpecUInt *spec = G_PARAM_SPEC_UINT (g_object_class_find_property (G_OBJECT_CLASS (klass), property));
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, spec->minimum, spec->maximum, &v, NULL))
    {
      /* Translators: the first %s is an option (--cuts), the others its bounds */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s takes a whole number from %u to %u."),
                   option, spec->minimum, spec->maximum);
      return FALSE;
    }
  *value = v;
  return TRUE;
}

static gboolean
parse_seconds_option (const char  *option,
                      const char  *text,
                      double      *value,
                      GError     **error)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (CM_TYPE_POWER_OPTIONS);
  GParamSpecDouble *spec = G_PARAM_SPEC_DOUBLE (g_object_class_find_property (G_OBJECT_CLASS (klass), "time-limit"));
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !(v >= spec->minimum && v <= spec->maximum))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s takes seconds from %.0f to %.0f."),
                   option, spec->minimum, spec->maximum);
      return FALSE;
    }
  *value = v;
  return TRUE;
}

/* --usb-hub: the reader's hub and port, from sysfs, switched by uhubctl;
 * a hub that switches all its ports together is said before it does. */
static gboolean
find_hub (Power       *p,
          const char  *device,
          GError     **error)
{
  g_autoptr(CmPowerHub) hub = cm_power_hub_find ("/sys", device, error);

  if (hub == NULL)
    return FALSE;
  p->hub_off = cm_power_hub_dup_command (hub, FALSE);
  p->hub_on = cm_power_hub_dup_command (hub, TRUE);
  p->off = p->hub_off;
  p->on = p->hub_on;
  p->method = CM_POWER_SWITCH_COMMANDS;
  if (hub->ganged)
    fprintf (stderr, _("The USB hub at %s switches all its ports together: everything on it loses its power with "
                       "the card (on a Raspberry Pi 4's own ports, the keyboard and mouse too).\n"), hub->location);
  return TRUE;
}

/* @other: a way besides the commands (--by-hand, --usb-hub), @both: two. */
static gboolean
check_switch (Power    *p,
              gboolean  other,
              gboolean  both,
              GError  **error)
{
  if (both || (other && (p->off != NULL || p->on != NULL)))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("Choose one way to cut the power: --by-hand, --usb-hub, or --switch-off with --switch-on."));
      return FALSE;
    }
  p->method = other ? CM_POWER_SWITCH_BY_HAND : CM_POWER_SWITCH_COMMANDS;
  if (!other && (p->off == NULL || p->on == NULL || p->off[0] == '\0' || p->on[0] == '\0'))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("The power-cut test needs a way to cut the card's power: --switch-off CMD with --switch-on CMD "
                     "(a relay, a smart plug), --usb-hub, or --by-hand."));
      return FALSE;
    }
  return TRUE;
}

int
cm_cli_power (int    argc,
              char **argv)
{
  gboolean destroy = FALSE, json = FALSE, by_hand = FALSE, usb_hub = FALSE;
  g_autofree char *cuts = NULL;
  g_autofree char *area = NULL;
  g_autofree char *limit = NULL;
  g_autofree char *off = NULL;
  g_autofree char *on = NULL;
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_NONE, &destroy, N_("Overwrite the start of the device, destroying everything on it"), NULL },
    { "cuts", 0, 0, G_OPTION_ARG_STRING, &cuts, N_("How many times to cut the power (default 10)"), "N" },
    { "area", 0, 0, G_OPTION_ARG_STRING, &area, N_("How much of the card's start to write (default 32 MiB)"), "SIZE" },
    { "switch-off", 0, 0, G_OPTION_ARG_STRING, &off, N_("A command that cuts the card's power"), "CMD" },
    { "switch-on", 0, 0, G_OPTION_ARG_STRING, &on, N_("A command that brings the card's power back"), "CMD" },
    { "by-hand", 0, 0, G_OPTION_ARG_NONE, &by_hand, N_("Pull the card or its reader out when asked, and put it back"), NULL },
    { "usb-hub", 0, 0, G_OPTION_ARG_NONE, &usb_hub, N_("Switch the power of the reader's USB port with uhubctl (a hub with per-port switching)"), NULL },
    { "time-limit", 0, 0, G_OPTION_ARG_STRING, &limit, N_("Seconds the card may take to go or come back (default 60)"), "SECONDS" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result document as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE — check that a card keeps what it confirmed when its power is cut"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = NULL;
  const CmCliJobsFuncs funcs = { prepare, finish, watch, NULL, "power", NULL };
  Power p = { 0 };
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Fills a reference area with self-checking sectors, then, cut after cut, writes self-checking 4 KiB records, "
      "sequential and random, with a cache flush every few, keeping on this computer the last record whose flush "
      "completed; cuts the card's power while writes are in flight, waits for the same card to come back (this "
      "run's mark on it) and reads everything back. Every record a flush confirmed must be there, and the reference "
      "untouched. Before the first write the switch is checked: the card must go and come back. Where the test "
      "stands is kept on this computer: the same command carries on after a stop or a crash. "
      "Exit status: 0 the card kept all it confirmed, 4 it lost confirmed writes or damaged data it was not "
      "writing, 5 stopped, 1 the test failed, 2 usage."));
  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 2)
    return cm_cli_usage_error (context, _("power-cut needs one DEVICE, a whole card such as /dev/mmcblk0."));
  if (argv[1][0] == '\0')
    return cm_cli_usage_error (context, _("The DEVICE is empty. Give the card's device, such as /dev/mmcblk0."));
  p.cuts = 10;
  p.area = 32 * 1024 * 1024;
  p.time_limit = 60;
  p.off = off;
  p.on = on;
  if ((cuts != NULL && !parse_uint_option ("--cuts", cuts, "cuts", &p.cuts, &error)) ||
      (area != NULL && !cm_size_parse (area, "--area", 64 * 1024, &p.area, &error)) ||
      (limit != NULL && !parse_seconds_option ("--time-limit", limit, &p.time_limit, &error)) ||
      !check_switch (&p, by_hand || usb_hub, usb_hub && by_hand, &error))
    return cm_cli_usage_error (context, error->message);
  if (usb_hub && !find_hub (&p, argv[1], &error))
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }

  p.signal_fd = cm_cli_block_end_signals ();
  history = cm_cli_history_new ();
  p.destroy = destroy;
  p.json = json;
  p.history = history;
  status = cm_cli_jobs_run (&funcs, argv + 1, 1, json, &p);
  close (p.signal_fd);
  g_free (p.hub_off);
  g_free (p.hub_on);
  return status;
}
