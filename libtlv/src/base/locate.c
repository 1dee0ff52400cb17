/*
 * locate.c — the installed rules directory, looked for next to the code
 * before the path configured at build time: `cmake --install --prefix DIR`
 * installs elsewhere than the configured prefix, and an installed tree may
 * be moved. The relative paths (TLV_RULES_FROM_LIBDIR, _BINDIR) come from
 * the GNUInstallDirs layout, see CMakeLists.txt.
 */
#define _GNU_SOURCE /* dladdr */

#include "base/locate.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dirname(file) + "/" + rel, if that is a directory. */
static int try_near(const char *file, const char *rel, char *out, size_t size)
{
    const char *slash = strrchr(file, '/');
    if (!slash)
        return 0;
    int n = snprintf(out, size, "%.*s/%s", (int)(slash - file), file, rel);
    return n > 0 && (size_t)n < size && is_dir(out);
}

int locate_installed_rules(char *out, size_t size)
{
    Dl_info info;
    if (dladdr((void *)locate_installed_rules, &info) && info.dli_fname &&
        try_near(info.dli_fname, TLV_RULES_FROM_LIBDIR, out, size))
        return 1;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (try_near(exe, TLV_RULES_FROM_BINDIR, out, size))
            return 1;
    }
    if (!is_dir(TLV_INSTALLED_RULES_DIR))
        return 0;
    snprintf(out, size, "%s", TLV_INSTALLED_RULES_DIR);
    return 1;
}
