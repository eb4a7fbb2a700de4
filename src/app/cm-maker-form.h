/* cm-maker-form.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CM_TYPE_MAKER_FORM (cm_maker_form_get_type ())

G_DECLARE_FINAL_TYPE (CmMakerForm, cm_maker_form, CM, MAKER_FORM, GtkBox)

GtkWidget *cm_maker_form_new             (void);
gboolean   cm_maker_form_get_valid       (CmMakerForm      *self);
guint64    cm_maker_form_get_maker_bytes (CmMakerForm      *self);
void       cm_maker_form_attach          (CmMakerForm      *self,
                                          AdwMessageDialog *dialog,
                                          const char       *first_response,
                                          ...) G_GNUC_NULL_TERMINATED;
void       cm_maker_form_set_text        (CmMakerForm      *self,
                                          const char       *tbw,
                                          const char       *video_hours,
                                          const char       *video_mbps);

G_END_DECLS
