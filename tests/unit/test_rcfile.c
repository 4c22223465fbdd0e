// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fragtoprc (tui/rcfile.c): a file fragtop wrote parses back to the
 * same settings; blanks, comments and CRLF are fine; each broken line is
 * counted, the first described, its key left at the default, the good
 * lines kept; values out of range are refused; an oversized file is read
 * up to the cap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/rcfile.h"

static int parse(struct ft_rc *rc, const char *text, char *why)
{
	return ft_rc_parse(text, strlen(text), rc, why, 160);
}

static void test_round_trip(void **state)
{
	struct ft_rc rc, back;
	char text[1024], why[160];
	int n;

	(void)state;
	ft_rc_init(&rc);
	rc.interval = 2.5;
	strcpy(rc.view, "processes");
	strcpy(rc.sort, "FALLBK");
	rc.color = 0;
	strcpy(rc.map_zone, "N1 Movable");
	strcpy(rc.columns, "FRAG/s,OWN,CGROUP");
	strcpy(rc.sizes, "2M,1G,512x2M");
	n = ft_rc_format(&rc, text, sizeof(text));
	assert_true(n > 0 && (size_t)n < sizeof(text));
	assert_non_null(strstr(text, "config_version=1\n"));
	assert_non_null(strstr(text, "color_scheme=monochrome\n"));
	assert_int_equal(parse(&back, text, why), 0);
	assert_string_equal(why, "");
	assert_true(back.interval == 2.5);
	assert_string_equal(back.view, "processes");
	assert_string_equal(back.sort, "FALLBK");
	assert_int_equal(back.color, 0);
	assert_string_equal(back.map_zone, "N1 Movable");
	assert_string_equal(back.columns, "FRAG/s,OWN,CGROUP");
	assert_string_equal(back.sizes, "2M,1G,512x2M");
	/* nothing set: only the head, and it parses to nothing set */
	ft_rc_init(&rc);
	n = ft_rc_format(&rc, text, sizeof(text));
	assert_null(strstr(text, "view="));
	assert_int_equal(parse(&back, text, why), 0);
	assert_true(back.interval == 0);
	assert_int_equal(back.color, -1);
	/* a buffer too small: the length it needs, as snprintf */
	assert_int_equal(ft_rc_format(&rc, text, 8), n);
}

static void test_layout(void **state)
{
	struct ft_rc rc;
	char why[160];

	(void)state;
	assert_int_equal(parse(&rc, "\n# a comment\n   \n  interval = 0.5 "
				    "\r\nview=map\r\ncolor_scheme=default", why), 0);
	assert_true(rc.interval == 0.5);
	assert_string_equal(rc.view, "map");
	assert_int_equal(rc.color, 1);
	assert_int_equal(parse(&rc, "", why), 0);
}

static void test_errors(void **state)
{
	struct ft_rc rc;
	char why[160];

	(void)state;
	assert_int_equal(parse(&rc, "view=processes\nnot a setting\nsort=OWN\n", why), 1);
	assert_string_equal(why, "line 2: not key=value");
	assert_string_equal(rc.view, "processes");	/* the good lines count */
	assert_string_equal(rc.sort, "OWN");
	assert_int_equal(parse(&rc, "colour=red\n", why), 1);
	assert_string_equal(why, "line 1: no such key");
	assert_int_equal(parse(&rc, "interval=0\ninterval=abc\ninterval=1e999\ninterval=nan\n"
				    "interval=5000\n", why), 5);
	assert_string_equal(why, "line 1: a value out of range");
	assert_true(rc.interval == 0);
	assert_int_equal(parse(&rc, "color_scheme=pink\nconfig_version=2\n=x\nview=\n", why), 4);
	assert_int_equal(rc.color, -1);
	assert_string_equal(rc.view, "");
	/* control bytes and overlong values are refused, never kept */
	assert_int_equal(parse(&rc, "view=a\033[31mb\nsort=0123456789abcdefXYZ\n", why), 2);
	assert_string_equal(rc.view, "");
	assert_string_equal(rc.sort, "");
	/* sizes: [COUNTx]SIZE, powers of two, or "-" for none */
	assert_int_equal(parse(&rc, "sizes=-\n", why), 0);
	assert_string_equal(rc.sizes, "-");
	assert_int_equal(parse(&rc, "sizes=3M\nsizes=2M,,1G\nsizes=0x2M\n", why), 3);
	assert_string_equal(rc.sizes, "");
	/* a NUL in the middle is just a bad byte */
	assert_int_equal(ft_rc_parse("view=ma\0p\nsort=OWN\n", 19, &rc, why, sizeof(why)), 1);
	assert_string_equal(rc.sort, "OWN");
}

static void test_oversized(void **state)
{
	size_t len = FT_RC_MAX_BYTES + 100;
	char *big = malloc(len), why[160];
	struct ft_rc rc;

	(void)state;
	assert_non_null(big);
	memset(big, '#', len);
	memcpy(big + len - 10, "\nview=map\n", 10);	/* past the cap: not read */
	assert_int_equal(ft_rc_parse(big, len, &rc, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "longer than 65536 bytes"));
	assert_string_equal(rc.view, "");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_oversized),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
