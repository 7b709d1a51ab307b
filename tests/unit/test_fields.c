/*
 * test_fields.c - the scenario's field table (scenario/sc_field.h) against
 * its documentation and its defaults: every key of a section the table
 * holds is in that section's tables of docs/scenario.md (docs/plan.md for
 * plan:), and every key documented there is in the table; every default
 * the table gives is what scenario_defaults() and scenario_plan_defaults()
 * store.  Run from the repository root.
 */
#include "../../scenario/sc_field.h"
#include "../../scenario/scenario.h"
#include "t.h"

#include <stdlib.h>

#define MAX_DOC_KEYS 256

struct keys {
    char k[MAX_DOC_KEYS][64];
    int n;
};

/* The first cells written as `key` of the table rows between the line
 * that starts with `from` and the next line that starts with `stop`. */
static int doc_keys(const char *path, const char *from, const char *stop, struct keys *out)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    int in = 0;

    out->n = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        if (!in) {
            in = strncmp(line, from, strlen(from)) == 0;
            continue;
        }
        if (strncmp(line, stop, strlen(stop)) == 0)
            break;
        if (strncmp(line, "| `", 3) == 0 && out->n < MAX_DOC_KEYS) {
            char *end = strchr(line + 3, '`');
            if (end && end - (line + 3) < 64) {
                size_t len = (size_t)(end - (line + 3));
                memcpy(out->k[out->n], line + 3, len);
                out->k[out->n++][len] = 0;
            }
        }
    }
    fclose(f);
    return in ? 0 : -1;
}

static int has(const struct keys *d, const char *k)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->k[i], k) == 0)
            return 1;
    return 0;
}

/* f's key is in section sec (its path says so; its slot may be elsewhere). */
static int in_section(const struct sc_field *f, const char *sec)
{
    size_t n = strlen(sec);
    return strncmp(f->path, sec, n) == 0 && f->path[n] == '.';
}

/* How the docs spell a field of section sec: its path within the section
 * ("ps.count"), or, in a sub-table of its own (workload's measured_compute
 * and measured_step), its key alone. */
static const char *doc_spelling(const struct sc_field *f, const char *sec)
{
    const char *rel = f->path + strlen(sec) + 1;
    return strncmp(rel, "measured_", 9) == 0 && strchr(rel, '.') ? sc_field_key(f) : rel;
}

static void every_key_is_documented_and_every_documented_key_is_a_field(void)
{
    for (int s = 0; s < SC_NSEC; s++) {
        const char *sec = sc_section_name((enum sc_section)s);
        char from[64];
        struct keys d;
        int rc, nrows = 0, missing = 0, extra = 0;

        if (s == SC_SEC_PLAN) {
            rc = doc_keys("docs/plan.md", "| key |", "## ", &d);
        } else {
            snprintf(from, sizeof from, "### `%s`", sec);
            rc = doc_keys("docs/scenario.md", from, "### ", &d);
        }
        T_CHECK(rc == 0 && d.n > 0, "docs have a table of %s's keys (%d rows)", sec, d.n);
        for (int i = 0; i < sc_nfields; i++) {
            const struct sc_field *f = &sc_fields[i];
            if (!in_section(f, sec))
                continue;
            nrows++;
            if (!has(&d, doc_spelling(f, sec))) {
                missing++;
                T_CHECK(0, "%s is documented", f->path);
            }
        }
        for (int k = 0; k < d.n; k++) {
            int found = 0;
            for (int i = 0; i < sc_nfields && !found; i++)
                found = in_section(&sc_fields[i], sec) &&
                        strcmp(doc_spelling(&sc_fields[i], sec), d.k[k]) == 0;
            if (!found) {
                extra++;
                T_CHECK(0, "the documented key %s.%s is a field of the table", sec, d.k[k]);
            }
        }
        T_CHECK(missing == 0 && extra == 0, "%s: the table's %d fields and the docs' keys agree",
                sec, nrows);
    }
}

static void the_defaults_are_the_tables(void)
{
    struct scenario sc;
    struct sc_plan p;
    int bad = 0, n = 0;

    scenario_defaults(&sc, NULL);
    scenario_plan_defaults(&p);
    for (int i = 0; i < sc_nfields; i++) {
        const struct sc_field *f = &sc_fields[i];
        const void *slot = f->sec == SC_SEC_PLAN ? (f->off < 0 ? NULL : (const char *)&p + f->off)
                                                 : sc_field_slot(&sc, f);
        double got;
        if (!slot)
            continue;
        switch (f->type) {
        case SC_FIELD_NUM: got = *(const double *)slot; break;
        case SC_FIELD_SEED: got = (double)*(const unsigned long *)slot; break;
        case SC_FIELD_UBITS: got = *(const unsigned *)slot; break;
        default: got = *(const int *)slot; break;
        }
        n++;
        if (!(got == f->def || (isnan(got) && isnan(f->def)))) {
            bad++;
            T_CHECK(0, "%s defaults to %g, found %g", f->path, f->def, got);
        }
    }
    T_CHECK(bad == 0 && n > 50, "the %d fields with a slot hold the table's default", n);
    T_CHECK(sc.gradients.bucket_bytes == 25.0 * 1048576 && sc.simulation.steps == 20 &&
            isnan(sc.workload.mfu) && sc.input.loader_workers == -1 && p.top == 10,
            "a few defaults by name: 25 MiB buckets, 20 steps, mfu unset, loader auto, top 10");
}

static void each_key_is_one_field(void)
{
    int dup = 0;

    for (int i = 0; i < sc_nfields; i++)
        for (int j = 0; j < i; j++)
            dup += strcmp(sc_fields[i].path, sc_fields[j].path) == 0;
    T_CHECK(dup == 0, "no path is in the table twice");
    T_CHECK(sc_field_find("gradients.ps.count") && sc_field_in(sc_field_find("gradients.ps.count"),
            "gradients.ps") && !sc_field_in(sc_field_find("gradients.ps.count"), "gradients"),
            "gradients.ps.count is a key of gradients.ps, not of gradients");
    T_CHECK(!sc_field_find("gradients.nope"), "an unknown path finds nothing");
}

int main(void)
{
    T_RUN(every_key_is_documented_and_every_documented_key_is_a_field);
    T_RUN(the_defaults_are_the_tables);
    T_RUN(each_key_is_one_field);
    return T_DONE();
}
