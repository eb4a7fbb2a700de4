/* cm-verify-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the full verify's files share: the object (cm-verify.c), the
 * run's shared state and its state file (cm-verify-state.c), the worker
 * (cm-verify-run.c, which writes, then calls cm-verify-read.c, which
 * reads back and checks), the pattern (cm-verify-pattern.c) and its I/O
 * (cm-verify-io.c, which the wear test uses too). Calls go one way:
 * run → read → state, run → state, run and read → io → pattern.
 */

#pragma once

#include <sys/types.h>

#include "cm-bus.h"
#include "cm-card-info.h"
#include "cm-device.h"
#include "cm-host.h"
#include "cm-target.h"
#include "cm-verify.h"

G_BEGIN_DECLS

#define CM_VERIFY_CHUNK (4 * 1024 * 1024)  /* bytes per command */

struct _CmVerify
{
  GObject        parent_instance;

  char          *path;
  CmVerifyFlags  flags;
  guint64        file_bytes;
  char          *state_folder;
  int            device_fd;

  gboolean       prepared;
  CmVerifyMode   mode;
  char          *folder;      /* files mode */
  char          *device;      /* device mode, or the device under the folder */
  char          *state_path;
  char          *identity;    /* the card's: size and by-id name, or size and fsid */
  guint64        card_bytes;  /* the device's size, or the filesystem's */
  int            dir_fd;      /* files mode: the folder, every .h2w is opened from it */
  dev_t          folder_dev;  /* the folder's filesystem: a .h2w must be on it */
  int            lock_fd;     /* holds the flock that keeps a second verify out */
  CmTarget      *target;      /* device mode, once opened */
  gboolean       running;

  /* What the result says of the card, as a bench's does (cm-bench.c). */
};

GArray   *cm_verify_list_h2w      (const char   *folder) G_GNUC_WARN_UNUSED_RESULT;
gboolean  cm_verify_sector_is_ok  (const guint8 *sector,
                                   guint64       offset);
/* Whether @sector holds an intact sector of the pattern, and where it
 * names (its own place, or another's on a card that wraps). */
gboolean  cm_verify_sector_found  (const guint8 *sector,
                                   guint64      *found);
void      cm_verify_run_in_thread (CmVerify     *self,
                                   GTask        *task);

/* cm-verify-io.c: writing the pattern and reading it back, with the
 * pattern made and checked on every core while the card works. One
 * CmVerifyIo per open file or device. */
typedef struct _CmVerifyIo CmVerifyIo;

typedef struct
{
  guint64  offset;    /* in the file or on the device */
  gsize    length;    /* at most CM_VERIFY_CHUNK */
  guint64  pattern;   /* the offset its first sector names */
} CmVerifyPlace;

typedef struct
{
  gssize          done;     /* bytes read; -1 when none could be */
  int             errsv;    /* why fewer than asked for */
  double          seconds;  /* how long this read itself took */
  const guint8   *data;     /* what was read, until the next read */
  gboolean        intact;   /* something came back, every sector as written */
  CmVerifyCounts  counts;   /* of the whole sectors that came back */
} CmVerifyRead;

CmVerifyIo *cm_verify_io_new   (int                  fd) G_GNUC_WARN_UNUSED_RESULT;
void        cm_verify_io_free  (CmVerifyIo          *io);
gssize      cm_verify_io_write (CmVerifyIo          *io,
                                const CmVerifyPlace *place,
                                const CmVerifyPlace *next,
                                int                 *errsv);
void        cm_verify_io_read  (CmVerifyIo          *io,
                                const CmVerifyPlace *place,
                                const CmVerifyPlace *next,
                                CmVerifyRead        *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmVerifyIo, cm_verify_io_free)

/* A run that read everything back and has its verdict: the state says
 * so before the files are removed, so a stop then still resumes (to the
 * same verdict, with nothing left to prove or read). */
#define CM_VERIFY_PHASE_DONE (CM_VERIFY_PHASE_READ + 1)

/* How often the run saves its state file, in µs. */
#define CM_VERIFY_SAVE_EVERY_US (2 * G_USEC_PER_SEC)

/* The run, in a worker thread (cm-verify-run.c writes, cm-verify-read.c
 * reads back and checks). */
typedef struct
{
  CmVerify        *self;
  GMainContext    *context;
  GCancellable    *cancellable;
  char            *started;

  /* Kept in the state file. */
  CmVerifyPhase    phase;
  guint            n_files;       /* files (stretches) holding data */
  guint            cur_file;      /* the one being written or read */
  guint64          cur_offset;    /* bytes done in it */
  gboolean         full;
  gboolean         write_failed;
  gboolean         gave_up;       /* stopped reading a card that no longer answers */
  guint64          planned_bytes;
  guint64          written_bytes;
  double           write_seconds;
  guint64          read_bytes;
  double           read_seconds;
  CmVerifyCounts   counts;
  guint64          unreadable;
  GArray          *regions;       /* CmRegion */
  GArray          *write_points;  /* CmPosition */
  GArray          *read_points;
  GArray          *lengths;       /* guint64, per file */
  GArray          *numbers;       /* guint, per file: N of N.h2w */

  /* Not kept. */
  guint8          *buffer;        /* for proving a saved state */
  gint64           read_mark;     /* when the last chunk read was checked */
  gboolean         direct;
  guint64          bucket;        /* bytes per speed point */
  guint64          point_start;
  guint64          point_bytes;
  double           point_seconds;
  gint64           last_save;
  gint64           last_progress;
  gint             resumed_file;  /* the file a resumed run carries on in, or -1 */
  GPtrArray       *skipped;       /* --read-only: names not read (links, not files) */
  CmBusShare      *bus;           /* pauses while a card on the same bus measures */
  GStrv            write_shared;  /* cards that moved data on the bus while this one wrote */
  GStrv            read_shared;   /* …and while it read back */
} CmVerifyRun;

/* cm-verify-state.c: the run's shared state and its state file. */
CmVerifyRun *cm_verify_run_new     (CmVerify      *self,
                                    GCancellable  *cancellable) G_GNUC_WARN_UNUSED_RESULT;
void     cm_verify_run_free            (CmVerifyRun  *run);
char    *cm_verify_state_to_data       (CmVerifyRun  *run,
                                        gsize        *length) G_GNUC_WARN_UNUSED_RESULT;
gboolean cm_verify_state_parse         (CmVerifyRun  *run,
                                        const char   *data,
                                        gsize         length,
                                        GError      **error);
gboolean cm_verify_state_load          (CmVerifyRun  *run,
                                        GError      **error);

guint64  cm_verify_run_file_base       (CmVerifyRun  *run,
                                        guint         index);
void     cm_verify_run_add_region      (CmVerifyRun  *run,
                                        guint64       start,
                                        guint64       end);
void     cm_verify_run_save_state      (CmVerifyRun  *run);
gboolean cm_verify_run_save_state_or_fail (CmVerifyRun  *run,
                                        GError      **error);
double   cm_verify_run_get_fraction    (CmVerifyRun  *run);
void     cm_verify_run_report_progress (CmVerifyRun  *run,
                                        gboolean      force);
void     cm_verify_run_account         (CmVerifyRun  *run,
                                        GArray       *points,
                                        guint64       offset,
                                        guint64       bytes,
                                        double        seconds);
void     cm_verify_run_flush_point     (CmVerifyRun  *run,
                                        GArray       *points);
gboolean cm_verify_is_removed          (int           errsv);
gboolean cm_verify_run_card_gone       (CmVerifyRun  *run);
gboolean cm_verify_run_stop_error      (CmVerifyRun  *run,
                                        int           errsv,
                                        GError      **error);
gboolean cm_verify_run_cancelled       (CmVerifyRun  *run,
                                        GError      **error);
gboolean cm_verify_run_check_ahead     (CmVerifyRun  *run,
                                        GError      **error);
int      cm_verify_run_open_file       (CmVerifyRun  *run,
                                        guint         number,
                                        int           flags,
                                        GError      **error);

/* cm-verify-read.c: reading back. */
gboolean cm_verify_read_prove          (CmVerifyRun  *run,
                                        GError      **error);
gboolean cm_verify_read_phase          (CmVerifyRun  *run,
                                        GError      **error);

G_END_DECLS
