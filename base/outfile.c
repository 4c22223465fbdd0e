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
		snprintf(buf, sz, "it exists (choose another name%s%s%s)", h ? ", or " : "", h ? h : "",
			 h ? " replaces it" : "");
		break;
	case ELOOP:
		snprintf(buf, sz, "it is a symbolic link; fragtop does not write through links%s%s%s",
			 h ? " (" : "", h ? h : "", h ? " replaces the link itself)" : "");
		break;
	case EISDIR:
		snprintf(buf, sz, "it is a directory");
		break;
	case EPERM:
		snprintf(buf, sz, "not allowed to replace it (another user's file in a sticky directory?)");
		break;
	default:
		snprintf(buf, sz, "%s", strerror(-err));
	}
	return buf;
}

int ft_atomic_open(struct ft_atomic *a, const char *path)
{
	size_t len = strlen(path);
	int fd, err;

	a->f = NULL;
	a->tmp = malloc(len + 16);
	if (!a->tmp)
		return -ENOMEM;
	memcpy(a->tmp, path, len);
	memcpy(a->tmp + len, ".tmp-XXXXXX", 12);
	fd = mkostemp(a->tmp, O_CLOEXEC);	/* O_EXCL, mode 0600 */
	if (fd < 0) {
		err = -errno;
		free(a->tmp);
		a->tmp = NULL;
		return err;
	}
	a->f = fdopen(fd, "w");
	if (!a->f) {
		err = -errno;
		close(fd);
		unlink(a->tmp);
		free(a->tmp);
		a->tmp = NULL;
		return err;
	}
	return 0;
}

void ft_atomic_abort(struct ft_atomic *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp) {
		unlink(a->tmp);
		free(a->tmp);
	}
	a->f = NULL;
	a->tmp = NULL;
}

int ft_atomic_commit(struct ft_atomic *a, const char *path, mode_t mode)
{
	int err = 0;

	if (fflush(a->f) || ferror(a->f) || fsync(fileno(a->f)) || fchmod(fileno(a->f), mode))
		err = errno ? -errno : -EIO;
	if (!err && fclose(a->f))
		err = -errno;
	else if (err)
		fclose(a->f);
	a->f = NULL;
	if (!err && rename(a->tmp, path))
		err = -errno;
	if (err)
		unlink(a->tmp);
	free(a->tmp);
	a->tmp = NULL;
	return err;
}
