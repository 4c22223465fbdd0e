// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sanitiser and the JSON string writer: what passes, what is escaped
 * and how, cuts that keep whole characters, a stream whose writes split
 * a UTF-8 character, and JSON that stays valid UTF-8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/json.h"
#include "base/sanitize.h"

static void expect(const char *in, size_t len, const char *want)
{
	char out[256];

	ft_sanitize(in, len, out, sizeof(out));
	assert_string_equal(out, want);
}

static void test_kept(void **state)
{
	(void)state;
	expect("plain text\tand a tab\n", 21, "plain text\tand a tab\n");
	/* µs, CJK, emoji */
	expect("\xc2\xb5s 日本 \xf0\x9f\x90\xa7", 15, "\xc2\xb5s 日本 \xf0\x9f\x90\xa7");
}

static void test_escaped(void **state)
{
	(void)state;
	expect("\x1b]0;pwned\x07", 10, "\\x1b]0;pwned\\x07");			/* OSC title */
	/* OSC 52 clipboard */
	expect("\x1b]52;c;aGk=\x07", 12, "\\x1b]52;c;aGk=\\x07");
	expect("a\rb\x7f", 4, "a\\x0db\\x7f");					/* CR, DEL */
	expect("\xc2\x9b" "31m", 5, "\\u{009b}31m");				/* C1 CSI */
	expect("x\xe2\x80\xaey", 5, "x\\u{202e}y");				/* RLO */
	expect("\xe2\x81\xa6i\xe2\x81\xa9", 7, "\\u{2066}i\\u{2069}");	/* isolates */
	expect("\xe2\x80\x8f", 3, "\\u{200f}");					/* RLM */
	expect("a\0b", 3, "a\\x00b");						/* NUL inside */
}

static void test_invalid_utf8(void **state)
{
	(void)state;
	expect("\xff", 1, "\\xff");
	expect("\xc0\xaf", 2, "\\xc0\\xaf");			/* overlong '/' */
	expect("\xed\xa0\x80", 3, "\\xed\\xa0\\x80");		/* a surrogate */
	expect("\xf4\x90\x80\x80", 4, "\\xf4\\x90\\x80\\x80");	/* past U+10FFFF */
	expect("ok\xe2\x80", 4, "ok\\xe2\\x80");		/* cut at the end */
	expect("\x80x", 2, "\\x80x");				/* a stray continuation */
}

static void test_cut_whole(void **state)
{
	char out[8];

	(void)state;
	/* 7 bytes of room: "ab" + an escape of 4 fits, the next escape does not */
	assert_int_equal(ft_sanitize("ab\x1b\x1b", 4, out, sizeof(out)), 6);
	assert_string_equal(out, "ab\\x1b");
	assert_int_equal(ft_sanitize("abcd日", 7, out, 7), 4);	/* 日 needs 3 more */
	assert_string_equal(out, "abcd");
}

/* Writes split anywhere, even inside a character, give the same text. */
static void test_stream(void **state)
{
	static const char in[] = "host \x1b]0;x\x07 \xe2\x80\xae \xc2\xb5 \xff end\n";
	char got[512] = "";
	FILE *f, *r;
	size_t i, n;
	int fd;

	(void)state;
	for (i = 1; i < sizeof(in) - 1; i++) {
		r = tmpfile();
		assert_non_null(r);
		fd = dup(fileno(r));
		f = fdopen(fd, "w");
		assert_int_equal(ft_sanitize_stream(&f), 0);
		setvbuf(f, NULL, _IONBF, 0);	/* each fwrite reaches the sanitiser */
		fwrite(in, 1, i, f);
		fwrite(in + i, 1, sizeof(in) - 1 - i, f);
		assert_int_equal(fclose(f), 0);
		close(fd);
		rewind(r);
		n = fread(got, 1, sizeof(got) - 1, r);
		got[n] = '\0';
		fclose(r);
		assert_string_equal(got, "host \\x1b]0;x\\x07 \\u{202e} \xc2\xb5 \\xff end\n");
	}
}

/*
 * A field or a screen row is one line: a newline or a tab in a recorded
 * name is escaped there (a cgroup "/a\nb" drew a line of its own in
 * report --by cgroup and stray text in the TUI's views), kept in a stream.
 */
static void test_line(void **state)
{
	char out[64];

	(void)state;
	assert_string_equal(ft_safe("/kube\npods\tx", out, sizeof(out)), "/kube\\x0apods\\x09x");
	assert_int_equal(ft_sanitize_line("a\nb", 3, out, sizeof(out)), 6);
	assert_string_equal(out, "a\\x0ab");
	/* a stream keeps its lines */
	assert_int_equal(ft_sanitize("a\nb\tc", 5, out, sizeof(out)), 5);
	assert_string_equal(out, "a\nb\tc");
}

static void test_json_utf8(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct ft_json j;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	ft_json_init(&j, f, false);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, "k\xff", "a\xff\x1b\xe2\x80\xae\xc2\xb5\"\\");
	ft_json_obj_end(&j);
	ft_json_end(&j);
	fclose(f);
	assert_non_null(strstr(buf, "{\"k\\ufffd\":\"a\\ufffd\\u001b\\u202e\xc2\xb5\\\"\\\\\"}"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_cut_whole),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
