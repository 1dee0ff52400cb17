/*
 * stats_table.h — the aligned text tables `tlv stats` prints (cmd_stats.c
 * owns them; stats_calls.c prints its sections with them too).
 */
#ifndef TLV_VIEWER_STATS_TABLE_H
#define TLV_VIEWER_STATS_TABLE_H

#include <stdio.h>

#define CELL 96

/* A text table: the first `left` columns aligned left, the others right. */
typedef struct table {
    char (*cells)[CELL];
    size_t ncols, nrows, cap, left;
} table;

/* Adds an empty row; its index, or -1 when memory ran out. */
int table_add_row(table *t);
/* Sets a cell to text, or to a number for people (up to 3 decimals). */
void table_set(table *t, int row, size_t col, const char *text);
void table_set_num(table *t, int row, size_t col, double x);
/* Prints the table with aligned columns and empties it. */
void table_print(FILE *out, table *t);

#endif
