/*
 * mpi_ring.c - ring all-reduce written with MPI_Sendrecv: a reduce-scatter
 * of n-1 steps, each rank passing one of n chunks to its right neighbour and
 * adding the chunk from its left, then an all-gather of n-1 steps (Patarasuk
 * and Yuan; MPICH's allreduce_intra_ring.c).  Cost 2(n-1) alpha +
 * 2 S (n-1)/n beta + S (n-1)/n gamma; bus factor 2(n-1)/n as nccl-tests'
 * all-reduce.  (With poll_sleep_s the MPI_Sendrecv is its Irecv + Isend
 * pair completed by polite polling: see mpi_coll.h.)
 */
#include "mpi_coll.h"

static int ring_usable(const struct mpi_bench *b, const char **why)
{
    (void)b;
    (void)why;
    return 0;
}

/* Chunk i of count floats over n ranks: [off, off + len). */
static void ring_chunk(size_t count, int n, int i, size_t *off, size_t *len)
{
    size_t base = count / (size_t)n, extra = count % (size_t)n, ui = (size_t)i;
    *off = ui * base + (ui < extra ? ui : extra);
    *len = base + (ui < extra ? 1 : 0);
}

static int ring_run(struct mpi_bench *b, size_t bytes)
{
    size_t count = bytes / sizeof(float), so, sl, ro, rl;
    int n = b->size, r = b->rank, right = (r + 1) % n, left = (r + n - 1) % n;
    float *data = b->a, *tmp = b->b;

    for (int s = 0; s < n - 1; s++) {
        ring_chunk(count, n, (r - s + n) % n, &so, &sl);
        ring_chunk(count, n, (r - s - 1 + 2 * n) % n, &ro, &rl);
        if (mpi_sendrecv(b, data + so, sl, right, tmp, rl, left, 0))
            return -1;
        mpi_sum(data + ro, tmp, rl);
    }
    for (int s = 0; s < n - 1; s++) {
        ring_chunk(count, n, (r + 1 - s + n) % n, &so, &sl);
        ring_chunk(count, n, (r - s + n) % n, &ro, &rl);
        if (mpi_sendrecv(b, data + so, sl, right, data + ro, rl, left, 1))
            return -1;
    }
    return 0;
}

static double ring_bus_factor(const struct mpi_bench *b)
{
    return 2.0 * (b->size - 1) / b->size;
}

const struct mpi_coll mpi_ring = {"ring_allreduce", ring_usable, ring_run, ring_bus_factor};
