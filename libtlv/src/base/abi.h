/*
 * abi.h — how the library reads and fills public structs of callers built
 * against another version of the headers (the policy is in tlv.h, "ABI").
 * Input structs begin with `size_t struct_size`: the caller's sizeof, or 0
 * for the first published layout (0.1); the library takes what that size
 * covers and defaults for the rest. Output structs are filled through
 * *_sized functions told the caller's sizeof: an older, shorter layout gets
 * the prefix it has room for.
 */
#ifndef TLV_ABI_H
#define TLV_ABI_H

#include <stddef.h>
#include <string.h>

/* The caller's struct `in` (NULL: none) over `full`, which holds the
 * defaults and has `full_size` bytes; `base_size` is the 0.1 layout's size,
 * taken when in->struct_size is 0. full->struct_size becomes full_size. */
static inline void abi_read_in(void *full, size_t full_size, const void *in, size_t base_size)
{
    if (in) {
        size_t size;
        memcpy(&size, in, sizeof size);
        if (size == 0)
            size = base_size;
        memcpy(full, in, size < full_size ? size : full_size);
    }
    memcpy(full, &full_size, sizeof full_size);
}

/* Gives the caller the first `size` bytes of the library's full struct. */
static inline void abi_write_out(void *out, size_t size, const void *full, size_t full_size)
{
    memcpy(out, full, size < full_size ? size : full_size);
}

/* The body of a *_sized function: fill(args..., out) fills a whole struct
 * T; a caller's shorter (older) layout of `size` bytes gets its prefix. */
#define ABI_FILL_OUT(T, fill, out, size, ...)                                  \
    do {                                                                       \
        if ((size) >= sizeof(T)) {                                             \
            fill(__VA_ARGS__, (out));                                          \
            return;                                                            \
        }                                                                      \
        T full_;                                                               \
        memset(&full_, 0, sizeof full_);                                       \
        fill(__VA_ARGS__, &full_);                                             \
        abi_write_out((out), (size), &full_, sizeof full_);                    \
    } while (0)

/* The end of member m of struct type T: the size of a layout ending there. */
#define ABI_END(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))

/* The 0.1 layouts of the input structs (struct_size 0). */
#define ABI_RULES_OPTIONS_0_1 ABI_END(tlv_rules_options, allow_scripts)
#define ABI_SHAPES_OPTIONS_0_1 ABI_END(tlv_shapes_options, n_skip_rules)
#define ABI_STATS_OPTIONS_0_1 ABI_END(tlv_stats_options, running_value)
#define ABI_VIEW_0_1 ABI_END(tlv_view, row_count)

#endif
