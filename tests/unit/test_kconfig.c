// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel config's values, the release's version, the kpageflags risk, and gunzip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/gzip.h"
#include "kernel/kconfig.h"

static const char cfg[] =
	"#\n# Automatically generated file; DO NOT EDIT.\n"
	"CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n"
	"CONFIG_DEBUG_VM_IRQSOFF=y\n"
	"CONFIG_DEBUG_VM=y\n"
	"# CONFIG_DEBUG_VM_PGFLAGS is not set\n"
	"CONFIG_NR_CPUS=64\n"
	"CONFIG_DEBUG_VM_VMACACHE";	/* a cut last line: no value */

static void test_get(void **state)
{
	(void)state;
	assert_int_equal(ft_kconfig_get(cfg, strlen(cfg), "CONFIG_DEBUG_VM"), 'y');
	assert_int_equal(ft_kconfig_get(cfg, strlen(cfg), "CONFIG_DEBUG_VM_PGFLAGS"), 'n');
	/* a prefix is not it */
	assert_int_equal(ft_kconfig_get(cfg, strlen(cfg), "CONFIG_DEBUG"), 'n');
	assert_int_equal(ft_kconfig_get(cfg, strlen(cfg), "CONFIG_NR_CPUS"), '6');
	assert_int_equal(ft_kconfig_get(cfg, strlen(cfg), "CONFIG_CC_VERSION_TEXT"), 'g');
	assert_int_equal(ft_kconfig_get(cfg, strlen(cfg), "CONFIG_DEBUG_VM_VMACACHE"), 'n');
	assert_int_equal(ft_kconfig_get(cfg, 0, "CONFIG_DEBUG_VM"), 'n');
	/* only the first @len bytes count */
	assert_int_equal(ft_kconfig_get(cfg, (size_t)(strstr(cfg, "CONFIG_DEBUG_VM=") - cfg),
					"CONFIG_DEBUG_VM"),
			 'n');
}

static void test_release(void **state)
{
	int a = 0, b = 0;

	(void)state;
	assert_true(ft_kconfig_release("6.12.118-fragtop-stock", &a, &b));
	assert_int_equal(a, 6);
	assert_int_equal(b, 12);
	assert_true(ft_kconfig_release("6.18.44-fc-v1098", &a, &b));
	assert_int_equal(b, 18);
	assert_false(ft_kconfig_release("?", &a, &b));
	assert_false(ft_kconfig_release("6", &a, &b));
	assert_false(ft_kconfig_release("6.x", &a, &b));
	assert_false(ft_kconfig_release("-1.2", &a, &b));
}

static void test_risk(void **state)
{
	static const char plain[] = "# CONFIG_DEBUG_VM is not set\n";
	static const char pgflags[] = "CONFIG_DEBUG_VM=y\nCONFIG_DEBUG_VM_PGFLAGS=y\n";
	char why[320];

	(void)state;
	assert_int_equal(ft_kconfig_risk(plain, strlen(plain), "6.1.0", why, sizeof(why)),
			 FT_KCONFIG_SAFE);
	assert_non_null(strstr(why, "without CONFIG_DEBUG_VM"));
	assert_int_equal(ft_kconfig_risk(cfg, strlen(cfg), "6.12.118", why, sizeof(why)),
			 FT_KCONFIG_RISK_WARN);
	assert_non_null(strstr(why, "VM_WARN_ON_FOLIO"));
	assert_int_equal(ft_kconfig_risk(pgflags, strlen(pgflags), "6.16.9", why, sizeof(why)),
			 FT_KCONFIG_RISK_BUG);
	assert_non_null(strstr(why, "VM_BUG_ON"));
	/* snapshot_page() from 6.17 on */
	assert_int_equal(ft_kconfig_risk(pgflags, strlen(pgflags), "6.17.0", why, sizeof(why)),
			 FT_KCONFIG_SAFE);
	assert_int_equal(ft_kconfig_risk(pgflags, strlen(pgflags), "7.0.1", why, sizeof(why)),
			 FT_KCONFIG_SAFE);
	/* a release fragtop cannot read is taken as old */
	assert_int_equal(ft_kconfig_risk(pgflags, strlen(pgflags), "?", why, sizeof(why)),
			 FT_KCONFIG_RISK_BUG);
}

static void test_gunzip(void **state)
{
	char *z = NULL, *back = NULL, why[256] = "";
	size_t zn = 0, bn = 0;

	(void)state;
	assert_int_equal(ft_gzip(cfg, sizeof(cfg) - 1, &z, &zn, why, sizeof(why)), 0);
	assert_int_equal(ft_gunzip(z, zn, 1 << 20, &back, &bn, why, sizeof(why)), 0);
	assert_int_equal(bn, sizeof(cfg) - 1);
	assert_memory_equal(back, cfg, bn);
	assert_int_equal(back[bn], '\0');
	free(back);
	/* longer than allowed */
	assert_int_equal(ft_gunzip(z, zn, 16, &back, &bn, why, sizeof(why)), -1);
	assert_null(back);
	assert_non_null(strstr(why, "longer than 16"));
	/* cut short */
	assert_int_equal(ft_gunzip(z, zn / 2, 1 << 20, &back, &bn, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cut short"));
	/* not gzip at all */
	assert_int_equal(ft_gunzip(cfg, sizeof(cfg) - 1, 1 << 20, &back, &bn, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "not a gzip stream"));
	free(z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_risk),
		cmocka_unit_test(test_gunzip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
