// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/rc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "tui/ui.h"

/*
 * The directory and the file, from XDG_CONFIG_HOME (an absolute path) or
 * HOME; @base is that variable's directory.
 */
static void locate(struct ft_rc_file *f, char *dir, size_t sz, char *base, size_t bsz)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	f->path[0] = dir[0] = base[0] = '\0';
	if (xdg && xdg[0] == '/')
		snprintf(base, bsz, "%s", xdg);
	else if (home && home[0] == '/')
		snprintf(base, bsz, "%s", home);
	else
		return;
	snprintf(dir, sz, "%s/%s", base, xdg && xdg[0] == '/' ? "fragtop" : ".config/fragtop");
	if ((size_t)snprintf(f->path, sizeof(f->path), "%s/fragtoprc", dir) >= sizeof(f->path))
		f->path[0] = '\0';
}

/*
 * Is the place of fragtoprc this user's to write in?  @base (HOME or
 * XDG_CONFIG_HOME), else the nearest directory of @dir's that exists,
 * must belong to the effective user: root under sudo with the user's
 * HOME reads the user's settings but creates nothing there (a root-owned
 * ~/.config would lock the user out of their own).  false with the
 * reason in f->note.
 */
static bool ours(struct ft_rc_file *f, const char *base, const char *dir)
{
	char p[4096], *slash;
	struct stat st;

	snprintf(p, sizeof(p), "%s", lstat(base, &st) == 0 ? base : dir);
	while (lstat(p, &st) && errno == ENOENT && (slash = strrchr(p, '/')) && slash != p)
		*slash = '\0';
	if (lstat(p, &st) == 0 && st.st_uid == geteuid())
		return true;
	snprintf(f->note, sizeof(f->note),
		 "%.300s belongs to uid %u, not to this user (uid %u): settings read, not written",
		 p, (unsigned)st.st_uid, (unsigned)geteuid());
	return false;
}

void ft_settings_load(struct ft_rc_file *f)
{
	static char text[FT_RC_MAX_BYTES + 1];
	char dir[4096], base[4096], why[160];
	struct stat st;
	size_t len = 0;
	ssize_t n;
	int fd, bad;

	ft_rc_init(&f->rc);
	f->msg[0] = f->note[0] = '\0';
	locate(f, dir, sizeof(dir), base, sizeof(base));
	if (!f->path[0]) {
		snprintf(f->note, sizeof(f->note), "no HOME: the settings are not kept");
		return;
	}
	ours(f, base, dir);	/* another user's: read, never written (f->note) */
	/* no link followed, no FIFO waited on: a regular file or nothing */
	fd = open(f->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT) {
			snprintf(f->msg, sizeof(f->msg), "fragtoprc: %s: using the defaults",
				 strerror(errno));
			snprintf(f->note, sizeof(f->note),
				 "fragtoprc could not be read: not written over on quit");
		}
		return;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(f->msg, sizeof(f->msg),
			 "fragtoprc is not a regular file: using the defaults");
		snprintf(f->note, sizeof(f->note),
			 "fragtoprc is not a regular file: not written over on quit");
		return;
	}
	while (len < sizeof(text) && (n = read(fd, text + len, sizeof(text) - len)) > 0)
		len += (size_t)n;
	close(fd);
	bad = ft_rc_parse(text, len, &f->rc, why, sizeof(why));
	if (bad) {
		snprintf(f->msg, sizeof(f->msg), "fragtoprc: %s%s%.0d%s: the defaults for %s", why,
			 bad > 1 ? " (and " : "", bad > 1 ? bad - 1 : 0, bad > 1 ? " more)" : "",
			 bad > 1 ? "them" : "it");
		snprintf(f->note, sizeof(f->note),
			 "fragtoprc has errors: not written over on quit (fix or remove it)");
	}
}

int ft_settings_save(const struct ft_rc_file *f, char *why, size_t sz)
{
	char dir[4096], text[2048], *slash;
	struct ft_atomic out;
	struct stat st;
	int n, err;

	if (!f->path[0] || f->note[0]) {
		snprintf(why, sz, "%s", f->note[0] ? f->note : "no place for fragtoprc");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", f->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	/* ~/.config, then ~/.config/fragtop: made private when fragtop makes them */
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST) {
			snprintf(why, sz, "cannot make %s: %s", dir, strerror(errno));
			return -1;
		}
		*slash = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(why, sz, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	n = ft_rc_format(&f->rc, text, sizeof(text));
	if (n < 0 || (size_t)n >= sizeof(text)) {
		snprintf(why, sz, "the settings do not fit");
		return -1;
	}
	/*
	 * the directory opened once, not through a link: swapped meanwhile, the write stays in it
	 */
	err = ft_atomic_open_in(&out, f->path, O_NOFOLLOW);
	if (err == -ELOOP || err == -ENOTDIR ||
	    (!err && (fstat(out.dirfd, &st) || st.st_uid != geteuid()))) {
		/*
		 * under sudo with the user's HOME: never leave root's file in somebody else's
		 * directory
		 */
		if (!err)
			ft_atomic_abort(&out);
		snprintf(why, sz, "%s is not a directory of this user: fragtoprc not written", dir);
		return -1;
	}
	if (!err) {
		fwrite(text, 1, (size_t)n, out.f);
		err = ft_atomic_commit(&out, f->path, 0600);
	}
	if (err) {
		snprintf(why, sz, "%s: %s", f->path, strerror(-err));
		return -1;
	}
	return 0;
}

void ft_cmd_rc_attach(struct ft_ui *ui, struct ft_rc_file *f)
{
	if (!f) {
		ui->rc_path = "";
		return;
	}
	ui->rc = &f->rc;
	ui->rc_path = f->path;
	ui->rc_note = f->note[0] ? f->note : NULL;
	if (f->msg[0])
		ft_ui_status(ui, FT_DIAG_WARN, "%s", f->msg);
}

void ft_cmd_rc_finish(struct ft_rc_file *f)
{
	char why[256];

	if (ft_settings_save(f, why, sizeof(why)) && f->path[0])
		fprintf(stderr, "fragtop: settings not saved: %s\n", why);
}
