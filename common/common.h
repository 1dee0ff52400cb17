/*
 * common.h — what the command line (cli/) and the window (view/) share above
 * libtlv's public API: the shared options and their parsing, loading rules
 * and printing diagnostics, the progress bar, output files written safely,
 * running out of memory, and lines no rule matched.
 */
#ifndef TLV_COMMON_H
#define TLV_COMMON_H

#include <tlv/render.h>
#include <tlv/tlv.h>

#include <stdio.h>

#define EXIT_OK 0
#define EXIT_PARTIAL 1
#define EXIT_USAGE 2

/* Options shared by every subcommand that loads rules. */
typedef struct rule_args {
    const char *dirs[64];
    size_t ndirs;
    const char *res_path;
    int allow_scripts;
    int std_input;      /* --std: the log is a standard-form trace */
    const char *unmatched_path; /* --unmatched FILE: lines no rule matched go there */
    int threads;        /* --threads N (OPT_THREADS): 0 = the library's defaults */
    int no_cache;       /* --no-cache: convert the log even when a cache of it is kept */
    int cache_info;     /* --cache-info: say on standard error what the cache did */
    const char *input_path;  /* the LOG ("-": standard input) and -o OUT, set by the */
    const char *output_path; /* parser: an output that is an input is refused (below) */
    /* A command's other files, for the same refusal: outputs with their
     * option ("--texts", "--junit"), inputs with what they are. */
    const char *more_outputs[4], *more_output_opts[4];
    const char *more_inputs[2], *more_input_whats[2];
} rule_args;

/* Consumes -R DIR / -r FILE / --allow-scripts / --std at argv[*i] (also
 * -RDIR and --rules=DIR forms). Returns 1 when consumed, 0 when not a rule
 * option, -1 on a usage error (message printed). */
int parse_rule_arg(rule_args *ra, int argc, char **argv, int *i);

/* Whether `input` is read as a standard-form trace rather than converted:
 * --std was given, or its name ends in ".std" (what `tlv convert -o` is
 * usually told to write). A resource file with "ConvertRules":[""] makes
 * every input one anyway. */
int reads_standard_form(const rule_args *ra, const char *input);

/* Lines no conversion rule matched (common/unmatched.c): counted, the
 * first UNMATCHED_SHOWN named after the run, all written to --unmatched
 * FILE as "LINE: text". */
#define UNMATCHED_SHOWN 3
#define UNMATCHED_MAX_SHOWN 20
typedef struct unmatched_log {
    FILE *f;
    const char *path;
    char *tmp_path;             /* FILE is written as this, renamed when done */
    int error;                  /* errno of the first write that failed */
    uint64_t count;
    size_t show;                /* how many to name (UNMATCHED_SHOWN unless changed) */
    uint64_t first[UNMATCHED_MAX_SHOWN];
    char *first_text[UNMATCHED_MAX_SHOWN];
    int failed;
} unmatched_log;

/* Starts listening to conv (and opens --unmatched FILE). Returns 0, or -1
 * when the file cannot be written (message printed). */
int unmatched_begin(unmatched_log *u, const rule_args *ra, tlv_converter *conv);
/* Closes the file and, when `report`, prints how many lines matched no rule
 * and the first few. Returns 0, or -1 when writing the file failed
 * (message printed). */
int unmatched_end(unmatched_log *u, int report);
/* Ends without writing FILE (a run that failed: an existing FILE is kept as
 * it was) and without a report. */
void unmatched_discard(unmatched_log *u);

/* The help lines for --unmatched, shared by the commands that convert. */
#define UNMATCHED_OPTION_HELP \
    "      --unmatched FILE      write every log line no conversion rule matched to\n" \
    "                            FILE as 'LINE: text' (the first few are named on\n" \
    "                            standard error anyway)\n"

/* The help lines for --no-cache and --cache-info, shared by the commands
 * that load a log through the trace cache (load_trace). */
#define CACHE_OPTION_HELP \
    "      --no-cache            convert LOG even when a converted copy of it is kept\n" \
    "                            (in $XDG_CACHE_HOME/tlv or ~/.cache/tlv: docs/cache.md);\n" \
    "                            without it, a log converted before with the same rules\n" \
    "                            is read from there, and a converted one is kept there\n" \
    "      --cache-info          say on standard error whether the kept copy was used\n"

/* The help lines for --std, shared by the commands that read a log. */
#define STD_OPTION_HELP \
    "      --std                 LOG is a standard-form trace (as 'tlv convert'\n" \
    "                            writes): read it as such instead of converting it;\n" \
    "                            implied when LOG's name ends in .std\n"

/* The options several subcommands share, and their one LOG argument. */
typedef struct common_args {
    rule_args rules;           /* -R, -r, --allow-scripts */
    const char *output;        /* -o, --output OUT */
    const char *input;         /* LOG, or "-" */
    const char *cpu_attribute; /* --per-cpu ("prcId"), --cpu-attribute NAME */
    int quiet;                 /* -q, --quiet */
} common_args;

/* Which of the shared options a subcommand takes; the others are unknown
 * options to it. */
enum {
    OPT_OUTPUT = 1,        /* -o, --output */
    OPT_QUIET = 2,         /* -q, --quiet */
    OPT_PER_CPU = 4,       /* --per-cpu */
    OPT_CPU_ATTRIBUTE = 8, /* --cpu-attribute NAME */
    OPT_THREADS = 16,      /* --threads N: converting and building the shapes */
    OPT_RULES = 32,        /* -R, -r, --allow-scripts, --std */
    OPT_UNMATCHED = 64,    /* --unmatched FILE (not for two logs: diff) */
    OPT_CACHE = 128        /* --no-cache, --cache-info: commands that load_trace */
};

/* The help line of --threads (OPT_THREADS). */
#define THREADS_HELP                                                                        \
    "      --threads N           threads that convert the log and build the shapes: 1\n"  \
    "                            is the serial path; default: the processors online\n"

/* A subcommand's own option at argv[*i] (advance *i past its value).
 * Returns 1 when consumed, 0 when it is not one of them (an option that
 * needs a value and has none is not one), -1 on a usage error (message
 * printed). Through parse_options it is called with argv = {"--NAME",
 * VALUE}: the option's long name whatever form was typed (-fcsv, -f csv,
 * --format=csv, --form csv). */
typedef int (*own_option_fn)(void *own_args, int argc, char **argv, int *i);

/* An argument after the first (LOG) for a command that takes several:
 * returns 1 when taken, 0 when not (then "one log at a time"), -1 on a
 * usage error (message printed). */
typedef int (*argument_fn)(void *own_args, const char *arg);

/* One of a command's own options, as getopt_long, `tlv completion` and the
 * man pages' test know it. */
typedef struct cli_option {
    const char *name;  /* its long name without "--": "format" */
    char short_name;   /* 'f', or 0 when it has none */
    const char *value; /* its value as --help writes it ("FILE", "DIR", "N",
                        * "chrome|csv|sqlite"), NULL when it takes none */
} cli_option;

/* How a command reads its arguments (parse_options). */
typedef struct command_options {
    const char *cmd;         /* "export" */
    const char *help;        /* printed for -h and --help, */
    const char *(*help_text)(void); /* or, when help is NULL, what this returns */
    unsigned which;          /* the shared options it takes (OPT_*) */
    const cli_option *own;   /* its own options, ended by {NULL}; may be NULL */
    own_option_fn handler;   /* called for each of its own options */
    argument_fn argument;    /* arguments after the first; NULL: at most one */
} command_options;

/* Parses argv[1..] as getopt_long does (GNU conventions): short options
 * bundled and valued in one word (-qr FILE, -fcsv), long ones with "=" or
 * a word (--output=FILE, --output FILE) or a unique prefix (--out), options
 * and arguments in any order, "--" ending the options. Takes the rule
 * options, the shared ones in o->which, -h/--help (prints o->help and exits
 * 0), o->own through o->handler, the first argument as c->input and the
 * others through o->argument. Returns 0, or -1 on a usage error (message
 * printed: "unknown option", "needs a value", "one log at a time"). */
int parse_options(const command_options *o, common_args *c, void *own_args, int argc,
                  char **argv);

/* The command's help: o->help, or what o->help_text() builds. */
const char *command_help(const command_options *o);

/* The shared options that `which` lets a command take, rule options
 * included (-R, -r, --allow-scripts, --std, --unmatched), then -h/--help;
 * for `tlv completion` and the man pages' test. Fills up to `max`;
 * returns how many there are. */
size_t shared_options(unsigned which, const cli_option **out, size_t max);

/* parse_options for a command without a table of its own options: those
 * are recognized by `own` on argv as typed (long options with their value
 * in the next word). Kept for commands not yet moved to a table. */
int parse_common_args(const char *cmd, const char *help, unsigned which, common_args *c,
                      own_option_fn own, void *own_args, int argc, char **argv);

/* Usage errors for a missing -r FILE.res or LOG: return 0 when given, else
 * print the message and return -1. */
int need_resource_file(const char *cmd, const common_args *c);
int need_input(const char *cmd, const common_args *c);

/* Running out of memory (issue 19.0): every command reports it as
 * "tlv: out of memory while DOING 'INPUT'" and exits EXIT_USAGE without
 * writing its output. Prints that line once per process (later calls print
 * nothing, so a failure noticed at several levels is reported once) and
 * returns EXIT_USAGE. `input` may be NULL. */
int report_nomem(const char *doing, const char *input);
/* Whether report_nomem was called. */
int nomem_reported(void);
/* cJSON leaves out what it could not allocate without a word: main() gives
 * it an allocator that counts failures (json_count_failures), and a writer
 * compares json_alloc_failures() before and after building its JSON. */
void json_count_failures(void);
unsigned long json_alloc_failures(void);
/* cJSON_AddItemToObject and cJSON_AddItemToArray that free the item when it
 * cannot be added (no memory to copy the key, or no object to add to: one
 * that could not be made), where cJSON would leave it to the caller. */
struct cJSON;
void json_put(struct cJSON *object, const char *key, struct cJSON *item);
void json_push(struct cJSON *array, struct cJSON *item);

/* The converter's consistency report (common/consistency.c): one line on
 * stderr after a command that converted `log` (nothing when the log
 * contradicts nothing); every listed contradiction as "LOG:LINE:
 * inconsistent: ..." then the declared checks with their counts (tlv
 * check); the same as a JSON object {"count", "listed", "checks",
 * "inconsistencies"}; and the viewer's status-line notice ("3 inconsistent
 * events (first: line 7) - tlv check"), whose length it returns (0: none). */
void consistency_summary(const tlv_converter *conv, const char *log);
void consistency_print(FILE *out, const tlv_converter *conv, const char *log);
struct cJSON *consistency_json(const tlv_converter *conv, int radix);
size_t consistency_notice(const tlv_converter *conv, char *out, size_t size);

/* Loads rules per ra; prints every diagnostic; returns NULL on error, also
 * when an output of ra is one of the inputs (outputs_overwrite_inputs). */
tlv_rules *load_rules(const rule_args *ra);

/* Whether an output of ra (-o OUT, --unmatched FILE, more_outputs) is one
 * of the files read (the same inode: the log, standard input, the resource
 * file, more_inputs, or a rule file `rules` read; NULL: not those), or two
 * outputs name one file. Prints "tlv: --unmatched 'x.log' is the log being
 * read; refusing to write over it" and returns 1; else 0. Before, -o LOG
 * replaced the log once the run was done and --unmatched LOG emptied it
 * before it was read. */
int outputs_overwrite_inputs(const rule_args *ra, const tlv_rules *rules);

/* Text printed on a terminal (common/term.c): control characters (C0, DEL,
 * C1) written as \e, \n, \xHH, so that a log's ESC or BEL cannot act on the
 * terminal; into a file or pipe the text is written as it is. */
int is_terminal(FILE *f);
char *term_escape(const char *s); /* malloc'ed; NULL when memory ran out */
int fputs_term(const char *s, FILE *f);

/* Prints up to `max` diagnostics (0 = all) and a line counting the rest. */
void print_diags(const tlv_diags *d, size_t max);

/* A timing requirements file (tlv/verify.h), read, its problems printed as
 * file:line:col lines; NULL when it cannot be used (out of memory said). */
struct tlv_requirements;
struct tlv_requirements *load_requirements(const char *path);

/* The name of the program for messages: "tlv". */
extern const char *prog;

void usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Progress bar on stderr, shown only on a terminal. */
typedef struct progress {
    int enabled;
    unsigned long long total_bytes; /* 0 when unknown (a pipe) */
    double start, last;
} progress;

void progress_start(progress *p, int enabled, unsigned long long total_bytes);
void progress_update(progress *p, unsigned long long bytes, unsigned long long lines);
void progress_end(progress *p);
double now_seconds(void);

/* Opens OUT for writing (NULL or "-": standard output). A regular file, or a
 * new one, is written under OUT.tmp.PID (*tmp_path, malloc'ed) and renamed
 * by close_output; anything else (/dev/null, a pipe) is written directly,
 * since renaming over it would replace the device. NULL on error (printed). */
FILE *open_output(const char *output, char **tmp_path);
/* From now on, SIGINT, SIGTERM, SIGHUP and SIGQUIT remove tmp_path (several
 * may be in progress: -o and --unmatched) before the process ends as the
 * signal says; close_output or forget_tmp(tmp_path) stops that, and
 * remove_tmp_on_signals(NULL) for all. A second signal while the first is
 * being handled, on any thread, waits for the removal. */
void remove_tmp_on_signals(const char *tmp_path);
void forget_tmp(const char *tmp_path);
/* Flushes and closes f; when `ok`, renames the temporary file to OUT, else
 * removes it. Frees tmp_path. Returns 0, or -1 (printed) when writing
 * failed. */
int close_output(FILE *f, const char *output, char *tmp_path, int ok);

/* Pairing two runs (common/pairing.c): per resource of the trace, the key
 * its row pairs by in another run — its name, or (unless by_name) its
 * label without process and thread ids ("make[7915]" -> "make"), with
 * " #2"... for later ones of one key. NULL when memory ran out. */
char **pairing_keys(const tlv_trace *t, int by_name);
void pairing_keys_free(char **keys, size_t n);


/* ---- two runs compared (common/diff.c) -----------------------------------------------
 * For `tlv diff` (cli/cmd_diff.c, which prints it as text, CSV or JSON) and
 * the viewer's diff panel (tlv view --compare): per actor and state, the
 * time and count in each run; per actor and instance kind, the response-time
 * percentiles side by side; the actors of one run only; each table sorted by
 * the largest change. Actors pair by pairing_keys. */

/* One run: its trace (the caller's), statistics, instances and pairing keys. */
typedef struct diff_run {
    const tlv_trace *trace;
    tlv_stats *stats;
    tlv_instances *inst;
    char **keys;              /* per resource: its pairing key */
    size_t nres;
    unsigned char *present;   /* per resource: some event names it */
} diff_run;

/* How the figures are computed and sorted. */
typedef struct diff_settings {
    const char *cpu_attribute; /* the attribute naming a resource's processor, or NULL */
    const char *ready;         /* the instances' ready values, or NULL: the default */
    int by_name;               /* pair actors by their names only */
    const char *kind;          /* only instances of this kind, or NULL: all */
    const char *sort;          /* instances by the change of "max", "p50", "p90",
                                  "p99" or "exec" (NULL: "max") */
} diff_settings;

/* Computes run r of trace t. Returns 0, or -1 when memory ran out (r is
 * then still safe to free). */
int diff_run_init(diff_run *r, const tlv_trace *t, const diff_settings *o);
void diff_run_free(diff_run *r);

/* A row of either table: one key in A, B or both. */
typedef struct diff_row {
    const char *key;          /* the actor's pairing key (lives as long as the runs) */
    const char *what;         /* the state, or the instance kind */
    const char *name;         /* the instance's name ("" for states) */
    int in[2];                /* present in A, in B */
    size_t count[2];
    double value[2];          /* time in the state, or the longest response */
    double p50[2], p90[2], p99[2];
    double exec[2];           /* the mean execution time; -1 when unknown */
    double key_value[2];      /* what the table sorts and the change is of */
} diff_row;

typedef struct diff_rows {
    diff_row *v;
    size_t n, cap;
} diff_rows;

/* The comparison: both tables sorted by the largest change (then by key,
 * state or kind, name), and the keys of the actors of one run only. */
typedef struct diff_report {
    diff_rows states, inst;
    const char **only[2];
    size_t nonly[2];
} diff_report;

/* Compares runs[0] (A) with runs[1] (B). Returns 0, or -1 when memory ran
 * out (*out is then still safe to free). */
int diff_compute(const diff_run runs[2], const diff_settings *o, diff_report *out);
void diff_report_free(diff_report *rp);

/* B's figure less A's (of what the table sorts by). */
double diff_change(const diff_row *r);
/* The change in percent of A's value, as text: "+50.0%", "new", "gone". */
const char *diff_percent(const diff_row *r, char *buf, size_t size);

#endif
