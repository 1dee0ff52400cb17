/*
 * macro.c — expanding conversion macros (see macro.h). One left-to-right
 * pass with a stack of open braces: when a '}' closes a macro, everything
 * inside it is already expanded, which is "innermost first" in linear time.
 */
#include "compile/macro.h"

#include "lang/stdform.h"

#include "lang/calc.h"
#include "lang/cond.h"
#include "base/assert.h"
#include "base/intern.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sum_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err);
static int calc_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err);
static int outcome_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err);

/* Every macro: its name, what it is, and its evaluator (the world's, for
 * the ones that read it: world/world_macros.c). Adding a macro is a row
 * here, its name in macro_kind, and its evaluator (docs/architecture.md). */
static const macro_def macros[M_NMACROS] = {
    [M_EXIST] = {"EXIST", MACRO_READS_WORLD | MACRO_TAKES_RESOURCE, NULL},
    [M_COUNT] = {"COUNT", MACRO_READS_WORLD | MACRO_TAKES_RESOURCE, NULL},
    [M_ATTR] = {"ATTR", MACRO_READS_WORLD | MACRO_TAKES_RESOURCE | MACRO_TAKES_ATTRIBUTE, NULL},
    [M_RES_NAME] = {"RES_NAME", MACRO_READS_WORLD | MACRO_TAKES_RESOURCE, NULL},
    [M_RES_DISPLAYNAME] = {"RES_DISPLAYNAME", MACRO_READS_WORLD | MACRO_TAKES_RESOURCE, NULL},
    [M_RES_COLOR] = {"RES_COLOR", MACRO_READS_WORLD | MACRO_TAKES_RESOURCE, NULL},
    [M_SUM] = {"SUM", 0, sum_value},
    [M_CALC] = {"CALC", 0, calc_value},
    [M_CLOCK] = {"CLOCK", MACRO_READS_WORLD | MACRO_NOT_REMEMBERED, NULL},
    [M_OUTCOME] = {"OUTCOME", 0, outcome_value},
};

const macro_def *macro_get(int id)
{
    TLV_ASSERT(id >= 0 && id < M_NMACROS);
    return &macros[id];
}

int macro_id(const char *name, size_t n)
{
    for (int i = 0; i < M_NMACROS; i++)
        if (strlen(macros[i].name) == n && memcmp(macros[i].name, name, n) == 0)
            return i;
    return -1;
}

int macro_is_known(const char *name, size_t n) { return macro_id(name, n) >= 0; }

unsigned macro_flags(const char *name, size_t n)
{
    int id = macro_id(name, n);
    return id >= 0 ? macros[id].flags : 0;
}

int macro_known_list(buf *out)
{
    int rc = 0;
    for (int i = 0; i < M_NMACROS; i++)
        rc |= buf_printf(out, "%s$%s", i ? ", " : "", macros[i].name);
    return rc < 0 ? -1 : 0;
}

int macro_name_char(char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }

/* Length of the NAME in "$NAME{" at text[i] == '$', or 0. */
static size_t call_name_len(const char *text, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len && macro_name_char(text[j]))
        j++;
    return j > i + 1 && j < len && text[j] == '{' ? j - i - 1 : 0;
}

long macro_find_call(const char *text, size_t len, size_t from, const char **name,
                     size_t *name_len)
{
    for (size_t i = from; i < len; i++) {
        if (text[i] != '$')
            continue;
        size_t n = call_name_len(text, len, i);
        if (n) {
            *name = text + i + 1;
            *name_len = n;
            return (long)i;
        }
    }
    return -1;
}

/* Rule outputs ask the same question many times per line (the TOPPERS task
 * rule evaluates $ATTR{Task(id==N).state} in 13 conditions). An answer stays
 * right until the state changes, i.e. while world.next_seq is unchanged. */
#define MEMO_SLOTS 256

typedef struct memo_entry {
    uint64_t hash;
    uint32_t seq;           /* state when answered */
    int lasting;            /* read no Dynamic attribute: valid while these hold: */
    uint32_t static_changes;
    size_t nres;
    int id;
    int used;
    buf arg;
    buf result;
} memo_entry;

struct macro_memo {
    memo_entry slots[MEMO_SLOTS];
    /* One per macro of the compiled plans (expand.h): the slot (+ 1; 0 none)
     * its last answer is in, checked without hashing the argument. */
    uint32_t *sites;
    size_t nsites;
};

macro_memo *macro_memo_new(void) { return calloc(1, sizeof(macro_memo)); }

void macro_memo_free(macro_memo *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < MEMO_SLOTS; i++) {
        buf_free(&m->slots[i].arg);
        buf_free(&m->slots[i].result);
    }
    free(m->sites);
    free(m);
}

/* Whether e's answer still holds in the world's present state. */
static int memo_current(const memo_entry *e, const macro_host *h)
{
    if (e->nres != *h->nres) /* created resources change answers */
        return 0;
    return e->seq == *h->seq || (e->lasting && e->static_changes == *h->static_changes);
}

static memo_entry *memo_find(macro_memo *m, const macro_host *host, int id, const char *arg,
                             size_t n, uint64_t h)
{
    memo_entry *e = &m->slots[h % MEMO_SLOTS];
    if (!e->used || e->hash != h || e->id != id || e->arg.len != n ||
        memcmp(e->arg.data, arg, n) != 0)
        return NULL;
    return memo_current(e, host) ? e : NULL;
}

static void memo_fill(memo_entry *e, const macro_host *host, int id, const char *arg, size_t n,
                      uint64_t h, const buf *val)
{
    buf_clear(&e->arg);
    buf_clear(&e->result);
    if (buf_append(&e->arg, arg, n) < 0 || buf_append(&e->result, buf_str(val), val->len) < 0) {
        e->used = 0;
        return;
    }
    e->used = 1;
    e->lasting = !*host->read_dynamic;
    e->static_changes = *host->static_changes;
    e->nres = *host->nres;
    e->hash = h;
    e->id = id;
    e->seq = *host->seq;
}

static void memo_store(macro_memo *m, const macro_host *host, int id, const char *arg, size_t n,
                       uint64_t h, const buf *val)
{
    memo_fill(&m->slots[h % MEMO_SLOTS], host, id, arg, n, h, val);
}

typedef struct frame {
    size_t start;  /* where the macro's text begins in out */
    int id;
} frame;

#define MAX_FRAMES 256

void macro_describe(buf *err, int id, const char *arg, size_t n)
{
    buf_printf(err, "$%s{%.*s}", macro_get(id)->name, (int)n, arg);
}

/* Reads a decimal number "[-]digits[.digits]" as value * 10^scale, with
 * scale its number of fraction digits. Returns 0, or -1 when it is not one
 * (or has more than 18 digits). */
static int read_decimal(const char *s, size_t n, int64_t *value, int *scale)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    int neg = n && *s == '-';
    size_t i = neg, digits = 0;
    int64_t v = 0;
    *scale = -1;
    for (; i < n; i++) {
        if (s[i] == '.' && *scale < 0) {
            *scale = 0;
            continue;
        }
        if (s[i] < '0' || s[i] > '9' || ++digits > 18)
            return -1;
        v = v * 10 + (s[i] - '0');
        if (*scale >= 0)
            (*scale)++;
    }
    if (!digits)
        return -1;
    if (*scale < 0)
        *scale = 0;
    *value = neg ? -v : v;
    return 0;
}

/* $SUM{a,b,...}: the exact sum of decimal numbers, with as many fraction
 * digits as the most precise of them (strace's "<0.000123>" durations added
 * to entry times). Reads no state. */
static int sum_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    (void)state;
    int64_t total = 0;
    int scale = 0;
    for (size_t start = 0; start <= n;) {
        const char *comma = memchr(arg + start, ',', n - start);
        size_t end = comma ? (size_t)(comma - arg) : n;
        int64_t v;
        int sc;
        if (read_decimal(arg + start, end - start, &v, &sc) < 0) {
            macro_describe(err, id, arg, n);
            buf_printf(err, ": '%.*s' is not a decimal number", (int)(end - start), arg + start);
            return -1;
        }
        int overflow = 0;
        for (; scale < sc; scale++)
            overflow |= __builtin_mul_overflow(total, 10, &total);
        for (; sc < scale; sc++)
            overflow |= __builtin_mul_overflow(v, 10, &v);
        if (overflow || __builtin_add_overflow(total, v, &total)) {
            macro_describe(err, id, arg, n);
            buf_puts(err, ": the sum is too large");
            return -1;
        }
        start = end + 1;
    }
    calc_num sum = {total, scale};
    return calc_format(sum, val); /* the same text $CALC writes */
}

/* $CALC{expr}: exact decimal arithmetic (calc.h). Reads no state. */
static int calc_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    (void)state;
    buf why = BUF_INIT;
    int rc = calc_eval(arg, n, val, &why);
    if (rc < 0) {
        macro_describe(err, id, arg, n);
        buf_printf(err, ": %s", buf_str(&why));
    }
    buf_free(&why);
    return rc;
}

/* One condition of $OUTCOME: 1, 0, or -1 with the reason in err. */
static int outcome_condition(const char *arg, size_t n, const char *text, size_t len,
                             const char *which, buf *err)
{
    char why[200];
    int v = cond_eval_text(text, len, why, sizeof why);
    if (v < 0) {
        macro_describe(err, M_OUTCOME, arg, n);
        buf_printf(err, ": %s condition '%.*s': %s", which, (int)len, text, why);
    }
    return v;
}

/* $OUTCOME{failed; expected}: how a call ended, for rules to colour apart
 * the failures that are part of normal operation (EAGAIN, EINTR): "ok" when
 * the `failed` condition is false, else "expected" when the `expected`
 * condition holds, else "error". Reads no state. */
static int outcome_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    (void)state;
    const char *semi = memchr(arg, ';', n);
    if (!semi) {
        macro_describe(err, id, arg, n);
        buf_puts(err, ": expected two conditions separated by ';' (failed; expected)");
        return -1;
    }
    size_t first = (size_t)(semi - arg);
    int failed = outcome_condition(arg, n, arg, first, "the failed", err);
    if (failed < 0)
        return -1;
    int expected = outcome_condition(arg, n, semi + 1, n - first - 1, "the expected", err);
    if (expected < 0)
        return -1;
    return buf_puts(val, !failed ? "ok" : expected ? "expected" : "error");
}

/* Evaluates one macro call on its (already expanded) argument: by the
 * table's evaluator, or the host's for a macro that reads the world. */
static int evaluate(const macro_host *h, int id, const char *arg, size_t n, buf *val, buf *err)
{
    const macro_def *d = macro_get(id);
    if (!(d->flags & MACRO_READS_WORLD))
        return d->eval(NULL, id, arg, n, val, err);
    macro_eval_fn f = h->evals[id];
    TLV_ASSERT(f != NULL); /* a world macro the host does not evaluate */
    if (!f) {
        macro_describe(err, id, arg, n);
        buf_puts(err, ": not evaluated here (tlv has no evaluator for this macro)");
        return -1;
    }
    return f(h->state, id, arg, n, val, err);
}

/* evaluate(), answered from the memo when the state has not changed. */
static int evaluate_memo(const macro_host *host, macro_memo *memo, int id, const char *arg,
                         size_t n, buf *val, buf *err)
{
    if (!memo || (macro_get(id)->flags & MACRO_NOT_REMEMBERED))
        return evaluate(host, id, arg, n, val, err);
    uint64_t h = hash_fast(arg, n) ^ (uint64_t)id;
    const memo_entry *e = memo_find(memo, host, id, arg, n, h);
    if (e)
        return buf_append(val, buf_str(&e->result), e->result.len);
    *host->read_dynamic = 0;
    if (evaluate(host, id, arg, n, val, err) < 0)
        return -1;
    memo_store(memo, host, id, arg, n, h, val);
    return 0;
}

int macro_eval_site(const macro_host *host, macro_memo *memo, size_t site, int id,
                    const char *arg, size_t n, buf *val, buf *err)
{
    if (macro_get(id)->flags & MACRO_NOT_REMEMBERED)
        return evaluate(host, id, arg, n, val, err);
    if (site >= memo->nsites) {
        size_t want = site + 16;
        uint32_t *p = realloc(memo->sites, want * sizeof *p);
        if (!p) {
            buf_puts(err, "out of memory");
            return -1;
        }
        memset(p + memo->nsites, 0, (want - memo->nsites) * sizeof *p);
        memo->sites = p;
        memo->nsites = want;
    }
    /* A site usually asks what it asked last time: its slot, if it still
     * holds that question, answers without hashing the argument. */
    uint32_t k = memo->sites[site];
    uint64_t h;
    if (k) {
        const memo_entry *e = &memo->slots[k - 1];
        if (e->used && e->id == id && e->arg.len == n && memcmp(e->arg.data, arg, n) == 0) {
            if (memo_current(e, host))
                return buf_append(val, buf_str(&e->result), e->result.len);
            /* The same question, asked again after the state changed
             * ($EXIST{Task(state==RUNNING)}: 1 call in 12 on the ASP log):
             * its slot is where the shared memo would look, and stale. */
            h = e->hash;
            goto evaluate_it;
        }
    }
    /* Else the shared memo may know it (the task rule asks about
     * Task(id==1), then id==2, ...). */
    h = hash_fast(arg, n) ^ (uint64_t)id;
    memo->sites[site] = (uint32_t)(h % MEMO_SLOTS) + 1;
    const memo_entry *m = memo_find(memo, host, id, arg, n, h);
    if (m)
        return buf_append(val, buf_str(&m->result), m->result.len);
evaluate_it:
    *host->read_dynamic = 0;
    if (evaluate(host, id, arg, n, val, err) < 0)
        return -1;
    memo_store(memo, host, id, arg, n, h, val);
    return 0;
}

/* Copies the bytes before the next character macro_expand must look at. A
 * backslash makes the next character text, never a macro's '$', '{' or '}'
 * (log text substituted with ${name:esc}, template.h), so it is one too. */
static size_t plain_run(const char *text, size_t len, size_t i)
{
    size_t j = i;
    while (j < len) {
        unsigned char c = (unsigned char)text[j];
        if (c == '$' || c == '{' || c == '}' || c == '\\') /* '$' 0x24, '{' 0x7b, '}' 0x7d */
            break;
        j++;
    }
    return j - i;
}

/* The next '$' from i that no backslash escapes (an odd run of them before
 * it), or NULL. */
static const char *next_dollar(const char *text, size_t len, size_t i)
{
    for (const char *d = memchr(text + i, '$', len - i); d;
         d = memchr(d + 1, '$', len - (size_t)(d + 1 - text))) {
        size_t run = 0;
        while (d - run > text && d[-(long)run - 1] == '\\')
            run++;
        if (run % 2 == 0)
            return d;
    }
    return NULL;
}

static int expand(const macro_host *host, macro_memo *memo, const char *text, size_t len,
                  buf *out, buf *err, int escape_top)
{
    frame stack[MAX_FRAMES];
    size_t depth = 0, macros_open = 0;
    buf val = BUF_INIT;
    buf_clear(out);
    buf_append(out, "", 0);
    for (size_t i = 0; i < len; i++) {
        /* Outside any brace only '$' matters (a lone '{' or '}' there changes
         * no macro), so the text up to the next '$' is copied in one go. */
        size_t plain;
        if (depth == 0) {
            const char *dollar = next_dollar(text, len, i);
            plain = (dollar ? (size_t)(dollar - text) : len) - i;
        } else {
            plain = plain_run(text, len, i);
        }
        if (plain) {
            buf_append(out, text + i, plain);
            i += plain - 1;
            continue;
        }
        char c = text[i];
        if (c == '\\') { /* inside a brace: the escaped character is text */
            buf_append(out, text + i, i + 1 < len ? 2 : 1);
            i += i + 1 < len;
            continue;
        }
        size_t nl = c == '$' ? call_name_len(text, len, i) : 0;
        if (depth == 0 && !nl) { /* a '$' that starts no macro */
            buf_putc(out, c);
            continue;
        }
        if (nl || c == '{') {
            int id = nl ? macro_id(text + i + 1, nl) : M_PLAIN;
            if (nl && id < 0) {
                buf_printf(err, "unknown macro $%.*s (known: ", (int)nl, text + i + 1);
                macro_known_list(err);
                buf_putc(err, ')');
                goto fail;
            }
            if (depth == MAX_FRAMES) {
                buf_puts(err, "macros nested too deeply");
                goto fail;
            }
            stack[depth].start = out->len;
            stack[depth++].id = id;
            if (id == M_PLAIN)
                buf_putc(out, '{');
            else
                macros_open++;
            i += nl ? nl + 1 : 0;
            continue;
        }
        if (c == '}' && depth > 0) {
            frame f = stack[--depth];
            if (f.id == M_PLAIN) {
                buf_putc(out, '}');
                continue;
            }
            macros_open--;
            buf_clear(&val);
            if (evaluate_memo(host, memo, f.id, out->data + f.start, out->len - f.start, &val,
                              err) < 0)
                goto fail;
            out->len = f.start;
            if (escape_top && depth == 0)
                std_escape_log_text(out, val.data ? val.data : "", val.len);
            else
                buf_append(out, val.data ? val.data : "", val.len);
            continue;
        }
        buf_putc(out, c);
    }
    if (macros_open) {
        for (size_t k = depth; k-- > 0;)
            if (stack[k].id != M_PLAIN) {
                buf_printf(err, "$%s{ is not closed (missing '}')", macro_get(stack[k].id)->name);
                break;
            }
        goto fail;
    }
    buf_free(&val);
    return 0;
fail:
    buf_free(&val);
    return -1;
}

int macro_expand(const macro_host *host, macro_memo *memo, const char *text, size_t len, buf *out,
                 buf *err)
{
    return expand(host, memo, text, len, out, err, 0);
}

int macro_expand_line(const macro_host *host, macro_memo *memo, const char *text, size_t len,
                      buf *out, buf *err)
{
    return expand(host, memo, text, len, out, err, 1);
}
