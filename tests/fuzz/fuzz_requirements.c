/*
 * fuzz_requirements.c — libFuzzer target: hostile requirements files of `tlv
 * verify` (tlv/verify.h). Any bytes are read as a requirements file
 * (tlv_requirements_parse); what loads is checked against a fixed trace (the
 * rules of tests/fuzz/rules and a short log). Beyond "no crash, no leak":
 * reading ends with a known status; every diagnostic has a message and a
 * position; a file that loads has named requirements and gives one verdict
 * each, with no more failures or violations than make sense.
 */
#include "fuzz_util.h"

static tlv_rules *rules;
static tlv_trace *trace;

static const char fixed_log[] =
    "[100] dispatch to task 1.\n[150] task 2 becomes RUNNABLE.\n[200] dispatch to task 2.\n"
    "[250] task 1 becomes WAITING.\n[300] enter to act_tsk tskid=3.\n[320] leave from act_tsk "
    "ercd=0.\n[400] dispatch to task 1.\n[900] task 2 becomes DORMANT.\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rules = fuzz_fixed_rules("fuzz_requirements");
    trace = fuzz_convert_split(rules, fixed_log, sizeof fixed_log - 1, 40);
    if (!trace)
        abort();
    return 0;
}

static void check_diags(const tlv_diags *d)
{
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        const tlv_diag *g = tlv_diags_get(d, i);
        if (!g || !g->message || !g->message[0] || g->line < 0 || g->col < 0)
            __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tlv_requirements *reqs = NULL;
    tlv_status st = tlv_requirements_parse((const char *)data, size, "fuzz.json", &reqs);
    if (st != TLV_OK && st != TLV_ERR_SYNTAX && st != TLV_ERR_RULE && st != TLV_ERR_NOMEM)
        __builtin_trap();
    if (!reqs) {
        if (st != TLV_ERR_NOMEM)
            __builtin_trap();
        return 0;
    }
    check_diags(tlv_requirements_diags(reqs));
    if (st != TLV_OK && tlv_diags_errors(tlv_requirements_diags(reqs)) == 0)
        __builtin_trap(); /* refused without saying why */
    size_t n = tlv_requirements_count(reqs);
    for (size_t i = 0; i < n; i++)
        if (!tlv_requirements_name(reqs, i))
            __builtin_trap();
    if (st == TLV_OK) {
        tlv_verdicts *v = NULL;
        tlv_status vs = tlv_requirements_verify(reqs, trace, NULL, &v);
        if (vs != TLV_OK && vs != TLV_ERR_RULE && vs != TLV_ERR_NOMEM)
            __builtin_trap();
        if (v) {
            check_diags(tlv_verdicts_diags(v));
            if (vs == TLV_OK && tlv_verdicts_count(v) != n)
                __builtin_trap();
            if (tlv_verdicts_failed(v) > tlv_verdicts_count(v))
                __builtin_trap();
            for (size_t i = 0; i < tlv_verdicts_count(v); i++) {
                tlv_verdict vd;
                tlv_verdicts_get(v, i, &vd);
                if (!vd.name || !vd.check || !vd.message || (vd.passed && vd.violations))
                    __builtin_trap();
            }
            for (size_t i = 0; i < tlv_verdicts_violation_count(v); i++) {
                tlv_violation vi;
                tlv_verdicts_violation(v, i, &vi);
                if (vi.requirement >= tlv_verdicts_count(v) ||
                    tlv_time_cmp(vi.end, vi.start) < 0)
                    __builtin_trap();
            }
        }
        tlv_verdicts_free(v);
    }
    tlv_requirements_free(reqs);
    return 0;
}
