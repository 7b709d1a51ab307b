/*
 * cpu_pipe.c - workers, bounded queue and collation of the built-in input
 * pipeline (cpu_pipe.h).  One mutex guards the sample counter, the free
 * list and the ready queue; the work per sample (milliseconds) dwarfs the
 * lock.  Cost: O(samples x sample work / workers) plus one copy of each
 * sample into its batch.
 */
#include "cpu_pipe.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

struct pipe_run {
    const struct cpu_pipe *p;
    long samples, next;          /* next index to take */
    long limit;                  /* indices below this may be taken: the two open batches */
    int nslots;
    float **slot;                /* nslots sample buffers */
    int *free_list, nfree;       /* slots free to fill */
    int *ready_slot;             /* ring of filled slots, capacity nslots */
    long *ready_idx;
    int ready_head, nready;
    int failed;
    pthread_mutex_t mu;
    pthread_cond_t can_fill, can_collate;
};

static void *worker(void *arg)
{
    struct pipe_run *r = arg;
    struct cpuk_scratch s = {NULL, 0};

    for (;;) {
        long idx;
        int slot, bad;

        pthread_mutex_lock(&r->mu);
        while ((r->nfree == 0 || r->next >= r->limit) && r->next < r->samples && !r->failed)
            pthread_cond_wait(&r->can_fill, &r->mu);
        if (r->next >= r->samples || r->failed) {
            pthread_mutex_unlock(&r->mu);
            break;
        }
        idx = r->next++;
        slot = r->free_list[--r->nfree];
        pthread_mutex_unlock(&r->mu);

        bad = cpuk_sample(&r->p->img[idx % CPU_PIPE_IMAGES], &s, r->p->seed, idx, r->slot[slot]);

        pthread_mutex_lock(&r->mu);
        if (bad)
            r->failed = 1;
        r->ready_slot[(r->ready_head + r->nready) % r->nslots] = slot;
        r->ready_idx[(r->ready_head + r->nready) % r->nslots] = idx;
        r->nready++;
        pthread_cond_signal(&r->can_collate);
        if (bad)
            pthread_cond_broadcast(&r->can_fill);
        pthread_mutex_unlock(&r->mu);
    }
    cpuk_scratch_free(&s);
    return NULL;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cpu_pipe_init(struct cpu_pipe *p, uint64_t seed)
{
    unsigned char *rgb = x_malloc((size_t)CPU_PIPE_W * CPU_PIPE_H * 3);
    double total = 0;

    memset(p, 0, sizeof *p);
    p->seed = seed;
    for (int i = 0; i < CPU_PIPE_IMAGES; i++) {
        cpuk_synth(seed, i, CPU_PIPE_W, CPU_PIPE_H, rgb);
        cpuk_encode(rgb, CPU_PIPE_W, CPU_PIPE_H, &p->img[i]);
        total += (double)p->img[i].nbytes;
    }
    p->enc_bytes_mean = total / CPU_PIPE_IMAGES;
    x_free(rgb);
}

void cpu_pipe_free(struct cpu_pipe *p)
{
    for (int i = 0; i < CPU_PIPE_IMAGES; i++)
        cpuk_enc_free(&p->img[i]);
}

int cpu_pipe_run(const struct cpu_pipe *p, int workers, long samples, int batch,
                 double *time_s, uint64_t *sum, struct dt_err *e)
{
    struct pipe_run r;
    pthread_t *th;
    float *bat[2];
    int fill[2] = {0, 0}, started = 0, rc = 0;
    long done = 0, nbatch_done = 0;
    uint64_t h = CPUK_FNV_INIT;
    double t0;

    if (workers < 1 || batch < 1 || samples < batch || samples % batch)
        return dt_errf(e, "cpu pipeline: bad run (%d workers, %ld samples, batch %d)", workers,
                       samples, batch);
    memset(&r, 0, sizeof r);
    r.p = p;
    r.samples = samples;
    r.limit = 2L * batch;
    r.nslots = 2 * workers < batch ? 2 * workers : batch;
    r.slot = x_calloc((size_t)r.nslots, sizeof *r.slot);
    r.free_list = x_calloc((size_t)r.nslots, sizeof *r.free_list);
    r.ready_slot = x_calloc((size_t)r.nslots, sizeof *r.ready_slot);
    r.ready_idx = x_calloc((size_t)r.nslots, sizeof *r.ready_idx);
    for (int i = 0; i < r.nslots; i++) {
        r.slot[i] = x_malloc(CPUK_OUT_FLOATS * sizeof(float));
        r.free_list[r.nfree++] = i;
    }
    for (int b = 0; b < 2; b++)
        bat[b] = x_malloc(CPUK_OUT_FLOATS * sizeof(float) * (size_t)batch);
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.can_fill, NULL);
    pthread_cond_init(&r.can_collate, NULL);
    th = x_calloc((size_t)workers, sizeof *th);

    t0 = now_s();
    for (; started < workers; started++)
        if (pthread_create(&th[started], NULL, worker, &r)) {
            rc = dt_errf(e, "cpu pipeline: cannot start worker thread %d", started + 1);
            pthread_mutex_lock(&r.mu);
            r.failed = 1;
            pthread_cond_broadcast(&r.can_fill);
            pthread_mutex_unlock(&r.mu);
            break;
        }

    /* Collate: samples of batch k go to bat[k % 2]; in flight < batch, so
     * at most two batches are open at a time and they close in order. */
    while (rc == 0 && done < samples) {
        int slot;
        long idx, k;

        pthread_mutex_lock(&r.mu);
        while (r.nready == 0 && !r.failed)
            pthread_cond_wait(&r.can_collate, &r.mu);
        if (r.failed) {
            pthread_mutex_unlock(&r.mu);
            rc = dt_errf(e, "cpu pipeline: a sample failed to decode");
            break;
        }
        slot = r.ready_slot[r.ready_head];
        idx = r.ready_idx[r.ready_head];
        r.ready_head = (r.ready_head + 1) % r.nslots;
        r.nready--;
        pthread_mutex_unlock(&r.mu);

        k = idx / batch;
        memcpy(bat[k % 2] + (size_t)(idx % batch) * CPUK_OUT_FLOATS, r.slot[slot],
               CPUK_OUT_FLOATS * sizeof(float));
        fill[k % 2]++;
        /* Close batches in order only: the later of the two open batches
         * may fill first and then waits for the earlier. */
        while (fill[nbatch_done % 2] == batch) {
            if (sum)
                h = cpuk_fnv(h, bat[nbatch_done % 2],
                             CPUK_OUT_FLOATS * sizeof(float) * (size_t)batch);
            fill[nbatch_done % 2] = 0;
            nbatch_done++;
            pthread_mutex_lock(&r.mu);
            r.limit = (nbatch_done + 2) * batch;
            pthread_cond_broadcast(&r.can_fill);
            pthread_mutex_unlock(&r.mu);
        }
        done++;

        pthread_mutex_lock(&r.mu);
        r.free_list[r.nfree++] = slot;
        pthread_cond_signal(&r.can_fill);
        if (r.failed)
            pthread_cond_broadcast(&r.can_fill);
        pthread_mutex_unlock(&r.mu);
    }
    if (rc) {
        pthread_mutex_lock(&r.mu);
        r.failed = 1;
        pthread_cond_broadcast(&r.can_fill);
        pthread_mutex_unlock(&r.mu);
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    *time_s = now_s() - t0;
    if (sum)
        *sum = h;

    x_free(th);
    pthread_cond_destroy(&r.can_collate);
    pthread_cond_destroy(&r.can_fill);
    pthread_mutex_destroy(&r.mu);
    for (int b = 0; b < 2; b++)
        x_free(bat[b]);
    for (int i = 0; i < r.nslots; i++)
        x_free(r.slot[i]);
    x_free(r.slot);
    x_free(r.free_list);
    x_free(r.ready_slot);
    x_free(r.ready_idx);
    return rc;
}
