/* cm-job-kinds.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A kind of card job: one file (cm-job-NAME.c) that defines its row,
 * `const CmJobKind cm_job_kind_NAME`, and one line in the table
 * (cm-job-kinds.c). Faces name a kind by pointer (&cm_job_kind_verify),
 * so the compiler checks it; a name from text (a document's "kind", the
 * CLI's --kind) is looked up here. This header stands low: it includes
 * no job, so the history, the summary and the outcome can ask a kind
 * without sitting above the engines. What a kind reads from the job is
 * cm-job-kind.h.
 */

#pragma once

#include <gio/gio.h>

#include "cm-outcome.h"
#include "cm-result.h"

G_BEGIN_DECLS

/* The job itself (cm-job.h); a kind's row only points at it. */
typedef struct _CmJob CmJob;
typedef struct _CmJobKind CmJobKind;

/* What a kind needs before it runs; the job checks it once, before the
 * card is locked or touched, for every kind alike. */
typedef enum
{
  CM_JOB_KIND_NEEDS_NOTHING    = 0,
  /* A whole card's block device that nothing uses or holds open, and the
   * person's leave to destroy its data (cm_job_set_destroy_data()). */
  CM_JOB_KIND_NEEDS_WHOLE_CARD = 1 << 0,
} CmJobKindNeeds;

struct _CmJobKind
{
  const char *name;    /* the document's "kind": "bench", "capacity", … */
  const char *title;   /* as people say it, N_(): "Benchmark" */
  const char *doing;   /* in a sentence, N_(): "a benchmark" */
  gboolean    writes;  /* it writes to the card */
  /* What stopping it does, N_(): "puts the card's data back first" */
  const char *on_stop;
  /* A run that is stopped still ends with its document (what it finished)
   * rather than G_IO_ERROR_CANCELLED: the wear test's rounds. */
  gboolean    keeps_stopped;
  /* A run that is stopped ends with its own G_IO_ERROR_CANCELLED, whose
   * words say what state it left the card in (the format's); GIO's
   * "Operation was cancelled" is not put in their place. */
  gboolean    says_stop;
  /* Starts the work; ends by returning a CmResult or an error on @task,
   * whose source object is the job. */
  void      (*run)    (CmJob *job,
                       GTask *task);
  /* Optional: judges the described document (a benchmark's classes). */
  void      (*judge)  (CmJob    *job,
                       CmResult *result);
  /* The document's one outcome in the kind's own words (cm-outcome.h);
   * a fail sets the kind's exit status (3 a class below, 4 data lost or
   * a fake card). Reads only the document: History calls it too. */
  CmOutcome *(*outcome) (CmResult *result);
  /* Optional: the figures its document is compared by (cm-summary.h's
   * cm_summary_add_figure); without it, the speed tests' figures. */
  void       (*headline) (CmResult  *result,
                          GPtrArray *figures);
  /* Its tests are speed tests: charted side by side in History's
   * Compare, named by the method, judged on the card's classes. */
  gboolean    measures_speed;
  /* Its run on a whole card (target mode "raw-write") leaves the card's
   * data destroyed, not put back: the app offers Erase and Format after
   * it (a full verify of a device, a wear test). */
  gboolean    erases;
  /* Optional: where the card's storage that keeps data ends, as the
   * document found it, short of what the card says it holds (a fake
   * card's capacity check, a full verify of the device that lost data
   * from there); 0 when it found no such end. @reported: what the card
   * said it held, 0 when the document does not say. A format can then
   * end its partition there. @said: that end as the document's own
   * words name it (a capacity check's "Real size" counts its last good
   * cell whole), at least the end returned: what a format's
   * confirmation names, beside the partition's end when that is less. */
  guint64   (*real_size) (CmResult *result,
                          guint64  *reported,
                          guint64  *said);
  /* Optional: the card's bytes as only the kind's own part of the
   * document knows them (a wear test's round, a whole device's verify
   * that went to its end), 0 when it does not say. The card's registers
   * and the device's size, which any document may carry, come first
   * (cm_job_kind_get_card_bytes()). */
  guint64   (*card_bytes) (CmResult *result);
  /* Optional: the bytes the card did not give back as written (a
   * verify's lost bytes, a wear test's bad sectors in its last round),
   * -1 when the document checked none. */
  gint64    (*lost_bytes) (CmResult *result);
  /* What it needs before it runs (the job refuses without it). */
  CmJobKindNeeds needs;
  /* With CM_JOB_KIND_NEEDS_WHOLE_CARD, N_(), %s the device: what the
   * leave to destroy data is for, said when it was not given: "The
   * power-cut test overwrites all of %s, destroying everything on it." */
  const char *consent;
  /* Optional: its options, a GObject type whose properties are the kind's
   * settings, with their defaults and bounds in the GParamSpecs, declared
   * in the kind's own header (cm-job-NAME.h); the job holds one
   * (cm_job_get_options()) and no setting of any kind of its own. */
  GType     (*options_type) (void);
  /* Optional: the sentence under the document's headline, made from its
   * facts in the reader's language when it is shown; NULL when the
   * document lacks them (an older one), whose kept sentence is shown
   * then (cm_job_kind_dup_sentence()). */
  char     *(*describe) (CmResult *result);
};

const CmJobKind    *cm_job_kinds_lookup          (const char      *name);
/* The kinds' names, the built-in ones first, in the table's order. */
const char * const *cm_job_kinds_list_names      (void);
/* For the tests: a kind that is not in the table, as the test table's
 * own new-kind test does. */
void                cm_job_kinds_add_for_testing (const CmJobKind *kind);

const char *cm_job_kind_get_title        (const char *kind);
gboolean    cm_job_kind_measures_speed   (const char *kind);
char       *cm_job_kind_dup_sentence     (CmResult   *result) G_GNUC_WARN_UNUSED_RESULT;
gboolean    cm_job_kind_left_card_erased (CmResult   *result);
guint64     cm_job_kind_get_card_bytes   (CmResult   *result);
gint64      cm_job_kind_get_lost_bytes   (CmResult   *result);

extern const CmJobKind cm_job_kind_bench;
extern const CmJobKind cm_job_kind_capacity;
extern const CmJobKind cm_job_kind_verify;
extern const CmJobKind cm_job_kind_wear;
extern const CmJobKind cm_job_kind_restore;
extern const CmJobKind cm_job_kind_format;
extern const CmJobKind cm_job_kind_health;
extern const CmJobKind cm_job_kind_power;
extern const CmJobKind cm_job_kind_queue;

G_END_DECLS
