/*
 * test_profile.c - calibration profiles: reading and summarizing the
 * measured numbers, converting collective fits to link parameters,
 * validation errors with file:line:col, the round trip through the atomic
 * writer, and what the planner does with a profile.
 */
#include <cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../catalog/profile.h"
#include "../../catalog/catalog.h"
#include "../../cli/ld_scenario.h"
#include "../../planner/planner.h"
#include "../../planner/compute.h"
#include "t.h"

#define DIR_DATA "tests/data/profiles/"

static void a_profile_is_reduced_to_the_planners_numbers(void)
{
    struct prof_measured m;
    struct dt_err e;

    T_CHECK(profile_load(DIR_DATA "p3_2xlarge.json", &m, &e) == 0, "p3_2xlarge.json loads");
    T_CHECK(!strcmp(m.instance, "p3.2xlarge") && !strcmp(m.host, "test-host"),
            "instance and host read");
    T_NEAR(m.cpu_lambda, 520, 1e-12, "builtin-image lambda 520 samples/s");
    T_CHECK(!strcmp(m.cpu_quality, "good") && m.cpu_cores == 8, "fit quality and cores read");
    T_NEAR(m.gemm_tflops[CAT_FP32], 10, 1e-12, "fp32 GEMM: the best of 7.5 and 10 TFLOP/s");
    T_NEAR(m.gemm_tflops[CAT_FP16], 90, 1e-12, "fp16 GEMM 90 TFLOP/s");
    T_CHECK(isnan(m.gemm_tflops[CAT_BF16]), "bf16 not measured: unknown");
    T_CHECK(isnan(m.net_Bps) && isnan(m.intra_Bps), "no collectives: links unknown");
    /* sigma = kappa = 0: X(n)/n = lambda at any n; 520 / 260 = 2. */
    T_NEAR(profile_cpu_speed(&m, 8), 520 / PROFILE_REF_SAMPLES_PER_S, 1e-12,
           "vCPU speed lambda / reference rate");
}

/*
 * lab_cpu.json: MPI all-reduce over 2 ranks on 2 hosts, t = 1e-4 + 1e-9 S.
 * A ring all-reduce takes 2(k-1) hops and moves 2(k-1)/k S per rank, so
 * hop alpha = 1e-4 / 2 = 5e-5 s and bus bandwidth = (2*1/2) / 1e-9 = 1e9
 * B/s.  NCCL all_reduce over 4 GPUs on 1 host, t = 6e-5 + 1.5e-11 S: hop
 * alpha = 6e-5 / 6 = 1e-5 s, bandwidth = (2*3/4) / 1.5e-11 = 1e11 B/s.  The
 * 4-host fit marked poor is not used.
 */
static void collective_fits_become_link_latency_and_bandwidth(void)
{
    struct prof_measured m;
    struct dt_err e;

    T_CHECK(profile_load(DIR_DATA "lab_cpu.json", &m, &e) == 0, "lab_cpu.json loads (%s)",
            e.msg);
    T_NEAR(m.net_alpha_s, 5e-5, 1e-12, "network hop latency 50 us");
    T_NEAR(m.net_Bps / 1e9, 1.0, 1e-12, "network bus bandwidth 1 GB/s");
    T_CHECK(strstr(m.net_from, "2 ranks on 2 hosts") != NULL, "the 2-host fit, not the poor 4-host one (%s)",
            m.net_from);
    T_NEAR(m.intra_alpha_s, 1e-5, 1e-12, "GPU link hop latency 10 us");
    T_NEAR(m.intra_Bps / 1e9, 100.0, 1e-9, "GPU link bus bandwidth 100 GB/s");
    /* USL lambda 520, sigma 0.1, kappa 0 at n = 4: 520 / (1 + 0.3) = 400 per core. */
    T_NEAR(profile_cpu_speed(&m, 4), 400 / PROFILE_REF_SAMPLES_PER_S, 1e-12,
           "vCPU speed at 4 workers: X(4)/4 over the reference");
}

/* Validate a profile held in text (a check named `what`) and summarize it
 * into *m; -1 when it does not validate. */
static int summarize_text(const char *text, const char *what, struct prof_measured *m)
{
    cJSON *root = NULL;
    struct dt_err e;

    T_CHECK(profile_parse("mem.json", text, strlen(text), &root, &e) == 0, "%s (%s)", what,
            root ? "" : e.msg);
    if (!root)
        return -1;
    profile_summarize(root, "mem.json", m);
    cJSON_Delete(root);
    return 0;
}

/*
 * The MPI part's entries: a checkpoint taken before the fit has no alpha or
 * beta and is valid; with two all-reduces over 2 ranks on 2 hosts the ring
 * wins the tie, and its bus_factor (here 1) gives B = 1 / 2e-9 = 5e8 B/s,
 * hop alpha = 4e-5 / 2 = 2e-5 s.
 */
static void mpi_part_entries_validate_and_the_ring_wins_a_tie(void)
{
    static const char text[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\", \"instance\": \"x\",\n"
        " \"collectives\": [\n"
        "  {\"name\": \"mpi_allreduce\", \"transport\": \"mpi\", \"ranks\": 2, \"hosts\": 2,\n"
        "   \"bus_factor\": 1, \"alpha_s\": 1e-4, \"beta_s_per_byte\": 1e-9, \"points\": []},\n"
        "  {\"name\": \"ring_allreduce\", \"transport\": \"mpi\", \"ranks\": 2, \"hosts\": 2,\n"
        "   \"bus_factor\": 1, \"alpha_s\": 4e-5, \"beta_s_per_byte\": 2e-9, \"points\": []},\n"
        "  {\"name\": \"ps_pushpull\", \"transport\": \"mpi\", \"ranks\": 2, \"hosts\": 2,\n"
        "   \"points\": [{\"bytes\": 8, \"time_s\": 1e-5}]}]}\n";
    struct prof_measured m;

    if (summarize_text(text, "entries without a fit yet are valid", &m))
        return;
    T_CHECK(strstr(m.net_from, "ring_allreduce") != NULL, "the ring all-reduce is used (%s)",
            m.net_from);
    T_NEAR(m.net_Bps / 1e9, 0.5, 1e-12, "bandwidth from its bus_factor: 0.5 GB/s");
    T_NEAR(m.net_alpha_s, 2e-5, 1e-12, "hop latency 20 us");
}

/*
 * A parameter-server push/pull over 2 hosts gives the PS strategies' link:
 * bus factor 2 over beta 2.5e-8 s/B = 80 MB/s, hop alpha 1e-4 / 2; a
 * --coll-cmd all-reduce (the workload's own stack) outranks the MPI ring
 * for the other strategies, even on fewer ranks, its negative fitted alpha
 * taken as zero.
 */
/* A user's collective timed on one host says nothing of the network: it is
 * not used, and the profile says so (issue 37: it was ignored without a
 * word). */
static void a_one_host_command_collective_is_named_unused(void)
{
    static const char text[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\", \"instance\": \"x\",\n"
        " \"collectives\": [\n"
        "  {\"name\": \"allreduce\", \"transport\": \"cmd\", \"ranks\": 4, \"hosts\": 1,\n"
        "   \"bus_factor\": 1.5, \"alpha_s\": 2e-4, \"beta_s_per_byte\": 1e-9, \"points\": []}]}\n";
    struct prof_measured m;

    if (summarize_text(text, "a one-host command collective loads", &m))
        return;
    T_CHECK(!(m.net_Bps > 0) && !(m.intra_Bps > 0), "it sets no link");
    T_CHECK(strcmp(m.unused, "cmd allreduce, 4 ranks on 1 host: no network measured") == 0,
            "and says why (%s)", m.unused);
}

static void push_pull_sets_the_ps_link_and_a_cmd_collective_wins(void)
{
    static const char text[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\", \"instance\": \"x\",\n"
        " \"collectives\": [\n"
        "  {\"name\": \"ring_allreduce\", \"transport\": \"mpi\", \"ranks\": 4, \"hosts\": 4,\n"
        "   \"bus_factor\": 1.5, \"alpha_s\": 6e-5, \"beta_s_per_byte\": 1e-8, \"points\": []},\n"
        "  {\"name\": \"ps_pushpull\", \"transport\": \"mpi\", \"ranks\": 2, \"hosts\": 2,\n"
        "   \"bus_factor\": 2, \"alpha_s\": 1e-4, \"beta_s_per_byte\": 2.5e-8, \"points\": []},\n"
        "  {\"name\": \"allreduce\", \"transport\": \"cmd\", \"command\": \"x\", \"ranks\": 2,\n"
        "   \"hosts\": 2, \"bus_factor\": 1, \"alpha_s\": -2e-4, \"beta_s_per_byte\": 2e-8,\n"
        "   \"points\": []}]}\n";
    struct prof_measured m;

    if (summarize_text(text, "a cmd transport is valid", &m))
        return;
    T_NEAR(m.net_ps_Bps / 1e6, 80.0, 1e-9, "PS link from the push/pull: 2 / 2.5e-8 s/B = 80 MB/s");
    T_NEAR(m.net_ps_alpha_s, 5e-5, 1e-15, "PS hop latency alpha / 2 = 50 us");
    T_CHECK(strstr(m.net_ps_from, "ps_pushpull") != NULL, "named (%s)", m.net_ps_from);
    T_CHECK(strstr(m.net_from, "cmd allreduce") != NULL, "the cmd all-reduce wins (%s)", m.net_from);
    T_NEAR(m.net_Bps / 1e6, 50.0, 1e-9, "its bus factor 1 over 2e-8 s/B = 50 MB/s");
    T_NEAR(m.net_alpha_s, 0, 0, "a fitted alpha below zero (noise) is taken as no latency");
}

/*
 * The link read at a workload's message size: points of a 2-rank ring
 * (chunks 2, bus factor 1, alpha 1e-4 s) at 1 MB/s up to 1 MB and 0.5 MB/s
 * at 4 MB.  Messages of 0.5 MB per hop are S = 1 MB: exactly the measured
 * point, (1 MB) / (1.1 s - 0.1 ms); 1 MB per hop (S = 2 MB) interpolates in
 * log-log between 1 MB (1.0001 s) and 4 MB (8.0001 s); sizes outside the
 * measured range keep the fitted rate; no time is taken below the line's.
 */
static void the_link_is_read_at_the_message_size(void)
{
    struct prof_curve c;
    double t2;

    memset(&c, 0, sizeof c);
    c.npts = 3;
    c.bytes[0] = 1e4, c.time_s[0] = 1e-4 + 1e-2;
    c.bytes[1] = 1e6, c.time_s[1] = 1e-4 + 1.1;
    c.bytes[2] = 4e6, c.time_s[2] = 1e-4 + 8.0;
    c.alpha_s = 1e-4;
    c.bus_factor = 1;
    c.chunks = 2;
    T_NEAR(profile_link_at(&c, 0.5e6, 7.0, 0), 1e6 / 1.1, 1e-6, "at a measured size: that point's rate");
    /* 1 MB in 1.1001 s: a line of 0.8 MB/s would take 1.25 s (a burst: the
     * line's time), one of 0.95 MB/s 1.0526 s (the measured time stands,
     * though the rate after alpha, 1 MB / 1.1 s, is above that line) */
    T_NEAR(profile_link_at(&c, 0.5e6, 7.0, 0.8e6), 1e6 / (1.25 - 1e-4), 1e-6,
           "a time faster than the line: the line's time");
    T_NEAR(profile_link_at(&c, 0.5e6, 7.0, 0.95e6), 1e6 / 1.1, 1e-6,
           "a time the line allows: as measured");
    t2 = exp(log(1.1001) + 0.5 * (log(8.0001) - log(1.1001)));
    T_NEAR(profile_link_at(&c, 1e6, 7.0, 1e9), 2e6 / (t2 - 1e-4), 1e-6,
           "between two sizes: log-log interpolation of the time");
    T_NEAR(profile_link_at(&c, 4e6, 7.0, 0), 7.0, 0, "past the largest size: the fitted rate");
    T_NEAR(profile_link_at(&c, 1e3, 7.0, 0), 7.0, 0, "below the smallest size: the fitted rate");
    c.npts = 1;
    T_NEAR(profile_link_at(&c, 0.5e6, 7.0, 0), 7.0, 0, "one point: the fitted rate");
}

struct bad_case {
    const char *file, *want;
};

static void bad_profiles_give_one_line_with_file_line_and_column(void)
{
    static const struct bad_case cases[] = {
        {"tests/bad/profile_version.json",
         "tests/bad/profile_version.json:2:21: schema_version: expected schema version 1, found 2"},
        {"tests/bad/profile_point.json",
         "tests/bad/profile_point.json:7:30: cpu.pipelines[0].points[1].time_s: expected a time "
         "in seconds from 1e-12 to 1e9, found -1"},
        {"tests/bad/profile_transport.json",
         "tests/bad/profile_transport.json:5:54: collectives[0].transport: expected one of nccl, "
         "mpi, cmd, found \"tcp\""},
        {"tests/bad/profile_syntax.json",
         "tests/bad/profile_syntax.json:5:27: document: expected valid JSON, found \"}\""},
        {"tests/bad/profile_no_host.json",
         "tests/bad/profile_no_host.json:1:1: host: expected a host name, found nothing"},
        /* a key given twice (cJSON keeps both, a lookup the first): at the second */
        {"tests/bad/profile_duplicate_key.json",
         "tests/bad/profile_duplicate_key.json:10:12: vcpus: expected each key once in an "
         "object, found \"vcpus\" again"},
        {"tests/bad/profile_duplicate_nested.json",
         "tests/bad/profile_duplicate_nested.json:24:18: cpu.pipelines[0].cores: expected each "
         "key once in an object, found \"cores\" again"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *root = NULL;
        struct dt_err e;
        int rc = profile_read(cases[i].file, &root, &e);
        T_CHECK(rc == -1 && root == NULL && !strcmp(e.msg, cases[i].want), "%s gives its line",
                cases[i].file);
        if (strcmp(e.msg, cases[i].want))
            printf("#   want: %s\n#   got:  %s\n", cases[i].want, e.msg);
    }
}

/* A push/pull over 3 hosts (2 workers) carries how unevenly its pulls end;
 * a fraction outside (0, 1] is refused, naming the field. */
static void pull_overlap_is_read_from_the_push_pull(void)
{
    static const char good[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\", \"instance\": \"x\",\n"
        " \"collectives\": [\n"
        "  {\"name\": \"ps_pushpull\", \"transport\": \"mpi\", \"ranks\": 3, \"hosts\": 3,\n"
        "   \"bus_factor\": 4, \"alpha_s\": 1e-4, \"beta_s_per_byte\": 5e-8, \"points\": [],\n"
        "   \"pull_overlap\": {\"workers\": 2, \"sync_s\": 1.35, \"back_to_back_s\": 1.28,\n"
        "                    \"first_pull_frac\": 0.9}}]}\n";
    static const char bad[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\",\n"
        " \"collectives\": [\n"
        "  {\"name\": \"ps_pushpull\", \"transport\": \"mpi\", \"ranks\": 3, \"hosts\": 3,\n"
        "   \"points\": [], \"pull_overlap\": {\"first_pull_frac\": 1.5}}]}\n";
    struct prof_measured m;
    cJSON *root = NULL;
    struct dt_err e;

    if (summarize_text(good, "a pull_overlap is valid", &m))
        return;
    T_NEAR(m.ps_first_pull_frac, 0.9, 0, "first pull at 0.9 of the pull");
    summarize_text("{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\"}", "no collectives", &m);
    T_CHECK(isnan(m.ps_first_pull_frac), "not measured: NAN");
    T_CHECK(profile_parse("mem.json", bad, strlen(bad), &root, &e) == -1 &&
                strstr(e.msg, "collectives[0].pull_overlap.first_pull_frac: expected a fraction in (0, 1]"),
            "1.5 refused: %s", e.msg);
}

/* NCCL's all-reduce entry carries how much it slowed a GEMM beside it
 * (nccl_overlap.cu); a factor out of range is refused, naming the field. */
static void comm_slowdown_is_read_from_the_all_reduce(void)
{
    static const char good[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\", \"instance\": \"x\",\n"
        " \"collectives\": [\n"
        "  {\"name\": \"nccl_all_reduce\", \"transport\": \"nccl\", \"ranks\": 8, \"hosts\": 1,\n"
        "   \"bus_factor\": 1.75, \"alpha_s\": 2e-5, \"beta_s_per_byte\": 5e-12, \"points\": [],\n"
        "   \"overlap\": {\"gemm_s\": 1e-3, \"gemm_beside_allreduce_s\": 1.3e-3},\n"
        "   \"comm_slowdown\": 1.3}]}\n";
    static const char bad[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\",\n"
        " \"collectives\": [\n"
        "  {\"name\": \"nccl_all_reduce\", \"transport\": \"nccl\", \"ranks\": 8, \"hosts\": 1,\n"
        "   \"points\": [], \"comm_slowdown\": 0}]}\n";
    struct prof_measured m;
    cJSON *root = NULL;
    struct dt_err e;

    if (summarize_text(good, "a comm_slowdown is valid", &m))
        return;
    T_NEAR(m.comm_slowdown, 1.3, 0, "a GEMM 1.3 times slower beside the all-reduce");
    summarize_text("{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\"}", "no collectives", &m);
    T_CHECK(isnan(m.comm_slowdown), "not measured: NAN");
    T_CHECK(profile_parse("mem.json", bad, strlen(bad), &root, &e) == -1 &&
                strstr(e.msg, "collectives[0].comm_slowdown: expected a factor from 0.5 to 100"),
            "0 refused: %s", e.msg);
}

/* gpu.launch.kernel_s, the host's launch of an empty kernel, is read; a
 * launch time out of range is refused, naming the field. */
static void the_launch_time_is_read_from_the_gpu(void)
{
    static const char good[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\",\n"
        " \"gpu\": {\"gemm\": [], \"launch\": {\"kernel_s\": 4.7e-6, \"sync_s\": 1e-5}}}\n";
    static const char bad[] =
        "{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\",\n"
        " \"gpu\": {\"gemm\": [], \"launch\": {\"kernel_s\": 0.5}}}\n";
    struct prof_measured m;
    cJSON *root = NULL;
    struct dt_err e;

    if (summarize_text(good, "a launch time is valid", &m))
        return;
    T_NEAR(m.launch_s, 4.7e-6, 0, "4.7 us a launch");
    summarize_text("{\"schema_version\": 1, \"host\": \"h\", \"date\": \"d\"}", "no gpu", &m);
    T_CHECK(isnan(m.launch_s), "not measured: NAN");
    T_CHECK(profile_parse("mem.json", bad, strlen(bad), &root, &e) == -1 &&
                strstr(e.msg, "gpu.launch.kernel_s: expected seconds a launch in [1e-12, 0.01]"),
            "half a second refused: %s", e.msg);
}

static void text_that_is_not_a_profile_is_refused(void)
{
    static const char *const texts[] = {"[1, 2]", "{\"schema_version\": \"1\", \"host\": \"h\"}",
                                        "{} trailing", "", "{\"schema_version\": 1, \"host\": 3}"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        cJSON *root = NULL;
        struct dt_err e;
        int rc = profile_parse("mem.json", texts[i], strlen(texts[i]), &root, &e);
        T_CHECK(rc == -1 && !root && !strncmp(e.msg, "mem.json:1:", 11) && !strchr(e.msg, '\n'),
                "text %zu refused in one line: %s", i, e.msg);
    }
}

/* Written, read back, written again: the same tree and the same bytes, and
 * no temporary file left beside it. */
static void a_profile_round_trips_through_the_atomic_writer(void)
{
    char dir[] = "/tmp/dtplan-profile-XXXXXX", path[64], path2[64];
    cJSON *a = NULL, *b = NULL;
    struct dt_err e;
    FILE *f;
    char x[8192], y[8192];
    size_t nx, ny;
    int entries = 0;
    DIR *d;
    struct dirent *de;

    T_CHECK(mkdtemp(dir) != NULL, "temporary directory");
    snprintf(path, sizeof path, "%s/p.json", dir);
    snprintf(path2, sizeof path2, "%s/q.json", dir);
    T_CHECK(profile_read(DIR_DATA "p3_2xlarge.json", &a, &e) == 0, "read the original");
    f = fopen(path, "w");
    fputs("an older profile", f);
    fclose(f);
    T_CHECK(profile_write(path, a, &e) == 0, "write over an older file");
    T_CHECK(profile_read(path, &b, &e) == 0, "read it back (%s)", e.msg);
    T_CHECK(b && cJSON_Compare(a, b, 1), "the same tree");
    T_CHECK(profile_write(path2, b, &e) == 0, "write it again");
    f = fopen(path, "rb");
    nx = fread(x, 1, sizeof x, f);
    fclose(f);
    f = fopen(path2, "rb");
    ny = fread(y, 1, sizeof y, f);
    fclose(f);
    T_CHECK(nx == ny && !memcmp(x, y, nx), "the same bytes (%zu)", nx);
    d = opendir(dir);
    while (d && (de = readdir(d)))
        if (de->d_name[0] != '.')
            entries++;
    if (d)
        closedir(d);
    T_CHECK(entries == 2, "only the two profiles in the directory, no temporaries (%d)", entries);
    T_CHECK(profile_write("/nonexistent-dir/p.json", a, &e) == -1 && strstr(e.msg, "/nonexistent-dir"),
            "an unwritable path is an error: %s", e.msg);
    unlink(path);
    unlink(path2);
    rmdir(dir);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* Plan tests/data/profiles/with_profile.yaml and its twin without the
 * profile: the measured numbers replace the nominal ones. */
static void a_scenario_naming_a_profile_uses_the_measured_numbers(void)
{
    struct catalog cat;
    struct scenario sc;
    struct sim_config cfg;
    struct plan_measured m[8];
    struct dt_err e;
    double fwd_nominal;
    int n;

    T_CHECK(catalog_load(&cat, "catalog", &e) == 0, "catalog loads");
    T_CHECK(ld_scenario_load(&sc, DIR_DATA "without_profile.yaml", &cat, &e) == 0, "nominal scenario (%s)", e.msg);
    T_CHECK(sc.nprofiles == 0, "no profile");
    plan_resolve(&sc, &sc.clusters[0], &cfg, &e);
    fwd_nominal = cfg.groups[0].fwd_s;
    /* p3.2xlarge: Xeon E5-2686 v4, 2.7 GHz all-core in the catalog. */
    T_NEAR(cfg.groups[0].core_speed, 2.7 / CAT_REF_CPU_GHZ, 1e-12,
           "nominal vCPU speed from the catalog's clock: %g", cfg.groups[0].core_speed);
    T_CHECK(plan_measured(&sc, &sc.clusters[0], &cfg, m, 8) == 0, "nothing measured");
    scenario_free(&sc);

    T_CHECK(ld_scenario_load(&sc, DIR_DATA "with_profile.yaml", &cat, &e) == 0, "scenario with a profile (%s)", e.msg);
    T_CHECK(sc.nprofiles == 2, "two profiles: top-level and inline");
    plan_resolve(&sc, &sc.clusters[0], &cfg, &e);
    T_NEAR(cfg.groups[0].core_speed, 520 / PROFILE_REF_SAMPLES_PER_S, 1e-12,
           "p3.2xlarge vCPU speed from its profile");
    /* fp32: the profile's 10 TFLOP/s GEMM replaces V100's 15.7 x mm_eff in the
     * operation model: exactly the model's time at that rate, slower than
     * nominal but by less than 15.7/10 (memory-bound work does not move). */
    {
        double prof[CAT_NPREC] = {10, NAN, NAN, NAN, NAN};
        struct compute_plan p;
        struct compute_time t;
        const struct cat_gpu *v100 = catalog_find_gpu(&cat, "V100");
        T_CHECK(compute_on_gpu(&sc, v100, prof, sc.parallel.micro_batch, &p, &t) == 0, "V100 model");
        T_NEAR(cfg.groups[0].fwd_s + cfg.groups[0].bwd_s, (t.fwd_s + t.bwd_s) * sc.workload.grad_accum,
               1e-12, "compute is the operation model at the profile's GEMM rate");
        T_CHECK(cfg.groups[0].fwd_s > fwd_nominal && cfg.groups[0].fwd_s < fwd_nominal * 1.57,
                "slower than nominal, by less than the GEMM ratio (%g)",
                cfg.groups[0].fwd_s / fwd_nominal);
    }
    n = plan_measured(&sc, &sc.clusters[0], &cfg, m, 8);
    T_CHECK(n == 2 && !strcmp(m[0].what, "cpu_speed") && !strcmp(m[1].what, "gemm_fp32_tflops"),
            "cluster 0 names its measured numbers: cpu_speed, gemm_fp32_tflops");
    plan_resolve(&sc, &sc.clusters[1], &cfg, &e);
    T_NEAR(cfg.groups[1].nic_Bps, 1e9, 1e-12, "lab-box NIC from its MPI all-reduce fit");
    T_NEAR(cfg.groups[1].net_alpha_s, 5e-5, 1e-12, "lab-box network latency from the fit");
    /* lab_cpu.json: 4 cores, sigma 0.1: X(4)/4 = 400; a data node works with its 4 vCPUs. */
    T_NEAR(cfg.groups[1].core_speed, 400 / PROFILE_REF_SAMPLES_PER_S, 1e-12,
           "lab-box vCPU speed at its 4 vCPUs");
    scenario_free(&sc);
    catalog_free(&cat);
}

int main(void)
{
    T_RUN(a_one_host_command_collective_is_named_unused);
    T_RUN(a_profile_is_reduced_to_the_planners_numbers);
    T_RUN(collective_fits_become_link_latency_and_bandwidth);
    T_RUN(mpi_part_entries_validate_and_the_ring_wins_a_tie);
    T_RUN(push_pull_sets_the_ps_link_and_a_cmd_collective_wins);
    T_RUN(pull_overlap_is_read_from_the_push_pull);
    T_RUN(comm_slowdown_is_read_from_the_all_reduce);
    T_RUN(the_launch_time_is_read_from_the_gpu);
    T_RUN(the_link_is_read_at_the_message_size);
    T_RUN(bad_profiles_give_one_line_with_file_line_and_column);
    T_RUN(text_that_is_not_a_profile_is_refused);
    T_RUN(a_profile_round_trips_through_the_atomic_writer);
    T_RUN(a_scenario_naming_a_profile_uses_the_measured_numbers);
    return T_DONE();
}
