// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/kconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char ft_kconfig_get(const char *buf, size_t len, const char *sym)
{
	size_t sl = strlen(sym), i = 0;

	while (i < len) {
		const char *p = buf + i, *nl = memchr(p, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - p) : len - i;

		if (ll > sl + 1 && !strncmp(p, sym, sl) && p[sl] == '=')
			return p[sl + 1] == '"' && ll > sl + 2 ? p[sl + 2] : p[sl + 1];
		i += ll + 1;
	}
	return 'n';
}

bool ft_kconfig_release(const char *release, int *major, int *minor)
{
	char *end;
	long a, b;

	a = strtol(release, &end, 10);
	if (end == release || *end != '.' || a < 0 || a > 1000)
		return false;
	release = end + 1;
	b = strtol(release, &end, 10);
	if (end == release || b < 0 || b > 1000)
		return false;
	*major = (int)a;
	*minor = (int)b;
	return true;
}

enum ft_kconfig_risk ft_kconfig_risk(const char *config, size_t len, const char *release, char *why,
				     size_t sz)
{
	int ma, mi;
	bool pgflags = ft_kconfig_get(config, len, "CONFIG_DEBUG_VM_PGFLAGS") == 'y';

	if (ft_kconfig_get(config, len, "CONFIG_DEBUG_VM") != 'y') {
		snprintf(why, sz, "built without CONFIG_DEBUG_VM");
		return FT_KCONFIG_SAFE;
	}
	if (ft_kconfig_release(release, &ma, &mi) && (ma > 6 || (ma == 6 && mi >= 17))) {
		snprintf(why, sz, "CONFIG_DEBUG_VM, but %d.%d reads kpageflags through "
				  "snapshot_page() (6.17+)",
			 ma, mi);
		return FT_KCONFIG_SAFE;
	}
	snprintf(why, sz,
		 "this kernel (%.64s) is built with CONFIG_DEBUG_VM%s and reads /proc/kpageflags "
		 "without snapshot_page() (6.17): a folio split during the read can hit %s",
		 release, pgflags ? "_PGFLAGS" : "", pgflags ? "VM_BUG_ON (a crash)" :
		 "VM_WARN_ON_FOLIO (a crash with panic_on_warn)");
	return pgflags ? FT_KCONFIG_RISK_BUG : FT_KCONFIG_RISK_WARN;
}
