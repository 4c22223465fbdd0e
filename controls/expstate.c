// SPDX-License-Identifier: GPL-2.0-or-later
#include "controls/expstate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/beneath.h"

/* Owned by root or by us, and open to no one else (0600, 0700). */
static int private_to(int fd, bool dir)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return -EBADFD;
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return -EPERM;
	return st.st_mode & 077 ? -EPERM : 0;
}

/* @name under @at, made with @mode when @create: a directory fd or -errno. */
static int subdir(int at, const char *name, mode_t mode, bool create)
{
	if (create && mkdirat(at, name, mode) && errno != EEXIST)
		return -errno;
	return ft_open_beneath(at, name, O_RDONLY | O_DIRECTORY, 0);
}

int ft_ctl_exp_dir(int rootfd, bool create)
{
	int var = subdir(rootfd, "var", 0755, create), lib, dir, err;

	if (var < 0)
		return var;
	lib = subdir(var, "lib", 0755, create);
	close(var);
	if (lib < 0)
		return lib;
	dir = subdir(lib, "fragtop", 0700, create);
	close(lib);
	if (dir < 0)
		return dir;
	err = private_to(dir, true);
	if (err) {
		close(dir);
		return err;
	}
	return dir;
}

/* The pid written in the lock file @fd, 0 if none. */
static int lock_pid(int fd)
{
	char text[24];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

	text[n > 0 ? n : 0] = '\0';
	return atoi(text);
}

int ft_ctl_exp_lock(int dir)
{
	char pid[24];
	int fd = ft_open_beneath(dir, FT_EXP_LOCK, O_RDWR | O_CREAT, 0600), n, err, other;

	if (fd < 0)
		return fd;
	err = private_to(fd, false);
	if (!err && flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK) {
			err = -EBUSY;
		/* a kernel without file locking (the lab's): the pid written in it, alive */
		} else {
			other = lock_pid(fd);
			if (other > 0 && other != (int)getpid() && !kill(other, 0))
				err = -EBUSY;
		}
	}
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (!err && (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

bool ft_ctl_exp_running(int dir, int *pid)
{
	int fd = ft_open_beneath(dir, FT_EXP_LOCK, O_RDONLY, 0);
	bool held = false;

	*pid = 0;
	if (fd < 0)
		return false;
	if (!private_to(fd, false)) {
		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			flock(fd, LOCK_UN);
		else if (errno == EWOULDBLOCK)
			held = true;
		else
			held = lock_pid(fd) > 0 && !kill(lock_pid(fd), 0);
		if (held)
			*pid = lock_pid(fd);
	}
	close(fd);
	return held;
}

int ft_ctl_exp_record_write(int dir, const struct ft_exp_record *r)
{
	char text[6144];
	int fd, n, err = 0;

	n = snprintf(text, sizeof(text),
		     "root=%s\nknob=%s\noriginal=%s\nvalues=%s\nleft=%s\nbefore=%s\npid=%d\n"
		     "started=%lld\n", r->root, r->knob, r->original, r->values, r->left, r->before,
		     r->pid, r->started);
	if (n < 0 || (size_t)n >= sizeof(text))
		return -ENAMETOOLONG;
	unlinkat(dir, FT_EXP_RECORD ".new", 0);
	fd = ft_open_beneath(dir, FT_EXP_RECORD ".new", O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return fd;
	if (write(fd, text, (size_t)n) != n || fsync(fd))
		err = -errno;
	close(fd);
	if (!err && renameat(dir, FT_EXP_RECORD ".new", dir, FT_EXP_RECORD))
		err = -errno;
	if (!err)
		fsync(dir);	/* the rename itself on disk */
	return err;
}

/* The value of "@key=" in @text into @out. */
static void field(const char *text, const char *key, char *out, size_t sz)
{
	size_t k = strlen(key);
	const char *p = text;

	out[0] = '\0';
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == '=') {
			snprintf(out, sz, "%.*s", (int)strcspn(p + k + 1, "\n"), p + k + 1);
			return;
		}
}

int ft_ctl_exp_record_read(int dir, struct ft_exp_record *r, char *why, size_t sz)
{
	char text[6144], num[32];
	const struct ft_knob *k;
	int fd = ft_open_beneath(dir, FT_EXP_RECORD, O_RDONLY, 0), err;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	why[0] = '\0';
	if (fd == -ENOENT)
		return fd;
	if (fd < 0) {
		snprintf(why, sz, "cannot open it: %s",
			 fd == -ELOOP ? "it is a symbolic link" : strerror(-fd));
		return fd;
	}
	err = private_to(fd, false);
	if (err) {
		snprintf(why, sz, "%s", err == -EBADFD ? "not a regular file (a FIFO, a device?)" :
			 "not root's own, or open to others (it must be 0600)");
		close(fd);
		return err;
	}
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0 || n == (ssize_t)sizeof(text) - 1) {
		snprintf(why, sz, "%s", n <= 0 ? "empty or unreadable" : "too long to be one");
		return -EINVAL;
	}
	text[n] = '\0';
	field(text, "root", r->root, sizeof(r->root));
	field(text, "knob", r->knob, sizeof(r->knob));
	field(text, "original", r->original, sizeof(r->original));
	if (!r->original[0])		/* a record of fragtop before 0.1's state rules */
		field(text, "value", r->original, sizeof(r->original));
	field(text, "values", r->values, sizeof(r->values));
	field(text, "left", r->left, sizeof(r->left));
	field(text, "before", r->before, sizeof(r->before));
	field(text, "pid", num, sizeof(num));
	r->pid = atoi(num);
	field(text, "started", num, sizeof(num));
	r->started = atoll(num);
	k = ft_knob_find(r->knob);
	if (!k || k->type == FT_KNOB_TRIGGER || k->per_node) {
		snprintf(why, sz, "'%.60s' is %s", r->knob,
			 k ? "an action, not a setting" : "no knob fragtop knows");
		return -EINVAL;
	}
	if (!r->original[0]) {
		snprintf(why, sz, "it has no original value");
		return -EINVAL;
	}
	return 0;
}

int ft_ctl_exp_record_remove(int dir)
{
	return unlinkat(dir, FT_EXP_RECORD, 0) && errno != ENOENT ? -errno : 0;
}

int ft_ctl_exp_busy(int rootfd, const char *knob, int *pid)
{
	struct ft_exp_record r;
	char why[160];
	int dir = ft_ctl_exp_dir(rootfd, false), busy = 0;

	*pid = 0;
	if (dir < 0)
		return 0;
	if (ft_ctl_exp_running(dir, pid) && !ft_ctl_exp_record_read(dir, &r, why, sizeof(why)))
		busy = !strcmp(r.knob, knob);
	close(dir);
	return busy;
}
