/*
 * rules.h — loading a resource file (.res) and the rule files it names
 * (.resh resource headers, .cnv conversion rules, .viz visualization rules)
 * from the rule search path, and checking rule files without a log.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_RULES_H
#define TLV_RULES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A loaded resource file with its resource headers, conversion rules and
 * visualization rules: everything needed to convert and draw one kind of
 * log.
 *
 * Threads: a tlv_rules is immutable from the moment tlv_rules_load() or
 * tlv_rules_check() returns until tlv_rules_free(). Any number of threads
 * may share one at the same time: each may create, feed and free its own
 * converters and traces from it (tlv_converter_new, tlv_trace_new), build
 * and query shapes and statistics of those traces and draw them, and call
 * every function of this file that takes a `const tlv_rules *`. What must
 * not happen concurrently is what is never allowed: two threads using the
 * same converter, trace, shapes or renderer at once, or tlv_rules_free()
 * while any thread still uses the rules or a handle made from them (free
 * those first). tests/unit/test_shared_rules.c runs this under the
 * sanitizers. */
typedef struct tlv_rules tlv_rules;

typedef struct tlv_rules_options {
    /* The caller's sizeof(this struct) (see "ABI" in tlv.h): set by the init
     * macro; 0 means the 0.1 layout. */
    size_t struct_size;
    /* Directories searched for *.cnv, *.resh and *.viz, in this order, before
     * the directories of TLV_RULES_PATH (colon-separated) and the installed
     * rules directory. For each target, the first directory that provides it
     * supplies all of it (members of that target merge across the files of
     * that directory), so a directory given here overrides installed rules. */
    const char *const *search_dirs;
    size_t n_search_dirs;
    /* Value of TLV_RULES_PATH to use; NULL reads the environment variable. */
    const char *rules_path_env;
    /* Leave out the installed rules directory (tests use this). */
    int no_default_dirs;
    /* Allow external-process rules ("$STYLE":"script") to run programs. Off
     * by default because a rule file could then run anything. */
    int allow_scripts;
} tlv_rules_options;

/* Sets every option to its default (no extra directories, read
 * TLV_RULES_PATH, installed rules on, scripts refused) and struct_size to
 * the caller's sizeof. A macro, so that it is the caller's size. */
#define tlv_rules_options_init(opts) tlv_rules_options_init_sized((opts), sizeof *(opts))
TLV_API void tlv_rules_options_init_sized(tlv_rules_options *opts, size_t struct_size);

/* Loads the resource file at `res_path` and the targets it requests. A bare
 * file name (no '/') that does not exist in the current directory is looked
 * for in the rule search path too ("linux_sched.res": the generic resource
 * files of the shipped rule sets live next to their rules).
 * *out is set to a handle even on failure (NULL only when memory ran out),
 * so the diagnostics can be read with tlv_rules_diags(); free it with
 * tlv_rules_free(). Returns TLV_OK, TLV_ERR_IO (the resource file cannot be
 * read), TLV_ERR_SYNTAX (a file is not TLV JSON), TLV_ERR_SCRIPT (a requested
 * target is an external-process rule and scripts are not allowed), or
 * TLV_ERR_RULE (a requested target is missing, a type or attribute is
 * undeclared, a regex does not compile, ...). Warnings do not make it fail.
 * TLV_ERR_NOMEM when memory ran out at any point (the rules are then
 * incomplete, and the other diagnostics may only follow from that; one of
 * them says "out of memory while ..."). */
TLV_API tlv_status tlv_rules_load(const char *res_path, const tlv_rules_options *opts,
                                  tlv_rules **out);

/* Checks rule and resource files without a log, as `tlv check` does: every
 * file in `files` (any of .res .resh .cnv .viz; every target in it), and, when
 * `res_path` is not NULL, the resource file with every target it requests.
 * Lists every problem found, not only the first. *out is set as for
 * tlv_rules_load. Returns TLV_OK when no error was found, TLV_ERR_RULE
 * when some error was (a file that cannot be read or parsed included), or
 * TLV_ERR_NOMEM when memory ran out at any point (a diagnostic then says
 * "out of memory while ..."). */
TLV_API tlv_status tlv_rules_check(const char *res_path, const char *const *files,
                                   size_t n_files, const tlv_rules_options *opts,
                                   tlv_rules **out);

/* Frees the handle (NULL is allowed). Converters made from it must be freed
 * first. */
TLV_API void tlv_rules_free(tlv_rules *rules);

/* Problems found while loading or checking. */
TLV_API const tlv_diags *tlv_rules_diags(const tlv_rules *rules);

/* The resource file's TimeScale ("us" when not given) and TimeRadix (10). */
TLV_API const char *tlv_rules_time_scale(const tlv_rules *rules);
TLV_API int tlv_rules_time_radix(const tlv_rules *rules);

/* The resource file's "TimeMode" (TLV_TIME_AUTO when not given): what the
 * times count from. A trace decides the mode from it and from its times
 * (tlv_trace_time_mode). */
TLV_API tlv_time_mode tlv_rules_time_mode(const tlv_rules *rules);

/* True when the resource file's ConvertRules is [""]: logs are already in
 * standard form. */
TLV_API int tlv_rules_is_standard_form(const tlv_rules *rules);

/* Resources, in resource-file order. */
TLV_API size_t tlv_rules_resource_count(const tlv_rules *rules);
/* The i-th resource's name, display name (its name when none is set), type
 * name, and color as 0xRRGGBB (from the file, or from the fixed palette). */
TLV_API const char *tlv_rules_resource_name(const tlv_rules *rules, size_t i);
TLV_API const char *tlv_rules_resource_display_name(const tlv_rules *rules, size_t i);
TLV_API const char *tlv_rules_resource_type(const tlv_rules *rules, size_t i);
TLV_API uint32_t tlv_rules_resource_color(const tlv_rules *rules, size_t i);

/* The conversion rules, in the order every line is tried against them
 * (targets in the order requested, members in file order): their number,
 * and rule i (< the count) in *out, whose strings live as long as the rules. */
TLV_API size_t tlv_rules_cnv_rule_count(const tlv_rules *rules);
typedef struct tlv_cnv_rule_info {
    const char *regex;        /* as written (the member's key) */
    const char *file;         /* the .cnv file */
    long line, col;           /* of the regex in it */
} tlv_cnv_rule_info;
TLV_API void tlv_rules_cnv_rule(const tlv_rules *rules, size_t i, tlv_cnv_rule_info *out);

/* The files read for the rules: the resource file first, then each rule
 * file (.resh, .cnv, .viz) of the search path that was read, as its path was
 * made (directory/name). tlv_rules_file returns NULL past the last. A
 * program writing files can make sure it is not about to overwrite one. */
TLV_API size_t tlv_rules_file_count(const tlv_rules *rules);
TLV_API const char *tlv_rules_file(const tlv_rules *rules, size_t i);

#ifdef __cplusplus
}
#endif

#endif
