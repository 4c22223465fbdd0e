// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel-file reader reads to the end: a seq_file hands out at most
 * its own buffer per read, so a short read is not the end.  Checked on
 * this kernel's /proc/vmstat and /proc/zoneinfo (the same lines as a
 * read() loop to EOF, twice over the same open file) and on a regular
 * file larger than the first buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/file.h"

/* Everything a read() loop gets until read() returns 0. */
static char *read_all(const char *path, size_t *len)
{
	size_t cap = 4096;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_non_null(buf);
	assert_true(fd >= 0);
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = read(fd, buf + *len, cap - *len);
		assert_true(n >= 0);
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	return buf;
}

static size_t count(const char *buf, size_t len, const char *at_line_start)
{
	size_t i, n = 0, k = strlen(at_line_start);

	for (i = 0; i + k <= len; i++)
		if ((i == 0 || buf[i - 1] == '\n') && !memcmp(buf + i, at_line_start, k))
			n++;
	return n;
}

/* The last line's first word: the counter a short read loses first. */
static void last_word(const char *buf, size_t len, char *out, size_t sz)
{
	size_t end = len, start, w;

	while (end && buf[end - 1] == '\n')
		end--;
	start = end;
	while (start && buf[start - 1] != '\n')
		start--;
	for (w = start; w < end && buf[w] != ' '; w++)
		;
	snprintf(out, sz, "%.*s", (int)(w - start), buf + start);
}

static void same_lines(const char *rel, const char *prefix)
{
	char path[64], want_last[64], got_last[64];
	struct ft_file f;
	size_t want_len;
	char *want;
	int rootfd = open("/", O_PATH | O_DIRECTORY), pass;

	assert_true(rootfd >= 0);
	snprintf(path, sizeof(path), "/%s", rel);
	want = read_all(path, &want_len);
	last_word(want, want_len, want_last, sizeof(want_last));
	ft_file_init(&f, rel);
	for (pass = 0; pass < 2; pass++) {	/* the second reuses the open file */
		assert_int_equal(ft_file_read(&f, rootfd), 0);
		assert_int_equal(count(f.buf, f.len, prefix), count(want, want_len, prefix));
		assert_int_equal(count(f.buf, f.len, ""), count(want, want_len, ""));
		last_word(f.buf, f.len, got_last, sizeof(got_last));
		assert_string_equal(got_last, want_last);
	}
	ft_file_close(&f);
	free(want);
	close(rootfd);
}

static void vmstat_whole(void **state)
{
	(void)state;
	same_lines("proc/vmstat", "nr_");
}

static void zoneinfo_every_zone(void **state)
{
	(void)state;
	same_lines("proc/zoneinfo", "Node ");
}

static void regular_file_past_first_buffer(void **state)
{
	char dir[] = "/tmp/fragtop-file-XXXXXX", path[64];
	size_t i, len = 100000;
	char *text = malloc(len);
	struct ft_file f;
	FILE *out;
	int rootfd;

	(void)state;
	assert_non_null(text);
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < len; i++)
		text[i] = (char)('a' + i % 26);
	snprintf(path, sizeof(path), "%s/big", dir);
	out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(fwrite(text, 1, len, out), len);
	fclose(out);
	rootfd = open(dir, O_PATH | O_DIRECTORY);
	assert_true(rootfd >= 0);
	ft_file_init(&f, "big");
	assert_int_equal(ft_file_read(&f, rootfd), 0);
	assert_int_equal(f.len, len);
	assert_memory_equal(f.buf, text, len);
	ft_file_close(&f);
	close(rootfd);
	unlink(path);
	rmdir(dir);
	free(text);
}

/*
 * Readable now, asked without a wait: an empty pipe is not, one with a byte is; -1 skipped; past
 * 64, all.
 */
static void fds_readable(void **state)
{
	int p[2], q[2], fds[3], many[65], i;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	fds[0] = p[0], fds[1] = -1, fds[2] = q[0];
	assert_int_equal(ft_fds_readable(fds, 3), 0);
	assert_int_equal(write(q[1], "x", 1), 1);
	assert_int_equal(ft_fds_readable(fds, 3), 1);
	assert_int_equal(ft_fds_readable(fds, 2), 0);
	assert_int_equal(ft_fds_readable(fds, 0), 0);
	for (i = 0; i < 65; i++)
		many[i] = p[0];
	assert_int_equal(ft_fds_readable(many, 64), 0);	/* one look covers 64 */
	assert_int_equal(ft_fds_readable(many, 65), 65);	/* past it: read them all */
	close(p[0]), close(p[1]), close(q[0]), close(q[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vmstat_whole),
		cmocka_unit_test(zoneinfo_every_zone),
		cmocka_unit_test(regular_file_past_first_buffer),
		cmocka_unit_test(fds_readable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
