/*
 * cliutil.c - the command-line helpers shared by `dtplan SCENARIO` and
 * `dtplan plan` (cliutil.h): the catalog search and the atomic output.
 */
#include "cliutil.h"
#include "../base/names.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/atomic.h"
#include "../base/text.h"
#include "html.h"
#include "report.h"
#include "chrome_trace.h"

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

/* The catalog shipped with dtplan: the first of <exe dir>/../catalog,
 * DT_CATALOG_DIR and ./catalog that holds instances.csv, or NULL with
 * e->msg (prefixed with cmd). */
static char *builtin_catalog(const char *cmd, struct dt_err *e)
{
    char *cand[3] = {NULL, NULL, NULL};
    char *found = NULL;
    int nc = 0;

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

char *cli_catalog_find(const char *cmd, const char *given, struct dt_err *e)
{
    const char *env = getenv("DTPLAN_CATALOG");

    if (given)
        return x_strdup(given);
    if (env && *env)
        return x_strdup(env);
    return builtin_catalog(cmd, e);
}

int cli_catalog_load(const char *cmd, const char *path, struct catalog *cat, struct dt_err *e)
{
    char *dir;
    int rc;

    struct stat st;

    if (!catalog_is_skypilot(path)) {
        if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
            return dt_errf(e, "%s: %s: expected a catalog directory (instances.csv, gpus.csv, "
                           "models.csv) or SkyPilot's vms.csv, found a file of neither kind", cmd,
                           path);
        return catalog_load(cat, path, e);
    }
    /* SkyPilot's instance types over dtplan's own GPUs, models and facts */
    if (!(dir = builtin_catalog(cmd, e)))
        return -1;
    rc = catalog_load(cat, dir, e);
    x_free(dir);
    if (rc == 0 && (rc = catalog_use_skypilot(cat, &path, 1, e)) != 0)
        catalog_free(cat);
    return rc;
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

int cli_flush_stdout(const char *cmd)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return CLI_EXIT_OK;
    fprintf(stderr, "%s: cannot write to standard output: %s\n", cmd,
            strerror(errno ? errno : EIO));
    return CLI_EXIT_PLAN;
}

int cli_check_outputs(const char *cmd, const struct cli_output *outs, int n)
{
    int i, j, printed = -1;

    for (i = 0; i < n; i++)
        if (outs[i].fn && !outs[i].path)
            printed = i;
    for (i = 0; i < n; i++) {
        if (!outs[i].fn || !outs[i].path)
            continue;
        for (j = i + 1; j < n; j++) {
            if (!outs[j].fn || !outs[j].path || !atomic_same_file(outs[i].path, outs[j].path))
                continue;
            text_eprintf("%s: %s: %s is the file %s %s names too; expected a different file for "
                         "each output", cmd, outs[j].flag ? outs[j].flag : "output", outs[j].path,
                         outs[i].flag ? outs[i].flag : "another output", outs[i].path);
            return CLI_EXIT_INPUT;
        }
        if (printed >= 0 && atomic_is_stdout(outs[i].path)) {
            text_eprintf("%s: %s: %s is where standard output goes, and the report is printed "
                         "there too; expected a different file, or -o FILE for the report", cmd,
                         outs[i].flag ? outs[i].flag : "output", outs[i].path);
            return CLI_EXIT_INPUT;
        }
    }
    return 0;
}

int cli_write_outputs(const char *cmd, const struct cli_output *outs, int n)
{
    struct dt_err e = {{0}};
    FILE *f[CLI_MAX_OUTPUTS] = {0};
    char *tmp[CLI_MAX_OUTPUTS] = {0};
    int done[CLI_MAX_OUTPUTS] = {0};       /* finished: closed, tmp waiting to be published */
    int rc = 0, i, to_stdout = -1;

    if (n > CLI_MAX_OUTPUTS)
        n = CLI_MAX_OUTPUTS;
    if ((rc = cli_check_outputs(cmd, outs, n)) != 0)
        return rc;
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
                text_eprintf("%s: %s: write failed: %s", cmd, outs[i].path,
                             strerror(errno ? errno : EIO));
            rc = CLI_EXIT_PLAN;
            goto abort;
        }
    }
    /* Everything written: close each (fsync shows the last write errors),
     * and only when all closed cleanly rename them into place. */
    for (i = 0; i < n; i++) {
        if (!f[i])
            continue;
        FILE *fi = f[i];
        f[i] = NULL;
        if (atomic_write_finish(fi, tmp[i], outs[i].path, &e) != 0) {
            tmp[i] = NULL;
            text_eprintf("%s: %s", cmd, e.msg);
            rc = CLI_EXIT_PLAN;
            goto abort;
        }
        done[i] = 1;
    }
    for (i = 0; i < n; i++) {
        if (!done[i])
            continue;
        done[i] = 0;
        if (atomic_write_publish(tmp[i], outs[i].path, &e) != 0) {
            tmp[i] = NULL;
            text_eprintf("%s: %s", cmd, e.msg);
            rc = CLI_EXIT_PLAN;
            goto abort;
        }
        tmp[i] = NULL;
    }
    return to_stdout >= 0 ? write_stdout(cmd, outs[to_stdout].fn, outs[to_stdout].ctx) : 0;

abort:
    for (i = 0; i < n; i++) {
        if (f[i])
            atomic_write_abort(f[i], tmp[i]);
        else if (done[i])
            atomic_write_discard(tmp[i]);
    }
    return rc;
}

int cli_write_output(const char *cmd, const char *path, cli_writer fn, const void *ctx)
{
    struct cli_output o = {path, fn, ctx, "-o"};
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
    return chrome_trace_write(f, ctx, e);
}

int cli_write_html(FILE *f, const void *ctx, struct dt_err *e)
{
    (void)e;
    return html_write(f, ctx);
}

int cli_take_name(const char *val, void *dst)
{
    const struct cli_name_arg *a = dst;
    int i = names_parse(a->name, val);

    if (i < 0)
        return -1;
    *a->out = i;
    return 0;
}

int cli_take_str(const char *val, void *dst)
{
    if (!*val)
        return -1;
    *(const char **)dst = val;
    return 0;
}
