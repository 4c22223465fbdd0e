/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Containers, as the node itself tells them, with no API: the memory
 * cgroups (v2's memory.stat and memory.pressure, v1's memory.stat), the
 * host's /proc/pressure/memory, and the pods every kubelet names in
 * /var/log/pods/<namespace>_<name>_<uid>/.
 *
 * The live source reads them into one CGROUPS input (a text, below);
 * ft_cgroup_table_parse() turns it into struct ft_cgroups, and the parsers of
 * the kernel's files are pure and fuzzed, as every parser here.
 *
 * The CGROUPS input, one item a line (a value never holds a newline):
 *   version 1|2                 the memory controller's hierarchy
 *   host some|full avg10=A avg60=B avg300=C total=T   /proc/pressure/memory
 *   pod UID NAMESPACE NAME      a pod's directory under /var/log/pods
 *   cg PATH                     a cgroup starts (PATH from the hierarchy's root)
 *   procs N                     its processes (cgroup.procs lines)
 *   stat KEY VALUE              its memory.stat line
 *   psi some|full avg10=A avg60=B avg300=C total=T   its memory.pressure
 *   left N                      directories the walk left unread (a bound reached)
 */
#ifndef FT_KERNEL_CGROUP_H
#define FT_KERNEL_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_CG_MAX	512	/* cgroups a session keeps; more are counted, not kept */
/*
 * A cgroup's key: its path, escaped (ft_cgroup_path_escape()), whole up
 * to FT_CG_PATH - 1 bytes (a systemd-driver containerd path is about 191);
 * a longer one keeps its tail between '~' and '#' and a hash of it all
 * (ft_cgroup_path_key()), so two paths are never one key.  The process
 * table, the cgroup table, the exporter's top K and its labels all key
 * by it; a screen may shorten it, nothing else.
 */
#define FT_CG_PATH	512
#define FT_CG_PODS	512
#define FT_CG_POD_NAME	64	/* namespace and name, each (Kubernetes allows 63) */
#define FT_CG_UID	40

/* One pressure line: "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" (total in us). */
struct ft_psi_line {
	bool have;
	double avg10, avg60, avg300;	/* percent of wall time */
	uint64_t total_us;
};

struct ft_psi {
	struct ft_psi_line some, full;
};

/* memory.stat's fields fragtop uses, in bytes (v1: rss, rss_huge; v2: the rest). */
enum ft_cgm {
	FT_CGM_ANON,			/* v2 anon; v1 rss */
	FT_CGM_ANON_THP,		/* v2 anon_thp; v1 rss_huge */
	FT_CGM_FILE,			/* v2 file; v1 cache */
	FT_CGM_FILE_THP,		/* v2 only */
	FT_CGM_SHMEM_THP,		/* v2 only */
	FT_CGM_THP_FAULT_ALLOC,		/* v2 only: events, not bytes */
	FT_CGM_THP_COLLAPSE_ALLOC,	/* v2 only: events, not bytes */
	FT_CGM_NR
};

extern const char *const ft_cgm_names[FT_CGM_NR];	/* their JSON keys */

struct ft_cg_mem {
	uint64_t v[FT_CGM_NR];
	uint32_t have;			/* 1u << FT_CGM_*: the file had it */
};

struct ft_cgroup {
	char path[FT_CG_PATH];		/* from the hierarchy's root; "/" the root */
	char name[FT_CG_PATH];		/* as a person knows it (ft_cgroup_name()) */
	uint32_t procs;
	struct ft_cg_mem mem;
	struct ft_psi psi;		/* v2 memory.pressure; none on v1 */
};

struct ft_pod {
	char uid[FT_CG_UID];		/* with dashes, as the API prints it */
	char ns[FT_CG_POD_NAME], name[FT_CG_POD_NAME];
};

struct ft_cgroups {
	bool known;			/* a CGROUPS input came */
	int version;			/* 1, 2, or 0: no memory cgroup hierarchy */
	struct ft_psi host;		/* /proc/pressure/memory */
	int nr_pods;
	struct ft_pod pods[FT_CG_PODS];
	int nr;
	uint32_t dropped;		/* cgroups past FT_CG_MAX */
	/* directories the walk did not look at (its bounds): each one cgroup at least */
	uint64_t left_out;
	struct ft_cgroup g[FT_CG_MAX];
};

/* A pressure file ("some ...\nfull ...\n"; v1 kernels have only some).  0, or -EINVAL. */
int ft_cgroup_psi_parse(const char *buf, size_t len, struct ft_psi *out);

/*
 * A memory.stat file, v1 or v2 (told apart by its keys: "anon" is v2's,
 * "rss" v1's).  Unknown keys are skipped.  0, or -EINVAL.
 */
int ft_cgroup_mem_parse(const char *buf, size_t len, struct ft_cg_mem *out);

/* Huge anonymous memory over anonymous memory, 0..1; NAN when either is unknown or anon is 0. */
double ft_cgroup_mem_coverage(const struct ft_cg_mem *m);

/*
 * A /var/log/pods directory's name, "<namespace>_<name>_<uid>": false
 * when it is not one (Kubernetes names hold no '_').
 */
bool ft_cgroup_pod_parse(const char *buf, size_t len, struct ft_pod *out);

/*
 * The name a person knows cgroup @path by, into @buf: a pod's
 * "namespace/name" (its uid in the path, found among @pods), with
 * "/<container id's first 12>" for a container's scope under it; a
 * Kubernetes QoS slice ("kubepods/burstable"); "docker:<id12>",
 * "containerd:<id12>", "crio:<id12>" for a runtime's scope; a systemd
 * unit's last component ("sshd.service", "user-1000.slice"); else the
 * path, cut from the left with '~' to fit.
 */
void ft_cgroup_name(const char *path, const struct ft_pod *pods, int nr_pods, char *buf, size_t sz);

/* @c's cgroup at @path; NULL when @c is NULL, @path is "" or no cgroup has it. */
const struct ft_cgroup *ft_cgroup_find(const struct ft_cgroups *c, const char *path);

/* The pod whose uid @path holds, among @c's pods; NULL when none. */
const struct ft_pod *ft_cgroup_pod_of(const struct ft_cgroups *c, const char *path);

/*
 * A process's /proc/PID/smaps_rollup: its anonymous memory and the part
 * in huge pages (AnonHugePages), in bytes.  The kernel walks the
 * process's page tables under its mmap lock to print it: read at a slow
 * cadence, for the processes on screen only.
 */
struct ft_smaps {
	uint64_t anon, anon_huge;
};

/* 0, or -EINVAL when either line is missing or malformed. */
int ft_cgroup_smaps_parse(const char *buf, size_t len, struct ft_smaps *out);

/* anon_huge / anon, 0..1; NAN when anon is 0. */
double ft_cgroup_smaps_coverage(const struct ft_smaps *s);

/*
 * The cgroup of a process from its /proc/PID/cgroup
 * ("hierarchy-ID:controllers:path" lines): the memory controller's path
 * on a v1 or hybrid host (memcg is what reclaim and compaction work
 * for), unless it is the root, else the unified hierarchy's ("0::").
 * Into @out, escaped as ft_cgroup_path_escape() does (cut to @sz); 0, or
 * -ENOENT when the text names neither.
 */
int ft_cgroup_of_proc(const char *buf, size_t len, char *out, size_t sz);

/*
 * A cgroup's path as fragtop keys, shows and exports it: a directory name
 * may hold any byte but '/' and NUL, so control characters, DEL, a
 * backslash and bytes that are not UTF-8 become \xNN.  Two paths stay two
 * (the escape is reversible), a line holds it, and no terminal sees a raw
 * control character.  Into @out (cut to @sz, NUL-ended); the length it
 * needed, as snprintf().
 */
size_t ft_cgroup_path_escape(const char *p, size_t len, char *out, size_t sz);

/*
 * The key of escaped path @p (@len bytes) into @out (FT_CG_PATH bytes or
 * more): @p itself when it fits, else "~TAIL#HHHHHHHHHHHHHHHH" (the tail
 * that fits, and 64 bits of FNV-1a over the whole path).
 */
void ft_cgroup_path_key(const char *p, size_t len, char *out, size_t sz);

/* A CGROUPS input into @out (which it replaces).  Returns the malformed lines skipped. */
int ft_cgroup_table_parse(const char *text, size_t len, struct ft_cgroups *out);

#endif
