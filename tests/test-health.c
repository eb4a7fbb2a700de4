/* test-health.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CMD56 decoders: a reply built here from each documented vendor
 * layout (docs/methodology.md, "Health") decodes to the figures put in
 * it; zeros, 0xFF, noise, a signature asked with another vendor's
 * argument and fields out of range are not known, never guessed; the
 * `health` object reads back what was written. Also the replay
 * transport the other tests use (CARDMARK_TEST_GEN_CMD_DIR), and the
 * way a user who is not root asks: where the kernel refuses the command
 * (CARDMARK_TEST_GEN_CMD_REFUSED), the transport runs the helper through
 * pkexec (CARDMARK_TEST_PKEXEC, a script here that answers as told) and
 * decodes what it printed.
 */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <unistd.h>
#include <string.h>

#include "cm-card-info.h"
#include "cm-endurance.h"
#include "cm-health.h"
#include "cm-health-helper.h"
#include "cm-health-transport.h"
#include "cm-outcome.h"
#include "cm-result.h"

typedef guint8 Reply[CM_HEALTH_REPLY_SIZE];

static void
put_be (guint8  *r,
        guint    offset,
        guint    size,
        guint64  value)
{
  for (guint i = 0; i < size; i++)
    r[offset + i] = (value >> (8 * (size - 1 - i))) & 0xFF;
}

static void
put_le (guint8  *r,
        guint    offset,
        guint    size,
        guint64  value)
{
  for (guint i = 0; i < size; i++)
    r[offset + i] = (value >> (8 * i)) & 0xFF;
}

/* Every fixture starts as a reply of noise-free filler, not zeros, so
 * that a field the decoder should not read is not silently zero. */
static void
start (Reply        r,
       guint8       a,
       guint8       b)
{
  memset (r, 0x20, CM_HEALTH_REPLY_SIZE);
  r[0] = a;
  r[1] = b;
}

static void
decode_ok (const Reply  r,
           guint32      argument,
           CmHealth    *h,
           const char  *layout)
{
  g_assert_true (cm_health_decode (r, CM_HEALTH_REPLY_SIZE, argument, h));
  g_assert_cmpint (h->state, ==, CM_HEALTH_KNOWN);
  g_assert_cmpstr (cm_health_layout_to_string (h->layout), ==, layout);
}

static void
assert_not_known (const Reply r,
                  guint32     argument)
{
  CmHealth h;

  g_assert_false (cm_health_decode (r, CM_HEALTH_REPLY_SIZE, argument, &h));
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  g_assert_cmpint (h.layout, ==, CM_HEALTH_LAYOUT_NONE);
  g_assert_cmpfloat (h.life_used_percent, <, 0);
  g_assert_cmpint (h.bad_blocks, ==, -1);
  g_assert_cmpint (h.flash_bytes_written, ==, -1);
}

static void
test_sandisk (void)
{
  Reply r;
  CmHealth h;

  start (r, 'D', 'S');
  memcpy (r + 2, "240315", 6);
  r[8] = 13;                      /* 12–12.99 % used */
  put_be (r, 23, 3, 4321);
  decode_ok (r, CM_HEALTH_ARG_SANDISK, &h, "sandisk");
  g_assert_cmpfloat (h.life_used_percent, ==, 12);
  g_assert_cmpint (h.power_cycles, ==, 4321);
  g_assert_cmpint (h.bad_blocks, ==, -1);
  g_assert_cmpint (h.flash_bytes_written, ==, -1);

  /* WD's signature, and 0x01: not yet 1 %. */
  start (r, 'D', 'W');
  r[8] = 0x01;
  decode_ok (r, CM_HEALTH_ARG_SANDISK, &h, "sandisk");
  g_assert_cmpfloat (h.life_used_percent, ==, 0);

  /* The same reply to Swissbit's argument is no answer. */
  assert_not_known (r, CM_HEALTH_ARG_SWISSBIT);
  /* A saved reply: the signature decides. */
  decode_ok (r, CM_HEALTH_ARG_UNKNOWN, &h, "sandisk");
}

static void
test_longsys (void)
{
  Reply r;
  CmHealth h;

  start (r, 0x70, 0x58);
  put_le (r, 16, 4, 30);          /* bad from the factory */
  put_le (r, 20, 4, 5);           /* grown bad */
  put_le (r, 32, 4, 120);         /* spare left */
  put_le (r, 36, 4, 42500);       /* 42.5 erases on average */
  put_le (r, 44, 4, 88);          /* life remaining */
  put_le (r, 56, 4, 700);         /* GiB written to flash */
  decode_ok (r, CM_HEALTH_ARG_SANDISK, &h, "longsys");
  g_assert_cmpfloat (h.life_used_percent, ==, 12);
  g_assert_cmpint (h.bad_blocks, ==, 35);
  g_assert_cmpint (h.spare_blocks, ==, 120);
  g_assert_cmpint (h.erase_avg, ==, 42);
  g_assert_cmpint (h.flash_bytes_written, ==, G_GINT64_CONSTANT (700) << 30);

  /* Out of range: remaining life above 100 % and an unset counter. */
  put_le (r, 44, 4, 250);
  put_le (r, 56, 4, 0xFFFFFFFF);
  decode_ok (r, CM_HEALTH_ARG_SANDISK, &h, "longsys");
  g_assert_cmpfloat (h.life_used_percent, <, 0);
  g_assert_cmpint (h.flash_bytes_written, ==, -1);
  g_assert_cmpint (h.bad_blocks, ==, 35);
}

static void
test_swissbit (void)
{
  Reply r;
  CmHealth h;

  start (r, 'S', 'w');
  put_be (r, 52, 4, 900);         /* max erases */
  put_be (r, 60, 4, 310);         /* average */
  r[80] = 97;
  put_be (r, 88, 4, 64);
  put_be (r, 96, 4, 2);
  put_be (r, 116, 4, 1234);
  decode_ok (r, CM_HEALTH_ARG_SWISSBIT, &h, "swissbit");
  g_assert_cmpfloat (h.life_used_percent, ==, 3);
  g_assert_cmpint (h.erase_max, ==, 900);
  g_assert_cmpint (h.erase_avg, ==, 310);
  g_assert_cmpint (h.erase_min, ==, -1);
  g_assert_cmpint (h.spare_blocks, ==, 64);
  g_assert_cmpint (h.bad_blocks, ==, 2);
  g_assert_cmpint (h.power_cycles, ==, 1234);

  /* An average above the maximum: the erase counts contradict. */
  put_be (r, 60, 4, 901);
  decode_ok (r, CM_HEALTH_ARG_SWISSBIT, &h, "swissbit");
  g_assert_cmpint (h.erase_max, ==, -1);
  g_assert_cmpint (h.erase_avg, ==, -1);
  g_assert_cmpint (h.power_cycles, ==, 1234);
}

static void
test_micron (void)
{
  Reply r;
  CmHealth h;

  start (r, 'M', 'E');
  r[8] = 7;
  decode_ok (r, CM_HEALTH_ARG_MICRON, &h, "micron");
  g_assert_cmpfloat (h.life_used_percent, ==, 7);
  r[8] = 101;
  decode_ok (r, CM_HEALTH_ARG_MICRON, &h, "micron");
  g_assert_cmpfloat (h.life_used_percent, <, 0);
  assert_not_known (r, CM_HEALTH_ARG_INNODISK);
}

static void
test_innodisk (void)
{
  Reply r;
  CmHealth h;

  start (r, 'L', 'X');
  r[24] = 40;
  r[25] = 3;
  r[26] = 1;
  put_be (r, 32, 4, 10);
  put_be (r, 36, 4, 50);
  put_be (r, 44, 4, 20);
  decode_ok (r, CM_HEALTH_ARG_INNODISK, &h, "innodisk");
  g_assert_cmpint (h.spare_blocks, ==, 40);
  g_assert_cmpint (h.bad_blocks, ==, 4);
  g_assert_cmpint (h.erase_min, ==, 10);
  g_assert_cmpint (h.erase_avg, ==, 20);
  g_assert_cmpint (h.erase_max, ==, 50);
  g_assert_cmpfloat (h.life_used_percent, <, 0);
}

static void
test_adata (void)
{
  Reply r;
  CmHealth h;

  start (r, 0x09, 0x41);
  put_be (r, 24, 2, 300);
  r[26] = 6;
  put_be (r, 30, 2, 77);
  put_be (r, 32, 4, 1);
  put_be (r, 36, 4, 9);
  put_be (r, 44, 4, 4);
  r[70] = 75;
  put_be (r, 76, 4, 99);
  decode_ok (r, CM_HEALTH_ARG_ADATA, &h, "adata");
  g_assert_cmpint (h.bad_blocks, ==, 306);
  g_assert_cmpint (h.spare_blocks, ==, 77);
  g_assert_cmpint (h.erase_min, ==, 1);
  g_assert_cmpint (h.erase_avg, ==, 4);
  g_assert_cmpint (h.erase_max, ==, 9);
  g_assert_cmpfloat (h.life_used_percent, ==, 25);
  g_assert_cmpint (h.power_cycles, ==, 99);
}

static void
test_transcend (void)
{
  Reply r;
  CmHealth h;

  start (r, 'T', 'r');
  r[26] = 2;
  r[27] = 50;
  put_le (r, 32, 4, 3);
  put_le (r, 36, 4, 300);
  put_le (r, 44, 4, 100);
  r[70] = 90;
  put_be (r, 76, 2, 512);
  decode_ok (r, CM_HEALTH_ARG_TRANSCEND, &h, "transcend");
  g_assert_cmpint (h.bad_blocks, ==, 2);
  g_assert_cmpint (h.spare_blocks, ==, 50);
  g_assert_cmpint (h.erase_min, ==, 3);
  g_assert_cmpint (h.erase_avg, ==, 100);
  g_assert_cmpint (h.erase_max, ==, 300);
  g_assert_cmpfloat (h.life_used_percent, ==, 10);
  g_assert_cmpint (h.power_cycles, ==, 512);
}

static void
test_two_step (void)
{
  Reply r;
  CmHealth h;

  /* Kingston's flash ID, no signature. */
  memset (r, 0, sizeof r);
  r[0] = 0x98;
  r[1] = 0x3e;
  put_be (r, 16, 2, 80);
  r[40] = 3;
  r[200] = 2;
  put_be (r, 64, 2, 9950);
  put_be (r, 96, 2, 9650);        /* 96.50 % remaining */
  put_be (r, 98, 2, 0x0010);      /* low halves: avg, min, max */
  put_be (r, 100, 2, 0x0002);
  put_be (r, 102, 2, 0x0030);
  put_be (r, 104, 2, 0);          /* high halves */
  put_be (r, 106, 2, 0);
  put_be (r, 108, 2, 1);
  put_be (r, 112, 4, 77);
  decode_ok (r, CM_HEALTH_ARG_TWO_STEP, &h, "two-step");
  g_assert_cmpfloat_with_epsilon (h.life_used_percent, 3.5, 1e-9);
  g_assert_cmpint (h.spare_blocks, ==, 80);
  g_assert_cmpint (h.bad_blocks, ==, 5);
  g_assert_cmpint (h.erase_avg, ==, 0x10);
  g_assert_cmpint (h.erase_min, ==, 2);
  g_assert_cmpint (h.erase_max, ==, 0x10030);
  g_assert_cmpint (h.power_cycles, ==, 77);

  /* No signature: a saved reply of unknown argument is not read as it. */
  assert_not_known (r, CM_HEALTH_ARG_UNKNOWN);
  assert_not_known (r, CM_HEALTH_ARG_SANDISK);
  /* A percentage over 100.00 % is no such reply. */
  put_be (r, 96, 2, 10001);
  assert_not_known (r, CM_HEALTH_ARG_TWO_STEP);
}

static void
test_blank_and_noise (void)
{
  Reply r;
  CmHealth h;
  const guint32 *arguments = cm_health_arguments ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (56);

  for (guint a = 0; arguments[a] != 0; a++)
    {
      memset (r, 0x00, sizeof r);
      assert_not_known (r, arguments[a]);
      memset (r, 0xFF, sizeof r);
      assert_not_known (r, arguments[a]);
    }

  /* Noise with no signature is never read as a layout, except the
   * two-step one, whose fields must then stay in range. */
  for (guint i = 0; i < 1000; i++)
    {
      for (guint j = 0; j < sizeof r; j++)
        r[j] = g_rand_int_range (rand, 0, 256);
      if (cm_health_decode (r, sizeof r, CM_HEALTH_ARG_UNKNOWN, &h))
        {
          g_assert_cmpint (h.layout, !=, CM_HEALTH_LAYOUT_TWO_STEP);
          g_assert_cmpint (h.layout, !=, CM_HEALTH_LAYOUT_NONE);
        }
      if (cm_health_decode (r, sizeof r, CM_HEALTH_ARG_TWO_STEP, &h))
        {
          g_assert_cmpfloat (h.life_used_percent, >=, 0);
          g_assert_cmpfloat (h.life_used_percent, <=, 100);
        }
    }

  /* A short reply is no reply. */
  start (r, 'D', 'S');
  g_assert_false (cm_health_decode (r, 511, CM_HEALTH_ARG_SANDISK, &h));
}

static void
test_json (void)
{
  Reply r;
  CmHealth h;
  CmHealth back;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) unknown = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *said = NULL;

  start (r, 'S', 'w');
  put_be (r, 52, 4, 900);
  put_be (r, 60, 4, 310);
  r[80] = 88;
  put_be (r, 88, 4, 64);
  put_be (r, 96, 4, 2);
  put_be (r, 116, 4, 1234);
  decode_ok (r, CM_HEALTH_ARG_SWISSBIT, &h, "swissbit");
  node = cm_health_to_json (&h);
  g_assert_true (cm_health_from_json (node, &back, &error));
  g_assert_no_error (error);
  g_assert_cmpint (back.state, ==, CM_HEALTH_KNOWN);
  g_assert_cmpint (back.layout, ==, CM_HEALTH_LAYOUT_SWISSBIT);
  g_assert_cmpfloat (back.life_used_percent, ==, 12);
  g_assert_cmpint (back.erase_max, ==, 900);
  g_assert_cmpint (back.erase_min, ==, -1);
  g_assert_cmpint (back.power_cycles, ==, 1234);
  g_assert_cmpint (back.flash_bytes_written, ==, -1);
  said = cm_health_describe (&back);
  g_assert_cmpstr (said, ==, "12 % of its life used");

  cm_health_init_unknown (&h, CM_HEALTH_NO_ACCESS);
  unknown = cm_health_to_json (&h);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (unknown), "layout")));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (unknown), "life_used_percent")));
  g_assert_true (cm_health_from_json (unknown, &back, NULL));
  g_assert_cmpint (back.state, ==, CM_HEALTH_NO_ACCESS);

  /* A count that is not one is refused, and nothing half-read stays. */
  g_assert_true (json_parser_load_from_data (parser, "{\"state\":\"known\",\"layout\":\"adata\",\"life_used_percent\":5,\"bad_blocks\":-3}", -1, NULL));
  g_assert_false (cm_health_from_json (json_parser_get_root (parser), &back, &error));
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
  g_assert_cmpfloat (back.life_used_percent, <, 0);
}

/* The replay transport: a reply per argument, and per ask when the
 * counters change between asks. */
static void
test_replay (void)
{
  g_autofree char *folder = g_dir_make_tmp ("cardmark-gen-cmd-XXXXXX", NULL);
  g_autofree char *first = g_build_filename (folder, "00000001.1.bin", NULL);
  g_autofree char *later = g_build_filename (folder, "00000001.bin", NULL);
  Reply r;
  CmHealth h;

  start (r, 0x70, 0x58);
  put_le (r, 44, 4, 90);
  put_le (r, 56, 4, 1);
  g_assert_true (g_file_set_contents (first, (const char *) r, sizeof r, NULL));
  put_le (r, 56, 4, 3);
  g_assert_true (g_file_set_contents (later, (const char *) r, sizeof r, NULL));

  cm_health_read_replay (folder, &h);
  g_assert_cmpint (h.state, ==, CM_HEALTH_KNOWN);
  g_assert_cmpint (h.flash_bytes_written, ==, G_GINT64_CONSTANT (1) << 30);
  cm_health_read_replay (folder, &h);
  g_assert_cmpint (h.flash_bytes_written, ==, G_GINT64_CONSTANT (3) << 30);

  g_unlink (first);
  g_unlink (later);
  /* No reply saved for any argument: not known. */
  cm_health_read_replay (folder, &h);
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  g_rmdir (folder);
}

/* A wear document keeps each round's flash bytes and works the write
 * amplification out; a card's health reads back from `card.health`. */
static void
test_document (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmResult) back = NULL;
  g_autoptr(CmEndurance) endurance = cm_endurance_new ();
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  CmWearRound rounds[2] = {
    { .round = 1, .sectors = 2048, .bytes_written = 1 << 20, .seconds = 1,
      .flash_known = TRUE, .flash_bytes_written = 3 << 20 },
    { .round = 2, .sectors = 2048, .bytes_written = 2 << 20, .seconds = 1 },
  };
  JsonArray *json_rounds;
  const CmEndurance *read;
  CmHealth health;

  g_array_append_vals (endurance->rounds, rounds, 2);
  cm_result_set_kind (result, "wear");
  cm_result_set_target (result, "/dev/loop0", "raw-write", "/dev/loop0", NULL);
  cm_result_set_endurance (result, endurance);
  cm_health_init_unknown (&health, CM_HEALTH_KNOWN);
  health.layout = CM_HEALTH_LAYOUT_LONGSYS;
  health.life_used_percent = 40;
  health.flash_bytes_written = 5 << 20;
  cm_card_info_set_health (card, &health);
  cm_result_set_card (result, card);

  node = cm_result_to_json (result);
  json_rounds = json_object_get_array_member (json_object_get_object_member (json_node_get_object (node), "endurance"), "rounds");
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (json_rounds, 0), "write_amplification"), ==, 3.0);
  g_assert_true (json_object_get_null_member (json_array_get_object_element (json_rounds, 1), "write_amplification"));
  g_assert_true (json_object_get_null_member (json_array_get_object_element (json_rounds, 1), "flash_bytes_written"));

  back = cm_result_new_from_json (node, &error);
  g_assert_no_error (error);
  read = cm_result_get_endurance (back);
  g_assert_true (g_array_index (read->rounds, CmWearRound, 0).flash_known);
  g_assert_cmpuint (g_array_index (read->rounds, CmWearRound, 0).flash_bytes_written, ==, 3 << 20);
  g_assert_false (g_array_index (read->rounds, CmWearRound, 1).flash_known);
  g_assert_nonnull (cm_card_info_get_health (cm_result_get_card (back)));
  g_assert_cmpfloat (cm_card_info_get_health (cm_result_get_card (back))->life_used_percent, ==, 40);
  g_assert_cmpint (cm_card_info_get_health (cm_result_get_card (back))->layout, ==, CM_HEALTH_LAYOUT_LONGSYS);
}

static CmOutcome *
outcome_of (CmHealthState state,
            double        life_used)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  CmHealth health;

  cm_health_init_unknown (&health, state);
  if (state == CM_HEALTH_KNOWN)
    health.layout = CM_HEALTH_LAYOUT_SWISSBIT;
  health.life_used_percent = life_used;
  cm_card_info_set_health (card, &health);
  cm_result_set_kind (result, "health");
  cm_result_set_card (result, card);
  return cm_result_dup_outcome (result);
}

/* The kind's outcome: N % used, in a tone by how worn; never a fail. */
static void
test_outcome (void)
{
  g_autoptr(CmOutcome) fresh = outcome_of (CM_HEALTH_KNOWN, 12);
  g_autoptr(CmOutcome) worn = outcome_of (CM_HEALTH_KNOWN, 95);
  g_autoptr(CmOutcome) unknown = outcome_of (CM_HEALTH_NOT_KNOWN, -1);
  g_autoptr(CmOutcome) usb = outcome_of (CM_HEALTH_NO_ACCESS, -1);
  g_autoptr(CmOutcome) counts = outcome_of (CM_HEALTH_KNOWN, -1);

  g_assert_cmpint (fresh->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpstr (fresh->badge, ==, "12 % used");
  g_assert_cmpstr (fresh->answer, ==, "12 % of its life used");
  g_assert_cmpint (fresh->tone, ==, CM_STATUS_MEETS);
  g_assert_cmpint (worn->tone, ==, CM_STATUS_BELOW);
  g_assert_cmpint (worn->exit_status, ==, 0);
  g_assert_cmpint (unknown->status, ==, CM_OUTCOME_NOT_JUDGED);
  g_assert_cmpstr (unknown->badge, ==, "Not known");
  g_assert_cmpint (usb->status, ==, CM_OUTCOME_NOT_JUDGED);
  g_assert_cmpstr (usb->answer, ==, "This reader cannot ask the card");
  g_assert_cmpint (usb->exit_status, ==, 0);
  /* Counts but no share of its life: nothing to judge, and it says so. */
  g_assert_cmpint (counts->status, ==, CM_OUTCOME_NOT_JUDGED);
  g_assert_cmpstr (counts->answer, ==, "The card tells no share of its life used");
  /* Not asked for want of rights: the answer says why, as the read's note did. */
  g_assert_null (unknown->answer);
  {
    g_autoptr(CmResult) result = cm_result_new ();
    g_autoptr(CmCardInfo) card = cm_card_info_new ();
    g_autoptr(CmOutcome) refused = NULL;
    const char *why = "The Flatpak cannot ask the card for its health: its sandbox cannot get administrator rights.";
    CmHealth health;

    cm_health_init_unknown (&health, CM_HEALTH_NOT_KNOWN);
    cm_card_info_set_health (card, &health);
    cm_result_set_kind (result, "health");
    cm_result_set_card (result, card);
    cm_result_add_note (result, why);
    refused = cm_result_dup_outcome (result);
    g_assert_cmpstr (refused->badge, ==, "Not known");
    g_assert_cmpstr (refused->answer, ==, why);
  }
}

/* A folder with a pkexec of the test's own: it keeps its arguments in
 * FOLDER/args and does what CARDMARK_FAKE_PKEXEC says: print FOLDER/reply,
 * refuse as pkexec does when the password is not given, print what no
 * helper prints, hang, or run its arguments as pkexec would. */
typedef struct
{
  char *folder;
  char *args;
  char *reply;
  int   fd;   /* a file to ask, which the hook makes refuse */
} FakePkexec;

static void
fake_pkexec_set_up (FakePkexec *f)
{
  g_autofree char *script = NULL;
  g_autofree char *card = NULL;
  const char *text =
    "#!/bin/sh\n"
    "printf '%s\\n' \"$@\" > \"$CARDMARK_FAKE_FOLDER/args\"\n"
    "case \"$CARDMARK_FAKE_PKEXEC\" in\n"
    "  reply) cat \"$CARDMARK_FAKE_FOLDER/reply\" ;;\n"
    "  dismissed) exit 126 ;;\n"
    "  garbage) echo 'not a reply' ;;\n"
    "  hang) exec sleep 600 ;;\n"
    "  exec) exec \"$@\" ;;\n"
    "esac\n";

  f->folder = g_dir_make_tmp ("cardmark-pkexec-XXXXXX", NULL);
  g_assert_nonnull (f->folder);
  script = g_build_filename (f->folder, "pkexec", NULL);
  card = g_build_filename (f->folder, "card", NULL);
  f->args = g_build_filename (f->folder, "args", NULL);
  f->reply = g_build_filename (f->folder, "reply", NULL);
  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  g_assert_true (g_file_set_contents (card, "", 0, NULL));
  f->fd = g_open (card, O_RDONLY, 0);
  g_assert_cmpint (f->fd, >=, 0);
  g_setenv ("CARDMARK_FAKE_FOLDER", f->folder, TRUE);
  g_setenv ("CARDMARK_TEST_PKEXEC", script, TRUE);
  g_setenv ("CARDMARK_TEST_HEALTH_HELPER", "/usr/libexec/cardmark-read-health", TRUE);
  g_setenv ("CARDMARK_TEST_GEN_CMD_REFUSED", "1", TRUE);
}

static void
fake_pkexec_tear_down (FakePkexec *f)
{
  const char *names[] = { "pkexec", "card", "args", "reply" };

  close (f->fd);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (f->folder, names[i], NULL);

      g_unlink (path);
    }
  g_rmdir (f->folder);
  g_free (f->folder);
  g_free (f->args);
  g_free (f->reply);
  g_unsetenv ("CARDMARK_FAKE_FOLDER");
  g_unsetenv ("CARDMARK_FAKE_PKEXEC");
  g_unsetenv ("CARDMARK_TEST_PKEXEC");
  g_unsetenv ("CARDMARK_TEST_HEALTH_HELPER");
  g_unsetenv ("CARDMARK_TEST_GEN_CMD_REFUSED");
  g_unsetenv ("CARDMARK_TEST_HEALTH_HELPER_TIMEOUT_MS");
}

static void
write_reply (FakePkexec *f,
             guint32     argument,
             const Reply r)
{
  g_autofree char *line = cm_health_helper_format (argument, r);

  g_assert_true (g_file_set_contents (f->reply, line, -1, NULL));
}

/* Refused by the kernel, the transport asks through the helper, run by
 * pkexec with the device as its one argument, and decodes its reply. */
static void
test_helper_fallback (void)
{
  FakePkexec f;
  g_autoptr(GError) error = NULL;
  g_autofree char *args = NULL;
  Reply r;
  CmHealth h;

  if (g_strcmp0 (g_getenv ("CARDMARK_TEST_HOOKS"), "1") != 0)
    {
      g_test_skip ("needs a build with -Dtest_hooks=true");
      return;
    }
  fake_pkexec_set_up (&f);
  g_setenv ("CARDMARK_FAKE_PKEXEC", "reply", TRUE);
  start (r, 'D', 'S');
  r[8] = 13;
  write_reply (&f, CM_HEALTH_ARG_SANDISK, r);

  /* The hook refuses the command as the kernel does a user. */
  cm_health_read_card (f.fd, &h, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_clear_error (&error);
  g_assert_false (g_file_test (f.args, G_FILE_TEST_EXISTS));

  cm_health_read_as_user (f.fd, "/dev/mmcblk9", &h, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (h.state, ==, CM_HEALTH_KNOWN);
  g_assert_cmpint (h.layout, ==, CM_HEALTH_LAYOUT_SANDISK);
  g_assert_cmpfloat (h.life_used_percent, ==, 12);
  g_assert_true (g_file_get_contents (f.args, &args, NULL, NULL));
  g_assert_cmpstr (args, ==, "/usr/libexec/cardmark-read-health\n/dev/mmcblk9\n");

  /* Not allowed to open the device at all: the helper too. */
  g_unlink (f.args);
  cm_health_read_as_user (-1, "/dev/mmcblk9", &h, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (h.state, ==, CM_HEALTH_KNOWN);
  g_assert_true (g_file_test (f.args, G_FILE_TEST_EXISTS));

  /* A reply of zeros from the helper is still not known. */
  memset (r, 0, sizeof r);
  write_reply (&f, CM_HEALTH_ARG_SANDISK, r);
  cm_health_read_as_user (f.fd, "/dev/mmcblk9", &h, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  g_assert_cmpint (h.layout, ==, CM_HEALTH_LAYOUT_NONE);
  g_assert_cmpfloat (h.life_used_percent, <, 0);
  fake_pkexec_tear_down (&f);
}

/* What goes wrong on the way says so, and leaves the health not known:
 * the password not given, a reply no helper prints, no answer in time;
 * and a card that answers (not refused) never starts the helper. */
static void
test_helper_failures (void)
{
  FakePkexec f;
  g_autoptr(GError) error = NULL;
  CmHealth h;

  if (g_strcmp0 (g_getenv ("CARDMARK_TEST_HOOKS"), "1") != 0)
    {
      g_test_skip ("needs a build with -Dtest_hooks=true");
      return;
    }
  fake_pkexec_set_up (&f);

  g_setenv ("CARDMARK_FAKE_PKEXEC", "dismissed", TRUE);
  cm_health_read_as_user (f.fd, "/dev/mmcblk9", &h, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "password was not given"));
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  g_clear_error (&error);

  g_setenv ("CARDMARK_FAKE_PKEXEC", "garbage", TRUE);
  cm_health_read_as_user (f.fd, "/dev/mmcblk9", &h, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  g_clear_error (&error);

  /* A helper that never answers is stopped; the test's own timeout is
   * short, so the wait ends on the transport's, not on the test's. */
  g_setenv ("CARDMARK_FAKE_PKEXEC", "hang", TRUE);
  g_setenv ("CARDMARK_TEST_HEALTH_HELPER_TIMEOUT_MS", "200", TRUE);
  cm_health_read_as_user (f.fd, "/dev/mmcblk9", &h, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  g_clear_error (&error);

  /* Not refused (a file answers the ioctl with ENOTTY): no helper. */
  g_unsetenv ("CARDMARK_TEST_GEN_CMD_REFUSED");
  g_unlink (f.args);
  cm_health_read_as_user (f.fd, "/dev/mmcblk9", &h, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  g_assert_false (g_file_test (f.args, G_FILE_TEST_EXISTS));
  fake_pkexec_tear_down (&f);
}

/* Whether this machine can start the built helper at all: a cross build's
 * tests run under qemu-user, and the helper they would start is the
 * target's program. Run with no argument, it answers with its usage. */
static gboolean
helper_runs_here (const char *helper)
{
  const char *argv[] = { helper, NULL };
  g_autofree char *err = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                     NULL, &err, &status, NULL))
    return FALSE;
  return err != NULL && strstr (err, "Usage:") != NULL;
}

/* The built helper, run as pkexec would run it: a device it refuses
 * comes back as the helper's own words, cleaned. */
static void
test_helper_refuses (void)
{
  const char *helper = g_getenv ("CARDMARK_HEALTH_HELPER");
  FakePkexec f;
  g_autoptr(GError) error = NULL;
  CmHealth h;

  if (g_strcmp0 (g_getenv ("CARDMARK_TEST_HOOKS"), "1") != 0 || helper == NULL)
    {
      g_test_skip ("needs a build with -Dtest_hooks=true and CARDMARK_HEALTH_HELPER");
      return;
    }
  if (!helper_runs_here (helper))
    {
      g_test_skip ("the built helper does not run on this machine (a cross build run under qemu-user)");
      return;
    }
  fake_pkexec_set_up (&f);
  g_setenv ("CARDMARK_FAKE_PKEXEC", "exec", TRUE);
  g_setenv ("CARDMARK_TEST_HEALTH_HELPER", helper, TRUE);
  cm_health_read_as_user (f.fd, "/dev/sda", &h, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "/dev/sda is not a card in a built-in slot"));
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  fake_pkexec_tear_down (&f);
}

/* The helper's output: a line per reply, anything else refused. */
static void
test_helper_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *zeros = NULL;
  g_autofree char *micron = NULL;
  g_autofree char *both = NULL;
  g_autofree char *cut = NULL;
  Reply r;
  CmHealth h;

  memset (r, 0, sizeof r);
  zeros = cm_health_helper_format (CM_HEALTH_ARG_SANDISK, r);
  g_assert_cmpuint (strlen (zeros), ==, 8 + 1 + 1024 + 1);
  start (r, 'M', 'E');
  r[8] = 7;
  micron = cm_health_helper_format (CM_HEALTH_ARG_MICRON, r);
  /* The first argument answered zeros, the next in Micron's layout. */
  both = g_strconcat (zeros, micron, NULL);
  g_assert_true (cm_health_helper_parse (both, &h, &error));
  g_assert_no_error (error);
  g_assert_cmpint (h.layout, ==, CM_HEALTH_LAYOUT_MICRON);
  g_assert_cmpfloat (h.life_used_percent, ==, 7);
  /* Micron's reply given as SanDisk's argument is not Micron's answer. */
  micron[7] = '1';
  micron[0] = micron[1] = micron[2] = micron[3] = micron[4] = micron[5] = micron[6] = '0';
  g_assert_true (cm_health_helper_parse (micron, &h, &error));
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  /* Nothing printed: asked, and no layout answered. */
  g_assert_true (cm_health_helper_parse ("", &h, &error));
  g_assert_cmpint (h.state, ==, CM_HEALTH_NOT_KNOWN);
  cut = g_strndup (zeros, 100);
  g_assert_false (cm_health_helper_parse (cut, &h, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  zeros[20] = 'x';
  g_assert_false (cm_health_helper_parse (zeros, &h, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cardmark/health/sandisk", test_sandisk);
  g_test_add_func ("/cardmark/health/longsys", test_longsys);
  g_test_add_func ("/cardmark/health/swissbit", test_swissbit);
  g_test_add_func ("/cardmark/health/micron", test_micron);
  g_test_add_func ("/cardmark/health/innodisk", test_innodisk);
  g_test_add_func ("/cardmark/health/adata", test_adata);
  g_test_add_func ("/cardmark/health/transcend", test_transcend);
  g_test_add_func ("/cardmark/health/two-step", test_two_step);
  g_test_add_func ("/cardmark/health/blank-and-noise", test_blank_and_noise);
  g_test_add_func ("/cardmark/health/json", test_json);
  g_test_add_func ("/cardmark/health/replay", test_replay);
  g_test_add_func ("/cardmark/health/document", test_document);
  g_test_add_func ("/cardmark/health/outcome", test_outcome);
  g_test_add_func ("/cardmark/health/helper-parse", test_helper_parse);
  g_test_add_func ("/cardmark/health/helper-fallback", test_helper_fallback);
  g_test_add_func ("/cardmark/health/helper-failures", test_helper_failures);
  g_test_add_func ("/cardmark/health/helper-refuses", test_helper_refuses);

  return g_test_run ();
}
