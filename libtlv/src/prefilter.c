/*
 * prefilter.c — required-literal extraction and the multi-literal line scan
 * (see prefilter.h). The extraction errs on the safe side: whatever it is
 * unsure of ends the current literal, so a literal it returns is always in
 * every match, and a rule is never skipped on a line it could match.
 */
#include "prefilter.h"

#include "buf.h"

#include <stdlib.h>
#include <string.h>

/* Characters that stand for themselves after a backslash. */
static int escaped_literal(char c, char *out)
{
    if (strchr(".[](){}\\/-|*+?^$# \"'<>=!:,&~%@`;_", c)) {
        *out = c;
        return 1;
    }
    if (c == 't' || c == 'n' || c == 'r' || c == 'f' || c == 'e' || c == 'a') {
        *out = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'f' ? '\f'
               : c == 'e' ? 27 : 7;
        return 1;
    }
    return 0;
}

/* Index just past the group or class starting at p[i]; -1 if unbalanced. */
static long skip_class(const char *p, size_t n, size_t i)
{
    size_t j = i + 1;
    if (j < n && p[j] == '^')
        j++;
    if (j < n && p[j] == ']')
        j++;
    for (; j < n; j++) {
        if (p[j] == '\\')
            j++;
        else if (p[j] == '[' && j + 1 < n && p[j + 1] == ':') {
            /* only [:name:] or [:^name:]; PCRE2 reads anything else (such as
               "[:a]") differently, so give up rather than guess */
            size_t k = j + 2;
            if (k < n && p[k] == '^')
                k++;
            size_t name = k;
            while (k < n && ((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z')))
                k++;
            if (k == name || k + 1 >= n || p[k] != ':' || p[k + 1] != ']')
                return -1;
            j = k + 1;
        } else if (p[j] == ']')
            return (long)j + 1;
    }
    return -1;
}

static long skip_group(const char *p, size_t n, size_t i)
{
    int depth = 0;
    for (size_t j = i; j < n; j++) {
        if (p[j] == '\\')
            j++;
        else if (p[j] == '[') {
            long k = skip_class(p, n, j);
            if (k < 0)
                return -1;
            j = (size_t)k - 1;
        } else if (p[j] == '(')
            depth++;
        else if (p[j] == ')' && --depth == 0)
            return (long)j + 1;
    }
    return -1;
}

/* True when the pattern has '|' outside any group or class, or an option
 * setting that could change how literals match. */
static int unsafe_pattern(const char *p, size_t n)
{
    /* Anywhere, even inside groups and classes: \Q..\E (quoted text hides
       the pattern's structure), comments and callouts (free text that may
       hold brackets), and verbs such as (*ACCEPT), which ends a match early. */
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\') {
            if (i + 1 < n && (p[i + 1] == 'Q' || p[i + 1] == 'E'))
                return 1;
            i++;
        } else if (p[i] == '(' && i + 1 < n &&
                   (p[i + 1] == '*' || (p[i + 1] == '?' && i + 2 < n &&
                                        (p[i + 2] == '#' || p[i + 2] == 'C'))))
            return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\') {
            if (i + 1 < n && (p[i + 1] == 'Q' || p[i + 1] == 'E'))
                return 1;
            i++;
        } else if (p[i] == '[') {
            long k = skip_class(p, n, i);
            if (k < 0)
                return 1;
            i = (size_t)k - 1;
        } else if (p[i] == '(') {
            if (i + 2 < n && p[i + 1] == '?' && strchr("imnsxJU-^", p[i + 2]))
                return 1; /* (?i) and friends */
            if (i + 1 < n && p[i + 1] == '*')
                return 1; /* (*UTF) and other verbs */
            long k = skip_group(p, n, i);
            if (k < 0)
                return 1;
            /* options may also hide inside groups: be strict and scan them */
            for (long j = (long)i + 1; j < k - 1; j++)
                if (p[j] == '(' && p[j + 1] == '?' && strchr("imnsxJU-^", p[j + 2]))
                    return 1;
            i = (size_t)k - 1;
        } else if (p[i] == '|')
            return 1;
    }
    return 0;
}

static int is_quantifier_start(const char *p, size_t n, size_t i)
{
    return i < n && (p[i] == '?' || p[i] == '*' || p[i] == '+' || p[i] == '{');
}

/* A quantifier that allows zero repetitions of the previous atom. */
static int allows_zero(const char *p, size_t n, size_t i)
{
    if (p[i] == '?' || p[i] == '*')
        return 1;
    if (p[i] == '{') /* {0,..}, {,n} or a '{' that is not a quantifier: be safe */
        return !(i + 1 < n && p[i + 1] >= '1' && p[i + 1] <= '9');
    return 0;
}

/* Length of the counted quantifier ("{2}", "{0,3}", "{,3}", "{ 1 , 2 }")
 * starting at p[i], or 0 when p[i] is not one (then '{' is a literal). Any
 * run of digits, commas and spaces counts: reading a literal "{,}" as a
 * quantifier only loses literal characters. */
static size_t quantifier_len(const char *p, size_t n, size_t i)
{
    if (p[i] != '{')
        return 0;
    for (size_t j = i + 1; j < n; j++) {
        if (p[j] == '}')
            return j - i + 1;
        if (!strchr("0123456789, ", p[j]))
            return 0;
    }
    return 0;
}

/* Bytes in the UTF-8 character starting with byte c (patterns are UTF-8). */
static size_t utf8_char_len(unsigned char c)
{
    return c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

static void keep_longest(buf *best, const buf *run)
{
    if (run->len > best->len) {
        buf_clear(best);
        buf_append(best, run->data, run->len);
    }
}

char *prefilter_required_literal(const char *p, size_t min_len)
{
    size_t n = strlen(p);
    if (unsafe_pattern(p, n))
        return NULL;
    buf best = BUF_INIT, run = BUF_INIT;
    for (size_t i = 0; i < n;) {
        char lit[4];
        size_t lit_len = 1, atom_end;
        if (p[i] == '\\' && i + 1 < n && escaped_literal(p[i + 1], &lit[0]))
            atom_end = i + 2;
        else if (!strchr("\\.[()^$?*+{|", p[i])) {
            /* a multi-byte character is one atom: a quantifier after it
               repeats all of its bytes */
            lit_len = utf8_char_len((unsigned char)p[i]);
            if (lit_len > n - i)
                break; /* truncated UTF-8: does not compile anyway */
            memcpy(lit, p + i, lit_len);
            atom_end = i + lit_len;
        } else {
            /* not a literal: skip the atom, end the run */
            if (p[i] == '\\' && (i + 1 >= n || !strchr("dDwWsShHvVRXbBAzZGK", p[i + 1]))) {
                buf_free(&run); /* \x41, \p{..}, \1 ...: too varied to read safely */
                buf_free(&best);
                return NULL;
            }
            keep_longest(&best, &run);
            buf_clear(&run);
            size_t q = quantifier_len(p, n, i); /* its digits are no literal */
            long k = p[i] == '[' ? skip_class(p, n, i) : p[i] == '(' ? skip_group(p, n, i)
                     : p[i] == '\\' ? (long)i + 2 : q ? (long)(i + q) : (long)i + 1;
            if (k < 0)
                break;
            i = (size_t)k;
            continue;
        }
        if (is_quantifier_start(p, n, atom_end)) {
            if (!allows_zero(p, n, atom_end))
                buf_append(&run, lit, lit_len); /* at least one: it ends the run */
            keep_longest(&best, &run);
            buf_clear(&run);
            i = atom_end;
            continue;
        }
        buf_append(&run, lit, lit_len);
        i = atom_end;
    }
    keep_longest(&best, &run);
    buf_free(&run);
    if (best.len < min_len) {
        buf_free(&best);
        return NULL;
    }
    return best.data;
}

/* Literals bucketed by their first two bytes: one table look-up per line
 * position, then a memcmp for the few literals in that bucket. */
struct prefilter {
    size_t n;
    char **lits;
    size_t *lens;
    uint64_t *head, *tail; /* first and last 8 bytes (or fewer, zero-padded):
                              literals often share a prefix ("] enter to "), so
                              two word compares reject most before memcmp */
    uint32_t *bucket_start; /* 65537 offsets into order */
    uint32_t *order;        /* literal indexes sorted by bucket */
    unsigned char *always;  /* rules without a literal */
    unsigned char first[4]; /* the distinct first bytes of the literals, when */
    int nfirst;             /* there are at most 4 (else nfirst = -1) */
};

static uint64_t load_word(const char *s, size_t n)
{
    uint64_t w = 0;
    memcpy(&w, s, n < 8 ? n : 8);
    return w;
}

static int literal_at(const prefilter *p, uint32_t r, const char *at)
{
    size_t n = p->lens[r], k = n < 8 ? n : 8;
    return load_word(at, k) == p->head[r] && load_word(at + n - k, k) == p->tail[r] &&
           (n <= 16 || memcmp(at + 8, p->lits[r] + 8, n - 16) == 0);
}

static unsigned pair_of(const char *s)
{
    return ((unsigned)(unsigned char)s[0] << 8) | (unsigned char)s[1];
}

prefilter *prefilter_new(char *const *literals, size_t n)
{
    prefilter *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    p->lits = calloc(n + 1, sizeof *p->lits);
    p->lens = calloc(n + 1, sizeof *p->lens);
    p->always = calloc(n + 1, 1);
    p->bucket_start = calloc(65537, sizeof *p->bucket_start);
    p->order = calloc(n + 1, sizeof *p->order);
    p->head = calloc(n + 1, sizeof *p->head);
    p->tail = calloc(n + 1, sizeof *p->tail);
    if (!p->lits || !p->lens || !p->always || !p->bucket_start || !p->order || !p->head ||
        !p->tail) {
        prefilter_free(p);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!literals[i] || strlen(literals[i]) < 2) {
            p->always[i] = 1;
            continue;
        }
        p->lits[i] = literals[i];
        p->lens[i] = strlen(literals[i]);
        p->head[i] = load_word(literals[i], p->lens[i]);
        size_t k = p->lens[i] < 8 ? p->lens[i] : 8;
        p->tail[i] = load_word(literals[i] + p->lens[i] - k, k);
        p->bucket_start[pair_of(literals[i]) + 1]++;
    }
    for (size_t b = 1; b <= 65536; b++)
        p->bucket_start[b] += p->bucket_start[b - 1];
    for (size_t i = 0; i < n && p->nfirst >= 0; i++) {
        if (!p->lits[i])
            continue;
        unsigned char c = (unsigned char)p->lits[i][0];
        int seen = 0;
        for (int f = 0; f < p->nfirst; f++)
            seen |= p->first[f] == c;
        if (!seen)
            p->nfirst = p->nfirst < 4 ? (p->first[p->nfirst] = c, p->nfirst + 1) : -1;
    }
    uint32_t *fill = calloc(65536, sizeof *fill);
    if (!fill) {
        prefilter_free(p);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (p->lits[i]) {
            unsigned b = pair_of(p->lits[i]);
            p->order[p->bucket_start[b] + fill[b]++] = (uint32_t)i;
        }
    free(fill);
    return p;
}

void prefilter_free(prefilter *p)
{
    if (!p)
        return;
    free(p->lits); /* the strings belong to the caller */
    free(p->lens);
    free(p->always);
    free(p->bucket_start);
    free(p->order);
    free(p->head);
    free(p->tail);
    free(p);
}

static void check_position(const prefilter *p, const char *line, size_t len, size_t i,
                           unsigned char *candidate)
{
    unsigned b = pair_of(line + i);
    for (uint32_t k = p->bucket_start[b]; k < p->bucket_start[b + 1]; k++) {
        uint32_t r = p->order[k];
        if (!candidate[r] && p->lens[r] <= len - i && literal_at(p, r, line + i))
            candidate[r] = 1;
    }
}

void prefilter_scan(const prefilter *p, const char *line, size_t len, unsigned char *candidate)
{
    memcpy(candidate, p->always, p->n);
    if (len < 2)
        return;
    if (p->nfirst < 0) {
        for (size_t i = 0; i + 1 < len; i++)
            check_position(p, line, len, i, candidate);
        return;
    }
    /* Rule sets tend to share a few first bytes (every TOPPERS literal starts
     * with "] "): jump between their occurrences with memchr. */
    for (int f = 0; f < p->nfirst; f++) {
        const char *at = line, *end = line + len - 1;
        while (at < end && (at = memchr(at, p->first[f], (size_t)(end - at)))) {
            check_position(p, line, len, (size_t)(at - line), candidate);
            at++;
        }
    }
}
