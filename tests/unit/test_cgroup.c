// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel/cgroup.c: pressure, memory.stat v1 and v2, pods, names, the CGROUPS input. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cgroup.h"

static void test_psi(void **state)
{
	/* this VM's /proc/pressure/memory, and a v1 kernel's (some only) */
	static const char host[] = "some avg10=0.00 avg60=1.25 avg300=0.40 total=148115188\n"
				   "full avg10=0.00 avg60=0.50 avg300=0.10 total=91779685\n";
	static const char some[] = "some avg10=12.50 avg60=0.00 avg300=0.00 total=7\n";
	static const char *const bad[] = {
		"", "full avg10=0.00 avg60=0.00 avg300=0.00 total=1\n",	/* no some */
		"some avg10=0.00 avg60=0.00 total=1\n",
		"some avg10=x avg60=0.00 avg300=0.00 total=1\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=-1\n",
		"half avg10=0 avg60=0 avg300=0 total=1\n",
		"some avg10=nan avg60=0.00 avg300=0.00 total=1\n",
		"some avg10=0 avg60=0 avg300=0 total=1 more\n",
	};
	struct ft_psi p;
	size_t i;

	(void)state;
	assert_int_equal(ft_cgroup_psi_parse(host, sizeof(host) - 1, &p), 0);
	assert_true(p.some.have && p.full.have);
	assert_true(p.some.avg60 == 1.25 && p.some.avg300 == 0.40);
	assert_int_equal(p.some.total_us, 148115188);
	assert_int_equal(p.full.total_us, 91779685);
	assert_int_equal(ft_cgroup_psi_parse(some, sizeof(some) - 1, &p), 0);
	assert_true(p.some.avg10 == 12.5 && !p.full.have);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ft_cgroup_psi_parse(bad[i], strlen(bad[i]), &p), -EINVAL);
}

static void test_memstat(void **state)
{
	/* v2 (6.18's keys, cut) and v1 (this VM's root memory.stat, cut) */
	static const char v2[] = "anon 1073741824\nfile 4096\nkernel 8192\nanon_thp 805306368\n"
				 "file_thp 0\nshmem_thp 2097152\nthp_fault_alloc "
				 "384\nthp_collapse_alloc 3\n";
	static const char v1[] = "cache 10330112\nrss 3342336\nrss_huge 0\nshmem 9736192\n"
				 "total_cache 1567330304\ntotal_rss 104267776\ntotal_rss_huge "
				 "2097152\n";
	static const char v1_leaf[] = "cache 4096\nrss 8192\nrss_huge 0\n";
	struct ft_cg_mem m;

	(void)state;
	assert_int_equal(ft_cgroup_mem_parse(v2, sizeof(v2) - 1, &m), 0);
	assert_int_equal(m.v[FT_CGM_ANON], 1073741824);
	assert_int_equal(m.v[FT_CGM_ANON_THP], 805306368);
	assert_int_equal(m.v[FT_CGM_SHMEM_THP], 2097152);
	assert_int_equal(m.v[FT_CGM_THP_FAULT_ALLOC], 384);
	assert_int_equal(m.v[FT_CGM_THP_COLLAPSE_ALLOC], 3);
	assert_true(m.have & (1u << FT_CGM_FILE_THP));
	assert_true(fabs(ft_cgroup_mem_coverage(&m) - 0.75) < 1e-12);
	/* v1: the subtree's total_ lines win over the cgroup's own, wherever they come */
	assert_int_equal(ft_cgroup_mem_parse(v1, sizeof(v1) - 1, &m), 0);
	assert_int_equal(m.v[FT_CGM_ANON], 104267776);
	assert_int_equal(m.v[FT_CGM_ANON_THP], 2097152);
	assert_int_equal(m.v[FT_CGM_FILE], 1567330304);
	assert_false(m.have & (1u << FT_CGM_THP_FAULT_ALLOC));
	assert_int_equal(ft_cgroup_mem_parse(v1_leaf, sizeof(v1_leaf) - 1, &m), 0);
	assert_int_equal(m.v[FT_CGM_ANON], 8192);
	assert_true(ft_cgroup_mem_coverage(&m) == 0);
	/* no anon: no coverage; no key fragtop reads, or junk: refused */
	assert_int_equal(ft_cgroup_mem_parse("file 1\n", 7, &m), 0);
	assert_true(isnan(ft_cgroup_mem_coverage(&m)));
	assert_int_equal(ft_cgroup_mem_parse("kernel 5\n", 9, &m), -EINVAL);
	assert_int_equal(ft_cgroup_mem_parse("anon 0\nanon_thp 0\n", 18, &m), 0);
	assert_true(isnan(ft_cgroup_mem_coverage(&m)));
	assert_int_equal(ft_cgroup_mem_parse("anon x\n", 7, &m), -EINVAL);
	assert_int_equal(ft_cgroup_mem_parse("anon 1 2\n", 9, &m), -EINVAL);
}

static void test_pod(void **state)
{
	static const char good[] =
		"kube-system_coredns-5d78c9869d-9xk2p_0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0";
	static const char *const bad[] = {
		"default_web", "default_web_abc_def", "Default_web_0b1c2d3e-4f50",
		"default__0b1c2d3e-4f50",
		"default_web_0b1c2d3e-4f5g", "default_web_1234", "_web_0b1c2d3e-4f50",
	};
	struct ft_pod p;
	size_t i;

	(void)state;
	assert_true(ft_cgroup_pod_parse(good, sizeof(good) - 1, &p));
	assert_string_equal(p.ns, "kube-system");
	assert_string_equal(p.name, "coredns-5d78c9869d-9xk2p");
	assert_string_equal(p.uid, "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(ft_cgroup_pod_parse(bad[i], strlen(bad[i]), &p));
}

static void test_names(void **state)
{
	static const struct ft_pod pods[] = {
		{ "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", "default", "web-7f9c" },
		{ "11111111-2222-3333-4444-555555555555", "kube-system", "coredns-abc" },
	};
	static const struct {
		const char *path, *name;
	} t[] = {
		{ "/", "/" },
		/* the systemd driver: the uid's dashes are underscores */
		{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0b1c2d3e_4f50_617"
		  "2_8394_a5b6c7d8e9f0.slice",
		  "default/web-7f9c" },
		{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0b1c2d3e_4f50_617"
		  "2_8394_a5b6c7d8e9f0.slice/"
		  "cri-containerd-4c1b9a0e3f2d4c5b6a7980aabbccddeeff00112233445566778899aabbccddee."
		  "scope",
		  "default/web-7f9c/4c1b9a0e3f2d" },
		/* the cgroupfs driver */
		{ "/kubepods/besteffort/pod11111111-2222-3333-4444-555555555555",
		  "kube-system/coredns-abc" },
		{ "/kubepods/besteffort/pod11111111-2222-3333-4444-555555555555/"
		  "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",
		  "kube-system/coredns-abc/9f8e7d6c5b4a" },
		/* a pod no directory names */
		{ "/kubepods.slice/kubepods-pod99999999_8888_7777_6666_555555555555.slice",
		  "pod:99999999" },
		{ "/kubepods.slice", "kubepods" },
		{ "/kubepods.slice/kubepods-burstable.slice", "kubepods/burstable" },
		{ "/kubepods/guaranteed", "kubepods/guaranteed" },
		{ "/system.slice/docker-4c1b9a0e3f2d4c5b6a7980aabbccddeeff00112233445566778899aabbc"
		  "cddee.scope",
		  "docker:4c1b9a0e3f2d" },
		{ "/machine.slice/crio-0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7"
		  "e8f9.scope",
		  "crio:0a1b2c3d4e5f" },
		{ "/system.slice/sshd.service", "sshd.service" },
		{ "/user.slice/user-1000.slice/session-3.scope", "session-3.scope" },
		{ "/fragtop-test/a", "/fragtop-test/a" },
	};
	char buf[FT_CG_PATH], small[12];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ft_cgroup_name(t[i].path, pods, 2, buf, sizeof(buf));
		print_message("%s -> %s\n", t[i].path, buf);
		assert_string_equal(buf, t[i].name);
	}
	/* cut from the left to fit, the leaf kept: '~' and the last 10 */
	ft_cgroup_name("/a/very/long/path/to/leaf", pods, 2, small, sizeof(small));
	assert_string_equal(small, "~th/to/leaf");
}

static void test_input(void **state)
{
	static struct ft_cgroups c;
	static const char text[] =
		"version 2\n"
		"host some avg10=0.50 avg60=0.25 avg300=0.00 total=1000\n"
		"host full avg10=0.00 avg60=0.00 avg300=0.00 total=10\n"
		"pod 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0 default web-7f9c\n"
		"pod not-a-uid default web\n"
		"cg /kubepods.slice/kubepods-pod0b1c2d3e_4f50_6172_8394_a5b6c7d8e9f0.slice\n"
		"procs 3\n"
		"stat anon 4194304\n"
		"stat anon_thp 2097152\n"
		"stat future_key 1\n"
		"psi some avg10=1.00 avg60=2.00 avg300=3.00 total=4242\n"
		"cg relative/path\n"
		"cg /system.slice/sshd.service\n"
		"stat anon x\n"
		"stat anon 1\n"
		"what 1\n"
		"left 4200\n"
		"left many\n";
	char big[64 + (FT_CG_MAX + 2) * 32];
	size_t n = 0;
	int i;

	(void)state;
	/*
	 * 5 malformed: the pod's uid, a relative path, a number, an unknown word, a count that is
	 * none
	 */
	assert_int_equal(ft_cgroup_table_parse(text, sizeof(text) - 1, &c), 5);
	assert_int_equal(c.left_out, 4200);		/* the walk's directories not looked at */
	assert_true(c.known);
	assert_int_equal(c.version, 2);
	assert_int_equal(c.host.some.total_us, 1000);
	assert_int_equal(c.nr_pods, 1);
	assert_int_equal(c.nr, 2);
	assert_string_equal(c.g[0].name, "default/web-7f9c");
	assert_int_equal(c.g[0].procs, 3);
	assert_int_equal(c.g[0].mem.v[FT_CGM_ANON_THP], 2097152);
	assert_true(ft_cgroup_mem_coverage(&c.g[0].mem) == 0.5);
	assert_true(c.g[0].psi.some.avg300 == 3.0);
	assert_int_equal(c.g[0].psi.some.total_us, 4242);
	assert_string_equal(c.g[1].name, "sshd.service");
	assert_int_equal(c.g[1].mem.v[FT_CGM_ANON], 1);
	/* past FT_CG_MAX: counted, their lines taken as theirs */
	n += (size_t)snprintf(big + n, sizeof(big) - n, "version 1\n");
	for (i = 0; i < FT_CG_MAX + 2; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "cg /c%d\nprocs 1\n", i);
	assert_int_equal(ft_cgroup_table_parse(big, n, &c), 0);
	assert_int_equal(c.nr, FT_CG_MAX);
	assert_int_equal(c.dropped, 2);
	assert_int_equal(c.version, 1);
	/* a new input replaces the last */
	assert_int_equal(ft_cgroup_table_parse("version 2\n", 10, &c), 0);
	assert_int_equal(c.nr, 0);
	assert_int_equal(c.dropped, 0);
}

static void test_smaps(void **state)
{
	/* this VM's /proc/self/smaps_rollup, cut, and one with huge pages */
	static const char self[] = "555ea1a31000-7ffe9d5d6000 ---p 00000000 00:00 0                "
				   "          [rollup]\nRss:                1680 kB\nAnonymous:    "
				   "       112 kB\nKSM:                   0 kB\nAnonHugePages:     "
				   "    0 kB\nSwap:                  0 kB\n";
	static const char huge[] = "Anonymous:        4194304 kB\nAnonHugePages:    3145728 kB\n";
	static const char *const bad[] = {
		"Anonymous: 1 kB\n", "AnonHugePages: 1 kB\n",
		"Anonymous: x kB\nAnonHugePages: 1 kB\n",
		"Anonymous: 1 MB\nAnonHugePages: 1 kB\n",
		"Anonymous: 18014398509481984 kB\nAnonHugePages: 0 kB\n",
	};
	struct ft_smaps s;
	size_t i;

	(void)state;
	assert_int_equal(ft_cgroup_smaps_parse(self, sizeof(self) - 1, &s), 0);
	assert_int_equal(s.anon, 112 * 1024);
	assert_int_equal(s.anon_huge, 0);
	assert_true(ft_cgroup_smaps_coverage(&s) == 0);
	assert_int_equal(ft_cgroup_smaps_parse(huge, sizeof(huge) - 1, &s), 0);
	assert_true(ft_cgroup_smaps_coverage(&s) == 0.75);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ft_cgroup_smaps_parse(bad[i], strlen(bad[i]), &s), -EINVAL);
	s.anon = 0;
	assert_true(isnan(ft_cgroup_smaps_coverage(&s)));
}

static void test_proc_cgroup(void **state)
{
	/* this hybrid VM (v1 memory, unified v2), a pure v2 host, and a process in the v1 root */
	static const char hybrid[] =
		"12:memory:/fragtop-test/a\n11:cpu,cpuacct:/\n0::/user.slice/session-3.scope\n";
	static const char v2[] =
		"0::/kubepods.slice/kubepods-pod0b1c2d3e_4f50.slice/cri-containerd-4c1b.scope\n";
	static const char v1_root[] = "5:memory:/\n0::/system.slice/sshd.service\n";
	static const char combined[] = "7:memory,hugetlb:/docker/abc\n";
	static const char none[] = "garbage\n3:cpu:/x\n";
	char out[256], small[8];

	(void)state;
	assert_int_equal(ft_cgroup_of_proc(hybrid, sizeof(hybrid) - 1, out, sizeof(out)), 0);
	assert_string_equal(out, "/fragtop-test/a");
	assert_int_equal(ft_cgroup_of_proc(v2, sizeof(v2) - 1, out, sizeof(out)), 0);
	assert_string_equal(out, "/kubepods.slice/kubepods-pod0b1c2d3e_4f50.slice/cri-containerd-4c"
				 "1b.scope");
	assert_int_equal(ft_cgroup_of_proc(v1_root, sizeof(v1_root) - 1, out, sizeof(out)), 0);
	/* memory at the root says nothing */
	assert_string_equal(out, "/system.slice/sshd.service");
	assert_int_equal(ft_cgroup_of_proc(combined, sizeof(combined) - 1, out, sizeof(out)), 0);
	assert_string_equal(out, "/docker/abc");
	assert_int_equal(ft_cgroup_of_proc(none, sizeof(none) - 1, out, sizeof(out)), -ENOENT);
	assert_int_equal(ft_cgroup_of_proc(hybrid, sizeof(hybrid) - 1, small, sizeof(small)), 0);
	assert_string_equal(small, "/fragto");	/* cut, terminated */
}

/*
 * A path's escape: control characters, DEL, backslash and bytes that are not UTF-8 as \xNN, the
 * rest as it is.
 */
static void test_path_escape(void **state)
{
	static const char esc_line[] = "0::/term\033[2J\007\n.scope\n";
	char out[64], cut[6];

	(void)state;
	assert_int_equal(ft_cgroup_path_escape("/a\033b", 4, out, sizeof(out)), 7);
	assert_string_equal(out, "/a\\x1bb");
	ft_cgroup_path_escape("/x\xff", 3, out, sizeof(out));
	assert_string_equal(out, "/x\\xff");
	ft_cgroup_path_escape("/x\xfe", 3, out, sizeof(out));
	assert_string_equal(out, "/x\\xfe");			/* two stay two */
	ft_cgroup_path_escape("/a\\x1bb", 7, out, sizeof(out));
	/* a backslash is escaped too: no collision */
	assert_string_equal(out, "/a\\x5cx1bb");
	ft_cgroup_path_escape("/caf\xc3\xa9 \x7f", 8, out, sizeof(out));
	assert_string_equal(out, "/caf\xc3\xa9 \\x7f");	/* UTF-8 and spaces kept */
	assert_int_equal(ft_cgroup_path_escape("/\001\002", 3, cut, sizeof(cut)), 9);
	assert_string_equal(cut, "/\\x01");			/* cut, terminated */
	/* the process side keys the same way, so a process joins its cgroup */
	assert_int_equal(ft_cgroup_of_proc(esc_line, sizeof(esc_line) - 1, out, sizeof(out)), 0);
	assert_string_equal(out, "/term\\x1b[2J\\x07");
}

/*
 * A key: the escaped path whole up to 511 bytes; longer, its tail and a hash, so two long paths
 * stay two.
 */
static void test_path_key(void **state)
{
	char a[700], b[700], ka[FT_CG_PATH], kb[FT_CG_PATH];

	(void)state;
	ft_cgroup_path_key("/short", 6, ka, sizeof(ka));
	assert_string_equal(ka, "/short");
	memset(a, 'x', sizeof(a) - 1);
	a[sizeof(a) - 1] = 0;
	a[0] = '/';
	memcpy(b, a, sizeof(a));
	b[1] = 'y';			/* the same tail, another head */
	ft_cgroup_path_key(a, strlen(a), ka, sizeof(ka));
	ft_cgroup_path_key(b, strlen(b), kb, sizeof(kb));
	assert_int_equal(strlen(ka), FT_CG_PATH - 1);
	assert_int_equal(ka[0], '~');
	assert_int_equal(ka[FT_CG_PATH - 18], '#');
	assert_string_not_equal(ka, kb);
	/* exactly the room: whole */
	a[FT_CG_PATH - 1] = 0;
	ft_cgroup_path_key(a, strlen(a), ka, sizeof(ka));
	assert_string_equal(ka, a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psi),
		cmocka_unit_test(test_memstat),
		cmocka_unit_test(test_pod),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_input),
		cmocka_unit_test(test_smaps),
		cmocka_unit_test(test_path_escape),
		cmocka_unit_test(test_path_key),
		cmocka_unit_test(test_proc_cgroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
