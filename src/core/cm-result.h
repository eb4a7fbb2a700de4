/* cm-result.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "cm-capacity-report.h"
#include "cm-endurance.h"
#include "cm-card-info.h"
#include "cm-host.h"
#include "cm-stats.h"

G_BEGIN_DECLS

#define CM_RESULT_SCHEMA 1

#define CM_RESULT_ERROR (cm_result_error_quark ())

typedef enum
{
  CM_RESULT_ERROR_INVALID,
  CM_RESULT_ERROR_UNSUPPORTED_SCHEMA,
} CmResultError;

GQuark cm_result_error_quark (void);

typedef enum
{
  CM_STATUS_MEETS,
  CM_STATUS_MARGINAL,
  CM_STATUS_BELOW,
  CM_STATUS_NOT_JUDGED,
} CmStatus;

const char *cm_status_to_string   (CmStatus    status);
gboolean    cm_status_from_string (const char *str,
                                   CmStatus   *status);

/* The latency of one command, @t seconds into the test. */
typedef struct
{
  float t;
  float us;
} CmLatencyPoint;

/* Read speed at one place on the card (the surface test). */
typedef struct
{
  double offset;
  double mb_per_s;
} CmPosition;

typedef struct
{
  char    *name;
  gsize    block_size;
  guint    queue_depth;
  guint64  bytes;
  double   seconds;
  double   mb_per_s;
  double   iops;
  double   latency_us[4];       /* p50, p90, p99, max */
  double   sustained_mb_per_s;  /* sequential tests; 0 otherwise */
  GArray  *samples;             /* CmSample */
  GArray  *scatter;             /* CmLatencyPoint, a bounded subset */
  GArray  *positions;           /* CmPosition, surface tests only */
  gboolean has_cliff;           /* sequential writes: @cliff was looked for */
  gboolean reached_limit;       /* a sustained write ran to its limit still fast; not saved */
  CmCliff  cliff;               /* where the write rate fell, if it did */
  char    *engine;              /* "psync", "io_uring" or "threads" */
  char    *error;               /* why the test could not run, or NULL */
  GStrv    shared_bus_with;     /* bulk tests: cards that moved data on the same bus meanwhile, or NULL */
} CmTestResult;

CmTestResult *cm_test_result_new  (const char   *name);
void          cm_test_result_free (CmTestResult *test);
double        cm_test_result_get_sustained_mb_per_s (const CmTestResult *test);
gboolean      cm_test_result_reached_limit          (const CmTestResult *test,
                                                     guint64             limit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmTestResult, cm_test_result_free)

typedef struct
{
  char     *name;      /* e.g. "sustained-write" */
  char     *test;      /* the measurement it reads, e.g. "seq-write" */
  char     *unit;      /* "MB/s" or "IOPS" */
  double    measured;
  double    required;
  CmStatus  status;
  char     *reason;
} CmCriterion;

typedef struct
{
  char      *klass;     /* "U3" */
  CmStatus   status;
  char      *reason;
  char      *source;    /* "label", "card" or "figures" */
  GPtrArray *criteria;  /* CmCriterion */
} CmClaim;

CmCriterion *cm_criterion_new  (const char  *name,
                                const char  *test,
                                const char  *unit,
                                double       measured,
                                double       required);
void         cm_criterion_free (CmCriterion *criterion);
CmClaim     *cm_claim_new      (const char  *klass);
void         cm_claim_free     (CmClaim     *claim);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmCriterion, cm_criterion_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmClaim, cm_claim_free)

/* A stretch of the card, in bytes from its start (or from the start of
 * the first verify file): [start, end). */
typedef struct
{
  guint64 start;
  guint64 end;
} CmRegion;

/* What a full verify (cm-verify.c) found: sectors of 512 bytes, counted
 * the way f3read counts them, plus those that could not be read. */
typedef struct
{
  char     *mode;                /* "files" or "device" */
  guint     n_files;             /* .h2w files (or 1 GiB stretches of the device) */
  guint64   written_bytes;       /* 0 when only existing files were read */
  guint64   checked_bytes;
  guint64   sectors_ok;
  guint64   sectors_corrupted;
  guint64   sectors_changed;
  guint64   sectors_overwritten;
  guint64   sectors_unreadable;
  guint64   usable_bytes;        /* sectors_ok × 512 */
  guint64   lost_bytes;          /* every other sector × 512 */
  gint64    first_bad_offset;    /* -1 when none */
  gboolean  complete;            /* FALSE when the card stopped answering */
  GArray   *bad_regions;         /* CmRegion, ascending */
} CmVerifySummary;

CmVerifySummary *cm_verify_summary_new  (void);
CmVerifySummary *cm_verify_summary_copy (const CmVerifySummary *summary);
void             cm_verify_summary_free (CmVerifySummary       *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmVerifySummary, cm_verify_summary_free)

#define CM_TYPE_RESULT (cm_result_get_type ())

G_DECLARE_FINAL_TYPE (CmResult, cm_result, CM, RESULT, GObject)

CmResult     *cm_result_new             (void) G_GNUC_WARN_UNUSED_RESULT;
CmResult     *cm_result_new_from_json   (JsonNode     *node,
                                         GError      **error) G_GNUC_WARN_UNUSED_RESULT;
CmResult     *cm_result_new_from_data   (const char   *data,
                                         gssize        length,
                                         GError      **error) G_GNUC_WARN_UNUSED_RESULT;
CmResult     *cm_result_new_from_file   (GFile        *file,
                                         GError      **error) G_GNUC_WARN_UNUSED_RESULT;
JsonNode     *cm_result_to_json         (CmResult     *self) G_GNUC_WARN_UNUSED_RESULT;
JsonNode     *cm_capacity_report_to_json (const CmCapacityReport *report) G_GNUC_WARN_UNUSED_RESULT;
char         *cm_result_to_data         (CmResult     *self,
                                         gsize        *length) G_GNUC_WARN_UNUSED_RESULT;
gboolean      cm_result_save            (CmResult     *self,
                                         GFile        *file,
                                         GError      **error);
gboolean      cm_result_save_compact    (CmResult     *self,
                                         GFile        *file,
                                         GError      **error);

GDateTime    *cm_result_get_started     (CmResult     *self);
void          cm_result_set_started     (CmResult     *self,
                                         GDateTime    *started);
const char   *cm_result_get_profile     (CmResult     *self);
void          cm_result_set_profile     (CmResult     *self,
                                         const char   *profile);
const char   *cm_result_get_target_path (CmResult     *self);
const char   *cm_result_get_target_mode (CmResult     *self);
const char   *cm_result_get_device      (CmResult     *self);
char         *cm_result_dup_run_key     (CmResult     *self) G_GNUC_WARN_UNUSED_RESULT;
const char   *cm_result_get_reader      (CmResult     *self);
void          cm_result_set_target      (CmResult     *self,
                                         const char   *path,
                                         const char   *mode,
                                         const char   *device,
                                         const char   *reader);
void          cm_result_set_name_facts (CmResult     *self,
                                        const char   *reader,
                                        const char   *detail);
const char   *cm_result_get_name_from  (CmResult     *self);
const char   *cm_result_get_name_detail (CmResult    *self);
const char   *cm_result_get_sighting   (CmResult     *self);
void          cm_result_set_sighting   (CmResult     *self,
                                        const char   *sighting);
guint         cm_result_get_usb_speed_mbps (CmResult   *self);
void          cm_result_set_usb_speed_mbps (CmResult   *self,
                                            guint       mbps);
guint64       cm_result_get_device_bytes (CmResult    *self);
void          cm_result_set_device_bytes (CmResult    *self,
                                         guint64      bytes);
void          cm_result_set_area_bytes  (CmResult     *self,
                                         guint64       area_bytes);
const char   *cm_result_get_host        (CmResult     *self);
void          cm_result_set_host        (CmResult     *self,
                                         const char   *host);
const char   *cm_result_get_bus_timing  (CmResult     *self);
CmQueueing    cm_result_get_host_queueing (CmResult   *self);
void          cm_result_set_host_facts  (CmResult     *self,
                                         const CmHostFacts *facts);
gboolean      cm_result_get_direct_io   (CmResult     *self);
void          cm_result_set_direct_io   (CmResult     *self,
                                         gboolean      direct_io);
const char   *cm_result_get_name        (CmResult     *self);
void          cm_result_set_name        (CmResult     *self,
                                         const char   *name);
CmCardInfo   *cm_result_get_card        (CmResult     *self);
void          cm_result_set_card        (CmResult     *self,
                                         CmCardInfo   *card);
const char   *cm_result_get_summary     (CmResult     *self);
void          cm_result_set_summary     (CmResult     *self,
                                         const char   *summary);

GPtrArray    *cm_result_get_tests       (CmResult     *self);
CmTestResult *cm_result_lookup_test     (CmResult     *self,
                                         const char   *name);
void          cm_result_take_test       (CmResult     *self,
                                         CmTestResult *test);
GPtrArray    *cm_result_get_claims      (CmResult     *self);
void          cm_result_take_claim      (CmResult     *self,
                                         CmClaim      *claim);
CmClaim      *cm_result_lookup_claim    (CmResult     *self,
                                         const char   *klass);
gboolean      cm_result_has_claimed_classes (CmResult *self);
void          cm_result_clear_claims    (CmResult     *self);
GPtrArray    *cm_result_get_notes       (CmResult     *self);
void          cm_result_add_note        (CmResult     *self,
                                         const char   *note);
gboolean      cm_result_has_note        (CmResult     *self,
                                         const char   *note);
/* Says that a bulk job's rates were shared with the cards in @devices
 * and @more (either NULL), when there are any. */
void          cm_result_add_shared_bus_note (CmResult           *self,
                                             const char * const *devices,
                                             const char * const *more);
const CmVerifySummary *cm_result_get_verify (CmResult  *self);
void          cm_result_set_verify      (CmResult     *self,
                                         const CmVerifySummary *verify);
const char   *cm_result_get_kind        (CmResult     *self);
void          cm_result_set_kind        (CmResult     *self,
                                         const char   *kind);
const CmEndurance *cm_result_get_endurance (CmResult *self);
void          cm_result_set_endurance   (CmResult     *self,
                                         const CmEndurance *endurance);
JsonNode     *cm_result_get_part        (CmResult     *self);
void          cm_result_set_part        (CmResult     *self,
                                         JsonNode     *part);
const CmCapacityReport *cm_result_get_capacity (CmResult *self);
void          cm_result_set_capacity    (CmResult     *self,
                                         const CmCapacityReport *report);

G_END_DECLS
