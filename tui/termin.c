// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/termin.h"

#include <string.h>

void ft_esc_begin(struct ft_esc_state *st)
{
	memset(st, 0, sizeof(*st));
}

/* A byte of a CSI sequence's parameters ('0'-'9', ';', and the private '<' '=' '>' '?' ':'). */
static enum ft_esc csi_param(struct ft_esc_state *st, int b)
{
	if (b >= '0' && b <= '9') {
		if (st->nnum == 0)
			st->nnum = 1;
		if (st->nnum <= 3) {
			int *n = &st->num[st->nnum - 1];

			*n = *n * 10 + (b - '0');
			if (*n > FT_ESC_MAX_NUM) {
				st->bad = true;
				*n = FT_ESC_MAX_NUM;
			}
		}
		st->digit = true;
	} else if (b == ';') {
		if (!st->digit)
			st->bad = true;		/* an empty number */
		st->nnum = (st->nnum ? st->nnum : 1) + 1;
		if (st->nnum > 3) {
			st->bad = true;
			st->nnum = 4;		/* counted no further: nothing grows */
		}
		st->digit = false;
	} else {
		st->bad = true;			/* '<' '=' '>' '?' ':' past the start */
	}
	return FT_ESC_MORE;
}

static enum ft_esc csi_final(struct ft_esc_state *st, int b, struct ft_mouse_ev *ev)
{
	if (st->sgr) {
		if ((b != 'M' && b != 'm') || st->bad || st->nnum != 3 || !st->digit ||
		    st->num[1] < 1 || st->num[2] < 1)
			return FT_ESC_DROP;
		*ev = (struct ft_mouse_ev){ .button = st->num[0], .x = st->num[1] - 1,
					    .y = st->num[2] - 1,
					    .release = b == 'm' };
		return FT_ESC_MOUSE;
	}
	if (b == 'M' && st->nnum == 0 && !st->bad) {	/* X10: three bytes follow */
		st->at = FT_ESC_X10;
		return FT_ESC_MORE;
	}
	if (b == '~' && st->nnum == 1 && !st->bad && (st->num[0] == 200 || st->num[0] == 201))
		return st->num[0] == 200 ? FT_ESC_PASTE_BEGIN : FT_ESC_PASTE_END;
	return FT_ESC_DROP;
}

static enum ft_esc csi(struct ft_esc_state *st, int b, struct ft_mouse_ev *ev)
{
	bool first = !st->sgr && !st->nnum && !st->bad && !st->digit;

	if (first && b == '<') {
		st->sgr = true;
		return FT_ESC_MORE;
	}
	if (b >= 0x30 && b <= 0x3f) {
		if (first && b != ';' && (b < '0' || b > '9'))
			/* another private marker ('?' '=' '>'): a sequence not ours */
			return FT_ESC_MORE;
		return csi_param(st, b);
	}
	if (b >= 0x20 && b <= 0x2f) {		/* intermediate bytes: no mouse report has them */
		st->bad = true;
		return FT_ESC_MORE;
	}
	if (b >= 0x40 && b <= 0x7e)
		return csi_final(st, b, ev);
	if (b == 0x18 || b == 0x1a)
		return FT_ESC_DROP;		/* CAN, SUB: the sequence is cancelled */
	if (b == 0x1b || b > 0x7f)
		/* a new sequence, or beyond ASCII: not this one's */
		return FT_ESC_BROKEN;
	/* another control byte (or DEL): a terminal goes on with the */
	st->bad = true;
	/* sequence, so must fragtop: its final byte is no key */
	return FT_ESC_MORE;
}

/*
 * A control string (OSC, DCS, APC, PM, SOS): swallowed to its end, BEL or
 * ST (ESC \), or cancelled by CAN or SUB; past FT_ESC_STR_MAX bytes
 * dropped (what follows is taken for keys again).
 */
static enum ft_esc str(struct ft_esc_state *st, int b)
{
	if (st->str_esc)
		/* ST, or ESC and something else: ended either way */
		return FT_ESC_DROP;
	if (b == 0x07 || b == 0x18 || b == 0x1a || ++st->str_len > FT_ESC_STR_MAX)
		return FT_ESC_DROP;
	st->str_esc = b == 0x1b;
	return FT_ESC_MORE;
}

enum ft_esc ft_esc_feed(struct ft_esc_state *st, int byte, struct ft_mouse_ev *ev)
{
	int b = byte & 0xff;

	if (st->fed < 2)
		st->fed++;
	switch (st->at) {
	case FT_ESC_START:
		st->key = b;
		if (b == '[')
			st->at = FT_ESC_CSI;
		else if (b == 'O')
			st->at = FT_ESC_SS3;
		else if (b == ']' || b == 'P' || b == '_' || b == '^' || b == 'X')
			st->at = FT_ESC_STR;	/* OSC, DCS, APC, PM, SOS */
		else
			return FT_ESC_KEYS;	/* Alt and a key, or Escape then a key */
		return FT_ESC_MORE;
	case FT_ESC_STR:
		return str(st, b);
	case FT_ESC_SS3:
		return b >= 0x40 && b <= 0x7e ? FT_ESC_DROP : FT_ESC_BROKEN;
	case FT_ESC_X10:
		if (b < 32)
			return FT_ESC_BROKEN;
		st->x10[st->nx10++] = b - 32;
		if (st->nx10 < 3)
			return FT_ESC_MORE;
		if (st->x10[1] < 1 || st->x10[2] < 1)
			return FT_ESC_DROP;
		*ev = (struct ft_mouse_ev){ .button = st->x10[0], .x = st->x10[1] - 1,
					    .y = st->x10[2] - 1,
					    .release = (st->x10[0] & 3) == 3 &&
					    !(st->x10[0] & 64) };
		return FT_ESC_MOUSE;
	case FT_ESC_CSI:
		break;
	}
	return csi(st, b, ev);
}

enum ft_esc ft_esc_end(const struct ft_esc_state *st)
{
	if (st->fed == 0 || (st->fed == 1 && st->at != FT_ESC_X10))
		return FT_ESC_KEYS;	/* ESC alone, or ESC and '[' or 'O': typed keys */
	return FT_ESC_DROP;
}
