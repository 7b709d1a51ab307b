/*
 * args.c - the flag parser (args.h).
 */
#include "args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int args_parse_uint(const char *s, unsigned long long hi, unsigned long long *out)
{
    char *end;
    unsigned long long v;

    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v > hi)
        return -1;
    *out = v;
    return 0;
}

static const struct args_opt *opt_find(const struct args_cmd *cmd, const char *flag)
{
    for (int k = 0; k < cmd->nopts; k++) {
        const struct args_opt *o = &cmd->opts[k];
        if (!strcmp(flag, o->name) || (o->alias && !strcmp(flag, o->alias)))
            return o;
    }
    return NULL;
}

/* Store val (NULL: none was given) into the value option o. */
/* "CMD: FLAG: unknown flag, expected one of A, B, C" from the table. */
static void unknown_flag(const struct args_cmd *cmd, const char *flag, struct dt_err *e)
{
    char list[sizeof e->msg / 2];
    size_t o = 0;

    list[0] = '\0';
    for (int k = 0; k < cmd->nopts && o < sizeof list; k++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", cmd->opts[k].name);
    dt_errf(e, "%s: %s: unknown flag, expected one of %s", cmd->name, flag, list);
}

static int opt_value(const struct args_cmd *cmd, const struct args_opt *o, const char *flag,
                     const char *val, struct dt_err *e)
{
    unsigned long long v;

    if (o->kind == ARGS_VALUE) {
        if (!val)
            return dt_errf(e, "%s: %s: expected %s, found nothing", cmd->name, flag,
                           o->missing ? o->missing : o->what);
        if (o->take(val, o->dst) != 0)
            return dt_errf(e, "%s: %s: expected %s, found \"%s\"", cmd->name, flag, o->what, val);
        if (o->flag)
            *o->flag = 1;
        return 0;
    }
    if (o->kind == ARGS_FILE || o->kind == ARGS_DIR) {
        if (!val || !*val) {
            dt_errf(e, "%s: %s: expected a %s, found %s", cmd->name, flag,
                    o->kind == ARGS_FILE ? "file name" : "directory", val ? "\"\"" : "nothing");
            return -1;
        }
        *o->str = val;
        return 0;
    }
    if (args_parse_uint(val, o->hi, &v) != 0 || v < o->lo) {
        char want[96];
        if (o->lo == 0 && o->hi == ULONG_MAX)
            snprintf(want, sizeof want, "a non-negative integer");
        else
            snprintf(want, sizeof want, "an integer from %llu to %llu", o->lo, o->hi);
        if (val)
            dt_errf(e, "%s: %s: expected %s, found \"%s\"", cmd->name, flag, want, val);
        else
            dt_errf(e, "%s: %s: expected %s, found nothing", cmd->name, flag, want);
        return -1;
    }
    *o->num = v;
    if (o->flag)
        *o->flag = 1;
    return 0;
}

int args_parse(const struct args_cmd *cmd, int argc, char **argv, const char **positional,
              const struct args_opt **stop, struct dt_err *e)
{
    int npos = 0, only_pos = 0, saw_word = 0;

    *positional = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        const char *eq;
        const struct args_opt *o;
        char flag[32];

        if (cmd->flags_only && a[0] != '-') {
            dt_errf(e, "%s: argument: expected %s, found \"%s\"", cmd->name, cmd->flags_only, a);
            return ARGS_BAD;
        }
        if (!cmd->flags_only && (only_pos || a[0] != '-' || a[1] == '\0')) {
            /* The subcommand word, in first place only. */
            if (npos == 0 && !saw_word && !only_pos && cmd->skip_word &&
                strcmp(a, cmd->skip_word) == 0) {
                saw_word = 1;
                continue;
            }
            if (npos == 1) {
                dt_errf(e, "%s: unexpected argument \"%s\" (try %s --help)", cmd->name, a,
                        cmd->name);
                return ARGS_BAD;
            }
            *positional = a;
            npos = 1;
            continue;
        }
        if (!cmd->flags_only && strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }

        /* --name=value */
        eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq) {
            size_t n = (size_t)(eq - a);
            if (n >= sizeof flag)
                n = sizeof flag - 1;
            memcpy(flag, a, n);
            flag[n] = '\0';
            val = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", a);
        }

        o = opt_find(cmd, flag);
        if (!o) {
            if (cmd->flags_only)
                unknown_flag(cmd, flag, e);
            else
                dt_errf(e, "%s: unknown option \"%s\" (try %s --help)", cmd->name, a, cmd->name);
            return ARGS_BAD;
        }
        if (o->kind == ARGS_SWITCH || o->kind == ARGS_STOP) {
            if (val) {
                dt_errf(e, "%s: %s: %s no value, found \"%s\"", cmd->name, flag,
                        cmd->flags_only ? "expected" : "takes", val);
                return ARGS_BAD;
            }
            if (o->kind == ARGS_STOP) {
                *stop = o;
                return ARGS_STOPPED;
            }
            if (o->flag)
                *o->flag = 1;
            continue;
        }
        if (!val && i + 1 < argc)
            val = argv[++i];
        if (opt_value(cmd, o, flag, val, e) != 0)
            return ARGS_BAD;
    }
    return ARGS_PARSED;
}
