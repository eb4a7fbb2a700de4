/* cm-health.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How worn a card says it is: the 512-byte reply of the SD general
 * command (CMD56, read) in the vendor layouts that are publicly
 * documented (docs/methodology.md, "Health"), decoded into the
 * document's `health` object. A reply of zeros, of 0xFF or with no
 * known signature decodes to "not known", never to a guess; a field
 * out of its range is left unknown.
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CM_HEALTH_REPLY_SIZE 512

/* The arguments CMD56 is asked with, one per layout. */
#define CM_HEALTH_ARG_SANDISK      0x00000001u  /* SanDisk, WD and Longsys */
#define CM_HEALTH_ARG_MICRON       0x110005FBu
#define CM_HEALTH_ARG_INNODISK     0x110005FDu
#define CM_HEALTH_ARG_ADATA        0x110005F1u
#define CM_HEALTH_ARG_TRANSCEND    0x110005F9u
#define CM_HEALTH_ARG_SWISSBIT     0x53420001u
#define CM_HEALTH_ARG_TWO_STEP_SET 0x00000010u  /* written first: Apacer, Kingston */
#define CM_HEALTH_ARG_TWO_STEP     0x00000021u  /* then read */
/* A saved reply whose argument is not known: the signature decides. */
#define CM_HEALTH_ARG_UNKNOWN      0xFFFFFFFFu

typedef enum
{
  CM_HEALTH_LAYOUT_NONE,
  CM_HEALTH_LAYOUT_SANDISK,
  CM_HEALTH_LAYOUT_LONGSYS,
  CM_HEALTH_LAYOUT_SWISSBIT,
  CM_HEALTH_LAYOUT_MICRON,
  CM_HEALTH_LAYOUT_INNODISK,
  CM_HEALTH_LAYOUT_ADATA,
  CM_HEALTH_LAYOUT_TRANSCEND,
  CM_HEALTH_LAYOUT_TWO_STEP,
} CmHealthLayout;

/* Why the card's own figures are not known. */
typedef enum
{
  CM_HEALTH_KNOWN,
  CM_HEALTH_NOT_KNOWN,   /* asked, but no reply in a known layout */
  CM_HEALTH_NO_ACCESS,   /* the reader (USB, a loop device) cannot ask the card */
} CmHealthState;

/* Each figure is -1 while not known. */
typedef struct
{
  CmHealthState  state;
  CmHealthLayout layout;
  double         life_used_percent;
  gint64         spare_blocks;
  gint64         bad_blocks;
  gint64         erase_min;
  gint64         erase_avg;
  gint64         erase_max;
  gint64         power_cycles;
  gint64         flash_bytes_written;
} CmHealth;

void         cm_health_init_unknown    (CmHealth       *health,
                                        CmHealthState   state);
gboolean     cm_health_decode          (const guint8   *reply,
                                        gsize           length,
                                        guint32         argument,
                                        CmHealth       *health);
/* The arguments to ask in turn; ends with 0. The two-step layout's
 * read (CM_HEALTH_ARG_TWO_STEP) follows its write, which the transport
 * sends itself. */
const guint32 *cm_health_arguments     (void);

const char  *cm_health_layout_to_string   (CmHealthLayout  layout);
gboolean     cm_health_layout_from_string (const char     *str,
                                           CmHealthLayout *layout);

JsonNode    *cm_health_to_json         (const CmHealth *health) G_GNUC_WARN_UNUSED_RESULT;
gboolean     cm_health_from_json       (JsonNode       *node,
                                        CmHealth       *health,
                                        GError        **error);
/* "12 % of its life used", or why it is not known. */
char        *cm_health_describe        (const CmHealth *health) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
