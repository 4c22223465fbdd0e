// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "render/findings.h"

static const char *const defrag_names[] = { "never", "defer", "defer+madvise", "madvise",
					    "always" };

/*
 * The knobs the rules read, as "name value" pairs; @all: every one, else those that differ among
 * @v's intervals.
 */
static size_t knobs_text(const struct ft_verdict *v, const struct ft_find_knobs *k, bool all,
			 char *buf, size_t sz)
{
	const struct { const char *name; size_t off; } num[] = {
		{ "watermark_boost_factor", offsetof(struct ft_find_knobs, boost_factor) },
		{ "watermark_scale_factor", offsetof(struct ft_find_knobs, scale_factor) },
		{ "compaction_proactiveness", offsetof(struct ft_find_knobs, proactiveness) },
		{ "min_free_kbytes", offsetof(struct ft_find_knobs, min_free_kb) },
		{ "thp_defrag", offsetof(struct ft_find_knobs, thp_defrag) },
	};
	size_t n = 0, i;
	int it;

	buf[0] = '\0';
	for (i = 0; i < sizeof(num) / sizeof(num[0]) && n < sz; i++) {
		double x = *(const double *)(const void *)((const char *)k + num[i].off);
		bool differs = false;

		for (it = 1; it < v->nr; it++) {
			double a =
				*(const double *)(const void *)((const char *)&v->iv[it].knobs +
								num[i].off);
			double b =
				*(const double *)(const void *)((const char *)&v->iv[0].knobs +
								num[i].off);

			differs |= a != b && !(isnan(a) && isnan(b));
		}
		if ((!all && !differs) || isnan(x))
			continue;
		if (i == 4 && x >= 0 && x < 5)
			n += (size_t)snprintf(buf + n, sz - n, "%s%s %s", n ? ", " : "",
					      num[i].name, defrag_names[(int)x]);
		else
			n += (size_t)snprintf(buf + n, sz - n, "%s%s %.0f", n ? ", " : "",
					      num[i].name, x);
	}
	if (!n && !all)
		return knobs_text(v, k, true, buf, sz) ? strlen(buf) : 0;
	return n;
}

void ft_render_verdict_text(FILE *f, const struct ft_verdict *v, const char *in)
{
	bool checked[FT_FIND_RULES] = { false };
	enum ft_fx missing[FT_FIND_RULES];
	char knobs[512], safe[256];
	int k, i;

	if (v->nr <= 1) {
		ft_render_findings_text(f, v->whole, in);
		return;
	}
	fprintf(f, "%sknobs changed %d time%s: each interval judged on its own figures\n", in,
		v->nr - 1 + v->folded, v->nr - 1 + v->folded == 1 ? "" : "s");
	for (k = 1; k < v->nr; k++) {
		const char *ob = v->iv[k].opened_by, *paren = strstr(ob, " (");

		char at[32], line[512];

		/* the change without the report's "(who)": who is said after it */
		ft_safe(paren ? strndupa(ob, (size_t)(paren - ob)) : ob, safe, sizeof(safe));
		snprintf(at, sizeof(at), "  +%.1f s  ", v->iv[k].from_s);
		snprintf(line, sizeof(line), "%s, by %s", safe, v->iv[k].by[0] ? v->iv[k].by : "?");
		ft_render_wrapped(f, in, at, line);
	}
	if (v->folded)
		fprintf(f, "%s  (%d more changes after: the last interval holds them all, its "
			   "knobs as at its end)\n", in,
			v->folded);
	memcpy(missing, v->iv[0].fs->missing, sizeof(missing));
	for (k = 0; k < v->nr; k++) {
		const struct ft_findings *fs = v->iv[k].fs;

		knobs_text(v, &v->iv[k].knobs, false, knobs, sizeof(knobs));
		fprintf(f, "\n%sinterval %d, +%.1f to +%.1f s: %d finding%s\n", in, k + 1,
			v->iv[k].from_s,
			v->iv[k].to_s, fs->nr, fs->nr == 1 ? "" : "s");
		ft_render_wrapped(f, in, "  knobs: ", knobs);
		for (i = 0; i < fs->nr; i++) {
			fputc('\n', f);
			ft_render_finding_text(f, fs, &fs->f[i], in, v->whole);
		}
		for (i = 0; i < FT_FIND_RULES; i++)
			checked[i] |= fs->checked[i];
	}
	fputc('\n', f);
	ft_render_findings_checked_text(f, checked, missing, in);
}

static void json_knobs(struct ft_json *j, const struct ft_find_knobs *k)
{
	ft_json_obj_begin_inline(j, "knobs");
	ft_json_double(j, "watermark_boost_factor", k->boost_factor);
	ft_json_double(j, "watermark_scale_factor", k->scale_factor);
	ft_json_double(j, "compaction_proactiveness", k->proactiveness);
	ft_json_double(j, "min_free_kbytes", k->min_free_kb);
	if (k->thp_defrag >= 0 && k->thp_defrag < 5)
		ft_json_str(j, "thp_defrag", defrag_names[(int)k->thp_defrag]);
	else
		ft_json_null(j, "thp_defrag");
	ft_json_obj_end(j);
}

struct extra {
	const struct ft_verdict *v;
	const struct ft_verdict_iv *iv;
	const struct ft_finding *fd;
};

/* A finding's interval, the knobs in force there, and the whole window's same figures. */
static void finding_extra(struct ft_json *j, const void *ctx)
{
	const struct extra *x = ctx;
	int i;

	ft_json_obj_begin_inline(j, "interval");
	ft_json_double(j, "from_s", x->iv->from_s);
	ft_json_double(j, "to_s", x->iv->to_s);
	ft_json_bool(j, "knobs_still", x->iv->still);
	ft_json_obj_end(j);
	json_knobs(j, &x->iv->knobs);
	if (x->v->nr < 2)
		return;		/* the interval is the window */
	ft_json_obj_begin(j, "whole_window");
	ft_json_double(j, "from_s", x->v->whole->in.from_s);
	ft_json_double(j, "to_s", x->v->whole->in.to_s);
	ft_json_str(j, "note", "every interval together: not this finding's figures");
	ft_json_obj_begin(j, "figures");
	for (i = 0; i < x->fd->nr_ev; i++)
		ft_json_double(j, ft_find_figs[x->fd->ev[i]].key, x->v->whole->in.v[x->fd->ev[i]]);
	ft_json_obj_end(j);
	ft_json_obj_end(j);
}

void ft_render_verdict_json(struct ft_json *j, const struct ft_verdict *v)
{
	bool checked[FT_FIND_RULES] = { false };
	int k, i, sev;

	ft_json_arr_begin(j, "intervals");
	for (k = 0; k < v->nr; k++) {
		const struct ft_verdict_iv *iv = &v->iv[k];

		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "from_s", iv->from_s);
		ft_json_double(j, "to_s", iv->to_s);
		if (k) {
			ft_json_str(j, "opened_by", iv->opened_by);
			ft_json_str(j, "changed_by", iv->by);
		} else {
			ft_json_null(j, "opened_by");
			ft_json_null(j, "changed_by");
		}
		ft_json_bool(j, "knobs_still", iv->still);
		json_knobs(j, &iv->knobs);
		ft_json_arr_begin_inline(j, "fired");
		for (i = 0; i < iv->fs->nr; i++)
			ft_json_str(j, NULL, iv->fs->f[i].rule->name);
		ft_json_arr_end(j);
		ft_json_obj_end(j);
		for (i = 0; i < FT_FIND_RULES; i++)
			checked[i] |= iv->fs->checked[i];
	}
	ft_json_arr_end(j);
	ft_json_i64(j, "folded_intervals", v->folded);
	/* the findings of every interval, most severe first, then in time */
	ft_json_arr_begin(j, "findings");
	for (sev = FT_SEV_NR - 1; sev >= 0; sev--)
		for (k = 0; k < v->nr; k++)
			for (i = 0; i < v->iv[k].fs->nr; i++) {
				const struct ft_finding *fd = &v->iv[k].fs->f[i];
				struct extra x = { v, &v->iv[k], fd };

				if ((int)fd->sev == sev)
					ft_render_finding_json(j, v->iv[k].fs, fd, finding_extra,
							       &x);
			}
	ft_json_arr_end(j);
	ft_render_findings_checked_json(j, checked, v->iv[0].fs->missing);
}

/* Rule @r's stretches: adjacent intervals it fired in, merged.  Their number. */
static int stretches(const struct ft_verdict *v, int r, double *from, double *to, int max)
{
	int k, n = 0;

	for (k = 0; k < v->nr; k++) {
		if (!ft_verdict_finding(v, k, r))
			continue;
		if (n && k > 0 && ft_verdict_finding(v, k - 1, r)) {
			to[n - 1] = v->iv[k].to_s;
			continue;
		}
		if (n == max)
			break;
		from[n] = v->iv[k].from_s;
		to[n++] = v->iv[k].to_s;
	}
	return n;
}

static int nr_checked(const struct ft_verdict *v, int r)
{
	int k, n = 0;

	for (k = 0; k < v->nr; k++)
		n += v->iv[k].fs->checked[r];
	return n;
}

void ft_render_timeline_text(FILE *f, const struct ft_verdict *v, const char *source)
{
	double from[FT_VERDICT_MAX_IV], to[FT_VERDICT_MAX_IV];
	int r, n, i, c;

	fprintf(f,
		"fragtop doctor --timeline: %s, %.0f to %.0f s, %d interval%s of still knobs\n\n",
		source,
		v->from_s, v->to_s, v->nr, v->nr == 1 ? "" : "s");
	fprintf(f, "%-22s %s\n", "rule", "active");
	for (r = 0; r < FT_FIND_RULES; r++) {
		n = stretches(v, r, from, to, FT_VERDICT_MAX_IV);
		c = nr_checked(v, r);
		fprintf(f, "%-22s", ft_find_rules[r].name);
		if (!c)
			fprintf(f, " not checked (needs %s)",
				ft_find_figs[v->iv[0].fs->missing[r]].needs);
		else if (!n)
			fprintf(f, " never (checked in %d of %d interval%s)", c, v->nr,
				v->nr == 1 ? "" : "s");
		for (i = 0; i < n; i++)
			fprintf(f, "%s +%.1f to +%.1f s", i ? "," : "", from[i], to[i]);
		fputc('\n', f);
	}
}

/* doctor's JSON object opened: "source" and the "window". */
static void envelope_begin(struct ft_json *j, FILE *f, const struct ft_verdict *v,
			   const char *source)
{
	ft_json_init(j, f, true);
	ft_json_obj_begin(j, NULL);
	ft_json_str(j, "source", source);
	ft_json_obj_begin(j, "window");
	ft_json_double(j, "from_s", v->from_s);
	ft_json_double(j, "to_s", v->to_s);
	ft_json_obj_end(j);
}

void ft_render_timeline_json(FILE *f, const struct ft_verdict *v, const char *source)
{
	double from[FT_VERDICT_MAX_IV], to[FT_VERDICT_MAX_IV];
	struct ft_json j;
	int r, n, i, k;

	envelope_begin(&j, f, v, source);
	ft_json_arr_begin(&j, "intervals");
	for (k = 0; k < v->nr; k++) {
		ft_json_obj_begin_inline(&j, NULL);
		ft_json_double(&j, "from_s", v->iv[k].from_s);
		ft_json_double(&j, "to_s", v->iv[k].to_s);
		if (k)
			ft_json_str(&j, "changed_by", v->iv[k].by);
		else
			ft_json_null(&j, "changed_by");
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_arr_begin(&j, "timeline");
	for (r = 0; r < FT_FIND_RULES; r++) {
		n = stretches(v, r, from, to, FT_VERDICT_MAX_IV);
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "rule", ft_find_rules[r].name);
		ft_json_i64(&j, "checked_intervals", nr_checked(v, r));
		ft_json_arr_begin_inline(&j, "active");
		for (i = 0; i < n; i++) {
			ft_json_obj_begin_inline(&j, NULL);
			ft_json_double(&j, "from_s", from[i]);
			ft_json_double(&j, "to_s", to[i]);
			ft_json_obj_end(&j);
		}
		ft_json_arr_end(&j);
		ft_json_obj_end(&j);
	}
	ft_json_arr_end(&j);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

void ft_render_doctor_json(FILE *f, const struct ft_verdict *v, const char *source)
{
	struct ft_json j;

	envelope_begin(&j, f, v, source);
	ft_render_verdict_json(&j, v);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

void ft_render_doctor_text(FILE *f, const struct ft_verdict *v, const char *source)
{
	int n = 0, k;

	for (k = 0; k < v->nr; k++)
		n += v->iv[k].fs->nr;
	fprintf(f, "fragtop doctor: %s, %.0f to %.0f s: %d finding%s\n\n", source, v->from_s,
		v->to_s, n,
		n == 1 ? "" : "s");
	ft_render_verdict_text(f, v, "");
}
