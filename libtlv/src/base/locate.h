/*
 * locate.h — finding the installed rules directory from where libtlv's code
 * was loaded, so an installation made with `cmake --install --prefix DIR`
 * (or moved after installing) finds its own rules.
 */
#ifndef TLV_LOCATE_H
#define TLV_LOCATE_H

#include <stddef.h>

/* Writes into out the first existing directory among: the rules directory
 * relative to the file holding this code (libtlv.so in the library
 * directory, or a program linked with libtlv.a in the program directory),
 * relative to the running program, and the directory configured at build
 * time. Returns 1, or 0 when none exists. */
int locate_installed_rules(char *out, size_t size);

#endif
