/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a terminal sends after ESC that ncurses leaves to fragtop (tui/ui.c
 * turns ncurses' own mouse decoding off: libncursesw 6.4 overflows its
 * stack on an SGR report of 35 numbers).  Read here, a byte at a time:
 * - xterm mouse reports: SGR, "CSI < b ; x ; y M" (press) or "m"
 *   (release), and X10, "CSI M" and three bytes;
 * - the bracketed-paste markers, "CSI 200 ~" and "CSI 201 ~";
 * - every other CSI or SS3 sequence, swallowed whole, so that its bytes
 *   are never taken for keys: a control byte inside a CSI does not end
 *   it (a terminal goes on with it too), ESC does (a new one), CAN and
 *   SUB cancel it;
 * - control strings (OSC "ESC ]", DCS "ESC P", APC "ESC _", PM, SOS),
 *   swallowed to their BEL or ST (ESC \\), FT_ESC_STR_MAX bytes at most.
 * Bounded: a report with more than three numbers, a number above 9999 or
 * a byte that has no place in it is malformed and dropped; it is read to
 * its final byte all the same, keeping nothing but counts.  Pure: bytes
 * in, a verdict out (tests/unit/test_termin.c, tests/fuzz/fuzz_termin.c).
 */
#ifndef FT_TUI_TERMIN_H
#define FT_TUI_TERMIN_H

#include <stdbool.h>

#define FT_ESC_MAX_NUM	9999
#define FT_ESC_STR_MAX	65536	/* a control string's bytes at most */

/* A mouse report: the button code as the terminal sent it, the cell (0-based). */
struct ft_mouse_ev {
	/* 0 1 2: left middle right; +32 motion; 64 65: wheel up, down; +4 +8 +16: modifiers */
	int button;
	int x, y;
	bool release;
};

/* A button code's meaning, modifiers aside. */
#define FT_MOUSE_LEFT(b)	(((b) & ~(4 | 8 | 16)) == 0)
#define FT_MOUSE_WHEEL(b)	(((b) & (64 | 32)) == 64 && ((b) & 3) < 2)	/* 64 up, 65 down */

enum ft_esc {
	FT_ESC_MORE,		/* feed the next byte */
	FT_ESC_MOUSE,		/* a whole mouse report: the event is filled */
	FT_ESC_PASTE_BEGIN,	/* bracketed paste: what follows was pasted, not typed */
	FT_ESC_PASTE_END,
	FT_ESC_DROP,		/* a sequence read whole, to be ignored (a malformed report too) */
	/* the bytes before this one are dropped; this one is not the sequence's */
	FT_ESC_BROKEN,
	FT_ESC_KEYS,		/* no sequence: ESC, and st->key when st->fed is 1, are keys */
};

struct ft_esc_state {
	enum { FT_ESC_START, FT_ESC_CSI, FT_ESC_SS3, FT_ESC_X10, FT_ESC_STR } at;
	int str_len;		/* a control string's bytes so far */
	bool str_esc;		/* it just had an ESC: the next byte ends it */
	bool sgr;		/* CSI <: an SGR mouse report */
	bool bad;		/* malformed: dropped at its final byte */
	bool digit;		/* the current number has a digit */
	int nnum;		/* numbers begun (the current one included) */
	int num[3];
	int x10[3], nx10;
	int fed;		/* bytes fed, counted to 2 */
	int key;		/* the first of them: with ESC, keys when the verdict is KEYS */
};

/* A sequence begins: ESC was read. */
void ft_esc_begin(struct ft_esc_state *st);

/* The next byte (0-255) after ESC. */
enum ft_esc ft_esc_feed(struct ft_esc_state *st, int byte, struct ft_mouse_ev *ev);

/* Nothing more came: KEYS when ESC (and a '[' or 'O') stood alone, else DROP. */
enum ft_esc ft_esc_end(const struct ft_esc_state *st);

#endif
