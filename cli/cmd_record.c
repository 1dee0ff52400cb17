/*
 * cmd_record.c — `tlv record strace|ltrace|uftrace|sched -- CMD ARGS`: runs a
 * command under a Linux recorder (the scripts of samples/linux/, installed
 * in PREFIX/share/tlv/record), which write the log in the form the rule set
 * reads and its resource file, into a folder; then opens the viewer on them
 * (tlv view), or draws them (tlv render), or only says where they are. It
 * owns the choice of recorder and folder, the checks that say which package
 * or setting a recorder needs, and what the command's exit status means for
 * the recording.
 */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char record_help[] =
    "usage: tlv record [-o DIR] [--render PNG [--size WxH]] [--view] [-q]\n"
    "                  strace|ltrace|uftrace|sched -- CMD [ARGS...]\n"
    "\n"
    "Runs CMD under a Linux recorder, writes its log and the resource file of the\n"
    "recorder's rule set into a folder, then opens the viewer on them (tlv view).\n"
    "The recorders:\n"
    "  strace    every system call of every thread and child process\n"
    "            (strace -f -ttt -T; rules linux_strace)\n"
    "  ltrace    malloc, calloc, realloc and free (ltrace -f -ttt -T -S; rules\n"
    "            linux_heap)\n"
    "  uftrace   every function call of a program built with -pg or\n"
    "            -finstrument-functions, the library calls of any (uftrace record;\n"
    "            rules linux_calls)\n"
    "  sched     which task runs on which CPU, the whole machine (perf sched\n"
    "            record; rules linux_sched); needs root, or perf_event_paranoid -1\n"
    "            and a readable tracefs\n"
    "The log is DIR/PROG.log and its resource file DIR/PROG.res, PROG being CMD's\n"
    "name. When CMD exits with a non-zero status, both are kept all the same and\n"
    "tlv says so. '--' ends tlv's options: what follows is CMD and its own.\n"
    "\n"
    "  -o, --output DIR          write into DIR (made when missing; its PROG.log\n"
    "                            and PROG.res are replaced) and only write: no\n"
    "                            viewer unless --view. Default: a new folder named\n"
    "                            PROG in the current directory (PROG-2, PROG-3 when\n"
    "                            taken)\n"
    "      --render PNG          draw the recording into PNG (tlv render) instead of\n"
    "                            opening the viewer\n"
    "      --size WxH            the image's size with --render (as tlv render's)\n"
    "      --view                open the viewer, with -o or --render too\n"
    "  -q, --quiet               do not say where the recording was written\n"
    "\n"
    "A recorder that is not installed, or that the system does not let record,\n"
    "is named with the Debian package or the setting it needs. The recorders'\n"
    "own environment variables apply (UFTRACE_OPTS, LTRACE_FOLLOW=no,\n"
    "SCHED_RECORDER=trace-cmd: see their scripts in PREFIX/share/tlv/record).\n"
    "\n"
    "Exit status: 0 recorded (and shown); 1 recorded, but CMD exited with a\n"
    "non-zero status or the log had conversion errors; 2 bad usage, a recorder\n"
    "missing or not permitted, nothing recorded, or the viewer or renderer\n"
    "failed.\n";

typedef struct record_args {
    common_args c;      /* c.input: the recorder; c.output: -o DIR */
    const char *render; /* --render PNG */
    const char *size;   /* --size WxH */
    int view;           /* --view */
    char **cmd;         /* CMD ARGS..., NULL-ended */
    int ncmd;
} record_args;

/* A recorder: its script, the tool it runs and where Debian has that tool. */
typedef struct recorder {
    const char *name;
    const char *script;
    const char *tool;
    const char *package;
} recorder;

static const recorder recorders[] = {
    {"strace", "record.sh", "strace", "Debian/Ubuntu: apt-get install strace"},
    {"ltrace", "record_heap.sh", "ltrace", "Debian/Ubuntu: apt-get install ltrace"},
    {"uftrace", "record_calls.sh", "uftrace", "Debian/Ubuntu: apt-get install uftrace"},
    {"sched", "record_sched.sh", "perf",
     "Debian: apt-get install linux-perf; Ubuntu: apt-get install linux-tools-generic"},
};
#define NRECORDERS (sizeof recorders / sizeof *recorders)

/* ---- arguments ---------------------------------------------------------------------- */

static int record_option(void *own, int argc, char **argv, int *i)
{
    record_args *a = own;
    const char *s = argv[*i];
    int has_value = *i + 1 < argc;
    if (strcmp(s, "--render") == 0 && has_value)
        a->render = argv[++*i];
    else if (strcmp(s, "--size") == 0 && has_value)
        a->size = argv[++*i];
    else if (strcmp(s, "--view") == 0)
        a->view = 1;
    else
        return 0;
    return 1;
}

/* CMD and its arguments: every argument after the recorder. */
static int record_argument(void *own, const char *arg)
{
    record_args *a = own;
    a->cmd[a->ncmd++] = (char *)arg;
    return 1;
}

static const cli_option record_own[] = {
    {"render", 0, "PNG"},
    {"size", 0, "WxH"},
    {"view", 0, NULL},
    {NULL, 0, NULL},
};

const command_options record_options = {"record", record_help, NULL, OPT_OUTPUT | OPT_QUIET,
                                        record_own, record_option, record_argument};

static const recorder *find_recorder(const char *name)
{
    for (size_t i = 0; i < NRECORDERS; i++)
        if (strcmp(recorders[i].name, name) == 0)
            return &recorders[i];
    return NULL;
}

/* Whether "--" ends tlv's options: without it, CMD's own options are
 * taken for tlv's ("unknown option '-l'" for ls -l). */
static int has_double_dash(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0)
            return 1;
    return 0;
}

/* Parses argv into a (a->cmd has room for every argument). Returns the
 * recorder, or NULL on a usage error (said). */
static const recorder *parse_record_args(record_args *a, int argc, char **argv)
{
    if (parse_options(&record_options, &a->c, a, argc, argv) < 0) {
        if (!has_double_dash(argc, argv))
            fprintf(stderr, "%s record: the command and its options go after '--': tlv record "
                            "strace -- CMD [ARGS...]\n",
                    prog);
        return NULL;
    }
    a->cmd[a->ncmd] = NULL;
    if (!a->c.input || !a->ncmd) {
        usage_error("record", "give a recorder and a command: tlv record "
                              "strace|ltrace|uftrace|sched -- CMD [ARGS...]");
        return NULL;
    }
    const recorder *r = find_recorder(a->c.input);
    if (!r)
        usage_error("record", "unknown recorder '%s' (strace, ltrace, uftrace or sched)",
                    a->c.input);
    else if (a->size && !a->render) {
        usage_error("record", "--size is the size of --render's image: give --render PNG");
        return NULL;
    }
    return r;
}

/* ---- what the recorder needs ---------------------------------------------------------- */

/* Whether `tool` is an executable file in a directory of PATH. */
static int on_path(const char *tool)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        char file[PATH_MAX];
        int len = snprintf(file, sizeof file, "%.*s/%s", (int)n, n ? path : ".", tool);
        if (len > 0 && (size_t)len < sizeof file && access(file, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* The integer in a /proc file, or `otherwise` when it cannot be read. */
static long read_proc_number(const char *file, long otherwise)
{
    FILE *f = fopen(file, "r");
    long v = otherwise;
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = otherwise;
        fclose(f);
    }
    return v;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* perf sched record reads the scheduler's tracepoints (tracefs) and their
 * raw data, which the kernel gives root, or anyone when perf_event_paranoid
 * is -1. Returns 0, or -1 with everything that is missing said. */
static int check_sched_permitted(void)
{
    int missing = 0;
    long paranoid = read_proc_number("/proc/sys/kernel/perf_event_paranoid", 2);
    if (geteuid() != 0 && paranoid > -1) {
        fprintf(stderr, "%s record: sched: perf may not record scheduler events: "
                        "/proc/sys/kernel/perf_event_paranoid is %ld; run as root, or allow "
                        "it: sudo sysctl kernel.perf_event_paranoid=-1\n",
                prog, paranoid);
        missing = 1;
    }
    const char *events = "/sys/kernel/tracing/events/sched";
    if (!is_dir(events) && !is_dir("/sys/kernel/debug/tracing/events/sched")) {
        struct stat st;
        int err = stat(events, &st) < 0 ? errno : ENOTDIR;
        if (err == EACCES)
            fprintf(stderr, "%s record: sched: tracefs is not readable by this user (%s: %s): "
                            "run as root, or let this user read it (mount -o remount,mode=755 "
                            "/sys/kernel/tracing, as root)\n",
                    prog, events, strerror(err));
        else
            fprintf(stderr, "%s record: sched: no tracefs here (%s: %s): mount it as root "
                            "(mount -t tracefs nodev /sys/kernel/tracing), or in a container "
                            "run with access to it\n",
                    prog, events, strerror(err));
        missing = 1;
    }
    return missing ? -1 : 0;
}

/* Whether the recorder can run here: its tool installed (and for sched the
 * kernel's permission). Returns 0, or -1 with what is needed said. */
static int check_recorder(const recorder *r)
{
    const char *tool = r->tool;
    const char *package = r->package;
    const char *alt = getenv("SCHED_RECORDER");
    if (strcmp(r->name, "sched") == 0 && alt && strcmp(alt, "trace-cmd") == 0) {
        tool = "trace-cmd";
        package = "Debian/Ubuntu: apt-get install trace-cmd";
    }
    if (!on_path(tool)) {
        fprintf(stderr, "%s record: %s needs %s, which is not installed (not on PATH): %s\n",
                prog, r->name, tool, package);
        return -1;
    }
    if (!on_path("bash")) {
        fprintf(stderr, "%s record: the recorders are bash scripts, and bash is not on PATH\n",
                prog);
        return -1;
    }
    if (strcmp(r->name, "sched") == 0 && strcmp(tool, "perf") == 0)
        return check_sched_permitted();
    return 0;
}

/* The folder of the recorder scripts: the installed one next to this
 * program (PREFIX/bin/../share/tlv/record, wherever the prefix was moved),
 * the configured prefix's, else the source tree's (a build tree). Returns
 * 0, or -1 with the places looked in said. */
static int locate_scripts(char *out, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            int len = snprintf(out, size, "%s/%s", exe, TLV_RECORD_FROM_BINDIR);
            if (len > 0 && (size_t)len < size && is_dir(out))
                return 0;
        }
    }
    const char *dirs[] = {TLV_INSTALLED_RECORD_DIR, TLV_SOURCE_RECORD_DIR};
    for (size_t i = 0; i < 2; i++)
        if (is_dir(dirs[i])) {
            snprintf(out, size, "%s", dirs[i]);
            return 0;
        }
    fprintf(stderr, "%s record: the recorder scripts are not installed (looked in %s/%s, %s "
                    "and %s)\n",
            prog, n > 0 ? exe : "BINDIR", TLV_RECORD_FROM_BINDIR, TLV_INSTALLED_RECORD_DIR,
            TLV_SOURCE_RECORD_DIR);
    return -1;
}

/* ---- the folder ------------------------------------------------------------------------- */

/* CMD's name: its last path component. */
static const char *program_name(const char *cmd)
{
    const char *slash = strrchr(cmd, '/');
    return slash && slash[1] ? slash + 1 : cmd;
}

/* -o DIR, made when missing; or a new folder PROG, PROG-2, ... Writes its
 * path into out. Returns 0, or -1 (said). */
static int make_folder(const char *output, const char *prog_name, char *out, size_t size)
{
    if (output) {
        snprintf(out, size, "%s", output);
        if (mkdir(out, 0777) == 0 || (errno == EEXIST && is_dir(out)))
            return 0;
        fprintf(stderr, "%s record: cannot make the folder '%s': %s\n", prog, out,
                errno == EEXIST ? "a file of that name is there" : strerror(errno));
        return -1;
    }
    for (int k = 1; k < 1000; k++) {
        if (k == 1)
            snprintf(out, size, "%s", prog_name);
        else
            snprintf(out, size, "%s-%d", prog_name, k);
        if (mkdir(out, 0777) == 0)
            return 0;
        if (errno != EEXIST) {
            fprintf(stderr, "%s record: cannot make the folder '%s': %s\n", prog, out,
                    strerror(errno));
            return -1;
        }
    }
    fprintf(stderr, "%s record: '%s' to '%s-999' are all taken: give a folder with -o DIR\n",
            prog, prog_name, prog_name);
    return -1;
}

/* ---- recording ------------------------------------------------------------------------- */

/* Runs `bash SCRIPT LOG CMD ARGS...` and waits for it. TLV_RECORD=1 tells
 * the script that tlv reports what was written (record_lib.sh). Returns the
 * script's exit status (CMD's, or 2 when the recorder could not record),
 * or -1 when it could not be run (said). */
static int run_script(const char *script, const char *log, char **cmd, int ncmd)
{
    char **argv = calloc((size_t)ncmd + 4, sizeof *argv);
    if (!argv) {
        report_nomem("starting the recorder", script);
        return -1;
    }
    argv[0] = "bash";
    argv[1] = (char *)script;
    argv[2] = (char *)log;
    for (int i = 0; i < ncmd; i++)
        argv[3 + i] = cmd[i];
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("TLV_RECORD", "1", 1);
        execvp("bash", argv);
        fprintf(stderr, "%s record: cannot run bash: %s\n", prog, strerror(errno));
        _exit(127);
    }
    free(argv);
    if (pid < 0) {
        fprintf(stderr, "%s record: cannot start the recorder: %s\n", prog, strerror(errno));
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "%s record: lost the recorder: %s\n", prog, strerror(errno));
            return -1;
        }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Calls another command of this program (tlv view, tlv render) on the
 * recording. */
static int run_command(int (*cmd)(int, char **), char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return cmd(argc, argv);
}

/* Shows the recording as asked: --render, then the viewer when asked or
 * when there is no -o. Returns the worst exit status. */
static int show(const record_args *a, char *res, char *log)
{
    int worst = EXIT_OK;
    if (a->render) {
        char *argv[] = {"render", "-r", res, log, "-o", (char *)a->render,
                        a->size ? "--size" : NULL, (char *)a->size, NULL};
        int s = run_command(cmd_render, argv);
        worst = s > worst ? s : worst;
    }
    if (a->view || (!a->render && !a->c.output)) {
        char *argv[] = {"view", "-r", res, log, NULL};
        int s = run_command(cmd_view, argv);
        worst = s > worst ? s : worst;
    }
    return worst;
}

int cmd_record(int argc, char **argv)
{
    record_args a;
    memset(&a, 0, sizeof a);
    a.cmd = calloc((size_t)argc + 1, sizeof *a.cmd);
    if (!a.cmd)
        return report_nomem("reading the arguments", NULL);
    const recorder *r = parse_record_args(&a, argc, argv);
    char scripts[PATH_MAX], script[PATH_MAX + 64], dir[PATH_MAX];
    if (!r || check_recorder(r) < 0 || locate_scripts(scripts, sizeof scripts) < 0) {
        free(a.cmd);
        return EXIT_USAGE;
    }
    snprintf(script, sizeof script, "%s/%s", scripts, r->script);
    const char *name = program_name(a.cmd[0]);
    if (make_folder(a.c.output, name, dir, sizeof dir) < 0) {
        free(a.cmd);
        return EXIT_USAGE;
    }
    char log[PATH_MAX + 300], res[PATH_MAX + 300];
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    snprintf(res, sizeof res, "%s/%s.res", dir, name);
    /* The script keeps a resource file that is there: this one must be
     * the recorder's rule set's, not an earlier recording's. */
    if (unlink(res) < 0 && errno != ENOENT)
        fprintf(stderr, "%s record: cannot replace '%s': %s\n", prog, res, strerror(errno));
    int status = run_script(script, log, a.cmd, a.ncmd);
    free(a.cmd);
    if (status < 0)
        return EXIT_USAGE;
    if (file_size(res) < 0 || file_size(log) <= 0) {
        fprintf(stderr, "%s record: %s recorded nothing%s (%s said why above)\n", prog, r->name,
                file_size(log) == 0 ? ": the log is empty" : "", r->script);
        return EXIT_USAGE;
    }
    if (status != 0)
        fprintf(stderr, "%s record: %s exited with status %d; the recording is kept: %s and %s\n",
                prog, name, status, log, res);
    else if (!a.c.quiet)
        fprintf(stderr, "%s record: wrote %s and %s\n", prog, log, res);
    int shown = show(&a, res, log);
    if (shown > EXIT_PARTIAL)
        return shown;
    return status != 0 ? EXIT_PARTIAL : shown;
}
