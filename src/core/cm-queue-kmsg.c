/* cm-queue-kmsg.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads the kernel log while a queue check runs, for the lines that
 * tell a card's command queue went wrong: /dev/kmsg as root (from its
 * end, so nothing logged before the check counts), else the journal
 * (journalctl -k -f). Only lines of the card's own host ("mmc0: …") and
 * of its own block device ("I/O error, dev mmcblk0, …") count; the
 * words are the kernel's own (drivers/mmc/host/cqhci-core.c, sdhci.c,
 * block/blk-mq.c).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cm-test-hooks.h"
#include "cm-queue-kmsg.h"

static const char * const event_names[CM_QUEUE_N_EVENTS] = {
  "recovery", "timeout", "spurious-tcn", "reset", "io-error",
};

const char *
cm_queue_event_to_string (CmQueueEvent event)
{
  g_return_val_if_fail (event < CM_QUEUE_N_EVENTS, NULL);
  return event_names[event];
}

gboolean
cm_queue_event_from_string (const char   *str,
                            CmQueueEvent *event)
{
  for (guint i = 0; str != NULL && i < CM_QUEUE_N_EVENTS; i++)
    if (g_str_equal (str, event_names[i]))
      {
        *event = i;
        return TRUE;
      }
  return FALSE;
}

/* The message of a line and its time: /dev/kmsg's "6,1234,5678901,-;msg"
 * (microseconds), dmesg's "[ 5678.901234] msg", or the journal's
 * "[ 5678.901234] pi kernel: msg". */
static const char *
split_line (const char *line,
            double     *at)
{
  const char *semi = strchr (line, ';');
  const char *msg = line;

  *at = -1;
  if (line[0] == '[')
    {
      const char *close = strchr (line, ']');
      char *end = NULL;
      double t = g_ascii_strtod (line + 1, &end);

      if (close == NULL)
        return NULL;
      if (end != NULL && end <= close && end != line + 1)
        *at = t;
      msg = close + 1;
    }
  else if (semi != NULL && g_ascii_isdigit (line[0]))
    {
      g_auto(GStrv) fields = g_strsplit (line, ",", 4);

      if (g_strv_length (fields) >= 3)
        *at = g_ascii_strtoull (fields[2], NULL, 10) / 1e6;
      msg = semi + 1;
    }
  while (*msg == ' ')
    msg++;
  if (strstr (msg, "kernel: ") != NULL)
    msg = strstr (msg, "kernel: ") + strlen ("kernel: ");
  return msg;
}

static gboolean
names_block (const char *msg,
             const char *block)
{
  g_autofree char *dev = g_strconcat ("dev ", block, NULL);
  const char *at = strstr (msg, dev);
  char next;

  if (at == NULL)
    return FALSE;
  next = at[strlen (dev)];
  /* mmcblk0 or its partition mmcblk0p1, never mmcblk01. */
  return next == ',' || next == 'p' || next == ' ' || next == '\0';
}

/**
 * cm_queue_kmsg_parse_line:
 * @line: a line of the kernel log, as /dev/kmsg, dmesg or the journal
 *   give it
 * @host: (nullable): the card's host, "mmc0"; %NULL for a card that is
 *   on none (a USB reader, a loop device): only I/O errors count
 * @block: the card's block device, "mmcblk0"
 * @event: (out): what it tells and when
 *
 * Returns: whether the line tells of trouble on this card's queue
 */
gboolean
cm_queue_kmsg_parse_line (const char     *line,
                          const char     *host,
                          const char     *block,
                          CmQueueEventAt *event)
{
  g_autofree char *prefix = NULL;
  g_autofree char *lower = NULL;
  const char *msg;

  g_return_val_if_fail (line != NULL && block != NULL && event != NULL, FALSE);

  msg = split_line (line, &event->at);
  if (msg == NULL)
    return FALSE;

  if (strstr (msg, "I/O error") != NULL && names_block (msg, block))
    {
      event->event = CM_QUEUE_EVENT_IO_ERROR;
      return TRUE;
    }
  if (host == NULL)
    return FALSE;
  prefix = g_strconcat (host, ": ", NULL);
  if (!g_str_has_prefix (msg, prefix))
    return FALSE;

  msg += strlen (prefix);
  lower = g_ascii_strdown (msg, -1);
  if (strstr (msg, "running CQE recovery") != NULL)
    event->event = CM_QUEUE_EVENT_RECOVERY;
  else if (strstr (msg, "cqhci: timeout") != NULL)
    event->event = CM_QUEUE_EVENT_TIMEOUT;
  else if (strstr (msg, "spurious TCN") != NULL)
    event->event = CM_QUEUE_EVENT_SPURIOUS_TCN;
  else if (strstr (lower, "reset") != NULL)
    event->event = CM_QUEUE_EVENT_RESET;
  else
    return FALSE;
  return TRUE;
}

/**
 * cm_queue_kmsg_host_of:
 * @block: "mmcblk0"
 *
 * The MMC host the card's block device hangs on ("mmc0"), read from
 * sysfs; %NULL for a device on none (a USB reader, a loop device).
 */
char *
cm_queue_kmsg_host_of (const char *block)
{
  g_autofree char *link = g_build_filename ("/sys/block", block, "device", NULL);
  g_autofree char *card = realpath (link, NULL);
  g_autofree char *name = card != NULL ? g_path_get_basename (card) : NULL;
  char *colon;

  /* The card's device is "mmc0:aaaa", a child of its host "mmc0". */
  if (name == NULL || !g_str_has_prefix (name, "mmc") || (colon = strchr (name, ':')) == NULL)
    return NULL;
  *colon = '\0';
  return g_steal_pointer (&name);
}

struct _CmQueueKmsg
{
  char         *host;
  char         *block;
  const char   *source;     /* "kmsg", "journal", "replay" or "none" */
  int           fd;         /* /dev/kmsg */
  GSubprocess  *journal;
  GCancellable *cancellable;
  GThread      *thread;
  gint          stop;
  GMutex        lock;
  GArray       *events;     /* CmQueueEventAt */
  double        t_start;    /* CLOCK_MONOTONIC at the start, seconds */
};

/* A log that floods is not kept whole: the counts are what matter. */
#define MAX_EVENTS 100000

static void
take_line (CmQueueKmsg *self,
           const char  *line)
{
  CmQueueEventAt event;

  if (!cm_queue_kmsg_parse_line (line, self->host, self->block, &event))
    return;
  g_mutex_lock (&self->lock);
  if (self->events->len < MAX_EVENTS)
    g_array_append_val (self->events, event);
  g_mutex_unlock (&self->lock);
}

static gpointer
kmsg_thread (gpointer data)
{
  CmQueueKmsg *self = data;
  char record[8192];

  while (!g_atomic_int_get (&self->stop))
    {
      struct pollfd pfd = { self->fd, POLLIN, 0 };
      ssize_t n;

      if (poll (&pfd, 1, 200) <= 0)
        continue;
      /* One record a read; EPIPE: records were overwritten before we
       * read them, the next read goes on from the oldest kept. */
      while ((n = read (self->fd, record, sizeof record - 1)) > 0 || (n < 0 && errno == EPIPE))
        {
          if (n <= 0)
            continue;
          record[n] = '\0';
          if (strchr (record, '\n') != NULL)
            *strchr (record, '\n') = '\0';
          take_line (self, record);
        }
    }
  return NULL;
}

static gpointer
journal_thread (gpointer data)
{
  CmQueueKmsg *self = data;
  g_autoptr(GDataInputStream) in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->journal));
  char *line;

  while ((line = g_data_input_stream_read_line (in, NULL, self->cancellable, NULL)) != NULL)
    {
      take_line (self, line);
      g_free (line);
    }
  return NULL;
}

static void
replay (CmQueueKmsg *self,
        const char  *file)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (file, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    take_line (self, lines[i]);
}

static gboolean
start_journal (CmQueueKmsg *self)
{
  self->journal = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL,
                                    "journalctl", "-k", "-f", "-n", "0", "-o", "short-monotonic",
                                    "--no-pager", NULL);
  if (self->journal == NULL)
    return FALSE;
  self->cancellable = g_cancellable_new ();
  self->thread = g_thread_new ("cardmark-journal", journal_thread, self);
  return TRUE;
}

/**
 * cm_queue_kmsg_start:
 * @host: (nullable): the card's host ("mmc0"), see cm_queue_kmsg_host_of()
 * @block: its block device ("mmcblk0")
 *
 * Starts reading the kernel log from now on, in a thread of its own.
 * CARDMARK_QUEUE_KMSG (a test hook) names a file of lines read as if
 * the kernel logged them during the check.
 */
CmQueueKmsg *
cm_queue_kmsg_start (const char *host,
                     const char *block)
{
  CmQueueKmsg *self = g_new0 (CmQueueKmsg, 1);
  const char *hook = cm_test_hook ("CARDMARK_QUEUE_KMSG");

  self->host = g_strdup (host);
  self->block = g_strdup (block);
  self->events = g_array_new (FALSE, FALSE, sizeof (CmQueueEventAt));
  self->t_start = g_get_monotonic_time () / 1e6;
  self->fd = -1;
  g_mutex_init (&self->lock);

  if (hook != NULL)
    {
      self->source = "replay";
      replay (self, hook);
      return self;
    }
  self->fd = open ("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (self->fd >= 0 && lseek (self->fd, 0, SEEK_END) >= 0)
    {
      self->source = "kmsg";
      self->thread = g_thread_new ("cardmark-kmsg", kmsg_thread, self);
      return self;
    }
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  self->source = start_journal (self) ? "journal" : "none";
  return self;
}

const char *
cm_queue_kmsg_get_source (CmQueueKmsg *self)
{
  return self->source;
}

/**
 * cm_queue_kmsg_stop:
 *
 * Stops reading and frees @self.
 *
 * Returns: (transfer full): the events seen, their times in seconds
 *   since the start (the kernel's clock is the monotonic one), -1 where
 *   a line told none
 */
GArray *
cm_queue_kmsg_stop (CmQueueKmsg *self)
{
  GArray *events;

  g_atomic_int_set (&self->stop, 1);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->journal != NULL)
    g_subprocess_force_exit (self->journal);
  if (self->thread != NULL)
    g_thread_join (self->thread);
  if (self->fd >= 0)
    close (self->fd);
  g_clear_object (&self->journal);
  g_clear_object (&self->cancellable);

  events = g_steal_pointer (&self->events);
  if (!g_str_equal (self->source, "replay"))
    for (guint i = 0; i < events->len; i++)
      {
        CmQueueEventAt *e = &g_array_index (events, CmQueueEventAt, i);

        e->at = e->at >= 0 ? MAX (e->at - self->t_start, 0) : -1;
      }
  g_mutex_clear (&self->lock);
  g_free (self->host);
  g_free (self->block);
  g_free (self);
  return events;
}
