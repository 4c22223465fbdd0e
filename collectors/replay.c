// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long fd_pread(void *ctx, void *buf, size_t n, uint64_t off)
{
	int fd = *(int *)ctx;
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	return (long)got;
}

const char *ft_replay_host(const struct ft_replay *p, const char *key, char *buf, size_t sz)
{
	size_t kl = strlen(key);
	const char *s = p->host_text;

	buf[0] = '\0';
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t ll = nl ? (size_t)(nl - s) : strlen(s);

		if (ll > kl && !strncmp(s, key, kl) && s[kl] == '=') {
			snprintf(buf, sz, "%.*s", (int)(ll - kl - 1), s + kl + 1);
			break;
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	return buf;
}

static void apply_host(struct ft_replay *p, const struct ft_rec_record *rec)
{
	char v[256];
	int order;

	snprintf(p->host_text, sizeof(p->host_text), "%.*s", (int)rec->len, (const char *)rec->data);
	snprintf(p->live.host.hostname, sizeof(p->live.host.hostname), "%s",
		 ft_replay_host(p, "hostname", v, sizeof(v)));
	snprintf(p->live.host.release, sizeof(p->live.host.release), "%s",
		 ft_replay_host(p, "release", v, sizeof(v)));
	if (atol(ft_replay_host(p, "page_size", v, sizeof(v))) > 0)
		p->live.host.page_size = atol(v);
	p->live.host.pmd_order = atoi(ft_replay_host(p, "pmd_order", v, sizeof(v))[0] ? v : "-1");
	order = atoi(ft_replay_host(p, "pageblock_order", v, sizeof(v))[0] ? v : "-1");
	if (order < 0 || order > 20)
		order = p->live.host.pmd_order;
	p->live.sample.pageblock_order_fallback = order;
}

static void apply_format(struct ft_replay *p, const struct ft_rec_record *rec)
{
	const char *d = (const char *)rec->data, *nl = memchr(d, '\n', rec->len);
	char name[128];

	if (!nl || (size_t)(nl - d) >= sizeof(name)) {
		p->bad_records++;
		return;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(nl - d), d);
	/* an event this fragtop cannot decode stays off, as it does live */
	ft_live_replay_trace_text(&p->live, name, nl + 1, rec->len - (size_t)(nl + 1 - d));
	if (p->live.tracing && p->live.events.pageblock_order < 0)
		p->live.events.pageblock_order = p->live.sample.pageblock_order_fallback;
}

static void field(const char *text, size_t len, const char *key, char *out, size_t sz)
{
	size_t kl = strlen(key);
	const char *s = text, *end = text + len;

	out[0] = '\0';
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t ll = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (ll > kl && !strncmp(s, key, kl) && s[kl] == '=') {
			snprintf(out, sz, "%.*s", (int)(ll - kl - 1), s + kl + 1);
			return;
		}
		if (!nl)
			return;
		s = nl + 1;
	}
}

static void apply_audit(struct ft_replay *p, const struct ft_rec_record *rec)
{
	struct ft_replay_audit *a;
	const char *t = (const char *)rec->data;

	if (p->nr_audits == p->cap_audits) {
		size_t ncap = p->cap_audits ? p->cap_audits * 2 : 16;
		struct ft_replay_audit *n;

		if (ncap > 1u << 20)
			return;
		n = realloc(p->audits, ncap * sizeof(*n));
		if (!n)
			return;
		p->audits = n;
		p->cap_audits = ncap;
	}
	a = &p->audits[p->nr_audits++];
	memset(a, 0, sizeof(*a));
	a->t_ns = rec->t_ns;
	a->tick = p->ticks;
	field(t, rec->len, "knob", a->knob, sizeof(a->knob));
	field(t, rec->len, "old", a->old, sizeof(a->old));
	field(t, rec->len, "new", a->new, sizeof(a->new));
	field(t, rec->len, "how", a->how, sizeof(a->how));
	field(t, rec->len, "outcome", a->outcome, sizeof(a->outcome));
	field(t, rec->len, "msg", a->msg, sizeof(a->msg));
}

int ft_replay_open(struct ft_replay *p, const char *path)
{
	struct stat st;
	size_t i;
	int err;

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	ft_live_open_replay(&p->live);
	p->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (p->fd < 0 || fstat(p->fd, &st)) {
		err = -errno;
		snprintf(p->r.why, sizeof(p->r.why), "%s", strerror(errno));
		if (p->fd >= 0)
			close(p->fd);
		p->fd = -1;
		return err;
	}
	err = ft_rec_open(&p->r, (struct ft_rec_src){ fd_pread, (uint64_t)st.st_size, &p->fd });
	if (err)
		return err;
	for (i = 0; i < p->r.nr; i++) {
		const uint8_t *raw;
		size_t len, off = 0;
		struct ft_rec_record rec;
		bool bad;

		if (p->r.chunks[i].c.type != FT_RC_META)
			continue;
		if (ft_rec_load(&p->r, i, &raw, &len)) {
			p->bad_chunks++;
			continue;
		}
		while (ft_rec_next(raw, len, &off, &rec, &bad)) {
			if (rec.type == FT_RR_HOST)
				apply_host(p, &rec);
			else if (rec.type == FT_RR_TRACE_FMT)
				apply_format(p, &rec);
			else if (rec.type == FT_RR_IOMEM)
				ft_live_replay_iomem(&p->live, (const char *)rec.data, rec.len);
		}
		if (bad)
			p->bad_records++;
	}
	return 0;
}

void ft_replay_close(struct ft_replay *p)
{
	int i;

	ft_rec_close(&p->r);
	if (p->fd >= 0)
		close(p->fd);
	for (i = 0; i < FT_SRC_NR; i++)
		free(p->src[i]);
	free(p->audits);
	ft_live_close(&p->live);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
}

static void keep_source(struct ft_replay *p, const struct ft_rec_record *rec)
{
	int s = rec->sub;

	if (s >= FT_SRC_NR)
		return;
	if (rec->len + 1 > p->src_cap[s]) {
		char *n = realloc(p->src[s], rec->len + 1);

		if (!n) {
			p->bad_records++;
			return;
		}
		p->src[s] = n;
		p->src_cap[s] = rec->len + 1;
	}
	memcpy(p->src[s], rec->data, rec->len);
	p->src[s][rec->len] = '\0';
	p->src_len[s] = rec->len;
	p->src_fresh[s] = true;
}

static void apply_tick(struct ft_replay *p, const struct ft_rec_record *rec)
{
	struct ft_raw raw = { .t_ns = rec->t_ns };
	uint64_t rt = 0;
	int i;

	for (i = 0; i < FT_SRC_NR; i++) {
		raw.src[i].fresh = p->src_fresh[i];
		if (p->lean && i != FT_SRC_VMSTAT && p->ticks % p->lean && p->ticks)
			raw.src[i].fresh = false;
		raw.src[i].buf = p->src[i];
		raw.src[i].len = p->src_len[i];
		p->src_fresh[i] = false;
	}
	ft_live_apply(&p->live, &raw);
	if (rec->len == 8)
		memcpy(&rt, rec->data, 8);
	if (!p->ticks) {
		p->t_first = rec->t_ns;
		p->rt_first = rt;
	}
	p->t_last = rec->t_ns;
	p->rt_last = rt;
	p->ticks++;
}

int ft_replay_step(struct ft_replay *p)
{
	for (;;) {
		struct ft_rec_record rec;
		bool bad;

		if (!p->have_chunk) {
			while (p->chunk < p->r.nr && p->r.chunks[p->chunk].c.type != FT_RC_DATA)
				p->chunk++;
			if (p->chunk >= p->r.nr)
				return 0;
			if (ft_rec_load(&p->r, p->chunk++, &p->raw, &p->len)) {
				p->bad_chunks++;
				continue;
			}
			p->off = 0;
			p->have_chunk = true;
		}
		if (!ft_rec_next(p->raw, p->len, &p->off, &rec, &bad)) {
			if (bad)
				p->bad_records++;
			p->have_chunk = false;
			continue;
		}
		switch (rec.type) {
		case FT_RR_PROC:
			keep_source(p, &rec);
			break;
		case FT_RR_KNOB:
			ft_live_replay_knob(&p->live, rec.sub, (const char *)rec.data, rec.len);
			break;
		case FT_RR_TRACE_PAGE:
			ft_live_replay_trace_page(&p->live, rec.sub, rec.data, rec.len);
			break;
		case FT_RR_TRACE_LOST:
			if (rec.len == 8)
				memcpy(&p->live.lost, rec.data, 8);
			break;
		case FT_RR_AUDIT:
			apply_audit(p, &rec);
			break;
		case FT_RR_KPF:
			ft_live_replay_kpf(&p->live, rec.sub, rec.data, rec.len);
			break;
		case FT_RR_TICK:
			apply_tick(p, &rec);
			return 1;
		default:
			break;	/* a newer record type */
		}
	}
}
