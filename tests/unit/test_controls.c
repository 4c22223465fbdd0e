// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * controls/: validation, writes, read-back, audit, undo and restore, all
 * against a fake root in a temporary directory (never the real /proc).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#include "controls/control.h"

struct fake {
	char dir[64];
	int rootfd;
	struct ft_ctl *ctl;
	int hook_calls;
	uint64_t hook_last_seq;
};

static void put(struct fake *f, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	for (slash = strchr(path + strlen(f->dir) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *get(struct fake *f, const char *rel)
{
	static char buf[256];
	char path[512];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void hook(void *ctx, const struct ft_audit *a)
{
	struct fake *f = ctx;

	f->hook_calls++;
	f->hook_last_seq = a->seq;
}

static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/fragtop-ctl-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	put(f, "proc/sys/vm/watermark_boost_factor", "15000\n");
	put(f, "proc/sys/vm/watermark_scale_factor", "10\n");
	put(f, "proc/sys/vm/extfrag_threshold", "500\n");
	put(f, "proc/sys/vm/compact_memory", "");
	put(f, "proc/sys/vm/drop_caches", "");
	put(f, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put(f, "sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
	    "always inherit madvise [never]\n");
	put(f, "sys/devices/system/node/node0/compact", "");
	f->rootfd = open(f->dir, O_RDONLY | O_DIRECTORY);
	assert_true(f->rootfd >= 0);
	f->ctl = malloc(sizeof(*f->ctl));
	assert_non_null(f->ctl);
	ft_ctl_init(f->ctl, f->rootfd, NULL);
	f->ctl->hook = hook;
	f->ctl->hook_ctx = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fake *f = *state;
	char cmd[128];

	close(f->rootfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", f->dir);
	free(f->ctl);
	free(f);
	return 0;
}

#define BOOST "proc/sys/vm/watermark_boost_factor"

static void test_validate(void **state)
{
	const struct ft_knob *k = ft_knob_find("vm.watermark_boost_factor");
	const struct ft_knob *x = ft_knob_find("extfrag_threshold");
	const struct ft_knob *n = ft_knob_find("compact_node");
	char canon[FT_KNOB_TEXT], why[160];
	int node;

	(void)state;
	assert_non_null(k);
	assert_null(ft_knob_find("nonsense"));
	assert_int_equal(ft_knob_validate(k, " 4321\n", NULL, canon, &node, why, sizeof(why)), 0);
	assert_string_equal(canon, "4321");
	assert_int_equal(node, -1);
	assert_int_equal(ft_knob_validate(k, "-5", NULL, canon, &node, why, sizeof(why)), -ERANGE);
	assert_string_equal(why, "-5 is below the minimum 0");
	assert_int_equal(ft_knob_validate(k, "abc", NULL, canon, &node, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "'abc' is not an integer");
	assert_int_equal(ft_knob_validate(k, "12abc", NULL, canon, &node, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(ft_knob_validate(k, "", NULL, canon, &node, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "no value given");
	assert_int_equal(ft_knob_validate(k, "2147483648", NULL, canon, &node, why, sizeof(why)),
			 -ERANGE);
	assert_int_equal(ft_knob_validate(k, "99999999999999999999", NULL, canon, &node, why,
					  sizeof(why)),
			 -ERANGE);
	assert_int_equal(ft_knob_validate(x, "1001", NULL, canon, &node, why, sizeof(why)),
			 -ERANGE);
	assert_string_equal(why, "1001 is above the maximum 1000");
	assert_int_equal(ft_knob_validate(n, "3", NULL, canon, &node, why, sizeof(why)), 0);
	assert_string_equal(canon, "1");
	assert_int_equal(node, 3);
}

static void test_set_ok_and_audit(void **state)
{
	struct fake *f = *state;
	const struct ft_audit *a = ft_ctl_set(f->ctl, "watermark_boost_factor", "4321");

	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_string_equal(a->old, "15000");
	assert_string_equal(a->new, "4321");
	assert_string_equal(a->readback, "4321");
	assert_string_equal(a->msg, "watermark_boost_factor 15000 -> 4321");
	assert_int_equal(a->uid, getuid());
	assert_true(a->t_ns > 0);
	assert_string_equal(get(f, BOOST), "4321\n");
	assert_int_equal(f->hook_calls, 1);
	assert_int_equal(f->hook_last_seq, 1);
	assert_int_equal(ft_ctl_audit_kept(f->ctl), 1);
	assert_ptr_equal(ft_ctl_audit_get(f->ctl, 0), a);
	assert_int_equal(ft_ctl_nr_changed(f->ctl), 1);
}

/* Refused values leave the file byte for byte as it was, and are audited. */
static void test_refusals_change_nothing(void **state)
{
	static const char *const bad[] = { "-5", "abc", "", "1e3", "99999999999999999999", "0x10" };
	struct fake *f = *state;
	const struct ft_audit *a;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = ft_ctl_set(f->ctl, "watermark_boost_factor", bad[i]);
		assert_int_equal(a->outcome, FT_CTL_INVALID);
		assert_non_null(strstr(a->msg, "nothing changed"));
		assert_string_equal(get(f, BOOST), "15000\n");
	}
	a = ft_ctl_set(f->ctl, "no_such_knob", "1");
	assert_int_equal(a->outcome, FT_CTL_INVALID);
	assert_string_equal(a->knob, "no_such_knob");
	assert_non_null(strstr(a->msg, "unknown knob"));
	a = ft_ctl_set(f->ctl, "thp_enabled", "sometimes");
	assert_int_equal(a->outcome, FT_CTL_INVALID);
	assert_string_equal(a->msg,
			    "thp_enabled: 'sometimes' is not one of always, madvise, never; "
			     "nothing changed");
	assert_string_equal(get(f, "sys/kernel/mm/transparent_hugepage/enabled"),
			    "always [madvise] never\n");
	assert_int_equal(f->hook_calls, 8);
	assert_int_equal(f->ctl->undo_nr, 0);
	assert_null(ft_ctl_undo(f->ctl));
}

static void test_absent_knob(void **state)
{
	struct fake *f = *state;
	const struct ft_audit *a = ft_ctl_set(f->ctl, "fragment_stall_order", "2");
	char path[512];
	struct stat st;

	assert_int_equal(a->outcome, FT_CTL_ABSENT);
	assert_string_equal(a->msg, "fragment_stall_order: absent on this kernel (needs the "
			     "fragmentation stall patch); nothing changed");
	/* and it was not created */
	snprintf(path, sizeof(path), "%s/proc/sys/vm/fragment_stall_order", f->dir);
	assert_int_equal(stat(path, &st), -1);
	a = ft_ctl_set(f->ctl, "compact_node", "5");
	assert_int_equal(a->outcome, FT_CTL_ABSENT);
	assert_string_equal(a->msg, "compact_node: there is no node 5");
}

static void test_read_only(void **state)
{
	struct fake *f = *state;
	const struct ft_audit *a;

	ft_ctl_init(f->ctl, f->rootfd, "fragtop runs --read-only");
	a = ft_ctl_set(f->ctl, "watermark_boost_factor", "0");
	assert_int_equal(a->outcome, FT_CTL_READ_ONLY);
	assert_string_equal(a->msg,
			    "watermark_boost_factor: not set to 0: fragtop runs --read-only");
	a = ft_ctl_step(f->ctl, ft_knob_find("watermark_boost_factor"), -1);
	assert_int_equal(a->outcome, FT_CTL_READ_ONLY);
	a = ft_ctl_set(f->ctl, "compact_memory", "1");
	assert_int_equal(a->outcome, FT_CTL_READ_ONLY);
	assert_string_equal(get(f, BOOST), "15000\n");
	assert_int_equal(ft_ctl_audit_kept(f->ctl), 3);
}

static void test_step(void **state)
{
	struct fake *f = *state;
	const struct ft_knob *k = ft_knob_find("watermark_boost_factor");
	const struct ft_knob *sel = ft_knob_find("thp_enabled");
	const struct ft_audit *a;

	a = ft_ctl_step(f->ctl, k, -1);
	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_string_equal(get(f, BOOST), "12500\n");
	a = ft_ctl_step(f->ctl, k, +1);
	assert_string_equal(get(f, BOOST), "15000\n");
	/* off-step values land on the next multiple of the step */
	put(f, BOOST, "1000\n");
	ft_ctl_step(f->ctl, k, +1);
	assert_string_equal(get(f, BOOST), "2500\n");
	put(f, BOOST, "1000\n");
	ft_ctl_step(f->ctl, k, -1);
	assert_string_equal(get(f, BOOST), "0\n");
	a = ft_ctl_step(f->ctl, k, -1);
	assert_int_equal(a->outcome, FT_CTL_INVALID);
	assert_string_equal(a->msg, "watermark_boost_factor is already at its minimum (0)");
	/* a selector steps through its options */
	a = ft_ctl_step(f->ctl, sel, +1);
	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_string_equal(a->msg, "thp_enabled madvise -> never");
	assert_string_equal(get(f, "sys/kernel/mm/transparent_hugepage/enabled"), "never\n");
	a = ft_ctl_step(f->ctl, ft_knob_find("drop_caches"), 1);
	assert_int_equal(a->outcome, FT_CTL_INVALID);
}

static void test_undo_and_restore(void **state)
{
	struct fake *f = *state;
	const struct ft_audit *a;

	ft_ctl_set(f->ctl, "watermark_boost_factor", "0");
	ft_ctl_set(f->ctl, "watermark_boost_factor", "5000");
	ft_ctl_set(f->ctl, "extfrag_threshold", "900");
	assert_int_equal(f->ctl->undo_nr, 3);
	assert_int_equal(ft_ctl_nr_changed(f->ctl), 2);

	a = ft_ctl_undo(f->ctl);
	assert_int_equal(a->how, FT_CTL_UNDO);
	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_string_equal(a->msg, "extfrag_threshold 900 -> 500");
	assert_string_equal(get(f, "proc/sys/vm/extfrag_threshold"), "500\n");
	a = ft_ctl_undo(f->ctl);
	assert_string_equal(get(f, BOOST), "0\n");
	/* someone else changed it meanwhile: undo still goes back, and says so */
	put(f, BOOST, "777\n");
	a = ft_ctl_undo(f->ctl);
	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_string_equal(a->msg, "watermark_boost_factor 777 -> 15000 (it was changed outside "
			     "fragtop from 0)");
	assert_null(ft_ctl_undo(f->ctl));

	/* restore puts every knob back to what fragtop first found */
	ft_ctl_set(f->ctl, "watermark_boost_factor", "2500");
	ft_ctl_set(f->ctl, "watermark_scale_factor", "200");
	ft_ctl_set(f->ctl, "thp_enabled", "always");
	assert_int_equal(ft_ctl_nr_changed(f->ctl), 3);
	assert_int_equal(ft_ctl_restore_all(f->ctl), 0);
	assert_string_equal(get(f, BOOST), "15000\n");
	assert_string_equal(get(f, "proc/sys/vm/watermark_scale_factor"), "10\n");
	assert_string_equal(get(f, "sys/kernel/mm/transparent_hugepage/enabled"), "madvise\n");
	assert_int_equal(ft_ctl_nr_changed(f->ctl), 0);
	assert_int_equal(f->ctl->undo_nr, 0);
	a = ft_ctl_audit_get(f->ctl, ft_ctl_audit_kept(f->ctl) - 1);
	assert_int_equal(a->how, FT_CTL_RESTORE);
	/* nothing left to restore: no writes, no entries */
	{
		uint64_t n = f->ctl->audit_nr;

		assert_int_equal(ft_ctl_restore_all(f->ctl), 0);
		assert_int_equal(f->ctl->audit_nr, n);
	}
}

/*
 * A knob file a tree makes a link (to /dev/null here) or a directory: the
 * current value cannot be read, so nothing is written through it.
 */
static void test_unreadable_refused(void **state)
{
	struct fake *f = *state;
	const struct ft_audit *a;
	char path[512];

	snprintf(path, sizeof(path), "%s/" BOOST, f->dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/dev/null", path), 0);
	a = ft_ctl_set(f->ctl, "watermark_boost_factor", "100");
	assert_int_equal(a->outcome, FT_CTL_FAILED);
	assert_int_equal(a->err, -ELOOP);
	assert_string_equal(a->msg,
			    "watermark_boost_factor: cannot read the current value: reached "
			    "through a symbolic link; not followed; nothing changed");
	assert_int_equal(f->ctl->undo_nr, 0);
	snprintf(path, sizeof(path), "%s/proc/sys/vm/extfrag_threshold", f->dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	a = ft_ctl_set(f->ctl, "extfrag_threshold", "600");
	assert_int_equal(a->outcome, FT_CTL_FAILED);
	assert_int_equal(a->err, -EBADFD);
	assert_string_equal(a->msg,
			    "extfrag_threshold: cannot read the current value: not a regular file "
			    "(a FIFO or device in the tree?); nothing changed");
	assert_int_equal(f->ctl->undo_nr, 0);
}

static void test_triggers(void **state)
{
	struct fake *f = *state;
	const struct ft_audit *a;

	a = ft_ctl_set(f->ctl, "compact_memory", "1");
	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_string_equal(get(f, "proc/sys/vm/compact_memory"), "1\n");
	a = ft_ctl_set(f->ctl, "drop_caches", "4");
	assert_int_equal(a->outcome, FT_CTL_INVALID);
	assert_string_equal(get(f, "proc/sys/vm/drop_caches"), "");
	a = ft_ctl_set(f->ctl, "compact_node", "0");
	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_int_equal(a->node, 0);
	assert_string_equal(a->msg, "compact_node: node 0 triggered");
	assert_string_equal(get(f, "sys/devices/system/node/node0/compact"), "1\n");
	/* actions are not undoable */
	assert_int_equal(f->ctl->undo_nr, 0);
}

/* The audit ring keeps the newest entries in order. */
static void test_audit_ring(void **state)
{
	struct fake *f = *state;
	size_t i;

	for (i = 0; i < FT_CTL_AUDIT_MAX + 10; i++)
		ft_ctl_set(f->ctl, "watermark_boost_factor", "x");
	assert_int_equal(ft_ctl_audit_kept(f->ctl), FT_CTL_AUDIT_MAX);
	assert_int_equal(ft_ctl_audit_get(f->ctl, 0)->seq, 11);
	assert_int_equal(ft_ctl_audit_get(f->ctl, FT_CTL_AUDIT_MAX - 1)->seq,
			 FT_CTL_AUDIT_MAX + 10);
	assert_null(ft_ctl_audit_get(f->ctl, FT_CTL_AUDIT_MAX));
}

/*
 * A kernel that takes another word than the one asked: it writes "madvise"
 * for anything but @ctx's word (the old value), which it writes as asked,
 * or every time when @ctx is NULL (the way back fails too).
 */
static int stubborn(void *ctx, int rootfd, const struct ft_knob *k, int node, const char *text)
{
	char path[256];
	const char *keep = ctx;
	const char *w = keep && !strcmp(text, keep) ? text : "madvise";
	int fd;
	ssize_t n;

	(void)node;
	ft_knob_path(k, -1, path, sizeof(path));
	fd = openat(rootfd, path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	n = write(fd, w, strlen(w));
	close(fd);
	return n == (ssize_t)strlen(w) ? 0 : -EIO;
}

#define THP64 "sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled"

/* A per-size THP setting that reads back otherwise is put back, and said so. */
static void test_readback_put_back(void **state)
{
	struct fake *f = *state;
	const struct ft_audit *a;

	/* a word the kernel does not list: refused with the list, nothing written */
	a = ft_ctl_set(f->ctl, "thp_64kB", "sometimes");
	assert_int_equal(a->outcome, FT_CTL_INVALID);
	assert_non_null(strstr(a->msg, "always"));
	assert_non_null(strstr(a->msg, "inherit"));
	assert_string_equal(get(f, THP64), "always inherit madvise [never]\n");

	f->ctl->write = stubborn;
	f->ctl->write_ctx = "never";
	a = ft_ctl_set(f->ctl, "thp_64kB", "always");
	assert_int_equal(a->outcome, FT_CTL_MISMATCH);
	assert_string_equal(a->readback, "madvise");
	assert_string_equal(a->msg,
			    "thp_64kB: wrote always but it reads back madvise; put back never");
	assert_string_equal(get(f, THP64), "never");
	assert_int_equal(f->ctl->undo_nr, 0);
	assert_int_equal(ft_ctl_nr_changed(f->ctl), 0);

	/* the way back fails as well: said so, and left for u (undo) */
	put(f, THP64, "always inherit madvise [never]\n");	/* the words listed again */
	f->ctl->write_ctx = NULL;
	a = ft_ctl_set(f->ctl, "thp_64kB", "always");
	assert_int_equal(a->outcome, FT_CTL_MISMATCH);
	assert_string_equal(a->msg, "thp_64kB: wrote always but it reads back madvise (was never)");
	assert_int_equal(f->ctl->undo_nr, 1);
	f->ctl->write = NULL;
	a = ft_ctl_undo(f->ctl);
	assert_int_equal(a->outcome, FT_CTL_OK);
	assert_string_equal(get(f, THP64), "never\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validate),
		cmocka_unit_test_setup_teardown(test_set_ok_and_audit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals_change_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_absent_knob, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_step, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undo_and_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_triggers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_audit_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_readback_put_back, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
