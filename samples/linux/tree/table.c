/* table.c — a tiny word-count table. */
#include "tree.h"
#include <string.h>
static struct { const char *word; size_t count; } table[32];
static size_t used;
void table_add(const char *word)
{
    for (size_t i = 0; i < used; i++)
        if (strcmp(table[i].word, word) == 0) {
            table[i].count++;
            return;
        }
    if (used < 32)
        table[used++] = (typeof(table[0])){word, 1};
}
size_t table_count(const char *word)
{
    for (size_t i = 0; i < used; i++)
        if (strcmp(table[i].word, word) == 0)
            return table[i].count;
    return 0;
}
