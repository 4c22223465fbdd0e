/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checkpoints of a session, for the replay source's seeks
 * (collectors/replay.c): pure, bytes in and out.
 */
#ifndef FT_MODEL_CHECKPOINT_H
#define FT_MODEL_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "model/session.h"

/*
 * ft_session_save() serialises the session's fields, and the arrays it
 * owns, into a malloc'd, zstd-compressed blob (*@out, *@len): not its
 * pointers, the decoder, the host facts, its callbacks or options;
 * ft_session_restore() puts it back into @s, which must have been fed the
 * same HOST and format inputs (the decoder is not in it: formats do not
 * change after a session starts).  0 or -errno (-EBADMSG: not a
 * checkpoint of this build, or damaged: then @s is unchanged; -ENOMEM:
 * part way, @s is consistent but has no sample).
 */
int ft_session_save(const struct ft_session *s, void **out, size_t *len);
int ft_session_restore(struct ft_session *s, const void *blob, size_t len);

/*
 * The codec's tables, for test_checkpoint: add 1 to @cover[k] for every
 * byte k of @which's struct that they place (saved, kept, or an owned
 * array's pointer, count and capacity).  Returns the bytes placed more
 * than once.  Every byte but padding must be placed exactly once.
 */
enum ft_ck_struct { FT_CK_SESSION, FT_CK_PBZONE };
size_t ft_checkpoint_cover(enum ft_ck_struct which, uint8_t *cover, size_t len);

#endif
