/*
 * diags.c — loading rule files for a command and printing what went wrong
 * with them (or with a log) as "file:line:col: error: message" lines; a
 * timing requirements file likewise (tlv verify, tlv view --requirements).
 */
#include "common/common.h"

#include <tlv/verify.h>

void print_diags(const tlv_diags *d, size_t max)
{
    size_t n = tlv_diags_count(d);
    size_t shown = max && n > max ? max : n;
    char line[4096];
    for (size_t i = 0; i < shown; i++) {
        tlv_diag_format(tlv_diags_get(d, i), line, sizeof line);
        fputs_term(line, stderr); /* a quoted log line's ESC stays text */
        fputc('\n', stderr);
    }
    size_t more = n - shown + tlv_diags_dropped(d);
    if (more)
        fprintf(stderr, "... and %zu more problem%s not shown\n", more, more == 1 ? "" : "s");
}


tlv_rules *load_rules(const rule_args *ra)
{
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = ra->dirs;
    o.n_search_dirs = ra->ndirs;
    o.allow_scripts = ra->allow_scripts;
    tlv_rules *rules = NULL;
    tlv_status st = tlv_rules_load(ra->res_path, &o, &rules);
    if (st == TLV_ERR_NOMEM) { /* what else went wrong may only follow from it */
        tlv_rules_free(rules);
        report_nomem("reading the rules of", ra->res_path);
        return NULL;
    }
    print_diags(tlv_rules_diags(rules), 50);
    if (st != TLV_OK || outputs_overwrite_inputs(ra, rules)) {
        tlv_rules_free(rules);
        return NULL;
    }
    return rules;
}

tlv_requirements *load_requirements(const char *path)
{
    tlv_requirements *reqs;
    tlv_status st = tlv_requirements_load(path, &reqs);
    if (st == TLV_ERR_NOMEM) {
        tlv_requirements_free(reqs);
        report_nomem("reading the requirements", path);
        return NULL;
    }
    print_diags(tlv_requirements_diags(reqs), 0);
    if (st != TLV_OK) {
        tlv_requirements_free(reqs);
        return NULL;
    }
    return reqs;
}
