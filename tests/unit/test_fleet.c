// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fragtop fleet's pure parts: the Prometheus API's answers (vector,
 * matrix, scalar, refusals, malformed), the HTTP answer (chunked, cut),
 * the URL, the query string and PromQL quoting, durations, and the
 * fleet's table built from answers: joined by instance, sorted worst
 * first per column, filtered by label, sparklines placed by time.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/fleet.h"
#include "net/httpans.h"
#include "net/promresp.h"
#include "net/promurl.h"

static int parse(struct ft_prom_resp *r, const char *s, char *why)
{
	return ft_prom_resp_parse(r, s, strlen(s), why, 256);
}

static void test_vector(void **state)
{
	struct ft_prom_resp r = { 0 };
	char why[256];
	const char *s = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
			"{\"metric\":{\"__name__\":\"up\",\"instance\":\"a:1\",\"esc\":"
			"\"q\\\"\\u00e9\\ud83d\\ude00\\n\"},\"value\":[1733370000.5,\"1\"]},"
			"{\"metric\":{},\"value\":[1,\"NaN\"]},{\"metric\":{},\"value\":[1,"
			"\"+Inf\"]}]},\"stats\":{\"a\":[1,{\"b\":null}]},\"warnings\":[\"w1\","
			"\"w2\"]}";

	(void)state;
	assert_int_equal(parse(&r, s, why), 0);
	assert_true(r.success);
	assert_int_equal(r.type, FT_PROM_VECTOR);
	assert_int_equal(r.nseries, 3);
	assert_int_equal(r.warnings, 2);
	assert_string_equal(ft_prom_label(&r, &r.series[0], "instance"), "a:1");
	assert_string_equal(ft_prom_label(&r, &r.series[0], "esc"),
			    "q\"\xc3\xa9\xf0\x9f\x98\x80\n");
	assert_null(ft_prom_label(&r, &r.series[0], "job"));
	assert_true(ft_prom_last(&r, &r.series[0])->t == 1733370000.5);
	assert_true(ft_prom_last(&r, &r.series[0])->v == 1);
	assert_true(isnan(ft_prom_last(&r, &r.series[1])->v));
	assert_true(isinf(ft_prom_last(&r, &r.series[2])->v));
	ft_prom_resp_release(&r);
}

static void test_matrix_scalar_error(void **state)
{
	struct ft_prom_resp r = { 0 };
	char why[256];

	(void)state;
	assert_int_equal(parse(&r, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
				   "\"result\":["
			     "{\"metric\":{\"instance\":\"a\"},\"values\":[[1,\"1\"],[2,\"2\"],[3,"
			     "\"-Inf\"]]},{\"metric\":{\"instance\":\"b\"},\"values\":[]}]}}", why),
			     0);
	assert_int_equal(r.type, FT_PROM_MATRIX);
	assert_int_equal(r.nseries, 2);
	assert_int_equal(r.series[0].nsamples, 3);
	assert_int_equal(r.series[1].nsamples, 0);
	assert_null(ft_prom_last(&r, &r.series[1]));
	assert_int_equal(parse(&r, "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\","
				   "\"result\":[5,\"42\"]}}",
			       why), 0);
	assert_int_equal(r.type, FT_PROM_SCALAR);
	assert_int_equal(r.nseries, 1);
	assert_true(r.samples[0].v == 42);
	assert_int_equal(parse(&r, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":"
				   "\"parse error\"}", why), 0);
	assert_false(r.success);
	assert_string_equal(r.error_type, "bad_data");
	assert_string_equal(r.error, "parse error");
	ft_prom_resp_release(&r);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "<html>502 Bad Gateway</html>", "{", "{\"status\":\"success\"}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		"[{\"value\":[1,\"x\"]}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		"[{\"value\":[1,2]}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"tensor\",\"result\":[]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}} "
		"trailing",
		"{\"status\":\"ok\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		"[{\"metric\":{\"a\":\"\x01\"}}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		"[{\"metric\":{\"a\":\"\\x\"}}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
		"[{\"value\":[01,\"1\"]}]}}",
	};
	struct ft_prom_resp r = { 0 };
	char why[256], deep[400];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(parse(&r, bad[i], why), -1);
		assert_true(why[0] != '\0');
		assert_int_equal(r.nseries, 0);
	}
	/* nested past the bound: refused, not a stack overflow */
	memset(deep, '[', sizeof(deep));
	memcpy(deep, "{\"x\":", 5);
	deep[sizeof(deep) - 1] = '\0';
	assert_int_equal(parse(&r, deep, why), -1);
	assert_non_null(strstr(why, "nested"));
	ft_prom_resp_release(&r);
}

static void test_http_answer(void **state)
{
	struct ft_http_ans a;
	char why[256];
	char plain[] = "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
		       "4\r\n\r\nbodyEXTRA";
	char chunked[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: "
			 "chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
	char cut[] = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort";
	char badchunk[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nabc";
	char denied[] = "HTTP/1.1 401 Unauthorized\x1b[2J\r\n\r\nno";

	(void)state;
	assert_int_equal(ft_http_ans_parse(plain, strlen(plain), &a, why, sizeof(why)), 0);
	assert_int_equal(a.status, 200);
	assert_true(a.json);
	assert_int_equal(a.body_len, 4);
	assert_memory_equal(a.body, "body", 4);
	assert_int_equal(ft_http_ans_parse(chunked, strlen(chunked), &a, why, sizeof(why)), 0);
	assert_int_equal(a.body_len, 5);
	assert_memory_equal(a.body, "abcde", 5);
	assert_int_equal(ft_http_ans_parse(cut, strlen(cut), &a, why, sizeof(why)), -1);
	assert_int_equal(ft_http_ans_parse(badchunk, strlen(badchunk), &a, why, sizeof(why)), -1);
	assert_int_equal(ft_http_ans_parse(denied, strlen(denied), &a, why, sizeof(why)), 0);
	assert_int_equal(a.status, 401);
	assert_null(strchr(a.reason, '\x1b'));
	assert_int_equal(ft_http_ans_parse((char[]){ "SSH-2.0-OpenSSH" }, 15, &a, why, sizeof(why)),
			 -1);
}

static void test_url(void **state)
{
	struct ft_prom_url u;
	char why[256], qs[64] = "query=", q[64];
	double d;

	(void)state;
	assert_int_equal(ft_prom_url_parse("http://prom:9090", &u, why, sizeof(why)), 0);
	assert_false(u.tls);
	assert_string_equal(u.host, "prom");
	assert_string_equal(u.port, "9090");
	assert_string_equal(u.prefix, "");
	assert_int_equal(ft_prom_url_parse("https://[::1]/thanos/", &u, why, sizeof(why)), 0);
	assert_true(u.tls);
	assert_string_equal(u.host, "::1");
	assert_string_equal(u.port, "443");
	assert_string_equal(u.prefix, "/thanos");
	assert_int_equal(ft_prom_url_parse("http://10.0.0.1", &u, why, sizeof(why)), 0);
	assert_string_equal(u.port, "9090");
	assert_int_equal(ft_prom_url_parse("prom:9090", &u, why, sizeof(why)), -1);
	/* a refused URL is said with its password masked (errors reach CI logs and the journal) */
	assert_int_equal(ft_prom_url_parse("http://admin:hunter2-SECRET@host:9090", &u, why,
					   sizeof(why)), -1);
	assert_null(strstr(why, "hunter2"));
	assert_non_null(strstr(why, "'http://admin:***@host:9090'"));
	ft_prom_url_masked("https://a:b@c@h/x@y", q, sizeof(q));
	assert_string_equal(q, "https://a:***@h/x@y");
	/* a lone user part may be a token */
	ft_prom_url_masked("http://token@h", q, sizeof(q));
	assert_string_equal(q, "http://***@h");
	ft_prom_url_masked("http://h:9090/p", q, sizeof(q));
	assert_string_equal(q, "http://h:9090/p");
	assert_int_equal(ft_prom_url_parse("http://user:pw@prom", &u, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "--user"));
	assert_int_equal(ft_prom_url_parse("http://prom:99999", &u, why, sizeof(why)), -1);
	assert_int_equal(ft_prom_url_parse("http://prom/?x=1", &u, why, sizeof(why)), -1);
	assert_int_equal(ft_prom_url_parse("http:///x", &u, why, sizeof(why)), -1);
	assert_true(ft_prom_urlencode(qs, sizeof(qs), "up{job=\"a b\"}"));
	assert_string_equal(qs, "query=up%7Bjob%3D%22a%20b%22%7D");
	assert_false(ft_prom_urlencode(qs, 20, "0123456789"));
	assert_true(ft_promql_quote(q, sizeof(q), "a\"b\\c\nd"));
	assert_string_equal(q, "\"a\\\"b\\\\c\\nd\"");
	assert_int_equal(ft_promql_selector_check("{job=\"fragtop\",cluster=~\"e.*\""
						  "}", why, sizeof(why)), 0);
	assert_int_equal(ft_promql_selector_check("{job=\"}\"}", why, sizeof(why)), 0);
	assert_int_equal(ft_promql_selector_check("job=\"x\"", why, sizeof(why)), -1);
	assert_int_equal(ft_promql_selector_check("{job=\"x} or vector(1)", why, sizeof(why)), -1);
	assert_int_equal(ft_promql_selector_check("{a=\"x\"} or up{b=\"y\""
						  "}", why, sizeof(why)), -1);
	assert_int_equal(ft_prom_duration("15m", &d), 0);
	assert_true(d == 900);
	assert_int_equal(ft_prom_duration("1h30m", &d), 0);
	assert_true(d == 5400);
	assert_int_equal(ft_prom_duration("500ms", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(ft_prom_duration("120", &d), 0);
	assert_true(d == 120);
	assert_int_equal(ft_prom_duration("0", &d), -1);
	assert_int_equal(ft_prom_duration("5x", &d), -1);
	assert_int_equal(ft_prom_duration("m", &d), -1);
}

/* Three hosts: a fragments most, b is down, c has the fewest 2M blocks and no THP figure. */
static const char up_json[] =
	"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
	"{\"metric\":{\"__name__\":\"up\",\"instance\":\"c:1\",\"job\":\"fragtop\",\"cluster\":"
	"\"eu\"},\"value\":[100,\"1\"]},{\"metric\":{\"__name__\":\"up\",\"instance\":\"a:1\","
	"\"job\":\"fragtop\",\"cluster\":\"us\"},\"value\":[100,\"1\"]},{\"metric\":{\"__name__\":"
	"\"up\",\"instance\":\"b:1\",\"job\":\"fragtop\",\"cluster\":\"eu\",\"role\":\"db\"},"
	"\"value\":[100,\"0\"]}]}}";
static const char figs_json[] =
	"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
	"{\"metric\":{\"__name__\":\"fragtop:fleet_fragmenting_fallbacks:rate5m\",\"instance\":\"a:"
	"1\"},\"value\":[100,\"40\"]},{\"metric\":{\"__name__\":\"fragtop:"
	"fleet_fragmenting_fallbacks:rate5m\",\"instance\":\"c:1\"},\"value\":[100,\"3\"]},"
	"{\"metric\":{\"__name__\":\"fragtop:fleet_thp_fallback:ratio5m\",\"instance\":\"a:1\"},"
	"\"value\":[100,\"0.25\"]},{\"metric\":{\"__name__\":\"fragtop:fleet_contiguous_blocks:"
	"sum\",\"instance\":\"a:1\",\"size_bytes\":\"2097152\",\"when\":\"now\"},\"value\":[100,"
	"\"500\"]},{\"metric\":{\"__name__\":\"fragtop:fleet_contiguous_blocks:sum\",\"instance\":"
	"\"c:1\",\"size_bytes\":\"2097152\",\"when\":\"now\"},\"value\":[100,\"7\"]},"
	"{\"metric\":{\"__name__\":\"fragtop:fleet_contiguous_blocks:sum\",\"instance\":\"c:1\","
	"\"size_bytes\":\"2097152\",\"when\":\"after_compaction\"},\"value\":[100,\"70\"]},"
	"{\"metric\":{\"__name__\":\"fragtop:fleet_fragmenting_fallbacks:rate5m\",\"instance\":"
	"\"gone:1\"},\"value\":[100,\"9\"]}]}}";

static const char *first(const struct ft_fleet *f)
{
	return f->nshown ? f->hosts[f->order[0]].instance : "";
}

static void test_table(void **state)
{
	static const int orders[] = { 9, 18 };	/* 2M, 1G of 4 KiB pages */
	struct ft_fleet_sizes sizes;
	struct ft_prom_resp up = { 0 }, figs = { 0 }, range = { 0 };
	struct ft_fleet f;
	char why[256], q[512];

	(void)state;
	ft_fleet_sizes_of(&sizes, orders, 2, 4096);
	assert_string_equal(sizes.name[1], "1G");
	assert_true(sizes.bytes[0] == 2097152);
	ft_fleet_init(&f, &sizes);
	assert_int_equal(parse(&up, up_json, why), 0);
	assert_int_equal(parse(&figs, figs_json, why), 0);
	assert_int_equal(ft_fleet_build(&f, &up, &figs, why, sizeof(why)), 0);
	assert_int_equal(f.nhosts, 3);
	assert_false(f.no_rules);
	/* default: fragmenting fallbacks, worst first; a host without the figure last */
	assert_string_equal(f.cols[f.sort].head, "FALLBK/s");
	assert_string_equal(first(&f), "a:1");
	assert_string_equal(f.hosts[f.order[2]].instance, "b:1");
	/* fewest blocks first; then inverted */
	f.sort = ft_fleet_col_find(&f, "2m");
	assert_true(f.sort > 0);
	ft_fleet_arrange(&f);
	assert_string_equal(first(&f), "c:1");
	f.inverted = true;
	ft_fleet_arrange(&f);
	assert_string_equal(first(&f), "a:1");
	assert_string_equal(f.hosts[f.order[2]].instance, "b:1");	/* no figure stays last */
	f.inverted = false;
	f.sort = ft_fleet_col_find(&f, "UP");
	ft_fleet_arrange(&f);
	assert_string_equal(first(&f), "b:1");
	assert_int_equal(ft_fleet_col_find(&f, "2M_AC"), ft_fleet_col_find(&f, "2m") + 1);
	assert_int_equal(ft_fleet_col_find(&f, "nope"), -1);
	/* cells */
	assert_string_equal(ft_fleet_cell(&f, &f.hosts[0], ft_fleet_col_find(&f, "THP_FB%"), q,
					  sizeof(q)), "25.0");
	assert_string_equal(ft_fleet_cell(&f, &f.hosts[1], ft_fleet_col_find(&f, "THP_FB%"), q,
					  sizeof(q)), "-");
	assert_string_equal(ft_fleet_cell(&f, &f.hosts[1], 1, q, sizeof(q)), "DOWN");
	assert_string_equal(ft_fleet_labels_line(f.hosts[1].labels, q, sizeof(q)),
			    "cluster=eu role=db");
	/* labels: job is left out; the filter matches a whole label */
	snprintf(f.filter, sizeof(f.filter), "cluster=eu");
	ft_fleet_arrange(&f);
	assert_int_equal(f.nshown, 2);
	snprintf(f.filter, sizeof(f.filter), "cluster=e");
	ft_fleet_arrange(&f);
	assert_int_equal(f.nshown, 0);
	snprintf(f.filter, sizeof(f.filter), "role=db");
	ft_fleet_arrange(&f);
	assert_int_equal(f.nshown, 1);
	snprintf(f.filter, sizeof(f.filter), "a:");
	ft_fleet_arrange(&f);
	assert_int_equal(f.nshown, 1);
	f.filter[0] = '\0';
	/* sparklines land by time; a host not in up is not made up */
	f.sort = 2;
	ft_fleet_arrange(&f);
	assert_true(ft_fleet_query_spark(&f, "{job=\"fragtop\"}", q, sizeof(q)));
	assert_non_null(strstr(q, "fragtop:fleet_fragmenting_fallbacks:rate5m and on (instance) "
				  "up{job=\"fragtop\"}"));
	assert_int_equal(parse(&range, "{\"status\":\"success\",\"data\":{\"resultType\":"
				       "\"matrix\",\"result\":["
			     "{\"metric\":{\"instance\":\"a:1\"},\"values\":[[70,\"1\"],[100,\"4\"]"
			     "]},{\"metric\":{\"instance\":\"zz:1\"},\"values\":[[100,\"4\"]]}]}}",
			     why), 0);
	ft_fleet_sparks(&f, &range, 100 - 29 * 10, 10);
	assert_true(f.hosts[0].spark[29] == 4);
	assert_true(f.hosts[0].spark[26] == 1);
	assert_true(isnan(f.hosts[0].spark[27]));
	/* no fleet series while hosts answer: the rules are not loaded */
	assert_int_equal(parse(&figs, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				      "\"result\":[]}}", why), 0);
	assert_int_equal(ft_fleet_build(&f, &up, &figs, why, sizeof(why)), 0);
	assert_true(f.no_rules);
	/* no host at all: an empty table, no figure looked up */
	assert_int_equal(parse(&up, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				    "\"result\":[]}}", why), 0);
	assert_int_equal(ft_fleet_build(&f, &up, &range, why, sizeof(why)), 0);
	assert_int_equal(f.nhosts, 0);
	assert_int_equal(f.nshown, 0);
	ft_fleet_sparks(&f, &range, 0, 1);
	assert_true(ft_fleet_query_figures("{job=\"x\"}", q, sizeof(q)));
	assert_string_equal(q, "{__name__=~\"fragtop:fleet_.+\"} and on (instance) up{job=\"x\"}");
	ft_fleet_release(&f);
	ft_prom_resp_release(&up);
	ft_prom_resp_release(&figs);
	ft_prom_resp_release(&range);
}

static void test_detail(void **state)
{
	static const int orders[] = { 9 };
	struct ft_fleet_sizes sizes;
	struct ft_prom_resp r0 = { 0 }, r1 = { 0 }, r2 = { 0 };
	const struct ft_prom_resp *r[FT_FLEET_DETAIL_QUERIES] = { &r0, &r1, &r2 };
	static struct ft_fleet_detail d;
	char q[FT_FLEET_DETAIL_QUERIES][1024], why[256];

	(void)state;
	assert_true(ft_fleet_detail_queries("we\"ird", q));
	assert_non_null(strstr(q[0], "instance=\"we\\\"ird\""));
	assert_int_equal(parse(&r0, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				    "\"result\":["
			     "{\"metric\":{\"__name__\":\"fragtop_zone_free_blocks\",\"node\":"
			     "\"1\",\"zone\":\"Normal\",\"order\":\"0\"},\"value\":[1,\"12\"]},"
			     "{\"metric\":{\"__name__\":\"fragtop_zone_free_blocks\",\"node\":"
			     "\"1\",\"zone\":\"Normal\",\"order\":\"10\"},\"value\":[1,\"3\"]},"
			     "{\"metric\":{\"__name__\":\"fragtop_zone_free_blocks\",\"node\":"
			     "\"0\",\"zone\":\"DMA\",\"order\":\"2\"},\"value\":[1,\"5\"]},"
			     "{\"metric\":{\"__name__\":\"fragtop_zone_free_bytes\",\"node\":\"0\","
			     "\"zone\":\"DMA\"},\"value\":[1,\"4096\"]},{\"metric\":{\"__name__\":"
			     "\"fragtop_contiguous_blocks\",\"node\":\"1\",\"zone\":\"Normal\","
			     "\"size_bytes\":\"2097152\",\"when\":\"now\"},\"value\":[1,\"6\"]}]}}",
			     why), 0);
	assert_int_equal(parse(&r1, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
				    "\"result\":["
			     "{\"metric\":{\"__name__\":\"fragtop:extfrag_fragmenting:rate5m\","
			     "\"node\":\"1\",\"zone\":\"Normal\"},\"values\":[[91,\"2\"],[100,"
			     "\"5\"]]}]}}", why), 0);
	assert_int_equal(parse(&r2, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				    "\"result\":["
			     "{\"metric\":{\"cgroup\":\"/a\"},\"value\":[1,\"1\"]},"
			     "{\"metric\":{\"cgroup\":\"/b\",\"name\":\"ns/pod\"},\"value\":[1,"
			     "\"9\"]}]}}", why), 0);
	ft_fleet_sizes_of(&sizes, orders, 1, 4096);
	ft_fleet_detail_build(&d, "h:1", &sizes, r, 100 - 29, 1);
	assert_int_equal(d.nzones, 2);
	assert_string_equal(d.zones[0].zone, "DMA");	/* node 0 first */
	assert_true(d.zones[0].free_blocks[2] == 5);
	assert_int_equal(d.zones[0].max_order, 2);
	assert_true(d.zones[0].free_bytes == 4096);
	assert_true(d.zones[1].free_blocks[0] == 12 && d.zones[1].free_blocks[10] == 3);
	assert_true(d.zones[1].contig[0][0] == 6);
	assert_true(isnan(d.zones[1].contig[0][1]));
	assert_true(d.zones[1].fallbacks == 5);
	assert_true(d.zones[1].fallback_spark[29] == 5 && d.zones[1].fallback_spark[20] == 2);
	assert_int_equal(d.ncgroups, 2);
	assert_string_equal(d.cgroups[0].cgroup, "/b");	/* most first */
	assert_string_equal(d.cgroups[0].name, "ns/pod");
	assert_string_equal(d.instance, "h:1");
	/* the console asks for its open host by the detail's own instance */
	ft_fleet_detail_build(&d, d.instance, &sizes, r, 100 - 29, 1);
	assert_string_equal(d.instance, "h:1");
	ft_prom_resp_release(&r0);
	ft_prom_resp_release(&r1);
	ft_prom_resp_release(&r2);
}

/*
 * The sparkline's point of a time at ±0.5 of a step at each edge: never before the array nor past
 * it.
 */
static void test_slot_edges(void **state)
{
	const double start = 1000, step = 10;

	(void)state;
	/* lround(-0.5) was -1 */
	assert_int_equal(ft_fleet_slot(start - 0.5 * step, start, step), 0);
	assert_int_equal(ft_fleet_slot(start - 0.5 * step - 1e-9, start, step), -1);
	assert_int_equal(ft_fleet_slot(start + 0.5 * step, start, step), 1);
	assert_int_equal(ft_fleet_slot(start + 0.5 * step - 1e-9, start, step), 0);
	assert_int_equal(ft_fleet_slot(start + (FT_FLEET_SPARK - 1) * step, start, step),
			 FT_FLEET_SPARK - 1);
	assert_int_equal(ft_fleet_slot(start + (FT_FLEET_SPARK - 1.5) * step, start, step),
			 FT_FLEET_SPARK - 1);
	assert_int_equal(ft_fleet_slot(start + (FT_FLEET_SPARK - 0.5) * step - 1e-9, start, step),
			 FT_FLEET_SPARK - 1);
	assert_int_equal(ft_fleet_slot(start + (FT_FLEET_SPARK - 0.5) * step, start, step), -1);
	assert_int_equal(ft_fleet_slot(NAN, start, step), -1);
	assert_int_equal(ft_fleet_slot(INFINITY, start, step), -1);
	assert_int_equal(ft_fleet_slot(-INFINITY, start, step), -1);
	assert_int_equal(ft_fleet_slot(start, start, 0), 0);
}

/* 1e308, -1e308, NaN and ±Inf in every column: a short cell, never a 63-digit one. */
static void test_huge_cells(void **state)
{
	static const int orders[] = { 9, 18 };
	static const double v[] = { 1e308, -1e308, NAN, INFINITY, -INFINITY, 123456789.5, -0.004 };
	struct ft_fleet_sizes sizes;
	struct ft_fleet_host h;
	static struct ft_fleet f;
	char buf[64];
	size_t i;
	int c;

	(void)state;
	ft_fleet_sizes_of(&sizes, orders, 2, 4096);
	ft_fleet_init(&f, &sizes);
	memset(&h, 0, sizeof(h));
	snprintf(h.instance, sizeof(h.instance), "a:1");
	h.up = 1;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (c = 0; c < f.ncols; c++) {
			const char *cell;

			h.v[c] = v[i];
			cell = ft_fleet_cell(&f, &h, c, buf, sizeof(buf));
			assert_true(strlen(cell) <= 9);
		}
	h.v[0] = 1e308;
	for (c = 0; c < f.ncols; c++)
		if (f.cols[c].kind == FT_FLEET_COL_FIG &&
		    f.cols[c].fig == FT_FLEET_FIG_AMPLIFICATION) {
			h.v[c] = 1e308;
			assert_string_equal(ft_fleet_cell(&f, &h, c, buf, sizeof(buf)), "1e+308");
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_matrix_scalar_error),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_http_answer),
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_detail),
		cmocka_unit_test(test_slot_edges),
		cmocka_unit_test(test_huge_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
