/*
 * ld.h - the scenario loader's shared parts (cli/ld*.c): the loader state,
 * the bounds it enforces, and the helpers that walk a libyaml document
 * against the schema.  Internal to the front end; the public entry is
 * ld_scenario_load() (ld_scenario.h).
 *
 * Every helper reports the first problem as one line,
 *   FILE:LINE:COL: FIELD: expected WHAT, found "WHAT"
 * through ld_fail() into the caller's error record, and returns -1; 0 when
 * the node is valid.  The files:
 *   ld.c           messages, tree access and typed scalars
 *   ld_catalog.c   names resolved against the catalog, inline catalog entries
 *                  and calibration profiles
 *   ld_sections.c  workload, input, gradients, clusters, fabric, objective,
 *                  simulation
 *   ld_plan.c      the plan: section (the catalog search)
 *   ld_parallel.c  the parallel: section and a cluster's own
 *   ld_scenario.c  the document, the prescan, the commit and ld_scenario_load()
 */
#ifndef DT_LD_H
#define DT_LD_H

#include <stddef.h>
#include <yaml.h>

#include "ld_scenario.h"
#include "../catalog/fields.h"

#define SC_MAX_CLUSTERS 64
#define SC_MAX_INLINE 1000                   /* inline entries per catalog list */
#define SC_MAX_TEXT 4096                     /* longest free-text string (source) */
#define SC_MAX_DEPTH 32                      /* nesting levels; the schema needs 6 */
#define SC_MAX_ANCHORS 1000                  /* anchors and aliases together */
#define SC_MAX_NODES 200000                  /* scalars, mappings, lists and aliases */
#define FIELD_LEN 256                        /* dotted field path */
#define FOUND_LEN 160                        /* a node as quoted in a message */
#define FOUND_SHOW 60                        /* bytes of a scalar shown before "..." */
#define LIST_LEN 640                         /* "a, b, c" lists of choices */

/* Loader state: the parse tree, the error record and the pending inline entries. */
struct ld {
    const char *file;               /* path as given, for messages */
    yaml_document_t *doc;
    struct catalog *cat;
    struct dt_err *e;
    struct scenario *sc;
    yaml_node_t *root;

    /* inline definitions, validated, added to cat only on success */
    struct cat_instance *inst;      /* owns intra_link_text and source until put */
    int ninst;
    struct cat_model *models;       /* owns source until put */
    int nmodels;

    /* names to resolve once the catalog is final (pointers may move on put) */
    char model_name[48];
    char measured_model_name[48];             /* workload.measured_compute.model, "" none */
    char gpu_name[32];                       /* measured_compute.gpu, "" if absent */
    char cpu_on_name[64];                    /* input.cpu_measured_on, "" if absent */
    char (*group_inst)[64];                  /* [cluster * SC_MAX_GROUPS + group] */

    /* nodes kept for checks that need later sections */
    yaml_node_t *ms_cluster;                 /* workload.measured_step.cluster */
    yaml_node_t *solve_node;                 /* workload.measured_step.solve_for */
    yaml_node_t *tp_node;                    /* parallel.tp */
    yaml_node_t *cluster_tp_node[SC_MAX_CLUSTERS]; /* clusters[i].parallel.tp */
    yaml_node_t *pp_node;                    /* parallel.pp */
    yaml_node_t *pp_layers_node;             /* parallel.pp_layers */
    yaml_node_t *cluster_pp_node[SC_MAX_CLUSTERS]; /* clusters[i].parallel.pp */
    yaml_node_t *cp_node;                    /* parallel.cp */
    yaml_node_t *ep_node;                    /* parallel.ep */
    yaml_node_t *etp_node;                   /* parallel.etp */
    yaml_node_t *receive_node;               /* gradients.ps.receive */
};

enum key_kind { KEY_NUM, KEY_INT, KEY_INT_AUTO, KEY_BOOL };

struct key_spec {
    const char *key;
    enum key_kind kind;
    int required;
    double lo;                  /* KEY_NUM: ld_num's lo, lo_open, hi; KEY_INT*: [lo, hi] */
    int lo_open;
    double hi;
    const char *desc;           /* what is expected, for the error line */
    size_t off;                 /* offsetof the double (KEY_NUM) or int in the target */
};

/* ---- messages, tree access, scalars (ld.c) ---- */

int ld_fail(struct ld *ld, yaml_mark_t m, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * How a node reads in a message: a scalar in double quotes with control bytes,
 * quotes and backslashes escaped and at most FOUND_SHOW bytes shown; a mapping
 * or a list by its kind.  Returns buf.
 */
const char *ld_found(const yaml_node_t *n, char *buf, size_t cap);

/* Append one name to a "a, b, c" list, ending it with "..." when full. */
void ld_list_add(char *buf, size_t cap, const char *name);

/* "path.key", or "key" at the top level; control bytes of a key print as '?'. */
void ld_path_key(char *out, size_t cap, const char *path, const char *key);

/* "path[i]"; cap is at least 32 (a long path is cut to leave room for the index). */
void ld_path_idx(char *out, size_t cap, const char *path, int i);

int ld_missing(struct ld *ld, yaml_mark_t at, const char *field);
/* The parallel: section (ld_parallel.c); and, once the clusters are read,
 * whether its tp and pp fit each of them.  parallel.micro_batch stands for
 * workload.batch_per_gpu (ld_parallel_micro_batch: whether it is there). */
int ld_parallel(struct ld *ld, yaml_node_t *m);
int ld_parallel_fits(struct ld *ld);
int ld_cluster_parallel(struct ld *ld, yaml_node_t *m, const char *path, int ci);
yaml_node_t *ld_parallel_micro_batch(struct ld *ld);

int ld_scalar_is(const yaml_node_t *k, const char *s);

/*
 * Check that map is a mapping whose keys are strings, each one of keys and
 * none given twice.  path names map in messages ("" for the document).
 */
int ld_map(struct ld *ld, yaml_node_t *map, const char *path, const char *const *keys);

/* The value of key in a checked mapping, or NULL; *keyn (if given) gets the key node. */
yaml_node_t *ld_get(struct ld *ld, yaml_node_t *map, const char *key, yaml_node_t **keyn);

/* Check a list node and its length: 1..max items of WHAT. */
int ld_list(struct ld *ld, yaml_node_t *n, const char *field, int min, int max,
            const char *what);

int ld_list_len(const yaml_node_t *n);

yaml_node_t *ld_list_item(struct ld *ld, const yaml_node_t *n, int i);

/*
 * A number in [lo, hi] (lo excluded when lo_open).  desc says what is
 * expected, range included ("a fraction in (0, 1]").
 */
int ld_num(struct ld *ld, yaml_node_t *n, const char *field, double lo, int lo_open,
           double hi, const char *desc, double *out);

/*
 * An integer in [lo, hi] (written as an integer or as an integral number such
 * as 1e3).  desc says what is expected ("a positive integer"); a value
 * above hi adds "of at most HI" unless desc states its range already ("a
 * layer count from 1 to 1000", "a count in [0, 64]"), so the bound is said
 * once.
 */
int ld_integer(struct ld *ld, yaml_node_t *n, const char *field, double lo, double hi,
               const char *desc, double *out);

int ld_int(struct ld *ld, yaml_node_t *n, const char *field, int lo, int hi,
           const char *desc, int *out);

int ld_bool(struct ld *ld, yaml_node_t *n, const char *field, int *out);

/* One of a closed set (base/names.h): *out gets the index of the name. */
int ld_enum(struct ld *ld, yaml_node_t *n, const char *field, const char *(*name)(int),
            int *out);

/*
 * A single-line string of at most cap-1 bytes (and at least one when
 * nonempty) copied into out[cap].  what names it in messages ("a name").
 */
int ld_str(struct ld *ld, yaml_node_t *n, const char *field, char *out, size_t cap,
           int nonempty, const char *what);

/* As ld_str, into a new heap string the caller owns. */
int ld_strdup(struct ld *ld, yaml_node_t *n, const char *field, char **out);

int ld_keys(struct ld *ld, yaml_node_t *m, const char *path, yaml_mark_t at,
            const struct key_spec *t, size_t n, void *target);

/*
 * The required "name" of catalog entry idx into out (cap bytes), unique
 * among the entries before it: the name of entry i is at
 * first_name + i * stride.  what: "instance type" or "model"; list:
 * "catalog.instances" or "catalog.models".
 */
int ld_entry_name(struct ld *ld, yaml_node_t *m, const char *path, const char *what,
                  const char *list, const char *first_name, size_t stride, int idx,
                  char *out, size_t cap);

/* The source of an inline catalog entry: the given text, or where it was defined. */
int ld_source(struct ld *ld, yaml_node_t *m, const char *path, char **out);

/* ---- the scenario's sections through its field table (ld_field.c) ---- */

struct sc_field;
#define LD_MAX_KEYS 48          /* keys of one section's mapping, and the terminator */

/* A section's own code for a field the table marks SC_FIELD_CODE: v is its
 * value (NULL when absent), k its key node, at the section's mark. */
typedef int (*ld_code_fn)(struct ld *ld, const struct sc_field *f, yaml_node_t *v,
                          yaml_node_t *k, yaml_mark_t at);
/* Field f's value v into slot, by its type, range and words; field names it
 * in messages.  A field of the section's own code reads nothing. */
int ld_field(struct ld *ld, yaml_node_t *v, const char *field, const struct sc_field *f,
             void *slot);
/* The keys of the mapping at path in table order (cluster: only those a
 * cluster's own section takes), into keys[cap], NULL-terminated; the count. */
int ld_field_keys(const char *path, int cluster, const char **keys, int cap);
/* The mapping m at path: its keys checked against the table's, then each
 * field in table order, a missing required one refused at `at`. */
int ld_section(struct ld *ld, yaml_node_t *m, const char *path, yaml_mark_t at, ld_code_fn code);

/* The key_spec of a catalog field (catalog/fields.h): its range and words
 * from the table both catalog loaders share.  key must be in the table. */
struct key_spec ld_field_spec(const char *key, int required, size_t off);

/* ---- the catalog and profiles (ld_catalog.c) ---- */

/* A GPU model of the catalog; unknown names list the known ones. */
int ld_gpu(struct ld *ld, yaml_node_t *n, const char *field, const struct cat_gpu **out);

int ld_instance_ref(struct ld *ld, yaml_node_t *n, const char *field,
                    const struct cat_instance **out);

int ld_model_ref(struct ld *ld, yaml_node_t *n, const char *field,
                 const struct cat_model **out);
/* The model of that name: inline first, then the catalog's; NULL if none. */
const struct cat_model *ld_model_named(struct ld *ld, const char *name);

/*
 * A calibration profile named by the scenario (`profile:`, for the instance
 * type the profile names) or by an inline instance type (for that type).
 * A relative path is taken from the scenario's directory.  A file that
 * cannot be read is reported at the scenario's node; a bad profile by its
 * own FILE:LINE:COL line (catalog/profile.c).
 */
int ld_profile(struct ld *ld, yaml_node_t *v, const char *field, const char *instance);

/*
 * Profiles named by the catalog (instances.csv's profile column), for the
 * instance types the scenario did not give one for.  Loaded for every such
 * type, so a catalog search uses them too; a bad one is reported by its own
 * FILE:LINE:COL line.
 */
int ld_catalog_profiles(struct ld *ld);

void ld_inst_release(struct cat_instance *in);

int ld_catalog(struct ld *ld, yaml_node_t *m);

/*
 * Once the workload is read: each inline model given by its shape without
 * a seq_len takes workload.seq_len, and its params and fwd_gflops follow
 * (ld_catalog read the rest of the shape).  Neither given: refused, the
 * line naming both keys.
 */
int ld_catalog_seq_len(struct ld *ld);

/* ---- sections (ld_sections.c, ld_plan.c) ---- */

int ld_workload(struct ld *ld, yaml_node_t *m, yaml_mark_t at);

/* input may be NULL (section absent); at marks the section's key or the document. */
int ld_input(struct ld *ld, yaml_node_t *m, yaml_mark_t at);

int ld_gradients(struct ld *ld, yaml_node_t *m, yaml_mark_t at);

/* The gradient buckets a step holds, whatever sets their count: the model's
 * parameters in gradients.bucket_mb's buckets, written or by default, and in
 * each of plan.bucket_mb's; at most MAX_BUCKETS_PER_STEP.  Reported at the
 * bucket size when it was written, else where the parameters were given. */
int ld_buckets(struct ld *ld);

int ld_clusters(struct ld *ld, yaml_node_t *l);

int ld_fabric(struct ld *ld, yaml_node_t *m, yaml_mark_t at);

int ld_objective(struct ld *ld, yaml_node_t *m, yaml_mark_t at);

int ld_simulation(struct ld *ld, yaml_node_t *m, yaml_mark_t at);
int ld_goodput(struct ld *ld, yaml_node_t *m, yaml_mark_t at);

/* workload.measured_step.cluster names one of the clusters. */
int ld_measured_cluster(struct ld *ld);

int ld_plan(struct ld *ld, yaml_node_t *m, yaml_mark_t at);

#endif
