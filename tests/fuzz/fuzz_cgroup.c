// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the container parsers on arbitrary bytes: the
 * CGROUPS input, memory.stat, a pressure file, smaps_rollup,
 * /proc/PID/cgroup and a /var/log/pods name.
 * Invariants: no crash; the tables within their bounds; paths absolute
 * and terminated; names terminated; pressure averages finite and not
 * negative; a coverage in [0, 1] or NAN... or above 1 only when the
 * kernel's (or the input's) numbers say so.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/cgroup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void terminated(const char *s, size_t max)
{
	if (!memchr(s, '\0', max))
		__builtin_trap();
}

static void psi_ok(const struct ft_psi_line *l)
{
	if (l->have &&
	    (!isfinite(l->avg10) || l->avg10 < 0 || !isfinite(l->avg60) || l->avg60 < 0 ||
			!isfinite(l->avg300) || l->avg300 < 0))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ft_cgroups c;
	const char *text = (const char *)data;
	struct ft_cg_mem m;
	struct ft_psi p;
	struct ft_pod pod;
	struct ft_smaps sm;
	char path[128];
	int i;

	ft_cgroup_table_parse(text, size, &c);
	if (c.nr < 0 || c.nr > FT_CG_MAX || c.nr_pods < 0 || c.nr_pods > FT_CG_PODS ||
	    (c.version != 0 && c.version != 1 && c.version != 2))
		__builtin_trap();
	psi_ok(&c.host.some);
	psi_ok(&c.host.full);
	for (i = 0; i < c.nr; i++) {
		terminated(c.g[i].path, sizeof(c.g[i].path));
		terminated(c.g[i].name, sizeof(c.g[i].name));
		if (c.g[i].path[0] != '/' && c.g[i].path[0] != '~')
			__builtin_trap();
		psi_ok(&c.g[i].psi.some);
		psi_ok(&c.g[i].psi.full);
	}
	for (i = 0; i < c.nr_pods; i++) {
		terminated(c.pods[i].uid, sizeof(c.pods[i].uid));
		terminated(c.pods[i].ns, sizeof(c.pods[i].ns));
		terminated(c.pods[i].name, sizeof(c.pods[i].name));
	}
	if (!ft_cgroup_mem_parse(text, size, &m)) {
		double cov = ft_cgroup_mem_coverage(&m);

		if (!isnan(cov) && (cov < 0 || !isfinite(cov)))
			__builtin_trap();
	}
	if (!ft_cgroup_psi_parse(text, size, &p)) {
		psi_ok(&p.some);
		psi_ok(&p.full);
	}
	if (!ft_cgroup_smaps_parse(text, size, &sm)) {
		double cov = ft_cgroup_smaps_coverage(&sm);

		if (sm.anon % 1024 || sm.anon_huge % 1024 || (!isnan(cov) && cov < 0))
			__builtin_trap();
	}
	if (!ft_cgroup_of_proc(text, size, path, sizeof(path)))
		terminated(path, sizeof(path));
	/*
	 * the escape: terminated, no control byte out, and its length the one it says when it fits
	 */
	{
		static char esc[4 * 4096 + 1];
		size_t in = size < 4096 ? size : 4096,
		n = ft_cgroup_path_escape(text, in, esc, sizeof(esc));

		terminated(esc, sizeof(esc));
		if (n >= sizeof(esc) || strlen(esc) != n)
			__builtin_trap();
		for (size_t k = 0; k < n; k++)
			if ((unsigned char)esc[k] < 0x20 || esc[k] == 0x7f)
				__builtin_trap();
	}
	if (ft_cgroup_pod_parse(text, size, &pod)) {
		terminated(pod.ns, sizeof(pod.ns));
		terminated(pod.name, sizeof(pod.name));
		terminated(pod.uid, sizeof(pod.uid));
		if (strchr(pod.ns, '_') || strchr(pod.name, '_'))
			__builtin_trap();
	}
	return 0;
}
