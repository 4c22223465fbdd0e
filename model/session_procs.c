// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's processes (model/session_int.h): names, thread groups and
 * cgroups into the events' process table, and the pid tables of names and
 * smaps_rollup figures.
 */
#include "model/session_int.h"

#include <string.h>

/* u32 pid, then the command (at most 31 bytes, no NUL needed). */
void ft_session_proc_name(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_session_name *n;
	uint32_t pid;
	size_t len;

	if (in->len < 4 || (in->len == 4) != (in->sub == FT_NAME_EXITED) ||
	    in->len > 4 + sizeof(n->comm) - 1) {
		ft_session_bad(s, in, "process name: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	if (!pid || pid > (1u << 22)) {
		ft_session_bad(s, in, "process name: pid out of range");
		return;
	}
	/*
	 * An exit, or another command under a pid (reused): the records still
	 * waiting for the tick came before it, and count for the old process
	 */
	if (in->sub == FT_NAME_EXITED) {
		ft_trq_flush(&s->trq, &s->events);
		ft_procs_exit(&s->events.procs, (int)pid, in->t_ns);
		return;
	}
	{
		const struct ft_proc *p = ft_procs_find(&s->events.procs, (int)pid);
		size_t l = in->len - 4;

		if (p && p->comm[0] && (strlen(p->comm) != l || memcmp(p->comm, in->data + 4, l)))
			ft_trq_flush(&s->trq, &s->events);
	}
	n = &s->names[pid % FT_SESSION_NAMES];
	len = in->len - 4;
	n->pid = (int)pid;
	memcpy(n->comm, in->data + 4, len);
	n->comm[len] = '\0';
	if (strlen(n->comm) == len)	/* a NUL inside is not a command */
		ft_events_name(&s->events, (int)pid, n->comm, in->t_ns);
}

/* u32 pid, u32 tgid */
void ft_session_proc_group(struct ft_session *s, const struct ft_rec_record *in)
{
	uint32_t pid, tgid;

	if (in->len != 8) {
		ft_session_bad(s, in, "thread group: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	memcpy(&tgid, in->data + 4, 4);
	if (!pid || pid > (1u << 22) || !tgid || tgid > (1u << 22)) {
		ft_session_bad(s, in, "thread group: pid out of range");
		return;
	}
	ft_procs_group(&s->events.procs, (int)pid, (int)tgid);
}

void ft_session_proc_cgroup(struct ft_session *s, const struct ft_rec_record *in)
{
	char path[FT_CG_PATH];
	uint32_t pid;
	size_t len;

	if (in->len < 5 || in->len > 4 + sizeof(path) - 1) {
		ft_session_bad(s, in, "cgroup: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	len = in->len - 4;
	memcpy(path, in->data + 4, len);
	path[len] = '\0';
	if (!pid || pid > (1u << 22) || strlen(path) != len) {
		ft_session_bad(s, in, "cgroup: pid or path");
		return;
	}
	ft_procs_cgroup(&s->events.procs, (int)pid, path);
}

/*
 * A process's smaps_rollup: u32 pid, then the file's text (kernel/cgroup.h's
 * ft_cgroup_smaps_parse()).
 */
void ft_session_proc_smaps(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_session_smaps *e;
	struct ft_smaps v;
	uint32_t pid;

	if (in->len < 4 || in->len > 4 + FT_REC_SMAPS_TEXT) {
		ft_session_bad(s, in, "smaps: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	if (!pid || pid > (1u << 22) ||
	    ft_cgroup_smaps_parse((const char *)in->data + 4, in->len - 4, &v)) {
		ft_session_bad(s, in, "smaps: pid or text");
		return;
	}
	e = &s->smaps[pid % FT_SESSION_SMAPS];
	*e = (struct ft_session_smaps){ .pid = (int32_t)pid, .t_ns = in->t_ns, .v = v };
}

const struct ft_session_smaps *ft_session_smaps(const struct ft_session *s, int pid)
{
	const struct ft_session_smaps *e;

	if (pid <= 0)
		return NULL;
	e = &s->smaps[(unsigned int)pid % FT_SESSION_SMAPS];
	return e->pid == pid ? e : NULL;
}

const char *ft_session_name(const struct ft_session *s, int pid)
{
	const struct ft_session_name *n;

	if (pid <= 0)
		return NULL;
	n = &s->names[(unsigned int)pid % FT_SESSION_NAMES];
	return n->pid == pid ? n->comm : NULL;
}

