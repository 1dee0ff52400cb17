/*
 * test_assert.c — TLV_ASSERT (base/assert.h): in a debug build a false
 * invariant aborts, naming its file, line, function and condition; with
 * NDEBUG (Release, RelWithDebInfo) the condition is not even evaluated.
 */
#include "base/assert.h"

#include "check.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static int evaluated;

static int count_evaluation(void) { return ++evaluated; }

#ifndef NDEBUG
static const int assert_line = __LINE__ + 3; /* the TLV_ASSERT's */
static void fail_on_purpose(int two)
{
    TLV_ASSERT(1 + 1 == two + 1);
}

/* Runs fail_on_purpose(2) in a child: it must die of SIGABRT after one line
 * on standard error. */
static void test_fails(void)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        fail_on_purpose(2);
        _exit(0); /* not reached when it works */
    }
    close(fd[1]);
    char msg[1000];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof msg - 1 && (got = read(fd[0], msg + n, sizeof msg - 1 - n)) > 0)
        n += (size_t)got;
    msg[n] = 0;
    close(fd[0]);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    char want[600];
    snprintf(want, sizeof want,
             "libtlv: %s:%d: fail_on_purpose: invariant failed: 1 + 1 == two + 1\n", __FILE__,
             assert_line);
    CHECK_STR(msg, want);
}
#endif

int main(void)
{
    TLV_ASSERT(count_evaluation() == 1); /* true, when it runs at all */
#ifndef NDEBUG
    CHECK_INT(evaluated, 1);
    test_fails();
    printf("debug build: assertions checked\n");
#else
    CHECK_INT(evaluated, 0);
    printf("NDEBUG build: assertions compiled out (the Debug and ASan builds check them)\n");
#endif
    return CHECK_DONE();
}
