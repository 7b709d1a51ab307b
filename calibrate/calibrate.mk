# calibrate.mk - included by the Makefile: the GPU and NCCL parts of
# calibrate/.  For now always the stand-ins of a build without CUDA.
LIB_OBJ += $(BUILD)/calibrate/cuda/none.o
