/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel's build configuration under a root: boot/config-
 * <release> if there is one, else proc/config.gz inflated (base/gzip.h).
 * Read only when the pageblock map is about to scan (kernel/kconfig.h says
 * why), at most 1 MiB compressed and 4 MiB of text.
 */
#ifndef FT_COLLECTORS_KCONFIG_H
#define FT_COLLECTORS_KCONFIG_H

#include <stddef.h>

/*
 * The config text (NUL-terminated, the caller frees it) and its length in
 * *@len, with the file it came from in @from; NULL with why in @why when
 * neither file can be read.
 */
char *ft_kconfigsrc_read(int rootfd, const char *release, size_t *len, char *from, size_t fsz,
			 char *why,
		      size_t sz);

#endif
