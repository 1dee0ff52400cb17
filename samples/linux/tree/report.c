/* report.c — prints each distinct word with its count. */
#include "tree.h"
#include <stdio.h>
#include <string.h>
void report(const char **words, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && strcmp(words[j], words[i]) != 0)
            j++;
        if (j == i)
            printf("%s %zu\n", words[i], table_count(words[i]));
    }
}
