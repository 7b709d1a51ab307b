# calibrate.mk - included by the Makefile: the GPU and NCCL parts of
# calibrate/ and the programs of the emulated multi-host tests.
#
# With nvcc under CUDA_HOME (default /usr/local/cuda) the GPU and NCCL parts
# are built from calibrate/cuda/*.cu against cuBLAS and NCCL (NCCL_HOME,
# default CUDA_HOME); otherwise calibrate/cuda/none.c stands in and both
# parts report themselves skipped.

CUDA_HOME ?= /usr/local/cuda
NCCL_HOME ?= $(CUDA_HOME)
NVCC      := $(wildcard $(CUDA_HOME)/bin/nvcc)

ifneq ($(NVCC),)
CUDA_OBJ  := $(patsubst %.cu,$(BUILD)/%.o,$(wildcard calibrate/cuda/*.cu))
LIB_OBJ   += $(CUDA_OBJ)
CUDA_LIBDIRS := $(sort $(wildcard $(CUDA_HOME)/lib64) $(wildcard $(CUDA_HOME)/lib) $(wildcard $(NCCL_HOME)/lib64) $(wildcard $(NCCL_HOME)/lib))
LDLIBS    += $(foreach d,$(CUDA_LIBDIRS),-L$(d) -Wl,-rpath,$(d)) -lnccl -lcublas -lcudart -lstdc++
NVCCFLAGS ?= -O2 -std=c++17 -Xcompiler -Wall,-Wextra,-Werror -I$(NCCL_HOME)/include \
             $(filter -I%,$(PKG_CFLAGS))

$(BUILD)/calibrate/cuda/%.o: calibrate/cuda/%.cu calibrate/calib.h calibrate/cuda/gpu_common.h calibrate/cuda/nccl_coll.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -c -o $@ $<
else
LIB_OBJ   += $(BUILD)/calibrate/cuda/none.o
endif

# Programs of tests/suite_netns.sh, built with the unit tests.
NETNS_BIN := $(BUILD)/netns/tcprate $(BUILD)/netns/calib_mpi_main $(BUILD)/netns/predict
units: $(NETNS_BIN)

$(BUILD)/netns/%: tests/netns/%.c $(BUILD)/libdt.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libdt.a $(LDLIBS)
