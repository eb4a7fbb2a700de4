/* cm-card-info.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Placeholder until the register decoders land: an empty identity.
 */

#include "config.h"

#include "cm-card-info.h"

struct _CmCardInfo
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (CmCardInfo, cm_card_info, G_TYPE_OBJECT)

static void
cm_card_info_class_init (CmCardInfoClass *klass)
{
}

static void
cm_card_info_init (CmCardInfo *self)
{
}

CmCardInfo *
cm_card_info_new (void)
{
  return g_object_new (CM_TYPE_CARD_INFO, NULL);
}

CmCardInfo *
cm_card_info_new_from_json (JsonNode  *node,
                            GError   **error)
{
  return cm_card_info_new ();
}

JsonNode *
cm_card_info_to_json (CmCardInfo *self)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, json_object_new ());
  return node;
}

GStrv
cm_card_info_dup_declared_classes (CmCardInfo *self)
{
  return g_new0 (char *, 1);
}

guint64
cm_card_info_get_au_size_bytes (CmCardInfo *self)
{
  return 0;
}
