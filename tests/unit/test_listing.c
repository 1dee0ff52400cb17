/*
 * test_listing.c — shapes built for listing only
 * (tlv_shapes_options.listing_only, what `tlv shapes`, `tlv export` and
 * `tlv query` build): everything the listing functions return — every
 * shape in output order with all its fields, the rows, the rules, the
 * flows (and tlv_shapes_flow_seek), the errors and the status — is the full
 * build's, on one thread and on two, on a rule set written here whose rules
 * fail in several ways and on the project's TOPPERS samples (plain and per
 * CPU). What it leaves out is left out: the store is sorted and packed but
 * has no search trees and no summaries (no layers, no looks), so
 * tlv_shapes_query visits nothing, tlv_shapes_breakdown finds nothing, and
 * the shapes take less memory than the full build's.
 */
#include "check.h"
#include "scratch.h"
#include "text.h"
#include "error_rules.h"
#include "viz/viz_impl.h"

#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the listing functions return, as text. */
static void listing(const tlv_shapes *s, tlv_status st, text *t)
{
    text_add(t, "status %d, %s\n", (int)st, tlv_shapes_last_error(s));
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        text_add(t, "%s|%s|%s|%zu|%lld.%llu|%lld.%llu|%s|%s|%d:%08x|%d:%08x|%d|%s|%zu|%zu\n",
                 sh.rule, sh.event, sh.resource ? sh.resource : "-", sh.row,
                 (long long)sh.from.ticks, (unsigned long long)sh.from.frac,
                 (long long)sh.to.ticks, (unsigned long long)sh.to.frac, sh.type,
                 sh.text ? sh.text : "-", sh.has_fill, (unsigned)sh.fill, sh.has_pen,
                 (unsigned)sh.pen, sh.is_when, sh.value ? sh.value : "-", sh.from_event,
                 sh.to_event);
    }
    for (size_t r = 0; r < tlv_shapes_row_count(s); r++) {
        tlv_row_info ri;
        tlv_shapes_row(s, r, &ri);
        text_add(t, "row %zu %s %s %s\n", r, ri.label, ri.resource ? ri.resource : "-", ri.group);
    }
    for (size_t i = 0; i < tlv_shapes_rule_count(s); i++) {
        tlv_rule_info ri;
        tlv_shapes_rule(s, i, &ri);
        text_add(t, "rule %s %s %d\n", ri.name, ri.display_name, ri.skipped);
    }
    for (size_t i = 0; i < tlv_shapes_flow_count(s); i++) {
        tlv_flow_info f;
        tlv_shapes_flow(s, i, &f);
        text_add(t, "flow %s %s %s %lld %s>%s %zu>%zu seek %zu\n", f.rule, f.name, f.display_name,
                 (long long)f.time.ticks, f.from_resource, f.to_resource, f.from_row, f.to_row,
                 tlv_shapes_flow_seek(s, f.time));
    }
    const tlv_diags *d = tlv_shapes_diags(s);
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char line[2048];
        tlv_diag_format(tlv_diags_get(d, i), line, sizeof line);
        text_add(t, "diag %s\n", line);
    }
}

static int count_visit(void *user, const tlv_shape_info *sh)
{
    (void)sh;
    ++*(size_t *)user;
    return 0;
}

/* The shapes of row queries over the whole trace, summed over the rows. */
static size_t queried(const tlv_shapes *s)
{
    tlv_time lo = {INT64_MIN / 2, 0}, hi = {INT64_MAX / 2, 0};
    size_t n = 0;
    for (size_t r = 0; r < tlv_shapes_row_count(s); r++)
        tlv_shapes_query(s, r, lo, hi, count_visit, &n);
    return n;
}

/* Entries of the breakdowns of every row over the whole trace. */
static size_t broken_down(const tlv_shapes *s)
{
    size_t total = 0;
    for (size_t r = 0; r < tlv_shapes_row_count(s); r++) {
        tlv_breakdown_entry *e = NULL;
        size_t n = 0;
        if (tlv_shapes_breakdown(s, r, tlv_trace_start(s->trace),
                                 (tlv_time){tlv_trace_end(s->trace).ticks + 1, 0}, &e,
                                 &n) == TLV_OK)
            total += n;
        tlv_breakdown_free(e);
    }
    return total;
}

static tlv_shapes *build(const tlv_trace *trace, const char *cpu, int threads, int listing,
                         tlv_status *st)
{
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    o.cpu_attribute = cpu;
    o.threads = threads;
    o.listing_only = listing;
    tlv_shapes *s = NULL;
    *st = tlv_shapes_build(trace, &o, &s);
    return s;
}

/* Builds the shapes of log both ways on 1 and 2 threads and checks the
 * listing is the same and that the listing-only build has no indexes.
 * Returns the full build's status (TLV_ERR_USAGE when the log would not
 * load). */
static tlv_status same_listing(const char *res, const char *rules_dir, const char *log,
                               const char *cpu)
{
    tlv_rules *rules = NULL;
    tlv_trace *trace = NULL;
    if (load_trace_checked(res, rules_dir, log, &rules, &trace) != TLV_OK)
        return TLV_ERR_USAGE;
    tlv_status full_st = TLV_OK;
    for (int threads = 1; threads <= 2; threads++) {
        tlv_status fst, lst;
        tlv_shapes *full = build(trace, cpu, threads, 0, &fst);
        tlv_shapes *list = build(trace, cpu, threads, 1, &lst);
        full_st = fst;
        CHECK(full && list);
        if (!full || !list)
            break;
        text a = {0}, b = {0};
        listing(full, fst, &a);
        listing(list, lst, &b);
        if (strcmp(a.s, b.s) != 0) {
            size_t k = 0;
            while (a.s[k] && a.s[k] == b.s[k])
                k++;
            size_t from = k > 200 ? k - 200 : 0;
            fprintf(stderr, "%s%s, %d thread(s): the listing-only build differs at byte %zu:\n"
                    "full: %.300s\nlisting: %.300s\n", log, cpu ? " per CPU" : "", threads, k,
                    a.s + from, b.s + from);
            check_failures++;
        }
        /* what it leaves out: the full build finds shapes by time, it does not */
        size_t count = tlv_shapes_count(full);
        CHECK(count > 0);
        CHECK_INT(queried(full), count);
        CHECK_INT(queried(list), 0);
        CHECK(broken_down(full) > 0);
        CHECK_INT(broken_down(list), 0);
        CHECK(full->looks.n > 0 && full->looks.layers != NULL);
        CHECK_INT(list->looks.n, 0);
        CHECK(list->looks.layers == NULL);
        store_bytes fb, lb;
        store_count_bytes(full->store, &fb);
        store_count_bytes(list->store, &lb);
        /* the trees and the order by end: three 32-bit positions a shape */
        CHECK(fb.index >= lb.index + count * 3 * sizeof(uint32_t));
        CHECK_INT(lb.pyramids, 0);
        CHECK_INT(store_rows(list->store), store_rows(full->store));
        CHECK(tlv_shapes_memory(list, NULL, NULL) < tlv_shapes_memory(full, NULL, NULL));
        free(a.s);
        free(b.s);
        tlv_shapes_free(full);
        tlv_shapes_free(list);
    }
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return full_st;
}

static void listed_sample(const char *res, const char *rules_dir, const char *log, const char *cpu)
{
    CHECK_INT(same_listing(res, rules_dir, log, cpu), TLV_OK);
}

int main(void)
{
    make_tmpdir("listing");
    check_error_rules(same_listing);
    each_toppers_sample(listed_sample);
    if (!getenv("KEEP"))
        remove_tree(tmpdir);
    return check_failures ? 1 : 0;
}
