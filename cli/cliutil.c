/*
 * cliutil.c - the command-line helpers shared by `dtplan SCENARIO` and
 * `dtplan plan` (cliutil.h): the flag parser, the catalog search and the
 * atomic output.  Cost: O(arguments x options) to parse.
 */
#include "cliutil.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/atomic.h"
#include "html.h"
#include "report.h"
#include "trace.h"

int cli_parse_uint(const char *s, unsigned long long hi, unsigned long long *out)
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

static const struct cli_opt *opt_find(const struct cli_cmd *cmd, const char *flag)
{
    for (int k = 0; k < cmd->nopts; k++) {
        const struct cli_opt *o = &cmd->opts[k];
        if (!strcmp(flag, o->name) || (o->alias && !strcmp(flag, o->alias)))
            return o;
    }
    return NULL;
}

/* Store val (NULL: none was given) into the value option o. */
static int opt_value(const struct cli_cmd *cmd, const struct cli_opt *o, const char *flag,
                     const char *val, struct dt_err *e)
{
    unsigned long long v;

    if (o->kind == CLI_FILE || o->kind == CLI_DIR) {
        if (!val || !*val) {
            dt_errf(e, "%s: %s: expected a %s, found %s", cmd->name, flag,
                    o->kind == CLI_FILE ? "file name" : "directory", val ? "\"\"" : "nothing");
            return -1;
        }
        *o->str = val;
        return 0;
    }
    if (cli_parse_uint(val, o->hi, &v) != 0 || v < o->lo) {
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

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, const char **positional,
              const struct cli_opt **stop, struct dt_err *e)
{
    int npos = 0, only_pos = 0, saw_word = 0;

    *positional = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        const char *eq;
        const struct cli_opt *o;
        char flag[32];

        if (only_pos || a[0] != '-' || a[1] == '\0') {
            /* The subcommand word, in first place only. */
            if (npos == 0 && !saw_word && !only_pos && cmd->skip_word &&
                strcmp(a, cmd->skip_word) == 0) {
                saw_word = 1;
                continue;
            }
            if (npos == 1) {
                dt_errf(e, "%s: unexpected argument \"%s\" (try %s --help)", cmd->name, a,
                        cmd->name);
                return CLI_BAD;
            }
            *positional = a;
            npos = 1;
            continue;
        }
        if (strcmp(a, "--") == 0) {
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
            dt_errf(e, "%s: unknown option \"%s\" (try %s --help)", cmd->name, a, cmd->name);
            return CLI_BAD;
        }
        if (o->kind == CLI_SWITCH || o->kind == CLI_STOP) {
            if (val) {
                dt_errf(e, "%s: %s: takes no value, found \"%s\"", cmd->name, flag, val);
                return CLI_BAD;
            }
            if (o->kind == CLI_STOP) {
                *stop = o;
                return CLI_STOPPED;
            }
            if (o->flag)
                *o->flag = 1;
            continue;
        }
        if (!val && i + 1 < argc)
            val = argv[++i];
        if (opt_value(cmd, o, flag, val, e) != 0)
            return CLI_BAD;
    }
    return CLI_PARSED;
}

/* dir/instances.csv is readable: dir looks like a catalog. */
static int catalog_dir_ok(const char *dir)
{
    size_t n = strlen(dir) + sizeof "/instances.csv";
    char *p = x_malloc(n);
    int ok;

    snprintf(p, n, "%s/instances.csv", dir);
    ok = access(p, R_OK) == 0;
    x_free(p);
    return ok;
}

/* <directory of the running executable>/../catalog, or NULL. */
static char *catalog_next_to_exe(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;
    size_t len;
    char *dir;

    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    len = strlen(exe) + sizeof "/../catalog";
    dir = x_malloc(len);
    snprintf(dir, len, "%s/../catalog", exe);
    return dir;
}

char *cli_catalog_find(const char *cmd, const char *given, struct dt_err *e)
{
    const char *env = getenv("DTPLAN_CATALOG");
    char *cand[3] = {NULL, NULL, NULL};
    char *found = NULL;
    int nc = 0;

    if (given)
        return x_strdup(given);
    if (env && *env)
        return x_strdup(env);

    if ((cand[nc] = catalog_next_to_exe()) != NULL)
        nc++;
#ifdef DT_CATALOG_DIR
    cand[nc++] = x_strdup(DT_CATALOG_DIR);
#endif
    cand[nc++] = x_strdup("catalog");

    for (int i = 0; i < nc && !found; i++)
        if (catalog_dir_ok(cand[i])) {
            found = cand[i];
            cand[i] = NULL;
        }
    if (!found)
        dt_errf(e, "%s: no catalog found (looked in %s%s%s%s%s); use --catalog DIR or set "
                "DTPLAN_CATALOG", cmd, cand[0], nc > 1 ? ", " : "", nc > 1 ? cand[1] : "",
                nc > 2 ? ", " : "", nc > 2 ? cand[2] : "");
    for (int i = 0; i < nc; i++)
        x_free(cand[i]);
    return found;
}

/* Write one output on standard output; the exit status. */
static int write_stdout(const char *cmd, cli_writer fn, const void *ctx)
{
    struct dt_err e = {{0}};
    int rc;

    errno = 0;
    rc = fn(stdout, ctx, &e);
    if (rc != 0 || fflush(stdout) != 0 || ferror(stdout)) {
        if (rc != 0 && e.msg[0])
            fprintf(stderr, "%s: %s\n", cmd, e.msg);
        else
            fprintf(stderr, "%s: cannot write the report to standard output: %s\n", cmd,
                    strerror(errno ? errno : EIO));
        return CLI_EXIT_PLAN;
    }
    return 0;
}

int cli_write_outputs(const char *cmd, const struct cli_output *outs, int n)
{
    struct dt_err e = {{0}};
    FILE *f[CLI_MAX_OUTPUTS] = {0};
    char *tmp[CLI_MAX_OUTPUTS] = {0};
    int rc = 0, i, to_stdout = -1;

    if (n > CLI_MAX_OUTPUTS)
        n = CLI_MAX_OUTPUTS;
    /* Create every temporary first: a path that cannot be created fails
     * the run before anything is written. */
    for (i = 0; i < n; i++) {
        if (!outs[i].fn)
            continue;
        if (!outs[i].path) {
            to_stdout = i;
            continue;
        }
        f[i] = atomic_write_open(outs[i].path, &tmp[i], &e);
        if (!f[i]) {
            fprintf(stderr, "%s: %s\n", cmd, e.msg);
            rc = CLI_EXIT_INPUT;
            goto abort;
        }
    }
    for (i = 0; i < n; i++) {
        if (!f[i])
            continue;
        errno = 0;
        e.msg[0] = '\0';
        if (outs[i].fn(f[i], outs[i].ctx, &e) != 0 || fflush(f[i]) != 0 || ferror(f[i])) {
            if (e.msg[0])
                fprintf(stderr, "%s: %s\n", cmd, e.msg);
            else
                fprintf(stderr, "%s: %s: write failed\n", cmd, outs[i].path);
            rc = CLI_EXIT_PLAN;
            goto abort;
        }
    }
    /* All written: publish them, then print on standard output. */
    for (i = 0; i < n; i++) {
        if (!f[i])
            continue;
        if (atomic_write_commit(f[i], tmp[i], outs[i].path, &e) != 0) {
            f[i] = NULL;
            fprintf(stderr, "%s: %s\n", cmd, e.msg);
            rc = CLI_EXIT_PLAN;
            goto abort;
        }
        f[i] = NULL;
    }
    return to_stdout >= 0 ? write_stdout(cmd, outs[to_stdout].fn, outs[to_stdout].ctx) : 0;

abort:
    for (i = 0; i < n; i++)
        if (f[i])
            atomic_write_abort(f[i], tmp[i]);
    return rc;
}

int cli_write_output(const char *cmd, const char *path, cli_writer fn, const void *ctx)
{
    struct cli_output o = {path, fn, ctx};
    return cli_write_outputs(cmd, &o, 1);
}

int cli_write_table(FILE *f, const void *ctx, struct dt_err *e)
{
    (void)e;
    return report_table(f, ctx);
}

int cli_write_json(FILE *f, const void *ctx, struct dt_err *e)
{
    (void)e;
    return report_json(f, ctx);
}

int cli_write_csv(FILE *f, const void *ctx, struct dt_err *e)
{
    (void)e;
    return report_csv(f, ctx);
}

int cli_write_trace(FILE *f, const void *ctx, struct dt_err *e)
{
    return trace_write(f, ctx, e);
}

int cli_write_html(FILE *f, const void *ctx, struct dt_err *e)
{
    (void)e;
    return html_write(f, ctx);
}
