/*
 * test_view_keys.c — the viewer's key tables (view/view_keys.c): a key with
 * a modifier combination claimed by two rows, of the core or of panels, is
 * refused with a message naming the key and both claimants (the viewer
 * then stops at start-up); tables that share a key on different modifiers
 * (l and Shift+L) pass; a key finds the one row that takes it; the F1 help
 * is the rows' help texts, packed into lines of a width, none lost.
 */
#include "check.h"
#include "view/core.h"

static int runs;
static SDL_Keycode ran_key;
static void run(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)p, (void)a, (void)mods;
    runs++;
    ran_key = key;
}

/* The core's and two panels' tables, as the viewer has them. */
static const view_key core_keys[] = {
    {0, 0, "wheel: scroll rows", NULL},
    {SDLK_LEFT, VIEW_KEYS_ANY, "Left/Right: pan", run},
    {SDLK_RIGHT, VIEW_KEYS_ANY, NULL, run},
    {SDLK_m, VIEW_KEYS_PLAIN | VIEW_KEYS_CTRL | VIEW_KEYS_CTRL_SHIFT, "m: marker at the cursor", run},
};
static const view_key legend_keys[] = {
    {SDLK_l, VIEW_KEYS_SHIFT, "L: legend of the colours in view", run},
};
static const view_key log_keys[] = {
    {SDLK_l, VIEW_KEYS_PLAIN | VIEW_KEYS_CTRL, "l: trace-log panel", run},
};
/* A panel written without looking: it takes l with any modifiers. */
static const view_key greedy_keys[] = {
    {SDLK_F3, VIEW_KEYS_PLAIN, "F3: the clock", run},
    {SDLK_l, VIEW_KEYS_ANY, "l: the log, again", run},
};
/* One that claims the core's Right arrow, said by the core's Left row. */
static const view_key arrow_keys[] = {
    {SDLK_RIGHT, VIEW_KEYS_CTRL, "Ctrl+Right: next page", run},
};

static view_panel legend = {.name = "legend"}, logp = {.name = "log"}, greedy = {.name = "greedy"},
                  arrows = {.name = "arrows"};

#define OWNER(name, panel, keys) {name, panel, keys, sizeof keys / sizeof *keys}

static void test_check(void)
{
    char msg[512] = "";
    view_key_owner good[] = {OWNER("view", NULL, core_keys), OWNER("legend", &legend, legend_keys),
                             OWNER("log", &logp, log_keys)};
    CHECK_INT(view_keys_check(good, 3, msg, sizeof msg), 0);
    CHECK_STR(msg, "");

    view_key_owner clash[] = {OWNER("view", NULL, core_keys), OWNER("legend", &legend, legend_keys),
                              OWNER("log", &logp, log_keys), OWNER("greedy", &greedy, greedy_keys)};
    CHECK_INT(view_keys_check(clash, 4, msg, sizeof msg), -1);
    CHECK_STR(msg, "key Shift+L is claimed twice: by the legend panel (L: legend of the colours "
                   "in view) and by the greedy panel (l: the log, again)");

    view_key_owner core_clash[] = {OWNER("view", NULL, core_keys), OWNER("arrows", &arrows, arrow_keys)};
    CHECK_INT(view_keys_check(core_clash, 2, msg, sizeof msg), -1);
    CHECK_STR(msg, "key Ctrl+Right is claimed twice: by the viewer's own keys (Left/Right: pan) "
                   "and by the arrows panel (Ctrl+Right: next page)");

    /* Twice within one table counts too; plain letters are named as typed. */
    static const view_key twice[] = {{SDLK_m, VIEW_KEYS_PLAIN, "m: one", run},
                                     {SDLK_m, VIEW_KEYS_PLAIN | VIEW_KEYS_SHIFT, "m: two", run}};
    view_key_owner self[] = {OWNER("markers", &legend, twice)};
    CHECK_INT(view_keys_check(self, 1, msg, sizeof msg), -1);
    CHECK_STR(msg, "key m is claimed twice: by the markers panel (m: one) and by the markers "
                   "panel (m: two)");
}

static void test_find(void)
{
    view_key_owner owners[] = {OWNER("view", NULL, core_keys), OWNER("legend", &legend, legend_keys),
                               OWNER("log", &logp, log_keys)};
    const view_key_owner *o = NULL;
    const view_key *k = view_keys_find(owners, 3, SDLK_l, VIEW_MOD_SHIFT, &o);
    CHECK(k == &legend_keys[0]);
    CHECK(o && o->panel == &legend);
    k = view_keys_find(owners, 3, SDLK_l, 0, &o);
    CHECK(k == &log_keys[0]);
    CHECK(view_keys_find(owners, 3, SDLK_l, VIEW_MOD_CTRL | VIEW_MOD_SHIFT, &o) == NULL);
    CHECK(view_keys_find(owners, 3, SDLK_m, VIEW_MOD_SHIFT, &o) == NULL); /* Shift+M is no one's here */
    k = view_keys_find(owners, 3, SDLK_RIGHT, VIEW_MOD_CTRL, &o);
    CHECK(k == &core_keys[2]);
    CHECK(o && o->panel == NULL);
    CHECK(view_keys_find(owners, 3, 0, 0, &o) == NULL); /* help-only rows take no key */
    k->run(o->panel, NULL, SDLK_RIGHT, VIEW_MOD_CTRL);
    CHECK_INT(runs, 1);
    CHECK_INT(ran_key, SDLK_RIGHT);
}

static void test_help(void)
{
    view_key_owner owners[] = {OWNER("view", NULL, core_keys), OWNER("legend", &legend, legend_keys),
                               OWNER("log", &logp, log_keys)};
    char *lines[8];
    /* 60 characters: "wheel: scroll rows    Left/Right: pan" (37) takes the next
     * one (+4+23 = 64) no more; the row that Left/Right speaks for adds nothing. */
    size_t n = view_keys_help(owners, 3, 60, NULL, NULL, lines, 8);
    CHECK_INT(n, 3);
    if (n == 3) {
        CHECK_STR(lines[0], "wheel: scroll rows    Left/Right: pan");
        CHECK_STR(lines[1], "m: marker at the cursor    L: legend of the colours in view");
        CHECK_STR(lines[2], "l: trace-log panel");
    }
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    /* Too narrow for any two: one help a line, none cut or lost. */
    n = view_keys_help(owners, 3, 10, NULL, NULL, lines, 8);
    CHECK_INT(n, 5);
    if (n == 5) {
        CHECK_STR(lines[0], "wheel: scroll rows");
        CHECK_STR(lines[4], "l: trace-log panel");
    }
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    /* At most max lines. */
    n = view_keys_help(owners, 3, 10, NULL, NULL, lines, 2);
    CHECK_INT(n, 2);
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
}

int main(void)
{
    test_check();
    test_find();
    test_help();
    return CHECK_DONE();
}
