/*
 * template.c — .NET Regex.Replace semantics for conversion templates (see
 * template.h). Group numbers follow .NET, not Perl: unnamed groups are
 * numbered first, left to right, then named groups in order of appearance,
 * so a `$1` in a TLV rule means what it meant to the original tool.
 */
#define _GNU_SOURCE /* memmem */
#include "compile/template.h"

#include "compile/macro.h"
#include "lang/stdform.h"

#include <stdlib.h>
#include <string.h>

/* .NET numbering of a regex's groups. With PCRE2_DUPNAMES several PCRE2
 * groups may share a name; .NET has one group per name, so one .NET number
 * stands for a list of PCRE2 groups (the one that matched last wins). */
typedef struct group_map {
    unsigned count;        /* .NET group numbers 1..count */
    unsigned *first;       /* index = .NET number: its first entry in pcre[] */
    unsigned *n;           /* index = .NET number: how many entries */
    unsigned *pcre;        /* PCRE2 group numbers */
} group_map;

/* The name of PCRE2 group pcre_no, or NULL when it has none. */
static const char *group_name(const pcre2_code *re, unsigned pcre_no)
{
    uint32_t count = 0, entry = 0;
    PCRE2_SPTR table;
    pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry);
    pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
    for (uint32_t i = 0; i < count; i++) {
        const unsigned char *e = table + (size_t)i * entry;
        if ((unsigned)((e[0] << 8) | e[1]) == pcre_no)
            return (const char *)e + 2;
    }
    return NULL;
}

static void free_group_map(group_map *g)
{
    free(g->first);
    free(g->n);
    free(g->pcre);
}

static int build_group_map(const pcre2_code *re, group_map *g)
{
    uint32_t count = 0;
    pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &count);
    g->count = 0;
    g->first = calloc(count + 1, sizeof *g->first);
    g->n = calloc(count + 1, sizeof *g->n);
    g->pcre = calloc(count + 1, sizeof *g->pcre);
    if (!g->first || !g->n || !g->pcre) {
        free_group_map(g);
        return -1;
    }
    g->n[0] = 1; /* .NET 0 = PCRE2 0, the whole match */
    unsigned k = 1;
    for (unsigned i = 1; i <= count; i++) /* unnamed groups first */
        if (!group_name(re, i)) {
            g->count++;
            g->first[g->count] = k;
            g->n[g->count] = 1;
            g->pcre[k++] = i;
        }
    for (unsigned i = 1; i <= count; i++) { /* then one number per distinct name */
        const char *name = group_name(re, i);
        int seen = 0;
        for (unsigned j = 1; name && j < i && !seen; j++) {
            const char *other = group_name(re, j);
            seen = other && strcmp(other, name) == 0;
        }
        if (!name || seen)
            continue;
        g->count++;
        g->first[g->count] = k;
        for (unsigned j = i; j <= count; j++) {
            const char *other = group_name(re, j);
            if (other && strcmp(other, name) == 0) {
                g->pcre[k++] = j;
                g->n[g->count]++;
            }
        }
    }
    return 0;
}

/* Adds a group reference: `net` is a .NET group number of g. */
static int add_group_seg(tmpl *t, size_t *cap, size_t *gcap, const group_map *g, unsigned net,
                         int escape)
{
    size_t off = t->ngroups;
    if (GROW(t->groups, *gcap, t->ngroups + g->n[net]) < 0)
        return -1;
    for (unsigned i = 0; i < g->n[net]; i++)
        t->groups[t->ngroups++] = g->pcre[g->first[net] + i];
    if (GROW(t->segs, *cap, t->nsegs + 1) < 0)
        return -1;
    tmpl_seg *s = &t->segs[t->nsegs++];
    s->kind = SEG_GROUP;
    s->off = off;
    s->len = g->n[net];
    s->group = net;
    s->top = 0;
    s->escape = (unsigned char)escape;
    return 0;
}

static int add_seg(tmpl *t, size_t *cap, seg_kind kind, size_t off, size_t len, unsigned group)
{
    if (kind == SEG_LITERAL && t->nsegs && t->segs[t->nsegs - 1].kind == SEG_LITERAL &&
        t->segs[t->nsegs - 1].off + t->segs[t->nsegs - 1].len == off) {
        t->segs[t->nsegs - 1].len += len;
        return 0;
    }
    if (GROW(t->segs, *cap, t->nsegs + 1) < 0)
        return -1;
    tmpl_seg *s = &t->segs[t->nsegs++];
    s->kind = kind;
    s->off = off;
    s->len = len;
    s->group = group;
    s->top = 0;
    return 0;
}

#define ESC_SUFFIX ":esc"
#define ESC_SUFFIX_LEN 4

/* Reads "${name}" or "${123}" at text[i] == '$' (or "${name:esc}", setting
 * *escape); returns the bytes used, 0 when it is not a valid reference
 * (then the '$' is literal). */
static size_t scan_braced(tmpl *t, const char *text, size_t len, size_t i, const pcre2_code *re,
                          const group_map *g, unsigned *group, size_t *ucap, int *escape)
{
    size_t j = i + 2;
    while (j < len && text[j] != '}' && text[j] != '$' && text[j] != '{')
        j++;
    if (j >= len || text[j] != '}' || j == i + 2)
        return 0;
    const char *name = text + i + 2;
    size_t n = j - i - 2;
    *escape = n > ESC_SUFFIX_LEN && memcmp(name + n - ESC_SUFFIX_LEN, ESC_SUFFIX, ESC_SUFFIX_LEN) == 0;
    if (*escape)
        n -= ESC_SUFFIX_LEN;
    int all_digits = 1;
    for (size_t k = 0; k < n; k++)
        if (name[k] < '0' || name[k] > '9')
            all_digits = 0;
    if (all_digits && n < 9) {
        unsigned v = (unsigned)atoi(name);
        if (v <= g->count) {
            *group = v;
            return j + 1 - i;
        }
        return 0;
    }
    for (unsigned net = 1; net <= g->count; net++) {
        const char *gn = group_name(re, g->pcre[g->first[net]]);
        if (gn && strlen(gn) == n && memcmp(gn, name, n) == 0) {
            *group = net;
            return j + 1 - i;
        }
    }
    if (GROW(t->unknown, *ucap, t->nunknown + 1) == 0)
        t->unknown[t->nunknown++] = strndup(name, n);
    return 0;
}

static size_t scan_number(const char *text, size_t len, size_t i, const group_map *g,
                          unsigned *group)
{
    size_t j = i + 1;
    unsigned long v = 0;
    while (j < len && text[j] >= '0' && text[j] <= '9' && v < 100000)
        v = v * 10 + (unsigned long)(text[j++] - '0');
    if (v > g->count)
        return 0;
    *group = (unsigned)v;
    return j - i;
}

int tmpl_compile(tmpl *t, const char *text, size_t len, const pcre2_code *re)
{
    memset(t, 0, sizeof *t);
    group_map g;
    if (build_group_map(re, &g) < 0)
        return -1;
    t->text = malloc(len + 1);
    if (!t->text) {
        free_group_map(&g);
        return -1;
    }
    memcpy(t->text, text, len);
    t->text[len] = '\0';
    t->len = len;
    size_t cap = 0, ucap = 0, gcap = 0;
    int rc = 0;
    for (size_t i = 0; i < len && rc == 0;) {
        if (text[i] != '$' || i + 1 >= len) {
            rc = add_seg(t, &cap, SEG_LITERAL, i, 1, 0);
            i++;
            continue;
        }
        char c = text[i + 1];
        unsigned group = 0;
        size_t used = 0;
        int escape = 0;
        seg_kind kind = SEG_GROUP;
        if (c == '$') {
            rc = add_seg(t, &cap, SEG_LITERAL, i, 1, 0);
            i += 2;
            continue;
        } else if (c == '{') {
            used = scan_braced(t, text, len, i, re, &g, &group, &ucap, &escape);
        } else if (c >= '0' && c <= '9') {
            used = scan_number(text, len, i, &g, &group);
        } else {
            used = 2;
            kind = c == '&' ? SEG_MATCH : c == '`' ? SEG_BEFORE : c == '\'' ? SEG_AFTER
                   : c == '+' ? SEG_LAST_GROUP : c == '_' ? SEG_INPUT : SEG_LITERAL;
            if (kind == SEG_LITERAL)
                used = 0;
        }
        if (used == 0) {
            rc = add_seg(t, &cap, SEG_LITERAL, i, 1, 0);
            i++;
        } else {
            if (kind == SEG_LAST_GROUP) { /* .NET: the highest-numbered group */
                kind = SEG_GROUP;
                group = g.count;
            }
            rc = kind == SEG_GROUP ? add_group_seg(t, &cap, &gcap, &g, group, escape)
                                   : add_seg(t, &cap, kind, 0, 0, 0);
            i += used;
        }
    }
    free_group_map(&g);
    return rc;
}

void tmpl_free(tmpl *t)
{
    for (size_t i = 0; i < t->nunknown; i++)
        free(t->unknown[i]);
    free(t->unknown);
    free(t->text);
    free(t->segs);
    free(t->groups);
    if (t->plan)
        t->free_plan(t->plan); /* expand.h made it: templates do not know plans */
    memset(t, 0, sizeof *t);
}

static size_t utf8_len(unsigned char c)
{
    return c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

int tmpl_find_matches(const pcre2_code *re, uint32_t ngroups, pcre2_match_data *md,
                      const char *subject, size_t len, match_list *ml,
                      pcre2_match_context *mctx, int jit, const char *literal)
{
    ml->ngroups = ngroups;
    ml->nmatch = 0;
    size_t per = 2 * ((size_t)ngroups + 1);
    size_t start = 0;
    while (start <= len) {
        int rc = jit ? pcre2_jit_match(re, (PCRE2_SPTR)subject, len, start, 0, md, mctx)
                     : pcre2_match(re, (PCRE2_SPTR)subject, len, start, 0, md, mctx);
        if (rc == PCRE2_ERROR_NOMATCH)
            break;
        if (rc < 0)
            return rc;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (GROW(ml->ov, ml->cap, (ml->nmatch + 1) * per) < 0)
            return PCRE2_ERROR_NOMEMORY;
        PCRE2_SIZE *dst = ml->ov + ml->nmatch * per;
        for (size_t k = 0; k < per; k++)
            dst[k] = (size_t)rc * 2 > k ? ov[k] : PCRE2_UNSET;
        ml->nmatch++;
        if (ov[1] > ov[0])
            start = ov[1];
        else if (ov[1] < len)
            start = ov[1] + utf8_len((unsigned char)subject[ov[1]]);
        else
            break;
        if (start > len)
            break;
        /* A further match lies after this one and holds the literal (a match
         * of the whole line, the usual case, leaves no room for one). */
        if (literal && literal[0] &&
            (start == len || !memmem(subject + start, len - start, literal, strlen(literal))))
            break;
    }
    return (int)ml->nmatch;
}

/* Appends the log's text s[0, n): escaped when `escape` (std_escape_log_text). */
static int put_log_text(buf *out, const char *s, size_t n, int escape)
{
    return escape ? std_escape_log_text(out, s, n) : buf_append(out, s, n);
}

int tmpl_put_text(const tmpl *t, buf *out, const char *s, size_t n)
{
    return put_log_text(out, s, n, t->std_line);
}

static int put_group(buf *out, const char *subject, const PCRE2_SIZE *ov, unsigned group,
                     int escape)
{
    PCRE2_SIZE a = ov[2 * group], b = ov[2 * group + 1];
    if (a == PCRE2_UNSET || b < a)
        return 0;
    return put_log_text(out, subject + a, b - a, escape);
}

int tmpl_put_escaped(buf *out, const char *s, size_t n)
{
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strchr("\\,()[]{}$", s[i]) || !s[i])
            continue;
        if (buf_append(out, s + from, i - from) < 0 || buf_putc(out, '\\') < 0)
            return -1;
        from = i;
    }
    return buf_append(out, s + from, n - from);
}

/* A group reference: of the PCRE2 groups sharing a name, the last set one. */
static int put_groups(buf *out, const char *subject, const PCRE2_SIZE *ov, const unsigned *groups,
                      size_t n, int escape, int top)
{
    for (size_t i = n; i-- > 0;) {
        PCRE2_SIZE a = ov[2 * groups[i]], b = ov[2 * groups[i] + 1];
        if (a == PCRE2_UNSET)
            continue;
        if (!escape) /* "${name}": at top level its backslashes are escaped */
            return put_group(out, subject, ov, groups[i], top);
        return b < a ? 0 : tmpl_put_escaped(out, subject + a, b - a); /* "${name:esc}" */
    }
    return 0;
}

int tmpl_put_seg(const tmpl *t, size_t seg, const char *subject, size_t len,
                 const PCRE2_SIZE *ov, buf *out)
{
    const tmpl_seg *s = &t->segs[seg];
    int esc = s->top; /* only ever set on std_line templates */
    switch (s->kind) {
    case SEG_LITERAL: return buf_append(out, t->text + s->off, s->len);
    case SEG_GROUP:
        return put_groups(out, subject, ov, t->groups + s->off, s->len, s->escape, esc);
    case SEG_MATCH: return put_group(out, subject, ov, 0, esc);
    case SEG_BEFORE: return put_log_text(out, subject, ov[0], esc);
    case SEG_AFTER: return put_log_text(out, subject + ov[1], len - ov[1], esc);
    case SEG_INPUT: return put_log_text(out, subject, len, esc);
    case SEG_LAST_GROUP: break; /* resolved to SEG_GROUP when compiled */
    }
    return 0;
}

/* The length of a macro call's opening "$NAME{" at text[i], or 0: as
 * macro.c reads one (a name of macro characters, then '{'), within the
 * literal run text[i, end). */
static size_t macro_open_len(const char *text, size_t i, size_t end)
{
    size_t j = i + 1;
    while (j < end && macro_name_char(text[j]))
        j++;
    return j > i + 1 && j < end && text[j] == '{' ? j + 1 - i : 0;
}

void tmpl_mark_std_line(tmpl *t)
{
    t->std_line = 1;
    size_t depth = 0; /* braces open: macro calls and the plain braces inside them */
    for (size_t k = 0; k < t->nsegs; k++) {
        tmpl_seg *s = &t->segs[k];
        if (s->kind != SEG_LITERAL) {
            s->top = depth == 0;
            continue;
        }
        size_t end = s->off + s->len;
        for (size_t i = s->off; i < end; i++) {
            char c = t->text[i];
            size_t open = c == '$' ? macro_open_len(t->text, i, end) : 0;
            if (open) {
                depth++;
                i += open - 1;
            } else if (c == '{' && depth > 0) {
                depth++;
            } else if (c == '}' && depth > 0) {
                depth--;
            }
        }
    }
}

static int expand_one(const tmpl *t, const char *subject, size_t len, const PCRE2_SIZE *ov,
                      buf *out)
{
    for (size_t i = 0; i < t->nsegs; i++)
        if (tmpl_put_seg(t, i, subject, len, ov, out) < 0)
            return -1;
    return 0;
}

int tmpl_expand(const tmpl *t, const char *subject, size_t len, const match_list *ml, buf *out)
{
    size_t per = 2 * ((size_t)ml->ngroups + 1);
    size_t copied = 0;
    for (size_t m = 0; m < ml->nmatch; m++) {
        const PCRE2_SIZE *ov = ml->ov + m * per;
        if (put_log_text(out, subject + copied, ov[0] - copied, t->std_line) < 0 ||
            expand_one(t, subject, len, ov, out) < 0)
            return -1;
        copied = ov[1];
    }
    return put_log_text(out, subject + copied, len - copied, t->std_line);
}

void match_list_free(match_list *ml)
{
    free(ml->ov);
    memset(ml, 0, sizeof *ml);
}
