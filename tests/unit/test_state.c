/*
 * test_state.c — attribute histories (libtlv/src/state.c) and interned
 * strings (libtlv/src/intern.c): the value at a time with changes given in
 * and out of time order, ties at one time decided by sequence (the later
 * line wins), the sequence limit, the initial value before the first change,
 * logs whose time jumps back (sorted runs, against a scan of every change);
 * stable string ids, id 0 = "", many strings, find versus add.
 */
#include "check.h"

#include "base/intern.h"
#include "world/state.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static tlv_time T(int64_t ticks) { return (tlv_time){ticks, 0}; }
static tlv_time TF(int64_t ticks, uint64_t frac) { return (tlv_time){ticks, frac}; }

#define AT(h, t) history_at(&(h), T(t), SEQ_ALL)

static void test_in_order(void)
{
    history h = {0};
    h.init = 7;
    /* before any change: the initial value */
    CHECK_INT(AT(h, 0), 7);
    CHECK_INT(history_last(&h), 7);
    CHECK_INT(history_set(&h, T(10), 0, 1), 0);
    CHECK_INT(history_set(&h, T(20), 1, 2), 0);
    CHECK_INT(history_set(&h, T(30), 2, 3), 0);
    CHECK_INT(h.n, 3);
    CHECK_INT(AT(h, -5), 7);
    CHECK_INT(AT(h, 9), 7);
    CHECK_INT(AT(h, 10), 1); /* a change counts at its own time */
    CHECK_INT(AT(h, 15), 1);
    CHECK_INT(AT(h, 20), 2);
    CHECK_INT(AT(h, 29), 2);
    CHECK_INT(AT(h, 30), 3);
    CHECK_INT(AT(h, INT64_MAX), 3);
    CHECK_INT(history_last(&h), 3);
    /* fractions order within a tick */
    CHECK_INT(history_at(&h, TF(9, 999), SEQ_ALL), 7);
    CHECK_INT(history_at(&h, TF(10, 1), SEQ_ALL), 1);
    history_free(&h);
    CHECK_INT(h.n, 0);
    CHECK(h.c == NULL);
}

static void test_out_of_order(void)
{
    history h = {0};
    /* a multi-core log: times arrive 30, 10, 20, 5, 40, 25 */
    CHECK_INT(history_set(&h, T(30), 0, 30), 0);
    CHECK_INT(history_set(&h, T(10), 1, 10), 0);
    CHECK_INT(history_set(&h, T(20), 2, 20), 0);
    CHECK_INT(history_set(&h, T(5), 3, 5), 0);
    CHECK_INT(history_set(&h, T(40), 4, 40), 0);
    CHECK_INT(history_set(&h, T(25), 5, 25), 0);
    CHECK_INT(h.n, 6);
    for (uint32_t i = 1; i < h.n; i++)
        CHECK(tlv_time_cmp(history_time(&h, i - 1), history_time(&h, i)) < 0);
    CHECK_INT(AT(h, 4), 0);
    CHECK_INT(AT(h, 5), 5);
    CHECK_INT(AT(h, 12), 10);
    CHECK_INT(AT(h, 24), 20);
    CHECK_INT(AT(h, 25), 25);
    CHECK_INT(AT(h, 29), 25);
    CHECK_INT(AT(h, 35), 30);
    CHECK_INT(AT(h, 41), 40);
    /* "last" is the latest in time, not the latest given */
    CHECK_INT(history_last(&h), 40);
    CHECK_INT(history_set(&h, T(1), 6, 1), 0);
    CHECK_INT(history_last(&h), 40);
    CHECK_INT(AT(h, 2), 1);
    history_free(&h);

    /* negative times and times with fractions */
    history g = {0};
    g.init = 99;
    CHECK_INT(history_set(&g, TF(-1, 500), 0, 1), 0);  /* -0.5 */
    CHECK_INT(history_set(&g, TF(-2, 0), 1, 2), 0);    /* -2 */
    CHECK_INT(history_set(&g, TF(0, 0), 2, 3), 0);
    CHECK_INT(history_at(&g, T(-3), SEQ_ALL), 99);
    CHECK_INT(history_at(&g, T(-2), SEQ_ALL), 2);
    CHECK_INT(history_at(&g, TF(-1, 499), SEQ_ALL), 2);
    CHECK_INT(history_at(&g, TF(-1, 500), SEQ_ALL), 1);
    CHECK_INT(history_at(&g, T(0), SEQ_ALL), 3);
    history_free(&g);
}

static void test_ties(void)
{
    history h = {0};
    /* three changes at one time: the later sequence number wins */
    CHECK_INT(history_set(&h, T(10), 0, 1), 0);
    CHECK_INT(history_set(&h, T(10), 1, 2), 0);
    CHECK_INT(history_set(&h, T(10), 2, 3), 0);
    CHECK_INT(AT(h, 10), 3);
    CHECK_INT(history_last(&h), 3);
    /* a change given later with a smaller sequence goes before them */
    history g = {0};
    CHECK_INT(history_set(&g, T(10), 5, 50), 0);
    CHECK_INT(history_set(&g, T(10), 3, 30), 0);
    CHECK_INT(AT(g, 10), 50);
    CHECK_INT(history_last(&g), 50);
    /* and one with a larger sequence at an earlier time goes before too */
    CHECK_INT(history_set(&g, T(9), 9, 90), 0);
    CHECK_INT(AT(g, 9), 90);
    CHECK_INT(AT(g, 10), 50);

    /* seq_limit: only changes with seq < limit count at the time itself */
    CHECK_INT(history_at(&h, T(10), 0), 0); /* none of them: initial value */
    CHECK_INT(history_at(&h, T(10), 1), 1);
    CHECK_INT(history_at(&h, T(10), 2), 2);
    CHECK_INT(history_at(&h, T(10), 3), 3);
    /* at a later time every change at 10 counts, whatever the limit */
    CHECK_INT(history_at(&h, T(11), 0), 3);
    /* at an earlier time none does */
    CHECK_INT(history_at(&h, T(9), SEQ_ALL), 0);
    history_free(&h);
    history_free(&g);
}

static void test_many_changes(void)
{
    /* 10000 changes in scrambled order: every time answers its own value */
    history h = {0};
    h.init = UINT32_MAX - 1;
    const uint32_t n = 10000;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = (i * 7919u) % n; /* a permutation of 0..n-1 */
        if (history_set(&h, T(2 * (int64_t)k), i, k) != 0) {
            CHECK(!"history_set failed");
            break;
        }
    }
    CHECK_INT(h.n, n);
    int bad = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (AT(h, 2 * (int64_t)k) != k || AT(h, 2 * (int64_t)k + 1) != k)
            bad++;
    }
    CHECK_INT(bad, 0);
    CHECK_INT(AT(h, -1), UINT32_MAX - 1);
    CHECK_INT(history_last(&h), n - 1);
    history_free(&h);
}

static void test_intern(void)
{
    intern_pool *p = intern_new();
    CHECK(p != NULL);
    if (!p)
        return;
    /* id 0 is the empty string, there from the start */
    CHECK_INT(intern_find(p, "", 0), 0);
    CHECK_INT(intern_add(p, "", 0), 0);
    CHECK_STR(intern_str(p, 0), "");
    CHECK_INT(intern_len(p, 0), 0);

    /* find does not add */
    CHECK_INT(intern_find(p, "RUNNING", 7), UINT32_MAX);
    uint32_t run = intern_add(p, "RUNNING", 7);
    CHECK_INT(run, 1);
    uint32_t rdy = intern_add(p, "READY", 5);
    CHECK_INT(rdy, 2);
    CHECK_INT(intern_find(p, "RUNNING", 7), run);
    CHECK_INT(intern_add(p, "RUNNING", 7), run);
    CHECK_STR(intern_str(p, run), "RUNNING");
    CHECK_INT(intern_len(p, rdy), 5);
    /* lengths count, not NUL: a prefix is another string */
    CHECK_INT(intern_find(p, "RUNNING", 3), UINT32_MAX);
    uint32_t run3 = intern_add(p, "RUNNING", 3);
    CHECK(run3 != run);
    CHECK_STR(intern_str(p, run3), "RUN");
    /* embedded NUL bytes are part of the string */
    uint32_t nul = intern_add(p, "a\0b", 3);
    CHECK(nul != intern_add(p, "a", 1));
    CHECK_INT(intern_len(p, nul), 3);
    CHECK(memcmp(intern_str(p, nul), "a\0b", 4) == 0);

    /* many strings (several rehashes, several storage chunks): ids stay
     * stable and the texts stay where they were */
    const char *first = intern_str(p, run);
    char text[64];
    uint32_t ids[50000];
    for (int i = 0; i < 50000; i++) {
        int n = snprintf(text, sizeof text, "value-%d-%0*d", i, i % 40, 0);
        ids[i] = intern_add(p, text, (size_t)n);
    }
    int bad = 0;
    for (int i = 0; i < 50000; i++) {
        int n = snprintf(text, sizeof text, "value-%d-%0*d", i, i % 40, 0);
        if (ids[i] == UINT32_MAX || intern_find(p, text, (size_t)n) != ids[i] ||
            intern_add(p, text, (size_t)n) != ids[i] || intern_len(p, ids[i]) != (size_t)n ||
            strcmp(intern_str(p, ids[i]), text) != 0)
            bad++;
        if (i && ids[i] != ids[i - 1] + 1)
            bad++;
    }
    CHECK_INT(bad, 0);
    CHECK(intern_str(p, run) == first);
    CHECK_INT(intern_find(p, "RUNNING", 7), run);
    CHECK_INT(intern_find(p, "", 0), 0);
    /* a long string, longer than a storage chunk */
    static char big[100000];
    memset(big, 'x', sizeof big - 1);
    uint32_t bid = intern_add(p, big, sizeof big - 1);
    CHECK(bid != UINT32_MAX);
    CHECK_INT(intern_len(p, bid), sizeof big - 1);
    CHECK(strcmp(intern_str(p, bid), big) == 0);
    CHECK_INT(intern_find(p, big, sizeof big - 1), bid);
    CHECK_STR(intern_str(p, rdy), "READY");
    intern_free(p);
    intern_free(NULL);

    /* SipHash-1-3 under the reference key 00..0f (values of a reference
     * model that gives the published SipHash-2-4 vectors with 2 and 4 rounds) */
    hash_key k = {0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};
    char msg[15];
    for (int i = 0; i < 15; i++)
        msg[i] = (char)i;
    CHECK(hash_keyed(&k, "", 0) == 0xabac0158050fc4dcULL);
    CHECK(hash_keyed(&k, msg, 15) == 0xd320d86d2a519956ULL);
    CHECK(hash_keyed(&k, "tlv resource name", 17) == 0x2750d0964fad72feULL);
    /* each pool has its own key: the same text hashes differently */
    intern_pool *p1 = intern_new(), *p2 = intern_new();
    CHECK(intern_hash(p1, "abc", 3) == intern_hash(p1, "abc", 3));
    CHECK(intern_hash(p1, "abc", 3) != intern_hash(p2, "abc", 3));
    CHECK(intern_hash(p1, "abc", 3) != intern_hash(p1, "abd", 3));
    intern_free(p1);
    intern_free(p2);
}

/* The unkeyed multiply-xorshift hash the pool used before: kept here to
 * show that the names of test_intern_collisions all collided under it. */
static uint64_t old_hash(const char *s, size_t n)
{
    const uint64_t k = 0x9e3779b97f4a7c15ULL;
    uint64_t h = (uint64_t)n * k;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * k;
    h ^= h >> 29;
    return h * k ^ (h >> 32);
}

/* Names crafted against an unkeyed hash: 16 bytes, the second word chosen to
 * cancel the state the first left, so every name has the same 64-bit hash
 * (and a table probes past all earlier ones: quadratic time). With the
 * pool's keyed hash they intern as any names do. */
static void test_intern_collisions(void)
{
    enum { N = 20000 };
    const uint64_t k = 0x9e3779b97f4a7c15ULL, target = 0x0123456789abcdefULL;
    static char names[N][16];
    for (int i = 0; i < N; i++) {
        uint64_t w1 = 0x656d616e6b736174ULL + (uint64_t)i; /* "taskname" + i */
        uint64_t h = ((uint64_t)16 * k ^ w1) * k;
        h ^= h >> 32;
        uint64_t w2 = h ^ target;
        memcpy(names[i], &w1, 8);
        memcpy(names[i] + 8, &w2, 8);
    }
    int same_old = 0;
    for (int i = 1; i < N; i++)
        same_old += old_hash(names[i], 16) == old_hash(names[0], 16);
    CHECK_INT(same_old, N - 1); /* the attack works on the old hash */

    intern_pool *p = intern_new();
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += intern_add(p, names[i], 16) != (uint32_t)i + 1; /* id 0 is "" */
    for (int i = 0; i < N; i++)
        bad += intern_find(p, names[i], 16) != (uint32_t)i + 1 ||
               memcmp(intern_str(p, (uint32_t)i + 1), names[i], 16) != 0;
    CHECK_INT(bad, 0);
    CHECK_INT(intern_count(p), N + 1);
    /* and they spread over the table: a 16-bit slot index is shared by few */
    static unsigned char used[1 << 16];
    memset(used, 0, sizeof used);
    int distinct = 0;
    for (int i = 0; i < N; i++) {
        unsigned slot = (unsigned)(intern_hash(p, names[i], 16) & 0xFFFF);
        distinct += !used[slot];
        used[slot] = 1;
    }
    CHECK(distinct > N * 8 / 10); /* about N * 0.86 expected at random */
    intern_free(p);
}

/* A change as the reference keeps it. */
typedef struct ref_change {
    tlv_time t;
    uint32_t seq, val;
} ref_change;

/* The value at (at, limit) by looking at every change: the reference. */
static uint32_t naive_at(const ref_change *all, size_t n, uint32_t init, tlv_time at,
                         uint32_t limit)
{
    const ref_change *best = NULL;
    for (size_t i = 0; i < n; i++) {
        int k = tlv_time_cmp(all[i].t, at);
        if (k > 0 || (k == 0 && all[i].seq >= limit))
            continue;
        if (!best || tlv_time_cmp(best->t, all[i].t) < 0 ||
            (tlv_time_cmp(best->t, all[i].t) == 0 && best->seq < all[i].seq))
            best = &all[i];
    }
    return best ? best->val : init;
}

static uint32_t rng_state = 12345;
static uint32_t rng(void) { return rng_state = rng_state * 1103515245u + 12345u; }

/* Logs whose time jumps back (resets), drifts back a little (multi-core) or
 * is random, with whole times or fractions (kept apart from the changes
 * from the first one on): the sorted runs answer exactly like a scan of
 * every change, after every insertion, and there are never more than
 * HISTORY_MAX_RUNS. */
static void test_time_jumps_back(void)
{
    for (int pattern = 0; pattern < 4; pattern++) {
        history h = {0};
        h.init = 999999;
        ref_change all[3000];
        int64_t t = 0;
        uint32_t most_runs = 0;
        for (uint32_t i = 0; i < 3000; i++) {
            if (pattern == 0)
                t = i % 700 == 0 ? (int64_t)(rng() % 50) : t + 1 + (int64_t)(rng() % 3);
            else if (pattern == 1)
                t = (int64_t)i * 4 - (int64_t)(rng() % 300);
            else
                t = (int64_t)(rng() % 2000);
            tlv_time at = T(t);
            if (pattern == 3 && i >= 100) /* whole times first, then fractions */
                at.frac = (uint64_t)(rng() % 4) * 250000000000000000ull;
            all[i] = (ref_change){at, i, i};
            CHECK_INT(history_set(&h, at, i, i), 0);
            CHECK(h.nruns <= HISTORY_MAX_RUNS);
            most_runs = h.nruns > most_runs ? h.nruns : most_runs;
            tlv_time q = T((int64_t)(rng() % 3000) - 10);
            q.frac = pattern == 3 ? (uint64_t)(rng() % 4) * 250000000000000000ull : 0;
            uint32_t limit = rng() % 2 ? SEQ_ALL : rng() % (i + 1);
            CHECK_INT(history_at(&h, q, limit), naive_at(all, i + 1, h.init, q, limit));
        }
        for (int64_t q = -5; q < 12100; q += 7)
            CHECK_INT(history_at(&h, T(q), SEQ_ALL), naive_at(all, 3000, h.init, T(q), SEQ_ALL));
        CHECK_INT(history_last(&h), naive_at(all, 3000, h.init, T(INT64_MAX), SEQ_ALL));
        /* a small drift is moved into place; jumps start runs */
        CHECK(pattern == 1 ? most_runs == 0 : most_runs > 1);
        CHECK((h.frac != NULL) == (pattern == 3));
        history_free(&h);
        CHECK(h.runs == NULL);
    }
}

int main(void)
{
    test_in_order();
    test_out_of_order();
    test_ties();
    test_many_changes();
    test_time_jumps_back();
    test_intern();
    test_intern_collisions();
    return CHECK_DONE();
}
