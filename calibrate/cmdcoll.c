/*
 * cmdcoll.c - "--coll-cmd": time the user's own collective.
 *
 * The MPI and NCCL parts measure dtplan's own benchmarks.  A workload that
 * shares its gradients through another stack (PyTorch's gloo or NCCL process
 * groups, Horovod, a vendor library) moves them at that stack's speed, which
 * on CPU hosts can be far from the link's: gloo's TCP transport, for one,
 * reaches about half of a 1 Gbit/s link when the hosts' cores are busy with
 * the kernel's network processing.  This part runs the user's command once
 * per message size and reads the time of one operation from it, so that the
 * profile holds the collective the workload really uses.
 *
 * The command runs under /bin/sh with
 *     DTPLAN_BYTES   the message size in bytes (a multiple of 4)
 *     DTPLAN_ITERS   how many operations it should time (10; 3 with --quick)
 *     DTPLAN_RANKS   --coll-ranks, for its launcher
 * and launches the collective across the ranks itself (mpirun, torchrun).
 * Its last output line that reads as a time is the result: a number of
 * seconds, or a JSON object with "time_s", within the times a profile
 * holds (PROFILE_MIN_TIME_S..PROFILE_MAX_TIME_S; another fails the part).  The sizes, points and fit are
 * the harness's (sweep.h), as for the other collectives; the entry's
 * transport is "cmd".
 */
#include "calib.h"
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/xmem.h"
#include "../catalog/profile.h"

#define CC_MIN_BYTES (64.0 * 1024)
#define CC_MAX_BYTES (64.0 * 1024 * 1024)
#define CC_MAX_QUICK (4.0 * 1024 * 1024)
#define CC_OUT_CAP (1 << 20) /* output kept from the command */

/* nccl-tests' bus-bandwidth factor of a collective on k ranks
 * (profile_coll_shape), 0 for a name --coll-name does not take. */
static double cc_bus_factor(const char *name, int k)
{
    static const char *const names[] = {"allreduce", "allgather", "reducescatter", "broadcast"};
    double steps, factor;

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i]))
            return profile_coll_shape(name, k, &steps, &factor) ? 0 : factor;
    return 0;
}

int calib_cmdcoll_valid_name(const char *name)
{
    return cc_bus_factor(name, 2) > 0;
}

int calib_cmd_failed(int st, const char *flag, const char *ctx, char *msg, size_t msglen)
{
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st))
        snprintf(msg, msglen, "%s: the command exited with status %d (%s)", flag, WEXITSTATUS(st), ctx);
    else
        snprintf(msg, msglen, "%s: the command was killed by signal %d (%s)", flag, WTERMSIG(st), ctx);
    return 1;
}

/* The time the output reports: the last line that is a number or a JSON
 * object with a positive "time_s".  -1 if none. */
static double cc_parse(char *out)
{
    char *line = out + strlen(out);

    while (line > out) {
        char *end, *start;
        double t;
        while (line > out && (line[-1] == '\n' || line[-1] == '\r' || line[-1] == ' '))
            *--line = '\0';
        start = line;
        while (start > out && start[-1] != '\n')
            start--;
        if (*start == '{') {
            cJSON *j = cJSON_Parse(start);
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "time_s");
            t = cJSON_IsNumber(v) ? v->valuedouble : -1;
            cJSON_Delete(j);
            if (t > 0 && isfinite(t))
                return t;
        } else if (*start) {
            errno = 0;
            t = strtod(start, &end);
            while (*end == ' ' || *end == '\t')
                end++;
            if (end != start && !*end && !errno && t > 0 && isfinite(t))
                return t;
        }
        line = start;
    }
    return -1;
}

/* Run the command for one size; *t the time it reports.  0 or -1 with msg. */
static int cc_run(const char *cmd, int ranks, size_t bytes, int iters, double *t, char *msg,
                  size_t msglen)
{
    int fd[2], st;
    pid_t pid;
    char *out = x_malloc(CC_OUT_CAP);
    size_t n = 0;
    ssize_t r;

    fflush(NULL);
    if (pipe(fd)) {
        snprintf(msg, msglen, "--coll-cmd: pipe: %s", strerror(errno));
        x_free(out);
        return -1;
    }
    pid = fork();
    if (pid < 0) {
        snprintf(msg, msglen, "--coll-cmd: cannot fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        x_free(out);
        return -1;
    }
    if (pid == 0) {
        char b[32], it[32], k[32];
        snprintf(b, sizeof b, "%zu", bytes);
        snprintf(it, sizeof it, "%d", iters);
        snprintf(k, sizeof k, "%d", ranks);
        setenv("DTPLAN_BYTES", b, 1);
        setenv("DTPLAN_ITERS", it, 1);
        setenv("DTPLAN_RANKS", k, 1);
        close(fd[0]);
        dup2(fd[1], STDOUT_FILENO);
        close(fd[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    /* Keep the last CC_OUT_CAP - 1 bytes: the result is at the end. */
    for (;;) {
        r = read(fd[0], out + n, CC_OUT_CAP - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n == CC_OUT_CAP - 1) {
            memmove(out, out + n / 2, n - n / 2);
            n -= n / 2;
        }
    }
    out[n] = '\0';
    close(fd[0]);
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(msg, msglen, "--coll-cmd: waitpid: %s", strerror(errno));
            x_free(out);
            return -1;
        }
    {
        char ctx[48];
        snprintf(ctx, sizeof ctx, "DTPLAN_BYTES=%zu", bytes);
        if (calib_cmd_failed(st, "--coll-cmd", ctx, msg, msglen)) {
            x_free(out);
            return -1;
        }
    }
    *t = cc_parse(out);
    x_free(out);
    if (*t < 0) {
        snprintf(msg, msglen, "--coll-cmd: expected the command's last line to be the seconds of one "
                 "operation (a number, or JSON with \"time_s\"), found none (DTPLAN_BYTES=%zu)", bytes);
        return -1;
    }
    if (!profile_time_ok(*t)) { /* the profile's reader would refuse it */
        snprintf(msg, msglen, "--coll-cmd \"%.200s\": expected %s, found %g (DTPLAN_BYTES=%zu)",
                 cmd, PROFILE_TIME_EXPECTED, *t, bytes);
        return -1;
    }
    return 0;
}

/* The user's collective as the sweep harness (sweep.h) sees it. */
struct cc_sweep {
    const struct calib_cmdcoll *o;
    int iters;
};

static size_t cc_sweep_bytes(void *arg, double s)
{
    (void)arg;
    return (size_t)s & ~(size_t)3;
}

static double cc_sweep_time(void *arg, size_t bytes, char *msg, size_t msglen)
{
    const struct cc_sweep *w = arg;
    double t;

    return cc_run(w->o->cmd, w->o->ranks, bytes, w->iters, &t, msg, msglen) ? -2 : t;
}

int calib_cmdcoll_run(struct calib_ctx *c, const struct calib_cmdcoll *o, cJSON *collectives,
                      char *msg, size_t msglen)
{
    struct sweep_sizes z;
    double bus = cc_bus_factor(o->name, o->ranks), done = 0;
    struct cc_sweep w = {o, c->quick ? 3 : 10};
    struct sweep_bench sb = {"cmd", "--coll-cmd", o->name, bus, &w, cc_sweep_bytes, NULL, NULL,
                             NULL, cc_sweep_time, 0};
    cJSON *e, *pts;

    if (sweep_sizes(c, CC_MIN_BYTES, c->quick ? CC_MAX_QUICK : CC_MAX_BYTES, 4, "--coll-cmd", &z,
                    msg, msglen))
        return CALIB_ERROR;
    e = sweep_entry(collectives, o->name, "cmd", o->ranks, o->hosts, bus);
    cJSON_AddStringToObject(e, "command", o->cmd);
    pts = sweep_entry_points(e, -1, w.iters);
    if (sweep_run(c, &z, &sb, e, pts, &done, sweep_count(&z), msg, msglen) != CALIB_OK) {
        if (cJSON_GetArraySize(pts) == 0) /* nothing measured: no entry */
            cJSON_DeleteItemFromArray(collectives, cJSON_GetArraySize(collectives) - 1);
        return CALIB_ERROR;
    }
    c->progress(c->progress_arg, "cmd done", 1);
    return CALIB_OK;
}
