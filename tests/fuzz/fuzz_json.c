/*
 * fuzz_json.c — libFuzzer target: the TLV JSON dialect reader (tj_parse) on
 * any bytes, then a walk of the tree it returns, so that every node, key and
 * position it builds is read at least once under ASan.
 */
#include "base/json.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Reads every node, with an explicit stack bound by TJ_MAX_DEPTH. */
static size_t walk(const tj_node *n, int depth)
{
    size_t sum = 0;
    if (depth > TJ_MAX_DEPTH + 1)
        __builtin_trap(); /* the reader promised to reject deeper input */
    for (; n; n = n->next) {
        sum += (size_t)n->type + (size_t)n->line + (size_t)n->col + n->str_len;
        if (n->key)
            sum += strlen(n->key) + (tj_shadowed(n) ? 1 : 0);
        if (n->str && n->str_len)
            sum += (unsigned char)n->str[n->str_len - 1];
        sum += strlen(tj_type_name(n->type));
        if (n->type == TJ_OBJECT && n->child && n->child->key)
            sum += tj_get(n, n->child->key) != NULL;
        sum += walk(n->child, depth + 1);
    }
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tj_error err;
    tj_node *root = tj_parse((const char *)data, size, &err);
    if (!root) {
        if (!memchr(err.message, '\0', sizeof err.message) || err.line < 1 || err.col < 1)
            __builtin_trap(); /* every error names its place */
        return 0;
    }
    volatile size_t sink = walk(root, 0);
    (void)sink;
    tj_free(root);
    return 0;
}
