// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/kconfig.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/gzip.h"

#define KCONFIG_GZ_MAX	(1 << 20)
#define KCONFIG_MAX	(4 << 20)

char *ft_kconfigsrc_read(int rootfd, const char *release, size_t *len, char *from, size_t fsz,
			 char *why,
		      size_t sz)
{
	char rel[192], *buf, *text = NULL;
	long n;

	*len = 0;
	snprintf(rel, sizeof(rel), "boot/config-%.128s", release);
	if (!strchr(release, '/') && strcmp(release, "..") && (buf = malloc(KCONFIG_MAX))) {
		n = ft_file_slurp(rootfd, rel, buf, KCONFIG_MAX);
		if (n > 0) {
			snprintf(from, fsz, "/%s", rel);
			*len = (size_t)n;
			return buf;
		}
		free(buf);
	}
	buf = malloc(KCONFIG_GZ_MAX);
	if (!buf) {
		snprintf(why, sz, "out of memory");
		return NULL;
	}
	n = ft_file_slurp(rootfd, "proc/config.gz", buf, KCONFIG_GZ_MAX);
	if (n <= 0) {
		snprintf(why, sz, "no /boot/config-%.64s, and /proc/config.gz: %s", release,
			 n < 0 ? strerror((int)-n) : "empty");
		free(buf);
		return NULL;
	}
	if (!ft_gunzip(buf, (size_t)n, KCONFIG_MAX, &text, len, why, sz))
		snprintf(from, fsz, "/proc/config.gz");
	free(buf);
	return text;
}
