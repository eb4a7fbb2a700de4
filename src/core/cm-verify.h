/* cm-verify.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-result.h"

G_BEGIN_DECLS

#define CM_VERIFY_ERROR (cm_verify_error_quark ())

typedef enum
{
  CM_VERIFY_ERROR_NEEDS_CONSENT,  /* a whole device, without leave to destroy its data */
  CM_VERIFY_ERROR_REFUSED,        /* a system or mounted device */
  CM_VERIFY_ERROR_FILES_EXIST,    /* .h2w files already there, and no --resume */
  CM_VERIFY_ERROR_NOTHING,        /* nothing to resume, or no .h2w files to read */
  CM_VERIFY_ERROR_NO_SPACE,       /* no room for even one file */
  CM_VERIFY_ERROR_BUSY,           /* another verify of this card is running */
  CM_VERIFY_ERROR_DAMAGED,        /* a state file that fails its checksum or its bounds */
  CM_VERIFY_ERROR_NOT_THIS_CARD,  /* a state file the card does not prove */
  CM_VERIFY_ERROR_NOT_A_FILE,     /* an N.h2w that is a link, or not on the card */
  CM_VERIFY_ERROR_SAVED,          /* a stopped run of this card is saved, and no --resume */
} CmVerifyError;

GQuark cm_verify_error_quark (void);

typedef enum
{
  CM_VERIFY_FLAGS_NONE         = 0,
  CM_VERIFY_FLAGS_RESUME       = 1 << 0,  /* carry on from the saved state */
  CM_VERIFY_FLAGS_KEEP         = 1 << 1,  /* leave the .h2w files at the end */
  CM_VERIFY_FLAGS_READ_ONLY    = 1 << 2,  /* check .h2w files already there */
  CM_VERIFY_FLAGS_DESTROY_DATA = 1 << 3,  /* leave to overwrite a whole device */
  CM_VERIFY_FLAGS_CARRY_ON     = 1 << 4,  /* resume when a stopped run is saved, else start */
} CmVerifyFlags;

typedef enum
{
  CM_VERIFY_MODE_FILES,
  CM_VERIFY_MODE_DEVICE,
} CmVerifyMode;

typedef enum
{
  CM_VERIFY_PHASE_WRITE,
  CM_VERIFY_PHASE_READ,
} CmVerifyPhase;

/* F3's file size: every N.h2w holds 1 GiB, and its sectors name their
 * offset as (N - 1) × 1 GiB + their place in the file. */
#define CM_VERIFY_FILE_BYTES (G_GUINT64_CONSTANT (1) << 30)
#define CM_VERIFY_SECTOR 512

/* Sector counts as f3read keeps them, plus what could not be read. */
typedef struct
{
  guint64 ok;
  guint64 corrupted;
  guint64 changed;
  guint64 overwritten;
} CmVerifyCounts;

/* The pattern, exposed for tests and the speed benchmark. @length is a
 * multiple of 512; @offset is the first sector's offset. */
void      cm_verify_fill        (guint8          *buffer,
                                 gsize            length,
                                 guint64          offset);
/* Counts every sector; TRUE when all of them are ok. */
gboolean  cm_verify_check       (const guint8    *buffer,
                                 gsize            length,
                                 guint64          offset,
                                 CmVerifyCounts  *counts);

/* A verify's facts, worked out once from its document (cm-verify-facts.c)
 * so that every face says the same: the answer, the sentence under it,
 * the CLI's report, the batch report and the chart. */
typedef struct
{
  guint64 card_bytes;      /* the whole device's size; 0 for a folder */
  guint64 written_bytes;   /* what the card took */
  guint64 read_bytes;      /* what came back at all, right or wrong */
  guint64 usable_bytes;    /* what came back as written */
  guint64 lost_bytes;      /* written, or refused, and not back as written */
  guint64 unreached_bytes; /* of the card: never written, as the card stopped first */
  gint64  first_bad;       /* the first place that lost data, where the card stopped when it did; -1 */
  gboolean stopped;        /* the card stopped answering before the end */
} CmVerifyFacts;

void      cm_verify_facts_init  (CmVerifyFacts         *facts,
                                 const CmVerifySummary *summary,
                                 guint64                card_bytes);
gboolean  cm_verify_facts_for_result (CmResult         *result,
                                      CmVerifyFacts    *facts);
char     *cm_verify_describe    (const CmVerifyFacts   *facts,
                                 const CmVerifySummary *summary) G_GNUC_WARN_UNUSED_RESULT;
gboolean  cm_verify_summary_lost_data (const CmVerifySummary *summary);

#define CM_TYPE_VERIFY (cm_verify_get_type ())

G_DECLARE_FINAL_TYPE (CmVerify, cm_verify, CM, VERIFY, GObject)

CmVerify     *cm_verify_new              (const char          *path,
                                          CmVerifyFlags        flags) G_GNUC_WARN_UNUSED_RESULT;
void          cm_verify_set_device_fd    (CmVerify            *self,
                                          int                  fd);
void          cm_verify_set_state_folder (CmVerify            *self,
                                          const char          *folder);
gboolean      cm_verify_prepare          (CmVerify            *self,
                                          GError             **error);
CmVerifyMode  cm_verify_get_mode         (CmVerify            *self);
const char   *cm_verify_get_folder       (CmVerify            *self);
const char   *cm_verify_get_state_path   (CmVerify            *self);
gboolean      cm_verify_has_saved_state  (CmVerify            *self);
gboolean      cm_verify_get_resuming     (CmVerify            *self);
double        cm_verify_peek_stopped     (const char          *path,
                                          CmVerifyMode         mode,
                                          guint64              device_bytes,
                                          const char          *state_folder);
double        cm_verify_peek_stopped_in  (const char          *path,
                                          CmVerifyMode         mode,
                                          guint64              device_bytes,
                                          const char          *state_folder,
                                          CmVerifyPhase       *phase);

void          cm_verify_run_async        (CmVerify            *self,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
CmResult     *cm_verify_run_finish       (CmVerify            *self,
                                          GAsyncResult        *result,
                                          GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
