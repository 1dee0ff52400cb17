/* parse.c — splits a text into words (pointers into a static copy). */
#include "tree.h"
#include <string.h>
size_t parse_words(const char *text, const char **words, size_t max)
{
    static char copy[256];
    strncpy(copy, text, sizeof copy - 1);
    size_t n = 0;
    for (char *w = strtok(copy, " "); w && n < max; w = strtok(NULL, " "))
        words[n++] = w;
    return n;
}
