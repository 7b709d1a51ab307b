/*
 * test_fuzz.c - mutation testing of the dtplan binary on bad input.
 *
 * Takes the scenarios of the repository (and the plan scenarios of the
 * tests, the catalog's CSV files and two calibration profiles), damages each
 * one a few ways at a time (lines deleted, duplicated, swapped or re-indented, the file cut
 * short, a stray byte, a key misspelt, a value replaced by a hostile one:
 * NaN, infinities, huge and negative numbers, anchors, tags, empty flows,
 * very long strings), runs `$BUILD/dtplan --json -q -o OUT` on the result
 * and checks what docs/cli.md promises of any input:
 *
 *   - the process exits (no signal, no sanitizer report) with 0, 1 or 2;
 *   - on failure it prints one error line, which for bad input (2) starts
 *     with the name of an existing file (the scenario, or the catalog or
 *     profile it names) and for a planning error (1) with "dtplan", and
 *     writes no output file;
 *   - on success the output file is one JSON object with clusters[] and a
 *     recommendation, and a second run writes the same bytes.
 *
 * The mutations come from a seeded GSL generator, so every run tries the
 * same cases; DT_FUZZ_N sets how many (default 600 damaged scenarios, a
 * quarter of that of each other kind), DT_FUZZ_SEED the seed, DT_FUZZ_ONLY
 * the kinds (scenario, plan, catalog, profile, flags), DT_FUZZ_DIR where
 * the cases run (default $DT_TEST_OUT/fuzz, the directory tests/run.sh
 * gives each run, or tests/out/fuzz); every file a case writes goes there,
 * so two runs at once do not meet.  A failing case is kept there as
 * fail-KIND-N.txt and its command line printed.  A case that runs past
 * CASE_TIMEOUT_S dies of SIGALRM and fails.  Under `make check` the binary is
 * the sanitized one.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "t.h"
#include "../../base/text.h"

#define MAX_SEEDS 64
#define CASE_TIMEOUT_S 120
#define PATHLEN 4096
#define MAX_FAIL_SHOWN 20

/* Where the cases run: $DT_FUZZ_DIR, $DT_TEST_OUT/fuzz or tests/out/fuzz. */
static char out_dir[1024], out_path[PATHLEN], err_path[PATHLEN];

#include "t_mutate.h"

/* ------------------------------------------------------------ running */

/* Run argv with stdout to /dev/null and stderr to err_path; the wait status. */
static int run(char *const argv[])
{
    pid_t pid = fork();
    int st;

    if (pid < 0)
        return -1;
    if (pid == 0) {
        int dn = open("/dev/null", O_RDWR), ef = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (dn < 0 || ef < 0)
            _exit(127);
        dup2(dn, 0);
        dup2(dn, 1);
        dup2(ef, 2);
        alarm(CASE_TIMEOUT_S); /* kept across exec: a case that hangs dies of SIGALRM */
        execv(argv[0], argv);
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return st;
}

/* The first error line names a file that exists: "PATH:LINE:COL: ..." or
 * "PATH: ...". */
static int names_a_file(const char *line)
{
    const char *c = strchr(line, ':');
    char path[4096];
    struct stat sb;

    if (!c || c == line || (size_t)(c - line) >= sizeof path)
        return 0;
    memcpy(path, line, (size_t)(c - line));
    path[c - line] = '\0';
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int lines_in(const struct buf *b)
{
    int k = 0;
    for (size_t i = 0; i < b->n; i++)
        k += b->p[i] == '\n';
    return k + (b->n > 0 && b->p[b->n - 1] != '\n');
}

/* What is wrong with the run of one case, or NULL.  strict: the command
 * line is good and asks for a JSON report in the -o file (1: dtplan's, with
 * clusters[] and a recommendation; 2: dtplan plan's, with search and
 * recommendation), so a failure is the input's and its line names a file;
 * 0 (odd command lines): only the exit, the single line and the absence of
 * output on failure are checked. */
static const char *judge(int st, int strict, char *why, size_t cap)
{
    struct buf err = {0}, out = {0};
    struct stat sb;
    int have_out = stat(out_path, &sb) == 0, rc;
    const char *bad = NULL;

    if (read_file(err_path, &err))
        buf_set(&err, "", 0);
    if (st < 0) {
        snprintf(why, cap, "could not run dtplan");
        bad = why;
    } else if (WIFSIGNALED(st)) {
        snprintf(why, cap, "killed by signal %d", WTERMSIG(st));
        bad = why;
    } else if ((rc = WEXITSTATUS(st)) > 2) {
        snprintf(why, cap, "exit status %d (expected 0, 1 or 2)", rc);
        bad = why;
    } else if (strstr(err.p, "Sanitizer") || strstr(err.p, "runtime error:")) {
        snprintf(why, cap, "sanitizer report");
        bad = why;
    } else if (rc != 0) {
        char *nl = strchr(err.p, '\n');
        if (nl)
            *nl = '\0';
        if (have_out)
            snprintf(why, cap, "exit status %d but the -o file was written", rc), bad = why;
        else if (lines_in(&err) != 1)
            snprintf(why, cap, "exit status %d with %d lines on stderr (expected one)", rc, lines_in(&err)),
                bad = why;
        else if (!text_ok(err.p))
            snprintf(why, cap, "the error line is not printable UTF-8: \"%.120s\"", err.p), bad = why;
        else if (strict && rc == 2 && !names_a_file(err.p))
            snprintf(why, cap, "input error line does not start with a file: \"%.120s\"", err.p), bad = why;
        else if (strict && rc == 1 && strncmp(err.p, "dtplan", 6) != 0)
            snprintf(why, cap, "planning error line does not start with dtplan: \"%.120s\"", err.p), bad = why;
    } else if (strict) {
        cJSON *j = NULL;
        if (!have_out || read_file(out_path, &out))
            snprintf(why, cap, "exit status 0 but no -o file"), bad = why;
        else if (!(j = cJSON_Parse(out.p)) ||
                 (strict == 1 && (!cJSON_IsArray(cJSON_GetObjectItem(j, "clusters")) ||
                                  !cJSON_IsObject(cJSON_GetObjectItem(j, "recommendation")))) ||
                 (strict == 2 && (!cJSON_IsObject(cJSON_GetObjectItem(j, "search")) ||
                                  !cJSON_GetObjectItem(j, "recommendation"))))
            snprintf(why, cap, "exit status 0 but the output is not the report object"), bad = why;
        cJSON_Delete(j);
    }
    free(err.p);
    free(out.p);
    return bad;
}

/* Create dir and the directories above it that are missing. */
static void mkdir_parents(const char *dir)
{
    char p[sizeof out_dir];

    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

/* ------------------------------------------------------------ driver */

struct tally {
    int n, rc[3], fail;
};

/* Run one case, judge it, keep the damaged file when it fails. */
static void one_case(const char *label, int c, char *const argv[], int strict, const struct buf *damaged,
                     const char *const what[3], struct tally *t)
{
    char why[512], keep[PATHLEN + 64];
    int st;

    unlink(out_path);
    st = run(argv);
    t->n++;
    if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) <= 2)
        t->rc[WEXITSTATUS(st)]++;
    if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1) {
        /* Not a failure; shown so that a planning error an input check
         * should have caught can be seen. */
        struct buf err = {0};
        if (read_file(err_path, &err) == 0) {
            char *nl = strchr(err.p, '\n');
            if (nl)
                *nl = '\0';
            printf("# fuzz %s case %d: exit 1: %s\n", label, c, err.p);
        }
        free(err.p);
    }
    if (!judge(st, strict, why, sizeof why)) {
        /* A report must come out the same, byte for byte, when run again. */
        struct buf first = {0}, again = {0};
        if (!strict || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || read_file(out_path, &first))
            return;
        unlink(out_path);
        st = run(argv);
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0 && !read_file(out_path, &again) &&
              again.n == first.n && memcmp(again.p, first.p, first.n) == 0))
            snprintf(why, sizeof why, "a second run did not give the same report");
        else
            why[0] = '\0';
        free(first.p);
        free(again.p);
        if (!why[0])
            return;
    }
    t->fail++;
    snprintf(keep, sizeof keep, "%s/fail-%s-%d.txt", out_dir, label, c);
    if (damaged)
        write_file(keep, damaged);
    if (t->fail <= MAX_FAIL_SHOWN) {
        char cmd[1024] = "";
        for (int i = 0; argv[i]; i++) {
            strncat(cmd, argv[i], sizeof cmd - strlen(cmd) - 2);
            strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
        }
        T_CHECK(0, "fuzz %s case %d (%s%s%s%s%s): %s; command: %s%s%s", label, c, what[0],
                what[1][0] ? ", " : "", what[1], what[2][0] ? ", " : "", what[2], why, cmd,
                damaged ? "; damaged file kept as " : "", damaged ? keep : "");
    }
}

static void tally_report(const char *label, const char *what, const struct tally *t, unsigned long seed,
                         int need_both)
{
    T_CHECK(t->fail == 0, "fuzz %s: %d %s (seed %lu): exit 0 %d times, 1 %d times, 2 %d times; "
            "%d broke a promise", label, t->n, what, seed, t->rc[0], t->rc[1], t->rc[2], t->fail);
    if (need_both)
        T_CHECK(t->rc[0] > 0 && t->rc[2] > 0, "fuzz %s: the cases reach both the report and the error path",
                label);
}

/* Damage `src` 1-3 times into `dst`; what was done goes to what[]. */
static int damage(const char *src, const char *dst, enum kind k, gsl_rng *r, struct buf *b,
                  char what[3][160])
{
    int n = 1 + (int)gsl_rng_uniform_int(r, 3);
    for (int m = 0; m < 3; m++)
        what[m][0] = '\0';
    if (read_file(src, b))
        return -1;
    for (int m = 0; m < n; m++)
        mutate_once(b, k, r, what[m], sizeof what[m]);
    return write_file(dst, b);
}

static int copy_file(const char *src, const char *dst)
{
    struct buf b = {0};
    int rc = read_file(src, &b) || write_file(dst, &b) ? -1 : 0;
    free(b.p);
    return rc;
}

static int glob_scenarios(char *seeds[MAX_SEEDS])
{
    static const char *const pats[] = {"scenarios/seeds/*.yaml", "scenarios/*.yaml",
                                       "tests/data/scenario_ok/*.yaml", "tests/data/cli/tiny.yaml",
                                       "tests/data/*.yaml", "tests/data/profiles/*.yaml"};
    int n = 0;
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
        glob_t g;
        if (glob(pats[p], 0, NULL, &g) != 0)
            continue;
        for (size_t i = 0; i < g.gl_pathc && n < MAX_SEEDS; i++)
            if (!strstr(g.gl_pathv[i], "plan-")) /* searches are dtplan plan's; too slow here */
                seeds[n++] = strdup(g.gl_pathv[i]);
        globfree(&g);
    }
    return n;
}

static char bin[PATHLEN];
static int ncases;
static unsigned long fuzz_seed;

/* Damage each of seeds[] in turn and run `argv` on it (argv[path_at] is the
 * damaged file); strict as for judge(). */
static void damage_and_run(const char *label, char **seeds, int nseeds, int ncase, char **argv,
                           int path_at, int strict, unsigned long seed)
{
    char what[3][160], path[PATHLEN + 16];
    const char *whatp[3] = {what[0], what[1], what[2]};
    struct tally t = {0};
    struct buf b = {0};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

    gsl_rng_set(r, seed);
    snprintf(path, sizeof path, "%s/case.yaml", out_dir);
    argv[path_at] = path;
    for (int c = 0; nseeds > 0 && c < ncase; c++) {
        const char *src = seeds[c % nseeds];
        char *last;
        if (damage(src, path, K_YAML, r, &b, what)) {
            T_CHECK(0, "fuzz: cannot copy %s to %s", src, path);
            break;
        }
        last = what[2][0] ? what[2] : what[1][0] ? what[1] : what[0];
        strncat(last, " in ", sizeof what[0] - strlen(last) - 1);
        strncat(last, src, sizeof what[0] - strlen(last) - 1);
        one_case(label, c, argv, strict, &b, whatp, &t);
    }
    unlink(path);
    tally_report(label, "damaged scenarios", &t, seed, 1);
    gsl_rng_free(r);
    free(b.p);
}

/* Scenario files: every scenario of the repository, damaged. */
static void damaged_scenarios_never_crash(void)
{
    char *seeds[MAX_SEEDS];
    char *argv[] = {bin, "--json", "-q", "--steps", "4", "-o", out_path, NULL, NULL};
    int nseeds = glob_scenarios(seeds);

    T_CHECK(nseeds >= 8, "fuzz: %d scenarios to damage", nseeds);
    damage_and_run("scenario", seeds, nseeds, ncases, argv, 7, 1, fuzz_seed);
    for (int i = 0; i < nseeds; i++)
        free(seeds[i]);
}

/* Searches: the plan scenarios of the tests, damaged, through dtplan plan
 * (a damaged search space must be refused or searched, never hang). */
static void damaged_searches_never_crash(void)
{
    char *seeds[MAX_SEEDS];
    char *argv[] = {bin, "plan", "--json", "-q", "-o", out_path, NULL, NULL};
    int nseeds = 0;
    glob_t g;

    if (glob("tests/data/plan/*.yaml", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc && nseeds < MAX_SEEDS; i++)
            seeds[nseeds++] = strdup(g.gl_pathv[i]);
        globfree(&g);
    }
    T_CHECK(nseeds >= 4, "fuzz: %d plan scenarios to damage", nseeds);
    damage_and_run("plan", seeds, nseeds, ncases / 4, argv, 6, 2, fuzz_seed + 4);
    for (int i = 0; i < nseeds; i++)
        free(seeds[i]);
}

/* Copy files[] of src_dir into dir, one of them (in turn) damaged as kind k,
 * and run argv, ncase times; argv[scen_at] cycles through scen[] when nscen
 * > 0.  The copies are removed at the end. */
static void damage_one_of(const char *label, const char *src_dir, const char *const files[], int nfiles,
                          enum kind k, const char *dir, char **argv, int scen_at,
                          const char *const scen[], int nscen, int ncase, unsigned long seed)
{
    char src[PATHLEN + 64], dst[PATHLEN + 64], what[3][160];
    const char *whatp[3] = {what[0], what[1], what[2]};
    struct tally t = {0};
    struct buf b = {0};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

    gsl_rng_set(r, seed);
    for (int c = 0; c < ncase; c++) {
        int f = c % nfiles, bad = 0;
        for (int i = 0; i < nfiles && !bad; i++) {
            snprintf(src, sizeof src, "%s/%s", src_dir, files[i]);
            snprintf(dst, sizeof dst, "%s/%s", dir, files[i]);
            bad = i == f ? damage(src, dst, k, r, &b, what) : copy_file(src, dst);
        }
        if (bad) {
            T_CHECK(0, "fuzz: cannot copy %s to %s", src, dst);
            break;
        }
        strncat(what[0], " in ", sizeof what[0] - strlen(what[0]) - 1);
        strncat(what[0], files[f], sizeof what[0] - strlen(what[0]) - 1);
        if (nscen > 0)
            argv[scen_at] = (char *)scen[c % nscen];
        one_case(label, c, argv, 1, &b, whatp, &t);
    }
    for (int i = 0; i < nfiles; i++) {
        snprintf(dst, sizeof dst, "%s/%s", dir, files[i]);
        unlink(dst);
    }
    tally_report(label, "damaged files", &t, seed, 1);
    gsl_rng_free(r);
    free(b.p);
}

/* Catalog files: one of instances.csv, gpus.csv, models.csv damaged in a
 * copy of the catalog, read through --catalog. */
static void damaged_catalogs_never_crash(void)
{
    static const char *const files[] = {"instances.csv", "gpus.csv", "models.csv"};
    static const char *const scen[] = {"scenarios/seeds/s1-hetero-tfdata-resnet50.yaml",
                                       "scenarios/seeds/s4-cassava-t4.yaml",
                                       "scenarios/seeds/s6-gradient-sharing.yaml"};
    char cat[PATHLEN + 16];
    char *argv[] = {bin, "--json", "-q", "--steps", "4", "--catalog", cat, "-o", out_path, NULL, NULL};

    snprintf(cat, sizeof cat, "%s/catalog", out_dir);
    mkdir(cat, 0755);
    damage_one_of("catalog", "catalog", files, 3, K_CSV, cat, argv, 9, scen, 3, ncases / 4, fuzz_seed + 1);
    rmdir(cat);
}

/* Calibration profiles: the two JSON profiles a test scenario names, one of
 * them damaged, next to a copy of the scenario. */
static void damaged_profiles_never_crash(void)
{
    static const char *const files[] = {"p3_2xlarge.json", "lab_cpu.json"};
    char dir[PATHLEN + 16], scen[PATHLEN + 64];
    char *argv[] = {bin, "--json", "-q", "-o", out_path, scen, NULL};

    snprintf(dir, sizeof dir, "%s/profiles", out_dir);
    snprintf(scen, sizeof scen, "%s/with_profile.yaml", dir);
    mkdir(dir, 0755);
    if (copy_file("tests/data/profiles/with_profile.yaml", scen) == 0)
        damage_one_of("profile", "tests/data/profiles", files, 2, K_JSON, dir, argv, 0, NULL, 0,
                      ncases / 4, fuzz_seed + 2);
    else
        T_CHECK(0, "fuzz: cannot copy the profile scenario to %s", scen);
    unlink(scen);
    rmdir(dir);
}

/* Flags: random command lines from the options of docs/cli.md and hostile
 * values, in front of a good scenario. */
static void odd_command_lines_never_crash(void)
{
    static const char *const opts[] = {"--json", "--csv", "-o", "--output", "--trace", "--report",
                                       "--catalog", "--seed", "--steps", "-q", "--quiet", "--help",
                                       "--version", "-x", "--", "-", "run", "plan", "--nosuch"};
    static const char *const vals[] = {"0", "1", "-1", "1000001", "99999999999999999999", "1e3",
                                       "abc", "", "nan", "/nonexistent/dir/file", "catalog", "3",
                                       "scenarios/seeds/s2-hetero-grpc-mnist.yaml",
                                       "\x1b[31mred", "two\nlines", "\xff\xfe"};
    char *argv[16], what[3][160] = {"", "", ""}, trace[PATHLEN + 16], report[PATHLEN + 16];
    const char *whatp[3] = {what[0], what[1], what[2]};
    struct tally t = {0};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

    gsl_rng_set(r, fuzz_seed + 3);
    snprintf(trace, sizeof trace, "%s/trace.json", out_dir);
    snprintf(report, sizeof report, "%s/report.html", out_dir);
    for (int c = 0; c < ncases / 4; c++) {
        int n = 0, k = (int)gsl_rng_uniform_int(r, 5);
        argv[n++] = bin;
        for (int i = 0; i < k; i++) {
            const char *o = opts[gsl_rng_uniform_int(r, sizeof opts / sizeof opts[0])];
            argv[n++] = (char *)o;
            if (!strcmp(o, "-o") || !strcmp(o, "--output"))
                argv[n++] = out_path;
            else if (!strcmp(o, "--trace"))
                argv[n++] = gsl_rng_uniform_int(r, 2) ? trace : (char *)vals[9];
            else if (!strcmp(o, "--report"))
                argv[n++] = gsl_rng_uniform_int(r, 2) ? report : (char *)vals[9];
            else if (!strcmp(o, "--catalog") || !strcmp(o, "--seed") || !strcmp(o, "--steps"))
                argv[n++] = (char *)vals[gsl_rng_uniform_int(r, sizeof vals / sizeof vals[0])];
        }
        if (gsl_rng_uniform_int(r, 4))
            argv[n++] = "tests/data/cli/tiny.yaml";
        argv[n] = NULL;
        snprintf(what[0], sizeof what[0], "%d options", k);
        one_case("flags", c, argv, 0, NULL, whatp, &t);
        unlink(trace);
        unlink(report);
    }
    tally_report("flags", "odd command lines", &t, fuzz_seed + 3, 0);
    gsl_rng_free(r);
}

/* A subcommand with flags of its own: random flags and hostile values,
 * judged as the other command lines (exit 0 or 2, one error line, never a
 * crash).  A value "@out/NAME" stands for NAME in the directory of the
 * cases. */
static void odd_subcommand_lines_of(const char *cmd, const char *const *opts, size_t nopts,
                                    const char *const *vals, size_t nvals, unsigned long seed,
                                    int ncmd, const char *const *tail)
{
    char *argv[32], what[3][160] = {"", "", ""}, label[64], in_out[8][PATHLEN + 64];
    const char *whatp[3] = {what[0], what[1], what[2]};
    struct tally t = {0};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

    gsl_rng_set(r, seed);
    for (int c = 0; c < ncmd; c++) {
        int n = 0, k = (int)gsl_rng_uniform_int(r, 7);
        argv[n++] = bin;
        argv[n++] = (char *)cmd;
        for (int i = 0; i < k; i++) {
            const char *o = opts[gsl_rng_uniform_int(r, nopts)];
            const char *v = vals[gsl_rng_uniform_int(r, nvals)];
            argv[n++] = (char *)o;
            /* an output goes where this run may write: its own file, a
             * path with a directory, or a device; never a bare name that
             * would land in the working tree */
            if ((!strcmp(o, "-o") || !strcmp(o, "--output")) && *v && !strchr(v, '/'))
                v = out_path;
            else if (!strncmp(v, "@out/", 5)) {
                snprintf(in_out[i], sizeof in_out[i], "%s/%s", out_dir, v + 5);
                v = in_out[i];
            }
            /* a value left out makes the next option the value; never so
             * for an output, whose value would then be a bare name such as
             * "--help", created in the working tree (-o last still tests
             * an output without its value) */
            if (gsl_rng_uniform_int(r, 5) ||
                ((!strcmp(o, "-o") || !strcmp(o, "--output")) && (i + 1 < k || tail)))
                argv[n++] = (char *)v;
        }
        for (int i = 0; tail && tail[i]; i++)
            argv[n++] = (char *)tail[i];
        argv[n] = NULL;
        snprintf(what[0], sizeof what[0], "%s, %d options", cmd, k);
        one_case("flags", c, argv, 0, NULL, whatp, &t);
    }
    snprintf(label, sizeof label, "odd dtplan %s lines", cmd);
    tally_report("flags", label, &t, seed, 0);
    gsl_rng_free(r);
}

static void odd_subcommand_lines(const char *cmd, const char *const *opts, size_t nopts,
                                 const char *const *vals, size_t nvals, unsigned long seed)
{
    odd_subcommand_lines_of(cmd, opts, nopts, vals, nvals, seed, ncases / 8, NULL);
}

static void odd_plan_lines_never_crash(void)
{
    static const char *const opts[] = {"--json", "--csv", "-o", "--trace", "--report", "--catalog",
                                       "--seed", "--steps", "--top", "--all", "-q", "--help",
                                       "--version", "--nosuch", "-", "--"};
    static const char *const vals[] = {"tests/data/plan/enumerate-small.yaml",
                                       "tests/data/plan/budget.yaml", "0", "1", "-1", "1001",
                                       "99999999999999999999", "abc", "", "nan", "catalog",
                                       "/nonexistent/dir/file", "tests/data/cli/tiny.yaml", "\x1b[2J", "a\nb", "\xc0\xaf"};

    odd_subcommand_lines("plan", opts, sizeof opts / sizeof *opts, vals,
                         sizeof vals / sizeof *vals, fuzz_seed + 7);
}

static void odd_catalog_lines_never_crash(void)
{
    static const char *const opts[] = {"list", "import", "--gpu", "--cloud", "--region",
                                       "--catalog", "--json", "-o", "--help", "--nosuch", "-"};
    static const char *const vals[] = {"list", "import", "H100", "A100", "aws", "gcp", "nosuch",
                                       "us-east-1", "", "catalog", "tests/data/skypilot",
                                       "tests/data/skypilot/aws/vms.csv", "tests/data/skypilot-bad",
                                       "/nonexistent/dir", "@out/catalog-import", "\x1b[2J", "a\nb", "\xc0\xaf"};

    odd_subcommand_lines("catalog", opts, sizeof opts / sizeof *opts, vals,
                         sizeof vals / sizeof *vals, fuzz_seed + 8);
}

/* Each of these may run a short calibration (--quick, appended to every
 * line): fewer cases. */
static void odd_calibrate_lines_never_crash(void)
{
    static const char *const opts[] = {"--cpu", "--gpu", "--nccl", "--mpi", "--cmd", "--coll-cmd",
                                       "--coll-name", "--coll-ranks", "--coll-hosts", "--minbytes",
                                       "--maxbytes", "--stepfactor", "--seed", "--instance",
                                       "--resume", "-o", "--help", "--nosuch"};
    static const char *const vals[] = {"true", "false", "echo 0.001", "echo nan", "exit 3",
                                       "allreduce", "nosuch", "0", "1", "2", "-1", "1K", "1G", "1T",
                                       "0.5", "1e308", "99999999999999999999", "", "p3.2xlarge",
                                       "/nonexistent/dir/p.json", "@out/calib.json", "\x1b[2J", "a\nb", "\xc0\xaf"};
    static const char *const tail[] = {"--quick", NULL};

    odd_subcommand_lines_of("calibrate", opts, sizeof opts / sizeof *opts, vals,
                            sizeof vals / sizeof *vals, fuzz_seed + 9, ncases / 32, tail);
}

static void odd_compute_lines_never_crash(void)
{
    static const char *const opts[] = {"--model", "--gpu", "--precision", "--batch", "--seq",
                                       "--attention", "--memory-format", "--catalog", "--json",
                                       "--help", "--nosuch", "-o"};
    static const char *const vals[] = {"resnet50", "gpt3-1.3b", "bert-large-squad", "nosuch",
                                       "/dev/full", "/dev/null",
                                       "A100,H100", "V100,,T4", ",", "X100", "fp8", "auto",
                                       "fp32_strict", "unfused", "nhwc", "0", "1", "65",
                                       "99999999999999999999", "-1", "", "catalog",
                                       "/nonexistent/dir", "1e3", "\x1b[2J", "a\nb", "\xc0\xaf"};

    odd_subcommand_lines("compute", opts, sizeof opts / sizeof *opts, vals,
                         sizeof vals / sizeof *vals, fuzz_seed + 5);
}

static void odd_collectives_lines_never_crash(void)
{
    static const char *const opts[] = {"--instance", "--gpu", "--gpus-per-node", "--link",
                                       "--nvlink-gbs", "--net-gbps", "--nics", "--efa", "--nodes",
                                       "-b", "-e", "-f", "--algo", "--proto", "--catalog",
                                       "--json", "--help", "--nosuch", "-o"};
    static const char *const vals[] = {"p5.48xlarge", "p4d.24xlarge", "g5.xlarge", "c5.9xlarge",
                                       "nosuch", "H100", "A100", "MI300X", "nvswitch", "pcie",
                                       "nvls", "tree", "LL128", "Simple", "0", "1", "2", "64",
                                       "1000000", "99999999999999999999", "-1", "", "8", "1G",
                                       "1T", "2T", "0.5", "1e308", "nan", "1.0000001", "catalog",
                                       "/nonexistent/dir", "/dev/full", "\x1b[2J", "a\nb", "\xc0\xaf"};

    odd_subcommand_lines("collectives", opts, sizeof opts / sizeof *opts, vals,
                         sizeof vals / sizeof *vals, fuzz_seed + 6);
}

int main(void)
{
    const char *bdir = getenv("BUILD"), *ns = getenv("DT_FUZZ_N"), *ss = getenv("DT_FUZZ_SEED"),
               *dir = getenv("DT_FUZZ_DIR"), *test_out = getenv("DT_TEST_OUT"), *only;
    struct stat sb;

    if (dir && *dir)
        snprintf(out_dir, sizeof out_dir, "%s", dir);
    else if (test_out && *test_out)
        snprintf(out_dir, sizeof out_dir, "%s/fuzz", test_out);
    else
        snprintf(out_dir, sizeof out_dir, "tests/out/fuzz");
    snprintf(out_path, sizeof out_path, "%s/out.json", out_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", out_dir);
    snprintf(bin, sizeof bin, "%s/dtplan", bdir && *bdir ? bdir : "build");
    ncases = ns ? atoi(ns) : 600;
    fuzz_seed = ss ? strtoul(ss, NULL, 10) : 20261121UL;
    if (stat(bin, &sb) != 0) {
        T_CHECK(0, "fuzz: %s does not exist (run make)", bin);
        return T_DONE();
    }
    mkdir_parents(out_dir);
    only = getenv("DT_FUZZ_ONLY");
    if (!only || strstr(only, "scenario"))
        T_RUN(damaged_scenarios_never_crash);
    if (!only || strstr(only, "plan"))
        T_RUN(damaged_searches_never_crash);
    if (!only || strstr(only, "catalog"))
        T_RUN(damaged_catalogs_never_crash);
    if (!only || strstr(only, "profile"))
        T_RUN(damaged_profiles_never_crash);
    if (!only || strstr(only, "flags")) {
        T_RUN(odd_command_lines_never_crash);
        T_RUN(odd_compute_lines_never_crash);
        T_RUN(odd_collectives_lines_never_crash);
        T_RUN(odd_plan_lines_never_crash);
        T_RUN(odd_catalog_lines_never_crash);
        T_RUN(odd_calibrate_lines_never_crash);
    }
    unlink(out_path);
    unlink(err_path);
    return T_DONE();
}
