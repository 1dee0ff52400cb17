/*
 * evpattern.c — event patterns (evpattern.h): read with the standard-form
 * line's own parser (stdform.c), so that a pattern's resource, names,
 * escapes and nested parentheses mean what they mean in a trace; and the
 * ${NAME} substitution that instance kinds and requirements apply first.
 */
#include "lang/evpattern.h"

#include "lang/stdform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void evpattern_free(evpattern *p)
{
    if (!p)
        return;
    free(p->mem);
    free(p->args);
    memset(p, 0, sizeof *p);
}

/* Copies the parts of a parsed line into p->mem, one NUL-terminated string
 * each: resource, name, value, arguments. */
static int keep_parts(evpattern *p, const std_line *l, evp_kind kind)
{
    size_t need = l->resource.n + l->name.n + l->value.n + 3;
    for (size_t i = 0; i < l->nargs; i++)
        need += l->args[i].n + 1;
    p->mem = malloc(need);
    p->args = calloc(l->nargs ? l->nargs : 1, sizeof *p->args);
    if (!p->mem || !p->args)
        return -1;
    char *w = p->mem;
    const std_str *parts[3] = {&l->resource, &l->name, &l->value};
    const char **dest[3] = {&p->resource, &p->name, &p->value};
    for (int k = 0; k < 3; k++) {
        memcpy(w, parts[k]->s, parts[k]->n);
        *dest[k] = w;
        w += parts[k]->n;
        *w++ = '\0';
    }
    for (size_t i = 0; i < l->nargs; i++) {
        memcpy(w, l->args[i].s, l->args[i].n);
        p->args[i] = w;
        w += l->args[i].n;
        *w++ = '\0';
    }
    p->nargs = kind == EVP_BEHAVIOR ? l->nargs : 0;
    p->kind = kind;
    return 0;
}

int evpattern_parse(const char *text, size_t n, evpattern *out, char *err, size_t errsz,
                    size_t *col)
{
    memset(out, 0, sizeof *out);
    /* "[0]" makes it a line; "=" after a bare name makes "RES.name" one too */
    char *line = malloc(n + 5);
    if (!line)
        return -2;
    memcpy(line, "[0]", 3);
    memcpy(line + 3, text, n);
    line[n + 3] = '\0';
    std_line l;
    buf scratch = BUF_INIT;
    const char *why = NULL;
    size_t at = 0;
    evp_kind kind = EVP_ANY;
    int rc = std_parse_line(line, n + 3, 10, &l, &scratch, &why, &at);
    if (rc < 0 && why && strcmp(why, "expected '=' or '(' after the name") == 0 && at == n + 4) {
        line[n + 3] = '=';
        line[n + 4] = '\0';
        rc = std_parse_line(line, n + 4, 10, &l, &scratch, &why, &at);
    } else if (rc == 0) {
        kind = l.is_behavior ? EVP_BEHAVIOR : EVP_ATTR;
    }
    if (rc == 0 && l.has_cond) {
        rc = -1;
        why = "a resource condition (Type(...)) is not allowed here; name a resource or a type";
        at = 4;
    }
    if (rc < 0) {
        snprintf(err, errsz, "%s", why ? why : "malformed event pattern");
        if (col)
            *col = at > 3 ? at - 3 : 1;
    } else if (keep_parts(out, &l, kind) < 0) {
        evpattern_free(out);
        rc = -2;
    }
    buf_free(&scratch);
    free(line);
    return rc;
}

/* The "${NAME}" at text (which starts with "${"): its length, 0 when it is
 * not closed. */
static size_t var_len(const char *text)
{
    const char *close = strchr(text + 2, '}');
    return close ? (size_t)(close - text) + 1 : 0;
}

int evp_subst(const char *text, evp_lookup lookup, void *user, int escape, buf *out)
{
    for (const char *s = text; *s;) {
        size_t n = s[0] == '$' && s[1] == '{' ? var_len(s) : 0;
        const char *value;
        size_t len;
        if (n && lookup(user, s + 2, n - 3, &value, &len)) {
            if ((escape ? std_escape(out, value, len) : buf_append(out, value, len)) < 0)
                return -1;
            s += n;
            continue;
        }
        if (buf_putc(out, *s++) < 0)
            return -1;
    }
    return 0;
}

const char *evp_unknown_var(const char *text, evp_lookup lookup, void *user, size_t *n)
{
    for (const char *s = strstr(text, "${"); s; s = strstr(s + 2, "${")) {
        size_t len = var_len(s);
        const char *value;
        size_t vlen;
        if (!len || !lookup(user, s + 2, len - 3, &value, &vlen)) {
            *n = len ? len : strlen(s);
            return s;
        }
    }
    return NULL;
}
