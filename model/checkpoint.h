/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checkpoints of a session, for the replay source's seeks
 * (collectors/replay.c): pure, bytes in and out.
 */
#ifndef FT_MODEL_CHECKPOINT_H
#define FT_MODEL_CHECKPOINT_H

#include <stddef.h>

#include "model/session.h"

/*
 * ft_session_save() serialises everything but the decoder and the host
 * facts into a malloc'd, zstd-compressed blob (*@out, *@len);
 * ft_session_restore() puts it back into @s, which must have been fed the
 * same HOST and format inputs (the decoder is not in it: formats do not
 * change after a session starts).  0 or -errno (-EBADMSG: not a
 * checkpoint of this build).
 */
int ft_session_save(const struct ft_session *s, void **out, size_t *len);
int ft_session_restore(struct ft_session *s, const void *blob, size_t len);

#endif
