// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/cgroups.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "kernel/cgroup.h"

struct out {
	char *p;
	size_t len, cap;
	bool full;		/* FT_CGSRC_TEXT reached: the rest left out */
	int err;
};

__attribute__((format(printf, 2, 3)))
static void say(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->err || o->full)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->err = -EINVAL;
			return;
		}
		if ((size_t)n < o->cap - o->len) {
			o->len += (size_t)n;
			return;
		}
		if (o->cap >= FT_CGSRC_TEXT) {
			o->p[o->len] = '\0';
			o->full = true;
			return;
		}
		{
			size_t cap = o->cap * 2 > FT_CGSRC_TEXT ? FT_CGSRC_TEXT : o->cap * 2;
			char *np = realloc(o->p, cap);

			if (!np) {
				o->err = -ENOMEM;
				return;
			}
			o->p = np;
			o->cap = cap;
		}
	}
}

/* A pressure file's lines, each after @prefix ("host ", "psi "). */
static void pressure(struct out *o, int rootfd, const char *rel, const char *prefix)
{
	char buf[512];
	struct ft_psi p;
	long n = ft_file_slurp(rootfd, rel, buf, sizeof(buf));
	const struct ft_psi_line *l[2] = { &p.some, &p.full };
	static const char *const kind[2] = { "some", "full" };
	int i;

	if (n <= 0 || ft_cgroup_psi_parse(buf, (size_t)n, &p))
		return;
	for (i = 0; i < 2; i++)
		if (l[i]->have)
			say(o, "%s%s avg10=%.2f avg60=%.2f avg300=%.2f total=%llu\n", prefix,
			    kind[i], l[i]->avg10,
			    l[i]->avg60, l[i]->avg300, (unsigned long long)l[i]->total_us);
}

/* The pods the kubelet names under var/log/pods. */
static void pods(struct out *o, int rootfd)
{
	DIR *d = ft_opendir_under(rootfd, "var/log/pods");
	struct dirent *e;
	struct ft_pod p;
	int n = 0;

	if (!d)
		return;
	while ((e = readdir(d)) && n < FT_CG_PODS)
		if (ft_cgroup_pod_parse(e->d_name, strlen(e->d_name), &p)) {
			say(o, "pod %s %s %s\n", p.uid, p.ns, p.name);
			n++;
		}
	closedir(d);
}

/* cgroup.procs' lines, at most what one read of 64 KiB holds. */
static unsigned int procs(int rootfd, const char *rel)
{
	char path[FT_CG_PATH * 2 + 64], *buf = malloc(65536);
	unsigned int n = 0;
	long len, i;

	if (!buf)
		return 0;
	snprintf(path, sizeof(path), "%s/cgroup.procs", rel);
	len = ft_file_slurp(rootfd, path, buf, 65536);
	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	free(buf);
	return n;
}

/* What a look at a cgroup found. */
enum look {
	LOOK_LISTED,		/* processes, or memory in its subtree: listed */
	LOOK_EMPTY,		/* neither, in it or under it: nothing to walk */
	LOOK_UNREAD,		/* no memory.stat to tell: walked, not listed */
};

/*
 * The cgroup at @rel (@path from the hierarchy's root): listed when it
 * has processes or memory.  Its memory.stat counts its whole subtree
 * (v2's always, v1's total_ lines), so an empty one has nothing under
 * it worth walking.
 */
static enum look one(struct out *o, int rootfd, const char *rel, const char *path, int version)
{
	char file[FT_CG_PATH * 2 + 64], *buf = malloc(16384);
	struct ft_cg_mem m;
	unsigned int np;
	long n;
	int i;

	if (!buf)
		return LOOK_UNREAD;
	snprintf(file, sizeof(file), "%s/memory.stat", rel);
	n = ft_file_slurp(rootfd, file, buf, 16384);
	if (n <= 0 || ft_cgroup_mem_parse(buf, (size_t)n, &m)) {
		free(buf);
		return LOOK_UNREAD;
	}
	free(buf);
	np = procs(rootfd, rel);
	if (!np && !m.v[FT_CGM_ANON] && !m.v[FT_CGM_FILE])
		return LOOK_EMPTY;
	/* a name may hold any byte but '/': a line holds it escaped (kernel/cgroup.h) */
	ft_cgroup_path_escape(path, strlen(path), file, sizeof(file));
	say(o, "cg %s\nprocs %u\n", file, np);
	for (i = 0; i < FT_CGM_NR; i++)
		if (m.have & (1u << i))
			say(o, "stat %s %llu\n", ft_cgm_names[i], (unsigned long long)m.v[i]);
	if (version == 2) {
		snprintf(file, sizeof(file), "%s/memory.pressure", rel);
		pressure(o, rootfd, file, "psi ");
	}
	return LOOK_LISTED;
}

/*
 * A walk's bounds and what it left.  Two budgets: the cgroups it lists
 * (FT_CGSRC_DIRS) and the empty ones it looks at (FT_CGSRC_EMPTY), so
 * empty directories, which anyone with a delegated subtree can make by
 * the thousand, never spend what holds the cgroups with tasks or memory.
 */
struct walk {
	struct out *o;
	int rootfd, version;
	size_t base;
	unsigned int listed, empty;
	/* directories not looked at (a bound reached), each at least one cgroup */
	uint64_t left;
};

/* Every cgroup under @rel, depth first, within the bounds; what is not looked at is counted. */
static void walk(struct walk *w, const char *rel, int depth)
{
	DIR *d;
	struct dirent *e;
	char sub[FT_CG_PATH * 2 + 64];
	enum look k;

	if (w->o->full || w->o->err || w->listed >= FT_CGSRC_DIRS || w->empty >= FT_CGSRC_EMPTY) {
		w->left++;
		return;
	}
	k = one(w->o, w->rootfd, rel, rel[w->base] ? rel + w->base : "/", w->version);
	if (k == LOOK_LISTED)
		w->listed++;
	else
		w->empty++;
	if (k == LOOK_EMPTY)
		return;		/* its memory.stat counts its subtree: nothing under it */
	d = ft_opendir_under(w->rootfd, rel);
	if (!d)
		return;
	while ((e = readdir(d))) {
		/*
		 * any name, control characters too: one() escapes it, and what is under it is
		 * walked
		 */
		if ((e->d_type != DT_DIR && e->d_type != DT_UNKNOWN) || e->d_name[0] == '.')
			continue;
		if (depth >= FT_CGSRC_DEPTH ||
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", rel, e->d_name) >= sizeof(sub)) {
			/* deeper than fragtop walks, or a path longer than it keeps */
			w->left++;
			continue;
		}
		walk(w, sub, depth + 1);
	}
	closedir(d);
}

/* The memory controller's hierarchy: 2 at sys/fs/cgroup, 1 at sys/fs/cgroup/memory, else 0. */
static int hierarchy(int rootfd, const char **rel)
{
	char buf[512];
	long n = ft_file_slurp(rootfd, "sys/fs/cgroup/cgroup.controllers", buf, sizeof(buf));

	if (n > 0 && strstr(buf, "memory")) {
		*rel = "sys/fs/cgroup";
		return 2;
	}
	n = ft_file_slurp(rootfd, "sys/fs/cgroup/memory/memory.stat", buf, sizeof(buf));
	if (n > 0) {
		*rel = "sys/fs/cgroup/memory";
		return 1;
	}
	return 0;
}

long ft_cgsrc_read(int rootfd, char **text)
{
	struct out o = { .cap = 4096 };
	const char *rel = NULL;
	int version;

	o.p = malloc(o.cap);
	if (!o.p)
		return -ENOMEM;
	o.p[0] = '\0';
	version = hierarchy(rootfd, &rel);
	say(&o, "version %d\n", version ? version : 0);
	pressure(&o, rootfd, "proc/pressure/memory", "host ");
	pods(&o, rootfd);
	if (version) {
		struct walk w = { .o = &o, .rootfd = rootfd, .version = version,
				  .base = strlen(rel) };

		walk(&w, rel, 0);
		o.full = false;		/* the count goes in whatever the text holds */
		if (w.left)
			say(&o, "left %llu\n", (unsigned long long)w.left);
	}
	if (o.err) {
		free(o.p);
		return o.err;
	}
	*text = o.p;
	return (long)o.len;
}
