/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's build configuration (/proc/config.gz inflated, or
 * /boot/config-<release>) and what fragtop decides from it.  Pure: text
 * in, answers out.
 *
 * /proc/kpageflags on a kernel before 6.17 takes page_folio() of each page
 * and then tests the folio's flags (fs/proc/page.c stable_page_flags()):
 * a folio split or freed in between leaves a page that is no longer a
 * head, and CONFIG_DEBUG_VM_PGFLAGS's VM_BUG_ON_PGFLAGS() in folio_flags()
 * (the large_rmappable test) is a BUG; CONFIG_DEBUG_VM alone has
 * folio_large_mapcount()'s VM_WARN_ON_FOLIO() through page_mapped(), a
 * panic with panic_on_warn.  6.17 reads each page through
 * snapshot_page() instead (docs/design/kernel.md).
 */
#ifndef FT_KERNEL_KCONFIG_H
#define FT_KERNEL_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The value of @sym ("CONFIG_DEBUG_VM") in config text: 'y', 'm', 'n' (is
 * not set, or absent), or another first character of a string or number.
 */
char ft_kconfig_get(const char *buf, size_t len, const char *sym);

/* The release's major.minor ("6.12.118-fragtop-stock" -> 6, 12); false if it does not start so. */
bool ft_kconfig_release(const char *release, int *major, int *minor);

enum ft_kconfig_risk {
	FT_KCONFIG_SAFE,		/* no DEBUG_VM, or 6.17+ */
	FT_KCONFIG_RISK_WARN,	/* DEBUG_VM before 6.17: a VM_WARN (a panic with panic_on_warn) */
	FT_KCONFIG_RISK_BUG,	/* DEBUG_VM_PGFLAGS before 6.17: a VM_BUG_ON */
};

/* What reading kpageflags risks on @release built with @config; why in @why. */
enum ft_kconfig_risk ft_kconfig_risk(const char *config, size_t len, const char *release, char *why,
				     size_t sz);

#endif
