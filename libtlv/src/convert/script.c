/*
 * script.c — running external-process rules (see script.h). The program is
 * started directly (no shell) with its arguments split on white space
 * (double quotes group words); an inline script is written to a temporary
 * file whose path replaces {0}. Input and output are pumped with poll() so
 * a program that writes before it has read everything cannot deadlock us.
 */
#define _GNU_SOURCE
#include "convert/script.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGV 64

/* Splits the argument string; {0} is replaced by script_path. */
static int split_args(const char *args, const char *script_path, char **argv, size_t *argc,
                      buf *storage)
{
    size_t offs[MAX_ARGV];
    size_t n = 0;
    const char *p = args;
    buf_clear(storage);
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (n + 2 >= MAX_ARGV)
            return -1;
        offs[n++] = storage->len;
        int quoted = 0;
        for (; *p && (quoted || (*p != ' ' && *p != '\t')); p++) {
            if (*p == '"')
                quoted = !quoted;
            else if (strncmp(p, "{0}", 3) == 0 && script_path) {
                buf_puts(storage, script_path);
                p += 2;
            } else
                buf_putc(storage, *p);
        }
        buf_putc(storage, '\0');
    }
    for (size_t i = 0; i < n; i++)
        argv[1 + i] = storage->data + offs[i];
    *argc = n;
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

typedef struct proc {
    pid_t pid;
    int in, out, errfd;
} proc;

static int spawn(char **argv, proc *p, buf *err)
{
    int pin[2], pout[2], perr[2], pstatus[2];
    if (pipe(pin) < 0 || pipe(pout) < 0 || pipe(perr) < 0 || pipe2(pstatus, O_CLOEXEC) < 0) {
        buf_printf(err, "cannot create pipes: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        buf_printf(err, "cannot start a process: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(pin[0], 0);
        dup2(pout[1], 1);
        dup2(perr[1], 2);
        close(pin[1]);
        close(pout[0]);
        close(perr[0]);
        execvp(argv[0], argv);
        int e = errno; /* tell the parent why exec failed */
        if (write(pstatus[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(pin[0]);
    close(pout[1]);
    close(perr[1]);
    close(pstatus[1]);
    int e = 0;
    ssize_t got = read(pstatus[0], &e, sizeof e);
    close(pstatus[0]);
    p->pid = pid;
    p->in = pin[1];
    p->out = pout[0];
    p->errfd = perr[0];
    if (got == (ssize_t)sizeof e) {
        buf_printf(err, "cannot run \"%s\": %s", argv[0], strerror(e));
        close(p->in);
        close(p->out);
        close(p->errfd);
        waitpid(pid, NULL, 0);
        return -1;
    }
    fcntl(p->in, F_SETFL, O_NONBLOCK);
    return 0;
}

/* Hands every complete line in `acc` to fn, keeping the unfinished rest. */
static int flush_lines(buf *acc, int final, script_line_fn fn, void *ctx)
{
    size_t start = 0;
    for (size_t i = 0; i < acc->len; i++) {
        if (acc->data[i] != '\n')
            continue;
        size_t n = i - start;
        if (n && acc->data[start + n - 1] == '\r')
            n--;
        if (fn(ctx, acc->data + start, n) != 0)
            return -1;
        start = i + 1;
    }
    if (final && start < acc->len) {
        if (fn(ctx, acc->data + start, acc->len - start) != 0)
            return -1;
        start = acc->len;
    }
    if (start && acc->len > start) /* acc->data may be NULL when nothing was read */
        memmove(acc->data, acc->data + start, acc->len - start);
    acc->len -= start;
    if (acc->data)
        acc->data[acc->len] = '\0';
    return 0;
}

/* Moves data between us and the program until it closes its output. */
static int pump(proc *p, const char *input, size_t len, int timeout_ms, script_line_fn fn,
                void *ctx, buf *errtext, buf *err)
{
    size_t sent = 0;
    buf acc = BUF_INIT;
    double deadline = now_ms() + timeout_ms;
    int out_open = 1, err_open = 1, rc = 0;
    if (len == 0) {
        close(p->in);
        p->in = -1;
    }
    while (out_open || err_open) {
        struct pollfd fds[3] = {{p->out, POLLIN, 0}, {p->errfd, POLLIN, 0}, {p->in, POLLOUT, 0}};
        int left = (int)(deadline - now_ms());
        if (left <= 0) {
            buf_printf(err, "timed out after %d ms", timeout_ms);
            rc = -1;
            break;
        }
        nfds_t nf = p->in >= 0 ? 3 : 2;
        if (!out_open)
            fds[0].fd = -1;
        if (!err_open)
            fds[1].fd = -1;
        if (poll(fds, nf, left) < 0 && errno != EINTR)
            break;
        char chunk[65536];
        if (fds[0].revents) {
            ssize_t n = read(p->out, chunk, sizeof chunk);
            if (n <= 0)
                out_open = 0;
            else if (buf_append(&acc, chunk, (size_t)n) < 0 || flush_lines(&acc, 0, fn, ctx) < 0) {
                buf_puts(err, "stopped while reading the program's output");
                rc = -1;
                break;
            }
        }
        if (fds[1].revents) {
            ssize_t n = read(p->errfd, chunk, sizeof chunk);
            if (n <= 0)
                err_open = 0;
            else if (errtext->len < 4096)
                buf_append(errtext, chunk, (size_t)n);
        }
        if (nf == 3 && fds[2].revents) {
            ssize_t n = write(p->in, input + sent, len - sent);
            if (n > 0)
                sent += (size_t)n;
            if (n < 0 && errno != EAGAIN) /* the program stopped reading: fine */
                sent = len;
            if (sent >= len) {
                close(p->in);
                p->in = -1;
            }
        }
    }
    if (rc == 0 && flush_lines(&acc, 1, fn, ctx) < 0)
        rc = -1;
    buf_free(&acc);
    return rc;
}

static int write_temp_script(const char *text, char *path, size_t size, buf *err)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/tlv-script-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        buf_printf(err, "cannot create a temporary script file: %s", strerror(errno));
        return -1;
    }
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    close(fd);
    if (!ok) {
        unlink(path);
        buf_puts(err, "cannot write the temporary script file");
        return -1;
    }
    return 0;
}

static int finish(proc *p, int rc, int timeout, const buf *errtext, buf *err)
{
    if (p->in >= 0)
        close(p->in);
    close(p->out);
    close(p->errfd);
    if (rc < 0 && timeout)
        kill(p->pid, SIGKILL);
    int status = 0;
    waitpid(p->pid, &status, 0);
    if (rc < 0)
        return -1;
    if (WIFSIGNALED(status)) {
        buf_printf(err, "the program was killed by signal %d", WTERMSIG(status));
        return -1;
    }
    if (WEXITSTATUS(status) != 0) {
        buf_printf(err, "the program exited with status %d", WEXITSTATUS(status));
        if (errtext->len)
            buf_printf(err, ": %.*s", (int)(errtext->len > 300 ? 300 : errtext->len),
                       errtext->data);
        while (err->len && (err->data[err->len - 1] == '\n' || err->data[err->len - 1] == '\r'))
            err->data[--err->len] = '\0';
        return -1;
    }
    return 0;
}

int script_run(const script_rule *s, const char *input, size_t input_len, int timeout_ms,
               script_line_fn fn, void *ctx, buf *err)
{
    char path[4096] = "";
    if (s->script && write_temp_script(s->script, path, sizeof path, err) < 0)
        return -1;
    char *argv[MAX_ARGV + 2];
    size_t argc = 0;
    buf storage = BUF_INIT;
    int rc = -1;
    argv[0] = s->file_name;
    if (split_args(s->arguments, path[0] ? path : NULL, argv, &argc, &storage) < 0) {
        buf_printf(err, "too many arguments (at most %d)", MAX_ARGV - 2);
    } else {
        argv[argc + 1] = NULL;
        signal(SIGPIPE, SIG_IGN); /* a program that exits early must not kill us */
        proc p;
        if (spawn(argv, &p, err) == 0) {
            buf errtext = BUF_INIT;
            rc = pump(&p, input, input_len, timeout_ms, fn, ctx, &errtext, err);
            int timed_out = rc < 0 && strncmp(buf_str(err), "timed out", 9) == 0;
            rc = finish(&p, rc, timed_out || rc < 0, &errtext, err);
            buf_free(&errtext);
        }
    }
    buf_free(&storage);
    if (path[0])
        unlink(path);
    return rc;
}

static cJSON *resource_json(const struct tlv_rules *r, const res_decl *d)
{
    const res_type *t = &r->model.types[d->type];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "Type", t->name);
    if (d->display)
        cJSON_AddStringToObject(o, "DisplayName", d->display);
    char color[8];
    snprintf(color, sizeof color, "%06x", (unsigned)d->color);
    cJSON_AddStringToObject(o, "Color", color);
    cJSON *attrs = cJSON_AddObjectToObject(o, "Attributes");
    for (size_t i = 0; i < t->nattrs; i++) {
        const char *v = d->init[i] ? d->init[i] : t->attrs[i].deflt;
        if (v)
            cJSON_AddStringToObject(attrs, t->attrs[i].name, v);
    }
    return o;
}

int script_resource_json(const struct tlv_rules *r, buf *out)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return -1;
    cJSON_AddStringToObject(root, "TimeScale", r->time_scale ? r->time_scale : "us");
    cJSON_AddNumberToObject(root, "TimeRadix", r->radix);
    cJSON *res = cJSON_AddObjectToObject(root, "Resources");
    for (size_t i = 0; i < r->model.nres; i++)
        cJSON_AddItemToObject(res, r->model.res[i].name, resource_json(r, &r->model.res[i]));
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        return -1;
    int rc = buf_puts(out, text);
    free(text);
    return rc;
}
