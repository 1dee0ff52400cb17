/*
 * assert.h — TLV_ASSERT(cond): the library's invariants (a frozen store is
 * not added to, a history stays in time order, ...) checked in debug builds.
 * Active when NDEBUG is not defined (CMAKE_BUILD_TYPE Debug, as the ASan
 * build is): a false condition prints "libtlv: FILE:LINE: FUNCTION:
 * invariant failed: COND" on standard error and aborts, at the place the
 * bug shows rather than later. Compiled out with NDEBUG (Release and
 * RelWithDebInfo): the condition is not evaluated, so it must have no
 * effect. Not for bad input: that gets a diagnostic and a status.
 */
#ifndef TLV_ASSERT_H
#define TLV_ASSERT_H

#ifndef NDEBUG
/* Prints what failed and where, then aborts. */
void tlv__assert_fail(const char *cond, const char *file, int line, const char *func)
    __attribute__((noreturn));
#define TLV_ASSERT(cond) \
    ((cond) ? (void)0 : tlv__assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define TLV_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#endif
