/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: one table of commands (git's cmd_struct), each with a
 * table of options that carries its help text (git's parse-options).
 * From the tables come the parsing, the range checks with one message
 * style, the usage text and the man page's option lists, so none of them
 * is written twice.  Shared options are declared once here.
 */
#ifndef FT_CMD_CLI_H
#define FT_CMD_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ft_opt_type {
	FT_OPT_FLAG,		/* no argument; var: bool */
	FT_OPT_STR,		/* any text (a path, a knob); var: const char * */
	FT_OPT_SECS,		/* seconds in [lo, hi]; var: double */
	FT_OPT_UINT,		/* an integer in [lo, hi]; var: uint64_t */
	FT_OPT_NUM,		/* a number in [lo, hi] (a percentage); var: double */
	FT_OPT_CB,		/* a value the row's parse() checks and stores */
};

/*
 * One option, bound to its variable (git's parse-options): the parser
 * stores the value there, after storing the default first, and the help
 * and the man page say the default from the same row, so it is written
 * once.
 */
struct ft_opt {
	const char *name;	/* long name, without "--" */
	char short_name;	/* 0: none */
	enum ft_opt_type type;
	const char *arg;	/* "SECS", "DIR"; NULL for flags */
	const char *help;	/* one sentence; \n starts a new line */
	double lo, hi;		/* FT_OPT_SECS, FT_OPT_UINT, FT_OPT_NUM */
	const char *alias;	/* an older long name that still works, or NULL */
	char alias_short;
	void *var;		/* where the value goes (see the types) */
	/* the default as a command line would write it (NULL: false, NULL, 0) */
	const char *def;
	/* what the help says of the default instead of "default DEF" */
	const char *def_help;
	/* FT_OPT_CB: check @arg and store it in @var; 0, or -1 with the reason in @why */
	int (*parse)(const char *arg, void *var, char *why, size_t sz);
	bool *given;		/* set when the command line has the option (NULL: not asked) */
};

struct ft_cmd {
	const char *name;	/* NULL: the live TUI (fragtop [OPTIONS]) */
	const char *args;	/* after the options in the synopsis ("FILE"), or NULL */
	const char *summary;	/* one line, for the command list */
	const char *about;	/* a paragraph after the options, or NULL */
	const struct ft_opt *opts;
	size_t nr_opts;
	int (*run)(int argc, char **argv);
	bool curses;		/* draws with curses: its output is not sanitised as a stream */
};

/* In a struct ft_cmd: its option table and the table's length. */
#define FT_CMD_OPTS(t)	.opts = (t), .nr_opts = sizeof(t) / sizeof((t)[0])

/* Rows several commands share, each bound to @var; declared once. */
#define FT_OPT_ROOT(v) { "root", 0, FT_OPT_STR, "DIR", \
	"read /proc and /sys under DIR (a captured tree)", .var = &(v), .def = "/" }
#define FT_OPT_JSON(v) { "json", 'j', FT_OPT_FLAG, NULL, "print JSON instead of text", .var = &(v) }
#define FT_OPT_MAP_FORCE(v) { "map-force", 0, FT_OPT_FLAG, NULL, \
	"read /proc/kpageflags even on a kernel built with CONFIG_DEBUG_VM\n" \
	"before 6.17, where a folio split during the read can crash it\n" \
	"(the map stays off there otherwise)", .var = &(v) }
#define FT_OPT_NO_TRACE(v) { "no-trace", 0, FT_OPT_FLAG, NULL, \
	"no tracepoints (fallbacks, stall latencies)", .var = &(v) }
/* the per-CPU trace buffer: its default is the live source's (collectors/live.h) */
#define FT_OPT_TRACE_BUFFER(v) { "trace-buffer-kb", 0, FT_OPT_UINT, "KB", \
	"per-CPU trace buffer in KiB", 4, 4194304, .var = &(v), .def = ft_live_trace_kb_default }
/* --stacks: the kernel stacks of fragmenting fallbacks (collectors/live.h) */
#define FT_OPT_STACKS(v, n) \
	{ "stacks", 0, FT_OPT_FLAG, NULL, \
	  "take the kernel stack of each fragmenting fallback (the\n" \
	  "stacktrace trigger in fragtop's trace instance), named from\n" \
	  "/proc/kallsyms: fallbacks by allocation site", .var = &(v) }, \
	{ "stacks-per-sec", 0, FT_OPT_UINT, "N", \
	  "with --stacks, at most N stacks a second; later fallbacks of\n" \
	  "the second go without (sampled)", 1, 1000000, .var = &(n), \
	  .def = ft_live_stacks_per_sec_default }
#define FT_OPT_PTI_INTERVAL(v) { "pagetypeinfo-interval", 0, FT_OPT_SECS, "SECS", \
	"how often to read /proc/pagetypeinfo, which the kernel\n" \
	"walks under zone->lock (0: every tick)", 0, 86400, .var = &(v), .def = "10" }
#define FT_OPT_NO_COLOR(v) { "no-color", 0, FT_OPT_FLAG, NULL, \
	"monochrome (also when NO_COLOR is set)", .var = &(v) }
#define FT_OPT_BOOST_HZ(v, g) { "boost-hz", 0, FT_OPT_UINT, "N", \
	"read each zone's watermark boost N times a second between ticks\n" \
	"(a tenth of it while nothing happens; 0: off; off for\n" \
	"--root unless given)", 0, 1000, .var = &(v), .def = "50", .given = &(g) }
#define FT_OPT_NO_CONFIG(v) { "no-config", 0, FT_OPT_FLAG, NULL, \
	"neither read nor write the settings file (fragtoprc)", .var = &(v) }
/* a window of a recording (analysis/report.h) */
#define FT_OPT_FROM(v) { "from", 0, FT_OPT_STR, "WHEN", \
	"start at WHEN: seconds into the recording, or a time of day\n" \
	"(HH:MM[:SS], local) to cut a warm-up or pick a phase", .var = &(v) }
#define FT_OPT_TO(v) { "to", 0, FT_OPT_STR, "WHEN", "end at WHEN (as --from)", .var = &(v) }
/* the sampling interval: -i/--interval everywhere; -d/--delay (top's name) still works */
#define FT_OPT_INTERVAL(v, lo, d) { "interval", 'i', FT_OPT_SECS, "SECS", \
	"seconds between samples", lo, 3600, "delay", 'd', .var = &(v), .def = d }

/* The commands, each defined beside its code; ft_cmds (cmd/main.c) lists them in order. */
extern const struct ft_cmd ft_cmd_top, ft_cmd_snapshot, ft_cmd_get, ft_cmd_set, ft_cmd_record,
	ft_cmd_replay, ft_cmd_report, ft_cmd_compare, ft_cmd_export, ft_cmd_plot,
	ft_cmd_exporter, ft_cmd_fields, ft_cmd_preflight, ft_cmd_labels, ft_cmd_doctor,
	ft_cmd_experiment,
	ft_cmd_fleet;

/*
 * An experiment's restore record under @root that a killed experiment
 * left (cmd/experiment.c, controls/expstate.h): applied when none runs
 * and the knob still holds what it left (or @force), said on stderr
 * (nothing when @quiet and there is none).  0, or 1 when it stays.
 */
int ft_experiment_restore_pending(const char *root, bool quiet, bool force);
/* What the last call said ("" nothing), for the TUI's status line. */
const char *ft_experiment_restore_note(void);
extern const struct ft_cmd *const ft_cmds[];
extern const size_t ft_cmds_nr;

/*
 * The global flags: every command takes them, before or after its name
 * (a no-op where the command has no settings file or colour).
 */
extern const char *const ft_cli_globals[2];

/*
 * Parse @argv for @cmd: every bound variable gets its default, then what
 * the command line says.  Returns -1 when the command should go on
 * (*@first is the index of the first operand), else the exit status to
 * return at once: 0 after --help (usage on stdout), 2 after a usage error
 * (said on stderr).
 */
int ft_cli_parse(const struct ft_cmd *cmd, int argc, char **argv, int *first);
/*
 * Say that @word is no command, with the closest name when one is close
 * ("did you mean", as git does); returns 2, the usage error's status.
 */
int ft_cli_unknown_cmd(const char *word);

/* The usage of @cmd: synopsis, options with their help, the paragraph. */
void ft_cli_usage(const struct ft_cmd *cmd, FILE *f);

/* A usage error: "fragtop CMD: MSG" and the synopsis on stderr; returns 2. */
int ft_cli_usage_error(const struct ft_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The options of @cmds as man(7) sections (`fragtop help --roff`). */
void ft_cli_roff(FILE *f, const struct ft_cmd *const *cmds, size_t nr);

/* The entry of command @name, or the TUI's for NULL. */
const struct ft_cmd *ft_cli_find(const char *name);

#endif
