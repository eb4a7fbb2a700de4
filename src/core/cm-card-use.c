/* cm-card-use.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one answer to "is this card in use": its partitions and whatever
 * is stacked on them (device-mapper, LVM, LUKS, RAID — the kernel's
 * "holders"), looked up in the mount table and the swap list. Raw
 * writes, the capacity check, the destructive verify and the device
 * list all ask here, so they never disagree.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-target.h"
#include "cm-text.h"

#include "cm-card-use.h"

/* How deep holders may stack (a partition, LUKS, LVM, …) before the
 * walk stops: sysfs is read, and a loop in it must not hang us. */
#define MAX_DEPTH 8

/* Mount points that make a device the one the computer runs from. */
static const char * const system_mount_points[] = {
  "/", "/boot", "/boot/firmware", "/home", "/usr", "/var",
};

typedef struct
{
  dev_t  dev;
  char  *name;  /* "dm-0" */
  char  *base;  /* the card's own device or partition it is stacked on, or NULL */
} Node;

struct _CmCardUse
{
  GArray    *nodes;
  GPtrArray *mount_points;  /* of char *, NULL-terminated */
  gboolean   system;
  gboolean   swap;
  char      *why;
  gboolean   why_is_system;
};

static char *testing_sysfs_root;
static char *testing_mountinfo;
static char *testing_swaps;

static void
node_clear (gpointer data)
{
  Node *node = data;

  g_free (node->name);
  g_free (node->base);
}

void
cm_card_use_free (CmCardUse *use)
{
  if (use == NULL)
    return;
  g_array_unref (use->nodes);
  g_ptr_array_unref (use->mount_points);
  g_free (use->why);
  g_free (use);
}

static gboolean
read_dev_file (const char *dir,
               dev_t      *out_dev)
{
  g_autofree char *path = g_build_filename (dir, "dev", NULL);
  g_autofree char *text = NULL;
  guint major_nr, minor_nr;

  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      sscanf (text, "%u:%u", &major_nr, &minor_nr) != 2)
    return FALSE;

  *out_dev = makedev (major_nr, minor_nr);
  return TRUE;
}

static const Node *
find_dev (const CmCardUse *use,
          dev_t            dev)
{
  for (guint i = 0; i < use->nodes->len; i++)
    if (g_array_index (use->nodes, Node, i).dev == dev)
      return &g_array_index (use->nodes, Node, i);

  return NULL;
}

static const Node *
find_name (const CmCardUse *use,
           const char      *name)
{
  for (guint i = 0; i < use->nodes->len; i++)
    if (g_str_equal (g_array_index (use->nodes, Node, i).name, name))
      return &g_array_index (use->nodes, Node, i);

  return NULL;
}

/* Adds the device of sysfs folder DIR, named NAME, and whatever is
 * stacked on it, recursively. BASE is the card's own device or
 * partition under it, NULL for that device itself. */
static void
add_with_holders (CmCardUse  *use,
                  const char *sysfs_root,
                  const char *dir,
                  const char *name,
                  const char *base,
                  guint       depth)
{
  g_autofree char *holders = g_build_filename (dir, "holders", NULL);
  g_autoptr(GDir) listing = NULL;
  const char *entry;
  Node node;

  if (depth > MAX_DEPTH || !read_dev_file (dir, &node.dev) || find_dev (use, node.dev) != NULL)
    return;

  node.name = g_strdup (name);
  node.base = g_strdup (base);
  g_array_append_val (use->nodes, node);

  listing = g_dir_open (holders, 0, NULL);
  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    {
      /* A holder is a link to the stacked device's folder; its own
       * entry under class/block is the same folder, and is there in a
       * tree a test made too. */
      g_autofree char *holder = g_build_filename (sysfs_root, "class", "block", entry, NULL);

      if (!g_file_test (holder, G_FILE_TEST_IS_DIR))
        {
          g_free (holder);
          holder = g_build_filename (holders, entry, NULL);
        }
      add_with_holders (use, sysfs_root, holder, entry, base != NULL ? base : name, depth + 1);
    }
}

/* The kernel's name of @device ("sdb" for /dev/sdb or a link to it). */
static char *
dup_block_name (const char *device,
                const char *sysfs_root)
{
  g_autofree char *real = realpath (device, NULL);
  g_autofree char *name = g_path_get_basename (real != NULL ? real : device);
  g_autofree char *dir = g_build_filename (sysfs_root, "class", "block", name, NULL);
  struct stat st;

  /* A device node of another name (in a container, say) is found by
   * its number. */
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR) && stat (device, &st) == 0 && S_ISBLK (st.st_mode))
    {
      g_autofree char *link = g_strdup_printf ("%s/dev/block/%u:%u", sysfs_root,
                                               major (st.st_rdev), minor (st.st_rdev));
      g_autofree char *target = realpath (link, NULL);

      if (target != NULL)
        {
          g_free (name);
          name = g_path_get_basename (target);
        }
    }

  return g_steal_pointer (&name);
}

static void
collect (CmCardUse  *use,
         const char *device,
         const char *sysfs_root)
{
  g_autofree char *name = dup_block_name (device, sysfs_root);
  g_autofree char *dir = g_build_filename (sysfs_root, "class", "block", name, NULL);
  g_autoptr(GDir) listing = NULL;
  const char *entry;

  add_with_holders (use, sysfs_root, dir, name, NULL, 0);

  /* Partitions are subfolders with a "partition" file. */
  listing = g_dir_open (dir, 0, NULL);
  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *sub = g_build_filename (dir, entry, NULL);
      g_autofree char *marker = g_build_filename (sub, "partition", NULL);

      if (g_file_test (marker, G_FILE_TEST_EXISTS))
        add_with_holders (use, sysfs_root, sub, entry, NULL, 0);
    }
}

/* The kernel writes spaces, tabs, newlines and backslashes in mount
 * points as octal escapes. */
static char *
unescape (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (p[0] == '\\' && g_ascii_isdigit (p[1]) && g_ascii_isdigit (p[2]) && g_ascii_isdigit (p[3]))
        {
          g_string_append_c (out, (char) (((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0')));
          p += 3;
        }
      else
        g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

/* The node a path names: a device node by its number, or, where no such
 * node exists here, by its name under /dev; with @file_counts, a file by
 * the device that holds it (a swap file). */
static const Node *
find_path (const CmCardUse *use,
           const char      *path,
           gboolean         file_counts)
{
  g_autofree char *real = NULL;
  g_autofree char *name = NULL;
  struct stat st;

  if (path == NULL || path[0] != '/')
    return NULL;

  if (stat (path, &st) == 0)
    {
      if (S_ISBLK (st.st_mode))
        return find_dev (use, st.st_rdev);
      if (file_counts && S_ISREG (st.st_mode))
        return find_dev (use, st.st_dev);
      return NULL;
    }

  if (!g_str_has_prefix (path, "/dev/"))
    return NULL;
  real = realpath (path, NULL);
  name = g_path_get_basename (real != NULL ? real : path);
  return find_name (use, name);
}

static gboolean
is_system_mount_point (const char *mount_point)
{
  for (guint i = 0; i < G_N_ELEMENTS (system_mount_points); i++)
    if (g_str_equal (mount_point, system_mount_points[i]))
      return TRUE;

  return FALSE;
}

static char *
dup_mounted_sentence (const Node *node,
                      const char *mount_point)
{
  if (node->base == NULL)
    /* Translators: "/dev/sdb1 is mounted at /media/pi/CARD." */
    return g_strdup_printf (_("/dev/%s is mounted at %s."), node->name, mount_point);

  /* Translators: "/dev/sdb1 holds /dev/dm-0 (a mapped, encrypted or LVM
   * volume), which is mounted at /home." */
  return g_strdup_printf (_("/dev/%s holds /dev/%s (a mapped, encrypted or LVM volume), which is mounted at %s."),
                          node->base, node->name, mount_point);
}

static void
note (CmCardUse *use,
      char      *sentence,
      gboolean   system)
{
  if (use->why == NULL || (system && !use->why_is_system))
    {
      g_free (use->why);
      use->why = sentence;
      use->why_is_system = system;
    }
  else
    g_free (sentence);
}

static void
scan_mountinfo (CmCardUse  *use,
                const char *mountinfo)
{
  g_auto(GStrv) lines = g_strsplit (mountinfo != NULL ? mountinfo : "", "\n", -1);

  /* ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS… - TYPE SOURCE … */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", -1);
      g_autofree char *mount_point = NULL;
      const char *source = NULL;
      const Node *node;
      guint major_nr, minor_nr;
      gboolean system;

      if (g_strv_length (fields) < 5 || sscanf (fields[2], "%u:%u", &major_nr, &minor_nr) != 2)
        continue;

      for (guint j = 5; fields[j] != NULL; j++)
        if (g_str_equal (fields[j], "-") && fields[j + 1] != NULL)
          {
            source = fields[j + 2];
            break;
          }

      /* Btrfs and friends show an anonymous MAJOR:MINOR; their source
       * names the real device. */
      node = find_dev (use, makedev (major_nr, minor_nr));
      if (node == NULL)
        node = find_path (use, source, FALSE);
      if (node == NULL)
        continue;

      mount_point = unescape (fields[4]);
      system = is_system_mount_point (mount_point);
      use->system |= system;
      note (use, dup_mounted_sentence (node, mount_point), system);
      if (!g_ptr_array_find_with_equal_func (use->mount_points, mount_point, g_str_equal, NULL))
        g_ptr_array_add (use->mount_points, g_steal_pointer (&mount_point));
    }
}

static void
scan_swaps (CmCardUse  *use,
            const char *swaps)
{
  g_auto(GStrv) lines = g_strsplit (swaps != NULL ? swaps : "", "\n", -1);

  /* The first line is a header. */
  for (guint i = 1; lines[0] != NULL && lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit_set (lines[i], " \t", 2);
      g_autofree char *path = NULL;
      const Node *node;

      if (fields[0] == NULL || fields[0][0] == '\0')
        continue;
      path = unescape (fields[0]);
      node = find_path (use, path, TRUE);
      if (node == NULL)
        continue;

      use->swap = TRUE;
      use->system = TRUE;
      /* Translators: "/dev/sdb2 is used as swap (/dev/sdb2)." — the
       * device, then the swap area the system lists */
      note (use, g_strdup_printf (_("/dev/%s is used as swap (%s)."), node->base != NULL ? node->base : node->name, path), TRUE);
    }
}

/**
 * cm_card_use_new_at:
 * @device: the card's device, such as /dev/sdb (or a partition)
 * @sysfs_root: where sysfs is, "/sys"
 * @mountinfo: (nullable): the text of /proc/self/mountinfo
 * @swaps: (nullable): the text of /proc/swaps
 *
 * Who uses @device, read from the given sysfs and tables, so a test can
 * hand in a tree it made.
 *
 * Returns: (transfer full): the card's use
 */
CmCardUse *
cm_card_use_new_at (const char *device,
                    const char *sysfs_root,
                    const char *mountinfo,
                    const char *swaps)
{
  CmCardUse *use;

  g_return_val_if_fail (device != NULL, NULL);
  g_return_val_if_fail (sysfs_root != NULL, NULL);

  use = g_new0 (CmCardUse, 1);
  use->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  g_array_set_clear_func (use->nodes, node_clear);
  use->mount_points = g_ptr_array_new_null_terminated (0, g_free, TRUE);

  collect (use, device, sysfs_root);
  scan_mountinfo (use, mountinfo);
  scan_swaps (use, swaps);
  return use;
}

/**
 * cm_card_use_new:
 * @device: the card's device, such as /dev/sdb
 *
 * Who uses @device now, from /sys, /proc/self/mountinfo and /proc/swaps.
 *
 * Returns: (transfer full): the card's use
 */
CmCardUse *
cm_card_use_new (const char *device)
{
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;

  g_return_val_if_fail (device != NULL, NULL);

  g_file_get_contents (testing_mountinfo != NULL ? testing_mountinfo : "/proc/self/mountinfo",
                       &mountinfo, NULL, NULL);
  g_file_get_contents (testing_swaps != NULL ? testing_swaps : "/proc/swaps", &swaps, NULL, NULL);
  return cm_card_use_new_at (device, testing_sysfs_root != NULL ? testing_sysfs_root : "/sys",
                             mountinfo, swaps);
}

/* Mounted anywhere, or swap: writing then would corrupt what runs. */
gboolean
cm_card_use_get_in_use (const CmCardUse *use)
{
  g_return_val_if_fail (use != NULL, FALSE);
  return use->mount_points->len > 0 || use->swap;
}

/* Holds a mount point the system runs from, or swap. */
gboolean
cm_card_use_get_system (const CmCardUse *use)
{
  g_return_val_if_fail (use != NULL, FALSE);
  return use->system;
}

const char * const *
cm_card_use_get_mount_points (const CmCardUse *use)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (use != NULL, NULL);
  /* An array that never grew has no storage, not even its NULL. */
  if (use->mount_points->pdata == NULL)
    return none;
  return (const char * const *) use->mount_points->pdata;
}

/* One sentence naming what uses the card, the system first; NULL when
 * nothing does. */
const char *
cm_card_use_get_why (const CmCardUse *use)
{
  g_return_val_if_fail (use != NULL, NULL);
  return use->why;
}

/**
 * cm_card_in_use:
 * @device: the card's device
 * @sysfs_root: (nullable): where sysfs is; %NULL for this computer's
 *   /sys, mount table and swap list (@mountinfo and @swaps are then not read)
 * @mountinfo: (nullable): the text of /proc/self/mountinfo
 * @swaps: (nullable): the text of /proc/swaps
 * @why: (out) (optional) (nullable): a sentence naming what uses it
 *
 * Returns: whether @device, a partition on it or a volume stacked on one
 *   is mounted or used as swap
 */
gboolean
cm_card_in_use (const char  *device,
                const char  *sysfs_root,
                const char  *mountinfo,
                const char  *swaps,
                char       **why)
{
  g_autoptr(CmCardUse) use = NULL;

  g_return_val_if_fail (device != NULL, FALSE);

  if (sysfs_root == NULL)
    use = cm_card_use_new (device);
  else
    use = cm_card_use_new_at (device, sysfs_root, mountinfo, swaps);

  if (why != NULL)
    *why = g_strdup (use->why);
  return cm_card_use_get_in_use (use);
}

static const char *
purpose_advice (CmCardUsePurpose purpose)
{
  switch (purpose)
    {
    case CM_CARD_USE_RAW_WRITE:
      return _("CardMark will not write to a card in use. Unmount it first, or test a folder on it instead.");
    case CM_CARD_USE_CAPACITY_CHECK:
      return _("The capacity check writes to the card (and puts everything back), so unmount it first.");
    case CM_CARD_USE_DESTRUCTIVE_VERIFY:
      return _("CardMark will not overwrite a card in use. Unmount it first, or verify a folder on it.");
    case CM_CARD_USE_WEAR_TEST:
      return _("The wear test overwrites the whole card again and again, so it runs only on a card nothing uses. Unmount it first.");
    case CM_CARD_USE_FORMAT:
      return _("Formatting erases the whole card, so it runs only on a card nothing uses. Unmount it first.");
    case CM_CARD_USE_OVERWRITE:
      return _("This check overwrites the whole card, so it runs only on a card nothing uses. Unmount it first.");
    default:
      g_return_val_if_reached (NULL);
    }
}

/**
 * cm_card_check_not_in_use:
 * @device: the card's device
 * @purpose: what the caller means to do with it
 * @error: where to say why it may not
 *
 * Refuses, in %CM_TARGET_ERROR_MOUNTED, a card that cm_card_in_use()
 * finds in use, with what uses it and what to do.
 *
 * Returns: %TRUE when nothing uses @device
 */
gboolean
cm_card_check_not_in_use (const char        *device,
                          CmCardUsePurpose   purpose,
                          GError           **error)
{
  g_autoptr(CmCardUse) use = NULL;

  g_return_val_if_fail (device != NULL, FALSE);

  use = cm_card_use_new (device);
  if (!cm_card_use_get_in_use (use))
    return TRUE;

  /* Translators: two sentences: what uses the card, then what to do */
  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_MOUNTED, C_("two sentences", "%s %s"),
               use->why, purpose_advice (purpose));
  return FALSE;
}

static const char *
sysfs_root_now (void)
{
  return testing_sysfs_root != NULL ? testing_sysfs_root : "/sys";
}

/* The kernel's own word: a partition's folder has a "partition" file. */
static gboolean
is_partition (const char *sysfs_root,
              const char *name)
{
  g_autofree char *marker = g_build_filename (sysfs_root, "class", "block", name, "partition", NULL);

  return g_file_test (marker, G_FILE_TEST_EXISTS);
}

/* The disk a partition is on: its folder is inside the disk's. */
static char *
dup_parent_name (const char *sysfs_root,
                 const char *name)
{
  g_autofree char *dir = g_build_filename (sysfs_root, "class", "block", name, NULL);
  g_autofree char *real = realpath (dir, NULL);
  g_autofree char *parent = real != NULL ? g_path_get_dirname (real) : NULL;

  return parent != NULL ? g_path_get_basename (parent) : NULL;
}

static void
add_disks_under (GPtrArray  *disks,
                 const char *sysfs_root,
                 const char *name,
                 guint       depth);

/* What a device is made of: the devices a mapped volume sits on
 * ("slaves"), or the device a loop device reads (a file is no disk). */
static gboolean
add_layers_under (GPtrArray  *disks,
                  const char *sysfs_root,
                  const char *name,
                  guint       depth)
{
  g_autofree char *slaves = g_build_filename (sysfs_root, "class", "block", name, "slaves", NULL);
  g_autofree char *backing = g_build_filename (sysfs_root, "class", "block", name, "loop", "backing_file", NULL);
  g_autofree char *backing_path = NULL;
  g_autoptr(GDir) listing = g_dir_open (slaves, 0, NULL);
  const char *entry;
  gboolean found = FALSE;
  struct stat st;

  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    {
      add_disks_under (disks, sysfs_root, entry, depth + 1);
      found = TRUE;
    }

  if (g_file_get_contents (backing, &backing_path, NULL, NULL) && g_strchomp (backing_path) != NULL &&
      stat (backing_path, &st) == 0 && S_ISBLK (st.st_mode))
    {
      g_autofree char *under = dup_block_name (backing_path, sysfs_root);

      add_disks_under (disks, sysfs_root, under, depth + 1);
      found = TRUE;
    }

  return found;
}

/* The whole disks NAME is on, through partitions and layers; NAME
 * itself when it is one. */
static void
add_disks_under (GPtrArray  *disks,
                 const char *sysfs_root,
                 const char *name,
                 guint       depth)
{
  if (depth > MAX_DEPTH)
    return;

  if (is_partition (sysfs_root, name))
    {
      g_autofree char *parent = dup_parent_name (sysfs_root, name);

      if (parent != NULL)
        add_disks_under (disks, sysfs_root, parent, depth + 1);
      return;
    }

  if (!add_layers_under (disks, sysfs_root, name, depth) &&
      !g_ptr_array_find_with_equal_func (disks, name, g_str_equal, NULL))
    g_ptr_array_add (disks, g_strdup (name));
}

/**
 * cm_card_check_whole_card:
 * @device: the device a check means to write, whole
 * @purpose: what the caller means to do with it
 * @error: where to say why it may not
 *
 * The one rule for every kind that writes a whole device: it takes a
 * whole card, never a partition (by the kernel's word), never a device
 * on a disk this computer uses (one holding /, /boot, swap or anything
 * mounted, through partitions, mapped volumes and loop devices), which
 * it names, and never a card in use (cm_card_check_not_in_use()).
 * Refuses in %CM_TARGET_ERROR_NOT_WHOLE, or %CM_TARGET_ERROR_MOUNTED
 * for the card itself in use.
 *
 * Returns: %TRUE when @device is a whole card nothing uses
 */
gboolean
cm_card_check_whole_card (const char        *device,
                          CmCardUsePurpose   purpose,
                          GError           **error)
{
  const char *sysfs_root = sysfs_root_now ();
  g_autofree char *name = NULL;
  g_autoptr(GPtrArray) disks = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (device != NULL, FALSE);

  name = dup_block_name (device, sysfs_root);
  add_disks_under (disks, sysfs_root, name, 0);

  for (guint i = 0; i < disks->len; i++)
    {
      const char *disk = g_ptr_array_index (disks, i);
      g_autofree char *disk_path = NULL;
      g_autoptr(CmCardUse) use = NULL;

      if (g_str_equal (disk, name))
        continue;
      disk_path = g_strconcat ("/dev/", disk, NULL);
      use = cm_card_use_new (disk_path);
      if (!cm_card_use_get_in_use (use))
        continue;
      /* Translators: "/dev/sda2 is on /dev/sda, a disk this computer
       * uses: /dev/sda1 is mounted at /boot. …" */
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_WHOLE,
                   _("%s is on %s, a disk this computer uses: %s CardMark writes only to a whole card that nothing uses."),
                   device, disk_path, use->why);
      return FALSE;
    }

  if (is_partition (sysfs_root, name))
    {
      g_autofree char *parent = dup_parent_name (sysfs_root, name);

      /* Translators: "/dev/sdb1 is a partition of /dev/sdb, not a whole
       * card. …" */
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_WHOLE,
                   _("%s is a partition of /dev/%s, not a whole card. A check that writes takes the whole card: give its own device, /dev/%s."),
                   device, parent != NULL ? parent : "?", parent != NULL ? parent : "?");
      return FALSE;
    }

  return cm_card_check_not_in_use (device, purpose, error);
}

/* udev opens every device that was just written for a moment, to read
 * what is on it; that is no program holding the card. */
static gboolean
is_udev (const char *comm)
{
  return g_str_equal (comm, "systemd-udevd") || g_str_equal (comm, "(udev-worker)") ||
         g_str_equal (comm, "udevd");
}

/* Whether process PID (a folder of /proc) has a descriptor open on one
 * of @use's devices. */
static gboolean
process_holds (const CmCardUse *use,
               const char      *pid)
{
  g_autofree char *fds = g_build_filename ("/proc", pid, "fd", NULL);
  g_autoptr(GDir) listing = g_dir_open (fds, 0, NULL);
  const char *entry;

  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *fd = g_build_filename (fds, entry, NULL);
      struct stat st;

      if (stat (fd, &st) == 0 && S_ISBLK (st.st_mode) && find_dev (use, st.st_rdev) != NULL)
        return TRUE;
    }

  return FALSE;
}

/**
 * cm_card_check_not_open:
 * @device: the card's device
 * @error: where to say who has it open
 *
 * Refuses, in %CM_TARGET_ERROR_HELD_OPEN, a card that another program
 * has open (the card, a partition on it or a volume stacked on one),
 * naming the program: an open with O_EXCL sees only mounts and other
 * exclusive openers, not a program that reads or writes it. A user
 * who is not root sees only their own programs.
 *
 * Returns: %TRUE when no other program has @device open
 */
gboolean
cm_card_check_not_open (const char  *device,
                        GError     **error)
{
  g_autoptr(CmCardUse) use = NULL;
  g_autoptr(GDir) proc = NULL;
  g_autofree char *self = g_strdup_printf ("%d", (int) getpid ());
  const char *entry;

  g_return_val_if_fail (device != NULL, FALSE);

  use = cm_card_use_new (device);
  proc = g_dir_open ("/proc", 0, NULL);
  while (proc != NULL && (entry = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *comm_path = NULL;
      g_autofree char *comm = NULL;
      g_autofree char *clean = NULL;

      if (!g_ascii_isdigit (entry[0]) || g_str_equal (entry, self) || !process_holds (use, entry))
        continue;
      comm_path = g_build_filename ("/proc", entry, "comm", NULL);
      if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
        continue;
      g_strchomp (comm);
      if (is_udev (comm))
        continue;
      clean = cm_text_dup_clean (comm, CM_TEXT_LINE_MAX);
      /* Translators: "Another program (dd, process 1234) has /dev/sdb
       * open. …" */
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_HELD_OPEN,
                   _("Another program (%s, process %s) has %s open. Close it, then try again: CardMark will not erase a card another program is using."),
                   clean, entry, device);
      return FALSE;
    }

  return TRUE;
}

/* For tests only: read @sysfs_root and the files @mountinfo_path and
 * @swaps_path instead of this computer's, from now on; %NULL for the
 * real one. */
void
cm_card_use_set_roots_for_testing (const char *sysfs_root,
                                   const char *mountinfo_path,
                                   const char *swaps_path)
{
  g_free (testing_sysfs_root);
  testing_sysfs_root = g_strdup (sysfs_root);
  g_free (testing_mountinfo);
  testing_mountinfo = g_strdup (mountinfo_path);
  g_free (testing_swaps);
  testing_swaps = g_strdup (swaps_path);
}
