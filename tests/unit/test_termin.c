// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Terminal input after ESC (tui/termin.c): SGR and X10 mouse reports,
 * the bracketed-paste markers, other CSI and SS3 sequences swallowed
 * whole (a control byte inside one too: ESC [ 1 LF q quits nothing),
 * OSC, DCS, APC, PM and SOS strings swallowed to BEL or ST, malformed and oversized reports dropped
 * at their end (the 35 numbers that crashed libncursesw 6.4 among them), and ESC followed by a
 * plain key handed back as keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/termin.h"

/*
 * Feed @s (the bytes after ESC) until a verdict; *@used: the bytes it took. MORE when @s ran out.
 */
static enum ft_esc run(const char *s, size_t len, struct ft_mouse_ev *ev, size_t *used)
{
	struct ft_esc_state st;
	enum ft_esc r = FT_ESC_MORE;
	size_t i;

	ft_esc_begin(&st);
	for (i = 0; i < len && r == FT_ESC_MORE; i++)
		r = ft_esc_feed(&st, (unsigned char)s[i], ev);
	if (used)
		*used = i;
	return r;
}
#define RUN(s, ev) run(s, sizeof(s) - 1, ev, NULL)

static void test_sgr(void **state)
{
	struct ft_mouse_ev ev;

	(void)state;
	assert_int_equal(RUN("[<0;5;3M", &ev), FT_ESC_MOUSE);
	assert_int_equal(ev.button, 0);
	assert_int_equal(ev.x, 4);
	assert_int_equal(ev.y, 2);
	assert_false(ev.release);
	assert_true(FT_MOUSE_LEFT(ev.button));
	assert_int_equal(RUN("[<0;5;3m", &ev), FT_ESC_MOUSE);
	assert_true(ev.release);
	assert_int_equal(RUN("[<65;120;40M", &ev), FT_ESC_MOUSE);
	assert_true(FT_MOUSE_WHEEL(ev.button));
	assert_int_equal(ev.button & 1, 1);	/* down */
	assert_int_equal(ev.x, 119);
	/* ctrl-click: still the left button */
	assert_int_equal(RUN("[<16;1;1M", &ev), FT_ESC_MOUSE);
	assert_true(FT_MOUSE_LEFT(ev.button));
	assert_int_equal(RUN("[<32;1;1M", &ev), FT_ESC_MOUSE);	/* a drag: not a click */
	assert_false(FT_MOUSE_LEFT(ev.button));
	assert_false(FT_MOUSE_WHEEL(ev.button));
}

static void test_malformed(void **state)
{
	char big[80000];
	struct ft_mouse_ev ev;
	size_t n, used;

	(void)state;
	assert_int_equal(RUN("[<0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0;0"
			     ";0;M", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[<0;99999;1M", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[<0;;1M", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[<0;1M", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[<0;1;1;M", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[<0;0;1M", &ev), FT_ESC_DROP);	/* columns count from 1 */
	assert_int_equal(RUN("[<0;1;1X", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[<0;1 ;1M", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[<0;1?;1M", &ev), FT_ESC_DROP);
	/* 40,000 numbers: read to the end, nothing grows */
	big[0] = '[';
	big[1] = '<';
	for (n = 2; n + 2 < sizeof(big) - 1; n += 2)
		memcpy(big + n, "7;", 2);
	big[n++] = 'M';
	assert_int_equal(run(big, n, &ev, &used), FT_ESC_DROP);
	assert_int_equal(used, n);
	/* a control byte does not end it (a terminal goes on too): no key comes out of it */
	assert_int_equal(run("[<0;1\n", 6, &ev, &used), FT_ESC_MORE);
	/* malformed: dropped whole */
	assert_int_equal(run("[<0;1\n;1M", 9, &ev, &used), FT_ESC_DROP);
	assert_int_equal(used, 9);
	/* ESC [ 1 LF q: q is no key */
	assert_int_equal(run("[1\nq", 4, &ev, &used), FT_ESC_DROP);
	assert_int_equal(used, 4);
	/* beyond ASCII or ESC: broken off, that byte not the sequence's; CAN cancels it */
	assert_int_equal(run("[<0;1\x80", 6, &ev, &used), FT_ESC_BROKEN);
	assert_int_equal(run("[1\x1b[2J", 7, &ev, &used), FT_ESC_BROKEN);
	assert_int_equal(used, 3);
	assert_int_equal(run("[1\x18q", 4, &ev, &used), FT_ESC_DROP);
	assert_int_equal(used, 3);
}

static void test_other_sequences(void **state)
{
	struct ft_mouse_ev ev;
	struct ft_esc_state st;

	(void)state;
	assert_int_equal(RUN("[200~", &ev), FT_ESC_PASTE_BEGIN);
	assert_int_equal(RUN("[201~", &ev), FT_ESC_PASTE_END);
	assert_int_equal(RUN("[202~", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[2J", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[?1;2c", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("[1;5H", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("OP", &ev), FT_ESC_DROP);
	assert_int_equal(RUN("O\x01", &ev), FT_ESC_BROKEN);
	/* control strings, swallowed to BEL or ST: not one of their bytes is a key */
	assert_int_equal(run("]0;qqq\x07", 7, &ev, NULL), FT_ESC_DROP);		/* OSC ... BEL */
	assert_int_equal(run("]0;qqq\x1b\\", 8, &ev, NULL), FT_ESC_DROP);	/* OSC ... ST */
	assert_int_equal(run("Pqq\x1b\\", 5, &ev, NULL), FT_ESC_DROP);		/* DCS */
	assert_int_equal(run("_q\x1b\\", 4, &ev, NULL), FT_ESC_DROP);		/* APC */
	assert_int_equal(run("^q\x18", 3, &ev, NULL), FT_ESC_DROP);		/* PM, cancelled */
	{
		static char big[FT_ESC_STR_MAX + 8];
		size_t used;

		big[0] = ']';
		memset(big + 1, 'q', sizeof(big) - 1);
		/* bounded */
		assert_int_equal(run(big, sizeof(big), &ev, &used), FT_ESC_DROP);
		assert_int_equal(used, FT_ESC_STR_MAX + 2);
	}
	/* X10: CSI M and three bytes, each 32 more than the value */
	assert_int_equal(RUN("[M !\"", &ev), FT_ESC_MOUSE);
	assert_int_equal(ev.button, 0);
	assert_int_equal(ev.x, 0);
	assert_int_equal(ev.y, 1);
	assert_int_equal(RUN("[M#!!", &ev), FT_ESC_MOUSE);
	assert_true(ev.release);
	assert_int_equal(RUN("[M  !", &ev), FT_ESC_DROP);	/* column 0 */
	/* ESC and a plain key: keys */
	ft_esc_begin(&st);
	assert_int_equal(ft_esc_feed(&st, 'x', &ev), FT_ESC_KEYS);
	assert_int_equal(st.key, 'x');
	assert_int_equal(st.fed, 1);
	/* input ran out: ESC alone and ESC [ are keys, a partial report is dropped */
	ft_esc_begin(&st);
	assert_int_equal(ft_esc_end(&st), FT_ESC_KEYS);
	assert_int_equal(st.fed, 0);
	assert_int_equal(ft_esc_feed(&st, '[', &ev), FT_ESC_MORE);
	assert_int_equal(ft_esc_end(&st), FT_ESC_KEYS);
	assert_int_equal(st.key, '[');
	assert_int_equal(ft_esc_feed(&st, '<', &ev), FT_ESC_MORE);
	assert_int_equal(ft_esc_end(&st), FT_ESC_DROP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sgr),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_other_sequences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
