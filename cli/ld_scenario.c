/*
 * ld_scenario.c - load a scenario file (YAML) into struct scenario.
 *
 * The file is read whole (at most FILE_MAX_BYTES), parsed with libyaml's
 * document API and walked against a fixed schema: every mapping is checked
 * for unknown and duplicate keys, every scalar for its type, range and closed
 * set, then the cross-field rules (train groups, parameter-server placement,
 * prices, measured cluster) are checked.  The first problem found is reported
 * as one line, FILE:LINE:COL: FIELD: expected WHAT, found "WHAT", with the
 * 1-based mark of the offending node (see docs/scenario.md).
 *
 * Inline catalog definitions (catalog.instances, catalog.models) are first
 * validated into a pending list that shadows the catalog.  Only when the whole
 * file is valid are they added to the catalog and every name resolved to a
 * catalog pointer (ld_commit), so a failed load leaves the catalog exactly as
 * it was.  The walk itself is in ld*.c (ld.h lists the files).
 *
 * Before the tree is built, a pass over libyaml's events bounds the nesting
 * depth, the anchors and the node count (ld_prescan), which keeps libyaml's
 * own worst cases (quadratic in depth and in anchors) away.
 *
 * Cost: O(file size) to parse, twice, plus O(k^2) per mapping of k keys for the
 * duplicate check (k is at most a dozen or so for every known mapping, and an
 * unknown key stops the walk at once), plus a linear catalog search per name.
 * Aliases are shared nodes in libyaml's document, and the walk follows only
 * the schema's bounded depth, so alias bombs and self-referencing anchors
 * cost nothing extra.
 */
#include "ld.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/files.h"

/* The whole document, section by section in dependency order. */
static int ld_root(struct ld *ld)
{
    static const char *const keys[] = {
        "name", "catalog", "workload", "input", "gradients", "parallel", "clusters", "fabric",
        "objective", "simulation", "plan", "profile", "goodput", NULL
    };
    yaml_node_t *r = ld->root, *v, *k;
    char fb[FOUND_LEN];

    if (r->type != YAML_MAPPING_NODE)
        return ld_fail(ld, r->start_mark, "document",
                       "expected a mapping with workload and clusters, found %s",
                       ld_found(r, fb, sizeof fb));
    if (ld_map(ld, r, "", keys))
        return -1;
    if ((v = ld_get(ld, r, "name", NULL)) &&
        ld_str(ld, v, "name", ld->sc->name, sizeof ld->sc->name, 1, "a name"))
        return -1;
    if ((v = ld_get(ld, r, "catalog", NULL)) && ld_catalog(ld, v))
        return -1;
    if ((v = ld_get(ld, r, "profile", NULL)) && ld_profile(ld, v, "profile", NULL))
        return -1;
    if (!(v = ld_get(ld, r, "workload", &k)))
        return ld_missing(ld, r->start_mark, "workload");
    if (ld_workload(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "input", &k)) ? ld_input(ld, v, k->start_mark)
                                         : ld_input(ld, NULL, r->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "gradients", &k)) && ld_gradients(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "parallel", NULL)) && ld_parallel(ld, v))
        return -1;
    if (!(v = ld_get(ld, r, "clusters", NULL))) {
        if (!ld_get(ld, r, "plan", NULL)) /* a plan: section searches instead */
            return ld_fail(ld, r->start_mark, "clusters", "missing required field: the clusters "
                           "to compare, or a plan: section to search the catalog instead "
                           "(docs/plan.md)");
    } else if (ld_clusters(ld, v)) {
        return -1;
    }
    if (ld_measured_cluster(ld) || ld_parallel_fits(ld))
        return -1;
    if ((v = ld_get(ld, r, "fabric", &k)) && ld_fabric(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "objective", &k)) && ld_objective(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "simulation", &k)) && ld_simulation(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "goodput", &k)) && ld_goodput(ld, v, k->start_mark))
        return -1;
    if ((v = ld_get(ld, r, "plan", &k)) && ld_plan(ld, v, k->start_mark))
        return -1;
    if (ld_buckets(ld))
        return -1;
    return ld_catalog_profiles(ld);
}

/*
 * The file is valid: add the inline definitions to the catalog (it takes
 * their strings) and point every reference at the final catalog entries.
 */
static void ld_commit(struct ld *ld)
{
    struct scenario *sc = ld->sc;
    int i, j;

    for (i = 0; i < ld->nmodels; i++) {
        catalog_put_model(ld->cat, &ld->models[i]);
        ld->models[i].source = NULL;
    }
    for (i = 0; i < ld->ninst; i++) {
        catalog_put_instance(ld->cat, &ld->inst[i]);
        ld->inst[i].intra_link_text = NULL;
        ld->inst[i].source = NULL;
    }
    ld->nmodels = ld->ninst = 0;
    sc->catalog = ld->cat;
    sc->workload.model = catalog_find_model(ld->cat, ld->model_name);
    if (ld->measured_model_name[0])
        sc->workload.measured_model = catalog_find_model(ld->cat, ld->measured_model_name);
    sc->workload.measured_gpu = *ld->gpu_name ? catalog_find_gpu(ld->cat, ld->gpu_name) : NULL;
    sc->input.cpu_measured_on = *ld->cpu_on_name ? catalog_find_instance(ld->cat, ld->cpu_on_name) : NULL;
    for (i = 0; i < sc->nclusters; i++)
        for (j = 0; j < sc->clusters[i].ngroups; j++)
            sc->clusters[i].groups[j].inst =
                catalog_find_instance(ld->cat, ld->group_inst[i * SC_MAX_GROUPS + j]);
}

/* ---------------------------------------------------------------- entry */

/* Read the whole file into *buf (NUL-terminated); *len excludes the NUL.
 * At most FILE_MAX_BYTES (base/files.h), as every input file; a FIFO is
 * read without waiting for a writer (file_open_read). */
static int ld_read(const char *path, char **buf, size_t *len, struct dt_err *e)
{
    int is_stdin = strcmp(path, "-") == 0;  /* `dtplan -`: the scenario on standard input */
    FILE *f = is_stdin ? stdin : file_open_read(path, e);
    int rc;

    if (is_stdin)
        path = "stdin";
    if (!f)
        return -1;
    rc = file_read_all(f, path, FILE_MAX_BYTES, buf, len, e);
    if (!is_stdin)
        fclose(f);
    return rc;
}

/* libyaml's problem as FILE:LINE:COL: malformed YAML: PROBLEM. */
static int ld_yaml_error(struct ld *ld, const yaml_parser_t *p, const char *buf, size_t len)
{
    yaml_mark_t m = p->problem_mark;
    const char *problem = p->problem ? p->problem : "cannot parse";
    size_t i;

    if (p->error == YAML_MEMORY_ERROR)
        problem = "out of memory";
    if (p->error == YAML_READER_ERROR) { /* the reader reports a byte offset only */
        memset(&m, 0, sizeof m);
        for (i = 0; i < p->problem_offset && i < len; i++) {
            if (buf[i] == '\n') {
                m.line++;
                m.column = 0;
            } else
                m.column++;
        }
    }
    /* a tab where the line's indentation is: YAML indents with spaces only */
    {
        size_t at = 0, line = 0;
        while (at < len && line < m.line)
            line += buf[at++] == '\n';
        while (at < len && buf[at] == ' ')
            at++;
        if (at < len && buf[at] == '\t')
            return dt_errf(ld->e, "%s:%lu:%lu: malformed YAML: %s (a tab: YAML indents with "
                           "spaces only)", ld->file, (unsigned long)m.line + 1,
                           (unsigned long)m.column + 1, problem);
    }
    return dt_errf(ld->e, "%s:%lu:%lu: malformed YAML: %s", ld->file, (unsigned long)m.line + 1,
                   (unsigned long)m.column + 1, problem);
}

/*
 * First pass over libyaml's events, before the document is built: reject
 * nesting deeper than SC_MAX_DEPTH, more than SC_MAX_ANCHORS anchors and
 * aliases and more than SC_MAX_NODES nodes.  libyaml's scanner spends O(flow
 * depth) per token and its loader O(anchors) per anchor and alias, and a node
 * costs about 100 bytes, so without these bounds a crafted file of a few MiB
 * would keep the loader busy for hours or take gigabytes.  Malformed YAML is
 * reported here with the same message the loader would give.  O(file size).
 */
static int ld_prescan(struct ld *ld, const char *buf, size_t len)
{
    yaml_parser_t p;
    yaml_event_t ev;
    int depth = 0, anchors = 0, nodes = 0, done = 0, rc = -1;
    const char *what = NULL;
    int limit = 0;

    if (!yaml_parser_initialize(&p))
        return dt_errf(ld->e, "%s: cannot start the YAML parser: out of memory", ld->file);
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    while (!done) {
        if (!yaml_parser_parse(&p, &ev)) {
            ld_yaml_error(ld, &p, buf, len);
            goto free_parser;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_MAPPING_START_EVENT:
            depth++;
            anchors += ev.data.mapping_start.anchor != NULL;
            break;
        case YAML_SEQUENCE_START_EVENT:
            depth++;
            anchors += ev.data.sequence_start.anchor != NULL;
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
            depth--;
            break;
        case YAML_SCALAR_EVENT:
            anchors += ev.data.scalar.anchor != NULL;
            break;
        case YAML_ALIAS_EVENT:
            anchors++;
            break;
        default:
            break;
        }
        nodes += ev.type == YAML_MAPPING_START_EVENT || ev.type == YAML_SEQUENCE_START_EVENT ||
                 ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT;
        if (depth > SC_MAX_DEPTH) {
            what = "levels of nesting";
            limit = SC_MAX_DEPTH;
        } else if (anchors > SC_MAX_ANCHORS) {
            what = "anchors and aliases";
            limit = SC_MAX_ANCHORS;
        } else if (nodes > SC_MAX_NODES) {
            what = "YAML nodes";
            limit = SC_MAX_NODES;
        }
        if (what) {
            ld_fail(ld, ev.start_mark, "document", "expected at most %d %s, found more", limit,
                    what);
            yaml_event_delete(&ev);
            goto free_parser;
        }
        yaml_event_delete(&ev);
    }
    rc = 0;
free_parser:
    yaml_parser_delete(&p);
    return rc;
}

/* Every field at its default; the name is the file name without its extension. */
static void sc_defaults(struct scenario *sc, const char *path)
{
    const char *base = strrchr(path, '/'), *dot;
    char name[sizeof sc->name];
    size_t n;

    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    n = (dot && dot != base) ? (size_t)(dot - base) : strlen(base);
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, base, n);
    name[n] = '\0';
    scenario_defaults(sc, name);
}

int ld_scenario_load(struct scenario *sc, const char *path, struct catalog *cat, struct dt_err *e)
{
    struct ld ld;
    yaml_parser_t parser;
    yaml_document_t doc, extra;
    yaml_node_t *second;
    char *buf = NULL;
    size_t len = 0;
    int rc = -1, i;

    memset(&ld, 0, sizeof ld);
    ld.file = strcmp(path, "-") == 0 ? "stdin" : path;   /* in messages */
    ld.doc = &doc;
    ld.cat = cat;
    ld.e = e;
    ld.sc = sc;
    sc_defaults(sc, ld.file);

    if (ld_read(path, &buf, &len, e))
        goto out;
    if (ld_prescan(&ld, buf, len))
        goto free_buf;
    if (!yaml_parser_initialize(&parser)) {
        dt_errf(e, "%s: cannot start the YAML parser: out of memory", ld.file);
        goto free_buf;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
    if (!yaml_parser_load(&parser, &doc)) { /* libyaml frees doc itself on failure */
        ld_yaml_error(&ld, &parser, buf, len);
        goto free_parser;
    }
    ld.root = yaml_document_get_root_node(&doc);
    if (!ld.root) {
        dt_errf(e, "%s:1:1: document: expected a mapping with workload and clusters, found an "
                "empty document", ld.file);
        goto free_doc;
    }
    if (!yaml_parser_load(&parser, &extra)) {
        ld_yaml_error(&ld, &parser, buf, len);
        goto free_doc;
    }
    second = yaml_document_get_root_node(&extra);
    if (second)
        ld_fail(&ld, second->start_mark, "document",
                "expected a single YAML document, found a second one");
    yaml_document_delete(&extra);
    if (second)
        goto free_doc;

    rc = ld_root(&ld);
    if (rc == 0)
        ld_commit(&ld);

free_doc:
    yaml_document_delete(&doc);
free_parser:
    yaml_parser_delete(&parser);
free_buf:
    x_free(buf);
out:
    for (i = 0; i < ld.ninst; i++)
        ld_inst_release(&ld.inst[i]);
    for (i = 0; i < ld.nmodels; i++)
        x_free(ld.models[i].source);
    x_free(ld.inst);
    x_free(ld.models);
    x_free(ld.group_inst);
    if (rc) {
        x_free(sc->clusters);
        x_free(sc->profiles);
        sc_defaults(sc, path);
    }
    return rc;
}
