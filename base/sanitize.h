/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one sanitiser for text that came from elsewhere (a recording, a
 * --root tree, a process name) on its way to a terminal, a text report or
 * a CSV file.  Kept as they are: printable UTF-8, newline and tab.
 * Escaped visibly: C0 controls and DEL ("\x1b"), C1 controls and the
 * bidirectional controls that reorder what a terminal shows (U+202E:
 * "\u{202e}"), and bytes that are not UTF-8 ("\xff").  An escape sequence
 * can then change no title, screen or clipboard, and no line can pretend
 * to say what it does not.
 */
#ifndef FT_BASE_SANITIZE_H
#define FT_BASE_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* True for a code point that is escaped (C0 but \t and \n, DEL, C1, bidi controls). */
bool ft_cp_unsafe(uint32_t cp);

/*
 * Decode one UTF-8 sequence from @p (@len bytes): its length (1-4) with
 * the code point in *@cp; 0 if @p ends inside a sequence that could still
 * be valid; -1 if the first byte starts no valid sequence (overlong,
 * surrogate, past U+10FFFF, a stray continuation byte).
 */
int ft_utf8_next(const unsigned char *p, size_t len, uint32_t *cp);

/*
 * @len bytes of @in made safe into @out (NUL-terminated, cut at a whole
 * character or escape to fit @sz).  Returns the length written.
 */
size_t ft_sanitize(const char *in, size_t len, char *out, size_t sz);

/*
 * The same for one line (a screen row, a name in a table): a newline or
 * a tab in it is escaped too, so a recorded name cannot draw a line of
 * its own.
 */
size_t ft_sanitize_line(const char *in, size_t len, char *out, size_t sz);

/* ft_sanitize_line() of a NUL-terminated string (a field) into @buf; returns @buf. */
const char *ft_safe(const char *s, char *buf, size_t sz);

/*
 * Make @f (stdout) pass every byte through the sanitiser on its way out:
 * the headless commands print through it, so no string they print can
 * carry a control sequence.  0, or -errno (then @f is unchanged).
 */
int ft_sanitize_stream(FILE **f);

#endif
