/*
 * test_calib_mpi.c - the MPI part of calibrate (calibrate/mpi*.c) on two
 * local ranks.  Run plainly, this program checks the one-rank skip, then
 * starts itself under mpirun with 2 ranks (skipping cleanly when mpirun is
 * missing); under mpirun it checks that the hand-written ring all-reduce
 * and the parameter-server push/pull compute the right sums on uneven
 * sizes, runs calib_mpi_run with small sizes, and rank 0 writes the
 * collectives[] it got to the file named by its argument, which the parent
 * then checks.
 */
#include "t.h"

#include <cJSON.h>
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../calibrate/calib.h"
#include "../../calibrate/mpi_coll.h"

static void no_progress(void *arg, const char *what, double done)
{
    (void)arg;
    (void)what;
    (void)done;
}

/* Under mpirun: sums checked by every rank, gathered as one flag on rank 0. */
static int sums_are_right(int rank, int size)
{
    static float a[1003], bb[1003], cc[1003];
    struct mpi_bench b = {MPI_COMM_WORLD, rank, size, 1, a, bb, cc, sizeof a, 0};
    int ok = 1, all = 0;

    for (int i = 0; i < 1003; i++)
        a[i] = (float)(rank + i);
    mpi_ring.run(&b, sizeof a);
    /* sum over r of (r + i) = n(n-1)/2 + n i */
    for (int i = 0; i < 1003; i++)
        if (a[i] != (float)(size * (size - 1) / 2 + size * i))
            ok = 0;
    for (int i = 0; i < 1003; i++)
        a[i] = (float)(rank + 2 * i);
    mpi_ps.run(&b, 4 * 1001);
    /* Workers 0..n-2 get sum over workers of (r + 2i). */
    if (rank < size - 1)
        for (int i = 0; i < 1001; i++)
            if (a[i] != (float)((size - 1) * (size - 2) / 2 + (size - 1) * 2 * i))
                ok = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

static int as_rank(const char *out)
{
    struct calib_ctx c = {0};
    cJSON *coll = NULL;
    char msg[512];
    int rc, sums;

    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size);
    c.quick = 1;
    c.seed = 1;
    c.max_bytes = 65536;
    c.progress = no_progress;
    sums = sums_are_right(c.rank, c.size);
    if (c.rank == 0)
        coll = cJSON_CreateArray();
    rc = calib_mpi_run(&c, coll, msg, sizeof msg);
    if (c.rank == 0) {
        cJSON *doc = cJSON_CreateObject();
        char *s;
        FILE *f = fopen(out, "w");
        cJSON_AddNumberToObject(doc, "rc", rc);
        cJSON_AddStringToObject(doc, "msg", msg);
        cJSON_AddBoolToObject(doc, "sums_right", sums);
        cJSON_AddItemToObject(doc, "collectives", coll);
        s = cJSON_Print(doc);
        if (f) {
            fputs(s, f);
            fclose(f);
        }
        free(s);
        cJSON_Delete(doc);
    }
    MPI_Finalize();
    return 0;
}

static void one_rank_is_skipped_with_a_reason(void)
{
    struct calib_ctx c = {0};
    char msg[256];

    c.size = 1;
    c.progress = no_progress;
    T_CHECK(calib_mpi_run(&c, NULL, msg, sizeof msg) == CALIB_SKIPPED, "one rank: skipped");
    T_CHECK(strstr(msg, "2 or more") != NULL, "the reason names the ranks needed: %s", msg);
}

static int have_mpirun(void)
{
    return system("command -v mpirun >/dev/null 2>&1") == 0;
}

static cJSON *read_json(const char *path)
{
    FILE *f = fopen(path, "r");
    char buf[1 << 16];
    size_t n;

    if (!f)
        return NULL;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return cJSON_Parse(buf);
}

static void two_local_ranks_measure_every_benchmark(const char *self)
{
    char out[] = "/tmp/dt_calib_mpi_XXXXXX", cmd[1024];
    int fd = mkstemp(out), rc;
    cJSON *doc, *e;
    int seen = 0;

    if (fd >= 0)
        close(fd);
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe -np 2 "
             "-x ASAN_OPTIONS --mca btl self,vader,tcp --mca btl_vader_single_copy_mechanism none "
             "%s %s >%s.log 2>&1",
             self, out, out);
    rc = system(cmd);
    T_CHECK(rc == 0, "mpirun -np 2 finished with status 0 (%d)", rc);
    doc = read_json(out);
    T_CHECK(doc != NULL, "rank 0 wrote its collectives");
    if (!doc)
        goto remove_files;
    T_CHECK(cJSON_GetObjectItem(doc, "rc")->valueint == CALIB_OK, "calib_mpi_run returned OK");
    T_CHECK(cJSON_IsTrue(cJSON_GetObjectItem(doc, "sums_right")),
            "ring all-reduce and PS push/pull compute the right sums on uneven sizes");
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(doc, "collectives")) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(e, "name"));
        cJSON *pts = cJSON_GetObjectItem(e, "points"), *p;
        double bus = cJSON_GetObjectItem(e, "bus_factor")->valuedouble;
        int good = 1;
        seen++;
        T_CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(e, "transport")), "mpi") &&
                    cJSON_GetObjectItem(e, "ranks")->valueint == 2 &&
                    cJSON_GetObjectItem(e, "hosts")->valueint == 1,
                "%s: transport mpi, 2 ranks, 1 host", name);
        /* 8 B to 64 KiB in x4 steps: 8, 32, ..., 32768 and no 65536 (x4 from 8 skips it). */
        T_CHECK(cJSON_GetArraySize(pts) == 7, "%s: 7 sizes (%d)", name, cJSON_GetArraySize(pts));
        cJSON_ArrayForEach(p, pts) {
            double b = cJSON_GetObjectItem(p, "bytes")->valuedouble;
            double t = cJSON_GetObjectItem(p, "time_s")->valuedouble;
            double alg = cJSON_GetObjectItem(p, "algbw_GBps")->valuedouble;
            double busbw = cJSON_GetObjectItem(p, "busbw_GBps")->valuedouble;
            if (!(t > 0) || fabs(alg - b / t / 1e9) > 1e-9 * alg || fabs(busbw - alg * bus) > 1e-9 * busbw)
                good = 0;
        }
        T_CHECK(good, "%s: algbw = S/t and busbw = algbw x %.3g at every size", name, bus);
        T_CHECK(cJSON_IsNumber(cJSON_GetObjectItem(e, "alpha_s")) &&
                    cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "ci95"), "beta_s_per_byte")) &&
                    cJSON_IsBool(cJSON_GetObjectItem(e, "poor_fit")),
                "%s: alpha, beta with 95%% intervals and a poor-fit flag", name);
    }
    T_CHECK(seen == 3, "three benchmarks: ring, MPI_Allreduce, PS (%d)", seen);
    cJSON_Delete(doc);
remove_files:
    remove(out);
    snprintf(cmd, sizeof cmd, "%s.log", out);
    remove(cmd);
}

int main(int argc, char **argv)
{
    const char *v = getenv("OMPI_COMM_WORLD_SIZE");

    if (v && *v && argc > 1)
        return as_rank(argv[1]);
    T_RUN(one_rank_is_skipped_with_a_reason);
    if (!have_mpirun()) {
        printf("# mpirun not found: the two-rank run is skipped\n");
        return T_DONE();
    }
    printf("# two_local_ranks_measure_every_benchmark\n");
    two_local_ranks_measure_every_benchmark(argv[0]);
    return T_DONE();
}
