/* test-queue-kmsg.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kernel log lines a queue check counts, from
 * tests/fixtures/queue-kmsg: /dev/kmsg records, dmesg and journal lines
 * of the card's host and block device count, with their times; other
 * hosts' and devices' lines, and the card's ordinary ones, do not.
 */

#include "config.h"

#include "cm-queue-kmsg.h"

static GStrv
read_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "queue-kmsg", name, NULL);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_strsplit (text, "\n", -1);
}

/* Each line of the fixture, in order: whether it counts, and as what. */
static void
test_lines (void)
{
  static const struct { gboolean counts; CmQueueEvent event; double at; } expected[] = {
    { TRUE,  CM_QUEUE_EVENT_RECOVERY,     5.0 },
    { TRUE,  CM_QUEUE_EVENT_RECOVERY,     5.1 },
    { TRUE,  CM_QUEUE_EVENT_TIMEOUT,      5.2 },
    { FALSE, 0, 0 },                      /* a record's continuation */
    { TRUE,  CM_QUEUE_EVENT_SPURIOUS_TCN, 5.3 },
    { FALSE, 0, 0 },                      /* another host */
    { TRUE,  CM_QUEUE_EVENT_IO_ERROR,     5.5 },
    { FALSE, 0, 0 },                      /* another card */
    { FALSE, 0, 0 },                      /* the card coming up */
    { TRUE,  CM_QUEUE_EVENT_RECOVERY,     5800.123456 },
    { TRUE,  CM_QUEUE_EVENT_RESET,        5900 },
    { FALSE, 0, 0 },                      /* mmc10 is not mmc0 */
    { FALSE, 0, 0 },                      /* mmcblk01 is not mmcblk0 */
    { TRUE,  CM_QUEUE_EVENT_RECOVERY,     6100 },
  };
  g_auto(GStrv) lines = read_fixture ("mmc0.log");

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      CmQueueEventAt event = { 0, };
      gboolean counts;

      g_assert_nonnull (lines[i]);
      counts = cm_queue_kmsg_parse_line (lines[i], "mmc0", "mmcblk0", &event);
      g_test_message ("line %u: %s", i + 1, lines[i]);
      g_assert_cmpint (counts, ==, expected[i].counts);
      if (!counts)
        continue;
      g_assert_cmpint (event.event, ==, expected[i].event);
      g_assert_cmpfloat_with_epsilon (event.at, expected[i].at, 1e-6);
    }
}

/* A card on no MMC host (a USB reader): only its I/O errors count. */
static void
test_no_host (void)
{
  g_auto(GStrv) lines = read_fixture ("mmc0.log");
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      CmQueueEventAt event;

      if (cm_queue_kmsg_parse_line (lines[i], NULL, "mmcblk0", &event))
        {
          g_assert_cmpint (event.event, ==, CM_QUEUE_EVENT_IO_ERROR);
          n++;
        }
    }
  g_assert_cmpuint (n, ==, 1);
}

static void
test_names (void)
{
  for (guint i = 0; i < CM_QUEUE_N_EVENTS; i++)
    {
      CmQueueEvent back;

      g_assert_true (cm_queue_event_from_string (cm_queue_event_to_string (i), &back));
      g_assert_cmpint (back, ==, i);
    }
  g_assert_false (cm_queue_event_from_string ("recoveries", &(CmQueueEvent) { 0 }));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/queue-kmsg/lines", test_lines);
  g_test_add_func ("/cardmark/queue-kmsg/no-host", test_no_host);
  g_test_add_func ("/cardmark/queue-kmsg/names", test_names);

  return g_test_run ();
}
