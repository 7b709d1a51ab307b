/*
 * fuzz_scenario.c - libFuzzer target: a scenario (YAML, docs/scenario.md)
 * through the loader, and what loads through the planner and every report
 * writer, as `dtplan SCENARIO` runs it.  Inputs of odd length are read as
 * `dtplan -` reads them, from standard input; the others from a file.
 *
 * The catalog (directory $DT_FUZZ_CATALOG, default catalog) is loaded once
 * and copied for each input, since a scenario's inline types join it.
 * Simulations are capped at FUZZ_MAX_STEPS steps, the clusters planned at
 * FUZZ_MAX_CLUSTERS, and a plan: section's search at 2 train nodes, 1 data
 * node and 1 server, so that an input costs milliseconds; the loader sees
 * the input unchanged.
 *
 * Promises checked (fuzz.h): a refused input or a failed plan gives one
 * printable error line; the table, JSON, CSV and HTML are valid UTF-8 with
 * no control characters but line feeds and tabs.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "../../base/xmem.h"
#include "../../cli/cliutil.h"
#include "../../cli/ld_scenario.h"
#include "../../planner/planner.h"
#include "../../planner/search.h"

static struct catalog pristine;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *dir = getenv("DT_FUZZ_CATALOG");
    cJSON_Hooks hooks = {x_malloc, x_free};
    struct dt_err e = {{0}};

    (void)argc;
    (void)argv;
    cJSON_InitHooks(&hooks);
    if (catalog_load(&pristine, dir && *dir ? dir : "catalog", &e)) {
        fprintf(stderr, "fuzz: %s\n", e.msg);
        abort();
    }
    return 0;
}

static void write_all(const struct plan_report *rep)
{
    static const struct {
        const char *what;
        cli_writer fn;
    } w[] = {{"table", cli_write_table}, {"JSON", cli_write_json}, {"CSV", cli_write_csv},
             {"HTML", cli_write_html}};
    struct dt_err e = {{0}};
    char *buf = NULL;
    size_t len = 0;

    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        FILE *f = fuzz_open_report(&buf, &len);
        if (w[i].fn(f, rep, &e))
            fuzz_check_msg(w[i].what, e.msg);
        fuzz_close_report(w[i].what, f, &buf, &len);
    }
}

static void cap(struct scenario *sc)
{
    /* the first clusters alone: a layout search on each of a dozen costs
     * seconds, and tens of them under the sanitizers */
    if (sc->nclusters > FUZZ_MAX_CLUSTERS)
        sc->nclusters = FUZZ_MAX_CLUSTERS;
    if (sc->simulation.steps > FUZZ_MAX_STEPS)
        sc->simulation.steps = FUZZ_MAX_STEPS;
    if (sc->simulation.warmup > FUZZ_MAX_WARMUP)
        sc->simulation.warmup = FUZZ_MAX_WARMUP;
    if (sc->plan.max_nodes > 2)
        sc->plan.max_nodes = 2;
    if (sc->plan.max_data_nodes > 1)
        sc->plan.max_data_nodes = 1;
    if (sc->plan.max_ps > 1)
        sc->plan.max_ps = 1;
    if (sc->plan.search_steps == 0 || sc->plan.search_steps > FUZZ_MAX_STEPS)
        sc->plan.search_steps = FUZZ_MAX_STEPS;
    if (sc->plan.search_warmup < 0 || sc->plan.search_warmup > FUZZ_MAX_WARMUP)
        sc->plan.search_warmup = FUZZ_MAX_WARMUP;
}

static void search(const struct scenario *sc0)
{
    struct scenario base;
    struct search_list l;
    struct search_eval *ev;
    struct search_result r;
    struct dt_err e = {{0}};

    memset(&l, 0, sizeof l);
    if (search_prepare(sc0, &base, &e)) {
        fuzz_check_msg("search_prepare", e.msg);
        return;
    }
    if (search_enumerate(&base, &l, &e)) {
        fuzz_check_msg("search_enumerate", e.msg);
        search_list_free(&l);
        return;
    }
    ev = x_calloc((size_t)l.n + 1, sizeof *ev);
    if (search_eval(&base, &l, 0, 1, ev, NULL, &e))
        fuzz_check_msg("search_eval", e.msg);
    else if (search_finish(&base, &l, ev, NULL, &r, &e))
        fuzz_check_msg("search_finish", e.msg);
    else {
        write_all(&r.report);
        search_result_free(&r);
    }
    x_free(ev);
    search_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch(0, "scenario.yaml");
    struct catalog cat;
    struct scenario sc;
    struct plan_report rep;
    struct dt_err e = {{0}};
    int rc;

    fuzz_write(path, data, size);
    catalog_copy(&cat, &pristine);
    memset(&sc, 0, sizeof sc);
    if (size % 2) {             /* `dtplan -`: the scenario on standard input */
        int fd = open(path, O_RDONLY);
        if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
            abort();
        close(fd);
        rc = ld_scenario_load(&sc, "-", &cat, &e);
    } else {
        rc = ld_scenario_load(&sc, path, &cat, &e);
    }
    if (rc) {
        fuzz_check_msg("ld_scenario_load", e.msg);
        goto out;
    }
    cap(&sc);
    if (sc.nclusters == 0 && sc.plan.present) {
        search(&sc);
    } else if (plan_run(&sc, NULL, &rep, &e)) {
        fuzz_check_msg("plan_run", e.msg);
    } else {
        write_all(&rep);
        plan_report_free(&rep);
    }
out:
    scenario_free(&sc);
    catalog_free(&cat);
    return 0;
}
