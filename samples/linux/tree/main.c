/* main.c — counts the words of a fixed text and prints the counts. */
#include "tree.h"
int main(void)
{
    static const char text[] = "the quick brown fox jumps over the lazy dog the end";
    const char *words[32];
    size_t n = parse_words(text, words, 32);
    for (size_t i = 0; i < n; i++)
        table_add(words[i]);
    report(words, n);
    return 0;
}
