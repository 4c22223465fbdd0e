// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/findings.h"

#include <math.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/text.h"

#define RUNBOOK	"docs/runbook.md#"

/* "cgroup /a 62%, process fio (pid 12) 40%", names made safe; "" when nobody is known. */
static void who_text(const struct ft_finding *fd, char *buf, size_t sz)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 2 && len < sz; i++) {
		const struct ft_find_who *w = &fd->who[i];
		char safe[192];

		if (!w->name[0])
			continue;
		ft_safe(w->name, safe, sizeof(safe));
		if (w->pid)
			len += (size_t)snprintf(buf + len, sz - len, "%sprocess %s (pid %d) %.0f%%",
						len ? ", " : "",
						safe, w->pid, w->pct);
		else
			len += (size_t)snprintf(buf + len, sz - len, "%scgroup %s %.0f%%",
						len ? ", " : "", safe,
						w->pct);
	}
}

#define WIDTH	80	/* the text's columns, as report's */

void ft_render_wrapped(FILE *f, const char *in, const char *lead, const char *text)
{
	int col = (int)(strlen(in) + strlen(lead));
	size_t room = WIDTH - col > 20 ? (size_t)(WIDTH - col) : 20, n = strlen(text), at = 0;
	bool first = true;

	while (at < n || first) {
		size_t take = ft_wrap_take(text + at, n - at, room);

		fprintf(f, "%s%-*s%.*s\n", in, (int)strlen(lead), first ? lead : "", (int)take,
			text + at);
		first = false;
		at = ft_wrap_skip(text, n, at + take);
	}
}

void ft_render_finding_text(FILE *f, const struct ft_findings *fs, const struct ft_finding *fd,
			    const char *in,
			    const struct ft_findings *whole)
{
	const struct ft_rule *r = fd->rule;
	char safe[1024], who[512], val[64], buf[1024];
	const char *nl = strchr(r->explain, '\n');
	size_t n = 0;
	int i;

	snprintf(buf, sizeof(buf), "%s %s: %s", fd->sev == FT_SEV_CRITICAL ? "CRITICAL" :
		 fd->sev == FT_SEV_WARNING ? "WARNING" : "INFO", r->name, r->title);
	ft_render_wrapped(f, in, "", buf);
	ft_render_wrapped(f, in, "  ", ft_safe(fd->detail, safe, sizeof(safe)));
	/* the two lines of why, as one paragraph at this width */
	snprintf(buf, sizeof(buf), "%.*s%s%s",
		 nl ? (int)(nl - r->explain) : (int)strlen(r->explain), r->explain,
		 nl ? " " : "", nl ? nl + 1 : "");
	ft_render_wrapped(f, in, "  ", buf);
	for (i = 0; i < fd->nr_ev && n < sizeof(buf); i++) {
		ft_find_value_text(&fs->in, fd->ev[i], val, sizeof(val));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %s", i ? ", " : "",
				      ft_find_figs[fd->ev[i]].key,
				      val);
	}
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " (%.0f-%.0f s)", fs->in.from_s, fs->in.to_s);
	ft_render_wrapped(f, in, "  evidence: ", buf);
	if (whole) {	/* the whole window's same figures, beside and said to be so */
		for (i = 0, n = 0; i < fd->nr_ev && n < sizeof(buf); i++) {
			ft_find_value_text(&whole->in, fd->ev[i], val, sizeof(val));
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s %s", i ? ", " : "",
					      ft_find_figs[fd->ev[i]].key, val);
		}
		if (n < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - n,
				 " (%.0f-%.0f s, every interval together: not this finding's)",
				 whole->in.from_s, whole->in.to_s);
		ft_render_wrapped(f, in, "  whole window: ", buf);
	}
	who_text(fd, who, sizeof(who));
	if (who[0])
		ft_render_wrapped(f, in, "  who:      ", who);
	ft_render_wrapped(f, in, "  look:     ", r->look);
	if (fd->knob[0])
		snprintf(buf, sizeof(buf), "%s (fragtop set %s=%s)", r->action, fd->knob,
			 fd->value);
	else
		snprintf(buf, sizeof(buf), "%s", r->action);
	ft_render_wrapped(f, in, "  action:   ", buf);
	ft_render_wrapped(f, in, "  expect:   ", r->effect);
	ft_render_wrapped(f, in, "  source:   ", r->source);
	snprintf(buf, sizeof(buf), RUNBOOK "%s", r->name);
	ft_render_wrapped(f, in, "  runbook:  ", buf);
}

void ft_render_findings_text(FILE *f, const struct ft_findings *fs, const char *in)
{
	int i;

	for (i = 0; i < fs->nr; i++) {
		if (i)
			fputc('\n', f);
		ft_render_finding_text(f, fs, &fs->f[i], in, NULL);
	}
	if (!fs->nr)
		fprintf(f, "%snothing wrong found\n", in);
	if (fs->nr)
		fputc('\n', f);
	ft_render_findings_checked_text(f, fs->checked, fs->missing, in);
}

void ft_render_findings_checked_text(FILE *f, const bool *checked, const enum ft_fx *missing,
				     const char *in)
{
	char buf[2048];
	size_t n = 0;
	int i;

	for (i = 0; i < FT_FIND_RULES && n < sizeof(buf); i++)
		if (checked[i])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "",
					      ft_find_rules[i].name);
	ft_render_wrapped(f, in, "checked: ", n ? buf : "nothing");
	for (i = 0, n = 0; i < FT_FIND_RULES && n < sizeof(buf); i++)
		if (!checked[i])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s (needs %s)",
					      n ? "; " : "",
					      ft_find_rules[i].name,
					      ft_find_figs[missing[i]].needs);
	if (n)
		ft_render_wrapped(f, in, "not checked: ", buf);
}

static void json_who(struct ft_json *j, const struct ft_find_who *w, const char *kind)
{
	if (!w->name[0])
		return;
	ft_json_obj_begin(j, NULL);
	ft_json_str(j, "kind", kind);
	ft_json_str(j, "name", w->name);
	if (w->pid)
		ft_json_i64(j, "pid", w->pid);
	ft_json_double(j, "share_pct", w->pct);
	ft_json_obj_end(j);
}

void ft_render_finding_json(struct ft_json *j, const struct ft_findings *fs,
			    const struct ft_finding *fd,
			    void (*extra)(struct ft_json *j, const void *ctx), const void *ctx)
{
	const struct ft_rule *r = fd->rule;
	char anchor[96];
	int i;

	ft_json_obj_begin(j, NULL);
	ft_json_str(j, "rule", r->name);
	ft_json_str(j, "severity", ft_find_sev_names[fd->sev]);
	ft_json_str(j, "title", r->title);
	ft_json_str(j, "detail", fd->detail);
	ft_json_str(j, "explain", r->explain);
	ft_json_obj_begin(j, "evidence");
	ft_json_double(j, "from_s", fs->in.from_s);
	ft_json_double(j, "to_s", fs->in.to_s);
	ft_json_obj_begin(j, "figures");
	for (i = 0; i < fd->nr_ev; i++)
		ft_json_double(j, ft_find_figs[fd->ev[i]].key, fs->in.v[fd->ev[i]]);
	ft_json_obj_end(j);
	ft_json_obj_end(j);
	ft_json_arr_begin(j, "who");
	json_who(j, &fd->who[0], "cgroup");
	json_who(j, &fd->who[1], "process");
	ft_json_arr_end(j);
	ft_json_str(j, "look", r->look);
	ft_json_obj_begin(j, "action");
	ft_json_str(j, "text", r->action);
	if (fd->knob[0]) {
		ft_json_str(j, "knob", fd->knob);
		ft_json_str(j, "value", fd->value);
	} else {
		ft_json_null(j, "knob");
	}
	ft_json_str(j, "effect", r->effect);
	ft_json_str(j, "source", r->source);
	ft_json_obj_end(j);
	snprintf(anchor, sizeof(anchor), RUNBOOK "%s", r->name);
	ft_json_str(j, "runbook", anchor);
	if (extra)
		extra(j, ctx);
	ft_json_obj_end(j);
}

void ft_render_findings_json(struct ft_json *j, const struct ft_findings *fs)
{
	int i;

	ft_json_arr_begin(j, "findings");
	for (i = 0; i < fs->nr; i++)
		ft_render_finding_json(j, fs, &fs->f[i], NULL, NULL);
	ft_json_arr_end(j);
	ft_render_findings_checked_json(j, fs->checked, fs->missing);
}

void ft_render_findings_checked_json(struct ft_json *j, const bool *checked,
				     const enum ft_fx *missing)
{
	int i;

	ft_json_arr_begin_inline(j, "checked");
	for (i = 0; i < FT_FIND_RULES; i++)
		if (checked[i])
			ft_json_str(j, NULL, ft_find_rules[i].name);
	ft_json_arr_end(j);
	ft_json_arr_begin(j, "not_checked");
	for (i = 0; i < FT_FIND_RULES; i++) {
		if (checked[i])
			continue;
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "rule", ft_find_rules[i].name);
		ft_json_str(j, "missing", ft_find_figs[missing[i]].key);
		ft_json_str(j, "needs", ft_find_figs[missing[i]].needs);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

void ft_render_rules_text(FILE *f)
{
	int i, j;

	for (i = 0; i < FT_FIND_RULES; i++) {
		const struct ft_rule *r = &ft_find_rules[i];

		fprintf(f, "%-20s %-8s", r->name, ft_find_sev_names[r->sev]);
		for (j = 0; j < FT_FIND_TH && r->th[j].name; j++)
			fprintf(f, " %s=%g%s", r->th[j].name, r->th[j].v, r->th[j].unit);
		fprintf(f, "  needs:");
		for (j = 0; j < r->nr_needs; j++)
			fprintf(f, "%s%s", j ? "," : " ", ft_find_figs[r->needs[j]].key);
		fputc('\n', f);
	}
}
