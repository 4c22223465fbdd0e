// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUT_FLAGS	(O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)
#define OUT_MODE	0600

/* A new file beside @path, renamed over it once created. */
static int replace_file(const char *path)
{
	size_t len = strlen(path);
	char *tmp = malloc(len + 16);
	int fd, err;

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, path, len);
	memcpy(tmp + len, ".tmp-XXXXXX", 12);
	fd = mkostemp(tmp, O_CLOEXEC);		/* O_EXCL, mode 0600 */
	if (fd < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	/* rename(2) replaces the name: a symbolic link there is not followed */
	if (rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
		close(fd);
		free(tmp);
		return err;
	}
	free(tmp);
	return fd;
}

int ft_outfile_create(const char *path, bool replace)
{
	return ft_outfile_create_mode(path, replace, OUT_MODE);
}

int ft_outfile_create_mode(const char *path, bool replace, mode_t mode)
{
	struct stat st;
	mode_t mask;
	int fd;

	fd = open(path, OUT_FLAGS, mode);
	if (fd >= 0)
		return fd;
	if (errno != EEXIST)
		return -errno;
	if (lstat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!replace)
		return S_ISLNK(st.st_mode) ? -ELOOP : -EEXIST;
	fd = replace_file(path);	/* made 0600 by mkostemp: the mode asked, under the umask */
	if (fd >= 0 && mode != OUT_MODE) {
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, mode & ~mask)) {
			int err = -errno;

			close(fd);
			return err;
		}
	}
	return fd;
}

const char *ft_outfile_strerror(int err, const char *how_to_replace, char *buf, size_t sz)
{
	const char *h = how_to_replace;

	switch (-err) {
	case EEXIST:
		snprintf(buf, sz, "it exists (choose another name%s%s%s)", h ? ", or " : "",
			 h ? h : "",
			 h ? " replaces it" : "");
		break;
	case ELOOP:
		snprintf(buf, sz,
			 "it is a symbolic link; fragtop does not write through links%s%s%s",
			 h ? " (" : "", h ? h : "", h ? " replaces the link itself)" : "");
		break;
	case EISDIR:
		snprintf(buf, sz, "it is a directory");
		break;
	case EPERM:
		snprintf(buf, sz,
			 "not allowed to replace it (another user's file in a sticky directory?)");
		break;
	default:
		snprintf(buf, sz, "%s", strerror(-err));
	}
	return buf;
}

/* A name for the temp file: "." @base's first letters, ".tmp-" and 6 random letters. */
static void tmp_name(char *buf, size_t sz, const char *base)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	size_t i;
	int n;

	if (getentropy(r, sizeof(r)))
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)(rand() & 0xff);
	n = snprintf(buf, sz, "%.10s.tmp-", base);
	for (i = 0; i < sizeof(r) && (size_t)n + i + 1 < sz; i++)
		buf[(size_t)n + i] = abc[r[i] % (sizeof(abc) - 1)];
	buf[(size_t)n + i] = '\0';
}

int ft_atomic_open_in(struct ft_atomic *a, const char *path, int dir_flags)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd = -1, err, tries;

	a->f = NULL;
	a->name = NULL;
	a->tmp[0] = '\0';
	if (!*(slash ? slash + 1 : path))
		return -EISDIR;
	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	a->name = strdup(slash ? slash + 1 : path);
	if (!dir || !a->name) {
		free(dir);
		free(a->name);
		a->name = NULL;
		return -ENOMEM;
	}
	a->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | dir_flags);
	err = a->dirfd < 0 ? -errno : 0;
	free(dir);
	for (tries = 0; !err && fd < 0 && tries < 100; tries++) {
		tmp_name(a->tmp, sizeof(a->tmp), a->name);
		fd = openat(a->dirfd, a->tmp, OUT_FLAGS, OUT_MODE);
		if (fd < 0 && errno != EEXIST)
			err = -errno;
	}
	if (!err && fd < 0)
		err = -EEXIST;
	if (!err && !(a->f = fdopen(fd, "w"))) {
		err = -errno;
		close(fd);
		unlinkat(a->dirfd, a->tmp, 0);
	}
	if (err) {
		if (a->dirfd >= 0)
			close(a->dirfd);
		free(a->name);
		a->name = NULL;
		a->dirfd = -1;
	}
	return err;
}

int ft_atomic_open(struct ft_atomic *a, const char *path)
{
	return ft_atomic_open_in(a, path, 0);
}

/* The temp file gone (if still there), the directory closed. */
static void atomic_done(struct ft_atomic *a, bool remove_tmp)
{
	if (remove_tmp)
		unlinkat(a->dirfd, a->tmp, 0);
	close(a->dirfd);
	free(a->name);
	a->dirfd = -1;
	a->name = NULL;
}

void ft_atomic_abort(struct ft_atomic *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->name)
		atomic_done(a, true);
}

int ft_atomic_commit(struct ft_atomic *a, const char *path, mode_t mode)
{
	int err = 0;

	(void)path;	/* the directory opened and the name are kept */
	if (fflush(a->f) || ferror(a->f) || fsync(fileno(a->f)) || fchmod(fileno(a->f), mode))
		err = errno ? -errno : -EIO;
	if (!err && fclose(a->f))
		err = -errno;
	else if (err)
		fclose(a->f);
	a->f = NULL;
	if (!err && renameat(a->dirfd, a->tmp, a->dirfd, a->name))
		err = -errno;
	atomic_done(a, err != 0);
	return err;
}
