// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Record from a fixture root whose files change between ticks, replay the
 * recording, and check that every replayed tick gives the same model state
 * as the live tick did (zones, watermarks, free lists, indices,
 * pagetypeinfo, vmstat, knobs).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "collectors/recorder.h"
#include "model/checkpoint.h"
#include "collectors/replay.h"

#include <sys/stat.h>
#include <unistd.h>

#define TICKS 130	/* past two checkpoints (every FT_REPLAY_CKPT_TICKS) */

/* A digest of what the views show, as text. */
static char *digest(const struct ft_session *s)
{
	const struct ft_sample *smp = &s->sample;
	size_t cap = 1 << 16, n = 0, i;
	char *d = malloc(cap);
	int o;

	assert_non_null(d);
	n += (size_t)snprintf(d + n, cap - n, "order %d zones %zu\n", smp->pageblock_order,
			      smp->nr_zones);
	for (i = 0; i < smp->nr_zones && n < cap - 512; i++) {
		const struct ft_zone *z = &smp->zones[i];

		n += (size_t)snprintf(d + n, cap - n, "%d %s free %llu min %llu boost %llu |",
				      z->zi->node, z->zi->name, (unsigned long long)z->zi->free,
				      (unsigned long long)z->zi->min,
				      (unsigned long long)z->zi->boost);
		for (o = 0; z->bi && o < smp->nr_orders; o++)
			n += (size_t)snprintf(d + n, cap - n, " %llu/%d",
					      (unsigned long long)z->bi->blocks[o],
					      z->unusable[o]);
		if (z->pti)
			n += (size_t)snprintf(d + n, cap - n, " pti %llu %llu",
					      (unsigned long long)z->pti->blocks[0],
					      (unsigned long long)z->pti->blocks[2]);
		n += (size_t)snprintf(d + n, cap - n, "\n");
	}
	for (i = 0; i < smp->vmstat.nr && n < cap - 128; i++)
		n += (size_t)snprintf(d + n, cap - n, "%s=%lld ", smp->vmstat.items[i].name,
				      (long long)smp->vmstat.items[i].value);
	/* the boost sampler's record, zone by zone */
	for (i = 0; i < (size_t)s->boost_nr && n < cap - 128; i++)
		n += (size_t)snprintf(d + n, cap - n, "\nboost %zu: %u %u %u %llu", i,
				      s->boost[i].samples,
				      s->boost[i].boosted, s->boost[i].episodes,
				      (unsigned long long)s->boost[i].peak);
	/* the process table: names, cgroups and exits from NAME and CGROUP records */
	for (i = 0; i < (size_t)s->events.procs.nr && n < cap - 256; i++) {
		const struct ft_proc *p = &s->events.procs.p[i];

		n += (size_t)snprintf(d + n, cap - n, "\nproc %d %s %s %d", p->pid, p->comm,
				      p->cgroup,
				      p->exited);
	}
	for (i = 0; i < ft_knobs_nr && n < cap - 128; i++) {
		char v[FT_KNOB_TEXT];

		ft_knob_value_text(&ft_knobs[i], &s->knobs[i], v, sizeof(v));
		n += (size_t)snprintf(d + n, cap - n, "\n%s=%s", ft_knobs[i].name, v);
	}
	return d;
}

/* An input as the live source gives it: applied, and to the recorder. */
static void input(struct ft_live *l, uint16_t type, uint16_t sub, const void *data, size_t len)
{
	struct ft_rec_record in = { .type = type, .sub = sub, .len = (uint32_t)len,
				    .t_ns = l->session.t_ns, .data = data };

	ft_session_apply(&l->session, &in);
	if (l->tap)
		l->tap(l->tap_ctx, &in);
}

/* NAME (or, with @comm NULL, an exit) and CGROUP records for @pid. */
static void proc_input(struct ft_live *l, uint32_t pid, const char *comm, const char *cgroup)
{
	uint8_t rec[4 + 128];
	const char *s = comm ? comm : cgroup;
	size_t n = s ? strlen(s) : 0;

	memcpy(rec, &pid, 4);
	if (s)
		memcpy(rec + 4, s, n);
	if (comm || !cgroup)
		input(l, FT_RR_NAME, comm ? 0 : FT_NAME_EXITED, rec, 4 + (comm ? n : 0));
	if (comm && cgroup) {
		n = strlen(cgroup);
		memcpy(rec + 4, cgroup, n);
		input(l, FT_RR_CGROUP, 0, rec, 4 + n);
	}
}

static void sh(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static void test_round_trip(void **state)
{
	static struct ft_live live;
	static struct ft_recorder rec;
	static struct ft_replay rp;
	char dir[] = "/tmp/fragtop-replay-XXXXXX", cmd[1024], file[256];
	char *want[TICKS];
	/* the whole state at each tick, as the checkpoint codec writes it */
	void *state_at[TICKS];
	size_t state_len[TICKS];
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -r tests/fixtures/6.18-idle/. %s/", dir);
	sh(cmd);
	snprintf(file, sizeof(file), "%s.ftr", dir);
	assert_int_equal(ft_live_open(&live, dir, 0), 0);
	live.boost.threaded = false;	/* the test reads when it wants */
	ft_live_boost_set(&live, 100);	/* off for a tree unless asked */
	assert_int_equal(ft_live_tick(&live, true), 0);
	assert_int_equal(ft_recorder_start(&rec, &live, file, true), 0);
	rec.w.sync = false;
	for (i = 0; i < TICKS; i++) {
		/* the files change between ticks: the other capture, a knob */
		if (i == 4 || i == 8 || i == 70 || i == 100) {
			snprintf(cmd, sizeof(cmd), "cp tests/fixtures/%s/proc/zoneinfo "
						   "tests/fixtures/%s/proc/buddyinfo "
				 "tests/fixtures/%s/proc/vmstat %s/proc/",
				 i % 8 ? "6.18-frag" : "6.18-idle",
				 i % 8 ? "6.18-frag" : "6.18-idle",
				 i % 8 ? "6.18-frag" : "6.18-idle", dir);
			sh(cmd);
			snprintf(cmd, sizeof(cmd),
				 "echo %d > %s/proc/sys/vm/watermark_boost_factor", i * 1000, dir);
			sh(cmd);
		}
		/* the sampler reads between ticks: a boost that comes and goes */
		{
			int r;

			for (r = 0; r < 3; r++) {
				/* rewritten in place: the sampler keeps the file open */
				snprintf(cmd, sizeof(cmd),
					 "sed -E '0,/^ +boost/s/^( +boost +)[0-9]+/\\1%d/' "
					 "%s/proc/zoneinfo > %s/zi && cat %s/zi > %s/proc/zoneinfo",
					 (i + r) % 4 ? 0 : 512 * (i + 1), dir, dir, dir, dir);
				sh(cmd);
				live.boost.next_ns = 0;		/* due now */
				ft_live_boost_poll(&live);
			}
		}
		/* processes named, given a cgroup, exited, their pid reused */
		if (i == 10)
			proc_input(&live, 4242, "fio", "/system.slice/fio.service");
		if (i == 11)
			proc_input(&live, 4243, "thpalloc", NULL);
		if (i == 65)
			proc_input(&live, 4242, NULL, NULL);
		if (i == 66)
			proc_input(&live, 4242, "kworker/0:1", "/");
		assert_int_equal(ft_live_tick(&live, i % 5 == 0), 0);
		want[i] = digest(&live.session);
	}
	assert_int_equal(ft_recorder_stop(&rec), 0);
	assert_int_equal(rec.ticks, TICKS);
	assert_int_equal(live.session.boost_nr, 5);
	assert_true(live.session.boost_total[0].episodes > 10);
	assert_int_equal(live.session.boost_total[0].samples, 3 * TICKS);
	assert_int_equal(live.session.events.procs.nr, 3);
	assert_string_equal(ft_procs_find(&live.session.events.procs, 4242)->comm, "kworker/0:1");
	assert_true(live.session.events.procs.p[0].exited);
	assert_string_equal(live.session.events.procs.p[0].cgroup, "/system.slice/fio.service");

	assert_int_equal(ft_replay_open(&rp, file, 0), NULL);
	assert_true(rp.r.clean);
	for (i = 0; i < TICKS; i++) {
		char *got;

		assert_int_equal(ft_replay_step(&rp), 1);
		got = digest(&rp.session);
		assert_string_equal(got, want[i]);
		free(got);
		assert_int_equal(ft_session_save(&rp.session, &state_at[i], &state_len[i]), 0);
	}
	assert_int_equal(ft_replay_step(&rp), 0);
	assert_string_equal(rp.session.host.release, live.host.release);
	/* checkpoints at open, every FT_REPLAY_CKPT_TICKS and at the end */
	assert_int_equal(rp.nr_ck, 1 + TICKS / FT_REPLAY_CKPT_TICKS + 1);
	/* seeks land on the state the live session had, backwards and forwards */
	{
		static const int to[] = { 130, 125, 61, 60, 59, 1, 100, 3, 121, 2, 71, 70 };
		size_t k;

		for (k = 0; k < sizeof(to) / sizeof(to[0]); k++) {
			char *got;

			assert_int_equal(ft_replay_seek_tick(&rp, (uint64_t)to[k]), 1);
			assert_int_equal(rp.session.ticks, to[k]);
			got = digest(&rp.session);
			assert_string_equal(got, want[to[k] - 1]);
			free(got);
			/* every saved field, not only the digest's, as played straight */
			{
				void *b;
				size_t n;

				assert_int_equal(ft_session_save(&rp.session, &b, &n), 0);
				assert_int_equal(n, state_len[to[k] - 1]);
				assert_memory_equal(b, state_at[to[k] - 1], n);
				free(b);
			}
		}
		/* by time: the tick at a recorded time, and one past the end */
		{
			uint64_t t = rp.session.tick_t_ns;
			char *got;

			assert_int_equal(ft_replay_seek_tick(&rp, 90), 1);
			t = rp.session.tick_t_ns;
			assert_int_equal(ft_replay_seek_tick(&rp, 5), 1);
			assert_int_equal(ft_replay_seek_time(&rp, t), 1);
			assert_int_equal(rp.session.ticks, 90);
			got = digest(&rp.session);
			assert_string_equal(got, want[89]);
			free(got);
			assert_int_equal(ft_replay_seek_time(&rp, t + 3600ull * 1000000000ull), 0);
		}
		/* a step back from the end, then forward again */
		assert_int_equal(ft_replay_seek_tick(&rp, TICKS - 1), 1);
		assert_int_equal(ft_replay_step(&rp), 1);
		assert_int_equal(rp.session.ticks, TICKS);
	}
	for (i = 0; i < TICKS; i++) {
		free(want[i]);
		free(state_at[i]);
	}
	ft_replay_close(&rp);
	ft_live_close(&live);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", dir, file);
	sh(cmd);
}

static void test_not_a_recording(void **state)
{
	static struct ft_replay rp;

	(void)state;
	assert_int_equal(ft_replay_open(&rp, "tests/fixtures/6.18-idle/proc/zoneinfo", NULL),
			 -EINVAL);
	assert_string_equal(rp.r.why, "not a fragtop recording (bad magic)");
	ft_replay_close(&rp);
	assert_int_equal(ft_replay_open(&rp, "/nonexistent.ftr", NULL), -ENOENT);
	ft_replay_close(&rp);
	/* a directory, and a FIFO nobody writes: refused at once, no hang */
	assert_int_equal(ft_replay_open(&rp, "tests", NULL), -EISDIR);
	assert_non_null(strstr(rp.r.why, "directory"));
	ft_replay_close(&rp);
	{
		char fifo[64] = "/tmp/fragtop-fifo-XXXXXX";

		assert_non_null(mkdtemp(fifo));
		strcat(fifo, "/f");
		assert_int_equal(mkfifo(fifo, 0600), 0);
		assert_int_equal(ft_replay_open(&rp, fifo, NULL), -EINVAL);
		assert_non_null(strstr(rp.r.why, "not a regular file"));
		ft_replay_close(&rp);
		unlink(fifo);
		*strrchr(fifo, '/') = '\0';
		rmdir(fifo);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_not_a_recording),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
