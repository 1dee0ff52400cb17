/*
 * prefilter.c — required-literal extraction and the multi-literal line scan
 * (see prefilter.h). The extraction errs on the safe side: whatever it is
 * unsure of ends the current literal, so a literal it returns is always in
 * every match, and a rule is never skipped on a line it could match.
 */
#include "compile/prefilter.h"

#include "base/buf.h"

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

/* Literals bucketed by their first four bytes (a hash of them), or two for
 * shorter ones: two table look-ups per line position, then a compare for
 * the few literals in those buckets. (Bucketing by two bytes alone put
 * every TOPPERS literal, all starting "] ", in one bucket.) */
struct prefilter {
    size_t n;
    char **lits;
    size_t *lens;
    uint64_t *head, *tail; /* first and last 8 bytes (or fewer, zero-padded):
                              literals often share a prefix ("] enter to "), so
                              two word compares reject most before memcmp */
    uint32_t *bucket_start; /* NBUCKETS + 1 offsets into order */
    uint32_t *order;        /* literal indexes sorted by bucket */
    unsigned char *always;  /* rules without a literal */
    unsigned char first[4]; /* the distinct first bytes of the literals, when */
    int nfirst;             /* there are at most 4 (else nfirst = -1) */
    struct automaton *ac;   /* all literals at once, when small enough; else the buckets */
};

/* ---- Aho-Corasick: one table step per byte of the line ----------------------- */

/* Rule sets have a few dozen literals of a few dozen bytes, so a full
 * transition table (states x 256) stays small; past AC_MAX_STATES the
 * buckets above are used instead. */
#define AC_MAX_STATES 4096

#define AC_REPORTS 0x8000u  /* in next[]: the state entered has literals to report */

typedef struct automaton {
    uint16_t *next;         /* [state * 256 + byte]: the next state, | AC_REPORTS */
    unsigned char starts[256]; /* bytes that leave the start state */
    uint32_t *out_start;    /* per state: its literals in out[] (own and suffixes') */
    uint32_t *out;
    size_t nstates;
} automaton;

static void automaton_free(automaton *a)
{
    if (!a)
        return;
    free(a->next);
    free(a->out_start);
    free(a->out);
    free(a);
}

/* The trie of the literals; -1 where no edge. Returns the state count, or 0
 * when there would be too many states (or no memory). */
static size_t build_trie(char *const *lits, const size_t *lens, size_t n, int32_t *edge,
                         uint32_t *ends, uint32_t *ends_next, uint32_t *end_head)
{
    size_t nstates = 1;
    for (size_t i = 0; i < n; i++) {
        if (!lits[i])
            continue;
        size_t s = 0;
        for (size_t k = 0; k < lens[i]; k++) {
            int32_t *e = &edge[s * 256 + (unsigned char)lits[i][k]];
            if (*e < 0) {
                if (nstates == AC_MAX_STATES)
                    return 0;
                *e = (int32_t)nstates++;
            }
            s = (size_t)*e;
        }
        ends[i] = (uint32_t)i; /* literal i ends in state s: a list per state */
        ends_next[i] = end_head[s];
        end_head[s] = (uint32_t)i + 1;
    }
    return nstates;
}

static automaton *automaton_new(char *const *lits, const size_t *lens, size_t n)
{
    automaton *a = calloc(1, sizeof *a);
    int32_t *edge = malloc((size_t)AC_MAX_STATES * 256 * sizeof *edge);
    uint32_t *ends = calloc(n + 1, sizeof *ends), *ends_next = calloc(n + 1, sizeof *ends_next);
    uint32_t *end_head = calloc(AC_MAX_STATES, sizeof *end_head);
    uint32_t *fail = calloc(AC_MAX_STATES, sizeof *fail), *queue = calloc(AC_MAX_STATES, sizeof *queue);
    size_t nstates = 0;
    if (a && edge && ends && ends_next && end_head && fail && queue) {
        memset(edge, 0xff, (size_t)AC_MAX_STATES * 256 * sizeof *edge);
        nstates = build_trie(lits, lens, n, edge, ends, ends_next, end_head);
    }
    if (nstates) {
        a->nstates = nstates;
        a->next = malloc(nstates * 256 * sizeof *a->next);
        a->out_start = calloc(nstates + 1, sizeof *a->out_start);
    }
    if (!nstates || !a->next || !a->out_start) {
        automaton_free(a);
        a = NULL;
    } else {
        /* Breadth first: a state's failure (its longest proper suffix in the
         * trie) is done before it, so its row and outputs can be copied. */
        size_t head = 0, tail = 0, nout = 0;
        for (int c = 0; c < 256; c++) {
            int32_t t = edge[c];
            a->next[c] = (uint16_t)(t < 0 ? 0 : t);
            if (t > 0) {
                fail[t] = 0;
                queue[tail++] = (uint32_t)t;
            }
        }
        while (head < tail) {
            uint32_t s = queue[head++];
            for (int c = 0; c < 256; c++) {
                int32_t t = edge[(size_t)s * 256 + c];
                if (t < 0) {
                    a->next[(size_t)s * 256 + c] = a->next[(size_t)fail[s] * 256 + c];
                } else {
                    a->next[(size_t)s * 256 + c] = (uint16_t)t;
                    fail[t] = a->next[(size_t)fail[s] * 256 + c];
                    queue[tail++] = (uint32_t)t;
                }
            }
        }
        /* Outputs: a state reports its own literals and its suffixes'. */
        for (size_t s = 0; s < nstates; s++)
            for (size_t f = s; f != 0; f = fail[f])
                for (uint32_t e = end_head[f]; e; e = ends_next[e - 1])
                    nout++;
        a->out = calloc(nout + 1, sizeof *a->out);
        if (!a->out) {
            automaton_free(a);
            a = NULL;
        } else {
            size_t k = 0;
            for (size_t s = 0; s < nstates; s++) {
                a->out_start[s] = (uint32_t)k;
                for (size_t f = s; f != 0; f = fail[f])
                    for (uint32_t e = end_head[f]; e; e = ends_next[e - 1])
                        a->out[k++] = ends[e - 1];
            }
            a->out_start[nstates] = (uint32_t)k;
            for (size_t i = 0; i < nstates * 256; i++)
                if (a->out_start[a->next[i]] != a->out_start[a->next[i] + 1])
                    a->next[i] |= AC_REPORTS;
            for (int c = 0; c < 256; c++)
                a->starts[c] = a->next[c] != 0;
        }
    }
    free(edge);
    free(ends);
    free(ends_next);
    free(end_head);
    free(fail);
    free(queue);
    return a;
}

int prefilter_uses_automaton(const prefilter *p) { return p->ac != NULL; }

static void automaton_scan(const automaton *a, const char *line, size_t len,
                           unsigned char *candidate)
{
    size_t s = 0;
    for (size_t i = 0; i < len; i++) {
        /* In the start state, bytes that begin no literal change nothing:
         * skip them without the table's dependent loads. */
        while (s == 0 && i < len && !a->starts[(unsigned char)line[i]])
            i++;
        if (i == len)
            break;
        s = a->next[s * 256 + (unsigned char)line[i]];
        if (s & AC_REPORTS) {
            s &= ~(size_t)AC_REPORTS;
            for (uint32_t k = a->out_start[s]; k < a->out_start[s + 1]; k++)
                candidate[a->out[k]] = 1;
        }
    }
}

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

#define PAIR_BUCKETS 65536u
#define NBUCKETS (2 * PAIR_BUCKETS)

static unsigned pair_of(const char *s)
{
    return ((unsigned)(unsigned char)s[0] << 8) | (unsigned char)s[1];
}

/* Buckets PAIR_BUCKETS.. are for literals of four bytes or more. */
static unsigned quad_of(const char *s)
{
    uint32_t w;
    memcpy(&w, s, 4);
    return PAIR_BUCKETS + ((w * 2654435761u) >> 16);
}

static unsigned bucket_of(const char *lit, size_t n) { return n >= 4 ? quad_of(lit) : pair_of(lit); }

prefilter *prefilter_new(char *const *literals, size_t n)
{
    prefilter *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    p->lits = calloc(n + 1, sizeof *p->lits);
    p->lens = calloc(n + 1, sizeof *p->lens);
    p->always = calloc(n + 1, 1);
    p->bucket_start = calloc(NBUCKETS + 1, sizeof *p->bucket_start);
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
        p->bucket_start[bucket_of(literals[i], p->lens[i]) + 1]++;
    }
    for (size_t b = 1; b <= NBUCKETS; b++)
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
    uint32_t *fill = calloc(NBUCKETS, sizeof *fill);
    if (!fill) {
        prefilter_free(p);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (p->lits[i]) {
            unsigned b = bucket_of(p->lits[i], p->lens[i]);
            p->order[p->bucket_start[b] + fill[b]++] = (uint32_t)i;
        }
    free(fill);
    p->ac = automaton_new(p->lits, p->lens, n); /* NULL: the buckets do */
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
    automaton_free(p->ac);
    free(p);
}

static void check_bucket(const prefilter *p, unsigned b, const char *line, size_t len, size_t i,
                         unsigned char *candidate)
{
    for (uint32_t k = p->bucket_start[b]; k < p->bucket_start[b + 1]; k++) {
        uint32_t r = p->order[k];
        if (!candidate[r] && p->lens[r] <= len - i && literal_at(p, r, line + i))
            candidate[r] = 1;
    }
}

static void check_position(const prefilter *p, const char *line, size_t len, size_t i,
                           unsigned char *candidate)
{
    check_bucket(p, pair_of(line + i), line, len, i, candidate);
    if (len - i >= 4)
        check_bucket(p, quad_of(line + i), line, len, i, candidate);
}

void prefilter_scan(const prefilter *p, const char *line, size_t len, unsigned char *candidate)
{
    memcpy(candidate, p->always, p->n);
    if (p->ac) {
        automaton_scan(p->ac, line, len, candidate);
        return;
    }
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
