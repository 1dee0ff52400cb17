/*
 * test_prefilter.c — the literal prefilter (libtlv/src/prefilter.c).
 *
 * 1. Exact required literals for representative patterns: quantified
 *    characters, classes, escapes, groups, anchors, UTF-8 text, and the
 *    constructs that must give up (NULL): \x41, \p{L}, back references,
 *    \Q..\E, top-level '|', inline options, verbs, comments.
 * 2. A differential property test against PCRE2 itself: random small
 *    regexes from a grammar over a small alphabet and subjects built from
 *    them (plus noise and mutations); whenever PCRE2 — compiled with the
 *    converter's options — matches a subject, the extracted literal must
 *    occur in it. Sets of these rules then go through prefilter_new /
 *    prefilter_scan: a matching rule is always a candidate, and the scan
 *    agrees exactly with a naive substring search.
 * The random generator has a fixed seed, so every run is the same.
 */
#include "check.h"

#include "compile/prefilter.h"
#include "rules/rules_impl.h" /* CNV_REGEX_OPTIONS: the converter's compile options */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------- */

/* Checks the literal extracted from `pattern` (NULL expected as NULL). */
#define CHECK_LIT(pattern, min_len, expected) check_lit(__LINE__, pattern, min_len, expected)

static void check_lit(int line, const char *pattern, size_t min_len, const char *expected)
{
    char *got = prefilter_required_literal(pattern, min_len);
    int ok = expected ? got && strcmp(got, expected) == 0 : got == NULL;
    if (!ok) {
        fprintf(stderr, "%s:%d: literal of /%s/ (min %zu) == %s%s%s, expected %s%s%s\n",
                __FILE__, line, pattern, min_len, got ? "\"" : "", got ? got : "NULL",
                got ? "\"" : "", expected ? "\"" : "", expected ? expected : "NULL",
                expected ? "\"" : "");
        check_failures++;
    }
    free(got);
}

static pcre2_code *compile(const char *pattern)
{
    int errcode;
    PCRE2_SIZE erroff;
    return pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, CNV_REGEX_OPTIONS, &errcode,
                         &erroff, NULL);
}

static int matches(const pcre2_code *re, pcre2_match_data *md, const char *s, size_t len)
{
    int rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, NULL);
    return rc >= 0;
}

static int contains(const char *s, size_t len, const char *lit)
{
    size_t n = strlen(lit);
    if (n > len)
        return 0;
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, lit, n) == 0)
            return 1;
    return 0;
}

/* A pattern whose literal is checked against real matches too: every subject
 * that PCRE2 matches must contain the literal. */
static void check_lit_matches(int line, const char *pattern, const char *const *subjects)
{
    pcre2_code *re = compile(pattern);
    if (!re) {
        fprintf(stderr, "%s:%d: /%s/ does not compile\n", __FILE__, line, pattern);
        check_failures++;
        return;
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    char *lit = prefilter_required_literal(pattern, 1);
    for (size_t i = 0; subjects[i]; i++) {
        size_t len = strlen(subjects[i]);
        if (matches(re, md, subjects[i], len) && lit && !contains(subjects[i], len, lit)) {
            fprintf(stderr, "%s:%d: /%s/ matches \"%s\" without its literal \"%s\"\n", __FILE__,
                    line, pattern, subjects[i], lit);
            check_failures++;
        }
    }
    free(lit);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
}

#define CHECK_MATCHES(pattern, ...)                                                          \
    do {                                                                                     \
        const char *const subj_[] = {__VA_ARGS__, NULL};                                     \
        check_lit_matches(__LINE__, pattern, subj_);                                         \
    } while (0)

/* ---- 1. exact literals ---------------------------------------------------- */

static void test_exact(void)
{
    /* the motivating example */
    CHECK_LIT("\\[(?<time>\\d+)\\] dispatch to task (?<id>\\d+)\\.", 3, "] dispatch to task ");
    CHECK_LIT("plain text", 3, "plain text");
    CHECK_LIT("plain text", 10, "plain text");
    CHECK_LIT("plain text", 11, NULL);

    /* a character that may be absent is dropped; the run ends there */
    CHECK_LIT("abcd?ef", 3, "abc");
    CHECK_LIT("abcd*ef", 3, "abc");
    CHECK_LIT("abcd{0,3}ef", 3, "abc");
    CHECK_LIT("abcd{,3}ef", 3, "abc"); /* {,3}: literal before 10.43, {0,3} after */
    CHECK_LIT("abcd??ef", 3, "abc");
    CHECK_LIT("abcd*?ef", 3, "abc");
    CHECK_LIT("abcd?+ef", 3, "abc");
    CHECK_LIT("ab?cdef", 3, "cdef");
    CHECK_LIT("abcde?", 3, "abcd");
    /* a character repeated at least once is kept, and the run ends there */
    CHECK_LIT("abc+de", 3, "abc");
    CHECK_LIT("abc+?de", 3, "abc");
    CHECK_LIT("abc++de", 3, "abc");
    CHECK_LIT("ab+cdef", 3, "cdef");
    CHECK_LIT("abc{2}de", 3, "abc");
    CHECK_LIT("abc{1,}de", 3, "abc");
    /* a counted quantifier is skipped whole: its digits are no literal */
    CHECK_LIT("a{2}bcd", 3, "bcd");
    CHECK_LIT("x{12,34}yz", 2, "yz");
    CHECK_LIT("\\d{4}-\\d{2}-\\d{2}", 3, NULL);
    CHECK_LIT("\\d{4}-\\d{2}-\\d{2}", 1, "-");
    CHECK_LIT(".{0,3}xyz", 3, "xyz");
    CHECK_LIT("(ab){2,}cd", 2, "cd");
    CHECK_LIT("[0-9]{2}:[0-9]{2}", 1, ":");
    CHECK_LIT("ab{x}cd", 2, "x}cd"); /* '{' not a quantifier: a literal '{' */

    /* classes are skipped, including the awkward ones */
    CHECK_LIT("x[a-z]yzw", 3, "yzw");
    CHECK_LIT("[]x]abc", 3, "abc");
    CHECK_LIT("[^]]abc", 3, "abc");
    CHECK_LIT("[^]x]+abc", 3, "abc");
    CHECK_LIT("[[:alpha:]]abc", 3, "abc");
    CHECK_LIT("[[:^digit:]x]abc", 3, "abc");
    CHECK_LIT("[\\]x]abc", 3, "abc");
    CHECK_LIT("[ab]+cde[fg]*", 3, "cde");
    CHECK_LIT("[(|)]abc", 3, "abc"); /* '|' inside a class is not alternation */
    CHECK_LIT("[[:a]|:]]xyz", 3, NULL); /* "[:a]" is no POSIX class: the '|' is top-level */
    CHECK_LIT("[[:]abc", 3, NULL);      /* "[:]": be safe and give up */

    /* escapes that stand for one character */
    CHECK_LIT("abc\\.def", 3, "abc.def");
    CHECK_LIT("\\[abc\\]", 3, "[abc]");
    CHECK_LIT("a\\tbc", 3, "a\tbc");
    CHECK_LIT("\\(x\\)\\{y\\}", 3, "(x){y}");
    CHECK_LIT("a\\.?bcd", 3, "bcd");
    CHECK_LIT("a\\d+bcd\\s\\w*efgh", 3, "efgh");
    CHECK_LIT("\\bword\\b", 3, "word");
    /* escapes too varied to read: no literal at all */
    CHECK_LIT("abc\\x41def", 3, NULL);
    CHECK_LIT("abc\\x{41}def", 3, NULL);
    CHECK_LIT("abc\\p{L}def", 3, NULL);
    CHECK_LIT("(abc)\\1def", 3, NULL);
    CHECK_LIT("(?<n>abc)\\k<n>def", 3, NULL);
    CHECK_LIT("abc\\0def", 3, NULL);
    CHECK_LIT("abc\\cAdef", 3, NULL);
    CHECK_LIT("\\Qa.b\\E", 1, NULL);
    CHECK_LIT("abcd\\Q.\\E", 1, NULL);
    CHECK_LIT("abc(\\Qx|\\E)def", 1, NULL);
    CHECK_LIT("(\\Q)ab(\\E|x)", 1, NULL); /* the group is ")ab(" or "x" */
    CHECK_LIT("[\\Q]\\E]abc", 1, NULL);
    CHECK_LIT("abc\\", 1, NULL);

    /* alternation: top-level gives up, inside a group is fine */
    CHECK_LIT("abc|def", 1, NULL);
    CHECK_LIT("abcdef|", 1, NULL);
    CHECK_LIT("(abc|def)ghi", 3, "ghi");
    CHECK_LIT("x(?:a|b)yzw", 3, "yzw");
    CHECK_LIT("start (?:(a|b)|c) end", 3, "start ");
    CHECK_LIT("(?=a|b)xyz", 3, "xyz");

    /* options and verbs anywhere give up */
    CHECK_LIT("(?i)abc", 1, NULL);
    CHECK_LIT("(?i:abc)def", 1, NULL);
    CHECK_LIT("abc(?-i)def", 1, NULL);
    CHECK_LIT("(?x)a b c", 1, NULL);
    CHECK_LIT("(x(?s).)abc", 1, NULL);
    CHECK_LIT("(*UTF)abc", 1, NULL);
    CHECK_LIT("(?:(*ACCEPT))defg", 1, NULL); /* matches the empty string */
    CHECK_LIT("(a(*ACCEPT)b)cdef", 1, NULL);
    CHECK_LIT("(?#[)|(]x)abc", 1, NULL); /* comment "[", then a top-level '|' */
    CHECK_LIT("(?C\"[\")|(]x)abc", 1, NULL);
    /* ... but an escaped '(' is just a character */
    CHECK_LIT("\\(*abcd", 3, "abcd");

    /* groups are skipped whole */
    CHECK_LIT("(?:abc)de", 3, NULL);
    CHECK_LIT("(?:abc)defg", 3, "defg");
    CHECK_LIT("(abcdef)?xyz", 3, "xyz");
    CHECK_LIT("(a(b)c)+xyz(d)", 3, "xyz");

    /* anchors end a literal but are no obstacle */
    CHECK_LIT("^abc$", 3, "abc");
    CHECK_LIT("^ab$", 3, NULL);
    CHECK_LIT("^ab$cdef", 3, "cdef");

    /* UTF-8: a quantifier applies to the whole character, not its last byte */
    CHECK_LIT("タスク(\\d+)が開始しました", 3, "が開始しました");
    CHECK_LIT("ジョブ (\\d+) を開始", 3, "ジョブ "); /* ties keep the first */
    CHECK_LIT("開始す?る", 3, "開始");
    CHECK_LIT("開始す*る", 3, "開始");
    CHECK_LIT("開始す{0,2}る", 3, "開始");
    CHECK_LIT("開始す+る", 3, "開始す");
    CHECK_LIT("xé?yz", 2, "yz");
    CHECK_LIT("éé?", 1, "é");
    CHECK_LIT("日本語", 9, "日本語");
    CHECK_LIT("日本語", 10, NULL);

    /* too short */
    CHECK_LIT("ab", 3, NULL);
    CHECK_LIT("a.b.c", 3, NULL);
    CHECK_LIT("a.b.c", 1, "a");
    CHECK_LIT("", 1, NULL);
    CHECK_LIT("\\d+", 1, NULL);

    /* the same cases against real matches */
    CHECK_MATCHES("abcd?ef", "abcef", "abcdef", "xxabceffff");
    CHECK_MATCHES("a{2}bcd", "aabcd", "xaabcdx");
    CHECK_MATCHES("\\d{4}-\\d{2}-\\d{2}", "2024-01-31");
    CHECK_MATCHES("開始す?る", "開始る", "開始する", "開始すする");
    CHECK_MATCHES("開始す{0,2}る", "開始る", "開始すする");
    CHECK_MATCHES("(?:(*ACCEPT))defg", "", "xyz");
    CHECK_MATCHES("(?#[)|(]x)abc", "", "q");
    CHECK_MATCHES("[[:a]|:]]xyz", "a", ":]]xyz");
    CHECK_MATCHES("(\\Q)ab(\\E|x)", "x", ")ab(");
    CHECK_MATCHES("ab{x}cd", "ab{x}cd", "xab{x}cdx");
    CHECK_MATCHES("abcd{,3}ef", "abcef", "abcdddef", "abcd{,3}ef");
}

/* ---- 2. random regexes against PCRE2 --------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n) /* uniform enough in [0, n) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 32) % n);
}

/* Leaves: their regex text, and the strings each can match (for samples). */
struct leaf {
    const char *text;
    const char *samples[6];
};

static const struct leaf leaves[] = {
    {"a", {"a"}},          {"b", {"b"}},           {"c", {"c"}},
    {"a", {"a"}},          {"b", {"b"}},           {"c", {"c"}},
    {"ab", {"ab"}},        {"bc", {"bc"}},         {"ca", {"ca"}},
    {"\\.", {"."}},        {".", {"a", "b", "c", ".", "é", "]"}},
    {"é", {"é"}},          {"日", {"日"}},         {" ", {" "}},
    {"\\t", {"\t"}},       {"]", {"]"}},           {"}", {"}"}},
    {"\\{", {"{"}},        {"\\]", {"]"}},         {"[ab]", {"a", "b"}},
    {"[^a]", {"b", "c", ".", "é"}},                {"[a-c]", {"a", "b", "c"}},
    {"[]a]", {"]", "a"}},  {"[^]a]", {"b", "c", "."}},
    {"[.b]", {".", "b"}},  {"[[:alpha:]]", {"a", "b", "é"}},
    {"[\\]c]", {"]", "c"}}, {"[é日]", {"é", "日"}}, {"[(|)]", {"(", "|", ")"}},
    {"\\w", {"a", "b", "é"}}, {"\\s", {" ", "\t"}}, {"\\S", {"a", "é"}},
    {"^", {""}},           {"$", {""}},            {"\\b", {""}},
    {"\\B", {""}},
};
#define NLEAVES (sizeof leaves / sizeof leaves[0])

/* Rare leaves that must make the extraction give up (or at least not lie):
 * a verb that ends the match early, a comment, quoted text. */
static const struct leaf rare_leaves[] = {
    {"(*ACCEPT)", {""}}, {"(?#c)", {""}}, {"\\Q.|\\E", {".|"}}, {"(?i:b)", {"b", "B"}},
};
#define NRARE (sizeof rare_leaves / sizeof rare_leaves[0])

/* Quantifiers; `both` marks one whose meaning depends on the PCRE2 version
 * ({,n} is literal before 10.43), sampled either way. */
struct quant {
    const char *text;
    int min, max; /* max -1: unbounded */
    int both;
};

static const struct quant quants[] = {
    {"?", 0, 1, 0},     {"*", 0, -1, 0},    {"+", 1, -1, 0},  {"{0,2}", 0, 2, 0},
    {"{1,3}", 1, 3, 0}, {"{2}", 2, 2, 0},   {"{1,}", 1, -1, 0}, {"{0}", 0, 0, 0},
    {"{,2}", 0, 2, 1},
};
#define NQUANTS (sizeof quants / sizeof quants[0])

static const char *const group_opens[] = {"(", "(", "(?:", "(?:", "(?>", "(?<n>", "(?|", "(?=",
                                          "(?!"};
#define NGROUPS (sizeof group_opens / sizeof group_opens[0])

enum { N_LEAF, N_GROUP };

typedef struct node {
    int kind;
    const struct leaf *leaf; /* N_LEAF */
    const char *open;        /* N_GROUP */
    int alt;                 /* N_GROUP: its alternatives, an index into alts */
    const struct quant *q;   /* or NULL */
    const char *q_mode;      /* "", "?" (lazy) or "+" (possessive) */
} node;

typedef struct seq {
    int items[5];
    int n;
} seq;

typedef struct altern {
    int seqs[3];
    int n;
} altern;

static node nodes[256];
static seq seqs[128];
static altern alts[64];
static int nnodes, nseqs, nalts;

static int gen_alt(int depth, int max_branches);

static int gen_node(int depth)
{
    if (nnodes >= 256)
        return -1;
    int k = nnodes++;
    node *nd = &nodes[k];
    memset(nd, 0, sizeof *nd);
    nd->q_mode = "";
    if (depth < 2 && rnd(5) == 0) {
        nd->kind = N_GROUP;
        nd->open = group_opens[rnd(NGROUPS)];
        nd->alt = gen_alt(depth + 1, 3);
        if (nd->alt < 0)
            return -1;
    } else {
        nd->kind = N_LEAF;
        nd->leaf = rnd(60) ? &leaves[rnd(NLEAVES)] : &rare_leaves[rnd(NRARE)];
    }
    if (rnd(3) == 0) {
        nd->q = &quants[rnd(NQUANTS)];
        unsigned m = rnd(6);
        nd->q_mode = m == 0 ? "?" : m == 1 ? "+" : "";
    }
    return k;
}

static int gen_seq(int depth)
{
    if (nseqs >= 128)
        return -1;
    int k = nseqs++;
    int n = (int)rnd(depth ? 4 : 6);
    seqs[k].n = 0;
    for (int i = 0; i < n; i++) {
        int c = gen_node(depth);
        if (c < 0)
            return -1;
        seqs[k].items[seqs[k].n++] = c;
    }
    return k;
}

static int gen_alt(int depth, int max_branches)
{
    if (nalts >= 64)
        return -1;
    int k = nalts++;
    int n = 1 + (int)rnd((unsigned)max_branches);
    alts[k].n = 0;
    for (int i = 0; i < n; i++) {
        int s = gen_seq(depth);
        if (s < 0)
            return -1;
        alts[k].seqs[alts[k].n++] = s;
    }
    return k;
}

/* A bounded string builder. */
typedef struct sbuf {
    char s[512];
    size_t len;
    int overflow;
} sbuf;

static void sb_add(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n >= sizeof b->s) {
        b->overflow = 1;
        return;
    }
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

static void emit_alt(sbuf *b, int a);

static void emit_node(sbuf *b, int k)
{
    const node *nd = &nodes[k];
    if (nd->kind == N_LEAF)
        sb_add(b, nd->leaf->text);
    else {
        sb_add(b, nd->open);
        emit_alt(b, nd->alt);
        sb_add(b, ")");
    }
    if (nd->q) {
        sb_add(b, nd->q->text);
        sb_add(b, nd->q_mode);
    }
}

static void emit_alt(sbuf *b, int a)
{
    for (int i = 0; i < alts[a].n; i++) {
        if (i)
            sb_add(b, "|");
        const seq *s = &seqs[alts[a].seqs[i]];
        for (int j = 0; j < s->n; j++)
            emit_node(b, s->items[j]);
    }
}

static void sample_alt(sbuf *b, int a);

static void sample_once(sbuf *b, const node *nd)
{
    if (nd->kind == N_LEAF) {
        int n = 0;
        while (n < 6 && nd->leaf->samples[n])
            n++;
        sb_add(b, nd->leaf->samples[rnd((unsigned)n)]);
    } else if (strcmp(nd->open, "(?=") == 0 || strcmp(nd->open, "(?!") == 0) {
        /* assertions consume nothing */
    } else
        sample_alt(b, nd->alt);
}

static void sample_node(sbuf *b, int k)
{
    const node *nd = &nodes[k];
    if (!nd->q) {
        sample_once(b, nd);
        return;
    }
    if (nd->q->both && rnd(2)) { /* the literal reading of "{,2}" */
        sample_once(b, nd);
        sb_add(b, nd->q->text);
        sb_add(b, nd->q_mode);
        return;
    }
    int max = nd->q->max < 0 ? nd->q->min + 3 : nd->q->max;
    int count = nd->q->min + (int)rnd((unsigned)(max - nd->q->min + 1));
    for (int i = 0; i < count; i++)
        sample_once(b, nd);
}

static void sample_alt(sbuf *b, int a)
{
    const seq *s = &seqs[alts[a].seqs[rnd((unsigned)alts[a].n)]];
    for (int j = 0; j < s->n; j++)
        sample_node(b, s->items[j]);
}

static const char *const noise[] = {"a", "b", "c", ".", "é", "日", "]", "}", "{", " ", "x", "2"};
#define NNOISE (sizeof noise / sizeof noise[0])

/* A subject: a sample of the regex with noise around it, sometimes mutated
 * (byte-wise, so possibly invalid UTF-8, which the converter allows), or
 * just noise. */
static void make_subject(sbuf *b, int top)
{
    b->len = 0;
    b->s[0] = '\0';
    b->overflow = 0;
    unsigned kind = rnd(10);
    if (kind == 0) {
        int n = (int)rnd(8);
        for (int i = 0; i < n; i++)
            sb_add(b, noise[rnd(NNOISE)]);
        return;
    }
    int pre = (int)rnd(3), post = (int)rnd(3);
    for (int i = 0; i < pre; i++)
        sb_add(b, noise[rnd(NNOISE)]);
    sample_alt(b, top);
    for (int i = 0; i < post; i++)
        sb_add(b, noise[rnd(NNOISE)]);
    if (kind <= 3 && b->len > 0 && !b->overflow) {
        size_t at = rnd((unsigned)b->len);
        switch (rnd(3)) {
        case 0: /* delete a byte */
            memmove(b->s + at, b->s + at + 1, b->len - at);
            b->len--;
            break;
        case 1: /* replace a byte */
            b->s[at] = "abc.]"[rnd(5)];
            break;
        default: { /* insert a noise string */
            char tail[512];
            strcpy(tail, b->s + at);
            b->len = at;
            b->s[at] = '\0';
            sb_add(b, noise[rnd(NNOISE)]);
            sb_add(b, tail);
        }
        }
    }
}

#define NREGEX 20000
#define NSUBJ 12
#define SET_SIZE 16
#define NSET_REGEX 4000 /* the first regexes also go through the scan, in sets */

typedef struct rule {
    char pattern[512];
    pcre2_code *re;
    char *lit;
    char subj[NSUBJ][512];
    size_t subj_len[NSUBJ];
} rule;

static void check_set(rule *set, size_t n, pcre2_match_data *md, long *scan_checks)
{
    char *lits[SET_SIZE];
    for (size_t i = 0; i < n; i++)
        lits[i] = set[i].lit;
    prefilter *pf = prefilter_new(lits, n);
    CHECK(pf != NULL);
    if (!pf)
        return;
    unsigned char cand[SET_SIZE];
    for (size_t s = 0; s < n; s++)
        for (int j = 0; j < NSUBJ; j++) {
            const char *line = set[s].subj[j];
            size_t len = set[s].subj_len[j];
            memset(cand, 0xAA, sizeof cand);
            prefilter_scan(pf, line, len, cand);
            for (size_t r = 0; r < n; r++) {
                int expect = !set[r].lit || strlen(set[r].lit) < 2 || contains(line, len, set[r].lit);
                if (cand[r] != expect) {
                    fprintf(stderr, "scan: rule /%s/ literal \"%s\" on \"%s\": %d, expected %d\n",
                            set[r].pattern, set[r].lit ? set[r].lit : "NULL", line, cand[r],
                            expect);
                    check_failures++;
                }
                if (!cand[r] && matches(set[r].re, md, line, len)) {
                    fprintf(stderr, "scan: rule /%s/ skipped on \"%s\" which it matches\n",
                            set[r].pattern, line);
                    check_failures++;
                }
                ++*scan_checks;
            }
        }
    prefilter_free(pf);
}

static void flush_set(rule *set, size_t *n, pcre2_match_data *md, long *scan_checks)
{
    if (*n)
        check_set(set, *n, md, scan_checks);
    for (size_t i = 0; i < *n; i++) {
        pcre2_code_free(set[i].re);
        free(set[i].lit);
    }
    *n = 0;
}

static void test_random(void)
{
    static rule rules[SET_SIZE];
    pcre2_match_data *md = pcre2_match_data_create(32, NULL);
    long compiled = 0, with_lit = 0, matched = 0, matched_with_lit = 0, scan_checks = 0;
    long failures = 0;
    size_t in_set = 0;
    for (int t = 0; t < NREGEX; t++) {
        if (t == NSET_REGEX) /* a set left partial by a regex that did not compile */
            flush_set(rules, &in_set, md, &scan_checks);
        nnodes = nseqs = nalts = 0;
        /* mostly one top-level branch; sometimes top-level alternation */
        int top = gen_alt(0, rnd(12) == 0 ? 2 : 1);
        if (top < 0)
            continue;
        rule *r = &rules[t < NSET_REGEX ? in_set : 0];
        sbuf b = {{0}, 0, 0};
        emit_alt(&b, top);
        if (b.overflow)
            continue;
        memcpy(r->pattern, b.s, b.len + 1);
        r->re = compile(r->pattern);
        if (!r->re)
            continue;
        compiled++;
        r->lit = prefilter_required_literal(r->pattern, 1);
        char *lit2 = prefilter_required_literal(r->pattern, 2);
        /* min_len only filters: the literal is the same or none */
        if (r->lit && strlen(r->lit) >= 2 ? !lit2 || strcmp(lit2, r->lit) != 0 : lit2 != NULL) {
            fprintf(stderr, "/%s/: min_len 1 gives \"%s\", min_len 2 gives \"%s\"\n", r->pattern,
                    r->lit ? r->lit : "NULL", lit2 ? lit2 : "NULL");
            check_failures++;
        }
        free(lit2);
        if (r->lit) {
            with_lit++;
            if (alts[top].n > 1) {
                fprintf(stderr, "/%s/: top-level alternation gave literal \"%s\"\n", r->pattern,
                        r->lit);
                check_failures++;
            }
        }
        for (int j = 0; j < NSUBJ; j++) {
            make_subject(&b, top);
            if (b.overflow)
                b.len = 0, b.s[0] = '\0';
            memcpy(r->subj[j], b.s, b.len + 1);
            r->subj_len[j] = b.len;
            if (!matches(r->re, md, b.s, b.len))
                continue;
            matched++;
            if (!r->lit)
                continue;
            matched_with_lit++;
            if (!contains(b.s, b.len, r->lit) && failures++ < 20) {
                fprintf(stderr, "/%s/ matches \"%s\" which lacks its literal \"%s\"\n",
                        r->pattern, b.s, r->lit);
                check_failures++;
            }
        }
        if (t >= NSET_REGEX) {
            pcre2_code_free(r->re);
            free(r->lit);
        } else if (++in_set == SET_SIZE) {
            flush_set(rules, &in_set, md, &scan_checks);
        }
    }
    flush_set(rules, &in_set, md, &scan_checks);
    if (failures > 20) {
        fprintf(stderr, "... %ld failures in all\n", failures);
        check_failures += (int)(failures - 20 > 1000 ? 1000 : failures - 20);
    }
    pcre2_match_data_free(md);
    printf("random: %ld regexes compiled, %ld with a literal; %ld matches, %ld of them checked "
           "against a literal; %ld scan checks\n",
           compiled, with_lit, matched, matched_with_lit, scan_checks);
    /* the property must not hold vacuously */
    CHECK(compiled > NREGEX * 8 / 10);
    CHECK(with_lit > compiled / 3);
    CHECK(matched_with_lit > 50000);
    CHECK(scan_checks > 100000);
}

/* ---- 3. the scan against a naive search ------------------------------------ */

static void scan_agrees_with_search(int nlit, size_t min_len, unsigned spread, int automaton);

static void test_scan_fixed(void)
{
    char *lits[] = {"] dispatch to task ", "] enter to ", "] enter to task switch ", NULL,
                    "x", "ab", "が開始", "0123456789abcdefXYZ", "0123456789abcdefXY"};
    size_t n = sizeof lits / sizeof lits[0];
    prefilter *pf = prefilter_new(lits, n);
    CHECK(pf != NULL);
    if (!pf)
        return;
    unsigned char c[16];
    const char *line = "[12] dispatch to task 7.";
    prefilter_scan(pf, line, strlen(line), c);
    CHECK(c[0] == 1 && c[1] == 0 && c[2] == 0 && c[3] == 1 && c[4] == 1 && c[5] == 0 &&
          c[6] == 0 && c[7] == 0 && c[8] == 0);
    line = "[3] enter to task switch ab";
    prefilter_scan(pf, line, strlen(line), c);
    CHECK(c[0] == 0 && c[1] == 1 && c[2] == 1 && c[3] == 1 && c[4] == 1 && c[5] == 1);
    line = "タスク1が開始";
    prefilter_scan(pf, line, strlen(line), c);
    CHECK(c[6] == 1 && c[5] == 0);
    /* the literal at the very end, and cut off by the line's length */
    line = "--0123456789abcdefXYZ";
    prefilter_scan(pf, line, strlen(line), c);
    CHECK(c[7] == 1 && c[8] == 1);
    prefilter_scan(pf, line, strlen(line) - 1, c);
    CHECK(c[7] == 0 && c[8] == 1);
    prefilter_scan(pf, "", 0, c);
    CHECK(c[0] == 0 && c[3] == 1 && c[4] == 1 && c[5] == 0);
    prefilter_free(pf);

    pf = prefilter_new(NULL, 0);
    CHECK(pf != NULL);
    prefilter_scan(pf, "abc", 3, c);
    prefilter_free(pf);

    scan_agrees_with_search(64, 2, 23, 1);
    /* so many long literals that the scan uses its buckets, not the automaton */
    scan_agrees_with_search(400, 30, 9, 0);
}

/* Random literals of min_len..min_len+spread-1 bytes, a third sharing a
 * prefix, some rules without one, against random lines over the same
 * alphabet (a literal planted in half of them): the scan marks exactly the
 * rules whose literal occurs, and every rule without one. */
static void scan_agrees_with_search(int nlit, size_t min_len, unsigned spread, int automaton)
{
    enum { MAXLIT = 400 };
    static char store[MAXLIT][40];
    char *rl[MAXLIT];
    for (int i = 0; i < nlit; i++) {
        size_t len = min_len + rnd(spread);
        const char *base = i % 3 == 0 ? "] enter to task " : "";
        size_t k = 0;
        for (; k < len && base[k]; k++)
            store[i][k] = base[k];
        for (; k < len; k++)
            store[i][k] = "ab] "[rnd(4)];
        store[i][len] = '\0';
        rl[i] = i % 17 == 5 ? NULL : store[i];
    }
    prefilter *pf = prefilter_new(rl, (size_t)nlit);
    CHECK(pf != NULL);
    if (!pf)
        return;
    CHECK_INT(prefilter_uses_automaton(pf), automaton);
    long wrong = 0, hits = 0;
    for (int t = 0; t < 20000; t++) {
        char line[64];
        size_t len = rnd(60);
        for (size_t k = 0; k < len; k++)
            line[k] = "ab] "[rnd(4)];
        if (len > 20 && rnd(2)) { /* plant a literal */
            const char *l = store[rnd((unsigned)nlit)];
            size_t ll = strlen(l), at = rnd((unsigned)(len - ll < len ? len - ll + 1 : 1));
            if (ll <= len)
                memcpy(line + at, l, ll);
        }
        line[len] = '\0';
        unsigned char cand[MAXLIT];
        prefilter_scan(pf, line, len, cand);
        for (int i = 0; i < nlit; i++) {
            int expect = !rl[i] || contains(line, len, rl[i]);
            hits += rl[i] && expect;
            if (cand[i] != expect && wrong++ < 10) {
                fprintf(stderr, "scan: literal \"%s\" in \"%s\": %d, expected %d\n",
                        rl[i] ? rl[i] : "NULL", line, cand[i], expect);
                check_failures++;
            }
        }
    }
    CHECK(hits > 1000);
    prefilter_free(pf);
}

int main(void)
{
    test_exact();
    test_scan_fixed();
    test_random();
    return CHECK_DONE();
}
