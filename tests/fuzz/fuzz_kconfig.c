// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: a kernel config's values and the kpageflags risk taken from it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/kconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char why[320], release[64];
	size_t n = size < sizeof(release) - 1 ? size : sizeof(release) - 1;
	int a, b;

	ft_kconfig_get(buf, size, "CONFIG_DEBUG_VM");
	memcpy(release, buf, n);
	release[n] = '\0';
	ft_kconfig_release(release, &a, &b);
	/* the config and the release from the same bytes */
	if (ft_kconfig_risk(buf, size, release, why, sizeof(why)) > FT_KCONFIG_RISK_BUG || !why[0])
		__builtin_trap();
	return 0;
}
