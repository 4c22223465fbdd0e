// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/cgroup.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/text.h"

const char *const ft_cgm_names[FT_CGM_NR] = {
	[FT_CGM_ANON] = "anon", [FT_CGM_ANON_THP] = "anon_thp", [FT_CGM_FILE] = "file",
	[FT_CGM_FILE_THP] = "file_thp", [FT_CGM_SHMEM_THP] = "shmem_thp",
	[FT_CGM_THP_FAULT_ALLOC] = "thp_fault_alloc",
	[FT_CGM_THP_COLLAPSE_ALLOC] = "thp_collapse_alloc",
};

/* "avg10=0.12" into @v; false when the key is not @key or the number is junk. */
static bool psi_field(const struct ft_span *tok, const char *key, double *v)
{
	size_t n = strlen(key);
	char num[32], *end;

	if (tok->len <= n + 1 || memcmp(tok->p, key, n) || tok->p[n] != '=' ||
	    tok->len - n - 1 >= sizeof(num))
		return false;
	memcpy(num, tok->p + n + 1, tok->len - n - 1);
	num[tok->len - n - 1] = '\0';
	*v = strtod(num, &end);
	return *end == '\0' && end != num && isfinite(*v) && *v >= 0;
}

/*
 * The words after "some" or "full": avg10= avg60= avg300= total=, in that order; @out unchanged if
 * not.
 */
static int psi_rest(struct ft_span *line, struct ft_psi_line *out)
{
	static const char *const keys[3] = { "avg10", "avg60", "avg300" };
	struct ft_psi_line l = { .have = true };
	double *v[3] = { &l.avg10, &l.avg60, &l.avg300 };
	struct ft_span tok, num;
	int i;

	for (i = 0; i < 3; i++)
		if (!ft_tok_next(line, &tok) || !psi_field(&tok, keys[i], v[i]))
			return -EINVAL;
	if (!ft_tok_next(line, &tok) || !ft_span_starts(&tok, "total="))
		return -EINVAL;
	num = (struct ft_span){ tok.p + 6, tok.len - 6 };
	if (ft_span_u64(&num, &l.total_us) || ft_tok_next(line, &tok))
		return -EINVAL;
	*out = l;
	return 0;
}

/* "some ..." or "full ..." into @out's line of that kind. */
static int psi_line(struct ft_span line, struct ft_psi *out)
{
	struct ft_span kind;

	if (!ft_tok_next(&line, &kind))
		return -EINVAL;
	if (ft_span_eq(&kind, "some"))
		return psi_rest(&line, &out->some);
	if (ft_span_eq(&kind, "full"))
		return psi_rest(&line, &out->full);
	return -EINVAL;
}

int ft_cgroup_psi_parse(const char *buf, size_t len, struct ft_psi *out)
{
	struct ft_cursor c;
	struct ft_span line;
	int err;

	memset(out, 0, sizeof(*out));
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		if (!ft_span_trim(line).len)
			continue;
		err = psi_line(line, out);
		if (err)
			return err;
	}
	return out->some.have ? 0 : -EINVAL;
}

int ft_cgroup_mem_parse(const char *buf, size_t len, struct ft_cg_mem *out)
{
	/*
	 * v2's keys (its memory.stat counts the whole subtree), then v1's into
	 * the same slots: v1's total_ ones are the subtree's, as v2's, and win
	 * over the cgroup's own
	 */
	static const struct {
		const char *key;
		enum ft_cgm f;
		bool strong;
	} keys[] = {
		{ "anon", FT_CGM_ANON, true }, { "anon_thp", FT_CGM_ANON_THP, true },
		{ "file", FT_CGM_FILE, true },
		{ "file_thp", FT_CGM_FILE_THP, true }, { "shmem_thp", FT_CGM_SHMEM_THP, true },
		{ "thp_fault_alloc", FT_CGM_THP_FAULT_ALLOC, true },
		{ "thp_collapse_alloc", FT_CGM_THP_COLLAPSE_ALLOC, true },
		{ "total_rss", FT_CGM_ANON, true }, { "total_rss_huge", FT_CGM_ANON_THP, true },
		{ "total_cache", FT_CGM_FILE, true },
		{ "rss", FT_CGM_ANON, false }, { "rss_huge", FT_CGM_ANON_THP, false },
		{ "cache", FT_CGM_FILE, false },
	};
	struct ft_cursor c;
	struct ft_span line, key, val, extra;
	uint32_t strong = 0;
	size_t i;
	uint64_t v;

	memset(out, 0, sizeof(*out));
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		if (!ft_tok_next(&line, &key))
			continue;
		if (!ft_tok_next(&line, &val) || ft_tok_next(&line, &extra) ||
		    ft_span_u64(&val, &v))
			return -EINVAL;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			uint32_t bit = 1u << keys[i].f;

			if (!ft_span_eq(&key, keys[i].key) || (strong & bit) ||
			    ((out->have & bit) && !keys[i].strong))
				continue;
			out->v[keys[i].f] = v;
			out->have |= bit;
			if (keys[i].strong)
				strong |= bit;
		}
	}
	return out->have ? 0 : -EINVAL;
}

double ft_cgroup_mem_coverage(const struct ft_cg_mem *m)
{
	uint32_t need = 1u << FT_CGM_ANON | 1u << FT_CGM_ANON_THP;

	if ((m->have & need) != need || !m->v[FT_CGM_ANON])
		return NAN;
	return (double)m->v[FT_CGM_ANON_THP] / (double)m->v[FT_CGM_ANON];
}

/* "Key:   123 kB" into bytes; false when the line is not that. */
static bool kb_line(struct ft_span line, const char *key, uint64_t *bytes)
{
	struct ft_span k, v, unit, extra;
	uint64_t kb;

	if (!ft_tok_next(&line, &k) || !ft_span_eq(&k, key) || !ft_tok_next(&line, &v) ||
	    !ft_tok_next(&line, &unit) || !ft_span_eq(&unit, "kB") || ft_tok_next(&line, &extra) ||
	    ft_span_u64(&v, &kb) || kb > UINT64_MAX / 1024)
		return false;
	*bytes = kb * 1024;
	return true;
}

int ft_cgroup_smaps_parse(const char *buf, size_t len, struct ft_smaps *out)
{
	struct ft_cursor c;
	struct ft_span line;
	bool anon = false, huge = false;

	memset(out, 0, sizeof(*out));
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		if (ft_span_starts(&line, "Anonymous:"))
			anon = kb_line(line, "Anonymous:", &out->anon);
		else if (ft_span_starts(&line, "AnonHugePages:"))
			huge = kb_line(line, "AnonHugePages:", &out->anon_huge);
	}
	return anon && huge ? 0 : -EINVAL;
}

double ft_cgroup_smaps_coverage(const struct ft_smaps *s)
{
	return s->anon ? (double)s->anon_huge / (double)s->anon : NAN;
}

/* A Kubernetes name: lowercase letters, digits, '-' and '.', 1 to 63 of them. */
static bool kube_name(const char *p, size_t n)
{
	size_t i;

	if (!n || n >= FT_CG_POD_NAME)
		return false;
	for (i = 0; i < n; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9') || p[i] == '-' ||
		      p[i] == '.'))
			return false;
	return true;
}

/* A uid: hex digits and dashes, 8 to 39 of them. */
static bool uid_ok(const char *p, size_t n)
{
	size_t i;

	if (n < 8 || n >= FT_CG_UID)
		return false;
	for (i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f') || p[i] == '-'))
			return false;
	return true;
}

bool ft_cgroup_pod_parse(const char *buf, size_t len, struct ft_pod *out)
{
	const char *a = memchr(buf, '_', len), *b;

	if (!a)
		return false;
	b = memchr(a + 1, '_', len - (size_t)(a + 1 - buf));
	if (!b || memchr(b + 1, '_', len - (size_t)(b + 1 - buf)))
		return false;
	if (!kube_name(buf, (size_t)(a - buf)) || !kube_name(a + 1, (size_t)(b - a - 1)) ||
	    !uid_ok(b + 1, len - (size_t)(b + 1 - buf)))
		return false;
	memset(out, 0, sizeof(*out));
	memcpy(out->ns, buf, (size_t)(a - buf));
	memcpy(out->name, a + 1, (size_t)(b - a - 1));
	memcpy(out->uid, b + 1, len - (size_t)(b + 1 - buf));
	return true;
}

/* The path's last component, its length in *@n. */
static const char *last_part(const char *path, size_t *n)
{
	const char *end = path + strlen(path), *p;

	while (end > path && end[-1] == '/')
		end--;
	for (p = end; p > path && p[-1] != '/'; p--)
		;
	*n = (size_t)(end - p);
	return p;
}

/* The 12 first hex digits after @prefix in @part ("docker-<64 hex>.scope"), or false. */
static bool runtime_id(const char *part, size_t n, const char *prefix, char id[13])
{
	size_t pl = strlen(prefix), i;

	if (n < pl + 12 || memcmp(part, prefix, pl))
		return false;
	for (i = 0; i < 12; i++) {
		char ch = part[pl + i];

		if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')))
			return false;
		id[i] = ch;
	}
	id[12] = '\0';
	return true;
}

/* A container's scope as "runtime:<id12>" (or "<id12>" alone with @bare); false when it is none. */
static bool container_of(const char *part, size_t n, bool bare, char *buf, size_t sz)
{
	static const struct {
		const char *prefix, *runtime;
	} rt[] = {
		{ "docker-", "docker" }, { "cri-containerd-", "containerd" }, { "crio-", "crio" },
		{ "containerd-", "containerd" }, { "", "docker" },
	};
	char id[13];
	size_t i;

	for (i = 0; i < sizeof(rt) / sizeof(rt[0]); i++)
		if (runtime_id(part, n, rt[i].prefix, id) && (rt[i].prefix[0] || n == 64)) {
			snprintf(buf, sz, bare ? "%s" : "%s:%s", bare ? id : rt[i].runtime, id);
			return true;
		}
	return false;
}

/*
 * The pod of @path: its uid in a component "pod<uid>" (cgroupfs) or
 * "...-pod<uid with '_' for '-'>.slice" (systemd), as the API prints it.
 */
static bool pod_uid(const char *path, char uid[FT_CG_UID], const char **after)
{
	const char *p = path;

	while ((p = strstr(p, "pod"))) {
		const char *s = p + 3;
		size_t n = strcspn(s, "./");
		size_t i;

		if ((p == path || p[-1] == '/' || p[-1] == '-') && n >= 8 && n < FT_CG_UID) {
			for (i = 0; i < n; i++)
				uid[i] = s[i] == '_' ? '-' : s[i];
			uid[n] = '\0';
			if (uid_ok(uid, n)) {
				*after = s + n;
				return true;
			}
		}
		p += 3;
	}
	return false;
}

/* "kubepods.slice/kubepods-burstable.slice" or "/kubepods/burstable" as "kubepods/burstable". */
static bool qos_slice(const char *part, size_t n, char *buf, size_t sz)
{
	static const char *const qos[] = { "burstable", "besteffort", "guaranteed" };
	size_t i;

	if ((n == 14 && !memcmp(part, "kubepods.slice", 14)) ||
	    (n == 8 && !memcmp(part, "kubepods", 8))) {
		snprintf(buf, sz, "kubepods");
		return true;
	}
	for (i = 0; i < sizeof(qos) / sizeof(qos[0]); i++) {
		size_t q = strlen(qos[i]);

		if ((n == q && !memcmp(part, qos[i], q)) ||
		    (n == 9 + q + 6 && !memcmp(part, "kubepods-", 9) &&
		     !memcmp(part + 9, qos[i], q) &&
		     !memcmp(part + 9 + q, ".slice", 6))) {
			snprintf(buf, sz, "kubepods/%s", qos[i]);
			return true;
		}
	}
	return false;
}

void ft_cgroup_name(const char *path, const struct ft_pod *pods, int nr_pods, char *buf, size_t sz)
{
	char uid[FT_CG_UID], ctr[32] = "";
	const char *after, *part;
	size_t n, len = strlen(path);
	int i;

	if (!sz)
		return;
	part = last_part(path, &n);
	if (!n) {
		snprintf(buf, sz, "/");
		return;
	}
	if (pod_uid(path, uid, &after)) {
		size_t an;
		const char *ap = last_part(after, &an);

		if (an && ap >= after)
			container_of(ap, an, true, ctr, sizeof(ctr));
		for (i = 0; i < nr_pods; i++)
			if (!strcmp(pods[i].uid, uid)) {
				snprintf(buf, sz, "%s/%s%s%s", pods[i].ns, pods[i].name,
					 ctr[0] ? "/" : "", ctr);
				return;
			}
		snprintf(buf, sz, "pod:%.8s%s%s", uid, ctr[0] ? "/" : "", ctr);
		return;
	}
	if (qos_slice(part, n, buf, sz) || container_of(part, n, false, buf, sz))
		return;
	if ((n > 8 && !memcmp(part + n - 8, ".service", 8)) ||
	    (n > 6 && !memcmp(part + n - 6, ".scope", 6)) ||
	    (n > 6 && !memcmp(part + n - 6, ".slice", 6))) {
		snprintf(buf, sz, "%.*s", (int)n, part);
		return;
	}
	if (len < sz)
		snprintf(buf, sz, "%s", path);
	else
		snprintf(buf, sz, "~%s", path + len - (sz - 2));
}

const struct ft_pod *ft_cgroup_pod_of(const struct ft_cgroups *c, const char *path)
{
	char uid[FT_CG_UID];
	const char *after;
	int i;

	if (!pod_uid(path, uid, &after))
		return NULL;
	for (i = 0; i < c->nr_pods; i++)
		if (!strcmp(c->pods[i].uid, uid))
			return &c->pods[i];
	return NULL;
}

size_t ft_cgroup_path_escape(const char *p, size_t len, char *out, size_t sz)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t o = 0;

	while (len) {
		uint32_t cp;
		int n = ft_utf8_next(u, len, &cp);
		char esc[5];

		if (n <= 0 || cp < 0x20 || cp == 0x7f || cp == '\\') {
			snprintf(esc, sizeof(esc), "\\x%02x", u[0]);
			for (int i = 0; i < 4; i++, o++)
				if (o + 1 < sz)
					out[o] = esc[i];
			n = 1;
		} else {
			for (int i = 0; i < n; i++, o++)
				if (o + 1 < sz)
					out[o] = (char)u[i];
		}
		u += n;
		len -= (size_t)n;
	}
	if (sz)
		out[o < sz ? o : sz - 1] = '\0';
	return o;
}

void ft_cgroup_path_key(const char *p, size_t len, char *out, size_t sz)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i, tail;

	if (!sz)
		return;
	if (len < sz) {
		memcpy(out, p, len);
		out[len] = '\0';
		return;
	}
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	if (sz < 19) {		/* no room for the hash: cut */
		snprintf(out, sz, "%.*s", (int)len, p);
		return;
	}
	tail = sz - 19;		/* '~', the tail, '#', 16 digits, NUL */
	snprintf(out, sz, "~%.*s#%016llx", (int)tail, p + len - tail, (unsigned long long)h);
}

int ft_cgroup_of_proc(const char *buf, size_t len, char *out, size_t sz)
{
	struct ft_span unified = { NULL, 0 }, memory = { NULL, 0 }, line;
	struct ft_cursor c;

	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		const char *c1 = memchr(line.p, ':', line.len), *c2;

		if (!c1)
			continue;
		c2 = memchr(c1 + 1, ':', line.len - (size_t)(c1 + 1 - line.p));
		if (!c2)
			continue;
		if (c1[1] == ':')
			unified = (struct ft_span){ c2 + 1, line.len - (size_t)(c2 + 1 - line.p) };
		else if ((size_t)(c2 - c1 - 1) >= 6 && !memcmp(c1 + 1, "memory", 6) &&
			 (c1 + 7 == c2 || c1[7] == ','))
			memory = (struct ft_span){ c2 + 1, line.len - (size_t)(c2 + 1 - line.p) };
	}
	if (memory.p && !(memory.len == 1 && memory.p[0] == '/'))
		unified = memory;
	if (!unified.p || !sz)
		return -ENOENT;
	{
		/* escaped whole (a line's path is at most a read's 4 KiB here), then keyed */
		char esc[4 * 4096 + 1];
		size_t n = ft_cgroup_path_escape(unified.p, unified.len < 4096 ? unified.len : 4096,
						 esc, sizeof(esc));

		ft_cgroup_path_key(esc, n < sizeof(esc) ? n : sizeof(esc) - 1, out, sz);
	}
	return 0;
}

/* One line of a CGROUPS input into @out; false when it is malformed. */
static bool cgroups_line(struct ft_span line, struct ft_cgroups *out)
{
	struct ft_cgroup *g = out->nr ? &out->g[out->nr - 1] : NULL;
	struct ft_span word, a, b, c;
	uint64_t v;
	size_t i;

	if (!ft_tok_next(&line, &word))
		return true;
	if (ft_span_eq(&word, "version"))
		return ft_tok_next(&line, &a) && !ft_span_u64(&a, &v) && v <= 2 &&
		((out->version = (int)v), 1);
	if (ft_span_eq(&word, "host"))
		return !psi_line(line, &out->host);
	if (ft_span_eq(&word, "pod")) {
		struct ft_pod *p = &out->pods[out->nr_pods];

		if (out->nr_pods >= FT_CG_PODS || !ft_tok_next(&line, &a) ||
		    !ft_tok_next(&line, &b) ||
		    !ft_tok_next(&line, &c) || ft_tok_next(&line, &word) || !uid_ok(a.p, a.len) ||
		    !kube_name(b.p, b.len) || !kube_name(c.p, c.len))
			return false;
		ft_span_copy(&a, p->uid, sizeof(p->uid));
		ft_span_copy(&b, p->ns, sizeof(p->ns));
		ft_span_copy(&c, p->name, sizeof(p->name));
		out->nr_pods++;
		return true;
	}
	if (ft_span_eq(&word, "left"))
		return ft_tok_next(&line, &a) && !ft_span_u64(&a, &out->left_out) &&
		!ft_tok_next(&line, &b);
	if (ft_span_eq(&word, "cg")) {
		a = ft_span_trim(line);
		if (!a.len || a.p[0] != '/' || memchr(a.p, '\0', a.len))
			return false;
		if (out->nr >= FT_CG_MAX) {
			out->dropped++;
			return true;
		}
		g = &out->g[out->nr++];
		memset(g, 0, sizeof(*g));
		/* escaped by the collector */
		ft_cgroup_path_key(a.p, a.len, g->path, sizeof(g->path));
		return true;
	}
	if (!g || out->dropped)
		return !!g;	/* past FT_CG_MAX: its lines are the dropped cgroup's */
	if (ft_span_eq(&word, "procs"))
		return ft_tok_next(&line, &a) && !ft_span_u64(&a, &v) && v <= UINT32_MAX &&
		((g->procs = (uint32_t)v), 1);
	if (ft_span_eq(&word, "psi"))
		return !psi_line(line, &g->psi);
	if (!ft_span_eq(&word, "stat") || !ft_tok_next(&line, &a) || !ft_tok_next(&line, &b) ||
	    ft_span_u64(&b, &v))
		return false;
	for (i = 0; i < FT_CGM_NR; i++)
		if (ft_span_eq(&a, ft_cgm_names[i])) {
			g->mem.v[i] = v;
			g->mem.have |= 1u << i;
		}
	return true;
}

int ft_cgroup_table_parse(const char *text, size_t len, struct ft_cgroups *out)
{
	struct ft_cursor c;
	struct ft_span line;
	int bad = 0, i;

	out->known = true;
	out->version = 0;
	out->nr = out->nr_pods = 0;
	out->dropped = 0;
	out->left_out = 0;
	memset(&out->host, 0, sizeof(out->host));
	ft_cursor_init(&c, text, len);
	while (ft_line_next(&c, &line))
		bad += !cgroups_line(line, out);
	for (i = 0; i < out->nr; i++)
		ft_cgroup_name(out->g[i].path, out->pods, out->nr_pods, out->g[i].name,
			       sizeof(out->g[i].name));
	return bad;
}

const struct ft_cgroup *ft_cgroup_find(const struct ft_cgroups *c, const char *path)
{
	int i;

	for (i = 0; c && path[0] && i < c->nr; i++)
		if (!strcmp(c->g[i].path, path))
			return &c->g[i];
	return NULL;
}
