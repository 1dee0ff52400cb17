/*
 * test_event_writer.c — `tlv convert`'s event writer (cli/event_writer.c):
 * on a thread of its own it writes exactly the bytes the inline writer
 * writes (each event's tlv_event_format line), in order, across many
 * hand-overs of blocks, with values and arguments that need escaping, NULL
 * strings and events of many arguments; a failing write stops the
 * conversion (event_writer_put returns 1) and is reported with the write's
 * errno; the writer thread's CPU time is reported, the inline writer's is 0.
 * Lines given formatted (event_writer_put_line, as `tlv convert` gives
 * them) come out the same as events formatted by the writer.
 * Runs under ThreadSanitizer in CI (scripts/test.sh).
 */
#include "check.h"

#include "../../cli/event_writer.c"

#include <errno.h>
#include <stdio.h>

#define NEVENTS 60000 /* several 256 KB blocks of records */

/* Event i of the test sequence: attributes and behaviours, escapes, NULLs. */
static void make_event(size_t i, tlv_event *ev, const char **args, char *value, size_t vsize)
{
    static const char *const names[] = {"state", "enter", "str", "leaveSVC"};
    memset(ev, 0, sizeof *ev);
    ev->time.ticks = (int64_t)(i * 37) - 100;
    ev->time.frac = i % 7 == 0 ? 500000000000000000ull : 0;
    ev->resource = i % 11 == 0 ? NULL : i % 2 ? "Task1" : "InterruptHandler2";
    ev->name = names[i % 4];
    if (i % 3 == 0) {
        ev->kind = TLV_EVENT_ATTRIBUTE;
        snprintf(value, vsize, "v%zu,(a)\\b", i);
        ev->value = i % 13 == 0 ? NULL : value;
    } else {
        ev->kind = TLV_EVENT_BEHAVIOR;
        ev->nargs = i % 5;
        for (size_t k = 0; k < ev->nargs; k++)
            args[k] = k == 1 ? "x, (y)" : k == 3 ? NULL : "arg";
        ev->args = args;
    }
}

/* Gives the event to w as a line (event_writer_put_line), or as an event. */
static int put(event_writer *w, const tlv_event *ev, int by_line)
{
    if (!by_line)
        return event_writer_put(w, ev);
    char line[1024];
    size_t n = tlv_event_format(ev, 10, line, sizeof line);
    return event_writer_put_line(w, ev, line, n);
}

/* Writes the sequence with a writer; returns the bytes written (malloc'd). */
static char *write_all(int threaded, int by_line, size_t *len, uint64_t *cpu_ns)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    event_writer *w = event_writer_new(f, 10, threaded);
    CHECK(w != NULL);
    const char *args[8];
    char value[64];
    for (size_t i = 0; i < NEVENTS; i++) {
        tlv_event ev;
        make_event(i, &ev, args, value, sizeof value);
        CHECK_INT(put(w, &ev, by_line), 0);
    }
    CHECK_INT(event_writer_finish(w), 0);
    *cpu_ns = event_writer_cpu_ns(w);
    event_writer_free(w);
    fclose(f);
    return text;
}

static void same_bytes_threaded_or_not(void)
{
    size_t n1, n2;
    uint64_t cpu1, cpu2;
    char *inline_text = write_all(0, 0, &n1, &cpu1);
    char *thread_text = write_all(1, 0, &n2, &cpu2);
    CHECK(n1 > 4 * BLOCK_BYTES); /* the records crossed several hand-overs */
    CHECK_INT(n2, n1);
    CHECK(n1 == n2 && memcmp(inline_text, thread_text, n1) == 0);
    CHECK_INT(cpu1, 0);
    CHECK(cpu2 > 0);
    /* the inline writer's lines are tlv_event_format's */
    const char *first = "[-99.5].state=\n"; /* -100 + .5; no resource, no value */
    CHECK(strncmp(inline_text, first, strlen(first)) == 0);
    CHECK(strstr(inline_text, "\n[-63]Task1.enter(arg)\n") != NULL);
    CHECK(strstr(inline_text, "\n[-26]InterruptHandler2.str(arg,x\\, \\(y\\))\n") != NULL);
    CHECK(strstr(inline_text, "\n[11]Task1.leaveSVC=v3\\,\\(a\\)\\\\b\n") != NULL);
    CHECK(strstr(inline_text, "\n[48]InterruptHandler2.state(arg,x\\, \\(y\\),arg,)\n") != NULL);
    /* the same lines given formatted, inline and threaded */
    for (int threaded = 0; threaded <= 1; threaded++) {
        size_t n3;
        uint64_t cpu3;
        char *lines = write_all(threaded, 1, &n3, &cpu3);
        CHECK_INT(n3, n1);
        CHECK(n3 == n1 && memcmp(inline_text, lines, n1) == 0);
        free(lines);
    }
    free(inline_text);
    free(thread_text);
}

/* A failing output stops the producer and says why, on either path. */
static void write_failure(int threaded, int by_line)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        printf("note: no /dev/full: write failures not tested\n");
        return;
    }
    setvbuf(f, NULL, _IONBF, 0);
    event_writer *w = event_writer_new(f, 10, threaded);
    const char *args[8];
    char value[64];
    size_t i = 0;
    int stopped = 0;
    for (; i < 10 * NEVENTS && !stopped; i++) {
        tlv_event ev;
        make_event(i, &ev, args, value, sizeof value);
        stopped = put(w, &ev, by_line);
    }
    CHECK(stopped);
    if (!threaded)
        CHECK_INT(i, 1); /* at once */
    errno = 0;
    CHECK_INT(event_writer_finish(w), -1);
    CHECK_INT(errno, ENOSPC);
    tlv_event ev;
    make_event(0, &ev, args, value, sizeof value);
    CHECK_INT(put(w, &ev, by_line), 1); /* still stopped */
    event_writer_free(w);
    fclose(f);
}

int main(void)
{
    same_bytes_threaded_or_not();
    for (int by_line = 0; by_line <= 1; by_line++) {
        write_failure(0, by_line);
        write_failure(1, by_line);
    }
    return check_failures ? 1 : 0;
}
