/* tree.h — the parts of the small build demo (samples/linux/tree). */
#ifndef TREE_H
#define TREE_H
#include <stddef.h>
size_t parse_words(const char *text, const char **words, size_t max);
void table_add(const char *word);
size_t table_count(const char *word);
void report(const char **words, size_t n);
#endif
