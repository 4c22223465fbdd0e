// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/tracefs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tracefs.h>
#include <unistd.h>

/* Is @pid a live fragtop (comm "fragtop" or "fragtop-san")? */
static bool fragtop_alive(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "fragtop", 7);
}

static int stale_cb(const char *name, void *ctx)
{
	int *removed = ctx;
	struct tracefs_instance *inst;
	char *end;
	long pid;

	if (strncmp(name, FT_TRACE_PREFIX, strlen(FT_TRACE_PREFIX)))
		return 0;
	pid = strtol(name + strlen(FT_TRACE_PREFIX), &end, 10);
	if (*end || pid <= 0 || pid == (long)getpid() || fragtop_alive(pid))
		return 0;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return 0;
	/* Its events must be off before the directory can go. */
	tracefs_event_disable(inst, NULL, NULL);
	if (!tracefs_instance_destroy(inst))
		(*removed)++;
	tracefs_instance_free(inst);
	return 0;
}

static int tracing_dir_err(void)
{
	const char *dir = tracefs_tracing_dir();
	struct stat st;

	if (!dir)
		return -ENOENT;
	if (stat(dir, &st))
		return -errno;
	return access(dir, W_OK) ? -EACCES : 0;
}

int ft_trace_remove_stale(void)
{
	int removed = 0, err = tracing_dir_err();

	if (err)
		return err;
	if (tracefs_instances_walk(stale_cb, &removed) < 0)
		return -errno ? -errno : -EIO;
	return removed;
}

int ft_trace_open(struct ft_trace *t, size_t buffer_kb)
{
	int i, err = tracing_dir_err();

	memset(t, 0, sizeof(*t));
	if (err)
		return err;
	snprintf(t->name, sizeof(t->name), FT_TRACE_PREFIX "%ld", (long)getpid());
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst)
		return errno ? -errno : -EIO;
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
	return 0;

out_destroy:
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	t->inst = NULL;
	return err;
}

void ft_trace_close(struct ft_trace *t)
{
	if (!t->inst)
		return;
	tracefs_event_disable(t->inst, NULL, NULL);
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	t->inst = NULL;
	t->enabled = 0;
}

const char *ft_trace_strerror(int err)
{
	switch (err) {
	case -ENOENT:
		return "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)";
	case -EACCES:
	case -EPERM:
		return "tracing needs root";
	case -ENODEV:
		return "this kernel has none of the mm tracepoints fragtop uses";
	default:
		return strerror(-err);
	}
}
