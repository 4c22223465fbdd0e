// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

#include "base/cost.h"

/* Inode of /proc/@pid/ns/pid ("self" for @pid 0); 0 if unknown. */
static unsigned long long pid_ns(long pid)
{
	char path[64];
	struct stat st;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%ld/ns/pid", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/pid");
	return stat(path, &st) ? 0 : (unsigned long long)st.st_ino;
}

/* Start time of @pid (clock ticks since boot, /proc/PID/stat field 22); 0 if gone. */
static unsigned long long start_time(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');		/* the command may hold blanks and parentheses */
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

int ft_tracefs_instance_name(char *buf, size_t sz, long pid, unsigned long long ns,
			   unsigned long long start)
{
	return snprintf(buf, sz, FT_TRACE_PREFIX "%ld-%llu-%llu", pid, ns, start);
}

int ft_tracefs_instance_parse(const char *name, long *pid, unsigned long long *ns,
			    unsigned long long *start)
{
	char again[128];
	int n = -1;

	if (sscanf(name, FT_TRACE_PREFIX "%ld-%llu-%llu%n", pid, ns, start, &n) != 3 ||
	    n < 0 || name[n] || *pid <= 0)
		return -EINVAL;
	/* only the exact form fragtop writes: no sign, no leading zero, no blank */
	ft_tracefs_instance_name(again, sizeof(again), *pid, *ns, *start);
	return strcmp(again, name) ? -EINVAL : 0;
}

bool ft_tracefs_instance_stale(const char *name, long self, unsigned long long self_ns,
			     unsigned long long (*start_of)(long pid))
{
	unsigned long long ns, start;
	long pid;

	if (ft_tracefs_instance_parse(name, &pid, &ns, &start))
		return false;	/* not provably a fragtop's: an older one's, or nobody's */
	if (!self_ns || ns != self_ns)
		return false;	/* another PID namespace: its pids mean nothing here */
	if (pid == self)
		return false;
	/* the very process, alive: not stale; a pid reused by another process: stale */
	return start_of(pid) != start;
}

static int stale_cb(const char *name, void *ctx)
{
	int *removed = ctx;
	struct tracefs_instance *inst;

	if (!ft_tracefs_instance_stale(name, (long)getpid(), pid_ns(0), start_time))
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return 0;
	/*
	 * Removing an instance turns its events off with it; nothing is
	 * disabled first, so an instance that cannot be removed keeps working.
	 */
	if (!tracefs_instance_destroy(inst))
		(*removed)++;
	tracefs_instance_free(inst);
	return 0;
}

/*
 * Why no tracing dir: libtracefs finds it in /proc/self/mounts, and says
 * only NULL when it could not open that file either, so a process out of
 * descriptors would read as "not mounted".  Asked again here.
 */
static int no_dir_err(void)
{
	int fd = open("/proc/self/mounts", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == EMFILE || errno == ENFILE ? -errno : -ENOENT;
	close(fd);
	return -ENOENT;
}

static int tracing_dir_err(void)
{
	const char *dir = tracefs_tracing_dir();
	struct stat st;

	if (!dir)
		return no_dir_err();
	if (stat(dir, &st))
		return -errno;
	return access(dir, W_OK) ? -EACCES : 0;
}

int ft_tracefs_remove_stale(void)
{
	int removed = 0, err = tracing_dir_err();

	if (err)
		return err;
	if (tracefs_instances_walk(stale_cb, &removed) < 0)
		return -errno ? -errno : -EIO;
	return removed;
}

/* tracefs_instance_file_read(), counted: an open, and what it read as one read. */
static char *counted_read(struct tracefs_instance *inst, const char *file, int *psize)
{
	int size = 0;
	char *buf;

	ft_cost_open(FT_COST_TRACE);
	buf = tracefs_instance_file_read(inst, file, &size);
	ft_cost_read(FT_COST_TRACE, buf && size > 0 ? (size_t)size : 0);
	if (psize)
		*psize = size;
	return buf;
}

/* Load header_page and our events' formats into the decoder. */
static int load_formats(struct ft_tracefs *t)
{
	char *buf;
	int i, size = 0, err;

	err = ft_tracedec_init(&t->dec);
	if (err)
		return err;
	buf = counted_read(NULL, "events/header_page", &size);
	if (!buf)
		return -EIO;
	err = ft_tracedec_header_page(&t->dec, buf, (size_t)size);
	if (err) {
		free(buf);
		return err;
	}
	t->text[FT_TRACE_HEADER] = buf;
	t->text_len[FT_TRACE_HEADER] = (size_t)size;
	for (i = 0; i < FT_EV_NR; i++) {
		if (!(t->enabled & (1u << i)))
			continue;
		ft_cost_open(FT_COST_TRACE);
		buf = tracefs_event_file_read(NULL, ft_trace_events[i].system,
					      ft_trace_events[i].event, "format", &size);
		if (!buf)
			continue;
		if (ft_tracedec_format(&t->dec, ft_trace_events[i].system, buf, (size_t)size)) {
			t->enabled &= ~(1u << i);	/* cannot decode it: do not count on it */
			free(buf);
			continue;
		}
		t->text[i] = buf;
		t->text_len[i] = (size_t)size;
	}
	return 0;
}

/* per_cpu/cpu@cpu/stats of our instance, open for the ticks' reads, or -1. */
static int open_stats(struct ft_tracefs *t, int cpu)
{
	char file[64], *path;
	int fd;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	path = tracefs_instance_get_file(t->inst, file);
	if (!path)
		return -1;
	ft_cost_open(FT_COST_TRACE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	return fd;
}

/*
 * CPU @cpu's pages, opened here (not by tracefs_cpu_open(), which keeps
 * its descriptor to itself) so that the loop can poll it; the
 * sub-buffer is the page, as the instance is left.  NULL for an offline
 * CPU.
 */
static struct tracefs_cpu *open_pipe(struct ft_tracefs *t, int cpu)
{
	char file[64], *path;
	struct tracefs_cpu *tc;
	int fd;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	path = tracefs_instance_get_file(t->inst, file);
	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return NULL;
	tc = tracefs_cpu_alloc_fd(fd, getpagesize(), true);
	if (!tc) {
		close(fd);
		return NULL;
	}
	t->pipe_fd[cpu] = fd;	/* tracefs_cpu_close() closes it */
	return tc;
}

static int open_cpus(struct ft_tracefs *t)
{
	int cpu, opened = 0;

	t->nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (t->nr_cpus <= 0)
		t->nr_cpus = 1;
	t->cpus = calloc((size_t)t->nr_cpus, sizeof(*t->cpus));
	t->stats_fd = malloc((size_t)t->nr_cpus * sizeof(*t->stats_fd));
	t->pipe_fd = malloc((size_t)t->nr_cpus * sizeof(*t->pipe_fd));
	if (!t->cpus || !t->stats_fd || !t->pipe_fd)
		return -ENOMEM;
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		t->stats_fd[cpu] = t->pipe_fd[cpu] = -1;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		ft_cost_open(FT_COST_TRACE);
		t->cpus[cpu] = open_pipe(t, cpu);
		if (!t->cpus[cpu])
			continue;	/* offline CPU */
		t->stats_fd[cpu] = open_stats(t, cpu);
		opened++;
		if (tracefs_cpu_read_size(t->cpus[cpu]) > t->page_size)
			t->page_size = tracefs_cpu_read_size(t->cpus[cpu]);
	}
	if (!opened)
		return -ENODEV;
	if (t->page_size <= 0)
		t->page_size = (int)sysconf(_SC_PAGESIZE);
	t->page = malloc((size_t)t->page_size);
	return t->page ? 0 : -ENOMEM;
}

int ft_tracefs_open(struct ft_tracefs *t, size_t buffer_kb)
{
	int i, err = tracing_dir_err();

	memset(t, 0, sizeof(*t));
	if (err)
		return err;
	ft_tracefs_instance_name(t->name, sizeof(t->name), (long)getpid(), pid_ns(0),
			       start_time((long)getpid()));
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst)
		return errno ? -errno : -EIO;
	/*
	 * CLOCK_MONOTONIC timestamps, the clock of every other input, so an
	 * event's age is now minus its time.  Kernels without "mono" keep
	 * "local" (sched_clock, also counting from boot).
	 */
	tracefs_instance_file_write(t->inst, "trace_clock", "mono");
	/* a poll wakes on the first event, not at half a buffer (kernels without it: at half) */
	tracefs_instance_file_write(t->inst, "buffer_percent", "0");
	if (buffer_kb && tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1) < 0) {
		err = errno ? -errno : -EIO;
		goto out_destroy;
	}
	for (i = 0; i < FT_EV_NR; i++)
		if (!tracefs_event_enable(t->inst, ft_trace_events[i].system,
					  ft_trace_events[i].event))
			t->enabled |= 1u << i;
	if (!t->enabled) {
		err = -ENODEV;
		goto out_destroy;
	}
	err = load_formats(t);
	if (!err)
		err = open_cpus(t);
	if (err)
		goto out_destroy;
	return 0;

out_destroy:
	ft_tracefs_close(t);
	return err;
}

static void hand(struct ft_tracefs *t, int cpu, int n, ft_tracefs_page_fn fn, void *ctx)
{
	t->pages_read++;
	t->bytes_read += (uint64_t)n;
	fn(ctx, cpu, t->page, (size_t)n);
}

long ft_tracefs_drain(struct ft_tracefs *t, ft_tracefs_page_fn fn, void *ctx)
{
	long pages = 0;
	int cpu, n;

	if (!t->inst)
		return -EBADF;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct tracefs_cpu *tc = t->cpus[cpu];

		if (!tc)
			continue;
		/*
		 * read(), not splice: a whole page read swaps the ring's page
		 * with the reader's one spare page and copies it out, where a
		 * splice hands the ring's page to the pipe and takes a fresh
		 * page from the allocator for each one.  Under the adverse
		 * workload those fresh unmovable pages were 2,016 fragmenting
		 * fallbacks of fragtop's own in one burst (docs/design/cost.md).
		 * A read past the full pages takes what is in the page the
		 * kernel is still filling.
		 */
		while ((n = tracefs_cpu_read(tc, t->page, true)) > 0) {
			ft_cost_read(FT_COST_TRACE, (size_t)n);
			hand(t, cpu, n, fn, ctx);
			pages++;
		}
		ft_cost_read(FT_COST_TRACE, 0);
	}
	return pages;
}

static int write_trigger(struct ft_tracefs *t, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "events/%s/%s/trigger", ft_trace_events[FT_EV_EXTFRAG].system,
		 ft_trace_events[FT_EV_EXTFRAG].event);
	/* a trigger file takes one command a write; its errors say why the kernel refused */
	errno = 0;
	if (tracefs_instance_file_append(t->inst, path, text) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

static int arm(struct ft_tracefs *t)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "stacktrace:%u if fallback_order < %d", t->stacks_per_sec,
		 t->stacks_order);
	return write_trigger(t, cmd);
}

int ft_tracefs_stacks_on(struct ft_tracefs *t, int pageblock_order, unsigned int per_sec)
{
	char *buf;
	int size = 0, err;

	if (!t->inst || !ft_tracefs_has(t, FT_EV_EXTFRAG))
		return -ENODEV;
	if (t->stacks)
		return 0;
	buf = tracefs_event_file_read(NULL, "ftrace", "kernel_stack", "format", &size);
	if (!buf)
		return -ENODEV;
	if (ft_tracedec_format(&t->dec, "ftrace", buf, (size_t)size)) {
		free(buf);
		return -ENODEV;
	}
	t->stacks_order = pageblock_order > 0 ? pageblock_order : 9;
	t->stacks_per_sec = per_sec ? per_sec : 1;
	err = arm(t);
	if (err) {
		free(buf);
		return err;
	}
	t->text[FT_TRACE_STACK] = buf;
	t->text_len[FT_TRACE_STACK] = (size_t)size;
	t->stacks = true;
	return 0;
}

int ft_tracefs_stacks_rearm(struct ft_tracefs *t)
{
	char path[128], *buf, *p;
	unsigned long left = 0;
	int err;

	if (!t->stacks)
		return 0;
	snprintf(path, sizeof(path), "events/%s/%s/trigger", ft_trace_events[FT_EV_EXTFRAG].system,
		 ft_trace_events[FT_EV_EXTFRAG].event);
	buf = counted_read(t->inst, path, NULL);
	if (!buf)
		return -EIO;
	/* "stacktrace:count=N if ..." ("stacktrace:unlimited" never: we always give a count) */
	p = strstr(buf, "stacktrace:count=");
	if (p)
		left = strtoul(p + 17, NULL, 10);
	free(buf);
	/*
	 * A trigger cannot be written twice: off, then on with the whole
	 * count.  Taking it off waits for an RCU grace period (tens of ms
	 * here), when fallbacks go without a stack, so it is given again only
	 * once three quarters of it are spent.
	 */
	if (p && left * 4 >= t->stacks_per_sec)
		return 0;
	if (p && (err = write_trigger(t, "!stacktrace")))
		return err;
	err = arm(t);
	if (err)
		return err;
	t->stacks_rearmed++;
	return 1;
}

int ft_tracefs_saved_cmdlines(char **buf, size_t *len)
{
	int size = 0;

	errno = 0;
	*buf = counted_read(NULL, "saved_cmdlines", &size);
	if (!*buf)
		return errno ? -errno : -ENOENT;
	*len = size > 0 ? (size_t)size : 0;
	return 0;
}

void ft_tracefs_stop(struct ft_tracefs *t)
{
	if (t->inst)
		tracefs_trace_off(t->inst);
}

uint64_t ft_tracefs_lost(struct ft_tracefs *t)
{
	uint64_t lost = 0;
	int cpu;

	for (cpu = 0; t->inst && t->stats_fd && cpu < t->nr_cpus; cpu++) {
		char buf[1024], *p;
		ssize_t n;

		if (t->stats_fd[cpu] < 0)
			continue;
		/* generated afresh by each read from offset 0 */
		n = pread(t->stats_fd[cpu], buf, sizeof(buf) - 1, 0);
		ft_cost_read(FT_COST_TRACE, n > 0 ? (size_t)n : 0);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "overrun: N" and "dropped events: N" */
		if ((p = strstr(buf, "\noverrun:")) || !strncmp(buf, "overrun:", 8))
			lost += strtoull(strchr(p ? p + 1 : buf, ':') + 1, NULL, 10);
		if ((p = strstr(buf, "dropped events:")))
			lost += strtoull(p + 15, NULL, 10);
	}
	return lost;
}

int ft_tracefs_fds(const struct ft_tracefs *t, int *fds, int cap)
{
	int cpu, n = 0;

	for (cpu = 0; t->pipe_fd && cpu < t->nr_cpus && n < cap; cpu++)
		if (t->cpus[cpu] && t->pipe_fd[cpu] >= 0)
			fds[n++] = t->pipe_fd[cpu];
	return n;
}

void ft_tracefs_close(struct ft_tracefs *t)
{
	int cpu;

	for (cpu = 0; t->cpus && cpu < t->nr_cpus; cpu++)
		if (t->cpus[cpu])
			tracefs_cpu_close(t->cpus[cpu]);
	for (cpu = 0; t->stats_fd && cpu < t->nr_cpus; cpu++)
		if (t->stats_fd[cpu] >= 0)
			close(t->stats_fd[cpu]);
	free(t->stats_fd);
	t->stats_fd = NULL;
	free(t->pipe_fd);
	t->pipe_fd = NULL;
	free(t->cpus);
	t->cpus = NULL;
	free(t->page);
	t->page = NULL;
	for (int i = 0; i < FT_TRACE_TEXTS; i++) {
		free(t->text[i]);
		t->text[i] = NULL;
	}
	if (t->dec.tep)
		ft_tracedec_release(&t->dec);
	if (!t->inst)
		return;
	tracefs_event_disable(t->inst, NULL, NULL);
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	t->inst = NULL;
	t->enabled = 0;
}

const char *ft_tracefs_strerror(int err)
{
	switch (err) {
	case -ENOENT:
		return "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)";
	case -EACCES:
	case -EPERM:
		return "tracing needs root";
	case -ENODEV:
		return "this kernel has none of the mm tracepoints fragtop uses";
	case -EXDEV:
		return "--root is not this host's kernel";
	case -EMFILE:
	case -ENFILE:
		return "out of file descriptors (ulimit -n): tracing needs one per CPU and a few "
		       "more";
	default:
		return strerror(-err);
	}
}
