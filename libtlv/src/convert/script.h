/*
 * script.h — external-process conversion rules ("$STYLE":"script", spec §8):
 * running the named program with the resource data and the raw log on its
 * standard input, and collecting the standard-form lines it prints. Runs
 * only when the rules were loaded with scripts allowed.
 */
#ifndef TLV_SCRIPT_H
#define TLV_SCRIPT_H

#include "base/buf.h"
#include "rules/rules_impl.h"

/* Called for each line the program prints. Returns 0 to go on. */
typedef int (*script_line_fn)(void *ctx, const char *line, size_t len);

/* Runs `s` with `input` (resource JSON, "---", raw lines) on its standard
 * input, at most `timeout_ms` milliseconds, calling fn for every output
 * line. Returns 0, or -1 with a message in err: the program could not be
 * started, timed out, was killed by a signal, or exited with a non-zero
 * status (with the start of its standard error). */
int script_run(const script_rule *s, const char *input, size_t input_len, int timeout_ms,
               script_line_fn fn, void *ctx, buf *err);

/* The resource data given to scripts: {"TimeScale","TimeRadix","Resources":
 * {NAME:{"Type","DisplayName","Color","Attributes":{...}}}} as JSON. */
int script_resource_json(const struct tlv_rules *r, buf *out);

#endif
