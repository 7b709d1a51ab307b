/*
 * offload.h - activation offloading to host memory (workload.offload_layers;
 * docs/model.md "Activation offloading"), as Megatron-Core runs it through
 * Transformer Engine's offload context: the first k of a model's L layers
 * copy what they keep for the backward to the host as it is made, and copy
 * it back ahead of their backward, on one side stream; at most L - k
 * layers' activations stay on the GPU, and the compute waits when a copy
 * lags (NVIDIA/TransformerEngine@d0067d0 transformer_engine/pytorch/
 * cpu_offload.py: layer i's copy out finishes before layer L - k + i's
 * forward, its copy back starts after layer L - k + i's backward).
 */
#ifndef DTPLAN_OFFLOAD_H
#define DTPLAN_OFFLOAD_H

/*
 * The compute's waits a micro-batch, forward (*fwd) and backward (*bwd),
 * seconds: L layers of tf and tb seconds a layer, the first k offloaded,
 * each layer's activations copy_s seconds over the host link either way.
 * O(L).
 */
void offload_waits(int layers, int k, double tf, double tb, double copy_s, double *fwd,
                   double *bwd);

struct scenario;

/*
 * Of sc's micro-batch of fwd_s and bwd_s seconds, the waits of its
 * offloaded layers over a host link of link_Bps a GPU and direction.
 * 0 and 0 without offloading or a rate.
 */
void offload_of(const struct scenario *sc, double fwd_s, double bwd_s, double link_Bps,
                double *fwd, double *bwd);

#endif
