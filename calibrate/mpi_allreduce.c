/*
 * mpi_allreduce.c - the MPI library's own MPI_Allreduce (sum of floats,
 * in place), whatever algorithm the library picks for the size.  Bus factor
 * 2(n-1)/n as nccl-tests' all-reduce, which holds for any algorithm built
 * from point-to-point messages.
 */
#include "mpi_coll.h"

static int allreduce_usable(const struct mpi_bench *b, const char **why)
{
    (void)b;
    (void)why;
    return 0;
}

static int allreduce_run(struct mpi_bench *b, size_t bytes)
{
    return MPI_Allreduce(MPI_IN_PLACE, b->a, (int)(bytes / sizeof(float)), MPI_FLOAT, MPI_SUM,
                         b->comm) == MPI_SUCCESS ? 0 : -1;
}

static double allreduce_bus_factor(const struct mpi_bench *b)
{
    return 2.0 * (b->size - 1) / b->size;
}

const struct mpi_coll mpi_allreduce = {"mpi_allreduce", allreduce_usable, allreduce_run,
                                       allreduce_bus_factor};
