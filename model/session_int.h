/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's own parts, one file each: model/session.c keeps init,
 * the dispatch (ft_session_apply()) and the tick; session_trace.c the
 * tracing, session_map.c the pageblock map, session_procs.c the
 * processes.  Only those files include this header.
 */
#ifndef FT_MODEL_SESSION_INT_H
#define FT_MODEL_SESSION_INT_H

#include "model/session.h"

/* A malformed input, skipped: counted, and the first ones said (report -v). */
void ft_session_bad(struct ft_session *s, const struct ft_rec_record *in, const char *why);

/* session_trace.c: the events' callbacks into the session; a format, a sub-buffer; a tick */
void ft_session_trace_hooks(struct ft_session *s);
void ft_session_trace_format(struct ft_session *s, const struct ft_rec_record *in);
void ft_session_trace_page(struct ft_session *s, const struct ft_rec_record *in);
void ft_session_trace_tick(struct ft_session *s, uint64_t now);

/* session_map.c: the layout from the sample's zoneinfo; iomem and KPF inputs; a tick */
void ft_session_map_layout(struct ft_session *s);
void ft_session_map_iomem(struct ft_session *s, const struct ft_rec_record *in);
void ft_session_map_kpf(struct ft_session *s, const struct ft_rec_record *in);
void ft_session_map_tick(struct ft_session *s);

/* session_procs.c: NAME, GROUP, CGROUP and SMAPS inputs */
void ft_session_proc_name(struct ft_session *s, const struct ft_rec_record *in);
void ft_session_proc_group(struct ft_session *s, const struct ft_rec_record *in);
void ft_session_proc_cgroup(struct ft_session *s, const struct ft_rec_record *in);
void ft_session_proc_smaps(struct ft_session *s, const struct ft_rec_record *in);

#endif
