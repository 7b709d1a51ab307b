/*
 * test_offload.c - activation offloading (planner/offload.c): the compute's
 * waits for copies over the host link, worked by hand on a small model, and
 * what the GPU keeps (planner/memory.c).  Links the planner layer only
 * (Makefile: LAYER_test_offload).
 */
#include "t.h"
#include "t_llama.h"

#include <math.h>
#include <string.h>

#include "../../catalog/catalog.h"
#include "../../planner/memory.h"
#include "../../planner/offload.h"
#include "../../scenario/scenario.h"

static void copies_the_compute_hides(void)
{
    double f, b;

    /* a copy shorter than a layer's forward never holds the compute up */
    offload_waits(80, 40, 0.010, 0.020, 0.009, &f, &b);
    T_CHECK(f == 0 && b == 0, "80 layers, 40 offloaded, 9 ms copies under 10 ms layers: no wait "
            "(%g, %g)", f, b);
    /* longer copies still fit while the side stream keeps ahead of the
     * deadline: layer i's copy out by layer L - k + i */
    offload_waits(80, 40, 0.010, 0.020, 0.019, &f, &b);
    T_CHECK(f == 0 && b == 0, "19 ms copies of 40 layers in an 800 ms forward: no wait (%g, %g)",
            f, b);
    offload_waits(80, 0, 0.010, 0.020, 1, &f, &b);
    T_CHECK(f == 0 && b == 0, "nothing offloaded, nothing waited");
}

/* By hand: 4 layers of 1 s forward and 2 s backward, the first 2 offloaded,
 * 3 s a copy.  Forward: copies out end at 4 and 7; layer 2 starts at 2,
 * waits 2 for layer 0's, ends at 5; layer 3 waits 2 for layer 1's, ends at
 * 8.  Backward: layer 3 ends at 10 and starts layer 1's copy back (to 13),
 * layer 2 ends at 12 and starts layer 0's (to 16); layer 1 waits 1, ends at
 * 15; layer 0 waits 1. */
static void copies_that_lag_stall_it(void)
{
    double f, b;

    offload_waits(4, 2, 1, 2, 3, &f, &b);
    T_NEAR(f, 4, 1e-12, "forward waits 2 + 2 s for the copies out");
    T_NEAR(b, 2, 1e-12, "backward waits 1 + 1 s for the copies back");
    /* the waits grow with the copy, never past the copies' own time */
    offload_waits(80, 40, 0.010, 0.020, 0.040, &f, &b);
    T_CHECK(f > 0 && f < 40 * 0.040, "40 ms copies of 40 layers in an 800 ms forward: %.3f s "
            "waited, under the 1.6 s of copies", f);
}

/* What the GPU keeps: the activations of the layers not offloaded. */
static void the_gpu_keeps_the_rest(void)
{
    struct cat_model m;
    struct cat_gpu g;
    struct cat_instance in;
    struct scenario sc;
    struct mem_use all, part;

    memset(&m, 0, sizeof m);
    memset(&g, 0, sizeof g);
    memset(&in, 0, sizeof in);
    t_llama3_8b(&m);
    g.mem_gib = 80;
    in.gpu_count = 8;
    in.gpu = &g;
    in.gpu_mem_gib = NAN;
    scenario_defaults(&sc, "offload");
    sc.workload.model = &m;
    sc.workload.precision = CAT_BF16;
    sc.parallel.micro_batch = 2;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &all);
    sc.workload.offload_layers = 24;
    memory_of(&sc, SC_SHARD_NONE, &in, 8, 8, &part);
    T_NEAR(part.activations, all.activations * 8 / 32, 1e-12,
           "24 of 32 layers offloaded: 8 layers' activations stay (%.1f of %.1f GiB)",
           part.activations / (1 << 30), all.activations / (1 << 30));
    T_NEAR(part.weights + part.optimizer, all.weights + all.optimizer, 1e-12,
           "the model state does not move");
}

int main(void)
{
    T_RUN(copies_the_compute_hides);
    T_RUN(copies_that_lag_stall_it);
    T_RUN(the_gpu_keeps_the_rest);
    return T_DONE();
}
