/*
 * bench_startup.c - what one run of the dtplan binary costs before and
 * including its work: the median wall time of `dtplan --version` (process
 * start only: loading dtplan and its shared libraries) and of a one-cluster
 * scenario (tests/data/cli/tiny.yaml), over 21 runs each.  The CUDA
 * libraries are not among what dtplan loads at start (calibrate/cuda/dl.c
 * loads them only for the GPU and NCCL parts); linked in, they cost about
 * 90 ms per run.  Prints figures; it does not pass or fail.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUNS 21

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median wall seconds of RUNS runs of argv (output discarded); -1 on failure. */
static double median_run(char *const argv[])
{
    double t[RUNS];

    for (int i = 0; i < RUNS; i++) {
        double t0 = now_s();
        pid_t pid = fork();
        int st;
        if (pid < 0)
            return -1;
        if (pid == 0) {
            int dn = open("/dev/null", O_WRONLY);
            if (dn >= 0) {
                dup2(dn, 1);
                dup2(dn, 2);
            }
            execv(argv[0], argv);
            _exit(127);
        }
        if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return -1;
        t[i] = now_s() - t0;
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    return t[RUNS / 2];
}

int main(void)
{
    const char *b = getenv("BUILD");
    char bin[1024];
    double v, s;

    snprintf(bin, sizeof bin, "%s/dtplan", b && *b ? b : "build");
    {
        char *ver[] = {bin, "--version", NULL};
        char *tiny[] = {bin, "-q", "tests/data/cli/tiny.yaml", NULL};
        v = median_run(ver);
        s = median_run(tiny);
    }
    printf("bench_startup: %s, median of %d runs\n", bin, RUNS);
    if (v < 0 || s < 0) {
        printf("  could not run %s (build it first)\n", bin);
        return 0;
    }
    printf("  dtplan --version                  %8.2f ms  (process start and shared libraries)\n", v * 1e3);
    printf("  dtplan tests/data/cli/tiny.yaml   %8.2f ms  (start, catalog, scenario, 1 cluster)\n", s * 1e3);
    return 0;
}
