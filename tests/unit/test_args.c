/*
 * test_args.c - the flag parser every command uses (base/args.h), in both of
 * its forms: the front end's (one positional, "unknown option ... (try CMD
 * --help)") and a flags-only command's (every line "CMD: FLAG: expected
 * ..., found ...").  Links the base layer only.
 */
#include "t.h"

#include <string.h>

#include "../../base/args.h"

static int take_even(const char *v, void *dst)
{
    unsigned long long x;

    if (args_parse_uint(v, 1000, &x) || x % 2)
        return -1;
    *(int *)dst = (int)x;
    return 0;
}

static int json, have_n, even = -1;
static unsigned long long n;
static const char *out;

static const struct args_opt opts[] = {
    {"--json", NULL, ARGS_SWITCH, &json, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    {"--steps", NULL, ARGS_UINT, &have_n, NULL, &n, 1, 100, NULL, NULL, NULL, NULL},
    {"--even", NULL, ARGS_VALUE, NULL, NULL, NULL, 0, 0, "an even number", take_even, &even, "a number"},
    {"-o", "--output", ARGS_FILE, NULL, &out, NULL, 0, 0, NULL, NULL, NULL, NULL},
    {"--help", "-h", ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
};

/* Parse a NULL-terminated argument list; the return code, e and positional set. */
static int parse(const struct args_cmd *cmd, const char **list, const char **pos,
                 struct dt_err *e)
{
    char *argv[16];
    const struct args_opt *stop = NULL;
    int argc = 0;

    json = have_n = 0;
    even = -1;
    out = NULL;
    e->msg[0] = '\0';
    argv[argc++] = (char *)"prog";
    while (*list)
        argv[argc++] = (char *)*list++;
    return args_parse(cmd, argc, argv, pos, &stop, e);
}

static void the_front_end_form(void)
{
    const struct args_cmd cmd = {"tool", "run", opts, 5, NULL};
    const char *pos;
    struct dt_err e;

    T_CHECK(parse(&cmd, (const char *[]){"run", "--json", "--steps=7", "--even", "8", "a.yaml",
                                         NULL}, &pos, &e) == ARGS_PARSED &&
                json && have_n && n == 7 && even == 8 && pos && strcmp(pos, "a.yaml") == 0,
            "switches, --flag=value, a checked value and one positional");
    T_CHECK(parse(&cmd, (const char *[]){"--even", "7", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool: --even: expected an even number, found \"7\"") == 0,
            "a value its check refuses: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"--even", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool: --even: expected a number, found nothing") == 0,
            "a value missing names what it should have been: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"--x", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool: unknown option \"--x\" (try tool --help)") == 0,
            "an unknown option: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"--json=1", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool: --json: takes no value, found \"1\"") == 0,
            "a switch with a value: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"a", "b", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool: unexpected argument \"b\" (try tool --help)") == 0,
            "a second positional: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"--", "--json", NULL}, &pos, &e) == ARGS_PARSED &&
                !json && pos && strcmp(pos, "--json") == 0,
            "-- ends the flags");
}

static void the_flags_only_form(void)
{
    const struct args_cmd cmd = {"tool cal", NULL, opts, 5, "a flag (output with -o)"};
    const char *pos;
    struct dt_err e;

    T_CHECK(parse(&cmd, (const char *[]){"--output=p.json", "--even=4", NULL}, &pos, &e) ==
                    ARGS_PARSED && out && strcmp(out, "p.json") == 0 && even == 4,
            "a long alias takes =value");
    T_CHECK(parse(&cmd, (const char *[]){"--x", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool cal: --x: unknown flag, expected one of --json, --steps, "
                              "--even, -o, --help") == 0,
            "an unknown flag lists the table in order: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"--json=1", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool cal: --json: expected no value, found \"1\"") == 0,
            "a switch with a value: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"stray", NULL}, &pos, &e) == ARGS_BAD &&
                strcmp(e.msg, "tool cal: argument: expected a flag (output with -o), found "
                              "\"stray\"") == 0,
            "no positional: %s", e.msg);
    T_CHECK(parse(&cmd, (const char *[]){"--", NULL}, &pos, &e) == ARGS_BAD &&
                strstr(e.msg, "tool cal: --: unknown flag"),
            "-- is no flag of a flags-only command: %s", e.msg);
}

int main(void)
{
    T_RUN(the_front_end_form);
    T_RUN(the_flags_only_form);
    return T_DONE();
}
