// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The output-file opener: mode 0600, never through a symbolic link, an
 * existing file refused unless replaced, and replacing swaps the name
 * (a planted link is replaced, its target untouched).
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/outfile.h"

static char dir[64];

static void path(char *buf, const char *name)
{
	snprintf(buf, 256, "%s/%s", dir, name);
}

static void put(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void expect(const char *p, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(p, "r");

	assert_non_null(f);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	assert_string_equal(buf, text);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/fragtop-outfile-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void test_new_file_0600(void **state)
{
	char p[256];
	struct stat st;
	int fd;

	(void)state;
	umask(022);
	path(p, "new");
	fd = ft_outfile_create(p, false);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	close(fd);
}

/* Output anyone may read (a plot): the mode asked under the umask, new or replacing. */
static void test_mode_under_umask(void **state)
{
	char p[256];
	struct stat st;
	int fd;

	(void)state;
	umask(022);
	path(p, "plot.svg");
	fd = ft_outfile_create_mode(p, false, 0666);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	close(fd);
	fd = ft_outfile_create_mode(p, true, 0666);	/* replaced: a new file renamed over it */
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	close(fd);
	umask(077);
	fd = ft_outfile_create_mode(p, true, 0666);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	close(fd);
	umask(022);
}

static void test_existing_refused(void **state)
{
	char p[256];

	(void)state;
	path(p, "old");
	put(p, "keep me\n");
	assert_int_equal(ft_outfile_create(p, false), -EEXIST);
	expect(p, "keep me\n");
}

static void test_symlink_never_followed(void **state)
{
	char target[256], link[256], msg[160];
	struct stat st;
	int fd;

	(void)state;
	path(target, "victim");
	path(link, "planted");
	put(target, "root's file\n");
	assert_int_equal(symlink(target, link), 0);
	/* refused without replace, with a reason */
	assert_int_equal(ft_outfile_create(link, false), -ELOOP);
	assert_non_null(strstr(ft_outfile_strerror(-ELOOP, "--force", msg, sizeof(msg)),
			       "symbolic link"));
	expect(target, "root's file\n");
	/* replaced, not followed: the link is now our file, the target unchanged */
	fd = ft_outfile_create(link, true);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "ours\n", 5), 5);
	close(fd);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	expect(link, "ours\n");
	expect(target, "root's file\n");
}

static void test_dangling_symlink(void **state)
{
	char link[256], target[256];
	struct stat st;

	(void)state;
	path(link, "dangling");
	path(target, "nowhere");
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(ft_outfile_create(link, false), -ELOOP);
	/* the link's target was not created through it */
	assert_int_equal(lstat(target, &st), -1);
}

static void test_replace_file(void **state)
{
	char p[256];
	struct stat before, after;
	int fd;

	(void)state;
	path(p, "rec");
	put(p, "old content\n");
	assert_int_equal(chmod(p, 0644), 0);
	assert_int_equal(stat(p, &before), 0);
	fd = ft_outfile_create(p, true);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &after), 0);
	assert_true(after.st_ino != before.st_ino);	/* a new file, not the old one truncated */
	assert_int_equal(after.st_mode & 07777, 0600);
	close(fd);
	assert_int_equal(stat(p, &after), 0);
	assert_int_equal(after.st_size, 0);
}

static void test_directory(void **state)
{
	(void)state;
	assert_int_equal(ft_outfile_create(dir, false), -EISDIR);
	assert_int_equal(ft_outfile_create(dir, true), -EISDIR);
}

/* Names in @d (not . and ..) as "a b c": what a directory holds, temp files included. */
static void listing(const char *d, char *out, size_t sz)
{
	char cmd[256];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "ls -A %s | tr '\\n' ' '", d);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sz - 1, p);
	out[n] = '\0';
	pclose(p);
}

/*
 * The directory swapped for a link between open and commit (as a user
 * racing root's TUI at quit): the file lands in the directory that was
 * opened, nothing is written through the link, and no temp file is left
 * in either.  Aborted the same way: nothing left at all.
 */
static void test_atomic_swapped_dir(void **state)
{
	char d[256], moved[256], other[256], file[300], where[600], got[256];
	struct ft_atomic a;
	int i, err;

	(void)state;
	path(d, "cfg");
	path(moved, "cfg.moved");
	path(other, "elsewhere");
	snprintf(file, sizeof(file), "%s/fragtoprc", d);
	for (i = 0; i < 2; i++) {
		assert_int_equal(mkdir(d, 0700), 0);
		assert_int_equal(mkdir(other, 0700), 0);
		assert_int_equal(ft_atomic_open_in(&a, file, O_NOFOLLOW), 0);
		fputs("view=map\n", a.f);
		assert_int_equal(rename(d, moved), 0);
		assert_int_equal(symlink(other, d), 0);
		if (i == 0) {
			assert_int_equal(ft_atomic_commit(&a, file, 0600), 0);
			snprintf(where, sizeof(where), "%s/fragtoprc", moved);
			expect(where, "view=map\n");
			listing(moved, got, sizeof(got));
			assert_string_equal(got, "fragtoprc ");
		} else {
			ft_atomic_abort(&a);
			listing(moved, got, sizeof(got));
			assert_string_equal(got, "");
		}
		listing(other, got, sizeof(got));
		assert_string_equal(got, "");
		/* a link where the directory should be: not opened through */
		err = ft_atomic_open_in(&a, file, O_NOFOLLOW);
		/* O_DIRECTORY's word, or O_NOFOLLOW's */
		assert_true(err == -ENOTDIR || err == -ELOOP);
		listing(other, got, sizeof(got));
		assert_string_equal(got, "");
		assert_int_equal(unlink(d), 0);
		snprintf(where, sizeof(where), "rm -rf %s %s", moved, other);
		assert_int_equal(system(where), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_file_0600),
		cmocka_unit_test(test_mode_under_umask),
		cmocka_unit_test(test_existing_refused),
		cmocka_unit_test(test_symlink_never_followed),
		cmocka_unit_test(test_dangling_symlink),
		cmocka_unit_test(test_replace_file),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_atomic_swapped_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
