/*
 * replay.c — a main() for a fuzz target outside libFuzzer: runs the target
 * once on every file of the directories (or files) named on the command
 * line, in name order. ctest builds each target with it (gcc, and the
 * ASan+UBSan build) and replays tests/fuzz/seeds/TARGET and
 * tests/fuzz/regress/TARGET, the inputs that once crashed, so every crash
 * fuzzing found stays a regression test. A missing directory is skipped.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static size_t replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        exit(1);
    }
    uint8_t *data = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *p = realloc(data, cap);
            if (!p)
                exit(1);
            data = p;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    fprintf(stderr, "replay: %s\n", path); /* names the input if it crashes */
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    replayed++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char **p = realloc(names, (n + 1) * sizeof *names);
        if (!p)
            exit(1);
        names = p;
        names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (!names[n])
            exit(1);
        sprintf(names[n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        replay_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            replay_dir(argv[i]);
        else
            replay_file(argv[i]);
    }
    printf("replayed %zu inputs without a crash\n", replayed);
    return 0;
}
