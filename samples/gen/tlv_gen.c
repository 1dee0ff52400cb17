/* tlv_gen.c — deterministic generator of TOPPERS/ASP and TOPPERS/FMP kernel
 * trace logs, the sample and benchmark input of tlv.
 *
 * It owns: a small simulated kernel (tasks, priorities, ready queues,
 * semaphores, timer/serial/IPI interrupts, a cyclic and an alarm handler per
 * processor, task migration on FMP), the text of the trace lines that kernel
 * writes — exactly the shapes the corpus rules asp.cnv/fmp.cnv read (with
 * --console also the lines no rule reads that real logs contain too) — and,
 * with --emit-res, the resource file declaring every resource a log made with
 * the same options names.  Same options and seed, same bytes.  Only libc is used.
 *
 * Consistency is by construction: every logged state change goes through
 * become(), which refuses transitions asp.cnv does not list; a task that
 * blocks or is preempted inside a service call writes its "leave from" line
 * when it is next dispatched, as the real kernels do; FMP processors run in
 * global time order but write each step as a block, so their lines interleave
 * out of time order the way real FMP logs do.  samples/gen/check_gen.sh
 * checks all of it against the corpus rules and logs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TASKS = 250, MAX_CPUS = 8, PEND_LEN = 64, OUT_CAP = 1 << 20 };

/* Interrupt handler numbers, as on the TOPPERS reference targets. */
enum { INH_SIO = 2, INH_TIMER = 5, INH_IPI = 16 };

/* Time is in microseconds ("TimeScale":"us").  A trace line costs the CPU
 * LINE_MIN..LINE_MAX of simulated time; the timer ticks every TICK. */
enum { TICK = 10000, LINE_MIN = 90, LINE_MAX = 340 };
enum { CYC_PERIOD = 40 };               /* cyclic handler period, ticks */
enum { SIO_MIN = 6, SIO_MAX = 45 };     /* serial interrupt spacing, ticks */
enum { WORKER_PRI = 10, MAIN_PRI = 5, LOG_PRI = 3 };
enum { E_OBJ = -41, E_QOVR = -43 };     /* TOPPERS error codes */

typedef enum { DORMANT, RUNNABLE, RUNNING, WAITING, SUSPENDED, WAITSUS } State;
static const char *const STATE_NAME[] = {
    "DORMANT", "RUNNABLE", "RUNNING", "WAITING", "SUSPENDED", "WAITING-SUSPENDED"};

typedef enum { ROLE_LOG, ROLE_WORKER, ROLE_MAIN } Role;
typedef enum { WAIT_NONE, WAIT_DLY, WAIT_SLP, WAIT_SEM } WaitKind;
typedef enum { MAIN_START, MAIN_ACTIVATE, MAIN_WAIT, MAIN_COMMAND } MainPhase;
typedef enum { EV_NONE, EV_IPI, EV_TICK, EV_SIO, EV_TASK } Event;

typedef struct {
    int id, prc, home, index;     /* index: worker number on its home CPU */
    Role role;
    int pri;
    State st;
    WaitKind wk;
    int semid;                    /* the semaphore a WAIT_SEM task waits on */
    int held_sem;                 /* worker semaphore held, or waited for */
    uint64_t wake_tick;
    int64_t seq;                  /* ready/wait queue order, smaller first */
    int actcnt, wupcnt;
    bool fresh;                   /* activated, has not run yet */
    int phase, next_act, count;
    char pend[PEND_LEN];          /* "leave from ..." owed at next dispatch */
    uint64_t action_at, remain;
} Task;

typedef struct {
    int id;
    uint64_t now;                 /* time of this CPU's last line */
    uint64_t next_tick, tick_no, next_sio, ipi_at, next_wake;
    bool ipi, dsp_off, cyc_on, alm_on;
    uint64_t cyc_next, alm_at;
    int running;                  /* task on the CPU, or owing "dispatch from" */
    int rotate_pri;               /* rot_rdq of the running task's priority */
    int sem_main, sem_work;       /* semaphore counts */
} Cpu;

typedef struct {
    bool fmp, crlf, emit_res, console;
    uint64_t lines, seed;
    int ntask, ncpu;
    const char *out_path;
    FILE *out;
    char *buf;
    size_t len;
    uint64_t emitted;
    bool done;
    uint64_t rng;
    int64_t seq_tail, seq_head;
    int applog_state, applog_msg, proc_no;
    Task task[MAX_TASKS + 1];
    Cpu cpu[MAX_CPUS + 1];
    uint64_t slower_id, slower_pct; /* --slower ID:PCT, or 0 */
} Gen;

/* ---- random numbers: splitmix64 seeds xorshift64* (rand() differs by libc) */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t next_rand(Gen *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n) for n < 2^32, by multiply-shift (no modulo bias to speak of). */
static uint32_t rnd(Gen *g, uint32_t n)
{
    return (uint32_t)(((next_rand(g) >> 32) * (uint64_t)n) >> 32);
}

static bool chance(Gen *g, uint32_t percent) { return rnd(g, 100) < percent; }

/* ---- output: a large buffer and a tiny formatter (printf is the bottleneck) */

static void out_flush(Gen *g)
{
    if (g->len && fwrite(g->buf, 1, g->len, g->out) != g->len) {
        fprintf(stderr, "tlv-gen: write failed: %s\n", strerror(errno));
        exit(1);
    }
    g->len = 0;
}

static char *put_u64(char *p, uint64_t v, int width)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < width) tmp[n++] = '0';
    while (n) *p++ = tmp[--n];
    return p;
}

static char *put_int(char *p, int v, int width)
{
    if (v < 0) {
        *p++ = '-';
        return put_u64(p, (uint64_t)-(int64_t)v, width);
    }
    return put_u64(p, (uint64_t)v, width);
}

/* Formats %d %03d (int), %x (int, hex), %s, %c and %% into p; the callers'
 * texts are short and fixed, so the caller's room (>= 256 bytes) is enough. */
static char *vformat(char *p, const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') { *p++ = *fmt; continue; }
        switch (*++fmt) {
        case 'd': p = put_int(p, va_arg(ap, int), 0); break;
        case '0': p = put_int(p, va_arg(ap, int), fmt[1] - '0'); fmt += 2; break;
        case 'c': *p++ = (char)va_arg(ap, int); break;
        case '%': *p++ = '%'; break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            size_t n = strlen(s);
            memcpy(p, s, n);
            p += n;
            break;
        }
        case 'x': {
            unsigned v = (unsigned)va_arg(ap, int);
            char tmp[16];
            int n = 0;
            do { tmp[n++] = "0123456789abcdef"[v & 15]; v >>= 4; } while (v);
            while (n) *p++ = tmp[--n];
            break;
        }
        default: *p++ = '?'; break;
        }
    }
    return p;
}

/* One line of CPU c, written when `write`: the clock advances first, so a
 * CPU's times are strictly increasing.  Once the requested count is reached
 * nothing more is written and the simulation loop stops. */
static void vemit(Gen *g, Cpu *c, bool write, const char *fmt, va_list ap)
{
    if (g->done) return;
    c->now += LINE_MIN + rnd(g, LINE_MAX - LINE_MIN);
    if (!write) return;
    if (g->len + 512 > OUT_CAP) out_flush(g);
    char *p = g->buf + g->len;
    *p++ = '[';
    p = put_u64(p, c->now, 0);
    *p++ = ']';
    if (g->fmp) {
        memcpy(p, ":[", 2);
        p = put_int(p + 2, c->id, 0);
        memcpy(p, "]:", 2);
        p += 2;
    }
    *p++ = ' ';
    p = vformat(p, fmt, ap);
    if (g->crlf) *p++ = '\r';
    *p++ = '\n';
    g->len = (size_t)(p - g->buf);
    if (++g->emitted >= g->lines) g->done = true;
}

/* A trace line the conversion rules (asp.cnv/fmp.cnv, rules/toppers_*.cnv)
 * read. */
static void emit(Gen *g, Cpu *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vemit(g, c, true, fmt, ap);
    va_end(ap);
}

/* A line no conversion rule reads, as real logs have them: the sample
 * program's console output ("task1 is running", "#act_tsk(2)", "Processor 1
 * start.") and the kernel's "dispatch from task N." records.  Written only
 * with --console (so that a generated log converts every line it has, and
 * benchmarks convert what they read), but its time passes either way: the
 * lines the rules read are the same with and without it. */
static void emit_unread(Gen *g, Cpu *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vemit(g, c, g->console, fmt, ap);
    va_end(ap);
}

/* ---- task states and queues */

/* The transitions asp.cnv/fmp.cnv name, plus the two that dispatching makes
 * implicitly (RUNNABLE->RUNNING, RUNNING->RUNNABLE on preemption). */
static bool legal(State from, State to)
{
    static const unsigned char ok[6][6] = {
        /* to:      DOR RBL RUN WAI SUS WSU */
        /* DOR */ {  0,  1,  0,  0,  0,  0 },
        /* RBL */ {  1,  0,  1,  0,  1,  0 },
        /* RUN */ {  1,  1,  0,  1,  0,  0 },
        /* WAI */ {  1,  1,  0,  0,  0,  1 },
        /* SUS */ {  1,  1,  0,  0,  0,  0 },
        /* WSU */ {  1,  0,  0,  1,  1,  0 },
    };
    return ok[from][to];
}

static void enqueue_tail(Gen *g, Task *t) { t->seq = ++g->seq_tail; }
static void enqueue_head(Gen *g, Task *t) { t->seq = --g->seq_head; }

/* "task N becomes STATE." — the only way a logged state change happens. */
static void become(Gen *g, Cpu *c, Task *t, State to)
{
    if (!legal(t->st, to)) {
        fprintf(stderr, "tlv-gen: internal error: task %d %s -> %s\n", t->id,
                STATE_NAME[t->st], STATE_NAME[to]);
        abort();
    }
    emit(g, c, "task %d becomes %s.", t->id, STATE_NAME[to]);
    if (to == RUNNABLE) enqueue_tail(g, t);
    t->st = to;
}

static Task *best_ready(Gen *g, int prc)
{
    Task *best = NULL;
    for (int i = 1; i <= g->ntask; i++) {
        Task *t = &g->task[i];
        if (t->prc != prc || t->st != RUNNABLE) continue;
        if (!best || t->pri < best->pri || (t->pri == best->pri && t->seq < best->seq))
            best = t;
    }
    return best;
}

static Task *running_task(Gen *g, Cpu *c)
{
    return c->running ? &g->task[c->running] : NULL;
}

/* The first task waiting on semaphore semid (FIFO order). */
static Task *sem_waiter(Gen *g, int semid)
{
    Task *first = NULL;
    for (int i = 1; i <= g->ntask; i++) {
        Task *t = &g->task[i];
        if (t->wk == WAIT_SEM && t->semid == semid && (!first || t->seq < first->seq))
            first = t;
    }
    return first;
}

/* ---- timing of task work */

static uint64_t think_as_usual(Gen *g, const Task *t)
{
    switch (t->role) {
    case ROLE_LOG: return 200 + rnd(g, 4000);
    case ROLE_MAIN: return 300 + rnd(g, 2500);
    default: return t->fresh ? 500 + rnd(g, 2000) : TICK + rnd(g, 6 * TICK);
    }
}

/* How long a task computes before its next action: --slower ID:PCT makes
 * task ID's work take PCT % of it (a slower build of the same program, for
 * tlv diff: the random draws stay the same). */
static uint64_t think(Gen *g, const Task *t)
{
    uint64_t d = think_as_usual(g, t);
    return (uint64_t)t->id == g->slower_id ? d * g->slower_pct / 100 : d;
}

/* ---- dispatching */

static void dispatch_to(Gen *g, Cpu *c, Task *t)
{
    emit(g, c, "dispatch to task %d.", t->id);
    t->st = RUNNING;
    c->running = t->id;
    if (t->pend[0]) {
        /* The service call that blocked (or was preempted) returns now. */
        emit(g, c, "leave from %s", t->pend);
        t->pend[0] = '\0';
    }
    t->action_at = c->now + (t->remain ? t->remain : think(g, t));
    t->remain = 0;
}

/* Gives the CPU to the best ready task when the running one blocked, or a
 * better one became ready (the conversion rules turn "dispatch to" while a
 * task is RUNNING into a preemption).  rot_rdq of the running task's
 * priority sends it behind its equals. */
static void schedule(Gen *g, Cpu *c)
{
    Task *r = running_task(g, c);
    bool runs = r && r->st == RUNNING;
    if (runs && c->dsp_off) return;
    bool rotate = runs && c->rotate_pri == r->pri;
    c->rotate_pri = 0;
    Task *b = best_ready(g, c->id);
    if (runs) {
        if (!b || b->pri > r->pri || (b->pri == r->pri && !rotate)) return;
        r->remain = r->action_at > c->now ? r->action_at - c->now : 1;
        r->st = RUNNABLE;
        if (rotate) enqueue_tail(g, r);
        else enqueue_head(g, r);
    }
    if (r) {
        emit_unread(g, c, "dispatch from task %d.", r->id);
        c->running = 0;
    }
    if (b) dispatch_to(g, c, b);
}

/* Ends the running task's service call: it returns at once unless the call
 * blocked it or let a better task in, in which case it returns when the task
 * is next dispatched (the order real TOPPERS traces show). */
static void svc_leave(Gen *g, Cpu *c, Task *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *end = vformat(t->pend, fmt, ap);
    va_end(ap);
    *end = '\0';
    schedule(g, c);
    if (c->running == t->id && t->st == RUNNING && t->pend[0]) {
        emit(g, c, "leave from %s", t->pend);
        t->pend[0] = '\0';
    }
}

static void block(Gen *g, Cpu *c, Task *t, WaitKind wk)
{
    become(g, c, t, WAITING);
    t->wk = wk;
    enqueue_tail(g, t);           /* wait queues are FIFO too */
}

/* A wait ends (timeout, wakeup, semaphore): WAITING-SUSPENDED stays suspended. */
static void release(Gen *g, Cpu *c, Task *t)
{
    t->wk = WAIT_NONE;
    become(g, c, t, t->st == WAITSUS ? SUSPENDED : RUNNABLE);
}

static int activate(Gen *g, Cpu *c, Task *t)
{
    if (t->st != DORMANT) {
        if (t->actcnt) return E_QOVR;
        t->actcnt = 1;
        return 0;
    }
    t->fresh = true;
    t->count = 0;
    become(g, c, t, RUNNABLE);
    return 0;
}

/* After ext_tsk/ter_tsk a queued activation restarts the task at once. */
static void after_dormant(Gen *g, Cpu *c, Task *t)
{
    t->pend[0] = '\0';
    t->wk = WAIT_NONE;
    t->wupcnt = 0;
    t->remain = 0;
    if (t->actcnt) {
        t->actcnt = 0;
        activate(g, c, t);
    }
}

/* ---- small helpers naming things the way the sample programs print them */

static int sio_intno(Gen *g, const Cpu *c)
{
    return g->fmp ? (c->id << 16) | INH_SIO : INH_SIO;
}

static int main_sem(const Cpu *c) { return c->id; }
static int work_sem(Gen *g, const Cpu *c) { return g->ncpu + c->id; }
static int cyc_id(Gen *g, int prc) { return g->fmp ? prc : 1; }

/* "task1" (ASP) or "task1_2" (FMP: home processor, number there). */
static void worker_label(Gen *g, const Task *t, char *dst)
{
    char *p = dst;
    memcpy(p, "task", 4);
    p = put_int(p + 4, g->fmp ? t->home : t->index, 0);
    if (g->fmp) {
        *p++ = '_';
        p = put_int(p, t->index, 0);
    }
    *p = '\0';
}

/* A worker now on CPU c satisfying pred, picked uniformly (NULL if none). */
static Task *pick_task(Gen *g, const Cpu *c, bool (*pred)(const Task *))
{
    Task *cand[MAX_TASKS];
    int n = 0;
    for (int i = 1; i <= g->ntask; i++) {
        Task *t = &g->task[i];
        if (t->role == ROLE_WORKER && t->prc == c->id && pred(t)) cand[n++] = t;
    }
    return n ? cand[rnd(g, (uint32_t)n)] : NULL;
}

static bool is_any(const Task *t) { (void)t; return true; }
static bool is_dormant(const Task *t) { return t->st == DORMANT; }
static bool is_sleeping(const Task *t) { return t->wk == WAIT_SLP; }
static bool is_suspended(const Task *t) { return t->st == SUSPENDED || t->st == WAITSUS; }
static bool can_suspend(const Task *t) { return t->st == RUNNABLE || t->st == WAITING; }
static bool can_terminate(const Task *t)
{
    return t->st != DORMANT && t->st != RUNNING && !t->held_sem;
}

/* ---- interrupt side: handlers call the i-prefixed service calls */

static void i_wakeup_or_activate(Gen *g, Cpu *c)
{
    Task *t = pick_task(g, c, is_sleeping);
    if (t) {
        emit(g, c, "enter to iwup_tsk tskid=%d.", t->id);
        release(g, c, t);
        emit(g, c, "leave from iwup_tsk ercd=0.");
        return;
    }
    t = pick_task(g, c, is_any);
    if (!t) return;
    emit(g, c, "enter to iact_tsk tskid=%d.", t->id);
    int er = activate(g, c, t);
    emit(g, c, "leave from iact_tsk ercd=%d.", er);
}

/* Rotates the ready queue of priority pri; when the running task has that
 * priority the rotation happens at the next dispatch decision. */
static void rotate(Gen *g, Cpu *c, int pri)
{
    Task *r = running_task(g, c);
    if (r && r->st == RUNNING && r->pri == pri) {
        c->rotate_pri = pri;
        return;
    }
    Task *head = NULL;
    for (int i = 1; i <= g->ntask; i++) {
        Task *t = &g->task[i];
        if (t->prc == c->id && t->st == RUNNABLE && t->pri == pri && (!head || t->seq < head->seq))
            head = t;
    }
    if (head) enqueue_tail(g, head);
}

static void i_rotate(Gen *g, Cpu *c)
{
    emit(g, c, "enter to irot_rdq tskpri=%d.", WORKER_PRI);
    rotate(g, c, WORKER_PRI);
    emit(g, c, "leave from irot_rdq ercd=0.");
}

static void cyclic_handler(Gen *g, Cpu *c)
{
    emit(g, c, "enter to cyclic handler %d.", cyc_id(g, c->id));
    emit_unread(g, c, "Run cyclic_handler!");
    if (chance(g, 50)) i_rotate(g, c);
    else i_wakeup_or_activate(g, c);
    emit(g, c, "leave from cyclic handler %d.", cyc_id(g, c->id));
}

static void alarm_handler(Gen *g, Cpu *c)
{
    emit(g, c, "enter to alarm handler %d.", cyc_id(g, c->id));
    emit_unread(g, c, "Run alarm_handler!");
    i_wakeup_or_activate(g, c);
    emit(g, c, "leave from alarm handler %d.", cyc_id(g, c->id));
}

/* Delays that expired at this tick end; next_wake skips the scan otherwise. */
static void expire_delays(Gen *g, Cpu *c)
{
    if (c->tick_no < c->next_wake) return;
    c->next_wake = UINT64_MAX;
    for (int i = 1; i <= g->ntask; i++) {
        Task *t = &g->task[i];
        if (t->prc != c->id || t->wk != WAIT_DLY) continue;
        if (t->wake_tick <= c->tick_no) release(g, c, t);
        else if (t->wake_tick < c->next_wake) c->next_wake = t->wake_tick;
    }
}

static void timer_interrupt(Gen *g, Cpu *c)
{
    emit(g, c, "enter to int handler %d.", INH_TIMER);
    c->tick_no++;
    expire_delays(g, c);
    if (c->cyc_on && c->tick_no >= c->cyc_next) {
        cyclic_handler(g, c);
        c->cyc_next += CYC_PERIOD;
    }
    if (c->alm_on && c->tick_no >= c->alm_at) {
        c->alm_on = false;
        alarm_handler(g, c);
    }
    emit(g, c, "leave from int handler %d.", INH_TIMER);
    c->next_tick += TICK;
    schedule(g, c);
}

/* The serial port got input: the handler signals the semaphore main waits on. */
static void sio_interrupt(Gen *g, Cpu *c)
{
    emit(g, c, "enter to int handler %d.", INH_SIO);
    emit(g, c, "enter to isig_sem semid=%d.", main_sem(c));
    Task *w = sem_waiter(g, main_sem(c));
    int er = 0;
    if (w) release(g, c, w);
    else if (c->sem_main) er = E_QOVR;
    else c->sem_main = 1;
    emit(g, c, "leave from isig_sem ercd=%d.", er);
    emit(g, c, "leave from int handler %d.", INH_SIO);
    c->next_sio = c->now + (uint64_t)(SIO_MIN + rnd(g, SIO_MAX - SIO_MIN)) * TICK;
    schedule(g, c);
}

/* Another processor handed this one a task: dispatch it if it is better. */
static void ipi_interrupt(Gen *g, Cpu *c)
{
    c->ipi = false;
    emit(g, c, "enter to int handler %d.", INH_IPI);
    emit(g, c, "leave from int handler %d.", INH_IPI);
    schedule(g, c);
}

/* ---- task side: service calls a running task makes */

static void svc_dly_tsk(Gen *g, Cpu *c, Task *t, int dly)
{
    emit(g, c, "enter to dly_tsk dlytim=%d.", dly);
    block(g, c, t, WAIT_DLY);
    t->wake_tick = c->tick_no + (uint64_t)dly + 1;
    if (t->wake_tick < c->next_wake) c->next_wake = t->wake_tick;
    svc_leave(g, c, t, "dly_tsk ercd=0.");
}

static void svc_slp_tsk(Gen *g, Cpu *c, Task *t)
{
    emit(g, c, "enter to slp_tsk.");
    if (t->wupcnt) t->wupcnt = 0;     /* a queued wakeup: returns at once */
    else block(g, c, t, WAIT_SLP);
    svc_leave(g, c, t, "slp_tsk ercd=0.");
}

static void svc_wai_sem(Gen *g, Cpu *c, Task *t, int semid, int *count)
{
    emit(g, c, "enter to wai_sem semid=%d.", semid);
    if (*count) {
        (*count)--;
    } else {
        block(g, c, t, WAIT_SEM);
        t->semid = semid;
    }
    svc_leave(g, c, t, "wai_sem ercd=0.");
}

static void svc_sig_sem(Gen *g, Cpu *c, Task *t, int semid, int *count)
{
    emit(g, c, "enter to sig_sem semid=%d.", semid);
    Task *w = sem_waiter(g, semid);
    if (w) {
        release(g, c, w);
        w->held_sem = semid;      /* the semaphore passes to the waiter */
    } else {
        *count = 1;
    }
    svc_leave(g, c, t, "sig_sem ercd=0.");
}

static void svc_pair(Gen *g, Cpu *c, const char *on, const char *off, const char *arg)
{
    emit(g, c, "enter to %s%s.", on, arg);
    emit(g, c, "leave from %s ercd=0.", on);
    emit(g, c, "enter to %s%s.", off, arg);
    emit(g, c, "leave from %s ercd=0.", off);
}

static void svc_get_tim(Gen *g, Cpu *c)
{
    emit(g, c, "enter to get_tim p_systim=%d.", 0x1000 + (int)rnd(g, 0x8000) * 4);
    emit(g, c, "leave from get_tim ercd=0. systim=%d.", (int)(c->tick_no & 0x7fffffff));
}

static void svc_sns_ctx(Gen *g, Cpu *c)
{
    emit(g, c, "enter to sns_ctx.");
    emit(g, c, "leave from sns_ctx state=0.");
}

/* ---- the log task: a periodic dly_tsk loop, as in the TOPPERS samples */

static void step_log(Gen *g, Cpu *c, Task *t)
{
    if (t->fresh) {
        t->fresh = false;
        emit(g, c, "enter to ena_int intno=%d.", sio_intno(g, c));
        emit(g, c, "leave from ena_int ercd=0.");
        emit_unread(g, c, "System logging task is started on port %d.", c->id);
    }
    svc_dly_tsk(g, c, t, 10);
}

/* ---- worker tasks: compute, print, sleep, delay, share a semaphore */

static void worker_print(Gen *g, Cpu *c, Task *t)
{
    char label[32], pad[16];
    int indent = 3 + 2 * ((t->index - 1) % 5);
    worker_label(g, t, label);
    memset(pad, ' ', (size_t)indent);
    pad[indent] = '\0';
    t->count = (t->count + 1) % 1000;
    emit_unread(g, c, "%s is running (%03d).%s%c", label, t->count, pad, "|+*#@"[(t->index - 1) % 5]);
}

static void worker_applog(Gen *g, Cpu *c, Task *t)
{
    if (chance(g, 50)) {
        int proc = 1 + (g->proc_no++ % 4);
        emit(g, c, "applog strtask : TASK %d : procedure%d_%s.", t->id, proc,
             chance(g, 50) ? "start" : "end");
    } else {
        emit(g, c, "applog statetask : TASK %d : %d.", t->id, (int)rnd(g, 4));
    }
}

static void worker_start(Gen *g, Cpu *c, Task *t)
{
    t->fresh = false;
    emit(g, c, "enter to ena_tex.");
    emit(g, c, "leave from ena_tex ercd=0");   /* no period: as the kernel writes it */
    worker_print(g, c, t);
}

static void worker_exit(Gen *g, Cpu *c, Task *t)
{
    emit_unread(g, c, "#%d#ext_tsk()", t->index);
    emit(g, c, "enter to ext_tsk.");
    become(g, c, t, DORMANT);
    after_dormant(g, c, t);
    schedule(g, c);
}

/* The task moves itself to another processor (FMP mig_tsk(TSK_SELF, prc)).
 * Both CPUs' clocks are brought past each other first, so the migration is
 * later than everything either processor already logged and the converter,
 * reading by time, sees the same order as the simulation. */
static bool worker_migrate(Gen *g, Cpu *c, Task *t)
{
    if (g->ncpu < 2 || t->held_sem) return false;
    int dst = 1 + (int)rnd(g, (uint32_t)g->ncpu - 1);
    if (dst >= c->id) dst++;
    Cpu *d = &g->cpu[dst];
    if (d->now > c->now) c->now = d->now;
    emit_unread(g, c, "#%d#mig_tsk(0, %d)", t->index, dst);
    emit(g, c, "enter to mig_tsk tskid=0. prcid=%d.", dst);
    emit(g, c, "task %d migrates from processor %d to processor %d.", t->id, c->id, dst);
    t->st = RUNNABLE;             /* the rule itself makes a RUNNING task RUNNABLE */
    t->prc = dst;
    enqueue_tail(g, t);
    strcpy(t->pend, "mig_tsk ercd=0.");
    if (d->now < c->now) d->now = c->now;
    d->ipi = true;
    d->ipi_at = d->now + 200 + rnd(g, 600);
    schedule(g, c);
    return true;
}

static void worker_sem(Gen *g, Cpu *c, Task *t)
{
    int semid = work_sem(g, c);
    if (t->held_sem) {
        t->held_sem = 0;
        svc_sig_sem(g, c, t, semid, &c->sem_work);
        return;
    }
    t->held_sem = semid;          /* held once the wait ends */
    svc_wai_sem(g, c, t, semid, &c->sem_work);
}

static void worker_rot_rdq(Gen *g, Cpu *c, Task *t)
{
    if (g->fmp) emit(g, c, "enter to rot_rdq tskpri=%d. prcid=%d.", t->pri, c->id);
    else emit(g, c, "enter to rot_rdq tskpri=%d.", t->pri);
    rotate(g, c, t->pri);
    svc_leave(g, c, t, "rot_rdq ercd=0.");
}

static void worker_dis_dsp(Gen *g, Cpu *c)
{
    emit(g, c, "enter to dis_dsp.");
    emit(g, c, "leave from dis_dsp ercd=0.");
    c->dsp_off = true;
}

/* With dispatching disabled the task may not block; it works, then enables
 * dispatching, which lets in any better task that became ready meanwhile. */
static void worker_no_dispatch(Gen *g, Cpu *c, Task *t)
{
    if (chance(g, 40)) {
        worker_print(g, c, t);
        return;
    }
    emit(g, c, "enter to ena_dsp.");
    c->dsp_off = false;
    svc_leave(g, c, t, "ena_dsp ercd=0.");
}

static void worker_act_other(Gen *g, Cpu *c, Task *t)
{
    Task *o = pick_task(g, c, is_any);
    if (!o || o == t) {
        worker_print(g, c, t);
        return;
    }
    emit(g, c, "enter to act_tsk tskid=%d.", o->id);
    int er = activate(g, c, o);
    svc_leave(g, c, t, "act_tsk ercd=%d.", er);
}

static void step_worker(Gen *g, Cpu *c, Task *t)
{
    if (t->fresh) { worker_start(g, c, t); return; }
    if (c->dsp_off) { worker_no_dispatch(g, c, t); return; }
    if (t->held_sem && chance(g, 60)) { worker_sem(g, c, t); return; }
    uint32_t r = rnd(g, 1000);
    if (r < 330) worker_print(g, c, t);
    else if (r < 470) svc_dly_tsk(g, c, t, 1 + (int)rnd(g, 20));
    else if (r < 560) { emit_unread(g, c, "#%d#slp_tsk()", t->index); svc_slp_tsk(g, c, t); }
    else if (r < 650) worker_sem(g, c, t);
    else if (r < 690) worker_rot_rdq(g, c, t);
    else if (r < 720) { svc_get_tim(g, c); worker_print(g, c, t); }
    else if (r < 740) svc_sns_ctx(g, c);
    else if (r < 760) svc_pair(g, c, "loc_cpu", "unl_cpu", "");
    else if (r < 780) worker_dis_dsp(g, c);
    else if (r < 850) worker_applog(g, c, t);
    else if (r < 870) worker_act_other(g, c, t);
    else if (r < 905 && g->fmp && worker_migrate(g, c, t)) return;
    else if (r < 935 && t->count > 3 && !t->held_sem) worker_exit(g, c, t);
    else worker_print(g, c, t);
}

/* ---- the main task: waits for serial input, then runs one command */

static void main_start(Gen *g, Cpu *c, Task *t)
{
    emit_unread(g, c, "Sample program starts (exinf = %d).", g->fmp ? c->id : 0);
    emit(g, c, "enter to sta_cyc cycid=%d.", cyc_id(g, c->id));
    c->cyc_on = true;
    c->cyc_next = c->tick_no + CYC_PERIOD;
    emit(g, c, "leave from sta_cyc ercd=0.");
    t->phase = MAIN_ACTIVATE;
    t->next_act = 1;
}

/* act_tsk of every worker homed here, one per step, at start-up. */
static void main_activate_next(Gen *g, Cpu *c, Task *t)
{
    for (; t->next_act <= g->ntask; t->next_act++) {
        Task *w = &g->task[t->next_act];
        if (w->role != ROLE_WORKER || w->home != c->id) continue;
        t->next_act++;
        emit(g, c, "enter to act_tsk tskid=%d.", w->id);
        int er = activate(g, c, w);
        svc_leave(g, c, t, "act_tsk ercd=%d.", er);
        return;
    }
    t->phase = MAIN_WAIT;
    emit(g, c, "enter to ena_int intno=%d.", sio_intno(g, c));
    emit(g, c, "leave from ena_int ercd=0.");
}

static void cmd_act(Gen *g, Cpu *c, Task *t)
{
    Task *w = pick_task(g, c, is_dormant);
    if (!w) w = pick_task(g, c, is_any);
    if (!w) return;
    emit_unread(g, c, "#act_tsk(%d)", w->index);
    emit(g, c, "enter to act_tsk tskid=%d.", w->id);
    int er = activate(g, c, w);
    svc_leave(g, c, t, "act_tsk ercd=%d.", er);
}

static void cmd_wup(Gen *g, Cpu *c, Task *t)
{
    Task *w = pick_task(g, c, is_sleeping);
    if (!w) w = pick_task(g, c, is_any);
    if (!w) return;
    emit_unread(g, c, "#wup_tsk(%d)", w->index);
    emit(g, c, "enter to wup_tsk tskid=%d.", w->id);
    int er = 0;
    if (w->wk == WAIT_SLP) release(g, c, w);
    else if (w->st == DORMANT) er = E_OBJ;
    else if (w->wupcnt) er = E_QOVR;
    else w->wupcnt = 1;
    svc_leave(g, c, t, "wup_tsk ercd=%d.", er);
}

static void cmd_sus(Gen *g, Cpu *c, Task *t)
{
    Task *w = pick_task(g, c, can_suspend);
    if (!w) return;
    emit_unread(g, c, "#sus_tsk(%d)", w->index);
    emit(g, c, "enter to sus_tsk tskid=%d.", w->id);
    become(g, c, w, w->st == WAITING ? WAITSUS : SUSPENDED);
    svc_leave(g, c, t, "sus_tsk ercd=0.");
}

static void cmd_rsm(Gen *g, Cpu *c, Task *t)
{
    Task *w = pick_task(g, c, is_suspended);
    if (!w) return;
    emit_unread(g, c, "#rsm_tsk(%d)", w->index);
    emit(g, c, "enter to rsm_tsk tskid=%d.", w->id);
    become(g, c, w, w->st == WAITSUS ? WAITING : RUNNABLE);
    svc_leave(g, c, t, "rsm_tsk ercd=0.");
}

static void cmd_ter(Gen *g, Cpu *c, Task *t)
{
    Task *w = pick_task(g, c, can_terminate);
    if (!w) return;
    emit_unread(g, c, "#ter_tsk(%d)", w->index);
    emit(g, c, "enter to ter_tsk tskid=%d.", w->id);
    become(g, c, w, DORMANT);
    after_dormant(g, c, w);
    svc_leave(g, c, t, "ter_tsk ercd=0.");
}

static void cmd_rot(Gen *g, Cpu *c)
{
    emit_unread(g, c, "#rot_rdq(three priorities)");
    for (int pri = WORKER_PRI - 1; pri <= WORKER_PRI + 1; pri++) {
        emit(g, c, "enter to rot_rdq tskpri=%d.", pri);
        rotate(g, c, pri);
        emit(g, c, "leave from rot_rdq ercd=0.");
    }
}

static void cmd_cyc(Gen *g, Cpu *c)
{
    c->cyc_on = !c->cyc_on;
    c->cyc_next = c->tick_no + CYC_PERIOD;
    const char *svc = c->cyc_on ? "sta_cyc" : "stp_cyc";
    emit(g, c, "enter to %s cycid=%d.", svc, cyc_id(g, c->id));
    emit(g, c, "leave from %s ercd=0.", svc);
}

static void cmd_alm(Gen *g, Cpu *c)
{
    int tim = 5 + (int)rnd(g, 30);
    emit(g, c, "enter to sta_alm almid=%d. almtim=%d.", cyc_id(g, c->id), tim);
    emit(g, c, "leave from sta_alm ercd=0.");
    c->alm_on = true;
    c->alm_at = c->tick_no + (uint64_t)tim;
}

static void cmd_applog(Gen *g, Cpu *c)
{
    if (chance(g, 50)) {
        g->applog_state = (g->applog_state + 1) % 8;
        emit(g, c, "applog state : ID 1 : %d.", g->applog_state);
    } else {
        int id = 1 + (int)rnd(g, 2);
        emit(g, c, "applog str : ID %d : message%d.", id, 1 + g->applog_msg++ % 9);
    }
}

static void cmd_misc(Gen *g, Cpu *c)
{
    switch (rnd(g, 5)) {
    case 0: svc_pair(g, c, "dis_dsp", "ena_dsp", ""); break;
    case 1: svc_pair(g, c, "loc_cpu", "unl_cpu", ""); break;
    case 2: {
        char arg[32];
        char *end = put_int(strcpy(arg, " intno=") + 7, sio_intno(g, c), 0);
        *end = '\0';
        svc_pair(g, c, "dis_int", "ena_int", arg);
        break;
    }
    case 3: svc_get_tim(g, c); break;
    default: emit_unread(g, c, "unknown trace log type: %d.", 32 + (int)rnd(g, 32)); break;
    }
}

static void main_command(Gen *g, Cpu *c, Task *t)
{
    t->phase = MAIN_WAIT;
    uint32_t r = rnd(g, 100);
    if (g->fmp && r < 6) {
        emit_unread(g, c, "select tskno 0x%x", (c->id << 4) | (1 + (int)rnd(g, 3)));
        return;
    }
    if (r < 22) cmd_act(g, c, t);
    else if (r < 38) cmd_wup(g, c, t);
    else if (r < 48) cmd_sus(g, c, t);
    else if (r < 60) cmd_rsm(g, c, t);
    else if (r < 66) cmd_ter(g, c, t);
    else if (r < 72) cmd_rot(g, c);
    else if (r < 75) cmd_cyc(g, c);
    else if (r < 80) cmd_alm(g, c);
    else if (r < 92) cmd_applog(g, c);
    else cmd_misc(g, c);
}

static void step_main(Gen *g, Cpu *c, Task *t)
{
    switch (t->phase) {
    case MAIN_START: main_start(g, c, t); break;
    case MAIN_ACTIVATE: main_activate_next(g, c, t); break;
    case MAIN_WAIT:
        t->phase = MAIN_COMMAND;
        svc_wai_sem(g, c, t, main_sem(c), &c->sem_main);
        break;
    default: main_command(g, c, t); break;
    }
}

static void task_step(Gen *g, Cpu *c)
{
    Task *t = running_task(g, c);
    switch (t->role) {
    case ROLE_LOG: step_log(g, c, t); break;
    case ROLE_MAIN: step_main(g, c, t); break;
    default: step_worker(g, c, t); break;
    }
    if (c->running == t->id && t->st == RUNNING) t->action_at = c->now + think(g, t);
}

/* ---- the event loop: always the earliest event of any processor */

static Event next_event(Gen *g, const Cpu *c, uint64_t *at)
{
    Event ev = EV_TICK;
    *at = c->next_tick;
    if (c->ipi && c->ipi_at <= *at) { ev = EV_IPI; *at = c->ipi_at; }
    if (c->next_sio < *at) { ev = EV_SIO; *at = c->next_sio; }
    const Task *r = c->running ? &g->task[c->running] : NULL;
    if (r && r->st == RUNNING && r->action_at < *at) { ev = EV_TASK; *at = r->action_at; }
    return ev;
}

static void run_one(Gen *g)
{
    Cpu *best = NULL;
    Event ev = EV_NONE;
    uint64_t best_at = UINT64_MAX;
    for (int i = 1; i <= g->ncpu; i++) {
        uint64_t at;
        Event e = next_event(g, &g->cpu[i], &at);
        if (at < best_at) { best = &g->cpu[i]; ev = e; best_at = at; }
    }
    if (best->now < best_at) best->now = best_at;
    switch (ev) {
    case EV_IPI: ipi_interrupt(g, best); break;
    case EV_TICK: timer_interrupt(g, best); break;
    case EV_SIO: sio_interrupt(g, best); break;
    default: task_step(g, best); break;
    }
}

/* ---- set-up: roles, priorities, processors */

/* Ids 1..C are the log tasks of processors 1..C, the last C ids the main
 * tasks, and the ids between are workers spread round-robin. */
static void init_tasks(Gen *g)
{
    int C = g->ncpu, T = g->ntask, per_home[MAX_CPUS + 1] = {0};
    for (int i = 1; i <= T; i++) {
        Task *t = &g->task[i];
        memset(t, 0, sizeof *t);
        t->id = i;
        if (i <= C) {
            t->role = ROLE_LOG, t->home = i, t->pri = LOG_PRI;
        } else if (i > T - C) {
            t->role = ROLE_MAIN, t->home = i - (T - C), t->pri = MAIN_PRI;
        } else {
            t->role = ROLE_WORKER, t->home = 1 + (i - C - 1) % C;
            t->index = ++per_home[t->home];
            t->pri = t->index % 3 == 0 ? WORKER_PRI + 1 : WORKER_PRI;
        }
        t->prc = t->home;
        t->st = t->role == ROLE_WORKER ? DORMANT : RUNNABLE;   /* TA_ACT or not */
        t->fresh = true;
        if (t->st == RUNNABLE) enqueue_tail(g, t);
    }
}

static void init_cpus(Gen *g)
{
    uint64_t base = 1000000 + rnd(g, 1000000);
    for (int p = 1; p <= g->ncpu; p++) {
        Cpu *c = &g->cpu[p];
        memset(c, 0, sizeof *c);
        c->id = p;
        c->now = base + rnd(g, 2000);
        c->next_tick = c->now + TICK / 2 + rnd(g, TICK / 2);
        c->next_sio = c->now + (uint64_t)(SIO_MIN + rnd(g, SIO_MAX)) * TICK;
        c->next_wake = UINT64_MAX;
        c->sem_work = 1;          /* the workers' semaphore starts free */
    }
}

/* The kernel starts: FMP processors announce themselves, then every
 * processor dispatches its best task (the log task). */
static void boot(Gen *g)
{
    for (int p = 1; p <= g->ncpu; p++) {
        Cpu *c = &g->cpu[p];
        if (g->fmp) {
            emit_unread(g, c, "Processor %d start.", p);
            emit_unread(g, c, "local_inirtn exinf = %d, counter = %d", p, p);
        }
        schedule(g, c);
    }
}

static void generate(Gen *g)
{
    g->buf = malloc(OUT_CAP);
    if (!g->buf) {
        fprintf(stderr, "tlv-gen: out of memory\n");
        exit(1);
    }
    init_tasks(g);
    init_cpus(g);
    g->done = g->lines == 0;
    if (!g->done) boot(g);
    while (!g->done) run_one(g);
    out_flush(g);
    free(g->buf);
}

/* ---- --emit-res: the resource file naming what the log can name */

static void task_res_name(Gen *g, const Task *t, char *dst)
{
    const char *sfx = g->fmp ? "_PRC" : "";
    char *p = dst;
    if (t->role == ROLE_WORKER) {
        p = put_int(strcpy(p, "TASK") + 4, g->fmp ? t->home : t->index, 0);
        if (g->fmp) { *p++ = '_'; p = put_int(p, t->index, 0); }
        *p = '\0';
        return;
    }
    strcpy(p, t->role == ROLE_LOG ? "LOGTASK" : "MAIN_TASK");
    strcat(p, sfx);
    if (g->fmp) {
        p += strlen(p);
        *put_int(p, t->home, 0) = '\0';
    }
}

static void res_task(Gen *g, FILE *f, const Task *t, bool last)
{
    static const char *const fn[] = {"logtask_main", "task", "main_task"};
    char name[32];
    task_res_name(g, t, name);
    fprintf(f, "\t\t\"%s\":{\n\t\t\t\"Type\":\"Task\",\n\t\t\t\"Attributes\":\n\t\t\t{\n", name);
    if (g->fmp) fprintf(f, "\t\t\t\t\"prcId\" :%d,\n", t->home);
    fprintf(f, "\t\t\t\t\"id\"    :%d,\n", t->id);
    fprintf(f, "\t\t\t\t\"atr\"   :\"%s\",\n", t->role == ROLE_WORKER ? "TA_NULL" : "TA_ACT");
    fprintf(f, "\t\t\t\t\"pri\"   :%d,\n", t->pri);
    if (t->role == ROLE_WORKER) fprintf(f, "\t\t\t\t\"exinf\" :\"%d\",\n", t->index);
    else fprintf(f, "\t\t\t\t\"exinf\" :\"%d\",\n", g->fmp ? t->home : 0);
    fprintf(f, "\t\t\t\t\"task\"  :\"%s\",\n", fn[t->role]);
    fprintf(f, "\t\t\t\t\"stksz\" :%d,\n", t->role == ROLE_LOG ? 1024 : 4096);
    fprintf(f, "\t\t\t\t\"stk\"   :\"NULL\",\n");
    fprintf(f, "\t\t\t\t\"state\" :\"%s\"\n", STATE_NAME[t->st]);
    fprintf(f, "\t\t\t}\n\t\t}%s\n", last ? "" : ",");
}

/* A resource with only an id, a state and (FMP) its processor attribute. */
static void res_handler(Gen *g, FILE *f, const char *name, const char *type,
                        const char *prc_attr, int prc, int id)
{
    fprintf(f, "\t\t\"%s\":{\n\t\t\t\"Type\":\"%s\",\n\t\t\t\"Attributes\":\n\t\t\t{\n", name, type);
    if (g->fmp) fprintf(f, "\t\t\t\t\"%s\" :%d,\n", prc_attr, prc);
    fprintf(f, "\t\t\t\t\"id\"    :%d,\n\t\t\t\t\"state\" :\"DORMANT\"\n\t\t\t}\n\t\t},\n", id);
}

static void res_applog(FILE *f, const char *name, const char *type, const char *id, bool last)
{
    fprintf(f, "\t\t\"%s\":{\n\t\t\t\"Type\":\"%s\",\n\t\t\t\"Attributes\":\n\t\t\t{\n", name, type);
    fprintf(f, "\t\t\t\t\"id\":\"%s\"\n\t\t\t}\n\t\t}%s\n", id, last ? "" : ",");
}

static void res_header(Gen *g, FILE *f)
{
    const char *k = g->fmp ? "fmp" : "asp";
    fprintf(f, "{\n\t\"TimeScale\" :\"us\",\n\t\"TimeRadix\" :10,\n");
    fprintf(f, "\t\"ConvertRules\"   :[\"%s\"],\n", k);
    /* fmp_core1..4 colour the processor a task belongs to (corpus rules). */
    if (g->fmp && g->ncpu <= 4)
        fprintf(f, "\t\"VisualizeRules\" :[\"toppers\",\"fmp\",\"fmp_core%d\"],\n", g->ncpu);
    else
        fprintf(f, "\t\"VisualizeRules\" :[\"toppers\",\"%s\"],\n", k);
    fprintf(f, "\t\"ResourceHeaders\":[\"%s\"],\n\t\"Resources\":\n\t{\n", k);
}

static void res_contexts(Gen *g, FILE *f)
{
    for (int p = 1; p <= g->ncpu; p++) {
        if (g->fmp) fprintf(f, "\t\t\"CurrentContext_PRC%d\":{\n", p);
        else fprintf(f, "\t\t\"CurrentContext\":{\n");
        fprintf(f, "\t\t\t\"Type\":\"Context\",\n\t\t\t\"Attributes\":\n\t\t\t{\n"
                   "\t\t\t\t\"name\"  : \"None\"\n\t\t\t}\n\t\t},\n");
    }
}

static void res_handlers(Gen *g, FILE *f)
{
    static const struct { const char *name; int id; } inh[] = {
        {"INH_TIMER", INH_TIMER}, {"INH_SIO", INH_SIO}, {"INH_IPI", INH_IPI}};
    char name[48];
    int ninh = g->fmp ? 3 : 2;    /* ASP has no inter-processor interrupt */
    for (int p = 1; p <= g->ncpu; p++) {
        for (int i = 0; i < ninh; i++) {
            if (g->fmp) snprintf(name, sizeof name, "%s_PRC%d", inh[i].name, p);
            else snprintf(name, sizeof name, "%s", inh[i].name);
            res_handler(g, f, name, "InterruptHandler", "prcIdI", p, inh[i].id);
        }
        snprintf(name, sizeof name, "CYCHDR%d", cyc_id(g, p));
        res_handler(g, f, name, "CyclicHandler", "prcIdC", p, cyc_id(g, p));
        snprintf(name, sizeof name, "ALMHDR%d", cyc_id(g, p));
        res_handler(g, f, name, "AlarmHandler", "prcIdA", p, cyc_id(g, p));
    }
}

static void emit_res(Gen *g, FILE *f)
{
    init_tasks(g);
    res_header(g, f);
    res_contexts(g, f);
    for (int i = 1; i <= g->ntask; i++) res_task(g, f, &g->task[i], false);
    res_handlers(g, f);
    res_applog(f, "APP_LOG1", "ApplogString", "1", false);
    res_applog(f, "APP_LOG2", "ApplogString", "2", false);
    res_applog(f, "USER_STATE", "ApplogState", "1", true);
    fprintf(f, "\t}\n}\n");
}

/* ---- command line */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: tlv-gen [--kernel asp|fmp] [--lines N] [--seed S] [--tasks T]\n"
        "               [--cpus C] [--crlf] [--console] [--slower ID:PCT] [--emit-res]\n"
        "               [-o FILE]\n"
        "Writes a TOPPERS/ASP or TOPPERS/FMP kernel trace log of exactly N lines\n"
        "(default 1000), the same bytes for the same options and seed (default 1).\n"
        "  --kernel   asp (default; one processor) or fmp (lines \"[t]:[prc]: ...\")\n"
        "  --tasks    number of tasks, ids 1..T (asp: 3..%d, default 5;\n"
        "             fmp: 3*C..%d, default 4*C): per processor a log task (ids 1..C),\n"
        "             a main task (the last C ids) and the workers between\n"
        "  --cpus     fmp processors, 1..%d (default 2); asp has exactly 1\n"
        "  --crlf     end lines with CR LF, as the logs TOPPERS targets write\n"
        "  --console  mix in the lines no conversion rule reads, as real logs have\n"
        "             them (the sample program's output, \"dispatch from task N.\"):\n"
        "             about 9%% of the lines; without it every line converts\n"
        "  --emit-res print the resource file (.res) declaring every resource a log\n"
        "             made with the same --kernel/--tasks/--cpus names, and exit\n"
        "  --slower ID:PCT  task ID's work takes PCT %% of its time (150: half as\n"
        "             long again): a slower run of the same program, for tlv diff\n"
        "  -o FILE    write to FILE instead of standard output\n",
        MAX_TASKS, MAX_TASKS, MAX_CPUS);
}

static bool parse_u64(const char *s, uint64_t *v)
{
    if (!s || !*s || *s == '-') return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end) return false;
    *v = x;
    return true;
}

static void die_usage(const char *msg, const char *arg)
{
    fprintf(stderr, "tlv-gen: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    usage(stderr);
    exit(2);
}

/* Accepts "--opt value" and "--opt=value". */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != '\0') return NULL;
    if (*i + 1 >= argc) die_usage("missing value for", name);
    return argv[++*i];
}

static void parse_option(Gen *g, int argc, char **argv, int *i, uint64_t *tasks, uint64_t *cpus)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); exit(0); }
    if (!strcmp(a, "--crlf")) { g->crlf = true; return; }
    if (!strcmp(a, "--emit-res")) { g->emit_res = true; return; }
    if (!strcmp(a, "--console")) { g->console = true; return; }
    if ((v = opt_value(argc, argv, i, "--kernel"))) {
        if (strcmp(v, "asp") && strcmp(v, "fmp")) die_usage("unknown kernel", v);
        g->fmp = !strcmp(v, "fmp");
    } else if ((v = opt_value(argc, argv, i, "--lines"))) {
        if (!parse_u64(v, &g->lines)) die_usage("bad --lines", v);
    } else if ((v = opt_value(argc, argv, i, "--seed"))) {
        if (!parse_u64(v, &g->seed)) die_usage("bad --seed", v);
    } else if ((v = opt_value(argc, argv, i, "--tasks"))) {
        if (!parse_u64(v, tasks) || *tasks == 0) die_usage("bad --tasks", v);
    } else if ((v = opt_value(argc, argv, i, "--cpus"))) {
        if (!parse_u64(v, cpus) || *cpus == 0) die_usage("bad --cpus", v);
    } else if ((v = opt_value(argc, argv, i, "--slower"))) {
        const char *colon = strchr(v, ':');
        char id[32];
        if (!colon || (size_t)(colon - v) >= sizeof id) die_usage("bad --slower (ID:PCT)", v);
        memcpy(id, v, (size_t)(colon - v));
        id[colon - v] = '\0';
        if (!parse_u64(id, &g->slower_id) || !g->slower_id ||
            !parse_u64(colon + 1, &g->slower_pct) || !g->slower_pct || g->slower_pct > 100000)
            die_usage("bad --slower (ID:PCT)", v);
    } else if ((v = opt_value(argc, argv, i, "-o"))) {
        g->out_path = v;
    } else {
        die_usage("unknown option", a);
    }
}

static void check_shape(Gen *g, uint64_t tasks, uint64_t cpus)
{
    if (!g->fmp && cpus && cpus != 1) die_usage("asp has exactly one processor", NULL);
    if (cpus > MAX_CPUS) die_usage("too many processors", NULL);
    g->ncpu = g->fmp ? (cpus ? (int)cpus : 2) : 1;
    uint64_t min = g->fmp ? 3 * (uint64_t)g->ncpu : 3;
    if (!tasks) tasks = g->fmp ? 4 * (uint64_t)g->ncpu : 5;
    if (tasks < min || tasks > MAX_TASKS) {
        fprintf(stderr, "tlv-gen: --tasks must be %d..%d for this kernel and processor count\n",
                (int)min, MAX_TASKS);
        exit(2);
    }
    g->ntask = (int)tasks;
    if (g->slower_id > tasks) die_usage("--slower names no task", NULL);
}

static void parse_args(Gen *g, int argc, char **argv)
{
    uint64_t tasks = 0, cpus = 0;
    g->lines = 1000;
    g->seed = 1;
    for (int i = 1; i < argc; i++) parse_option(g, argc, argv, &i, &tasks, &cpus);
    check_shape(g, tasks, cpus);
    uint64_t s = g->seed;
    g->rng = splitmix64(&s);
    if (!g->rng) g->rng = 1;      /* xorshift must not start at zero */
}

int main(int argc, char **argv)
{
    static Gen gen;               /* large: keep it off the stack */
    Gen *g = &gen;
    parse_args(g, argc, argv);
    g->out = stdout;
    if (g->out_path && !(g->out = fopen(g->out_path, "wb"))) {
        fprintf(stderr, "tlv-gen: cannot open %s: %s\n", g->out_path, strerror(errno));
        return 1;
    }
    if (g->emit_res) emit_res(g, g->out);
    else generate(g);
    if (ferror(g->out) || (g->out != stdout ? fclose(g->out) : fflush(g->out)) != 0) {
        fprintf(stderr, "tlv-gen: write failed: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
