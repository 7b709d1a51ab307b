/*
 * calibrate.c - "dtplan calibrate": measure this machine and write a
 * calibration profile (docs/calibrate.md, docs/profile.md).
 *
 *   dtplan calibrate [--cpu] [--gpu] [--nccl] [--mpi] [--cmd "COMMAND"]
 *                    [--coll-cmd "COMMAND" [--coll-name NAME] [--coll-ranks K]
 *                    [--coll-hosts H]] [--minbytes B] [--maxbytes B]
 *                    [--stepfactor F] [--quick] [--seed N] [--instance NAME]
 *                    [--resume] -o PROFILE.json
 *
 * The command owns the profile document; each part (calib.h) fills its
 * section.  After every measured point the whole document is written to
 * PROFILE.json.partial (atomically), so a killed run loses at most the point
 * in progress and never touches PROFILE.json; --resume reads the partial
 * file (else the finished profile), refuses it when it was measured on
 * another machine or with other flags (same_run), and hands each part its
 * earlier section.  At the end PROFILE.json is replaced atomically and the
 * partial file removed.  PROFILE.json.lock (base/lockfile.h) keeps a second
 * calibration of the same path out while one runs.  An -o that exists and
 * is not a regular file (/dev/null, a FIFO) is written once, directly, with
 * no partial file and no lock.  Under mpirun every rank runs the MPI and
 * NCCL parts, rank 0 alone runs the CPU and GPU parts, locks, writes and
 * prints.
 *
 * Exit status: 0 done (parts may be skipped), 1 a part failed or the
 * profile could not be written, 2 bad flags, an -o another calibration
 * holds, or an earlier run --resume cannot take (bad, or of another
 * machine or other flags).
 */
#include "calibrate.h"
#include "interrupt.h"
#include "sweep.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../base/args.h"
#include "../base/clock.h"
#include "../base/lockfile.h"
#include "../base/mpienv.h"
#include "../base/text.h"
#include "calib.h"
#include "../catalog/profile.h"

#define CAL_VERSION "0.1.0"

enum { EXIT_FAIL = 1, EXIT_INPUT = 2 };
enum { PART_CPU = 1, PART_GPU = 2, PART_NCCL = 4, PART_MPI = 8, PART_ALL = 15, PART_CMDCOLL = 16 };

struct cal_opts {
    int parts;
    int quick;
    int resume;
    unsigned long seed;
    const char *out;
    const char *cmd;
    const char *instance;
    struct calib_cmdcoll coll;   /* coll.cmd NULL without --coll-cmd */
    double min_bytes, max_bytes, step_factor; /* 0: each part's default */
};

/* Progress and checkpoint state, shared by the callbacks. */
struct cal_state {
    int tty;                 /* stderr is a terminal: draw a bar */
    int rank;
    double part_t0;          /* when the current part started */
    char last_what[128];     /* not a terminal: the point in progress, "" none */
    double last_t;           /* when it started (monotonic s) */
    char part[16];
    cJSON *doc;
    char *partial;           /* PROFILE.json.partial; NULL when -o is not a regular file */
    char *lock;              /* PROFILE.json.lock; NULL when -o is not a regular file */
    int lock_fd;             /* held on lock by rank 0; -1 none */
    int checkpoints;
    int kill_after;          /* DTPLAN_CALIBRATE_KILL_AFTER, 0 off */
    int checkpoint_failed;
    char checkpoint_err[1024];
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dtplan calibrate [--cpu] [--gpu] [--nccl] [--mpi] [--cmd \"COMMAND\"]\n"
            "                        [--coll-cmd \"COMMAND\" [--coll-name NAME] [--coll-ranks K]\n"
            "                        [--coll-hosts H]] [--minbytes B] [--maxbytes B] [--stepfactor F]\n"
            "                        [--quick] [--seed N] [--instance NAME] [--resume] -o PROFILE.json\n"
            "\n"
            "Measure this machine and write a calibration profile (docs/calibrate.md).\n"
            "With no part flags, every part this machine can run; parts it cannot run are\n"
            "skipped with one line.  Under mpirun the MPI and NCCL parts span the ranks and\n"
            "rank 0 writes the profile.\n"
            "\n"
            "  --cpu              input-pipeline throughput against workers, USL fit\n"
            "  --gpu              cuBLAS GEMM and memory bandwidth\n"
            "  --nccl             NCCL collectives\n"
            "  --mpi              MPI collectives (needs 2 or more ranks)\n"
            "  --cmd \"COMMAND\"    also time COMMAND processing $DTPLAN_SAMPLES samples with\n"
            "                     $DTPLAN_WORKERS workers (run by /bin/sh; implies --cpu)\n"
            "  --coll-cmd \"COMMAND\"  time your own collective: COMMAND runs it on $DTPLAN_BYTES\n"
            "                     bytes $DTPLAN_ITERS times and prints the seconds of one\n"
            "                     (a number, or JSON with time_s) as its last line\n"
            "  --coll-name NAME   allreduce (default), allgather, reducescatter or broadcast\n"
            "  --coll-ranks K     ranks the command spans (default 2; $DTPLAN_RANKS)\n"
            "  --coll-hosts H     hosts the command spans (default: as many as ranks)\n"
            "  --minbytes B, --maxbytes B, --stepfactor F\n"
            "                     collective sizes, as nccl-tests' -b -e -f (K, M, G suffixes)\n"
            "  --quick            few sizes and repetitions (tests, smoke checks)\n"
            "  --seed N           seed of the synthetic data (default 1)\n"
            "  --instance NAME    the instance type measured (names it in the profile)\n"
            "  --resume           continue an interrupted run of the same -o file (same\n"
            "                     machine and flags; another is refused)\n"
            "  -o, --output FILE  the profile to write (atomically)\n"
            "  -h, --help         print this help and exit\n"
            "\n"
            "Exit status: 0 ok, 1 a part failed or the profile could not be written, 2 bad\n"
            "flags, -o in use by another calibration, or an earlier run --resume cannot take.\n");
}

static int bad_flag(const char *flag, const char *expected, const char *found)
{
    if (found)
        text_eprintf("dtplan calibrate: %s: expected %s, found \"%s\"", flag, expected, found);
    else
        text_eprintf("dtplan calibrate: %s: expected %s, found nothing", flag, expected);
    return EXIT_INPUT;
}

/* A size such as 4096, 64K, 1.5M or 1G (powers of 1024); -1 if malformed. */
static double parse_size(const char *v)
{
    char *end;
    double x;

    errno = 0;
    x = strtod(v, &end);
    if (end == v || errno || !(x > 0) || !isfinite(x))
        return -1;
    switch (*end) {
    case 'K': case 'k': x *= 1024; end++; break;
    case 'M': case 'm': x *= 1024 * 1024; end++; break;
    case 'G': case 'g': x *= 1024.0 * 1024 * 1024; end++; break;
    default: break;
    }
    return *end || x > 64.0 * 1024 * 1024 * 1024 ? -1 : x;
}

/* A count in [lo, hi]; -1 if malformed. */
static int parse_count(const char *v, int lo, int hi)
{
    char *end;
    long x;

    errno = 0;
    x = strtol(v, &end, 10);
    if (*v < '0' || *v > '9' || *end || errno || x < lo || x > hi)
        return -1;
    return (int)x;
}

/* ---- flags: the checks of the values (base/args.h's ARGS_VALUE) ---- */

static int take_text(const char *v, void *dst)
{
    if (!*v)
        return -1;
    *(const char **)dst = v;
    return 0;
}

static int take_coll_name(const char *v, void *dst)
{
    if (!calib_cmdcoll_valid_name(v))
        return -1;
    *(const char **)dst = v;
    return 0;
}

static int take_ranks(const char *v, void *dst)
{
    return (*(int *)dst = parse_count(v, 2, 1 << 20)) < 0 ? -1 : 0;
}

static int take_hosts(const char *v, void *dst)
{
    return (*(int *)dst = parse_count(v, 1, 1 << 20)) < 0 ? -1 : 0;
}

static int take_size(const char *v, void *dst)
{
    double b = parse_size(v);

    if (b < 4)
        return -1;
    *(double *)dst = b;
    return 0;
}

static int take_factor(const char *v, void *dst)
{
    char *end;
    double f;

    errno = 0;
    f = strtod(v, &end);
    if (end == v || *end || errno || !(f > 1) || f > 1024)
        return -1;
    *(double *)dst = f;
    return 0;
}

/* A command the profile records: printable UTF-8 on one line, as the
 * profile's reader requires of its strings (text_ok). */
static int take_command(const char *v, void *dst)
{
    if (!*v || !text_ok(v))
        return -1;
    *(const char **)dst = v;
    return 0;
}

/* The profile's reader's rule for its instance (text_ok), within the
 * planner's 63 bytes (struct prof_measured). */
static int take_instance(const char *v, void *dst)
{
    if (!*v || strlen(v) >= 64 || !text_ok(v))
        return -1;
    *(const char **)dst = v;
    return 0;
}

static int take_seed(const char *v, void *dst)
{
    unsigned long long x;

    if (args_parse_uint(v, 0xffffffffULL, &x))
        return -1;
    *(unsigned long *)dst = (unsigned long)x;
    return 0;
}

/* Returns 0 to go on, -1 to exit 0 (help), or EXIT_INPUT after one line. */
static int parse_args(int argc, char **argv, struct cal_opts *o)
{
    int cpu = 0, gpu = 0, nccl = 0, mpi = 0, rc;
    const char *positional = NULL;
    const struct args_opt *stop = NULL;
    struct dt_err e;
#define SW(name, flag) {name, NULL, ARGS_SWITCH, flag, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL}
#define VAL(name, alias, what, take, dst, missing) \
    {name, alias, ARGS_VALUE, NULL, NULL, NULL, 0, 0, what, take, dst, missing}
    /* In the order the unknown-flag line lists them (docs/calibrate.md). */
    const struct args_opt opts[] = {
        SW("--cpu", &cpu),
        SW("--gpu", &gpu),
        SW("--nccl", &nccl),
        SW("--mpi", &mpi),
        VAL("--cmd", NULL, "a shell command on one line of printable UTF-8", take_command,
            &o->cmd, NULL),
        VAL("--coll-cmd", NULL, "a shell command on one line of printable UTF-8", take_command,
            &o->coll.cmd, NULL),
        VAL("--coll-name", NULL, "one of allreduce, allgather, reducescatter, broadcast",
            take_coll_name, &o->coll.name, "a collective name"),
        VAL("--coll-ranks", NULL, "an integer of at least 2", take_ranks, &o->coll.ranks,
            "a count"),
        VAL("--coll-hosts", NULL, "a positive integer", take_hosts, &o->coll.hosts, "a count"),
        VAL("--minbytes", NULL, "a size of at least 4 bytes, up to 64G (suffixes K, M, G)",
            take_size, &o->min_bytes, "a size in bytes"),
        VAL("--maxbytes", NULL, "a size of at least 4 bytes, up to 64G (suffixes K, M, G)",
            take_size, &o->max_bytes, "a size in bytes"),
        VAL("--stepfactor", NULL, "a factor above 1 and at most 1024", take_factor,
            &o->step_factor, "a factor above 1"),
        SW("--quick", &o->quick),
        VAL("--seed", NULL, "a non-negative integer below 2^32", take_seed, &o->seed,
            "a non-negative integer"),
        VAL("--instance", NULL, "an instance type name of 1 to 63 bytes of printable UTF-8",
            take_instance, &o->instance, "an instance type name"),
        SW("--resume", &o->resume),
        VAL("-o", "--output", "a profile path", take_text, &o->out, NULL),
        {"--help", "-h", ARGS_STOP, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL},
    };
#undef SW
#undef VAL
    const struct args_cmd cmd = {"dtplan calibrate", NULL, opts,
                                 (int)(sizeof opts / sizeof opts[0]),
                                 "a flag (the profile is given with -o)"};

    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->coll.name = "allreduce";
    o->coll.ranks = 2;
    rc = args_parse(&cmd, argc, argv, &positional, &stop, &e);
    if (rc == ARGS_BAD) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    if (rc == ARGS_STOPPED) {
        usage(stdout);
        return -1;
    }
    o->parts = (cpu || o->cmd ? PART_CPU : 0) | (gpu ? PART_GPU : 0) | (nccl ? PART_NCCL : 0) |
               (mpi ? PART_MPI : 0) | (o->coll.cmd ? PART_CMDCOLL : 0);
    if (!o->out)
        return bad_flag("-o", "a profile path", NULL);
    if (o->min_bytes > 0 && o->max_bytes > 0 && o->max_bytes < o->min_bytes) {
        fprintf(stderr, "dtplan calibrate: --maxbytes: expected at least --minbytes (%.0f), found %.0f\n",
                o->min_bytes, o->max_bytes);
        return EXIT_INPUT;
    }
    if (!o->coll.cmd && (o->coll.hosts || o->coll.ranks != 2 || strcmp(o->coll.name, "allreduce"))) {
        fprintf(stderr, "dtplan calibrate: --coll-name, --coll-ranks, --coll-hosts: expected with "
                "--coll-cmd, found no --coll-cmd\n");
        return EXIT_INPUT;
    }
    if (!o->coll.hosts)
        o->coll.hosts = o->coll.ranks;
    if (!o->parts)
        o->parts = PART_ALL;
    return 0;
}

/* ------------------------------------------------------------ progress */

/* Not a terminal: a line when a point ends (what it was, the time it took,
 * how much of the part is done and about how long the rest takes), and the
 * sweep's estimate before its first point. */
static void lines_progress(struct cal_state *s, const char *what, double done)
{
    double now = sweep_now(), el = now - s->part_t0;

    if (strcmp(what, s->last_what) == 0)
        return;
    if (s->last_what[0] && strncmp(s->last_what, "estimate: ", 10) != 0 && done > 0) {
        char took[32], left[32];
        sweep_duration(took, sizeof took, now - s->last_t);
        sweep_duration(left, sizeof left, done < 1 ? el * (1 - done) / done : 0);
        fprintf(stderr, "dtplan calibrate: %s: %s took %s; %.0f%% done, about %s left\n",
                s->part, s->last_what, took, 100 * (done < 1 ? done : 1), left);
    }
    if (strncmp(what, "estimate: ", 10) == 0)
        fprintf(stderr, "dtplan calibrate: %s: %s\n", s->part, what + 10);
    snprintf(s->last_what, sizeof s->last_what, "%s", what);
    s->last_t = now;
}

static void progress(void *arg, const char *what, double done)
{
    struct cal_state *s = arg;
    double el, left;
    char bar[21];
    int k;

    if (s->rank != 0)
        return;
    if (!s->tty) {
        lines_progress(s, what, done);
        return;
    }
    if (done < 0)
        done = 0;
    if (done > 1)
        done = 1;
    k = (int)(done * 20);
    for (int i = 0; i < 20; i++)
        bar[i] = i < k ? '#' : '-';
    bar[20] = '\0';
    el = sweep_now() - s->part_t0;
    fprintf(stderr, "\r\033[K[%s] %3.0f%% %.60s", bar, done * 100, what);
    if (done > 0.02 && done < 1) {
        left = el * (1 - done) / done;
        fprintf(stderr, "  %d:%02d left", (int)left / 60, (int)left % 60);
    }
    fflush(stderr);
}

static void checkpoint(void *arg)
{
    struct cal_state *s = arg;
    struct dt_err e;

    if (s->rank != 0 || !s->doc || !s->partial)
        return;
    if (profile_write(s->partial, s->doc, &e)) {
        s->checkpoint_failed = 1;
        snprintf(s->checkpoint_err, sizeof s->checkpoint_err, "%s", e.msg);
        return;
    }
    s->checkpoints++;
    if (s->kill_after > 0 && s->checkpoints >= s->kill_after)
        raise(SIGKILL); /* tests: a calibration killed right after a checkpoint */
}

/* -------------------------------------------------------------- facts */

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
    if (v && *v)
        cJSON_AddStringToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static void cpu_model(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];

    buf[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *c = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !c)
            continue;
        c++;
        while (*c == ' ' || *c == '\t')
            c++;
        c[strcspn(c, "\n")] = '\0';
        snprintf(buf, cap, "%s", c);
        break;
    }
    fclose(f);
}

/* ISO 8601 UTC from SOURCE_DATE_EPOCH when set (reproducible), else the clock. */
static void profile_date(char *buf, size_t cap)
{
    time_t t;
    struct tm tm;

    clock_now(&t);      /* a malformed SOURCE_DATE_EPOCH: the clock */
    gmtime_r(&t, &tm);
    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const struct {
    int part;
    const char *name;
} part_names[] = {{PART_CPU, "cpu"}, {PART_GPU, "gpu"}, {PART_NCCL, "nccl"}, {PART_MPI, "mpi"},
                  {PART_CMDCOLL, "coll-cmd"}};

static cJSON *new_doc(const struct cal_opts *o)
{
    cJSON *doc = cJSON_CreateObject(), *cpu, *req;
    char host[256], model[256], date[40], mpiv[MPI_MAX_LIBRARY_VERSION_STRING];
    int mlen = 0;

    if (gethostname(host, sizeof host))
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    cpu_model(model, sizeof model);
    profile_date(date, sizeof date);
    if (MPI_Get_library_version(mpiv, &mlen) != MPI_SUCCESS)
        mpiv[0] = '\0';
    mpiv[strcspn(mpiv, "\n,")] = '\0';

    cJSON_AddNumberToObject(doc, "schema_version", PROFILE_SCHEMA_VERSION);
    cJSON_AddStringToObject(doc, "tool", "dtplan " CAL_VERSION);
    cJSON_AddStringToObject(doc, "host", host);
    add_str_or_null(doc, "instance", o->instance);
    cJSON_AddStringToObject(doc, "date", date);
    cJSON_AddBoolToObject(doc, "complete", 0);
    cJSON_AddBoolToObject(doc, "quick", o->quick);
    cJSON_AddNumberToObject(doc, "seed", (double)o->seed);
    add_str_or_null(doc, "cpu_model", model);
    cJSON_AddNumberToObject(doc, "vcpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddNullToObject(doc, "gpu_model");
    cJSON_AddNullToObject(doc, "driver");
    cJSON_AddNullToObject(doc, "cuda");
    cJSON_AddNullToObject(doc, "nccl");
    add_str_or_null(doc, "mpi", mpiv);
    req = cJSON_AddArrayToObject(doc, "parts_requested");
    for (size_t i = 0; i < sizeof part_names / sizeof part_names[0]; i++)
        if (o->parts & part_names[i].part)
            cJSON_AddItemToArray(req, cJSON_CreateString(part_names[i].name));
    cJSON_AddObjectToObject(doc, "parts");
    cpu = cJSON_AddObjectToObject(doc, "cpu");
    cJSON_AddArrayToObject(cpu, "pipelines");
    cJSON_AddObjectToObject(doc, "gpu");
    cJSON_AddArrayToObject(doc, "collectives");
    return doc;
}

/* Copy the GPU part's facts (model, driver, cuda, nccl) to the top level. */
static void lift_gpu_facts(cJSON *doc)
{
    static const char *const keys[] = {"gpu_model", "driver", "cuda", "nccl"};
    static const char *const from[] = {"model", "driver", "cuda", "nccl"};
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(doc, "gpu");

    for (int i = 0; i < 4; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(gpu, from[i]);
        if (cJSON_IsString(v))
            cJSON_ReplaceItemInObjectCaseSensitive(doc, keys[i], cJSON_CreateString(v->valuestring));
    }
}

/* ---------------------------------------------------------------- parts */

static const char *status_name(int rc)
{
    return rc == CALIB_OK ? "ok" : rc == CALIB_SKIPPED ? "skipped" : "error";
}

static void part_begin(struct cal_state *s, const char *name)
{
    snprintf(s->part, sizeof s->part, "%s", name);
    s->part_t0 = sweep_now();
    s->last_what[0] = '\0';
    if (s->rank == 0 && !s->tty)
        fprintf(stderr, "dtplan calibrate: %s: running\n", name);
}

static void part_end(struct cal_state *s, cJSON *doc, const char *name, int rc, const char *msg)
{
    if (s->rank != 0)
        return;
    if (s->tty)
        fprintf(stderr, "\r\033[K");
    fprintf(stderr, "dtplan calibrate: %s: %s%s%s%s\n", name, status_name(rc), *msg ? " (" : "",
            msg, *msg ? ")" : "");
    if (doc) {
        cJSON *parts = cJSON_GetObjectItemCaseSensitive(doc, "parts"), *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "status", status_name(rc));
        cJSON_AddStringToObject(p, "note", msg);
        cJSON_DeleteItemFromObjectCaseSensitive(parts, name);
        cJSON_AddItemToObject(parts, name, p);
    }
}

/* Warn on stderr about every fit the profile marks poor. */
static int warn_poor_fits(const cJSON *doc)
{
    const cJSON *pl, *co;
    int n = 0;

    cJSON_ArrayForEach(pl, cJSON_GetObjectItemCaseSensitive(
                               cJSON_GetObjectItemCaseSensitive(doc, "cpu"), "pipelines")) {
        const cJSON *fit = cJSON_GetObjectItemCaseSensitive(pl, "fit");
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(fit, "quality");
        const cJSON *note = cJSON_GetObjectItemCaseSensitive(fit, "note");
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(pl, "name");
        if (cJSON_IsString(q) && strcmp(q->valuestring, "good")) {
            fprintf(stderr, "dtplan calibrate: warning: cpu pipeline %s: USL fit %s: %s\n",
                    cJSON_IsString(nm) ? nm->valuestring : "?", q->valuestring,
                    cJSON_IsString(note) ? note->valuestring : "");
            n++;
        }
    }
    cJSON_ArrayForEach(co, cJSON_GetObjectItemCaseSensitive(doc, "collectives")) {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(co, "name");
        const cJSON *tr = cJSON_GetObjectItemCaseSensitive(co, "transport");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(co, "poor_fit"))) {
            fprintf(stderr, "dtplan calibrate: warning: %s %s: alpha-beta fit poor\n",
                    cJSON_IsString(tr) ? tr->valuestring : "?",
                    cJSON_IsString(nm) ? nm->valuestring : "?");
            n++;
        }
    }
    return n;
}

/*
 * Under mpirun: wait for every rank without spinning, so that ranks idle
 * while rank 0 measures the CPU and GPU parts do not take cores from it
 * (a blocking MPI_Barrier busy-polls in Open MPI).
 */
static void quiet_barrier(void)
{
    MPI_Request req;
    struct timespec nap = {0, 5000000}; /* 5 ms */
    int done = 0;

    if (mpienv_size() < 2)
        return;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    while (!done) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done)
            nanosleep(&nap, NULL);
    }
}

/*
 * Where the profile goes: a directory is refused; a path that exists and is
 * not a regular file (/dev/null, a FIFO) is written directly at the end,
 * with no partial file and no lock (s->partial, s->lock NULL); any other
 * path is locked (PATH.lock) for this run.  0, or EXIT_INPUT after one line.
 */
static int prepare_out(struct cal_state *s, const struct cal_opts *o)
{
    struct stat st;
    struct dt_err e;
    long holder;
    size_t n;
    int rc;

    if (stat(o->out, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            text_eprintf("dtplan calibrate: -o: expected a profile file, found the directory %s",
                         o->out);
            return EXIT_INPUT;
        }
        if (o->resume) {
            text_eprintf("dtplan calibrate: --resume: %s is not a regular file, so no earlier "
                         "run of it was kept; run without --resume", o->out);
            return EXIT_INPUT;
        }
        if (access(o->out, W_OK) != 0) {
            text_eprintf("dtplan calibrate: -o: %s: cannot open for writing: %s", o->out,
                         strerror(errno));
            return EXIT_INPUT;
        }
        return 0;
    }
    n = strlen(o->out) + 16;
    s->partial = x_malloc(n);
    snprintf(s->partial, n, "%s.partial", o->out);
    s->lock = x_malloc(n);
    snprintf(s->lock, n, "%s.lock", o->out);
    rc = lockfile_take(s->lock, &s->lock_fd, &holder, &e);
    if (rc == LOCKFILE_HELD) {
        char who[48];
        if (holder > 0)
            snprintf(who, sizeof who, "process %ld", holder);
        else
            snprintf(who, sizeof who, "another process");
        text_eprintf("dtplan calibrate: -o: %s is being calibrated by %s (it holds %s); wait for "
                     "it to end or choose another -o", o->out, who, s->lock);
        return EXIT_INPUT;
    }
    if (rc) {
        text_eprintf("dtplan calibrate: -o: %s", e.msg);
        return EXIT_INPUT;
    }
    return 0;
}

/* The earlier run to resume from: PATH.partial, else PATH.  0 (maybe none), or EXIT_INPUT. */
static int load_previous(const struct cal_state *s, const char *out, cJSON **prev,
                         const char **from)
{
    struct dt_err e;

    *prev = NULL;
    *from = access(s->partial, F_OK) == 0 ? s->partial : out;
    if (access(*from, F_OK) != 0) {
        text_eprintf("dtplan calibrate: --resume: no earlier run of %s; starting afresh", out);
        return 0;
    }
    if (profile_read(*from, prev, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return EXIT_INPUT;
    }
    return 0;
}

/*
 * --resume: the earlier run `prev` (read from `from`) must have measured
 * this machine with this run's flags, or its points would be mixed with
 * this run's under this run's name.  Compared with the new document `doc`:
 * the machine (host, CPU model, vCPUs) and what shapes the points
 * (--instance, --seed, --quick, the parts asked for).  A field the earlier
 * run did not record (a profile from before it was recorded) differs.
 * 0, or EXIT_INPUT after one line naming the first field that differs.
 */
static int same_run(const cJSON *prev, const char *from, const cJSON *doc)
{
    static const struct {
        const char *key, *label;
    } fields[] = {{"host", "host"},         {"cpu_model", "CPU model"},
                  {"vcpus", "vcpus"},       {"instance", "--instance"},
                  {"seed", "--seed"},       {"quick", "--quick"},
                  {"parts_requested", "parts"}};

    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const cJSON *was = cJSON_GetObjectItemCaseSensitive(prev, fields[i].key);
        const cJSON *is = cJSON_GetObjectItemCaseSensitive(doc, fields[i].key);
        char *was_s, *is_s;

        if (was && cJSON_Compare(was, is, 1))
            continue;
        /* JSON as the profile holds it; null (no --instance) as "none" */
        is_s = cJSON_IsNull(is) ? NULL : cJSON_PrintUnformatted(is);
        was_s = !was || cJSON_IsNull(was) ? NULL : cJSON_PrintUnformatted(was);
        if (was)
            text_eprintf("dtplan calibrate: --resume: %s was measured with %s %s, this run has "
                         "%s; remove it or run without --resume", from, fields[i].label,
                         was_s ? was_s : "none", is_s ? is_s : "none");
        else
            text_eprintf("dtplan calibrate: --resume: %s does not record its %s, this run has "
                         "%s; remove it or run without --resume", from, fields[i].label,
                         is_s ? is_s : "none");
        cJSON_free(was_s);
        cJSON_free(is_s);
        return EXIT_INPUT;
    }
    return 0;
}

int calibrate_main(int argc, char **argv)
{
    struct cal_opts o;
    struct cal_state s;
    struct calib_ctx c;
    struct dt_err e;
    cJSON *doc = NULL, *prev = NULL, *section;
    char msg[512];
    const char *ka, *from = NULL;
    int rc, status = 0, failed = 0, early = 1;

    rc = parse_args(argc, argv, &o);
    if (rc < 0) {   /* --help printed: it must have reached standard output */
        errno = 0;
        if (fflush(stdout) == 0 && !ferror(stdout))
            return 0;
        fprintf(stderr, "dtplan calibrate: cannot write to standard output: %s\n",
                strerror(errno ? errno : EIO));
        return EXIT_FAIL;
    }
    if (rc)
        return rc;
    if (mpienv_init(&argc, &argv))
        return EXIT_FAIL;

    memset(&s, 0, sizeof s);
    s.rank = mpienv_rank();
    s.tty = isatty(STDERR_FILENO);
    s.lock_fd = -1;
    ka = getenv("DTPLAN_CALIBRATE_KILL_AFTER");
    s.kill_after = ka ? atoi(ka) : 0;

    if (s.rank == 0) {
        if ((status = prepare_out(&s, &o)))
            goto out;
        if (o.resume && (status = load_previous(&s, o.out, &prev, &from)))
            goto out;
        doc = new_doc(&o);
        s.doc = doc;
        if (prev) {
            if ((status = same_run(prev, from, doc)))
                goto out;
            text_eprintf("dtplan calibrate: --resume: continuing from %s", from);
        }
        /* An unwritable destination fails now, not after the measurements. */
        checkpoint(&s);
        if (s.checkpoint_failed) {
            text_eprintf("dtplan calibrate: -o: %s", s.checkpoint_err);
            status = EXIT_INPUT;
            goto out;
        }
        if (s.rank == 0 && s.partial)
            interrupt_catch(s.tty, s.partial);
    }

    memset(&c, 0, sizeof c);
    c.rank = s.rank;
    c.size = mpienv_size();
    c.quick = o.quick;
    c.seed = o.seed;
    c.progress = progress;
    c.progress_arg = &s;
    c.checkpoint = checkpoint;
    c.checkpoint_arg = &s;
    c.min_bytes = o.min_bytes;
    c.max_bytes = o.max_bytes;
    c.step_factor = o.step_factor;

    if ((o.parts & PART_CPU) && s.rank == 0) {
        part_begin(&s, "cpu");
        section = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "cpu"),
                                                   "pipelines");
        c.previous = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(prev, "cpu"), "pipelines");
        rc = calib_cpu_run(&c, o.cmd, section, msg, sizeof msg);
        failed |= rc == CALIB_ERROR;
        part_end(&s, doc, "cpu", rc, msg);
    }
    if ((o.parts & PART_GPU) && s.rank == 0) {
        part_begin(&s, "gpu");
        c.previous = cJSON_GetObjectItemCaseSensitive(prev, "gpu");
        msg[0] = '\0';
        rc = calib_gpu_run(&c, cJSON_GetObjectItemCaseSensitive(doc, "gpu"), msg, sizeof msg);
        failed |= rc == CALIB_ERROR;
        lift_gpu_facts(doc);
        part_end(&s, doc, "gpu", rc, msg);
    }
    quiet_barrier();
    early = 0;
    /* The collective parts every rank runs; rank 0 writes collectives[]. */
    for (int k = 0; k < 2; k++) {
        static const struct {
            int part;
            const char *name;
            int (*run)(struct calib_ctx *, cJSON *, char *, size_t);
        } coll[] = {{PART_NCCL, "nccl", calib_nccl_run}, {PART_MPI, "mpi", calib_mpi_run}};
        if (!(o.parts & coll[k].part))
            continue;
        part_begin(&s, coll[k].name);
        c.previous = cJSON_GetObjectItemCaseSensitive(prev, "collectives");
        msg[0] = '\0';
        rc = coll[k].run(&c, s.rank == 0 ? cJSON_GetObjectItemCaseSensitive(doc, "collectives")
                                          : NULL, msg, sizeof msg);
        failed |= rc == CALIB_ERROR;
        part_end(&s, doc, coll[k].name, rc, msg);
    }

    if ((o.parts & PART_CMDCOLL) && s.rank == 0) {
        part_begin(&s, "coll-cmd");
        c.previous = cJSON_GetObjectItemCaseSensitive(prev, "collectives");
        msg[0] = '\0';
        rc = calib_cmdcoll_run(&c, &o.coll, cJSON_GetObjectItemCaseSensitive(doc, "collectives"), msg,
                               sizeof msg);
        failed |= rc == CALIB_ERROR;
        part_end(&s, doc, "coll-cmd", rc, msg);
    }

    if (s.rank == 0) {
        /* Sections a part left absent still appear, empty (docs/profile.md). */
        section = cJSON_GetObjectItemCaseSensitive(doc, "gpu");
        if (!cJSON_GetObjectItemCaseSensitive(section, "gemm"))
            cJSON_AddArrayToObject(section, "gemm");
        if (!cJSON_GetObjectItemCaseSensitive(section, "bandwidth"))
            cJSON_AddObjectToObject(section, "bandwidth");
        warn_poor_fits(doc);
        cJSON_ReplaceItemInObjectCaseSensitive(doc, "complete", cJSON_CreateBool(1));
        if (profile_write(o.out, doc, &e)) {
            fprintf(stderr, "dtplan calibrate: %s\n", e.msg);
            status = EXIT_FAIL;
            goto out;
        }
        if (s.partial)
            unlink(s.partial);
        if (s.checkpoint_failed)
            text_eprintf("dtplan calibrate: warning: a checkpoint failed: %s",
                    s.checkpoint_err);
        text_eprintf("dtplan calibrate: wrote %s", o.out);
        if (!o.instance)
            text_eprintf("dtplan calibrate: warning: no --instance: %s names no instance "
                    "type; a scenario takes it as the profile: of the type it measured (under "
                    "catalog.instances), or calibrate with --instance NAME", o.out);
    }
    status = failed ? EXIT_FAIL : 0;

out:
    lockfile_release(s.lock, s.lock_fd);
    /* Rank 0 stopped before the other ranks' barrier: end them too. */
    if (status && early && mpienv_size() > 1)
        MPI_Abort(MPI_COMM_WORLD, status);
    cJSON_Delete(doc);
    cJSON_Delete(prev);
    x_free(s.partial);
    x_free(s.lock);
    mpienv_finalize();
    return status;
}
