/*
 * cmd_view.c — `tlv view`: the interactive timeline viewer's entry point.
 * Parses the options and hands them, with the panels of view_panels.h, to
 * the window (view_run, view/view_app.c).
 */
#include "cli/cli.h"
#include "view/view.h"
#include "view/view_panels.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char view_help[] =
    "usage: tlv view [-R DIR]... -r FILE.res [--per-cpu] [--cpu-attribute NAME]\n"
    "                [--size WxH] [--scale F] [--session FILE | --no-session]\n"
    "                [--script FILE | --bench] [--allow-scripts] LOG|-\n"
    "\n"
    "Opens a window with the timeline of LOG: converted with the conversion rules\n"
    "(or read as a standard-form trace when the resource file says\n"
    "\"ConvertRules\":[\"\"]) and drawn with the visualization rules: row labels, a\n"
    "time ruler in the trace's TimeScale, the shapes, an overview of the whole trace\n"
    "along the bottom and a status line. A trace whose times are a clock's (strace,\n"
    "ltrace, perf, uftrace; TimeMode in the reference) shows times from its start,\n"
    "the start itself once in the status line as a date and time; t switches the\n"
    "ruler to absolute times. The window opens at once and the trace\n"
    "fills in while the log is read (the status line says how far: percent of the\n"
    "bytes, lines); what is shown can be panned, zoomed and selected meanwhile.\n"
    "Problems in the inputs go to stderr with file and line; the first few are\n"
    "also shown in the window, and whatever loaded is shown.\n"
    "\n"
    "Mouse: wheel scrolls rows; Shift+wheel zooms at the cursor; Ctrl+wheel pans;\n"
    "left drag pans; right drag (or Shift+left drag) selects a range and zooms to\n"
    "it; double-click centres there; in the overview, click to jump and drag the\n"
    "box or its edges. Keys: Left/Right pan, Up/Down zoom at the cursor (or the\n"
    "selected marker), f fit, Backspace the previous view, c per-CPU rows,\n"
    "m marker at the cursor, [ ] previous/next marker, Delete the selected\n"
    "marker, Esc clear, F12 screenshot, F1 or ? help, Ctrl+Q quit.\n"
    "Panels: r rows and rules panel (check boxes hide and show rows, groups and\n"
    "visualization rules; its x button closes it); l trace-log panel (the trace's\n"
    "standard-form lines: the line at the cursor's time is highlighted, a double-\n"
    "click on a line centres the timeline on it, a double-click on a shape shows\n"
    "its event); x collapse or expand the group under the cursor (or click the\n"
    "group's name). Hidden rows and rules, collapsed groups and the panels shown\n"
    "are kept in the session.\n"
    "\n"
    "Markers: F2 or Enter renames the selected marker, k gives it the next colour,\n"
    "and dragging its line or name in the ruler (or Shift+[ and Shift+], by a\n"
    "pixel) moves it; the time from it to the cursor shows next to the cursor.\n"
    "Names, colours and times are kept in the session.\n"
    "Shift+M lists the markers (a band below the timeline), grouped by layer as in\n"
    "TLV: colour, name, time and the time since the previous marker of the layer.\n"
    "A click on one goes there, a double-click renames it (LAYER/NAME moves it to\n"
    "layer LAYER, where new markers then go), its x deletes it, and a layer's box\n"
    "shows or hides the whole layer (F2 renames the same way). Layers and hidden\n"
    "layers are kept in the session.\n"
    "\n"
    "Shapes, flows and tracks: a click on a shape selects it and the details panel\n"
    "(below, or at the top when it would hide the selected row) shows its row,\n"
    "rule, value, times and the events that opened and closed it (a click on one\n"
    "goes there) and its flows; , and . step to the previous and next interval of\n"
    "the row, i hides the panel, a click on empty space clears.\n"
    "o shows or hides the flows' arrows. In per-CPU mode CPU-load tracks are shown\n"
    "above the rows (u hides them); in the rows panel a track's or row's arrows move\n"
    "it up or down, and an attribute whose values are all numbers can be checked\n"
    "to show it as a counter track. All of it is kept in the session.\n"
    "\n"
    "Ranges and measuring: Ctrl+drag selects a range without zooming (z zooms to\n"
    "it); its length shows in the ruler, and the range panel below (b shows or\n"
    "hides it) lists for every shown row the time spent in each value or state\n"
    "inside the range (absolute and percent), the number of intervals and their\n"
    "min/mean/max duration; a click on a column's header sorts by it, Ctrl+C\n"
    "copies the table as CSV and e saves it as LOG-range-N.csv.\n"
    "Ctrl+click twice measures the time between two points (shown below the\n"
    "ruler). Esc clears both.\n"
    "\n"
    "Latency: p shows the latency panel: per actor and kind (response, latency,\n"
    "call) its instances' count and p50/p90/p99/max response times (a click on a\n"
    "line shows that actor), a histogram of its response times (log scale when\n"
    "they span two decades) whose bars list their instances when clicked, and a\n"
    "click on an instance selects it on the timeline (the details panel shows its\n"
    "response and execution time and preemptions); Shift+P goes to the shown\n"
    "actor's worst instance.\n"
    "\n"
    "Live logs and reloading: a log still being written (a capture, `strace -o`\n"
    "of a running program, a FIFO, or - for standard input) is read on while the\n"
    "window is open: the trace grows, and a view of the whole trace grows with\n"
    "it (LIVE in the status line). Shift+F follows the newest time: the view\n"
    "jumps to it and moves on as the log grows, zooming keeps it in view, and\n"
    "panning away stops following (FOLLOW in the status line). F5 or Ctrl+R reloads\n"
    "the log and the rule files from disk, keeping the view; when the rules have\n"
    "errors, the window shows them and keeps the last good trace. Ctrl+O asks for\n"
    "another log to open with the same rules (markers are cleared).\n"
    "\n"
    "g asks for a range to show, in the trace's TimeScale and TimeRadix:\n"
    "\"START END\", \"START..END\" or \"START, END\" (e.g. \"1000 2500\"); with a\n"
    "TimeScale of seconds a time may carry its own unit (\"1.5 ms 2 ms\").\n"
    "/ searches the events, each seen as RESOURCE.attribute=value or\n"
    "RESOURCE.behavior(args): plain text matches anywhere, ignoring case;\n"
    "/regex/ (or /regex/i, ignoring case) is a PCRE2 regular expression.\n"
    "Enter shows the first match at or after the cursor (or the view's start),\n"
    "n and N the next and previous (wrapping around); the view is centred on the\n"
    "match, which is highlighted with its row. The search also lists its matches\n"
    "below the timeline (exact time, row, event; the first 1000, with the total):\n"
    "a click on one goes there, its x button or Esc closes the list. The trace-log\n"
    "panel follows every jump (a match, n/N, g, a marker, a list's line) and\n"
    "highlights its line. In the prompt: Enter confirms,\n"
    "Esc cancels, Backspace, Delete, Left, Right, Home and End edit.\n"
    "\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    CACHE_OPTION_HELP
    "      --per-cpu             start with one row per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    "      --size WxH            window size (default: the session's, or 1280x800)\n"
    "      --scale F             scale text and lines by F (HiDPI)\n"
    "      --session FILE        where the view's state is kept (default LOG.tlvsession:\n"
    "                            read on open, written on exit)\n"
    "      --no-session          neither read nor write a session\n"
    "      --script FILE         run the commands of FILE, one per frame, then exit\n"
    "                            (for tests; see view/view_script.c)\n"
    "      --requirements FILE   check the timing requirements of FILE (as 'tlv\n"
    "                            verify' does) once the log is loaded, and show each\n"
    "                            violation as a red marker named after its\n"
    "                            requirement, in the marker layer 'violations'; its\n"
    "                            ResourceFile is the default for -r\n"
    "      --compare B           compare two runs: the log B (same rules) is drawn\n"
    "                            under LOG's timeline with the same time axis, its\n"
    "                            rows in LOG's order (paired by name, as tlv diff\n"
    "                            pairs them; rows of one run only are marked);\n"
    "                            Shift+C shows the diff table of 'tlv diff LOG B'\n"
    "      --align-at EVENT      with --compare: line B up with LOG at the first event\n"
    "                            RESOURCE.attribute=value (or RESOURCE.name: any value,\n"
    "                            or a behavior) of each, not at their starts; Shift+B\n"
    "                            in the window aligns at the event of the shape under\n"
    "                            the pointer (its n-th occurrence in each run)\n"
    "      --bench               once the log is loaded, draw frames along a fixed path\n"
    "                            of pans and zooms and print the median and 99th-\n"
    "                            percentile frame times, and how long the first frame\n"
    "                            and the whole load took; each leg twice: with the\n"
    "                            flows' arrows and (per-CPU) load tracks, and without\n"
    "                            them as the baseline\n"
    "      --load-pause-at BYTES with --script (tests): stop reading the log after BYTES\n"
    "                            until the script says load-resume\n"
    "\n"
    "Exit status: 0 ok; 2 bad usage, unreadable input, rule files with errors, no\n"
    "display, or a script command that failed.\n";

/* ---- options ------------------------------------------------------------------- */

static int parse_size(const char *s, int *w, int *h)
{
    char x, extra;
    if (sscanf(s, "%d%c%d%c", w, &x, h, &extra) != 3 || (x != 'x' && x != 'X'))
        return -1;
    return *w >= 16 && *h >= 16 && *w <= 16384 && *h <= 16384 ? 0 : -1;
}

/* One option at argv[*i] that is not a rule option. Returns 0, or -1 on a
 * usage error (message printed). */
static int parse_view_option(view_opts *o, int argc, char **argv, int *i)
{
    const char *s = argv[*i];
    int has_value = *i + 1 < argc;
    if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
        fputs(view_help, stdout);
        exit(EXIT_OK);
    } else if (strcmp(s, "--per-cpu") == 0) {
        o->per_cpu = 1;
    } else if (strcmp(s, "--cpu-attribute") == 0 && has_value) {
        o->cpu_attribute = argv[++*i];
    } else if (strcmp(s, "--size") == 0 && has_value) {
        if (parse_size(argv[++*i], &o->width, &o->height) < 0) {
            usage_error("view", "--size needs WxH, 16 to 16384 pixels each, got '%s'", argv[*i]);
            return -1;
        }
    } else if (strcmp(s, "--scale") == 0 && has_value) {
        char *end;
        o->ui_scale = strtof(argv[++*i], &end);
        if (*end || !(o->ui_scale >= 0.5f && o->ui_scale <= 8)) {
            usage_error("view", "--scale needs a factor from 0.5 to 8, got '%s'", argv[*i]);
            return -1;
        }
    } else if (strcmp(s, "--session") == 0 && has_value) {
        o->session = argv[++*i];
    } else if (strcmp(s, "--no-session") == 0) {
        o->no_session = 1;
    } else if (strcmp(s, "--script") == 0 && has_value) {
        o->script = argv[++*i];
    } else if (strcmp(s, "--requirements") == 0 && has_value) {
        o->requirements_path = argv[++*i];
    } else if (strcmp(s, "--compare") == 0 && has_value) {
        o->compare_path = argv[++*i];
    } else if (strcmp(s, "--align-at") == 0 && has_value) {
        o->align_at = argv[++*i];
    } else if (strcmp(s, "--bench") == 0) {
        o->bench = 1;
    } else if (strcmp(s, "--load-pause-at") == 0 && has_value) {
        char *end;
        o->load_pause_at = strtoull(argv[++*i], &end, 10);
        if (*end || !o->load_pause_at || argv[*i][0] == '-') {
            usage_error("view", "--load-pause-at needs a number of bytes (1 or more), got '%s'",
                        argv[*i]);
            return -1;
        }
    } else if (s[0] == '-' && s[1]) {
        usage_error("view", "unknown option '%s'", s);
        return -1;
    } else if (o->input) {
        usage_error("view", "one log at a time ('%s' and '%s' given)", o->input, s);
        return -1;
    } else {
        o->input = s;
    }
    return 0;
}

/* parse_view_option as parse_options calls a command's own options. */
static int view_option(void *own, int argc, char **argv, int *i)
{
    return parse_view_option(own, argc, argv, i) < 0 ? -1 : 1;
}

/* view's own options: getopt_long's, `tlv completion`'s and the man page's.
 * --per-cpu and --cpu-attribute are its own: the window starts per CPU or
 * not, and its CPU attribute is known either way. */
static const cli_option view_own[] = {
    {"per-cpu", 0, NULL},
    {"cpu-attribute", 0, "NAME"},
    {"size", 0, "WxH"},
    {"scale", 0, "F"},
    {"session", 0, "FILE"},
    {"no-session", 0, NULL},
    {"script", 0, "FILE"},
    {"requirements", 0, "FILE"},
    {"compare", 0, "B"},
    {"align-at", 0, "EVENT"},
    {"bench", 0, NULL},
    {"load-pause-at", 0, "BYTES"},
    {NULL, 0, NULL},
};

const command_options view_options = {
    "view", view_help, NULL, OPT_RULES | OPT_UNMATCHED | OPT_CACHE, view_own, view_option, NULL};

/* --compare and --align-at: what goes with them. */
static int check_compare_args(const view_opts *o)
{
    if (o->align_at && !o->compare_path) {
        usage_error("view", "--align-at lines up the run of --compare B: give --compare too");
        return -1;
    }
    if (o->align_at && !strchr(o->align_at, '.')) {
        usage_error("view", "--align-at needs an event RESOURCE.attribute=value or "
                    "RESOURCE.name, not '%s'", o->align_at);
        return -1;
    }
    if (!o->compare_path)
        return 0;
    if (strcmp(o->compare_path, "-") == 0) {
        usage_error("view", "--compare needs a file: B is read whole before the window opens");
        return -1;
    }
    if (o->rules.unmatched_path) {
        usage_error("view", "--unmatched and --compare do not go together (whose lines?)");
        return -1;
    }
    if (strcmp(o->compare_path, o->input) == 0)
        return 0; /* a run against itself: allowed, nothing changed */
    if (access(o->compare_path, R_OK) != 0) {
        fprintf(stderr, "%s: cannot read the log to compare '%s' (--compare): %s\n", prog,
                o->compare_path, strerror(errno));
        return -1;
    }
    return 0;
}

static int parse_view_args(view_opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->cpu_attribute = "prcId";
    common_args c = {0};
    if (parse_options(&view_options, &c, o, argc, argv) < 0)
        return -1;
    o->rules = c.rules;
    o->input = c.input;
    if (o->requirements_path && !(o->requirements = load_requirements(o->requirements_path)))
        return -1;
    if (!o->rules.res_path && o->requirements) /* as tlv verify: the file's own */
        o->rules.res_path = tlv_requirements_resource_file(o->requirements);
    if (!o->rules.res_path) {
        usage_error("view", "a resource file is needed: -r FILE.res");
        return -1;
    }
    if (!o->input) {
        usage_error("view", "no log given (use '-' for standard input)");
        return -1;
    }
    o->rules.input_path = o->input;
    if (strcmp(o->input, "-") != 0 && access(o->input, R_OK) != 0) { /* before any window */
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, o->input, strerror(errno));
        return -1;
    }
    if (o->load_pause_at && !o->script) {
        usage_error("view", "--load-pause-at is for tests: it needs --script (load-resume)");
        return -1;
    }
    if (o->script && o->bench) {
        usage_error("view", "--script and --bench do not go together");
        return -1;
    }
    return check_compare_args(o);
}

/* Loads --compare's log B with LOG's rules, before any window: a B that
 * cannot be read or whose rules fail is an error like LOG's (exit 2).
 * Conversion problems in B are printed, as for LOG, and B is compared. */
static int load_compare(view_opts *o)
{
    if (!o->compare_path)
        return 0;
    rule_args ra = o->rules;
    ra.input_path = o->compare_path;
    int rc = load_trace(&ra, o->compare_path, &o->compare_rules, &o->compare_trace);
    return rc == EXIT_USAGE ? -1 : 0;
}

/* The panels, in the order they see input: one row each in view_panels.h. */
#define VIEW_PANEL_MAKER(name) name##_panel_new,
static view_panel *(*const panel_makers[])(void) = {VIEW_PANELS(VIEW_PANEL_MAKER)};
#undef VIEW_PANEL_MAKER

int cmd_view(int argc, char **argv)
{
    view_opts opts;
    int rc = parse_view_args(&opts, argc, argv) != 0 || load_compare(&opts) != 0
                 ? EXIT_USAGE
                 : view_run(&opts, panel_makers, sizeof panel_makers / sizeof *panel_makers);
    tlv_requirements_free(opts.requirements);
    tlv_trace_free(opts.compare_trace);
    tlv_rules_free(opts.compare_rules);
    return rc;
}
