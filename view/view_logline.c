/*
 * view_logline.c — a line of the log as it was written, by its number: the
 * details panel shows it beside the standard-form event it became (the
 * trace keeps events, not the text they came from). Read again from the
 * file, finding the line from the nearest checkpoint — the offset of every
 * CHECKPOINT-th line, noted on the way — so that a line near the end of a
 * large log costs one pass the first time and a short read after. Not for
 * standard input or a pipe (what was read is gone), nor after the file was
 * replaced or cut (its lines are others now: the checkpoints start again).
 */
#include "view/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECKPOINT 4096        /* lines between two noted offsets */
#define CHUNK 65536            /* bytes read at a time */

struct view_loglines {
    unsigned long long dev, ino, size; /* the file the offsets are of */
    off_t *at;                 /* at[k]: where line k * CHECKPOINT + 1 begins */
    size_t n, cap;
};

void view_loglines_free(struct view_loglines *l)
{
    if (l)
        free(l->at);
    free(l);
}

/* The offsets kept, made anew when the file is another or got shorter. */
static struct view_loglines *offsets_for(const view_app *a, const struct stat *st)
{
    struct view_loglines *l = a->core->loglines;
    if (l && (l->dev != (unsigned long long)st->st_dev || l->ino != (unsigned long long)st->st_ino ||
              (unsigned long long)st->st_size < l->size)) {
        view_loglines_free(l);
        l = a->core->loglines = NULL;
    }
    if (!l && (l = a->core->loglines = calloc(1, sizeof *l)) != NULL &&
        view_grow((void **)&l->at, &l->cap, 1, sizeof *l->at) == 0)
        l->at[l->n++] = 0; /* line 1 begins the file */
    if (l && !l->n) {
        free(l);
        l = a->core->loglines = NULL;
    }
    if (l) {
        l->dev = (unsigned long long)st->st_dev;
        l->ino = (unsigned long long)st->st_ino;
        l->size = (unsigned long long)st->st_size;
    }
    return l;
}

/* From the checkpoint before `line`, the line's offset (reading forward and
 * noting checkpoints); -1 when the file has fewer lines. */
static off_t find_line(struct view_loglines *l, int fd, unsigned long long line)
{
    size_t k = (size_t)((line - 1) / CHECKPOINT);
    k = k < l->n ? k : l->n - 1;
    unsigned long long at_line = (unsigned long long)k * CHECKPOINT + 1;
    off_t pos = l->at[k];
    char buf[CHUNK];
    while (at_line < line) {
        ssize_t got = pread(fd, buf, sizeof buf, pos);
        if (got <= 0)
            return -1;
        for (ssize_t i = 0; i < got && at_line < line; i++)
            if (buf[i] == '\n') {
                at_line++;
                if ((at_line - 1) % CHECKPOINT == 0 && (at_line - 1) / CHECKPOINT == l->n &&
                    view_grow((void **)&l->at, &l->cap, l->n + 1, sizeof *l->at) == 0)
                    l->at[l->n++] = pos + i + 1;
                if (at_line == line)
                    return pos + i + 1;
            }
        pos += got;
    }
    return pos;
}

int view_log_line(const view_app *a, unsigned long long line, char *buf, size_t size)
{
    struct stat st;
    if (!line || !size || strcmp(a->opts.input, "-") == 0)
        return -1;
    int fd = open(a->opts.input, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct view_loglines *l = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? offsets_for(a, &st) : NULL;
    off_t pos = l ? find_line(l, fd, line) : -1;
    ssize_t got = pos >= 0 ? pread(fd, buf, size - 1, pos) : -1;
    close(fd);
    if (got < 0 || (got == 0 && pos >= st.st_size))
        return -1;
    size_t n = (size_t)got;
    char *end = memchr(buf, '\n', n);
    n = end ? (size_t)(end - buf) : n;
    if (n && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return 0;
}
